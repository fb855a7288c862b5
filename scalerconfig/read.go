package scalerconfig

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/internal/errtext"
	"github.com/kicikit/kicikit/internal/jsstr"
)

// MaxTextUnits is the longest string JavaScript holds in node 20 on a
// 64-bit machine, in UTF-16 code units: V8's String::kMaxLength, 2^29 − 24
// (node's buffer.constants.MAX_STRING_LENGTH, 0x1fffffe8). A config file
// whose text is longer fails to load in the orchestrator; [ReadFile],
// [ReadAll] and every read of [Load] refuse it with [ErrTooLong].
const MaxTextUnits = 1<<29 - 24

// MaxReadFileBytes is the largest regular file node 20's fs/promises
// readFile reads (its kIoMaxLength, 2^31 − 1 bytes): a larger one fails
// with ERR_FS_FILE_TOO_LARGE before a byte is read.
const MaxReadFileBytes = 1<<31 - 1

// ReadLimit is how much of a file a read takes before the file is too
// long: as much as the node call that reads that file in KiCI takes before
// it fails. The zero ReadLimit is [ConfigLimit]; any value but
// [EnvFileLimit] reads as ConfigLimit.
type ReadLimit uint8

const (
	// ConfigLimit is the orchestrator's loadScalerConfig reading each config
	// file, the main one and every drop-in, with fs/promises
	// readFile(path, "utf-8"): a regular file larger than
	// [MaxReadFileBytes] fails at once ("RangeError
	// [ERR_FS_FILE_TOO_LARGE]: File size (N) is greater than 2 GiB"); any
	// other is read up to the size its open file reports, decoded as UTF-8
	// 512 KiB at a time and joined, and fails when the text passes
	// [MaxTextUnits] UTF-16 code units ("RangeError: Invalid string
	// length"). A text of exactly MaxTextUnits units loads. (Node stops at
	// the size too, except on a file of more than 512 KiB that grows past
	// its size while it is read, which it reads on until a read comes back
	// short; kicikit stops at the size, which the open file's Stat says.)
	// A file whose Stat says 0 bytes (as files of /proc do) is read to its
	// end, as node reads it.
	ConfigLimit ReadLimit = iota
	// EnvFileLimit is kici-admin's upgrade reading the service's env file
	// with fs.readFileSync(path, "utf-8"): it reads to the end of the file,
	// and fails when the bytes read are [MaxTextUnits] or more, whatever
	// they decode to ("Error: Cannot create a string longer than 0x1fffffe8
	// characters", ERR_STRING_TOO_LONG).
	EnvFileLimit
)

// FileError is a file or folder that a read refuses ([ErrNotRegular],
// [ErrNotDir], [ErrTooLong]). Load and the others return it wrapped with
// their name, as they wrap an fs error: "scalerconfig.Load(\"/dev/zero\"):
// \"/dev/zero\": a character device, not a regular file".
type FileError struct {
	Path string // the file or folder, named as the read names it
	// Mode, for ErrNotRegular and ErrNotDir, is the file's mode as its
	// Stat reported it, symbolic links followed; Mode.Type() says what it
	// is.
	Mode fs.FileMode
	// Size, for ErrTooLong, is the bytes the read took before it stopped,
	// or the size Stat reported when that was enough to refuse it.
	Size   int64
	Reason Reason // why: ErrNotRegular, ErrNotDir, ErrTooLong or ErrHeapLimit
	// Entries, for ErrHeapLimit, is the entries of collections counted in
	// the file ([MaxEntries]), and FlowEntries those of flow collections
	// among them ([MaxFlowEntries]).
	Entries, FlowEntries int
	// NodeError, for ErrTooLong and ErrHeapLimit, is the error node throws
	// (or prints as it stops) on this file,
	// as JavaScript's String(err) writes it: "RangeError: Invalid string
	// length". The orchestrator's loadScalerConfig does not catch it: the
	// orchestrator does not start its scalers; the upgrade's image check
	// catches it and says nothing.
	NodeError string
}

// Error returns the path, quoted as errtext.Quote quotes it, and what is
// wrong with the file.
func (e *FileError) Error() string {
	what := "reason " + strconv.Itoa(int(e.Reason))
	switch e.Reason {
	case ErrNotRegular:
		what = modeName(e.Mode) + ", not a regular file"
	case ErrNotDir:
		what = modeName(e.Mode) + ", not a directory"
	case ErrTooLong:
		what = strconv.FormatInt(e.Size, 10) + " bytes" + tooLongWhy(e.NodeError) + ": node fails with " + e.NodeError
	case ErrHeapLimit:
		what = strconv.FormatInt(e.Size, 10) + " bytes" + heapLimitWhy(e.Entries, e.FlowEntries) + ": node fails with " + e.NodeError
	}
	return errtext.Quote(e.Path) + ": " + what
}

