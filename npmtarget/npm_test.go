package npmtarget

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

var (
	posixCli = Target{
		NodeExecPath: "/usr/bin/node", NpmPath: "/usr/bin/npm", OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: "/usr",
		Invocation: Invocation{Cmd: "/usr/bin/node", PreArgs: []string{"/usr/lib/node_modules/npm/bin/npm-cli.js"}},
	}
	posixNpm = Target{
		NodeExecPath: "/usr/bin/node", NpmPath: "/usr/bin/npm", OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: "/usr",
		Invocation: Invocation{Cmd: "/usr/bin/npm"},
	}
	winCli = Target{
		NodeExecPath: `C:\Program Files\nodejs\node.exe`, NpmPath: `C:\Program Files\nodejs\npm.cmd`,
		OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: `C:\Users\k\AppData\Roaming\npm`,
		Invocation: Invocation{Cmd: `C:\Program Files\nodejs\node.exe`, PreArgs: []string{`C:\Program Files\nodejs\node_modules\npm\bin\npm-cli.js`}},
		Windows:    true,
	}
	winCmd = Target{
		NodeExecPath: `C:\Program Files\nodejs\node.exe`, NpmPath: `C:\Program Files\nodejs\npm.cmd`,
		OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: `C:\Users\k\AppData\Roaming\npm`,
		Invocation: Invocation{Cmd: `C:\Program Files\nodejs\npm.cmd`},
		Windows:    true,
	}
)

// withCmd returns t running cmd with no PreArgs.
func withCmd(t Target, cmd string) Target {
	t.Invocation = Invocation{Cmd: cmd}
	return t
}

