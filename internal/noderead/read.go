// Package noderead reads a file as node 20 reads it in KiCI, and refuses
// what node cannot read. Nothing makes a read hang or grow without end:
//
//   - a path that is not a regular file (a named pipe, a device, a socket,
//     a directory), symbolic links followed, is refused before it is
//     opened for reading ([NotRegular]), and a folder that is not a
//     directory before it is listed ([NotDir]);
//   - a file longer than the node call that reads it takes is refused as
//     node fails on it ([TooLong], [Limit]), counted without keeping it
//     when its size alone cannot tell;
//   - a config file of more list and mapping entries than node's yaml
//     parses in node's heap is refused before it is parsed ([HeapLimit],
//     [CheckEntries]).
//
// A refusal is an *[Error]; any other error is the fs or reader error.
// scalerconfig turns an Error into its own FileError.
package noderead

import (
	"errors"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/internal/errtext"
	"github.com/kicikit/kicikit/internal/jsstr"
)

// MaxTextUnits is V8's String::kMaxLength in node 20 on a 64-bit
// machine, in UTF-16 code units: 2^29 − 24 (0x1fffffe8). No JavaScript
// string is longer.
const MaxTextUnits = 1<<29 - 24

// MaxReadFileBytes is the largest file fs/promises readFile reads: its
// kIoMaxLength, 2^31 − 1 bytes. It fails on a larger one at once.
const MaxReadFileBytes = 1<<31 - 1

// Limit says which node call reads a file, and so how much it takes.
// Any value but EnvFileLimit reads as ConfigLimit.
type Limit uint8

const (
	// ConfigLimit is the orchestrator's readFile(path, "utf-8") of each
	// config file. A file over MaxReadFileBytes fails at once
	// (ERR_FS_FILE_TOO_LARGE). Any other is read up to the size its open
	// file reports, or to its end when that size is 0, as for /proc. It
	// fails when its text passes MaxTextUnits UTF-16 code units
	// ("RangeError: Invalid string length").
	ConfigLimit Limit = iota
	// EnvFileLimit is kici-admin's readFileSync(path, "utf-8") of the
	// service's env file. It reads to the end of the file. It fails when
	// the bytes read are MaxTextUnits or more (ERR_STRING_TOO_LONG),
	// whatever they decode to.
	EnvFileLimit
)

// Kind is why a read refuses a file.
type Kind uint8

// The kinds of refusal.
const (
	NotRegular Kind = iota + 1 // the path is not a regular file
	NotDir                     // the folder's path is not a directory
	TooLong                    // the file is longer than node reads
	HeapLimit                  // node's yaml runs out of heap on the file
)

// Error is a file or folder that a read refuses.
type Error struct {
	Path string      // the file or folder, as the read names it
	Mode fs.FileMode // for NotRegular and NotDir: the mode Stat reported
	// Size, for TooLong, is the bytes read before the read stopped. It is
	// the size Stat reported when that was enough. For HeapLimit, it is
	// the file's size.
	Size int64
	Kind Kind // why the read refuses it
	// Entries, for HeapLimit, is the collection entries counted in the
	// file. FlowEntries are those of flow collections among them.
	Entries, FlowEntries int
	// NodeError, for TooLong and HeapLimit, is what node throws or prints
	// as it stops. It is written as String(err) writes it.
	NodeError string
}

// Error returns the path, quoted, and what is wrong with the file.
func (e *Error) Error() string {
	what := "kind " + strconv.Itoa(int(e.Kind))
	switch e.Kind {
	case NotRegular:
		what = modeName(e.Mode) + ", not a regular file"
	case NotDir:
		what = modeName(e.Mode) + ", not a directory"
	case TooLong:
		what = strconv.FormatInt(e.Size, 10) + " bytes" + tooLongWhy(e.NodeError) + ": node fails with " + e.NodeError
	case HeapLimit:
		what = strconv.FormatInt(e.Size, 10) + " bytes" + heapLimitWhy(e.Entries, e.FlowEntries) + ": node fails with " + e.NodeError
	}
	return errtext.Quote(e.Path) + ": " + what
}

// tooLongWhy says why node fails with the error node on a file.
func tooLongWhy(node string) string {
	switch {
	case node == nodeTooLong:
		return ", whose text passes JavaScript's longest string (536870888 UTF-16 code units)"
	case node == nodeSyncLimit:
		return ", as many as JavaScript's longest string has UTF-16 code units (536870888) or more"
	case strings.HasPrefix(node, "RangeError [ERR_FS_FILE_TOO_LARGE]"):
		return ", more than node reads of a file (2 GiB)"
	}
	return ""
}

// modeName says what kind of file a mode is.
func modeName(m fs.FileMode) string {
	t := m.Type()
	if t == 0 {
		return "a regular file"
	}
	kinds := [...]struct {
		bit  fs.FileMode
		name string
	}{
		{fs.ModeDir, "a directory"},
		{fs.ModeSymlink, "a symbolic link"},
		{fs.ModeNamedPipe, "a named pipe (FIFO)"},
		{fs.ModeSocket, "a socket"},
		{fs.ModeCharDevice, "a character device"}, // before ModeDevice, which it comes with
		{fs.ModeDevice, "a block device"},
	}
	for _, k := range kinds {
		if t&k.bit != 0 {
			return k.name
		}
	}
	return "an irregular file (mode " + m.String() + ")"
}

// The errors node throws on a file too long for it.
const (
	nodeTooLong   = "RangeError: Invalid string length"
	nodeSyncLimit = "Error: Cannot create a string longer than 0x1fffffe8 characters"
)

