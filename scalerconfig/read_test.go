package scalerconfig

import (
	"io/fs"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/noderead"
)

// The reads' own cases (every limit, every kind of file, a file that
// grows, one that never ends) are noderead's tests. These hold LocateFile
// and Load to what they make of them: a *FileError and a Reason, and
// errors that name the call.

// TestLocateFileNotRegular refuses every kind of env file but a regular
// one, saying what it is.
func TestLocateFileNotRegular(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode fs.FileMode
		what string
	}{
		{fs.ModeDir | 0o755, "a directory"},
		{fs.ModeNamedPipe | 0o644, "a named pipe (FIFO)"},
		{fs.ModeSocket | 0o755, "a socket"},
		{fs.ModeDevice | fs.ModeCharDevice | 0o666, "a character device"},
	}
	for _, tt := range tests {
		t.Run(tt.what, func(t *testing.T) {
			t.Parallel()
			loc, ok, err := Options{}.LocateFile(fstest.MapFS{"f": {Mode: tt.mode}}, "f", "/")
			var fe *FileError
			require.ErrorAs(t, err, &fe)
			assert.ErrorIs(t, err, ErrNotRegular)
			assert.Equal(t, tt.mode, fe.Mode)
			assert.Equal(t, `scalerconfig.LocateFile("f"): "f": `+tt.what+", not a regular file", err.Error())
			assert.Equal(t, Location{}, loc)
			assert.False(t, ok)
		})
	}
}

// TestLocateFile passes the fs errors on, wrapped, and locates the config
// an env file names, as Locate does.
func TestLocateFile(t *testing.T) {
	t.Parallel()
	_, _, err := Options{}.LocateFile(fstest.MapFS{}, "etc/kici/orchestrator.env", "/")
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Equal(t, `scalerconfig.LocateFile("etc/kici/orchestrator.env"): open etc/kici/orchestrator.env: file does not exist`, err.Error())

	env := "KICI_SCALER_CONFIG_PATH=scalers.yaml\nKICI_SCALER_CONFIG_DIR=/etc/kici/scalers.d\n"
	fsys := fstest.MapFS{"etc/kici/orchestrator.env": {Data: []byte(env)}, "empty.env": {}}
	loc, ok, err := Options{}.LocateFile(fsys, "etc/kici/orchestrator.env", "/var/lib/kici")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, Location{Path: "/var/lib/kici/scalers.yaml", Dir: "/etc/kici/scalers.d"}, loc)
	wloc, ok, err := Options{Windows: true}.LocateFile(fsys, "etc/kici/orchestrator.env", `C:\kici`)
	require.NoError(t, err)
	assert.True(t, ok)
	want, _ := Options{Windows: true}.Locate([]byte(env), `C:\kici`)
	assert.Equal(t, want, wloc)
	loc, ok, err = Options{}.LocateFile(fsys, "empty.env", "/")
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Equal(t, Location{}, loc)
}