func TestPrefixViaEnv(t *testing.T) {
	assert.False(t, posixCli.PrefixViaEnv())
	assert.False(t, posixNpm.PrefixViaEnv())
	assert.False(t, winCli.PrefixViaEnv())
	assert.True(t, winCmd.PrefixViaEnv())
	// A batch file with PreArgs is not the fallback: the orchestrator passes --prefix.
	withPre := winCmd
	withPre.Invocation.PreArgs = []string{"x"}
	assert.False(t, withPre.PrefixViaEnv())
	for _, cmd := range []string{`C:\n\npm.cmd`, `C:\n\npm.CMD`, `C:\n\npm.Cmd`, `C:\n\npm.cmd.`, `C:\n\npm.cmd `, `C:\n\npm.cmd. .`, `C:\n\npm.bat`, `C:\n\npm.BAT..`, ".cmd"} {
		assert.True(t, withCmd(winCmd, cmd).PrefixViaEnv(), "windows %q", cmd)
	}
	for _, cmd := range []string{`C:\n\npm`, `C:\n\npm.exe`, `C:\n\npm.cmdx`, `C:\n\npmcmd`, `C:\n\npm.cmd\`, `C:\n\npm.cmd::$DATA`, "", "cmd"} {
		assert.False(t, withCmd(winCmd, cmd).PrefixViaEnv(), "windows %q", cmd)
	}
	// posix keeps the orchestrator's /\.cmd$/i exactly.
	for cmd, want := range map[string]bool{"/x/npm.cmd": true, "/x/npm.CMD": true, "/x/npm.cmd.": false, "/x/npm.cmd ": false, "/x/npm.bat": false, "/x/npm": false} {
		assert.Equal(t, want, withCmd(posixNpm, cmd).PrefixViaEnv(), "posix %q", cmd)
	}
}

func TestArgs(t *testing.T) {
	assert.Equal(t, []string{"/usr/lib/node_modules/npm/bin/npm-cli.js", "install", "-g", "x@1", "--prefix=/usr"}, posixCli.Args("install", "-g", "x@1"))
	assert.Equal(t, []string{"install", "-g", "x@1", "--prefix=/usr"}, posixNpm.Args("install", "-g", "x@1"))
	assert.Equal(t, []string{`C:\Program Files\nodejs\node_modules\npm\bin\npm-cli.js`, "view", `--prefix=C:\Users\k\AppData\Roaming\npm`}, winCli.Args("view"))
	assert.Equal(t, []string{"install", "-g", "x@1"}, winCmd.Args("install", "-g", "x@1"))
	assert.Equal(t, []string{"--prefix=/usr"}, posixNpm.Args())
	assert.Empty(t, winCmd.Args())

	// The result shares no backing array with the target or the arguments.
	args := posixCli.Args("a")
	args[0] = "changed"
	assert.Equal(t, "/usr/lib/node_modules/npm/bin/npm-cli.js", posixCli.Invocation.PreArgs[0])
	in := []string{"a", "b"}
	out := winCmd.Args(in...)
	out[0] = "changed"
	assert.Equal(t, "a", in[0])
}

func TestEnv(t *testing.T) {
	for _, tc := range []struct {
		name    string
		target  Target
		environ []string
		want    []string
	}{
		{
			name:    "posix: PATH replaced in place, npm_config_* kept",
			target:  posixCli,
			environ: []string{"HOME=/home/k", "PATH=/usr/local/bin:/bin", "npm_config_prefix=/elsewhere", "npm_config_registry=https://r.example"},
			want:    []string{"HOME=/home/k", "PATH=/usr/bin:/usr/local/bin:/bin", "npm_config_prefix=/elsewhere", "npm_config_registry=https://r.example"},
		},
		{
			name:    "posix: no PATH, the node folder alone",
			target:  posixCli,
			environ: []string{"HOME=/home/k"},
			want:    []string{"HOME=/home/k", "PATH=/usr/bin"},
		},
		{
			name:    "posix: empty PATH, the node folder alone",
			target:  posixCli,
			environ: []string{"PATH="},
			want:    []string{"PATH=/usr/bin"},
		},
		{
			name:    "nil environment",
			target:  posixNpm,
			environ: nil,
			want:    []string{"PATH=/usr/bin"},
		},
		{
			name:    "posix: names are case-sensitive, Path is another variable",
			target:  posixNpm,
			environ: []string{"Path=/x", "path=/y"},
			want:    []string{"Path=/x", "path=/y", "PATH=/usr/bin"},
		},
		{
			name:    "posix: of two PATH entries the last counts and takes the place",
			target:  posixNpm,
			environ: []string{"PATH=/first", "A=1", "PATH=/second"},
			want:    []string{"A=1", "PATH=/usr/bin:/second"},
		},
		{
			name:    "Windows: Path replaced, no second PATH beside it",
			target:  winCli,
			environ: []string{`SystemRoot=C:\Windows`, `Path=C:\Windows\system32;C:\Windows`, `TEMP=C:\Temp`},
			want:    []string{`SystemRoot=C:\Windows`, `Path=C:\Program Files\nodejs;C:\Windows\system32;C:\Windows`, `TEMP=C:\Temp`},
		},
		{
			name:    "Windows: several case variants become one",
			target:  winCli,
			environ: []string{`PATH=C:\a`, `path=C:\b`, `X=1`, `Path=C:\c`},
			want:    []string{`X=1`, `Path=C:\Program Files\nodejs;C:\c`},
		},
		{
			name:    "Windows: per-drive entries and entries without = stay",
			target:  winCli,
			environ: []string{`=C:=C:\work`, `=ExitCode=00000000`, `junk`, ``},
			want:    []string{`=C:=C:\work`, `=ExitCode=00000000`, `junk`, ``, `PATH=C:\Program Files\nodejs`},
		},
		{
			name:   "npm.cmd fallback: every case variant of the prefix variables replaced",
			target: winCmd,
			environ: []string{
				`Path=C:\Windows`, `npm_config_prefix=C:\a`, `NPM_CONFIG_PREFIX=C:\b`, `Npm_Config_Global_Prefix=C:\c`,
				`npm_config_registry=https://r.example`, `npm_config_prefix_extra=kept`, `my_npm_config_prefix=kept`,
			},
			want: []string{
				`Path=C:\Program Files\nodejs;C:\Windows`, `npm_config_registry=https://r.example`,
				`npm_config_prefix_extra=kept`, `my_npm_config_prefix=kept`, `npm_config_prefix=C:\Users\k\AppData\Roaming\npm`,
			},
		},
		{
			name:    "npm-cli.js on Windows: the prefix is an argument, the environment keeps its own",
			target:  winCli,
			environ: []string{`NPM_CONFIG_PREFIX=C:\a`},
			want:    []string{`NPM_CONFIG_PREFIX=C:\a`, `PATH=C:\Program Files\nodejs`},
		},
		{
			name:    "a posix target with a .cmd launcher follows the orchestrator's rule too",
			target:  withCmd(posixNpm, "/opt/npm.cmd"),
			environ: []string{"PATH=/bin", "npm_config_global_prefix=/x"},
			want:    []string{"PATH=/usr/bin:/bin", "npm_config_prefix=/usr"},
		},
		{
			name:    "node folder of a relative node, as node's dirname gives it",
			target:  withCmd(Target{NodeExecPath: "node"}, "npm"),
			environ: []string{"PATH=/bin"},
			want:    []string{"PATH=.:/bin"},
		},
		{
			name:    "node folder of a UNC node",
			target:  withCmd(Target{NodeExecPath: `\\srv\share\node.exe`, Windows: true}, `\\srv\share\node.exe`),
			environ: []string{`PATH=C:\x`},
			want:    []string{`PATH=\\srv\share\;C:\x`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := append([]string(nil), tc.environ...)
			assert.Equal(t, tc.want, tc.target.Env(tc.environ))
			assert.Equal(t, before, tc.environ, "Env must not change its input")
		})
	}
}

func TestCutEnv(t *testing.T) {
	for _, tc := range []struct {
		kv, name, value string
		ok              bool
	}{
		{"A=b", "A", "b", true},
		{"A=b=c", "A", "b=c", true},
		{"A=", "A", "", true},
		{"=C:=C:\\x", "=C:", "C:\\x", true},
		{"=", "", "", false},
		{"==x", "=", "x", true},
		{"A", "", "", false},
		{"", "", "", false},
	} {
		name, value, ok := cutEnv(tc.kv)
		assert.Equal(t, tc.ok, ok, tc.kv)
		assert.Equal(t, tc.name, name, tc.kv)
		assert.Equal(t, tc.value, value, tc.kv)
	}
}
