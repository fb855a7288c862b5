package npmtarget

import (
	"os"
	"strings"
)

// LaunchSpec is a service's launch command, as its unit file or service
// definition names it: the program and its arguments.
type LaunchSpec struct {
	ExecPath string   // the program the unit starts: the node executable
	Args     []string // the arguments after it, the entry script among them
}

// Options tells [Resolve] which platform the service runs on and how to ask
// whether a file exists there.
type Options struct {
	// Windows selects node's path.win32 rules and npm.cmd; false selects
	// path.posix and npm. It describes the service's platform, not the
	// machine running the code.
	Windows bool
	// Exists reports whether a file exists on the service's machine. Resolve
	// calls it at most once, with the npm-cli.js path it probes. If Exists is
	// nil, Resolve asks the local file system (os.Stat succeeds), which only
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
// component, or names one outside any node_modules folder (a custom
// --binary install), so no global package can be updated.
type NoEntry struct{}

// NotGlobal reports that the entry script lies in a node_modules folder that
// is not a global npm install, such as a project's local node_modules on
// posix, so the service's npm has no global prefix that holds it.
type NotGlobal struct {
	Entry string // the entry script, as the launch command names it
}

// Unsafe reports a global install whose npm the orchestrator would run but
// npmtarget refuses to: npm would install where the service does not look,
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

// Invocation is the program that runs npm and the arguments that come before
// npm's own: either the service's node with npm-cli.js, or npm's launcher
// (npm, or npm.cmd on Windows) with none.
type Invocation struct {
	Cmd     string   // the program: the service's node, or npm's launcher
	PreArgs []string // npm-cli.js when the node runs it; empty for the launcher
}

// Target is where and how an npm-source upgrade installs a service's package:
// into the global prefix the service loads it from, with the service's own
// node.
type Target struct {
	NodeExecPath  string     // the service's node executable
	NpmPath       string     // npm's launcher beside it: <node dir>/npm or <node dir>\npm.cmd
	OwningPackage string     // the package "npm install -g" must name, "@scope/name" or "name"
	GlobalPrefix  string     // the npm global prefix holding the package
	Invocation    Invocation // how to run npm
	Windows       bool       // whether the service runs on Windows; picks the path, PATH and cmd.exe rules
}

// Resolve finds where an npm-source upgrade must install the component a
// service launches, as the orchestrator's resolveNpmInstallTarget does.
//
// The entry script is the first of spec.ExecPath and spec.Args that ends in
//
//	<sep>@kici-dev<sep><component><sep>dist<sep>server.js
//	<sep>@kici-dev<sep><component><sep>dist<sep>standalone.js
//
// where each <sep> is "/" or "\" on either platform and component is matched
// literally, byte for byte. Without one, or when [FirstGlobalPackage] finds no
// package in it, the result is [NoEntry]; when [GlobalPrefix] finds no global
// prefix, [NotGlobal]. Otherwise the result is [Resolved], with
//
//	NpmPath       join(dirname(ExecPath), "npm")       posix
//	              join(dirname(ExecPath), "npm.cmd")   Windows
//	npm-cli.js    join(dirname(ExecPath), "..", "lib", "node_modules", "npm", "bin", "npm-cli.js")   posix
//	              join(dirname(ExecPath), "node_modules", "npm", "bin", "npm-cli.js")               Windows
//
// and an Invocation of {ExecPath, [npm-cli.js]} when opts.Exists reports that
// npm-cli.js exists, else {NpmPath, []}. Resolve never calls opts.Exists for
// a NoEntry or NotGlobal result, and at most once otherwise.
//
// Where the orchestrator would go on, Resolve refuses with [Unsafe]:
//
//   - a node (spec.ExecPath) that is not an absolute path of the platform,
//     on both routes alike: its folder goes first on PATH, and npm.cmd's path
//     comes from it ("C:node.exe" would run C:\npm.cmd)
//     ([ErrRelativeNode]);
//   - a node folder holding the PATH list separator, ":" on posix and ";" on
//     Windows, which would split PATH ([ErrListSeparator]);
//   - an owning package that is not a name npm takes by
//     validate-npm-package-name's rules, or that npm would read, followed by
//     "@<version>", as a folder, a tarball or an option ("C:", "x.tgz",
//     "-x") ([ErrPackageName]);
//   - on the npm.cmd route, a global prefix or node folder that npm.cmd
//     would hand cmd.exe to misread: one holding a double quote, "%", "!",
//     "^", a control character or a character Windows forbids in a file
//     name ([ErrBatchPath]). A double quote in the prefix would run what
//     follows it as a command; no real Windows path holds one, and the
//     others are rare enough that refusing them costs little.
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

// FirstGlobalPackage returns the package that owns entry: the segment after
// the first "node_modules" segment, with "/" and "\" both separating
// segments. A segment starting with "@" is a scope and takes the next
// segment too, giving "@scope/name" (always with "/"). It reports false when
// entry has no "node_modules" segment or no non-empty name after it (for a
// scope, after the scope). The first node_modules is the global root, so a
// bundle that nests node_modules inside a package is owned by that package.
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

// GlobalPrefix returns the npm global prefix that holds entry, as the
// orchestrator's globalPrefixOf does. entry is split like
// [FirstGlobalPackage] does, at its first "node_modules" segment:
//
//   - Windows lays a global install out as <prefix>\node_modules\<pkg>: the
//     prefix is the segments before node_modules joined with "\", and a
//     drive's root when that is a drive alone: "C:\node_modules\p" gives
//     "C:\". The orchestrator answers "C:", which npm reads as drive C's
//     current folder, so its install lands where the service never looks.
//   - posix lays it out as <prefix>/lib/node_modules/<pkg>: the segment
//     before node_modules must be "lib", and the prefix is the segments
//     before that joined with "/", or "/" when that is empty. This tells a
//     global install from a project's local node_modules.
//
// It reports false without a node_modules segment, when node_modules is the
// first segment, on Windows when the prefix comes out empty ("\node_modules"),
// and on posix when lib does not come right before node_modules. The
// segments are joined as they are, so "C:/x/node_modules/p" gives "C:\x" and
// "/usr//lib/node_modules/p" gives "/usr/"; the prefix's segments are always
// the leading segments of entry's.
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
