package noderead

import (
	"errors"
	"io"
	"io/fs"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// info is an fs.FileInfo of a size and a mode.
type info struct {
	size int64
	mode fs.FileMode
}

func (i info) Name() string       { return "f" }
func (i info) Size() int64        { return i.size }
func (i info) Mode() fs.FileMode  { return i.mode }
func (i info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool        { return i.mode.IsDir() }
func (i info) Sys() any           { return nil }

// fakeFS holds one file, "f", whose fs.Stat, open file's Stat and bytes
// are given, and counts how often it is opened and read.
type fakeFS struct {
	stat, opened     info
	bytes            func() io.Reader // a new reader for each open
	opens, reads     int
	openErr, statErr error // what Open and the open file's Stat fail with
}

func (f *fakeFS) Stat(name string) (fs.FileInfo, error) {
	if name != "f" {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return f.stat, nil
}

func (f *fakeFS) Open(name string) (fs.File, error) {
	if name != "f" {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	f.opens++
	if f.openErr != nil {
		return nil, f.openErr
	}
	return &fakeFile{fsys: f, r: f.bytes()}, nil
}

type fakeFile struct {
	fsys *fakeFS
	r    io.Reader
}

func (f *fakeFile) Stat() (fs.FileInfo, error) {
	if f.fsys.statErr != nil {
		return nil, f.fsys.statErr
	}
	return f.fsys.opened, nil
}
func (f *fakeFile) Close() error { return nil }
func (f *fakeFile) Read(p []byte) (int, error) {
	f.fsys.reads++
	return f.r.Read(p)
}

// endless is a file that never ends: its text repeated.
type endless struct {
	text string
	at   int
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], e.text[e.at:])
		n += c
		e.at = (e.at + c) % len(e.text)
		if e.at == 0 && len(e.text) < 4096 {
			e.text = strings.Repeat(e.text, 2) // fewer copies
		}
	}
	return n, nil
}

// regularFile is a fakeFS of a regular file of the text, whose Stat says
// its size.
func regularFile(text string) *fakeFS {
	i := info{size: int64(len(text)), mode: 0o644}
	return &fakeFS{stat: i, opened: i, bytes: func() io.Reader { return strings.NewReader(text) }}
}

// growing is a fakeFS of a file whose Stat says size but that never ends.
func growing(size int64, text string) *fakeFS {
	i := info{size: size, mode: 0o644}
	return &fakeFS{stat: i, opened: i, bytes: func() io.Reader { return &endless{text: text} }}
}

// TestReadLimit reads files of every shape through a limit of 64 UTF-16
// code units: the text of a config may be 64 units, whatever its bytes;
// the bytes of an env file fewer than 64.
func TestReadLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		fsys   *fakeFS
		limit  Limit
		want   int   // the bytes read, when the read succeeds
		size   int64 // FileError.Size when it fails
		node   string
		opens  int
		anyLen bool // the bytes read when it stops depend on the buffer's growth
	}{
		{name: "64 ASCII bytes", fsys: regularFile(strings.Repeat("a", 64)), want: 64, opens: 1},
		{name: "65 ASCII bytes", fsys: regularFile(strings.Repeat("a", 65)), size: 65, node: nodeTooLong, opens: 1},
		{name: "32 four-byte characters: 64 units", fsys: regularFile(strings.Repeat("😀", 32)), want: 128, opens: 2},
		{name: "33 four-byte characters: 66 units", fsys: regularFile(strings.Repeat("😀", 33)), size: 132, node: nodeTooLong, opens: 1},
		{name: "64 three-byte characters", fsys: regularFile(strings.Repeat("€", 64)), want: 192, opens: 2},
		{name: "65 three-byte characters: refused by the size", fsys: regularFile(strings.Repeat("€", 65)), size: 195, node: nodeTooLong, opens: 1},
		{name: "64 invalid bytes", fsys: regularFile(strings.Repeat("\xff", 64)), want: 64, opens: 1},
		{name: "65 invalid bytes", fsys: regularFile(strings.Repeat("\xff", 65)), size: 65, node: nodeTooLong, opens: 1},
		{name: "a sequence cut short at the end is one unit", fsys: regularFile(strings.Repeat("a", 63) + "\xe2\x82"), want: 65, opens: 2},
		{name: "a sequence cut short by a byte is one unit", fsys: regularFile(strings.Repeat("a", 63) + "\xe2b"), size: 65, node: nodeTooLong, opens: 1},
		{name: "a file that grows is read to its size", fsys: growing(10, "a"), want: 10, opens: 1},
		{name: "a file that grows past the limit is read to its size", fsys: growing(200, "a"), size: 200, node: nodeTooLong, opens: 1},
		{name: "a file of no size that never ends", fsys: growing(0, "€"), node: nodeTooLong, opens: 1, anyLen: true},
		{name: "larger than node reads", fsys: growing(MaxReadFileBytes+1, "a"), size: MaxReadFileBytes + 1,
			node: "RangeError [ERR_FS_FILE_TOO_LARGE]: File size (2147483648) is greater than 2 GiB", opens: 1},
		{name: "env file: 63 bytes", fsys: regularFile(strings.Repeat("€", 21)), limit: EnvFileLimit, want: 63, opens: 1},
		{name: "env file: 64 bytes", fsys: regularFile(strings.Repeat("a", 64)), limit: EnvFileLimit, size: 64, node: nodeSyncLimit, opens: 1},
		{name: "env file that grows", fsys: growing(10, "a"), limit: EnvFileLimit, node: nodeSyncLimit, opens: 1, anyLen: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := reader{limit: tt.limit, max: 64}.readFile(tt.fsys, "f")
			assert.Equal(t, tt.opens, tt.fsys.opens, "opens")
			if tt.node == "" {
				require.NoError(t, err)
				assert.Len(t, b, tt.want)
				return
			}
			var fe *Error
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, TooLong, fe.Kind)
			assert.Equal(t, tt.node, fe.NodeError)
			if tt.anyLen {
				assert.GreaterOrEqual(t, fe.Size, int64(64))
				assert.Less(t, fe.Size, int64(64<<10), "stops within a read of the limit")
			} else {
				assert.Equal(t, tt.size, fe.Size)
			}
		})
	}
}

