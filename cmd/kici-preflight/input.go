package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/kicikit/kicikit/scalerconfig"
)

// stdinName is the name standard input goes by, in the file system Load
// reads and in the output.
const stdinName = "<stdin>"

// input is the scaler config to check: where it is, and every file Load
// read, by the path Load opened it by.
type input struct {
	fsys      *recordFS
	path, dir string // as Load opens them
	shownPath string // as the user or the env file named them
	shownDir  string
	separator string // the operating system's path separator
	noConfig  string // why there is nothing to check, when the env file names no config
	fromStdin bool
}

// recordFS is a file system that keeps the bytes of every file read, for
// the ignore comments and the pins.
type recordFS struct {
	base  fs.FS // nil: only the files already in files
	files map[string][]byte
}

func (r *recordFS) Open(name string) (fs.File, error) {
	if r.base == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return r.base.Open(name)
}

func (r *recordFS) ReadFile(name string) ([]byte, error) {
	if b, ok := r.files[name]; ok {
		return b, nil
	}
	if r.base == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	b, err := fs.ReadFile(r.base, name)
	if err == nil {
		r.files[name] = b
	}
	return b, err
}

// locate finds the config the options name: the env file's, or -config
// and -dir.
func (c *check) locate() (*input, error) {
	o := c.opts
	in := &input{fsys: &recordFS{files: map[string][]byte{}}, separator: string(filepath.Separator)}
	path, dir := o.config, o.dir
	if o.envFile != "" {
		env, err := os.ReadFile(o.envFile)
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s: %w", o.envFile, pe.Err) // as an unreadable config reads
		}
		if err != nil {
			return nil, err
		}
		loc, ok := scalerconfig.Options{Windows: o.windows}.Locate(env, o.workdir)
		if !ok {
			in.noConfig = escape(o.envFile) + " names no scaler config (no KICI_SCALER_CONFIG_PATH): nothing to check"
			return in, nil
		}
		path, dir = loc.Path, loc.Dir
	}
	in.shownPath, in.shownDir = path, dir
	if path == "-" {
		data, err := io.ReadAll(c.stdin)
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		in.fromStdin, in.path, in.shownPath = true, stdinName, stdinName
		in.fsys.files[stdinName] = data
	}
	return in, in.root(path, dir, o.windows)
}

// root sets the file system Load reads: the root of the volume of the
// paths, with the paths relative to it, as scalerconfig.Location.FS gives
// them.
func (in *input) root(path, dir string, windows bool) error {
	if in.fromStdin {
		if dir == "" {
			return nil // nothing but standard input to read
		}
		path = dir
	}
	loc := scalerconfig.Location{Windows: windows}
	var err error
	if loc.Path, err = filepath.Abs(path); err != nil {
		return err
	}
	if dir != "" {
		if loc.Dir, err = filepath.Abs(dir); err != nil {
			return err
		}
	}
	volume, file, d, err := loc.FS()
	if err != nil {
		return err
	}
	if !in.fromStdin {
		in.path = file
	}
	in.dir = d
	in.fsys.base = os.DirFS(volume + string(filepath.Separator))
	return nil
}

// shown returns a file Load read, as the user named it: the config path,
// or the drop-in folder as given and the file's name.
func (in *input) shown(file string) string {
	switch {
	case file == in.path:
		return in.shownPath
	case file == in.dir:
		return in.shownDir
	case in.dir != "" && strings.HasPrefix(file, in.dir+"/"):
		name := file[len(in.dir)+1:]
		if strings.HasSuffix(in.shownDir, "/") || strings.HasSuffix(in.shownDir, in.separator) {
			return in.shownDir + name
		}
		sep := in.separator
		if strings.Contains(in.shownDir, "/") && !strings.Contains(in.shownDir, in.separator) {
			sep = "/" // a folder named with slashes on Windows: its files too
		}
		return in.shownDir + sep + name
	}
	return file
}

// scan reads the config, handing each scaler to each, and returns the
// problems the orchestrator would refuse it for, or an error that the
// files cannot be read.
func (in *input) scan(each func(int, *scalerconfig.Scaler)) ([]scalerconfig.Problem, error) {
	_, err := scalerconfig.Scan(in.fsys, in.path, in.dir, each)
	var bad *scalerconfig.Error
	var pe *fs.PathError
	switch {
	case errors.As(err, &bad):
		return bad.Problems, nil
	case errors.As(err, &pe):
		return nil, fmt.Errorf("%s: %w", in.shown(pe.Path), pe.Err)
	}
	return nil, err
}
