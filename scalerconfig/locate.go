package scalerconfig

import (
	"io/fs"
	"path"
	"strings"

	"github.com/kicikit/kicikit/internal/jsstr"
	"github.com/kicikit/kicikit/internal/noderead"
	"github.com/kicikit/kicikit/internal/yamljs"
)

// Location is where a service's scaler config is: the paths the
// orchestrator opens, as the operating system names them.
type Location struct {
	Path string // the config file
	Dir  string // its drop-in folder; "" when none
	// Windows says that Path and Dir are Windows paths. Options.Locate
	// makes them so for Options{Windows: true}.
	Windows bool
}

// Options are the rules [Options.Locate] reads an env file's paths with.
// The zero Options are a service's on Linux or macOS.
type Options struct {
	// Windows reads the paths with Windows rules, as the orchestrator does
	// on Windows. A path is absolute when it starts with a drive and a
	// separator (C:\), or with two separators (UNC). One that starts with
	// one separator is on the working directory's drive. Either separator
	// separates.
	Windows bool
}

// Locate returns where a service's env file puts its scaler config. It
// reads KICI_SCALER_CONFIG_PATH and KICI_SCALER_CONFIG_DIR as the
// orchestrator's readEnvValue does (see the package doc's "The env file").
//
// It reports false when the env file names no config file: no
// KICI_SCALER_CONFIG_PATH, or an empty one. An empty or missing
// KICI_SCALER_CONFIG_DIR means no drop-in folder. A relative path is
// relative to workingDir, the service's working directory. Locate joins
// them with slashes. For a Windows service, use [Options.Locate] with
// Options{Windows: true}.
func Locate(envFile []byte, workingDir string) (Location, bool) {
	return Options{}.Locate(envFile, workingDir)
}

// Locate is [Locate] with o's path rules.
func (o Options) Locate(envFile []byte, workingDir string) (Location, bool) {
	return locate(envFile, workingDir, o.Windows)
}

// LocateFile reads the service's env file envFile in fsys, then locates
// the config as [Options.Locate] does. It reads the file within the bounds
// of node's fs.readFileSync, which kici-admin's upgrade uses. It refuses
// with a *[FileError] a path that is not a regular file, before opening
// it. It refuses a file of 2^29 − 24 bytes or more, on which readFileSync
// fails. Any other error is the fs error. Errors read
// "scalerconfig.LocateFile(<envFile>): ...".
func (o Options) LocateFile(fsys fs.FS, envFile, workingDir string) (Location, bool, error) {
	env, err := noderead.ReadFile(fsys, envFile, noderead.EnvFileLimit)
	if err != nil {
		return Location{}, false, wrapRead("scalerconfig.LocateFile", envFile, fileError(err))
	}
	loc, ok := o.Locate(env, workingDir)
	return loc, ok, nil
}

func locate(envFile []byte, workingDir string, windows bool) (Location, bool) {
	p, _ := envValue(envFile, "KICI_SCALER_CONFIG_PATH")
	if p == "" {
		return Location{}, false
	}
	d, _ := envValue(envFile, "KICI_SCALER_CONFIG_DIR")
	l := Location{Path: resolve(workingDir, p, windows), Windows: windows}
	if d != "" {
		l.Dir = resolve(workingDir, d, windows)
	}
	return l, true
}

