package rewrite

import (
	"bytes"
	"errors"
	"io/fs"
	"syscall"
)

// changeTime is a file's change time, in nanoseconds.
func changeTime(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }

// listXattrs returns the extended attributes of the file at path, POSIX
// ACLs (system.posix_acl_access) and security labels among them; none on a
// file system without them.
func listXattrs(path string) ([]xattr, error) {
	list, err := xattrCall(func(b []byte) (int, error) { return syscall.Listxattr(path, b) })
	if errors.Is(err, syscall.ENOTSUP) {
		return nil, nil
	}
	if err != nil {
		return nil, &fs.PathError{Op: "listxattr", Path: path, Err: err}
	}
	var attrs []xattr
	for _, name := range bytes.Split(bytes.TrimSuffix(list, []byte{0}), []byte{0}) {
		if len(name) == 0 {
			continue
		}
		value, err := xattrCall(func(b []byte) (int, error) { return syscall.Getxattr(path, string(name), b) })
		if errors.Is(err, syscall.ENODATA) {
			continue // removed since it was listed
		}
		if err != nil {
			return nil, &fs.PathError{Op: "getxattr " + string(name), Path: path, Err: err}
		}
		attrs = append(attrs, xattr{name: string(name), value: value})
	}
	return attrs, nil
}

// xattrCall calls get, which fills a buffer as listxattr and getxattr do,
// first for the size, then with a buffer that large, again while the value
// grows in between (ERANGE).
func xattrCall(get func([]byte) (int, error)) ([]byte, error) {
	for range 8 {
		n, err := get(nil)
		if err != nil || n == 0 {
			return nil, err
		}
		b := make([]byte, n)
		n, err = get(b)
		if !errors.Is(err, syscall.ERANGE) {
			return b[:max(n, 0)], err
		}
	}
	return nil, syscall.ERANGE
}

// setXattr sets the extended attribute name of the file at path.
func setXattr(path, name string, value []byte) error {
	if err := syscall.Setxattr(path, name, value, 0); err != nil {
		return &fs.PathError{Op: "setxattr " + name, Path: path, Err: err}
	}
	return nil
}

// removeXattr removes the extended attribute name of the file at path.
func removeXattr(path, name string) error {
	if err := syscall.Removexattr(path, name); err != nil {
		return &fs.PathError{Op: "removexattr " + name, Path: path, Err: err}
	}
	return nil
}
