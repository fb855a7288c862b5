package rewrite

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// fileMeta is what -write keeps of a file it rewrites, and what it
// compares to tell that the file changed.
type fileMeta struct {
	mode    os.FileMode // the permission bits, setuid, setgid and sticky
	size    int64
	modTime time.Time
	sys     sysMeta
	xattrs  []xattr // the extended attributes (POSIX ACLs among them on Linux); nil where the system has none
}

// keptMode are the mode bits -write keeps.
const keptMode = os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky

// sysMeta is what the system says of a file beyond os.FileInfo (see
// sysMetaOf in meta_*.go): the zero sysMeta where it says nothing.
type sysMeta struct {
	owned    bool // the system has owners: uid and gid are the file's
	uid, gid int
	dev, ino uint64 // the file's device and inode
	ctime    int64  // the change time in nanoseconds; 0 where it is not read
}

// xattr is one extended attribute.
type xattr struct {
	name  string
	value []byte
}

// readMeta returns the metadata of the file at path.
func readMeta(path string) (fileMeta, error) {
	info, err := os.Stat(path)
	if err != nil {
		return fileMeta{}, err
	}
	m := fileMeta{mode: info.Mode() & keptMode, size: info.Size(), modTime: info.ModTime(), sys: sysMetaOf(info)}
	m.xattrs, err = listXattrs(path)
	return m, err
}

// differs says what differs between m and now, the metadata of the same
// path read again, or "" when nothing does.
func (m fileMeta) differs(now fileMeta) string {
	switch {
	case m.sys.dev != now.sys.dev || m.sys.ino != now.sys.ino:
		return "it is another file now: its device or inode differs"
	case m.size != now.size || !m.modTime.Equal(now.modTime):
		return "its size or modification time differs"
	case m.mode != now.mode || m.sys.uid != now.sys.uid || m.sys.gid != now.sys.gid:
		return "its mode, owner or group differs"
	case m.sys.ctime != now.sys.ctime:
		return "its change time differs: its mode, owner, links or extended attributes changed"
	case !sameXattrs(m.xattrs, now.xattrs):
		return "its extended attributes differ"
	}
	return ""
}

func sameXattrs(a, b []xattr) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if v, ok := lookupXattr(b, x.name); !ok || !bytes.Equal(v, x.value) {
			return false
		}
	}
	return true
}

func lookupXattr(attrs []xattr, name string) ([]byte, bool) {
	for _, x := range attrs {
		if x.name == name {
			return x.value, true
		}
	}
	return nil, false
}

// apply gives f, a new file that is to replace target, target's metadata
// m: its owner and group first (a change of owner clears the setuid and
// setgid bits, and on Linux file capabilities), then its extended
// attributes (dropping those the new file got that target has not, such
// as an ACL inherited from the folder), then its mode.
func (m fileMeta) apply(f *os.File, target string) error {
	if err := m.chown(f, target); err != nil {
		return err
	}
	if err := m.copyXattrs(f.Name(), target); err != nil {
		return err
	}
	return f.Chmod(m.mode)
}

// chown gives f target's owner and group, when it has others. It refuses
// when the system does not let this user do so: the rename would then
// give the file to the user who ran the program.
func (m fileMeta) chown(f *os.File, target string) error {
	info, err := f.Stat()
	if err != nil || !m.sys.owned {
		return err
	}
	mine := sysMetaOf(info)
	if mine.uid == m.sys.uid && mine.gid == m.sys.gid {
		return nil
	}
	if err := f.Chown(m.sys.uid, m.sys.gid); err != nil {
		return fmt.Errorf("cannot keep the owner of %s (uid %d, gid %d): a file written here belongs to uid %d, gid %d, and chown says %v; run kici-preflight as the file's owner or as root, or pin with -diff",
			target, m.sys.uid, m.sys.gid, mine.uid, mine.gid, unwrapPath(err))
	}
	return nil
}

// copyXattrs makes the extended attributes of the file at tmp those of m.
func (m fileMeta) copyXattrs(tmp, target string) error {
	have, err := listXattrs(tmp)
	if err != nil {
		return err
	}
	for _, x := range have {
		if _, ok := lookupXattr(m.xattrs, x.name); !ok {
			if err := removeXattr(tmp, x.name); err != nil {
				return fmt.Errorf("cannot drop the extended attribute %s that a file written beside %s gets: %v", x.name, target, unwrapPath(err))
			}
		}
	}
	for _, x := range m.xattrs {
		if v, ok := lookupXattr(have, x.name); ok && bytes.Equal(v, x.value) {
			continue
		}
		if err := setXattr(tmp, x.name, x.value); err != nil {
			return fmt.Errorf("cannot keep the extended attribute %s of %s: %v", x.name, target, unwrapPath(err))
		}
	}
	return nil
}

// unwrapPath is err without the path of an *fs.PathError: the path of a
// temporary file says nothing to the user.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
