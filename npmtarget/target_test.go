package npmtarget

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// existsIn returns an Options.Exists that reports the listed files and
// records every path it is asked about.
func existsIn(asked *[]string, files ...string) func(string) bool {
	return func(p string) bool {
		*asked = append(*asked, p)
		return slices.Contains(files, p)
	}
}

const (
	orchestratorEntry = "/@kici-dev/orchestrator/dist/server.js"
	winEntry          = `\@kici-dev\orchestrator\dist\server.js`
)

// layout is a service as one way of installing node lays it out: its launch
// command, the files its machine has, and what Resolve makes of it.
type layout struct {
	name    string
	windows bool
	spec    LaunchSpec
	files   []string // the files that exist on the service's machine
	want    Resolution
}

// posixLayout is a posix service whose node is nodeDir/node and whose
// orchestrator is installed globally in prefix; cli tells whether
// npm-cli.js is where node keeps it (nodeDir/../lib/node_modules/npm).
func posixLayout(name, nodeDir, prefix string, cli bool) layout {
	node := nodeDir + "/node"
	npmCli := join(false, nodeDir, "../lib/node_modules/npm/bin/npm-cli.js")
	l := layout{
		name: name,
		spec: LaunchSpec{ExecPath: node, Args: []string{join(false, prefix, "lib/node_modules") + orchestratorEntry}},
	}
	target := Target{NodeExecPath: node, NpmPath: nodeDir + "/npm", OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: prefix, Invocation: Invocation{Cmd: nodeDir + "/npm"}}
	if cli {
		l.files = []string{npmCli}
		target.Invocation = Invocation{Cmd: node, PreArgs: []string{npmCli}}
	}
	l.want = Resolved{target}
	return l
}

// winLayout is posixLayout for a Windows service, whose npm-cli.js is in
// nodeDir\node_modules\npm.
func winLayout(name, nodeDir, prefix string, cli bool) layout {
	node := nodeDir + `\node.exe`
	npmCli := nodeDir + `\node_modules\npm\bin\npm-cli.js`
	l := layout{
		name:    name,
		windows: true,
		spec:    LaunchSpec{ExecPath: node, Args: []string{prefix + `\node_modules` + winEntry}},
	}
	target := Target{NodeExecPath: node, NpmPath: nodeDir + `\npm.cmd`, OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: prefix, Invocation: Invocation{Cmd: nodeDir + `\npm.cmd`}, Windows: true}
	if cli {
		l.files = []string{npmCli}
		target.Invocation = Invocation{Cmd: node, PreArgs: []string{npmCli}}
	}
	l.want = Resolved{target}
	return l
}

// with returns l with its entry script, the other launch arguments and
// files changed by edit.
func (l layout) with(edit func(l *layout)) layout {
	edit(&l)
	return l
}