// TestLoadNotRegular refuses, in every read of a load, what is not a
// regular file (or, for the drop-in folder, not a directory), naming it
// as the load names its files.
func TestLoadNotRegular(t *testing.T) {
	t.Parallel()
	main := &fstest.MapFile{Data: []byte("version: 1\nscalers: []\n")}
	pipe := &fstest.MapFile{Mode: fs.ModeNamedPipe}
	tests := []struct {
		name   string
		fsys   fstest.MapFS
		reason Reason
		text   string // Load's error
		osText string // Location.Load's error
	}{
		{name: "the main file", fsys: fstest.MapFS{"etc/kici/scalers.yaml": pipe, "etc/kici/scalers.d/a.yaml": main},
			reason: ErrNotRegular,
			text:   `scalerconfig.Load("etc/kici/scalers.yaml"): "etc/kici/scalers.yaml": a named pipe (FIFO), not a regular file`,
			osText: `scalerconfig.Load("/etc/kici/scalers.yaml"): "/etc/kici/scalers.yaml": a named pipe (FIFO), not a regular file`},
		{name: "a drop-in", fsys: fstest.MapFS{"etc/kici/scalers.yaml": main, "etc/kici/scalers.d/a.yaml": {Mode: fs.ModeDevice | fs.ModeCharDevice}},
			reason: ErrNotRegular,
			text:   `scalerconfig.Load("etc/kici/scalers.d/a.yaml"): "etc/kici/scalers.d/a.yaml": a character device, not a regular file`,
			osText: `scalerconfig.Load("/etc/kici/scalers.d/a.yaml"): "/etc/kici/scalers.d/a.yaml": a character device, not a regular file`},
		{name: "a folder named as a drop-in", fsys: fstest.MapFS{"etc/kici/scalers.yaml": main, "etc/kici/scalers.d/a.yaml/b": main},
			reason: ErrNotRegular,
			text:   `scalerconfig.Load("etc/kici/scalers.d/a.yaml"): "etc/kici/scalers.d/a.yaml": a directory, not a regular file`,
			osText: `scalerconfig.Load("/etc/kici/scalers.d/a.yaml"): "/etc/kici/scalers.d/a.yaml": a directory, not a regular file`},
		{name: "the drop-in folder", fsys: fstest.MapFS{"etc/kici/scalers.yaml": main, "etc/kici/scalers.d": pipe},
			reason: ErrNotDir,
			text:   `scalerconfig.Load("etc/kici/scalers.d"): "etc/kici/scalers.d": a named pipe (FIFO), not a directory`,
			osText: `scalerconfig.Load("/etc/kici/scalers.d"): "/etc/kici/scalers.d": a named pipe (FIFO), not a directory`},
		{name: "a drop-in folder that is a file", fsys: fstest.MapFS{"etc/kici/scalers.yaml": main, "etc/kici/scalers.d": main},
			reason: ErrNotDir,
			text:   `scalerconfig.Load("etc/kici/scalers.d"): "etc/kici/scalers.d": a regular file, not a directory`,
			osText: `scalerconfig.Load("/etc/kici/scalers.d"): "/etc/kici/scalers.d": a regular file, not a directory`},
	}
	loc := Location{Path: "/etc/kici/scalers.yaml", Dir: "/etc/kici/scalers.d"}
	each := func(int, *Scaler) {}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Load(tt.fsys, "etc/kici/scalers.yaml", "etc/kici/scalers.d")
			assert.ErrorIs(t, err, tt.reason)
			assert.EqualError(t, err, tt.text)
			_, err = Location{Path: "etc/kici/scalers.yaml", Dir: "etc/kici/scalers.d"}.Scan(tt.fsys, ScanOptions{}, each)
			assert.EqualError(t, err, tt.text)
			_, err = loc.Load(tt.fsys)
			var fe *FileError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tt.reason, fe.Reason)
			assert.EqualError(t, err, tt.osText)
			_, err = loc.Scan(tt.fsys, ScanOptions{}, each)
			assert.EqualError(t, err, tt.osText)
		})
	}
}

// TestLoadReadsOnce checks a refused drop-in once, though a load by item
// that gives up reads the drop-ins again.
func TestLoadReadsOnce(t *testing.T) {
	t.Parallel()
	fsys := &countingFS{MapFS: fstest.MapFS{
		"s.yaml":   {Data: []byte("version: 1\nscalers:\n  - name: a\n")},
		"d/a.yaml": {Mode: fs.ModeNamedPipe},
	}}
	_, err := Load(fsys, "s.yaml", "d")
	assert.ErrorIs(t, err, ErrNotRegular)
	assert.Equal(t, 1, fsys.stats["d/a.yaml"])
}

// countingFS is a MapFS that counts the Stat of each file.
type countingFS struct {
	fstest.MapFS
	stats map[string]int
}

func (c *countingFS) Stat(name string) (fs.FileInfo, error) {
	if c.stats == nil {
		c.stats = map[string]int{}
	}
	c.stats[name]++
	return c.MapFS.Stat(name)
}

// TestLoadGrowing loads a config whose main file never ends: no more
// than the size its Stat says is read, as node reads it, and a size of
// more than three bytes for each unit of JavaScript's longest string is
// refused by itself. (A file without a size is read to the limit:
// noderead's TestReadLimit.)
func TestLoadGrowing(t *testing.T) {
	t.Parallel()
	text := "version: 1\nscalers: []\n#"
	cfg, err := Load(growingFS{size: int64(len(text)), text: text}, "f", "")
	require.NoError(t, err)
	assert.Equal(t, 1, cfg.Version)

	_, err = Load(growingFS{size: 3*noderead.MaxTextUnits + 1, text: text}, "f", "")
	var fe *FileError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, ErrTooLong, fe.Reason)
	assert.Contains(t, err.Error(), `scalerconfig.Load("f"): "f": `)
	assert.Contains(t, err.Error(), " bytes, whose text passes JavaScript's longest string (536870888 UTF-16 code units): node fails with RangeError: Invalid string length")
}

// growingFS holds one regular file whose Stat says size but that never
// ends.
type growingFS struct {
	size int64
	text string
}

func (g growingFS) Open(string) (fs.File, error) { return growingFile{g}, nil }

type growingFile struct{ g growingFS }

func (f growingFile) Stat() (fs.FileInfo, error) { return f, nil }
func (f growingFile) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = f.g.text[i%len(f.g.text)]
	}
	return len(p), nil
}
func (f growingFile) Close() error       { return nil }
func (f growingFile) Name() string       { return "f" }
func (f growingFile) Size() int64        { return f.g.size }
func (f growingFile) Mode() fs.FileMode  { return 0o644 }
func (f growingFile) ModTime() time.Time { return time.Time{} }
func (f growingFile) IsDir() bool        { return false }
func (f growingFile) Sys() any           { return nil }