// Unwrap returns e.Reason, for errors.Is.
func (e *FileError) Unwrap() error { return e.Reason }

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
// limit's node call reads it, or an error that says why not. It is how
// Load reads each file; a caller reads the service's env file with
// EnvFileLimit.
//
// It refuses, with a *[FileError] and without opening it for reading, a
// path that is not a regular file, symbolic links followed: a directory,
// a named pipe, a device (/dev/zero, /dev/urandom), a socket. It checks
// the path with fs.Stat first, which opens nothing when fsys implements
// fs.StatFS (os.DirFS and fstest.MapFS do); then it opens the file and
// checks the open file's Stat again, so that a device or folder put in
// its place in between is never read. The window that remains: a named
// pipe put in the file's place after the first check and before the open
// makes the open wait for a writer, as node's open of a named pipe always
// waits. [io/fs.FS] has no way to open without waiting.
//
// It reads through a limit, so that a file that grows while it is read
// cannot pass it: with ConfigLimit, no more than the size the open file's
// Stat reports (where node stops too), and never a text of more than
// [MaxTextUnits] UTF-16 code units; with EnvFileLimit, fewer than
// MaxTextUnits bytes. Past the limit it returns a *FileError with
// [ErrTooLong]. A file of more than MaxTextUnits bytes whose text may be
// short enough is read twice, first only to count its text, so that a
// file too long is refused without holding it. Any other error is the fs
// error. Errors read "scalerconfig.ReadFile(<name>): ...".
func ReadFile(fsys fs.FS, name string, limit ReadLimit) ([]byte, error) {
	b, err := reader{limit: limit, max: MaxTextUnits}.readFile(fsys, name)
	if err != nil {
		return nil, wrapRead("scalerconfig.ReadFile", name, err)
	}
	return b, nil
}

// ReadAll reads r to its end as [ReadFile] reads a file's bytes, for a
// file that has no path to check, such as standard input: with
// ConfigLimit, a text of more than [MaxTextUnits] UTF-16 code units, and
// with EnvFileLimit, MaxTextUnits bytes or more, stop the read with a
// *[FileError] of [ErrTooLong]. name names r in the errors:
// "scalerconfig.ReadAll(\"<stdin>\"): ...". Without a size to stop at, a
// text of three-byte characters takes up to three times MaxTextUnits bytes
// before the limit refuses it (about 1.5 GiB), a text of ASCII or zero
// bytes up to MaxTextUnits (512 MiB).
func ReadAll(r io.Reader, name string, limit ReadLimit) ([]byte, error) {
	rd := reader{limit: limit, max: MaxTextUnits}
	b, err := rd.read(r, name, 0, true)
	if err != nil {
		return nil, wrapRead("scalerconfig.ReadAll", name, err)
	}
	return b, nil
}

// wrapRead is err of the read of name by the function fn:
// "<fn>(<name>): <err>".
func wrapRead(fn, name string, err error) error {
	return fmt.Errorf("%s(%s): %w", fn, errtext.Quote(name), err)
}

// reader reads files under a limit: limit's rules with at most max UTF-16
// code units (MaxTextUnits; the tests try less).
type reader struct {
	limit ReadLimit
	max   int64
}

// readFile is ReadFile's reading, its errors not wrapped.
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
		return &FileError{Path: name, Mode: info.Mode(), Reason: ErrNotRegular}
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
	e := &FileError{Path: name, Mode: 0, Size: size, Reason: ErrTooLong}
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
	text.End()
	if tooLong := rd.over(name, total, text.Units()); tooLong != nil {
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

// over is the FileError of a read past the limit, or nil: total bytes
// read, units UTF-16 code units of text counted.
func (rd reader) over(name string, total, units int64) error {
	node := nodeTooLong
	switch {
	case rd.limit == EnvFileLimit && total >= rd.max:
		node = nodeSyncLimit
	case rd.limit == EnvFileLimit || units <= rd.max:
		return nil
	}
	return &FileError{Path: name, Size: total, Reason: ErrTooLong, NodeError: node}
}
