package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/kicikit/kicikit/internal/noderead"
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
	// opts read the config as the target release does, on this machine's
	// operating system, listing at most maxListed problems.
	opts scalerconfig.ScanOptions
}

// recordFS is the file system Scan reads, which keeps the bytes of every
// file read, for the ignore comments, the pins and the SARIF regions, by
// the name the positions give it (Location.OSPath of its path). Scan stats
// a file, opens it and reads it: each open file records what is read of it
// when it is closed.
type recordFS struct {
	base      fs.FS  // nil: no file but standard input
	stdinPath string // the path in the file system standard input goes by; "" without it
	stdin     []byte
	loc       scalerconfig.Location // names the files, as Scan's positions do
	files     map[string][]byte     // by the name the positions give
	// fixed are files as the fixes left them, by the name the positions
	// give: a scan after fixes reads them in place of the files.
	fixed map[string][]byte
}

// memory returns the bytes held for the file at name: fixed bytes, or
// standard input's; false for a file of the base file system.
func (r *recordFS) memory(name string) ([]byte, bool) {
	if b, ok := r.fixed[r.loc.OSPath(name)]; ok {
		return b, true
	}
	if r.stdinPath != "" && name == r.stdinPath {
		return r.stdin, true
	}
	return nil, false
}

func (r *recordFS) Open(name string) (fs.File, error) {
	if b, ok := r.memory(name); ok {
		r.files[r.loc.OSPath(name)] = b
		return &memFile{Reader: bytes.NewReader(b), info: memInfo{name: path.Base(name), size: int64(len(b))}}, nil
	}
	if r.base == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	f, err := r.base.Open(name)
	if err != nil {
		return nil, err
	}
	return &recordFile{File: f, fsys: r, name: name}, nil
}

// Stat stats a file without opening it, so that Scan refuses a named pipe
// before an open would wait for a writer.
func (r *recordFS) Stat(name string) (fs.FileInfo, error) {
	if b, ok := r.memory(name); ok {
		return memInfo{name: path.Base(name), size: int64(len(b))}, nil
	}
	if r.base == nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return fs.Stat(r.base, name)
}

// ReadDir reads a folder of the base file system.
func (r *recordFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if r.base == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return fs.ReadDir(r.base, name)
}

// recordFile is a file of the base file system whose bytes read are
// recorded when it is closed.
type recordFile struct {
	fs.File
	fsys *recordFS
	name string
	read []byte
}

func (f *recordFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.read = append(f.read, p[:n]...)
	return n, err
}

func (f *recordFile) Close() error {
	f.fsys.files[f.fsys.loc.OSPath(f.name)] = f.read
	return f.File.Close()
}

// memFile is a file held in memory: standard input.
type memFile struct {
	*bytes.Reader
	info memInfo
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }

// memInfo describes a regular file held in memory.
type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }

// readWhole returns the bytes of the file at name or, when stdin is not
// nil, of standard input: the env file and -config -. It is the one place
// where the program reads either, each with the bounds of the node call
// that reads it in KiCI (internal/noderead's ReadFile and ReadAll): an env file
// that is not a regular file, or too long for kici-admin to read, and a
// config too long for the orchestrator, are refused.
func readWhole(name string, stdin io.Reader) ([]byte, error) {
	if stdin != nil {
		b, err := noderead.ReadAll(stdin, name, noderead.ConfigLimit)
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		return b, nil
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	loc := scalerconfig.Location{Path: abs, Windows: filepath.Separator == '\\'}
	volume, file, _, err := loc.FS()
	if err != nil {
		return nil, err
	}
	b, err := noderead.ReadFile(os.DirFS(volume+string(filepath.Separator)), file, noderead.EnvFileLimit)
	var pe *fs.PathError
	var ne *noderead.Error
	switch {
	case errors.As(err, &pe):
		return nil, fmt.Errorf("%s: %w", name, pe.Err) // as an unreadable config reads
	case errors.As(err, &ne):
		ne.Path = name
		return nil, ne
	}
	return b, err
}

// locate finds the config the options name: the env file's, or -config
// and -dir.
func (c *check) locate() (*input, error) {
	o := c.opts
	in := &input{shown: scalerconfig.Location{Path: o.config, Dir: o.dir, Windows: o.windows}}
	in.opts = scalerconfig.ScanOptions{MaxProblems: maxListed}
	in.opts.Rules, _ = scalerconfig.RulesFor(o.target) // the newest without a target
	if o.windows {
		in.opts.Host.OS = "windows"
	}
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

// name is how the output names a file the positions name: as they do,
// but standard input as stdinName.
func (in *input) name(file string) string {
	if in.fromStdin && file == in.loc.Path {
		return stdinName
	}
	return file
}

// maxListed is the most problems of a config the program lists: a
// config the orchestrator refuses for millions of problems (a scalers
// list of millions of scalars) is told by its first maxListed and a
// count of the others, in memory that does not grow with them
// (scalerconfig.ScanOptions.MaxProblems).
const maxListed = 100_000

// scan reads the config as in.opts say, handing each scaler to each, and
// returns the config without its scalers, or the *scalerconfig.Error of
// the problems the orchestrator would refuse it for (the first maxListed
// of them), or an error that the files cannot be read.
func (in *input) scan(each func(int, *scalerconfig.Scaler)) (*scalerconfig.Config, error) {
	cfg, err := in.loc.Scan(in.fsys, in.opts, each)
	var bad *scalerconfig.Error
	var pe *fs.PathError
	if !errors.As(err, &bad) && errors.As(err, &pe) {
		return nil, fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return cfg, err
}