// TestLayouts runs Resolve on the launch commands of the ways node gets
// installed, each with the files that machine has, and states the result and
// the npm command that installs 0.20.0.
func TestLayouts(t *testing.T) {
	t.Parallel()
	const (
		nvm   = "/home/kici/.nvm/versions/node/v20.11.1"
		volta = "/home/kici/.volta/tools/image"
		mise  = "/home/kici/.local/share/mise/installs/node/20.11.1"
		fnm   = "/home/kici/.local/share/fnm/node-versions/v20.11.1/installation"
		brew  = "/opt/homebrew/Cellar/node/22.3.0"
		msi   = `C:\Program Files\nodejs`
		roam  = `C:\Users\kici\AppData\Roaming\npm`
		unc   = `\\fileserver\tools\nodejs`
	)
	install := " install -g @kici-dev/orchestrator@0.20.0"
	tests := []struct {
		layout
		command string // Command.String() of the install, "" unless Resolved
	}{
		{posixLayout("nvm", nvm+"/bin", nvm, true),
			nvm + "/bin/node " + nvm + "/lib/node_modules/npm/bin/npm-cli.js" + install + " --prefix=" + nvm},
		{posixLayout("n", "/usr/local/bin", "/usr/local", true).with(func(l *layout) {
			l.spec.Args = append([]string{"--enable-source-maps"}, l.spec.Args...)
		}), "/usr/local/bin/node /usr/local/lib/node_modules/npm/bin/npm-cli.js" + install + " --prefix=/usr/local"},
		{posixLayout("NodeSource deb", "/usr/bin", "/usr", true),
			"/usr/bin/node /usr/lib/node_modules/npm/bin/npm-cli.js" + install + " --prefix=/usr"},
		// Homebrew keeps npm in <prefix>/lib/node_modules/npm, not in the node
		// keg, so the keg's bin/npm (a link to it) runs, with the keg's node
		// first on PATH.
		{posixLayout("Homebrew", brew+"/bin", "/opt/homebrew", false).with(func(l *layout) {
			l.files = []string{"/opt/homebrew/lib/node_modules/npm/bin/npm-cli.js"}
		}), brew + "/bin/npm" + install + " --prefix=/opt/homebrew"},
		// volta installs each global package into an image of its own.
		{posixLayout("volta", volta+"/node/20.11.1/bin", volta+"/packages/@kici-dev/orchestrator", true),
			volta + "/node/20.11.1/bin/node " + volta + "/node/20.11.1/lib/node_modules/npm/bin/npm-cli.js" + install + " --prefix=" + volta + "/packages/@kici-dev/orchestrator"},
		{posixLayout("mise", mise+"/bin", mise, true),
			mise + "/bin/node " + mise + "/lib/node_modules/npm/bin/npm-cli.js" + install + " --prefix=" + mise},
		{posixLayout("fnm, standalone entry", fnm+"/bin", fnm, true).with(func(l *layout) {
			l.spec.Args = []string{fnm + "/lib/node_modules/@kici-dev/orchestrator/dist/standalone.js"}
		}), fnm + "/bin/node " + fnm + "/lib/node_modules/npm/bin/npm-cli.js" + install + " --prefix=" + fnm},
		{posixLayout("node in /bin, prefix /", "/bin", "/", true),
			"/bin/node /lib/node_modules/npm/bin/npm-cli.js" + install + " --prefix=/"},
		{winLayout("Windows MSI", msi, roam, true),
			`"C:\Program Files\nodejs\node.exe" "C:\Program Files\nodejs\node_modules\npm\bin\npm-cli.js"` + install + ` --prefix=C:\Users\kici\AppData\Roaming\npm`},
		{winLayout("Windows MSI without npm-cli.js: npm.cmd through cmd.exe", msi, roam, false),
			`cmd.exe /d /s /c ""C:\Program Files\nodejs\npm.cmd"` + install + `"`},
		{winLayout("nvm-windows, forward slashes", `C:\nvm4w\nodejs`, `C:\nvm4w\nodejs`, true).with(func(l *layout) {
			l.spec.Args = []string{"C:/nvm4w/nodejs/node_modules" + orchestratorEntry}
		}), `C:\nvm4w\nodejs\node.exe C:\nvm4w\nodejs\node_modules\npm\bin\npm-cli.js` + install + ` --prefix=C:\nvm4w\nodejs`},
		{winLayout("UNC share", unc, unc, false),
			`cmd.exe /d /s /c ""\\fileserver\tools\nodejs\npm.cmd"` + install + `"`},
		// Windows lays a global install out like a project's node_modules,
		// so the orchestrator takes the project for a prefix; -g with that
		// prefix installs into the same node_modules.
		{winLayout("local project node_modules on Windows", msi, `D:\apps\kici`, true),
			`"C:\Program Files\nodejs\node.exe" "C:\Program Files\nodejs\node_modules\npm\bin\npm-cli.js"` + install + ` --prefix=D:\apps\kici`},
		// The first node_modules is the global root: the bundle owns the entry.
		{posixLayout("bundle nesting node_modules inside a package", "/usr/bin", "/usr", true).with(func(l *layout) {
			l.spec.Args = []string{"/usr/lib/node_modules/kici-bundle/node_modules" + orchestratorEntry}
			target := l.want.(Resolved).Target
			target.OwningPackage = "kici-bundle"
			l.want = Resolved{target}
		}), "/usr/bin/node /usr/lib/node_modules/npm/bin/npm-cli.js install -g kici-bundle@0.20.0 --prefix=/usr"},
		{layout{name: "local project node_modules",
			spec: LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{"/srv/kici/node_modules" + orchestratorEntry}},
			want: NotGlobal{Entry: "/srv/kici/node_modules" + orchestratorEntry}}, ""},
		{layout{name: "custom --binary install",
			spec: LaunchSpec{ExecPath: "/opt/kici/bin/node", Args: []string{"/opt/kici/app" + orchestratorEntry}},
			want: NoEntry{}}, ""},
		{layout{name: "another program",
			spec: LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{"/srv/other/index.js"}},
			want: NoEntry{}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var asked []string
			got := Resolve(tt.spec, "orchestrator", Options{Windows: tt.windows, Exists: existsIn(&asked, tt.files...)})
			require.Equal(t, tt.want, got)
			r, ok := got.(Resolved)
			if !ok {
				assert.Empty(t, asked, "Exists is asked only on the way to Resolved")
				assert.Empty(t, tt.command)
				return
			}
			_, wantCli := npmPaths(tt.spec.ExecPath, tt.windows)
			assert.Equal(t, []string{wantCli}, asked, "Exists is asked about the npm-cli.js path only")
			cmd, err := SelfInstall{Target: r.Target, Version: "0.20.0"}.Command()
			require.NoError(t, err)
			assert.Equal(t, tt.command, cmd.String())
		})
	}
}

