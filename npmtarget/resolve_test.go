package npmtarget

import (
	"os"
	"path/filepath"
	"slices"
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

const orchestratorEntry = "/@kici-dev/orchestrator/dist/server.js"

// TestLayouts runs Resolve on the launch commands of the ways node gets
// installed, each with the files that machine has, and states the result and
// the npm command that installs 0.20.0.
func TestLayouts(t *testing.T) {
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
	winEntry := `\@kici-dev\orchestrator\dist\server.js`
	for _, tc := range []struct {
		name    string
		windows bool
		exec    string
		args    []string
		files   []string // the files that exist on the service's machine
		want    Resolution
		command string // Command.String() of the install, "" unless Resolved
	}{
		{
			name:  "nvm",
			exec:  nvm + "/bin/node",
			args:  []string{nvm + "/lib/node_modules" + orchestratorEntry},
			files: []string{nvm + "/lib/node_modules/npm/bin/npm-cli.js"},
			want: Resolved{Target{
				NodeExecPath: nvm + "/bin/node", NpmPath: nvm + "/bin/npm",
				OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: nvm,
				Invocation: Invocation{Cmd: nvm + "/bin/node", PreArgs: []string{nvm + "/lib/node_modules/npm/bin/npm-cli.js"}},
			}},
			command: nvm + "/bin/node " + nvm + "/lib/node_modules/npm/bin/npm-cli.js install -g @kici-dev/orchestrator@0.20.0 --prefix=" + nvm,
		},
		{
			name:  "n",
			exec:  "/usr/local/bin/node",
			args:  []string{"--enable-source-maps", "/usr/local/lib/node_modules" + orchestratorEntry},
			files: []string{"/usr/local/lib/node_modules/npm/bin/npm-cli.js"},
			want: Resolved{Target{
				NodeExecPath: "/usr/local/bin/node", NpmPath: "/usr/local/bin/npm",
				OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: "/usr/local",
				Invocation: Invocation{Cmd: "/usr/local/bin/node", PreArgs: []string{"/usr/local/lib/node_modules/npm/bin/npm-cli.js"}},
			}},
			command: "/usr/local/bin/node /usr/local/lib/node_modules/npm/bin/npm-cli.js install -g @kici-dev/orchestrator@0.20.0 --prefix=/usr/local",
		},
		{
			name:  "NodeSource deb",
			exec:  "/usr/bin/node",
			args:  []string{"/usr/lib/node_modules" + orchestratorEntry},
			files: []string{"/usr/lib/node_modules/npm/bin/npm-cli.js"},
			want: Resolved{Target{
				NodeExecPath: "/usr/bin/node", NpmPath: "/usr/bin/npm",
				OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: "/usr",
				Invocation: Invocation{Cmd: "/usr/bin/node", PreArgs: []string{"/usr/lib/node_modules/npm/bin/npm-cli.js"}},
			}},
			command: "/usr/bin/node /usr/lib/node_modules/npm/bin/npm-cli.js install -g @kici-dev/orchestrator@0.20.0 --prefix=/usr",
		},
		{
			// Homebrew keeps npm in <prefix>/lib/node_modules/npm, not in the
			// node keg, so the keg's bin/npm (a link to it) runs, with the keg's
			// node first on PATH.
			name:  "Homebrew",
			exec:  brew + "/bin/node",
			args:  []string{"/opt/homebrew/lib/node_modules" + orchestratorEntry},
			files: []string{"/opt/homebrew/lib/node_modules/npm/bin/npm-cli.js"},
			want: Resolved{Target{
				NodeExecPath: brew + "/bin/node", NpmPath: brew + "/bin/npm",
				OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: "/opt/homebrew",
				Invocation: Invocation{Cmd: brew + "/bin/npm"},
			}},
			command: brew + "/bin/npm install -g @kici-dev/orchestrator@0.20.0 --prefix=/opt/homebrew",
		},
		{
			// volta installs each global package into an image of its own.
			name:  "volta",
			exec:  volta + "/node/20.11.1/bin/node",
			args:  []string{volta + "/packages/@kici-dev/orchestrator/lib/node_modules" + orchestratorEntry},
			files: []string{volta + "/node/20.11.1/lib/node_modules/npm/bin/npm-cli.js"},
			want: Resolved{Target{
				NodeExecPath: volta + "/node/20.11.1/bin/node", NpmPath: volta + "/node/20.11.1/bin/npm",
				OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: volta + "/packages/@kici-dev/orchestrator",
				Invocation: Invocation{Cmd: volta + "/node/20.11.1/bin/node", PreArgs: []string{volta + "/node/20.11.1/lib/node_modules/npm/bin/npm-cli.js"}},
			}},
			command: volta + "/node/20.11.1/bin/node " + volta + "/node/20.11.1/lib/node_modules/npm/bin/npm-cli.js install -g @kici-dev/orchestrator@0.20.0 --prefix=" + volta + "/packages/@kici-dev/orchestrator",
		},
		{
			name:  "mise",
			exec:  mise + "/bin/node",
			args:  []string{mise + "/lib/node_modules" + orchestratorEntry},
			files: []string{mise + "/lib/node_modules/npm/bin/npm-cli.js"},
			want: Resolved{Target{
				NodeExecPath: mise + "/bin/node", NpmPath: mise + "/bin/npm",
				OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: mise,
				Invocation: Invocation{Cmd: mise + "/bin/node", PreArgs: []string{mise + "/lib/node_modules/npm/bin/npm-cli.js"}},
			}},
			command: mise + "/bin/node " + mise + "/lib/node_modules/npm/bin/npm-cli.js install -g @kici-dev/orchestrator@0.20.0 --prefix=" + mise,
		},
		{
			name:  "fnm, standalone entry",
			exec:  fnm + "/bin/node",
			args:  []string{fnm + "/lib/node_modules/@kici-dev/orchestrator/dist/standalone.js"},
			files: []string{fnm + "/lib/node_modules/npm/bin/npm-cli.js"},
			want: Resolved{Target{
				NodeExecPath: fnm + "/bin/node", NpmPath: fnm + "/bin/npm",
				OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: fnm,
				Invocation: Invocation{Cmd: fnm + "/bin/node", PreArgs: []string{fnm + "/lib/node_modules/npm/bin/npm-cli.js"}},
			}},
			command: fnm + "/bin/node " + fnm + "/lib/node_modules/npm/bin/npm-cli.js install -g @kici-dev/orchestrator@0.20.0 --prefix=" + fnm,
		},
		{
			name:  "node in /bin, prefix /",
			exec:  "/bin/node",
			args:  []string{"/lib/node_modules" + orchestratorEntry},
			files: []string{"/lib/node_modules/npm/bin/npm-cli.js"},
			want: Resolved{Target{
				NodeExecPath: "/bin/node", NpmPath: "/bin/npm",
				OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: "/",
				Invocation: Invocation{Cmd: "/bin/node", PreArgs: []string{"/lib/node_modules/npm/bin/npm-cli.js"}},
			}},
			command: "/bin/node /lib/node_modules/npm/bin/npm-cli.js install -g @kici-dev/orchestrator@0.20.0 --prefix=/",
		},
		{
			name:    "Windows MSI",
			windows: true,
			exec:    msi + `\node.exe`,
			args:    []string{roam + `\node_modules` + winEntry},
			files:   []string{msi + `\node_modules\npm\bin\npm-cli.js`},
			want: Resolved{Target{
				NodeExecPath: msi + `\node.exe`, NpmPath: msi + `\npm.cmd`,
				OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: roam,
				Invocation: Invocation{Cmd: msi + `\node.exe`, PreArgs: []string{msi + `\node_modules\npm\bin\npm-cli.js`}},
				Windows:    true,
			}},
			command: `"C:\Program Files\nodejs\node.exe" "C:\Program Files\nodejs\node_modules\npm\bin\npm-cli.js" install -g @kici-dev/orchestrator@0.20.0 --prefix=C:\Users\kici\AppData\Roaming\npm`,
		},
		{
			name:    "Windows MSI without npm-cli.js: npm.cmd through cmd.exe",
			windows: true,
			exec:    msi + `\node.exe`,
			args:    []string{roam + `\node_modules` + winEntry},
			want: Resolved{Target{
				NodeExecPath: msi + `\node.exe`, NpmPath: msi + `\npm.cmd`,
				OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: roam,
				Invocation: Invocation{Cmd: msi + `\npm.cmd`},
				Windows:    true,
			}},
			command: `cmd.exe /d /s /c ""C:\Program Files\nodejs\npm.cmd" install -g @kici-dev/orchestrator@0.20.0"`,
		},
		{
			name:    "nvm-windows, forward slashes",
			windows: true,
			exec:    `C:\nvm4w\nodejs\node.exe`,
			args:    []string{"C:/nvm4w/nodejs/node_modules" + orchestratorEntry},
			files:   []string{`C:\nvm4w\nodejs\node_modules\npm\bin\npm-cli.js`},
			want: Resolved{Target{
				NodeExecPath: `C:\nvm4w\nodejs\node.exe`, NpmPath: `C:\nvm4w\nodejs\npm.cmd`,
				OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: `C:\nvm4w\nodejs`,
				Invocation: Invocation{Cmd: `C:\nvm4w\nodejs\node.exe`, PreArgs: []string{`C:\nvm4w\nodejs\node_modules\npm\bin\npm-cli.js`}},
				Windows:    true,
			}},
			command: `C:\nvm4w\nodejs\node.exe C:\nvm4w\nodejs\node_modules\npm\bin\npm-cli.js install -g @kici-dev/orchestrator@0.20.0 --prefix=C:\nvm4w\nodejs`,
		},
		{
			name:    "UNC share",
			windows: true,
			exec:    unc + `\node.exe`,
			args:    []string{unc + `\node_modules` + winEntry},
			want: Resolved{Target{
				NodeExecPath: unc + `\node.exe`, NpmPath: unc + `\npm.cmd`,
				OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: unc,
				Invocation: Invocation{Cmd: unc + `\npm.cmd`},
				Windows:    true,
			}},
			command: `cmd.exe /d /s /c ""\\fileserver\tools\nodejs\npm.cmd" install -g @kici-dev/orchestrator@0.20.0"`,
		},
		{
			name: "local project node_modules",
			exec: "/usr/bin/node",
			args: []string{"/srv/kici/node_modules" + orchestratorEntry},
			want: NotGlobal{Entry: "/srv/kici/node_modules" + orchestratorEntry},
		},
		{
			// Windows lays a global install out like a project's node_modules,
			// so the orchestrator takes the project for a prefix; -g with that
			// prefix installs into the same node_modules.
			name:    "local project node_modules on Windows",
			windows: true,
			exec:    msi + `\node.exe`,
			args:    []string{`D:\apps\kici\node_modules` + winEntry},
			files:   []string{msi + `\node_modules\npm\bin\npm-cli.js`},
			want: Resolved{Target{
				NodeExecPath: msi + `\node.exe`, NpmPath: msi + `\npm.cmd`,
				OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: `D:\apps\kici`,
				Invocation: Invocation{Cmd: msi + `\node.exe`, PreArgs: []string{msi + `\node_modules\npm\bin\npm-cli.js`}},
				Windows:    true,
			}},
			command: `"C:\Program Files\nodejs\node.exe" "C:\Program Files\nodejs\node_modules\npm\bin\npm-cli.js" install -g @kici-dev/orchestrator@0.20.0 --prefix=D:\apps\kici`,
		},
		{
			// The first node_modules is the global root: the bundle owns the entry.
			name:  "bundle nesting node_modules inside a package",
			exec:  "/usr/bin/node",
			args:  []string{"/usr/lib/node_modules/kici-bundle/node_modules" + orchestratorEntry},
			files: []string{"/usr/lib/node_modules/npm/bin/npm-cli.js"},
			want: Resolved{Target{
				NodeExecPath: "/usr/bin/node", NpmPath: "/usr/bin/npm",
				OwningPackage: "kici-bundle", GlobalPrefix: "/usr",
				Invocation: Invocation{Cmd: "/usr/bin/node", PreArgs: []string{"/usr/lib/node_modules/npm/bin/npm-cli.js"}},
			}},
			command: "/usr/bin/node /usr/lib/node_modules/npm/bin/npm-cli.js install -g kici-bundle@0.20.0 --prefix=/usr",
		},
		{
			name: "custom --binary install",
			exec: "/opt/kici/bin/node",
			args: []string{"/opt/kici/app" + orchestratorEntry},
			want: NoEntry{},
		},
		{
			name: "another program",
			exec: "/usr/bin/node",
			args: []string{"/srv/other/index.js"},
			want: NoEntry{},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var asked []string
			got := Resolve(LaunchSpec{ExecPath: tc.exec, Args: tc.args}, "orchestrator", Options{Windows: tc.windows, Exists: existsIn(&asked, tc.files...)})
			require.Equal(t, tc.want, got)
			r, ok := got.(Resolved)
			if !ok {
				assert.Empty(t, asked, "Exists is asked only on the way to Resolved")
				assert.Empty(t, tc.command)
				return
			}
			require.Len(t, asked, 1, "Exists is asked about the npm-cli.js path only")
			var wantCli string
			if tc.windows {
				wantCli = dirname(true, tc.exec) + `\node_modules\npm\bin\npm-cli.js`
			} else {
				wantCli = join(false, dirname(false, tc.exec), "../lib/node_modules/npm/bin/npm-cli.js")
			}
			assert.Equal(t, wantCli, asked[0])
			cmd, err := SelfInstall{Target: r.Target, Version: "0.20.0"}.Command()
			require.NoError(t, err)
			assert.Equal(t, tc.command, cmd.String())
		})
	}
}

