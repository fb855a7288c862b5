//go:build unix

package scalerconfig

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// within runs f, and fails the test when it has not returned after d: a
// read of a named pipe waits for a writer forever, one of /dev/zero grows
// until memory runs out.
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		require.Failf(t, "a read that does not end", "still reading after %v", d)
	}
}

// hostileDir makes a config folder holding, beside a valid main file,
// every kind of file that is not one: a named pipe, /dev/zero and
// /dev/urandom through symbolic links, a directory, a socket.
func hostileDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("scalers.yaml", "version: 1\nscalers: []\n")
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o644))
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml")))
	require.NoError(t, os.Symlink("/dev/urandom", filepath.Join(dir, "urandom.yaml")))
	require.NoError(t, os.Symlink("/dev/null", filepath.Join(dir, "null.d")))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "dir.yaml"), 0o755))
	require.NoError(t, os.Symlink("fifo.yaml", filepath.Join(dir, "fifo.d")))
	l, err := net.Listen("unix", filepath.Join(dir, "sock.yaml"))
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	return dir
}

// TestLoadHostileFiles loads, through os.DirFS, a main file, a drop-in
// and a drop-in folder of every kind that is not a regular file (or a
// directory): each is refused at once, named, with what it is.
func TestLoadHostileFiles(t *testing.T) {
	dir := hostileDir(t)
	tests := []hostileCase{
		{main: "fifo.yaml", reason: ErrNotRegular, what: "a named pipe (FIFO), not a regular file"},
		{main: "zero.yaml", reason: ErrNotRegular, what: "a character device, not a regular file"},
		{main: "urandom.yaml", reason: ErrNotRegular, what: "a character device, not a regular file"},
		{main: "dir.yaml", reason: ErrNotRegular, what: "a directory, not a regular file"},
		{main: "sock.yaml", reason: ErrNotRegular, what: "a socket, not a regular file"},
		{dropIn: "fifo.yaml", reason: ErrNotRegular, what: "a named pipe (FIFO), not a regular file"},
		{dropIn: "zero.yaml", reason: ErrNotRegular, what: "a character device, not a regular file"},
		{dropIn: "dir.yaml", reason: ErrNotRegular, what: "a directory, not a regular file"},
		{dropIn: "sock.yaml", reason: ErrNotRegular, what: "a socket, not a regular file"},
		{folder: "fifo.d", reason: ErrNotDir, what: "a named pipe (FIFO), not a directory"},
		{folder: "null.d", reason: ErrNotDir, what: "a character device, not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.main+tt.dropIn+tt.folder, func(t *testing.T) {
			loc, named := tt.location(t, dir)
			var err error
			start := time.Now()
			within(t, 5*time.Second, func() { _, err = loc.Load(os.DirFS("/")) })
			t.Logf("refused in %v", time.Since(start))
			var fe *FileError
			require.ErrorAs(t, err, &fe)
			assert.ErrorIs(t, err, tt.reason)
			assert.Equal(t, named, fe.Path)
			assert.Contains(t, err.Error(), `"`+named+`": `+tt.what)
		})
	}
}

// hostileCase is a config with one file of hostileDir in it: as its
// main file, as a drop-in (linked into a drop-in folder as x.yaml), or as
// its drop-in folder.
type hostileCase struct {
	main, dropIn, folder string
	reason               Reason
	what                 string
}

// location is where the case puts the config, and the file it refuses,
// as Location.Load names it.
func (tt hostileCase) location(t *testing.T, dir string) (Location, string) {
	t.Helper()
	switch {
	case tt.main != "":
		return Location{Path: filepath.Join(dir, tt.main)}, filepath.Join(dir, tt.main)
	case tt.folder != "":
		return Location{Path: filepath.Join(dir, "scalers.yaml"), Dir: filepath.Join(dir, tt.folder)}, filepath.Join(dir, tt.folder)
	}
	drop := t.TempDir()
	require.NoError(t, os.Symlink(filepath.Join(dir, tt.dropIn), filepath.Join(drop, "x.yaml")))
	return Location{Path: filepath.Join(dir, "scalers.yaml"), Dir: drop}, filepath.Join(drop, "x.yaml")
}

// TestLocateFileHostile reads the env file of each kind through LocateFile.
func TestLocateFileHostile(t *testing.T) {
	dir := hostileDir(t)
	for _, name := range []string{"fifo.yaml", "zero.yaml", "urandom.yaml", "dir.yaml", "sock.yaml"} {
		var err error
		within(t, 5*time.Second, func() { _, _, err = Options{}.LocateFile(os.DirFS(dir), name, "/") })
		assert.ErrorIs(t, err, ErrNotRegular, name)
	}
}

// TestLoadSparse loads sparse files of 2^29 and 2^31 bytes of zeros,
// longer than the text node's readFile makes: refused, the first after one
// read that keeps nothing, the second by its size alone.
func TestLoadSparse(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		size int64
		node string
	}{
		{1 << 29, "RangeError: Invalid string length"},
		{1 << 31, "RangeError [ERR_FS_FILE_TOO_LARGE]: File size (2147483648) is greater than 2 GiB"},
	}
	for _, tt := range tests {
		// Not parallel: each measures its memory and time, in one file.
		t.Run(strconv.FormatInt(tt.size, 10)+" bytes", func(t *testing.T) {
			name := filepath.Join(dir, "scalers.yaml")
			f, err := os.Create(name)
			require.NoError(t, err)
			require.NoError(t, f.Truncate(tt.size))
			require.NoError(t, f.Close())

			start, alloc := time.Now(), allocated()
			var lerr error
			within(t, 30*time.Second, func() { _, lerr = Location{Path: name}.Load(os.DirFS("/")) })
			took, used := time.Since(start), allocated()-alloc
			var fe *FileError
			require.ErrorAs(t, lerr, &fe)
			assert.Equal(t, ErrTooLong, fe.Reason)
			assert.Equal(t, tt.node, fe.NodeError)
			assert.Equal(t, tt.size, fe.Size)
			assert.Less(t, used, uint64(16<<20), "bytes allocated")
			t.Logf("%d bytes refused in %v, %d bytes allocated", tt.size, took, used)

			_, _, err = Options{}.LocateFile(os.DirFS(dir), "scalers.yaml", "/")
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, "Error: Cannot create a string longer than 0x1fffffe8 characters", fe.NodeError, "the env file is refused by its size")
			require.NoError(t, os.Remove(name))
		})
	}
}
