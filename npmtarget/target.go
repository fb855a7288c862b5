package npmtarget

import (
	"os"
	"strings"
)

// LaunchSpec is a service's launch command, as its unit file or service
// definition names it. It is the program and its arguments.
type LaunchSpec struct {
	ExecPath string   // the program the unit starts: the node executable
	Args     []string // the arguments after it, the entry script among them
}

// Options tells [Resolve] which platform the service runs on and how to ask
// whether a file exists there.
type Options struct {
	// Windows selects node's path.win32 rules and npm.cmd. False selects
	// path.posix and npm. It describes the service's platform, not the machine
	// running the code.
	Windows bool
	// Exists reports whether a file exists on the service's machine. Resolve
	// calls it at most once, with the npm-cli.js path it probes. If Exists is
	// nil, Resolve asks the local file system (os.Stat succeeds). That only
	// makes sense when the code runs on the service's machine.
	Exists func(path string) bool
}

// Resolution is the outcome of [Resolve]: [Resolved], [NoEntry],
// [NotGlobal] or [Unsafe].
//
//sumtype:decl
type Resolution interface{ resolution() }

// Resolved reports the npm install target of a service.
type Resolved struct {
	Target Target // the global install the service runs from, and how to run npm on it
}

// NoEntry reports that the launch command names no entry script of the
// component in a node_modules folder. A custom --binary install is one. No
// global package can then be updated.
type NoEntry struct{}

// NotGlobal reports that the entry script lies in a node_modules folder
// that is not a global npm install. A project's local node_modules on posix
// is one. The service's npm has no global prefix that holds it.
type NotGlobal struct {
	Entry string // the entry script, as the launch command names it
}

// Unsafe reports a global install whose npm the orchestrator would run but
// npmtarget refuses to. npm would install where the service does not look,
// or cmd.exe would misread what it is given. Err, a *[FieldError], names the
// field and a [Reason] that says what to fix.
type Unsafe struct {
	Entry string // the entry script, as the launch command names it
	Err   error  // why, a *FieldError
}

func (Resolved) resolution()  {}
func (NoEntry) resolution()   {}
func (NotGlobal) resolution() {}
func (Unsafe) resolution()    {}

// Invocation is the program that runs npm, and the arguments that come
// before npm's own. It is the service's node with npm-cli.js, or npm's
// launcher (npm, or npm.cmd on Windows) with none.
type Invocation struct {
	Cmd     string   // the program: the service's node, or npm's launcher
	PreArgs []string // npm-cli.js when the node runs it; empty for the launcher
}

// Target is where and how an npm-source upgrade installs a service's
// package. It goes into the global prefix the service loads it from, with
// the service's own node.
type Target struct {
	NodeExecPath  string     // the service's node executable
	NpmPath       string     // npm's launcher beside it: <node dir>/npm or <node dir>\npm.cmd
	OwningPackage string     // the package "npm install -g" must name, "@scope/name" or "name"
	GlobalPrefix  string     // the npm global prefix holding the package
	Invocation    Invocation // how to run npm
	Windows       bool       // whether the service runs on Windows; picks the path, PATH and cmd.exe rules
}

// Resolve finds where an npm-source upgrade must install the component a
// service launches. It is the orchestrator's resolveNpmInstallTarget.
//
// The entry script is the first of spec.ExecPath and spec.Args that ends in
//
//	<sep>@kici-dev<sep><component><sep>dist<sep>server.js
//	<sep>@kici-dev<sep><component><sep>dist<sep>standalone.js
//
// Each <sep> is "/" or "\" on either platform. The component is matched
// literally, byte for byte. The result is [NoEntry] when there is no entry
// script, or when [FirstGlobalPackage] finds no package in it. It is
// [NotGlobal] when [GlobalPrefix] finds no global prefix. Otherwise it is
// [Resolved], with
//
//	NpmPath       join(dirname(ExecPath), "npm")       posix
//	              join(dirname(ExecPath), "npm.cmd")   Windows
//	npm-cli.js    join(dirname(ExecPath), "..", "lib", "node_modules", "npm", "bin", "npm-cli.js")   posix
//	              join(dirname(ExecPath), "node_modules", "npm", "bin", "npm-cli.js")               Windows
//
// The Invocation is {ExecPath, [npm-cli.js]} when opts.Exists reports that
// npm-cli.js exists, else {NpmPath, []}. Resolve calls opts.Exists at most
// once, and never for a NoEntry or NotGlobal result.
//
// Where the orchestrator would go on, Resolve refuses with [Unsafe]:
//
//   - a node (spec.ExecPath) that is not an absolute path of the platform,
//     on both routes ([ErrRelativeNode]);
//   - a node folder holding the PATH list separator ([ErrListSeparator]);
//   - an owning package that is not a name npm takes ([ErrPackageName]);
//   - on the npm.cmd route, a global prefix or node folder that npm.cmd
//     would hand cmd.exe to misread ([ErrBatchPath]).
func Resolve(spec LaunchSpec, component string, opts Options) Resolution {
	entry, found := findEntry(spec, component)
	if !found {
		return NoEntry{}
	}
	owningPackage, ok := FirstGlobalPackage(entry)
	if !ok {
		return NoEntry{}
	}
	globalPrefix, ok := GlobalPrefix(entry, opts.Windows)
	if !ok {
		return NotGlobal{Entry: entry}
	}
	npmPath, npmCliJs := npmPaths(spec.ExecPath, opts.Windows)
	exists := opts.Exists
	if exists == nil {
		exists = fileExists
	}
	inv := Invocation{Cmd: npmPath}
	if exists(npmCliJs) {
		inv = Invocation{Cmd: spec.ExecPath, PreArgs: []string{npmCliJs}}
	}
	target := Target{
		NodeExecPath:  spec.ExecPath,
		NpmPath:       npmPath,
		OwningPackage: owningPackage,
		GlobalPrefix:  globalPrefix,
		Invocation:    inv,
		Windows:       opts.Windows,
	}
	if !isPackageName(owningPackage) {
		return Unsafe{Entry: entry, Err: &FieldError{Func: "Resolve", Field: "OwningPackage", Value: owningPackage, Reason: ErrPackageName}}
	}
	if err := checkTarget("Resolve", target); err != nil {
		return Unsafe{Entry: entry, Err: err}
	}
	return Resolved{Target: target}
}