// ReadFile returns the bytes of the regular file name in fsys, read as
// limit's node call reads it. It checks the path with fs.Stat before it
// opens it, and the open file's Stat again. So a device or a folder put
// in its place is never read. Only a named pipe put there between the two
// checks makes the open wait, as node's open waits. [io/fs.FS] has no way
// to open without waiting.
//
// No read goes past the size the open file's Stat reports. A file of more
// than MaxTextUnits bytes is counted first, keeping nothing. So one too
// long is refused in little memory.
func ReadFile(fsys fs.FS, name string, limit Limit) ([]byte, error) {
	return reader{limit: limit, max: MaxTextUnits}.readFile(fsys, name)
}

// ReadAll reads r to its end as [ReadFile] reads a file. It is for a file
// with no path to check, such as standard input. With no size to stop
// at, ConfigLimit takes up to three bytes a unit before it refuses a text
// (about 1.5 GiB).
func ReadAll(r io.Reader, name string, limit Limit) ([]byte, error) {
	return reader{limit: limit, max: MaxTextUnits}.read(r, name, 0, true)
}

// ReadDir returns the entries of the folder name in fsys. A path that is
// not a directory, symbolic links followed, is refused before it is
// opened. Opening a named pipe would wait.
func ReadDir(fsys fs.FS, name string) ([]fs.DirEntry, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, &Error{Path: name, Mode: info.Mode(), Kind: NotDir}
	}
	return fs.ReadDir(fsys, name)
}

// reader reads files under a limit: limit's rules with at most max UTF-16
// code units (MaxTextUnits; the tests try less).
type reader struct {
	limit Limit
	max   int64
}

// readFile is ReadFile.
func (rd reader) readFile(fsys fs.FS, name string) ([]byte, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if err := regular(name, info); err != nil {
		return nil, err
	}
	if rd.limit != EnvFileLimit && info.Size() > rd.max {
		// The text may be too long: count it first, keeping nothing.
		if _, err := rd.open(fsys, name, false); err != nil {
			return nil, err
		}
	}
	return rd.open(fsys, name, true)
}

// regular is nil for a regular file, else why not.
func regular(name string, info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return &Error{Path: name, Mode: info.Mode(), Kind: NotRegular}
	}
	return nil
}

// open opens the file, checks what its Stat says, and reads it (keep) or
// only counts its text.
func (rd reader) open(fsys fs.FS, name string, keep bool) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := regular(name, info); err != nil {
		return nil, err
	}
	size := info.Size()
	if err := rd.checkSize(name, size); err != nil {
		return nil, err
	}
	var r io.Reader = f
	if rd.limit != EnvFileLimit && size > 0 {
		r = io.LimitReader(f, size) // node reads no more than the size
	}
	return rd.read(r, name, size, keep)
}

// checkSize refuses a regular file whose size alone says it is too long.
// With ConfigLimit, that is node's own check, and a file of more than
// three bytes for each UTF-16 code unit it may hold (no UTF-8 sequence,
// nor an invalid part that becomes one U+FFFD, is longer for its units).
func (rd reader) checkSize(name string, size int64) error {
	e := &Error{Path: name, Mode: 0, Size: size, Kind: TooLong}
	switch {
	case rd.limit == EnvFileLimit && size >= rd.max:
		e.NodeError = nodeSyncLimit
	case rd.limit != EnvFileLimit && size > MaxReadFileBytes:
		e.NodeError = "RangeError [ERR_FS_FILE_TOO_LARGE]: File size (" + strconv.FormatInt(size, 10) + ") is greater than 2 GiB"
	case rd.limit != EnvFileLimit && size > 3*rd.max:
		e.NodeError = nodeTooLong
	default:
		return nil
	}
	return e
}

// read reads r to its end under the limit, keeping the bytes or only
// counting them. size is what Stat said (0: unknown); a size above zero
// and at most max needs no count, since no byte is more than one UTF-16
// code unit.
func (rd reader) read(r io.Reader, name string, size int64, keep bool) ([]byte, error) {
	buf := make([]byte, 0, startCap(size, keep))
	count := rd.limit != EnvFileLimit && (size <= 0 || size > rd.max)
	var text jsstr.UTF16Counter
	var total int64
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		if count {
			text.Add(buf[len(buf) : len(buf)+n])
		}
		total += int64(n)
		if keep {
			buf = buf[:len(buf)+n]
		}
		if tooLong := rd.over(name, total, text.Units()); tooLong != nil {
			return nil, tooLong
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if tooLong := rd.over(name, total, text.End()); tooLong != nil {
		return nil, tooLong
	}
	return buf, nil
}

// startCap is the buffer read starts with: the whole file and one byte
// (to see its end without growing) when it is kept and its size known, a
// window of 1 MiB when it is only counted (a smaller one makes as many
// more system calls: 64 KiB reads of a sparse file take ten times as long).
func startCap(size int64, keep bool) int {
	switch {
	case !keep:
		return 1 << 20
	case size > 0 && size < MaxReadFileBytes:
		return int(size) + 1
	}
	return 512
}

// over is the Error of a read past the limit, or nil: total bytes read,
// units UTF-16 code units of text counted.
func (rd reader) over(name string, total, units int64) error {
	node := nodeTooLong
	switch {
	case rd.limit == EnvFileLimit && total >= rd.max:
		node = nodeSyncLimit
	case rd.limit == EnvFileLimit || units <= rd.max:
		return nil
	}
	return &Error{Path: name, Size: total, Kind: TooLong, NodeError: node}
}