// TestReadFileNotRegular refuses every kind of file but a regular one
// without opening it, for both limits, saying what it is.
func TestReadFileNotRegular(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode fs.FileMode
		what string
	}{
		{fs.ModeDir | 0o755, "a directory"},
		{fs.ModeNamedPipe | 0o644, "a named pipe (FIFO)"},
		{fs.ModeSocket | 0o755, "a socket"},
		{fs.ModeDevice | fs.ModeCharDevice | 0o666, "a character device"},
		{fs.ModeDevice | 0o660, "a block device"},
		{fs.ModeSymlink | 0o777, "a symbolic link"},
		{fs.ModeIrregular, "an irregular file (mode ?---------)"},
	}
	for _, tt := range tests {
		for _, limit := range []Limit{ConfigLimit, EnvFileLimit} {
			t.Run(tt.what, func(t *testing.T) {
				t.Parallel()
				fsys := &fakeFS{stat: info{mode: tt.mode}, bytes: func() io.Reader { return &endless{text: "\x00"} }}
				_, err := ReadFile(fsys, "f", limit)
				var fe *Error
				require.ErrorAs(t, err, &fe)
				assert.Equal(t, NotRegular, fe.Kind)
				assert.Equal(t, tt.mode, fe.Mode)
				assert.Equal(t, `"f": `+tt.what+", not a regular file", err.Error())
				assert.Zero(t, fsys.opens, "never opened")
			})
		}
	}
}

// TestReadFileSwapped refuses a file that Stat calls regular but whose
// open file is something else: a device or a pipe put in its place.
func TestReadFileSwapped(t *testing.T) {
	t.Parallel()
	for _, mode := range []fs.FileMode{fs.ModeDevice | fs.ModeCharDevice, fs.ModeNamedPipe, fs.ModeDir} {
		fsys := &fakeFS{stat: info{size: 10}, opened: info{mode: mode}, bytes: func() io.Reader { return &endless{text: "\x00"} }}
		_, err := ReadFile(fsys, "f", ConfigLimit)
		var fe *Error
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, NotRegular, fe.Kind)
		assert.Equal(t, 1, fsys.opens)
		assert.Zero(t, fsys.reads, "never read")
	}
}

// TestReadFileErrors passes the fs errors on.
func TestReadFileErrors(t *testing.T) {
	t.Parallel()
	_, err := ReadFile(fstest.MapFS{}, "etc/kici/orchestrator.env", EnvFileLimit)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Equal(t, `open etc/kici/orchestrator.env: file does not exist`, err.Error())

	boom := errors.New("boom")
	fsys := regularFile("abc")
	fsys.bytes = func() io.Reader { return io.MultiReader(strings.NewReader("ab"), &failing{boom}) }
	_, err = ReadFile(fsys, "f", ConfigLimit)
	assert.ErrorIs(t, err, boom)
	fsys = regularFile("abc")
	fsys.openErr = boom
	_, err = ReadFile(fsys, "f", ConfigLimit)
	assert.ErrorIs(t, err, boom)
	fsys = regularFile("abc")
	fsys.statErr = boom
	_, err = ReadFile(fsys, "f", ConfigLimit)
	assert.ErrorIs(t, err, boom)
	assert.Zero(t, fsys.reads)

	b, err := ReadFile(fstest.MapFS{"s.yaml": {Data: []byte("version: 1\n")}}, "s.yaml", ConfigLimit)
	require.NoError(t, err)
	assert.Equal(t, "version: 1\n", string(b))
}