// TestResolveBranches walks every branch of Resolve.
func TestResolveBranches(t *testing.T) {
	t.Parallel()
	global := "/usr/lib/node_modules" + orchestratorEntry
	never := func(string) bool { assert.Fail(t, "Exists must not be asked"); return false }
	absent := func(string) bool { return false }
	tests := []struct {
		name      string
		spec      LaunchSpec
		component string
		windows   bool
		exists    func(string) bool
		want      Resolution
	}{
		{"no entry among execPath and args", LaunchSpec{ExecPath: "/usr/bin/node"}, "orchestrator", false, never, NoEntry{}},
		{"an empty launch command", LaunchSpec{}, "orchestrator", false, never, NoEntry{}},
		{"the entry of another component", LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{global}}, "agent", false, never, NoEntry{}},
		{"entry without node_modules", LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{"/opt/kici" + orchestratorEntry}}, "orchestrator", false, never, NoEntry{}},
		{"not global", LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{"/srv/app/node_modules" + orchestratorEntry}}, "orchestrator", false, never,
			NotGlobal{Entry: "/srv/app/node_modules" + orchestratorEntry}},
		// On Windows the same layout needs only a non-empty prefix; "\node_modules" has none.
		{"not global on Windows", LaunchSpec{ExecPath: `C:\nodejs\node.exe`, Args: []string{`\node_modules` + winEntry}}, "orchestrator", true, never,
			NotGlobal{Entry: `\node_modules` + winEntry}},
		{"the execPath matches first", LaunchSpec{ExecPath: global, Args: []string{"/opt/lib/node_modules" + orchestratorEntry}}, "orchestrator", false, absent,
			Resolved{Target{NodeExecPath: global, NpmPath: "/usr/lib/node_modules/@kici-dev/orchestrator/dist/npm", OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: "/usr",
				Invocation: Invocation{Cmd: "/usr/lib/node_modules/@kici-dev/orchestrator/dist/npm"}}}},
		{"the first matching argument wins", LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{"/x/server.js", "/opt/lib/node_modules" + orchestratorEntry, global}}, "orchestrator", false, absent,
			Resolved{Target{NodeExecPath: "/usr/bin/node", NpmPath: "/usr/bin/npm", OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: "/opt", Invocation: Invocation{Cmd: "/usr/bin/npm"}}}},
		// The orchestrator's unescaped pattern would let "." match the X.
		{"a component's . matches only itself", LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{"/usr/lib/node_modules/@kici-dev/orchestratorX/dist/server.js"}}, "orchestrator.", false, never, NoEntry{}},
		// The orchestrator's pattern would not even compile.
		{"a component's ( is no syntax", LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{"/usr/lib/node_modules/@kici-dev/a(b/dist/server.js"}}, "a(b", false, absent,
			Resolved{Target{NodeExecPath: "/usr/bin/node", NpmPath: "/usr/bin/npm", OwningPackage: "@kici-dev/a(b", GlobalPrefix: "/usr", Invocation: Invocation{Cmd: "/usr/bin/npm"}}}},
		{"a component is no pattern", LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{global}}, "orch.*", false, never, NoEntry{}},
		{"an empty component", LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{global}}, "", false, never, NoEntry{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Resolve(tt.spec, tt.component, Options{Windows: tt.windows, Exists: tt.exists}))
		})
	}

	t.Run("npm-cli.js present: the pinned node runs it", func(t *testing.T) {
		t.Parallel()
		var asked []string
		r := Resolve(LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{global}}, "orchestrator",
			Options{Exists: existsIn(&asked, "/usr/lib/node_modules/npm/bin/npm-cli.js")})
		require.IsType(t, Resolved{}, r)
		assert.Equal(t, Invocation{Cmd: "/usr/bin/node", PreArgs: []string{"/usr/lib/node_modules/npm/bin/npm-cli.js"}}, r.(Resolved).Target.Invocation)
	})
	t.Run("npm-cli.js missing: the npm launcher", func(t *testing.T) {
		t.Parallel()
		var asked []string
		r := Resolve(LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{global}}, "orchestrator", Options{Exists: existsIn(&asked)})
		require.IsType(t, Resolved{}, r)
		assert.Equal(t, Invocation{Cmd: "/usr/bin/npm"}, r.(Resolved).Target.Invocation)
		assert.Equal(t, []string{"/usr/lib/node_modules/npm/bin/npm-cli.js"}, asked)
	})
	t.Run("a nil Exists asks the file system", func(t *testing.T) {
		t.Parallel()
		root := t.TempDir()
		cli := filepath.Join(root, "lib", "node_modules", "npm", "bin", "npm-cli.js")
		require.NoError(t, os.MkdirAll(filepath.Dir(cli), 0o755))
		spec := LaunchSpec{ExecPath: root + "/bin/node", Args: []string{root + "/lib/node_modules" + orchestratorEntry}}
		assert.Equal(t, Invocation{Cmd: root + "/bin/npm"}, Resolve(spec, "orchestrator", Options{}).(Resolved).Target.Invocation)
		require.NoError(t, os.WriteFile(cli, nil, 0o644))
		assert.Equal(t, Invocation{Cmd: root + "/bin/node", PreArgs: []string{cli}}, Resolve(spec, "orchestrator", Options{}).(Resolved).Target.Invocation)
	})
}