// TestResolveBranches walks every branch of resolveNpmInstallTarget.
func TestResolveBranches(t *testing.T) {
	global := "/usr/lib/node_modules" + orchestratorEntry
	never := func(string) bool { t.Error("Exists must not be asked"); return false }
	t.Run("no entry among execPath and args", func(t *testing.T) {
		assert.Equal(t, NoEntry{}, Resolve(LaunchSpec{ExecPath: "/usr/bin/node"}, "orchestrator", Options{Exists: never}))
		assert.Equal(t, NoEntry{}, Resolve(LaunchSpec{}, "orchestrator", Options{Exists: never}))
	})
	t.Run("the entry of another component", func(t *testing.T) {
		spec := LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{global}}
		assert.Equal(t, NoEntry{}, Resolve(spec, "agent", Options{Exists: never}))
	})
	t.Run("entry without node_modules", func(t *testing.T) {
		spec := LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{"/opt/kici" + orchestratorEntry}}
		assert.Equal(t, NoEntry{}, Resolve(spec, "orchestrator", Options{Exists: never}))
	})
	t.Run("not global", func(t *testing.T) {
		entry := "/srv/app/node_modules" + orchestratorEntry
		spec := LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{entry}}
		assert.Equal(t, NotGlobal{Entry: entry}, Resolve(spec, "orchestrator", Options{Exists: never}))
		// On Windows the same layout needs only a non-empty prefix; "\node_modules" has none.
		winEntry := `\node_modules\@kici-dev\orchestrator\dist\server.js`
		spec = LaunchSpec{ExecPath: `C:\nodejs\node.exe`, Args: []string{winEntry}}
		assert.Equal(t, NotGlobal{Entry: winEntry}, Resolve(spec, "orchestrator", Options{Windows: true, Exists: never}))
	})
	t.Run("the first match wins, execPath first", func(t *testing.T) {
		other := "/opt/lib/node_modules" + orchestratorEntry
		spec := LaunchSpec{ExecPath: global, Args: []string{other}}
		var asked []string
		r := Resolve(spec, "orchestrator", Options{Exists: existsIn(&asked)})
		require.IsType(t, Resolved{}, r)
		assert.Equal(t, "/usr", r.(Resolved).Target.GlobalPrefix)
		spec = LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{"/x/server.js", other, global}}
		r = Resolve(spec, "orchestrator", Options{Exists: existsIn(&asked)})
		require.IsType(t, Resolved{}, r)
		assert.Equal(t, "/opt", r.(Resolved).Target.GlobalPrefix)
	})
	t.Run("npm-cli.js present: the pinned node runs it", func(t *testing.T) {
		var asked []string
		r := Resolve(LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{global}}, "orchestrator",
			Options{Exists: existsIn(&asked, "/usr/lib/node_modules/npm/bin/npm-cli.js")})
		assert.Equal(t, Invocation{Cmd: "/usr/bin/node", PreArgs: []string{"/usr/lib/node_modules/npm/bin/npm-cli.js"}}, r.(Resolved).Target.Invocation)
	})
	t.Run("npm-cli.js missing: the npm launcher", func(t *testing.T) {
		var asked []string
		r := Resolve(LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{global}}, "orchestrator", Options{Exists: existsIn(&asked)})
		assert.Equal(t, Invocation{Cmd: "/usr/bin/npm"}, r.(Resolved).Target.Invocation)
		assert.Equal(t, []string{"/usr/lib/node_modules/npm/bin/npm-cli.js"}, asked)
	})
	t.Run("the component is literal, not a pattern", func(t *testing.T) {
		spec := LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{"/usr/lib/node_modules/@kici-dev/orchestratorX/dist/server.js"}}
		// The orchestrator's unescaped pattern would let "." match the X.
		assert.Equal(t, NoEntry{}, Resolve(spec, "orchestrator.", Options{Exists: never}))
		spec.Args = []string{"/usr/lib/node_modules/@kici-dev/a(b/dist/server.js"}
		// The orchestrator's pattern would not even compile.
		assert.IsType(t, Resolved{}, Resolve(spec, "a(b", Options{Exists: func(string) bool { return false }}))
		spec.Args = []string{"/usr/lib/node_modules/@kici-dev/orchestrator/dist/server.js"}
		assert.Equal(t, NoEntry{}, Resolve(spec, "orch.*", Options{Exists: never}))
		assert.Equal(t, NoEntry{}, Resolve(spec, "", Options{Exists: never}))
	})
	t.Run("separators: both on both platforms", func(t *testing.T) {
		for _, entry := range []string{
			`/usr/lib/node_modules\@kici-dev\orchestrator\dist\server.js`,
			`/usr/lib/node_modules/@kici-dev\orchestrator/dist\standalone.js`,
		} {
			r := Resolve(LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{entry}}, "orchestrator", Options{Exists: func(string) bool { return false }})
			assert.IsType(t, Resolved{}, r, entry)
		}
		for _, entry := range []string{
			"/usr/lib/node_modules/@kici-dev/orchestrator/dist/server.js.map",
			"/usr/lib/node_modules/@kici-dev/orchestrator/dist/server.mjs",
			"/usr/lib/node_modules/@kici-dev/orchestrator/dist//server.js",
			"/usr/lib/node_modules/@kici-dev/orchestrator/build/server.js",
			"/usr/lib/node_modules/@KICI-DEV/orchestrator/dist/server.js",
			"@kici-dev/orchestrator/dist/server.js",
		} {
			assert.Equal(t, NoEntry{}, Resolve(LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{entry}}, "orchestrator", Options{Exists: never}), entry)
		}
	})
	t.Run("a nil Exists asks the file system", func(t *testing.T) {
		root := t.TempDir()
		cli := filepath.Join(root, "lib", "node_modules", "npm", "bin", "npm-cli.js")
		require.NoError(t, os.MkdirAll(filepath.Dir(cli), 0o755))
		spec := LaunchSpec{ExecPath: root + "/bin/node", Args: []string{root + "/lib/node_modules" + orchestratorEntry}}
		assert.Equal(t, Invocation{Cmd: root + "/bin/npm"}, Resolve(spec, "orchestrator", Options{}).(Resolved).Target.Invocation)
		require.NoError(t, os.WriteFile(cli, nil, 0o644))
		assert.Equal(t, Invocation{Cmd: root + "/bin/node", PreArgs: []string{cli}}, Resolve(spec, "orchestrator", Options{}).(Resolved).Target.Invocation)
	})
}

