package scalerconfig

import "strconv"

// Reason is why a call of this package refuses its input, for errors.Is.
// The errors it returns wrap one ([EditError], [FileError]). Its values
// are the constants below.
type Reason uint8

// The reasons, in four groups. The first say why [EditImages] refuses an
// edit ([EditError]). [ErrNotFSPath] says a [Location] names no file of a
// file system. The next say why a read refuses a file ([FileError]).
// [Options.LocateFile], [Load], [Location.Load] and [Location.Scan]
// refuse such a file before or as they read it. [ErrInvalidPath] says a
// path given to [Load] is not one of its fs.FS. The last say why
// [ApplyFixes] refuses a fix ([FixError]).
const (
	// ErrNoImageValue: no string value starts and ends at the edit's
	// positions (a position from another file, or from before a change).
	ErrNoImageValue Reason = iota + 1
	// ErrBlockScalar: the image is written as a block scalar (| or >).
	ErrBlockScalar
	// ErrAliased: the value is reached through a YAML alias. Rewriting it
	// would change every place the alias names it.
	ErrAliased
	// ErrStyle: the new image cannot be written in the old value's style
	// and read back as itself. The styles are plain, 'single-quoted' and
	// "double-quoted".
	ErrStyle
	// ErrConflict: two edits of one value, or of overlapping text, disagree.
	ErrConflict
	// ErrChanged: the edited file would read differently in more than the
	// edited images.
	ErrChanged

	// ErrNotFSPath: a Location path names no file of a file system rooted
	// at its volume. It is a relative path that climbs out with "..". Or it
	// is a Dir in another file system than Path's: on another Windows
	// volume, or relative where Path is absolute, or the reverse.
	ErrNotFSPath

	// ErrNotRegular: the path names something other than a regular file,
	// symbolic links followed. FileError.Mode says what: a directory, a
	// named pipe, a device such as /dev/zero, a socket. It is never read:
	// a named pipe would wait for a writer, and a device may never end.
	ErrNotRegular
	// ErrNotDir: the drop-in folder's path names something other than a
	// directory.
	ErrNotDir
	// ErrTooLong: the file is longer than the node call that reads it
	// takes. FileError.NodeError is what node throws.
	ErrTooLong
	// ErrHeapLimit: the file holds more list and mapping entries than
	// node's yaml parses in node's default heap. FileError.Entries and
	// FlowEntries say how many. FileError.NodeError is what node prints as
	// it stops.
	ErrHeapLimit

	// ErrInvalidPath: a path given to [Load] that fs.ValidPath refuses.
	// Load's paths are in the fs.FS it reads, relative to its root, so
	// none starts with "/" or holds an empty, "." or ".." element.
	// os.DirFS("/") holds /etc/kici/scalers.yaml as etc/kici/scalers.yaml.
	// [Location.Load] takes the operating system's paths.
	ErrInvalidPath
	// ErrNoFix: no value the fix can change starts at its position: no
	// flat resources block (a mapping of cpus and memory alone) of a label
	// set or the defaults, or no scaler without platform; or another fix
	// changes it.
	ErrNoFix
	// ErrFixAliased: the value is reached through a YAML alias. Fixing it
	// would change every place the alias names it.
	ErrFixAliased
	// ErrFixChanged: the fixed file would read differently in more than
	// the fixes.
	ErrFixChanged
)

// Error returns a short lower-case description of r.
func (r Reason) Error() string {
	switch r {
	case ErrNoImageValue:
		return "no string value at this position"
	case ErrBlockScalar:
		return "the image is a block scalar (| or >): edit it by hand"
	case ErrAliased:
		return "the image is reached through a YAML alias: rewriting the anchor would change its other uses"
	case ErrStyle:
		return "the new image cannot be written in the value's style"
	case ErrConflict:
		return "another edit changes the same value differently"
	case ErrChanged:
		return "the edit would change more than the image"
	case ErrNotFSPath:
		return "not a path in a file system rooted at its volume"
	case ErrNotRegular:
		return "not a regular file"
	case ErrNotDir:
		return "not a directory"
	case ErrTooLong:
		return "longer than node reads"
	case ErrHeapLimit:
		return "more entries than node's heap holds"
	case ErrInvalidPath:
		return "not a path fs.ValidPath accepts: a path is relative to the root of the file system it is read from"
	case ErrNoFix:
		return "no flat resources block, or scaler without platform, to fix at this position"
	case ErrFixAliased:
		return "the value is reached through a YAML alias: fixing the anchor would change its other uses"
	case ErrFixChanged:
		return "the fix would change more than it fixes"
	}
	return "reason " + strconv.Itoa(int(r))
}
