package scalerconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/kicikit/kicikit/internal/errtext"
	"github.com/kicikit/kicikit/internal/noderead"
)

// Reading files: the bounded reads of internal/noderead, the FileError a
// caller gets when one refuses a file, and how a load reads and names
// its files.

// FileError is a file or folder that a read refuses ([ErrNotRegular],
// [ErrNotDir], [ErrTooLong], [ErrHeapLimit]). It is also a Location path
// that names no file of the file system ([ErrNotFSPath]), and a path of
// Load's that fs.ValidPath refuses ([ErrInvalidPath]). Load and the
// others wrap it with their name, as they wrap an fs error:
//
//	scalerconfig.Load("/dev/zero"): "/dev/zero": a character device, not a regular file
type FileError struct {
	Path string // the file or folder, named as the read names it
	// Mode is the file's mode, as Stat reported it with symbolic links
	// followed. It is set for ErrNotRegular and ErrNotDir.
	Mode fs.FileMode
	// Size, for ErrTooLong, is the bytes read before the read stopped. It
	// is the size Stat reported when that was enough. For ErrHeapLimit, it
	// is the file's size.
	Size   int64
	Reason Reason // why: ErrNotRegular, ErrNotDir, ErrTooLong, ErrHeapLimit, ErrNotFSPath or ErrInvalidPath
	// Entries, for ErrHeapLimit, is the list and mapping entries counted
	// in the file. FlowEntries are those of flow collections.
	Entries, FlowEntries int
	// NodeError is what node throws or prints as it stops, such as
	// "RangeError: Invalid string length". It is set for ErrTooLong and
	// ErrHeapLimit. The orchestrator does not catch it, and starts no
	// scaler. The upgrade's image check catches it and says nothing.
	NodeError string
}

// Error returns the path, quoted as errtext.Quote quotes it, and what is
// wrong with the file. For an absolute path that fs.ValidPath refuses, it
// adds the path os.DirFS("/") holds it as.
func (e *FileError) Error() string {
	for _, k := range readKinds() {
		if k.reason == e.Reason {
			ne := noderead.Error{Path: e.Path, Mode: e.Mode, Size: e.Size, Kind: k.kind,
				Entries: e.Entries, FlowEntries: e.FlowEntries, NodeError: e.NodeError}
			return ne.Error()
		}
	}
	msg := errtext.Quote(e.Path) + ": " + e.Reason.Error()
	if rel := strings.TrimLeft(e.Path, "/"); e.Reason == ErrInvalidPath && rel != e.Path && fs.ValidPath(rel) {
		msg += ` (os.DirFS("/") holds it as ` + errtext.Quote(rel) + ")"
	}
	return msg
}

// Unwrap returns e.Reason, for errors.Is.
func (e *FileError) Unwrap() error { return e.Reason }

// readKind pairs a refusal of noderead with its Reason.
type readKind struct {
	kind   noderead.Kind
	reason Reason
}

// readKinds are the refusals of noderead.
func readKinds() [4]readKind {
	return [4]readKind{
		{noderead.NotRegular, ErrNotRegular},
		{noderead.NotDir, ErrNotDir},
		{noderead.TooLong, ErrTooLong},
		{noderead.HeapLimit, ErrHeapLimit},
	}
}

// fileError is err with a refusal of noderead made a *FileError.
func fileError(err error) error {
	var ne *noderead.Error
	if !errors.As(err, &ne) {
		return err
	}
	fe := &FileError{Path: ne.Path, Mode: ne.Mode, Size: ne.Size,
		Entries: ne.Entries, FlowEntries: ne.FlowEntries, NodeError: ne.NodeError}
	for _, k := range readKinds() {
		if k.kind == ne.Kind {
			fe.Reason = k.reason
		}
	}
	return fe
}

// wrapRead is err of the read of name by the function fn:
// "<fn>(<name>): <err>".
func wrapRead(fn, name string, err error) error {
	return fmt.Errorf("%s(%s): %w", fn, errtext.Quote(name), err)
}

