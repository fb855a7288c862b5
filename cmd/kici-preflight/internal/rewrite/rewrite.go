// Package rewrite replaces files in place for kici-preflight -write: each
// atomically, all or none, each keeping its owner, group, mode and
// extended attributes, and none that changed since it was read.
package rewrite

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// File is a file to rewrite.
type File struct {
	Path  string // the file, as the program opened it
	Shown string // the file as the messages name it
	Old   []byte // the bytes read from it, which it must still hold
	New   []byte // the bytes to write in their place
}

// All writes every file in place, atomically each and all or none: each
// goes to a temporary file in the same folder, with the file's owner,
// group, mode and extended attributes, renamed over it. When one file
// cannot be written, cannot keep its owner or attributes, or changed since
// it was read, no file is written.
//
// beforeRename, a test's hook when not nil, is called once the new files
// wait beside the old ones, before the old ones are checked for changes.
func All(files []File, beforeRename func()) error {
	var all []*staged
	defer func() {
		for _, s := range all {
			if s.tmp != "" {
				os.Remove(s.tmp) // those not renamed
			}
		}
	}()
	for i := range files {
		s, err := stage(&files[i])
		if s != nil {
			all = append(all, s)
		}
		if err != nil {
			return fmt.Errorf("nothing written: %w", err)
		}
	}
	if beforeRename != nil {
		beforeRename()
	}
	for _, s := range all {
		if err := s.unchanged(); err != nil {
			return fmt.Errorf("nothing written: %w", err)
		}
	}
	return rename(all)
}

// staged is a file whose new bytes wait in a temporary file beside it,
// with its owner, group, mode and extended attributes, to be renamed over
// it.
type staged struct {
	file   *File
	target string   // the file, through any symbolic link
	meta   fileMeta // the file's, when it was staged
	tmp    string   // "" once renamed
}

// rename renames each staged file over its target, in order; when one
// fails, it puts back those already renamed.
func rename(files []*staged) error {
	for i, s := range files {
		if err := os.Rename(s.tmp, s.target); err != nil {
			return undo(files[:i], err)
		}
		s.tmp = ""
	}
	return nil
}

// stage writes the new bytes of f to a temporary file beside its target,
// once the target is found to hold what was read.
func stage(f *File) (*staged, error) {
	target, err := filepath.EvalSymlinks(f.Path)
	if err != nil {
		return nil, err
	}
	meta, err := readMeta(target)
	if err != nil {
		return nil, err
	}
	s := &staged{file: f, target: target, meta: meta}
	if err := s.sameBytes(); err != nil {
		return nil, err
	}
	s.tmp, err = writeTemp(target, f.New, meta)
	return s, err
}

// unchanged reports, as an error, that s's target changed since it was
// staged, or since it was read. It compares what a change of the file
// changes: its device and inode (another file renamed in its place), size,
// modification time, mode, owner and group and, on Linux, its change time
// (which any change of those, of its links or of its extended attributes
// moves); then its bytes, read again, with those read before. It is called
// just before the rename: a change in between is lost, as with any editor.
func (s *staged) unchanged() error {
	now, err := readMeta(s.target)
	if err != nil {
		return err
	}
	if what := s.meta.differs(now); what != "" {
		return fmt.Errorf("%s changed since it was read (%s): check it again", s.file.Shown, what)
	}
	return s.sameBytes()
}

// sameBytes reports, as an error, that s's target no longer holds the
// bytes read before.
func (s *staged) sameBytes() error {
	now, err := os.ReadFile(s.target)
	if err != nil {
		return err
	}
	if !bytes.Equal(now, s.file.Old) {
		return fmt.Errorf("%s changed since it was read (its bytes differ): check it again", s.file.Shown)
	}
	return nil
}

// writeTemp writes data to a temporary file beside target with target's
// owner, group, mode and extended attributes (meta), and returns its path.
// It refuses, leaving no file, when it cannot give it one of them.
func writeTemp(target string, data []byte, meta fileMeta) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".kici-preflight-*")
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		err = meta.apply(f, target)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// undo puts back the files already renamed, after err stopped the others.
func undo(renamed []*staged, err error) error {
	var failed []error
	for _, s := range renamed {
		tmp, werr := writeTemp(s.target, s.file.Old, s.meta)
		if werr == nil {
			if werr = os.Rename(tmp, s.target); werr != nil {
				os.Remove(tmp)
			}
		}
		if werr != nil {
			failed = append(failed, fmt.Errorf("%s is pinned, and could not be put back: %w", s.file.Shown, werr))
		}
	}
	return errors.Join(append([]error{fmt.Errorf("nothing written: %w", err)}, failed...)...)
}