// TestLoadInvalidPath: Load refuses a path that is not one of its fs.FS
// before it opens anything, and says which path the fs.FS would hold.
func TestLoadInvalidPath(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"etc/kici/scalers.yaml": {Data: []byte("version: 1\nscalers: []\n")}}
	why := ": not a path fs.ValidPath accepts: a path is relative to the root of the file system it is read from"
	tests := []struct {
		path, dir, want string
	}{
		{"/etc/kici/scalers.yaml", "",
			`scalerconfig.Load("/etc/kici/scalers.yaml"): "/etc/kici/scalers.yaml"` + why + ` (os.DirFS("/") holds it as "etc/kici/scalers.yaml")`},
		{"etc/kici/scalers.yaml", "/etc/kici/scalers.d",
			`scalerconfig.Load("/etc/kici/scalers.d"): "/etc/kici/scalers.d"` + why + ` (os.DirFS("/") holds it as "etc/kici/scalers.d")`},
		{"../kici/scalers.yaml", "", `scalerconfig.Load("../kici/scalers.yaml"): "../kici/scalers.yaml"` + why},
		{"etc/kici/./scalers.yaml", "", `scalerconfig.Load("etc/kici/./scalers.yaml"): "etc/kici/./scalers.yaml"` + why},
		{"//etc/kici/../scalers.yaml", "", `scalerconfig.Load("//etc/kici/../scalers.yaml"): "//etc/kici/../scalers.yaml"` + why},
		{"", "", `scalerconfig.Load(""): ""` + why},
	}
	for _, tt := range tests {
		_, err := Load(fsys, tt.path, tt.dir)
		assert.EqualError(t, err, tt.want)
		assert.ErrorIs(t, err, ErrInvalidPath)
		var fe *FileError
		if assert.ErrorAs(t, err, &fe) {
			assert.Equal(t, ErrInvalidPath, fe.Reason)
		}
	}
	_, err := Load(fsys, "etc/kici/scalers.yaml", "")
	assert.NoError(t, err, "the same file, by its path in fsys")
}

// TestFileErrorText says what is wrong with the file, and what node throws.
func TestFileErrorText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  *FileError
		want string
	}{
		{&FileError{Path: "a.yaml", Size: 536870912, Reason: ErrTooLong, NodeError: "RangeError: Invalid string length"},
			`"a.yaml": 536870912 bytes, whose text passes JavaScript's longest string (536870888 UTF-16 code units): node fails with RangeError: Invalid string length`},
		{&FileError{Path: "a.yaml", Size: 1 << 31, Reason: ErrTooLong, NodeError: "RangeError [ERR_FS_FILE_TOO_LARGE]: File size (2147483648) is greater than 2 GiB"},
			`"a.yaml": 2147483648 bytes, more than node reads of a file (2 GiB): node fails with RangeError [ERR_FS_FILE_TOO_LARGE]: File size (2147483648) is greater than 2 GiB`},
		{&FileError{Path: "o.env", Size: noderead.MaxTextUnits, Reason: ErrTooLong, NodeError: "Error: Cannot create a string longer than 0x1fffffe8 characters"},
			`"o.env": 536870888 bytes, as many as JavaScript's longest string has UTF-16 code units (536870888) or more: node fails with Error: Cannot create a string longer than 0x1fffffe8 characters`},
		{&FileError{Path: "d", Mode: fs.ModeNamedPipe, Reason: ErrNotDir}, `"d": a named pipe (FIFO), not a directory`},
		{&FileError{Path: "\n\x00" + strings.Repeat("a", 100), Mode: fs.ModeSocket, Reason: ErrNotRegular},
			`"\n\x00aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"... (102 bytes): a socket, not a regular file`},
		{&FileError{Path: "x", Reason: ErrConflict}, `"x": another edit changes the same value differently`},
		{&FileError{Path: "../x", Reason: ErrNotFSPath}, `"../x": ` + ErrNotFSPath.Error()},
		{&FileError{Path: "b.yaml", Size: 12, Reason: ErrHeapLimit, Entries: 8_000_000, FlowEntries: 2, NodeError: "FATAL ERROR"},
			`"b.yaml": 12 bytes, at least 8000000 entries of lists and mappings, 2 of them in flow collections (node's yaml runs out of node's default heap from 8000000 entries, 6000000 in flow collections, or as many of both as fill it): node fails with FATAL ERROR`},
	}
	for _, tt := range tests {
		t.Run(tt.err.Reason.Error(), func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.err.Error())
			assert.ErrorIs(t, tt.err, tt.err.Reason)
		})
	}
	assert.Equal(t, "not a regular file", ErrNotRegular.Error())
	assert.Equal(t, "not a directory", ErrNotDir.Error())
	assert.Equal(t, "longer than node reads", ErrTooLong.Error())
}

// allocated is the bytes the program allocated so far.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}