// files is where a load reads the config's files from, and how its
// positions, problems and errors name them.
type files struct {
	fsys fs.FS
	// loc, when not nil, is the Location the load was given, whose paths
	// name the files; else a file is named by its path in fsys.
	loc *Location
	// file and dir are the paths in fsys of loc's Path and Dir.
	file, dir string
	// sums are the files read, by name, for LabelSet.ImageEdit.
	sums map[string]fileSum
	// refused are the files a read refused, by path, so that a load that
	// reads a drop-in twice (by item, then whole) checks it once.
	refused map[string]error
}

// name is how the load names the file at path p of fsys: as [Location.Load]
// was given it (Location.Path, or a drop-in under Location.Dir, joined with
// the Location's separator), or p itself.
func (f files) name(p string) string {
	name, _ := f.lookup(p)
	return name
}

// lookup is name, and whether the Location names p: its Path, its Dir or
// a file under its Dir.
func (f files) lookup(p string) (string, bool) {
	switch {
	case f.loc == nil:
		return p, false
	case p == f.file:
		return f.loc.Path, true
	case p == f.dir && f.dir != "":
		return f.loc.Dir, true
	}
	if rest, ok := strings.CutPrefix(p, f.dir+"/"); ok && f.dir != "" {
		return f.loc.join(f.loc.Dir, rest), true
	}
	return p, false
}

// readFile returns the bytes of the file at path p, read as the
// orchestrator reads it (noderead.ReadFile with ConfigLimit), and refused when they
// hold more entries than node's yaml parses in node's heap; an error
// names it.
func (f files) readFile(p string) ([]byte, error) {
	if err, ok := f.refused[p]; ok {
		return nil, err
	}
	b, err := noderead.ReadFile(f.fsys, p, noderead.ConfigLimit)
	if err == nil {
		err = noderead.CheckEntries(p, b)
	}
	if err != nil {
		err = f.wrap(p, err)
		if f.refused != nil {
			f.refused[p] = err
		}
		return nil, err
	}
	if f.sums != nil {
		f.sums[f.name(p)] = sumOf(b)
	}
	return b, nil
}

// stamp records in each label set of s the file that declares it, as read.
func (f files) stamp(s *Scaler) {
	for i := range s.LabelSets {
		ls := &s.LabelSets[i]
		if ls.ImagePos.IsValid() {
			ls.loaded = f.sums[ls.ImagePos.File]
		}
	}
}

// stampAll stamps every scaler of cfg, which may be nil.
func (f files) stampAll(cfg *Config) {
	if cfg == nil {
		return
	}
	for i := range cfg.Scalers {
		f.stamp(&cfg.Scalers[i])
	}
}

// readDir returns the entries of the folder at path p; an error names it.
// A path that is not a directory, symbolic links followed, is refused
// before it is opened (ErrNotDir): opening a named pipe would wait.
func (f files) readDir(p string) ([]fs.DirEntry, error) {
	entries, err := noderead.ReadDir(f.fsys, p)
	if err != nil {
		return nil, f.wrap(p, err)
	}
	return entries, nil
}

// wrap is err, from reading the file at p, as Load returns it:
// "scalerconfig.Load(<name>): <err>", its *fs.PathError or *FileError
// naming the file as the load names it.
func (f files) wrap(p string, err error) error {
	err = fileError(err)
	var pe *fs.PathError
	var fe *FileError
	switch {
	case errors.As(err, &pe) && pe.Path == p:
		err = &fs.PathError{Op: pe.Op, Path: f.name(p), Err: pe.Err}
	case errors.As(err, &fe) && fe.Path == p:
		named := *fe
		named.Path = f.name(p)
		err = &named
	}
	return fmt.Errorf("scalerconfig.Load(%s): %w", errtext.Quote(f.name(p)), err)
}