// envValue is the orchestrator's readEnvValue.
func envValue(envFile []byte, key string) (string, bool) {
	var value string
	found := false
	for _, line := range strings.Split(string(envFile), "\n") {
		line = jsstr.Trim(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok && k == key {
			value, found = unquote(jsstr.Trim(v)), true
		}
	}
	return value, found
}

// unquote strips one leading and one trailing quote character, each on its
// own, as value.replace(/^["']|["']$/g, "") does.
func unquote(v string) string {
	start, end := 0, len(v)
	if v != "" && (v[0] == '"' || v[0] == '\'') {
		start = 1
	}
	if end > start && (v[end-1] == '"' || v[end-1] == '\'') {
		end--
	}
	return v[start:end]
}

// resolve returns p, or p joined to dir when p is relative.
func resolve(dir, p string, windows bool) string {
	if windows {
		if isWindowsAbs(p) || dir == "" {
			return p
		}
		if p[0] == '\\' || p[0] == '/' {
			return windowsVolume(dir) + p // rooted: on the working directory's drive
		}
		return strings.TrimRight(dir, `\/`) + `\` + p
	}
	if path.IsAbs(p) || dir == "" {
		return p
	}
	return path.Join(dir, p)
}

func isSep(c byte) bool { return c == '\\' || c == '/' }

// isWindowsAbs reports whether p names a file without a working directory:
// C:\x, or \\server\share\x.
func isWindowsAbs(p string) bool {
	return len(p) >= 3 && p[1] == ':' && isSep(p[2]) || len(p) >= 2 && isSep(p[0]) && isSep(p[1])
}

// windowsVolume is the volume p starts with: "C:", or "\\server\share"; ""
// for none.
func windowsVolume(p string) string {
	two := p[:min(2, len(p))]
	if len(two) == 2 && two[1] == ':' {
		return two
	}
	if len(two) == 2 && isSep(two[0]) && isSep(two[1]) {
		rest := p[2:]
		n := 0
		for i := 0; i < len(rest); i++ {
			if isSep(rest[i]) {
				if n++; n == 2 {
					return p[:2+i]
				}
			}
		}
		return p
	}
	return ""
}

// FS returns l's paths in a file system rooted at their volume's root, as
// [Load] takes them, and that volume. The file system is os.DirFS("/"),
// or os.DirFS(`C:\`) for the volume C:.
//
//	l.Path                       volume          file
//	/etc/kici/scalers.yaml       ""              etc/kici/scalers.yaml
//	C:\kici\scalers.yaml         C:              kici/scalers.yaml
//	\\server\share\scalers.yaml  \\server\share  scalers.yaml
//
// A relative path stays relative, when Locate had no working directory.
// The file system is then rooted at the process's working directory. For
// a Windows path after a drive (C:kici\scalers.yaml), it is that drive's.
// Path and Dir must lie in one file system: on one volume, and both
// absolute or both relative. Else FS refuses Dir with a *[FileError]
// ([ErrNotFSPath]), as no one fs.FS holds both.
func (l Location) FS() (volume, file, dir string, err error) {
	volume, file, err = l.fsPath(l.Path)
	if err != nil || l.Dir == "" {
		return volume, file, "", err
	}
	dirVolume, dir, err := l.fsPath(l.Dir)
	if err == nil && (!strings.EqualFold(dirVolume, volume) || l.rooted(l.Dir) != l.rooted(l.Path)) {
		err = notFSPath(l.Dir)
	}
	return volume, file, dir, err
}

// rooted reports whether p is read from the root of its volume, not from
// a working directory: /etc/kici, C:\kici, \\server\share\kici, \kici.
func (l Location) rooted(p string) bool {
	if !l.Windows {
		return path.IsAbs(p)
	}
	volume := windowsVolume(p)
	rest := p[len(volume):]
	return strings.HasPrefix(volume, `\\`) || rest != "" && isSep(rest[0])
}

// Load loads the config at l from fsys, a file system rooted at l's
// volume's root: os.DirFS("/"), or os.DirFS(`C:\`) for a Windows location
// on C:. It is [Load] with the paths of [Location.FS]. But its positions,
// problems and errors name each file as l does ([Location.OSPath]):
// "/etc/kici/scalers.yaml:3:7", not "etc/kici/scalers.yaml:3:7".
func (l Location) Load(fsys fs.FS) (*Config, error) {
	return l.Scan(fsys, ScanOptions{}, nil)
}

// ScanOptions are the choices of a read: [Location.Scan], [ScanOptions.Load].
// The zero ScanOptions read as [Load] does: by the newest rules, for an
// orchestrator that is not on Windows, every problem kept.
type ScanOptions struct {
	// MaxProblems, when positive, is the most problems an *[Error] keeps in
	// Problems: the first ones, in Load's order. Its Omitted counts the
	// others without keeping them. So millions of problems take no more
	// memory than MaxProblems of them. An "Invalid input" of a resources
	// block takes its Reasons and Suggestions from its first MaxProblems
	// issues too. Zero keeps them all.
	MaxProblems int
	// Rules are the rules of the release that reads the config: the zero
	// Rules, Rules016, are 0.16.0's and every later release's. For an
	// orchestrator before 0.16.0, set RulesFor(its release), or Rules012.
	// The Config read records them (Config.Rules).
	Rules Rules
	// Host is the platform of the orchestrator's own machine, in the
	// config's words (windows, macos, linux) or Node's (win32, darwin).
	// Only its OS is read, by one rule: on a Windows host, from 0.14.0 on,
	// the orchestrator refuses a bare-metal binaryPath batch file that
	// cmd.exe would read as syntax. The zero Host is not Windows.
	Host Platform
}

// Load is [Load] with the options: it reads the config at path, with the
// drop-in folder dir ("" for none), by the rules the options name, for
// their host, keeping at most their MaxProblems problems.
//
//	cfg, err := scalerconfig.ScanOptions{Rules: scalerconfig.Rules012}.Load(fsys, "scalers.yaml", "scalers.d")
func (o ScanOptions) Load(fsys fs.FS, path, dir string) (*Config, error) {
	return scan(files{fsys: fsys}, path, dir, yamljs.Parse, true, o, nil)
}

// Scan is [Location.Load] for a caller that takes the scalers one at a
// time. It hands each scaler to each, in order, with its index in the
// merged scalers list. It returns the Config without its scalers (Scalers
// is nil). The *Scaler is the caller's to keep. With each nil, it returns
// the Config with its scalers, as Load does.
//
// A config in the plain form is read, validated and handed over a group
// of scalers at a time. Scan then holds the files' bytes and one group,
// whatever the config's size. The plain form is a main file that is valid
// UTF-8 and one document, with no directive, anchor, alias or tag. Its
// root is a block mapping whose scalers key holds a block sequence. Each
// drop-in is in that form too, or adds no scalers. Any other config is
// loaded whole first, as Load does.
//
// Whether the orchestrator accepts the config is known only at the end.
// Each scaler handed over is valid on its own. But a later one, or the top
// level (a machinePool no pool defines), may still make Scan return an
// *[Error]. A caller must hold back its conclusions until Scan returns a
// nil error.
func (l Location) Scan(fsys fs.FS, opts ScanOptions, each func(index int, s *Scaler)) (*Config, error) {
	f, err := l.files(fsys)
	if err != nil {
		return nil, err
	}
	return scan(f, f.file, f.dir, yamljs.Parse, true, opts, each)
}

// OSPath returns the file at p, a path in the file system of
// [Location.FS], as the operating system names it. It is how
// [Location.Load] names files, for a caller that used [Load] instead. The
// config file is l.Path. A drop-in is l.Dir joined with its name: by "\"
// for a Windows location whose Dir is not written with slashes alone, by
// "/" else. Any other path is under the volume's root, or under the
// working folder for a relative l.
func (l Location) OSPath(p string) string {
	f, err := l.files(nil)
	if err != nil {
		return p
	}
	if name, ok := f.lookup(p); ok {
		return name
	}
	if !l.Windows {
		if path.IsAbs(l.Path) {
			return "/" + p
		}
		return p
	}
	volume := windowsVolume(l.Path)
	p = strings.ReplaceAll(p, "/", `\`)
	if rest := l.Path[len(volume):]; rest != "" && isSep(rest[0]) {
		return volume + `\` + p // under the volume's root
	}
	return volume + p // relative, to the working folder (of the volume's drive)
}

// files is how l's load reads and names its files in fsys.
func (l Location) files(fsys fs.FS) (files, error) {
	_, p, d, err := l.FS()
	if err != nil {
		return files{}, err
	}
	return files{fsys: fsys, loc: &l, file: p, dir: d}, nil
}

// join is dir and name joined with l's separator, without doubling one
// that ends dir: "\" for a Windows location, unless its dir is written
// with slashes alone (C:/kici/scalers.d), "/" else.
func (l Location) join(dir, name string) string {
	if strings.HasSuffix(dir, "/") || l.Windows && strings.HasSuffix(dir, `\`) {
		return dir + name
	}
	if l.Windows && (strings.Contains(dir, `\`) || !strings.Contains(dir, "/")) {
		return dir + `\` + name
	}
	return dir + "/" + name
}

func (l Location) fsPath(p string) (string, string, error) {
	volume := ""
	if l.Windows {
		volume = windowsVolume(p)
		p = strings.ReplaceAll(p[len(volume):], `\`, "/")
	}
	clean := strings.TrimPrefix(path.Clean(p), "/")
	if p == "" || clean == "" || !fs.ValidPath(clean) {
		return "", "", notFSPath(p)
	}
	return volume, clean, nil
}

// notFSPath is the error of a Location path p that names no file of a file
// system: "scalerconfig.Location.FS(<p>): <p>: <reason>".
func notFSPath(p string) error {
	return wrapRead("scalerconfig.Location.FS", p, &FileError{Path: p, Reason: ErrNotFSPath})
}