// TestEntrySeparators checks that "/" and "\" both separate the parts of
// an entry script, on both platforms, and that nothing else does.
func TestEntrySeparators(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		entry string
		want  bool
	}{
		{"backslashes after node_modules", `/usr/lib/node_modules\@kici-dev\orchestrator\dist\server.js`, true},
		{"mixed separators, standalone", `/usr/lib/node_modules/@kici-dev\orchestrator/dist\standalone.js`, true},
		{"a source map", "/usr/lib/node_modules/@kici-dev/orchestrator/dist/server.js.map", false},
		{"an ES module", "/usr/lib/node_modules/@kici-dev/orchestrator/dist/server.mjs", false},
		{"a doubled separator", "/usr/lib/node_modules/@kici-dev/orchestrator/dist//server.js", false},
		{"another folder than dist", "/usr/lib/node_modules/@kici-dev/orchestrator/build/server.js", false},
		{"the scope in upper case", "/usr/lib/node_modules/@KICI-DEV/orchestrator/dist/server.js", false},
		{"no separator before the scope", "@kici-dev/orchestrator/dist/server.js", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := Resolve(LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{tt.entry}}, "orchestrator", Options{Exists: func(string) bool { return false }})
			if tt.want {
				assert.IsType(t, Resolved{}, r)
			} else {
				assert.Equal(t, NoEntry{}, r)
			}
		})
	}
}