func TestFirstGlobalPackage(t *testing.T) {
	for _, tc := range []struct {
		entry, want string
		ok          bool
	}{
		{"/usr/lib/node_modules/@kici-dev/orchestrator/dist/server.js", "@kici-dev/orchestrator", true},
		{`C:\npm\node_modules\kici\dist\server.js`, "kici", true},
		{`C:\npm\node_modules\@scope\name`, "@scope/name", true},
		{"/a/node_modules/bundle/node_modules/@kici-dev/x", "bundle", true},
		{"node_modules/x", "x", true},
		{"/usr/lib/node_modules/@/x", "@/x", true},
		{"/usr/lib/node_modules", "", false},
		{"/usr/lib/node_modules/", "", false},
		{"/usr/lib/node_modules//x", "", false},
		{"/usr/lib/node_modules/@scope", "", false},
		{"/usr/lib/node_modules/@scope/", "", false},
		{"/usr/lib/node_modules/@scope//name", "", false},
		{"/usr/lib/Node_Modules/x", "", false},
		{"", "", false},
	} {
		got, ok := FirstGlobalPackage(tc.entry)
		assert.Equal(t, tc.ok, ok, tc.entry)
		assert.Equal(t, tc.want, got, tc.entry)
	}
}

func TestGlobalPrefix(t *testing.T) {
	for _, tc := range []struct {
		entry   string
		windows bool
		want    string
		ok      bool
	}{
		{"/usr/lib/node_modules/x", false, "/usr", true},
		{"/lib/node_modules/x", false, "/", true}, // the orchestrator's `|| p.sep`
		{"/usr//lib/node_modules/x", false, "/usr/", true},
		{`/usr\lib\node_modules\x`, false, "/usr", true},
		{"lib/node_modules/x", false, "", false}, // node_modules second: idx < 2
		{"/srv/app/node_modules/x", false, "", false},
		{"node_modules/x", false, "", false}, // idx < 1
		{"/usr/lib/x", false, "", false},
		{"/a/node_modules/b/lib/node_modules/c", false, "", false}, // the first node_modules decides
		{`C:\Users\k\AppData\Roaming\npm\node_modules\x`, true, `C:\Users\k\AppData\Roaming\npm`, true},
		{"C:/nvm4w/nodejs/node_modules/x", true, `C:\nvm4w\nodejs`, true},
		{`\\srv\share\node_modules\x`, true, `\\srv\share`, true},
		{`C:\node_modules\x`, true, "C:", true},
		{`\node_modules\x`, true, "", false}, // the orchestrator's `|| null`
		{`\\node_modules\x`, true, `\`, true},
		{`node_modules\x`, true, "", false},
		{`C:\a\lib\node_modules\x`, true, `C:\a\lib`, true},
	} {
		got, ok := GlobalPrefix(tc.entry, tc.windows)
		assert.Equal(t, tc.ok, ok, "%q windows=%v", tc.entry, tc.windows)
		assert.Equal(t, tc.want, got, "%q windows=%v", tc.entry, tc.windows)
	}
}