// findEntry returns the first of spec.ExecPath and spec.Args that is the
// component's entry script.
func findEntry(spec LaunchSpec, component string) (string, bool) {
	if isEntry(spec.ExecPath, component) {
		return spec.ExecPath, true
	}
	for _, a := range spec.Args {
		if isEntry(a, component) {
			return a, true
		}
	}
	return "", false
}

// npmPaths returns npm's launcher beside node and the npm-cli.js that a
// node installation keeps: in <node dir>\node_modules on Windows, in
// <node dir>/../lib/node_modules on posix.
func npmPaths(node string, windows bool) (npmPath, npmCliJs string) {
	nodeDir := dirname(windows, node)
	if windows {
		return join(true, nodeDir, "npm.cmd"), join(true, nodeDir, "node_modules", "npm", "bin", "npm-cli.js")
	}
	return join(false, nodeDir, "npm"), join(false, nodeDir, "..", "lib", "node_modules", "npm", "bin", "npm-cli.js")
}

// fileExists is the default of [Options.Exists], node's fs.existsSync: true
// when os.Stat, which follows symbolic links, succeeds. It is the package's
// only contact with the file system.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// isEntry reports whether s ends in the component's entry script:
//
//	[/\\]@kici-dev[/\\]<component>[/\\]dist[/\\](?:server|standalone)\.js$
//
// with every byte of the component matching only itself, so that a "." in
// it matches no other character and a "(" is no syntax.
func isEntry(s, component string) bool {
	rest, ok := strings.CutSuffix(s, "server.js")
	if !ok {
		if rest, ok = strings.CutSuffix(s, "standalone.js"); !ok {
			return false
		}
	}
	for _, part := range [...]string{"dist", component, "@kici-dev"} {
		if rest, ok = cutSep(rest); !ok {
			return false
		}
		if rest, ok = strings.CutSuffix(rest, part); !ok {
			return false
		}
	}
	_, ok = cutSep(rest)
	return ok
}

// cutSep cuts one trailing "/" or "\" off s.
func cutSep(s string) (string, bool) {
	if s == "" || !isWin32Sep(s[len(s)-1]) {
		return s, false
	}
	return s[:len(s)-1], true
}

// FirstGlobalPackage returns the package that owns entry. That is the
// segment after the first "node_modules" segment, with "/" and "\" both
// separating segments. A segment starting with "@" is a scope and takes the
// next segment too. That gives "@scope/name", always with "/".
//
// It reports false when entry has no "node_modules" segment. It does so too
// when no non-empty name follows it (for a scope, after the scope). The
// first node_modules is the global root. So a bundle that nests
// node_modules inside a package is owned by that package.
func FirstGlobalPackage(entry string) (string, bool) {
	segs := splitSegments(entry)
	i := indexOf(segs, "node_modules")
	if i < 0 || i+1 >= len(segs) || segs[i+1] == "" {
		return "", false
	}
	name := segs[i+1]
	if !strings.HasPrefix(name, "@") {
		return name, true
	}
	if i+2 >= len(segs) || segs[i+2] == "" {
		return "", false
	}
	return name + "/" + segs[i+2], true
}

// GlobalPrefix returns the npm global prefix that holds entry. It is the
// orchestrator's globalPrefixOf. entry is split as [FirstGlobalPackage]
// splits it, at its first "node_modules" segment:
//
//   - Windows lays a global install out as <prefix>\node_modules\<pkg>. The
//     prefix is the segments before node_modules, joined with "\". When
//     that is a drive alone, it is the drive's root: "C:\node_modules\p"
//     gives "C:\". (The orchestrator answers "C:", drive C's current
//     folder.)
//   - posix lays it out as <prefix>/lib/node_modules/<pkg>. The segment
//     before node_modules must be "lib". The prefix is the segments before
//     that, joined with "/", or "/" when that is empty.
//
// It reports false without a node_modules segment, or when node_modules is
// the first segment. On Windows it does so when the prefix comes out empty
// ("\node_modules"). On posix it does so when lib does not come right before
// node_modules. The segments are joined as they are. So
// "C:/x/node_modules/p" gives "C:\x", and "/usr//lib/node_modules/p" gives
// "/usr/". The prefix's segments are always the leading segments of
// entry's.
func GlobalPrefix(entry string, windows bool) (string, bool) {
	segs := splitSegments(entry)
	i := indexOf(segs, "node_modules")
	if i < 1 {
		return "", false
	}
	if windows {
		prefix := strings.Join(segs[:i], `\`)
		if len(prefix) == 2 && hasDrive(prefix) {
			// "C:" names drive C's current folder, not its root.
			prefix += `\`
		}
		return prefix, prefix != ""
	}
	if i < 2 || segs[i-1] != "lib" {
		return "", false
	}
	if prefix := strings.Join(segs[:i-1], "/"); prefix != "" {
		return prefix, true
	}
	return "/", true
}

func indexOf(segs []string, s string) int {
	for i, seg := range segs {
		if seg == s {
			return i
		}
	}
	return -1
}