type failing struct{ err error }

func (f *failing) Read([]byte) (int, error) { return 0, f.err }

// TestReadAll reads standard input as a file is read: to its end, under
// the limit, its errors naming it.
func TestReadAll(t *testing.T) {
	t.Parallel()
	b, err := ReadAll(strings.NewReader("version: 1\n"), "<stdin>", ConfigLimit)
	require.NoError(t, err)
	assert.Equal(t, "version: 1\n", string(b))
	b, err = ReadAll(strings.NewReader(""), "<stdin>", EnvFileLimit)
	require.NoError(t, err)
	assert.Empty(t, b)

	boom := errors.New("boom")
	_, err = ReadAll(&failing{boom}, "<stdin>", ConfigLimit)
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, boom, err)

	for _, limit := range []Limit{ConfigLimit, EnvFileLimit} {
		_, err = reader{limit: limit, max: 1000}.read(&endless{text: "\x00"}, "<stdin>", 0, true)
		var fe *Error
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, TooLong, fe.Kind)
		assert.Less(t, fe.Size, int64(4096))
	}
}

// TestGrowingAtTheLimit reads, with the real limit, a file whose Stat
// says it is larger than the limit and that never ends: the read that
// counts it refuses it, and keeps nothing of it.
func TestGrowingAtTheLimit(t *testing.T) {
	fsys := growing(1<<29, "a")
	start := time.Now()
	alloc := allocated()
	_, err := ReadFile(fsys, "f", ConfigLimit)
	used, took := allocated()-alloc, time.Since(start)
	var fe *Error
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, TooLong, fe.Kind)
	assert.Equal(t, int64(1<<29), fe.Size, "read to its size, as node reads it")
	assert.Less(t, used, uint64(16<<20), "allocated while counting")
	t.Logf("2^29 bytes counted in %v, %d bytes allocated", took, used)
}

// allocated is the bytes the program allocated so far.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// TestReadDir lists a directory, and refuses a folder that is not one
// before it opens it.
func TestReadDir(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"d/a.yaml": {}, "pipe": {Mode: fs.ModeNamedPipe}}
	entries, err := ReadDir(fsys, "d")
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, "a.yaml", entries[0].Name())

	_, err = ReadDir(fsys, "pipe")
	var fe *Error
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, Error{Path: "pipe", Mode: fs.ModeNamedPipe, Kind: NotDir}, *fe)
	assert.Equal(t, `"pipe": a named pipe (FIFO), not a directory`, err.Error())

	_, err = ReadDir(fsys, "none")
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

// TestErrorText says what is wrong with the file, and what node throws.
func TestErrorText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  Error
		want string
	}{
		{name: "text too long", err: Error{Path: "a.yaml", Size: 536870912, Kind: TooLong, NodeError: nodeTooLong},
			want: `"a.yaml": 536870912 bytes, whose text passes JavaScript's longest string (536870888 UTF-16 code units): node fails with RangeError: Invalid string length`},
		{name: "file too large", err: Error{Path: "a.yaml", Size: 1 << 31, Kind: TooLong, NodeError: "RangeError [ERR_FS_FILE_TOO_LARGE]: File size (2147483648) is greater than 2 GiB"},
			want: `"a.yaml": 2147483648 bytes, more than node reads of a file (2 GiB): node fails with RangeError [ERR_FS_FILE_TOO_LARGE]: File size (2147483648) is greater than 2 GiB`},
		{name: "env file too long", err: Error{Path: "o.env", Size: MaxTextUnits, Kind: TooLong, NodeError: nodeSyncLimit},
			want: `"o.env": 536870888 bytes, as many as JavaScript's longest string has UTF-16 code units (536870888) or more: node fails with Error: Cannot create a string longer than 0x1fffffe8 characters`},
		{name: "another node error", err: Error{Path: "a", Size: 3, Kind: TooLong, NodeError: "Error: x"},
			want: `"a": 3 bytes: node fails with Error: x`},
		{name: "a block device", err: Error{Path: "sda", Mode: fs.ModeDevice, Kind: NotRegular}, want: `"sda": a block device, not a regular file`},
		{name: "a regular file", err: Error{Path: "d", Kind: NotDir}, want: `"d": a regular file, not a directory`},
		{name: "unknown kind", err: Error{Path: "x", Kind: 9}, want: `"x": kind 9`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.err.Error())
		})
	}
}
