package scalerconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/kicikit/kicikit/internal/errtext"
)

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
}

// name is how the load names the file at path p of fsys: as [Location.Load]
// was given it (Location.Path, or a drop-in under Location.Dir, joined with
// the Location's separator), or p itself.
func (f files) name(p string) string {
	if f.loc == nil {
		return p
	}
	if p == f.file {
		return f.loc.Path
	}
	if rest, ok := strings.CutPrefix(p, f.dir+"/"); ok && f.dir != "" {
		return f.loc.join(f.loc.Dir, rest)
	}
	if p == f.dir {
		return f.loc.Dir
	}
	return p
}

// readFile returns the bytes of the file at path p; an error names it.
func (f files) readFile(p string) ([]byte, error) {
	b, err := fs.ReadFile(f.fsys, p)
	if err != nil {
		return nil, f.wrap(p, err)
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
func (f files) readDir(p string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(f.fsys, p)
	if err != nil {
		return nil, f.wrap(p, err)
	}
	return entries, nil
}

// wrap is err, from reading the file at p, as Load returns it:
// "scalerconfig.Load(<name>): <err>", its *fs.PathError naming the file
// as the load names it.
func (f files) wrap(p string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == p {
		err = &fs.PathError{Op: pe.Op, Path: f.name(p), Err: pe.Err}
	}
	return fmt.Errorf("scalerconfig.Load(%s): %w", errtext.Quote(f.name(p)), err)
}