func TestFirstGlobalPackage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, entry, want string
		ok                bool
	}{
		{"scoped package", "/usr/lib/node_modules/@kici-dev/orchestrator/dist/server.js", "@kici-dev/orchestrator", true},
		{"Windows separators", `C:\npm\node_modules\kici\dist\server.js`, "kici", true},
		{"scope written with /", `C:\npm\node_modules\@scope\name`, "@scope/name", true},
		{"the first node_modules decides", "/a/node_modules/bundle/node_modules/@kici-dev/x", "bundle", true},
		{"node_modules first", "node_modules/x", "x", true},
		{"an empty scope name is a scope", "/usr/lib/node_modules/@/x", "@/x", true},
		{"nothing after node_modules", "/usr/lib/node_modules", "", false},
		{"an empty name after node_modules", "/usr/lib/node_modules/", "", false},
		{"an empty segment after node_modules", "/usr/lib/node_modules//x", "", false},
		{"a scope alone", "/usr/lib/node_modules/@scope", "", false},
		{"a scope and an empty name", "/usr/lib/node_modules/@scope/", "", false},
		{"an empty segment after the scope", "/usr/lib/node_modules/@scope//name", "", false},
		{"node_modules in another case", "/usr/lib/Node_Modules/x", "", false},
		{"empty", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := FirstGlobalPackage(tt.entry)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestGlobalPrefix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		entry   string
		windows bool
		want    string
		ok      bool
	}{
		{"posix global install", "/usr/lib/node_modules/x", false, "/usr", true},
		{"posix root prefix", "/lib/node_modules/x", false, "/", true},
		{"posix segments joined as they are", "/usr//lib/node_modules/x", false, "/usr/", true},
		{"posix reads backslashes too", `/usr\lib\node_modules\x`, false, "/usr", true},
		{"posix node_modules second", "lib/node_modules/x", false, "", false},
		{"posix local node_modules", "/srv/app/node_modules/x", false, "", false},
		{"posix node_modules first", "node_modules/x", false, "", false},
		{"posix no node_modules", "/usr/lib/x", false, "", false},
		{"posix the first node_modules decides", "/a/node_modules/b/lib/node_modules/c", false, "", false},
		{"Windows roaming npm", `C:\Users\k\AppData\Roaming\npm\node_modules\x`, true, `C:\Users\k\AppData\Roaming\npm`, true},
		{"Windows forward slashes", "C:/nvm4w/nodejs/node_modules/x", true, `C:\nvm4w\nodejs`, true},
		{"Windows UNC share", `\\srv\share\node_modules\x`, true, `\\srv\share`, true},
		{"Windows drive root", `C:\node_modules\x`, true, `C:\`, true},
		{"Windows drive root, slashes", "c:/node_modules/x", true, `c:\`, true},
		{"Windows drive root, doubled separator", `C:\\node_modules\x`, true, `C:\`, true},
		{"Windows drive-like segment after a root", `\C:\node_modules\x`, true, `\C:`, true},
		{"Windows empty prefix", `\node_modules\x`, true, "", false},
		{"Windows two separators", `\\node_modules\x`, true, `\`, true},
		{"Windows node_modules first", `node_modules\x`, true, "", false},
		{"Windows lib is part of the prefix", `C:\a\lib\node_modules\x`, true, `C:\a\lib`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := GlobalPrefix(tt.entry, tt.windows)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestResolveRefuses lists the global installs that the orchestrator would
// hand to npm and Resolve refuses, each with the field and the reason.
func TestResolveRefuses(t *testing.T) {
	t.Parallel()
	posixEntry := "/usr/lib/node_modules" + orchestratorEntry
	winGlobal := `C:\Users\k\AppData\Roaming\npm\node_modules` + winEntry
	tests := []struct {
		name    string
		windows bool
		node    string
		entry   string
		cli     bool // whether npm-cli.js exists beside node
		reason  Reason
	}{
		// The npm.cmd route ran C:\npm.cmd with PATH=C:;…, the drive's
		// current folder first.
		{"drive-relative node, npm.cmd route", true, "C:node.exe", winGlobal, false, ErrRelativeNode},
		{"drive-relative node, npm-cli.js route", true, "C:node.exe", winGlobal, true, ErrRelativeNode},
		{"node on the current drive", true, `\nodejs\node.exe`, winGlobal, false, ErrRelativeNode},
		{"relative Windows node", true, `nodejs\node.exe`, winGlobal, true, ErrRelativeNode},
		{"posix node by name, launcher route", false, "node", posixEntry, false, ErrRelativeNode},
		{"posix relative node, npm-cli.js route", false, "./bin/node", posixEntry, true, ErrRelativeNode},
		// PATH=/opt/x::/usr/bin: an empty element, the working directory.
		{"posix node folder holding :", false, "/opt/x:/node", posixEntry, true, ErrListSeparator},
		{"posix node folder holding : twice", false, "/a:b:c/bin/node", posixEntry, false, ErrListSeparator},
		{"Windows node folder holding ;", true, `C:\n;\node.exe`, winGlobal, true, ErrListSeparator},
		{"Windows node folder holding ;, npm.cmd route", true, `C:\a;b\node.exe`, winGlobal, false, ErrListSeparator},
		{"a caret in the node folder, npm.cmd route", true, `C:\a^b\node.exe`, winGlobal, false, ErrBatchPath},
		{"a percent in the node folder, npm.cmd route", true, `C:\100%\node.exe`, winGlobal, false, ErrBatchPath},
		{"a device path to node, npm.cmd route", true, `\\?\C:\nodejs\node.exe`, winGlobal, false, ErrBatchPath},
		{"a double quote in the prefix, npm.cmd route", true, `C:\nodejs\node.exe`, `C:\Windows" calc & REM "\node_modules` + winEntry, false, ErrBatchPath},
		{"an exclamation mark in the prefix, npm.cmd route", true, `C:\nodejs\node.exe`, `C:\a!b\node_modules` + winEntry, false, ErrBatchPath},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			spec := LaunchSpec{ExecPath: tt.node, Args: []string{tt.entry}}
			got := Resolve(spec, "orchestrator", Options{Windows: tt.windows, Exists: func(string) bool { return tt.cli }})
			field, value := "NodeExecPath", tt.node
			if prefix, _ := GlobalPrefix(tt.entry, tt.windows); tt.reason == ErrBatchPath && !npmCmdSafe(prefix) {
				field, value = "GlobalPrefix", prefix
			}
			assert.Equal(t, Unsafe{Entry: tt.entry, Err: &FieldError{Func: "Resolve", Field: field, Value: value, Reason: tt.reason}}, got)
			require.IsType(t, Unsafe{}, got)
			assert.ErrorIs(t, got.(Unsafe).Err, tt.reason)
		})
	}
	t.Run("an owning package that is no npm package name", func(t *testing.T) {
		t.Parallel()
		for _, entry := range []string{
			`C:\npm\node_modules\C:\node_modules` + winEntry,
			"/usr/lib/node_modules/-x/node_modules" + orchestratorEntry,
			"/usr/lib/node_modules/x.tgz/node_modules" + orchestratorEntry,
			"/usr/lib/node_modules/@/x/node_modules" + orchestratorEntry,
			"/usr/lib/node_modules/..x/node_modules" + orchestratorEntry,
		} {
			t.Run(entry, func(t *testing.T) {
				pkg, _ := FirstGlobalPackage(entry)
				windows := strings.HasPrefix(entry, "C:")
				got := Resolve(LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{entry}}, "orchestrator", Options{Windows: windows, Exists: func(string) bool { return true }})
				assert.Equal(t, Unsafe{Entry: entry, Err: &FieldError{Func: "Resolve", Field: "OwningPackage", Value: pkg, Reason: ErrPackageName}}, got)
			})
		}
	})
	t.Run("the same paths on the npm-cli.js route, without cmd.exe", func(t *testing.T) {
		t.Parallel()
		for _, tt := range tests {
			if tt.reason != ErrBatchPath {
				continue
			}
			t.Run(tt.name, func(t *testing.T) {
				spec := LaunchSpec{ExecPath: tt.node, Args: []string{tt.entry}}
				assert.IsType(t, Resolved{}, Resolve(spec, "orchestrator", Options{Windows: true, Exists: func(string) bool { return true }}))
			})
		}
	})
	t.Run("a list separator in the node's name alone is fine", func(t *testing.T) {
		t.Parallel()
		spec := LaunchSpec{ExecPath: "/opt/node/bin/node:20", Args: []string{posixEntry}}
		assert.IsType(t, Resolved{}, Resolve(spec, "orchestrator", Options{Exists: func(string) bool { return true }}))
	})
}

// TestFieldMessage checks the operator's part of a refusal's message.
func TestFieldMessage(t *testing.T) {
	t.Parallel()
	fe := &FieldError{Func: "Resolve", Field: "GlobalPrefix", Value: "C:\\a\"b", Reason: ErrBatchPath}
	assert.Equal(t, `GlobalPrefix "C:\\a\"b": `+ErrBatchPath.Error(), fieldMessage(fe))
	assert.Equal(t, "x", fieldMessage(errors.New("x")), "an error of another type is printed as it is")
}
