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

// stdinName is the name standard input goes by in the output.
const stdinName = "<stdin>"

// input is the scaler config to check: where it is, and every file Scan
// read.
type input struct {
	// shown is the config as the user or the env file named it: the
	// orchestrator's scalerConfigPath and scalerConfigDir, which the
	// findings' messages name (Path is stdinName for -config -).
	shown scalerconfig.Location
	// loc is the config as Scan reads it, and so as the positions,
	// problems and errors name its files: shown when every path of it is
	// relative and inside the working folder (read from there), else with
	// every path absolute (read from the root of their volume).
	loc       scalerconfig.Location
	fsys      *recordFS
	noConfig  string // why there is nothing to check, when the env file names no config
	fromStdin bool
}

// recordFS is the file system Scan reads, which keeps the bytes of every
// file read, for the ignore comments, the pins and the SARIF regions, by
// the name the positions give it (Location.OSPath of its path) and by its
// path: Location.OSPath of a relative Windows location returns a drop-in
// whose name is its path (conf/scalers.d/10.yaml) as if it were under the
// volume's root (\conf\scalers.d\10.yaml), while the positions name it
// by its path. scalerconfig reads a file with fs.ReadFile, which calls
// ReadFile here.
type recordFS struct {
	base      fs.FS  // nil: no file but standard input
	stdinPath string // the path in the file system standard input goes by; "" without it
	stdin     []byte
	loc       scalerconfig.Location // names the files, as Scan's positions do
	files     map[string][]byte     // by the name the positions give
}

func (r *recordFS) Open(name string) (fs.File, error) {
	if r.base == nil || name == r.stdinPath {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return r.base.Open(name)
}

func (r *recordFS) ReadFile(name string) ([]byte, error) {
	if name == r.stdinPath {
		r.record(name, r.stdin)
		return r.stdin, nil
	}
	if r.base == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	b, err := fs.ReadFile(r.base, name)
	if err == nil {
		r.record(name, b)
	}
	return b, err
}

// record keeps the bytes b of the file at name, by the names the positions
// may give it.
func (r *recordFS) record(name string, b []byte) {
	r.files[r.loc.OSPath(name)] = b
	r.files[name] = b
}

// readWhole returns the bytes of the file at name or, when stdin is not
// nil, of standard input: the env file and -config -. It is the one place
// where the program reads either.
func readWhole(name string, stdin io.Reader) ([]byte, error) {
	if stdin != nil {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		return b, nil
	}
	b, err := os.ReadFile(name)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("%s: %w", name, pe.Err) // as an unreadable config reads
	}
	return b, err
}

// locate finds the config the options name: the env file's, or -config
// and -dir.
func (c *check) locate() (*input, error) {
	o := c.opts
	in := &input{shown: scalerconfig.Location{Path: o.config, Dir: o.dir, Windows: o.windows}}
	if o.envFile != "" {
		env, err := readWhole(o.envFile, nil)
		if err != nil {
			return nil, err
		}
		loc, ok := scalerconfig.Options{Windows: o.windows}.Locate(env, o.workdir)
		if !ok {
			in.noConfig = escape(o.envFile) + " names no scaler config (no KICI_SCALER_CONFIG_PATH): nothing to check"
			return in, nil
		}
		in.shown = loc
	}
	var stdin []byte
	if o.config == "-" {
		var err error
		if stdin, err = readWhole(stdinName, c.stdin); err != nil {
			return nil, err
		}
		in.fromStdin, in.shown.Path = true, stdinName
	}
	return in, in.open(stdin)
}

// open sets the Location Scan reads and the file system it reads it from:
// the working folder when every path is relative and inside it, as is most
// common (the positions then name the files as they were given), else the
// root of their volume, with every path made absolute (the positions then
// name them so). Standard input is a file of that file system, at the
// root, named stdinName.
func (in *input) open(stdin []byte) error {
	in.loc = in.shown
	paths := []*string{&in.loc.Path, &in.loc.Dir}
	if in.fromStdin {
		paths = paths[1:]
	}
	root, err := absolute(paths)
	if err != nil {
		return err
	}
	if in.fromStdin {
		in.loc.Path = stdinName
		if root != "." {
			in.loc.Path = filepath.VolumeName(in.loc.Dir) + string(filepath.Separator) + stdinName
		}
	}
	if root == "." {
		in.loc.Dir = slashDir(in.loc)
	}
	_, file, _, err := in.loc.FS()
	if err != nil {
		return err
	}
	in.fsys = &recordFS{loc: in.loc, files: map[string][]byte{}}
	if in.fromStdin {
		in.fsys.stdinPath, in.fsys.stdin = file, stdin
	}
	if in.loc.Dir != "" || !in.fromStdin {
		in.fsys.base = os.DirFS(root)
	}
	return nil
}

// absolute leaves the paths as they are and returns ".", the working
// folder, when each is "" or relative and inside it; else it makes each
// absolute and returns the root of their volume.
func absolute(paths []*string) (string, error) {
	local := true
	for _, p := range paths {
		local = local && (*p == "" || filepath.IsLocal(*p))
	}
	if local {
		return ".", nil
	}
	volume := ""
	for _, p := range paths {
		if *p == "" {
			continue
		}
		if !filepath.IsAbs(*p) {
			abs, err := filepath.Abs(*p)
			if err != nil {
				return "", err
			}
			*p = abs
		}
		volume = filepath.VolumeName(*p)
	}
	return volume + string(filepath.Separator), nil
}

// slashDir is loc's Dir, ending in "/" when it is a Windows location's
// written with slashes alone (conf/scalers.d), so that its drop-ins are
// named with a slash too (conf/scalers.d/10.yaml, not
// conf/scalers.d\10.yaml): a Location joins with its separator, unless
// the folder ends in one.
func slashDir(loc scalerconfig.Location) string {
	d := loc.Dir
	if !loc.Windows || !strings.Contains(d, "/") || strings.Contains(d, `\`) || strings.HasSuffix(d, "/") {
		return d
	}
	return d + "/"
}

// name is how the output names a file the positions name: as they do,
// but standard input as stdinName.
func (in *input) name(file string) string {
	if in.fromStdin && file == in.loc.Path {
		return stdinName
	}
	return file
}

// scan reads the config, handing each scaler to each, and returns the
// problems the orchestrator would refuse it for, or an error that the
// files cannot be read.
func (in *input) scan(each func(int, *scalerconfig.Scaler)) ([]scalerconfig.Problem, error) {
	_, err := in.loc.Scan(in.fsys, each)
	var bad *scalerconfig.Error
	var pe *fs.PathError
	switch {
	case errors.As(err, &bad):
		return bad.Problems, nil
	case errors.As(err, &pe):
		return nil, fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return nil, err
}
