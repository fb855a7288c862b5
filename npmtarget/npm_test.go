package npmtarget

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// withNode returns t with the service's node at node.
func withNode(t Target, node string) Target {
	t.NodeExecPath = node
	return t
}

// withPrefix returns t installing into prefix.
func withPrefix(t Target, prefix string) Target {
	t.GlobalPrefix = prefix
	return t
}

// withCmd returns t running cmd with no PreArgs.
func withCmd(t Target, cmd string) Target {
	t.Invocation = Invocation{Cmd: cmd}
	return t
}

func TestPrefixViaEnv(t *testing.T) {
	t.Parallel()
	withPre := winCmd
	withPre.Invocation.PreArgs = []string{"x"}
	tests := []struct {
		name   string
		target Target
		want   bool
	}{
		{"posix npm-cli.js", posixCli, false},
		{"posix npm launcher", posixNpm, false},
		{"Windows npm-cli.js", winCli, false},
		{"Windows npm.cmd", winCmd, true},
		// The orchestrator passes --prefix to a batch file with PreArgs.
		{"Windows batch file with PreArgs", withPre, false},
		{"Windows .CMD", withCmd(winCmd, `C:\n\npm.CMD`), true},
		{"Windows .Cmd", withCmd(winCmd, `C:\n\npm.Cmd`), true},
		{"Windows trailing dot", withCmd(winCmd, `C:\n\npm.cmd.`), true},
		{"Windows trailing space", withCmd(winCmd, `C:\n\npm.cmd `), true},
		{"Windows trailing dots and spaces", withCmd(winCmd, `C:\n\npm.cmd. .`), true},
		{"Windows .bat", withCmd(winCmd, `C:\n\npm.bat`), true},
		{"Windows .BAT and dots", withCmd(winCmd, `C:\n\npm.BAT..`), true},
		{"Windows .cmd alone", withCmd(winCmd, ".cmd"), true},
		{"Windows no extension", withCmd(winCmd, `C:\n\npm`), false},
		{"Windows .exe", withCmd(winCmd, `C:\n\npm.exe`), false},
		{"Windows .cmdx", withCmd(winCmd, `C:\n\npm.cmdx`), false},
		{"Windows no dot", withCmd(winCmd, `C:\n\npmcmd`), false},
		{"Windows trailing separator", withCmd(winCmd, `C:\n\npm.cmd\`), false},
		{"Windows stream name", withCmd(winCmd, `C:\n\npm.cmd::$DATA`), false},
		{"Windows empty", withCmd(winCmd, ""), false},
		{"Windows cmd without dot", withCmd(winCmd, "cmd"), false},
		// posix keeps the orchestrator's /\.cmd$/i exactly.
		{"posix .cmd", withCmd(posixNpm, "/x/npm.cmd"), true},
		{"posix .CMD", withCmd(posixNpm, "/x/npm.CMD"), true},
		{"posix trailing dot", withCmd(posixNpm, "/x/npm.cmd."), false},
		{"posix trailing space", withCmd(posixNpm, "/x/npm.cmd "), false},
		{"posix .bat", withCmd(posixNpm, "/x/npm.bat"), false},
		{"posix npm", withCmd(posixNpm, "/x/npm"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.target.PrefixViaEnv())
		})
	}
}

func TestArgs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		target  Target
		npmArgs []string
		want    []string
	}{
		{"posix npm-cli.js", posixCli, []string{"install", "-g", "x@1"}, []string{"/usr/lib/node_modules/npm/bin/npm-cli.js", "install", "-g", "x@1", "--prefix=/usr"}},
		{"posix npm launcher", posixNpm, []string{"install", "-g", "x@1"}, []string{"install", "-g", "x@1", "--prefix=/usr"}},
		{"Windows npm-cli.js", winCli, []string{"view"}, []string{`C:\Program Files\nodejs\node_modules\npm\bin\npm-cli.js`, "view", `--prefix=C:\Users\k\AppData\Roaming\npm`}},
		{"Windows npm.cmd: no --prefix", winCmd, []string{"install", "-g", "x@1"}, []string{"install", "-g", "x@1"}},
		{"no npm arguments", posixNpm, nil, []string{"--prefix=/usr"}},
		{"nothing at all", winCmd, nil, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.target.Args(tt.npmArgs...))
		})
	}
}

func TestEnv(t *testing.T) {
	t.Parallel()
	tests := []struct {
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
				`NoDefaultCurrentDirectoryInExePath=1`,
			},
		},
		{
			// npm.cmd keeps an inherited NPM_PREFIX_NPM_CLI_JS when its own
			// look-up fails, and runs the npm-cli.js it names; cmd.exe looks
			// for "node" in the working directory unless told not to.
			name:   "cmd.exe route: npm.cmd's own variable dropped, the working directory kept out",
			target: winCmd,
			environ: []string{
				`Path=C:\Windows`, `NPM_PREFIX_NPM_CLI_JS=C:\evil\npm-cli.js`, `npm_prefix_npm_cli_js=C:\evil2`,
				`NoDefaultCurrentDirectoryInExePath=`, `nodefaultcurrentdirectoryinexepath=0`, `NPM_PREFIX_NPM_CLI_JS_X=kept`,
			},
			want: []string{
				`Path=C:\Program Files\nodejs;C:\Windows`, `NPM_PREFIX_NPM_CLI_JS_X=kept`,
				`npm_config_prefix=C:\Users\k\AppData\Roaming\npm`, `NoDefaultCurrentDirectoryInExePath=1`,
			},
		},
		{
			name:    "cmd.exe route with PreArgs: the prefix is an argument, the cmd.exe variables still set",
			target:  Target{NodeExecPath: `C:\n\node.exe`, GlobalPrefix: `C:\p`, Windows: true, Invocation: Invocation{Cmd: `C:\shims\node.cmd`, PreArgs: []string{"x"}}},
			environ: []string{`NPM_PREFIX_NPM_CLI_JS=C:\evil`, `npm_config_prefix=C:\kept`},
			want:    []string{`npm_config_prefix=C:\kept`, `PATH=C:\n`, `NoDefaultCurrentDirectoryInExePath=1`},
		},
		{
			name:    "node.exe route: npm.cmd's variables are not npm's business",
			target:  winCli,
			environ: []string{`NPM_PREFIX_NPM_CLI_JS=C:\x`, `NoDefaultCurrentDirectoryInExePath=0`},
			want:    []string{`NPM_PREFIX_NPM_CLI_JS=C:\x`, `NoDefaultCurrentDirectoryInExePath=0`, `PATH=C:\Program Files\nodejs`},
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			before := append([]string(nil), tt.environ...)
			assert.Equal(t, tt.want, tt.target.Env(tt.environ))
			assert.Equal(t, before, tt.environ, "Env must not change its input")
		})
	}
}

func TestCutEnv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, kv, wantName, wantValue string
		ok                            bool
	}{
		{"plain", "A=b", "A", "b", true},
		{"= in the value", "A=b=c", "A", "b=c", true},
		{"empty value", "A=", "A", "", true},
		{"per-drive entry", "=C:=C:\\x", "=C:", "C:\\x", true},
		{"= alone", "=", "", "", false},
		{"name =", "==x", "=", "x", true},
		{"no =", "A", "", "", false},
		{"empty", "", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			name, value, ok := cutEnv(tt.kv)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.wantName, name)
			assert.Equal(t, tt.wantValue, value)
		})
	}
}

func TestCommand(t *testing.T) {
	t.Parallel()
	cmdLine := `""C:\Program Files\nodejs\npm.cmd" install -g @kici-dev/orchestrator@0.20.0"`
	tests := []struct {
		name    string
		target  Target
		npmArgs []string
		want    Command
		str     string // want.String()
	}{
		{"posix, the pinned node runs npm-cli.js", posixCli, []string{"install", "-g", "@kici-dev/orchestrator@0.20.0"},
			Command{
				Path:   "/usr/bin/node",
				Args:   []string{"/usr/bin/node", "/usr/lib/node_modules/npm/bin/npm-cli.js", "install", "-g", "@kici-dev/orchestrator@0.20.0", "--prefix=/usr"},
				Target: posixCli,
			},
			"/usr/bin/node /usr/lib/node_modules/npm/bin/npm-cli.js install -g @kici-dev/orchestrator@0.20.0 --prefix=/usr"},
		{"posix, the npm launcher; arguments pass as they are", posixNpm, []string{"view", "a b", "&x", ""},
			Command{Path: "/usr/bin/npm", Args: []string{"/usr/bin/npm", "view", "a b", "&x", "", "--prefix=/usr"}, Target: posixNpm},
			`/usr/bin/npm view 'a b' '&x' '' --prefix=/usr`},
		{"Windows, node.exe runs npm-cli.js without a shell", winCli, []string{"install", "-g", "@kici-dev/orchestrator@0.20.0"},
			Command{
				Path: `C:\Program Files\nodejs\node.exe`,
				Args: []string{
					`C:\Program Files\nodejs\node.exe`, `C:\Program Files\nodejs\node_modules\npm\bin\npm-cli.js`,
					"install", "-g", "@kici-dev/orchestrator@0.20.0", `--prefix=C:\Users\k\AppData\Roaming\npm`,
				},
				Target: winCli,
			},
			`"C:\Program Files\nodejs\node.exe" "C:\Program Files\nodejs\node_modules\npm\bin\npm-cli.js" install -g @kici-dev/orchestrator@0.20.0 --prefix=C:\Users\k\AppData\Roaming\npm`},
		{"Windows, npm.cmd through cmd.exe", winCmd, []string{"install", "-g", "@kici-dev/orchestrator@0.20.0"},
			Command{Path: `%SystemRoot%\System32\cmd.exe`, Args: []string{"cmd.exe", "/d", "/s", "/c", cmdLine}, CmdLine: "cmd.exe /d /s /c " + cmdLine, Target: winCmd},
			"cmd.exe /d /s /c " + cmdLine},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := tt.target.Command(tt.npmArgs...)
			require.NoError(t, err)
			assert.Equal(t, tt.want, c)
			assert.Equal(t, tt.str, c.String())
		})
	}
}

func TestCommandEnv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		target  Target
		environ []string
		want    []string
	}{
		{"posix", posixCli, []string{"PATH=/bin"}, []string{"PATH=/usr/bin:/bin"}},
		{"npm.cmd", winCmd, []string{`Path=C:\Windows`, `npm_config_prefix=C:\elsewhere`},
			[]string{`Path=C:\Program Files\nodejs;C:\Windows`, `npm_config_prefix=C:\Users\k\AppData\Roaming\npm`, `NoDefaultCurrentDirectoryInExePath=1`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := tt.target.Command("install")
			require.NoError(t, err)
			assert.Equal(t, tt.want, c.Env(tt.environ))
		})
	}
}

func TestCommandBatchSpellings(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{`C:\n\npm.CMD`, `C:\n\npm.cmd.`, `C:\n\npm.cmd `, `C:\n\npm.bat`} {
		t.Run(cmd, func(t *testing.T) {
			t.Parallel()
			c, err := withCmd(winCmd, cmd).Command("install")
			require.NoError(t, err)
			assert.Equal(t, `cmd.exe /d /s /c ""`+cmd+`" install"`, c.CmdLine)
		})
	}
}

// TestCommandRefuses lists the programs Command will not run, each with the
// error that says why.
func TestCommandRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		target Target
		want   error
	}{
		// A batch file with PreArgs cannot take their paths.
		{"Windows batch file with PreArgs", Target{Windows: true, NodeExecPath: `C:\n\node.exe`, GlobalPrefix: `C:\p`, Invocation: Invocation{Cmd: `C:\shims\node.cmd`, PreArgs: []string{`C:\n\node_modules\npm\bin\npm-cli.js`}}},
			&UnsafeArgError{Func: "Target.Command", Arg: `C:\n\node_modules\npm\bin\npm-cli.js`}},
		{"Windows program without extension", withCmd(winCli, `C:\n\node`), &UnsafeCommandError{Func: "Target.Command", Cmd: `C:\n\node`, Reason: ErrNotExecutable}},
		{"Windows PowerShell script", withCmd(winCli, `C:\n\node.ps1`), &UnsafeCommandError{Func: "Target.Command", Cmd: `C:\n\node.ps1`, Reason: ErrNotExecutable}},
		{"Windows .exe with a trailing dot", withCmd(winCli, `C:\n\node.exe.`), &UnsafeCommandError{Func: "Target.Command", Cmd: `C:\n\node.exe.`, Reason: ErrNotExecutable}},
		{"Windows stream name", withCmd(winCli, `C:\n\npm.cmd::$DATA`), &UnsafeCommandError{Func: "Target.Command", Cmd: `C:\n\npm.cmd::$DATA`, Reason: ErrNotExecutable}},
		{"Windows trailing separator", withCmd(winCli, `C:\n\node.exe\`), &UnsafeCommandError{Func: "Target.Command", Cmd: `C:\n\node.exe\`, Reason: ErrNotExecutable}},
		{"posix bare name", withCmd(posixNpm, "npm"), &UnsafeCommandError{Func: "Target.Command", Cmd: "npm", Reason: ErrRelativePath}},
		{"posix ./", withCmd(posixNpm, "./npm"), &UnsafeCommandError{Func: "Target.Command", Cmd: "./npm", Reason: ErrRelativePath}},
		{"posix empty", withCmd(posixNpm, ""), &UnsafeCommandError{Func: "Target.Command", Cmd: "", Reason: ErrRelativePath}},
		{"posix Windows path", withCmd(posixNpm, `C:\n\npm`), &UnsafeCommandError{Func: "Target.Command", Cmd: `C:\n\npm`, Reason: ErrRelativePath}},
		{"Windows bare name", withCmd(winCmd, "npm.cmd"), &UnsafeCommandError{Func: "Target.Command", Cmd: "npm.cmd", Reason: ErrRelativePath}},
		{"Windows current drive", withCmd(winCmd, `\n\npm.cmd`), &UnsafeCommandError{Func: "Target.Command", Cmd: `\n\npm.cmd`, Reason: ErrRelativePath}},
		{"Windows drive's current folder", withCmd(winCmd, `C:npm.cmd`), &UnsafeCommandError{Func: "Target.Command", Cmd: `C:npm.cmd`, Reason: ErrRelativePath}},
		{"Windows .\\", withCmd(winCmd, `.\npm.cmd`), &UnsafeCommandError{Func: "Target.Command", Cmd: `.\npm.cmd`, Reason: ErrRelativePath}},
		{"Windows slash", withCmd(winCmd, "/n/npm.cmd"), &UnsafeCommandError{Func: "Target.Command", Cmd: "/n/npm.cmd", Reason: ErrRelativePath}},
		{"Windows empty", withCmd(winCmd, ""), &UnsafeCommandError{Func: "Target.Command", Cmd: "", Reason: ErrRelativePath}},
		{"a cmd.exe path of the batch file", withCmd(winCmd, `C:\100%\npm.cmd`), &UnsafeCommandError{Func: "Target.Command", Cmd: `C:\100%\npm.cmd`, Reason: ErrCmdSyntax}},
		{"a device path to npm.cmd", withCmd(winCmd, `\\?\C:\n\npm.cmd`), &FieldError{Func: "Target.Command", Field: "Invocation.Cmd", Value: `\\?\C:\n\npm.cmd`, Reason: ErrBatchPath}},
		{"a drive-relative node on the npm.cmd route", withNode(winCmd, `C:node.exe`), &FieldError{Func: "Target.Command", Field: "NodeExecPath", Value: `C:node.exe`, Reason: ErrRelativeNode}},
		{"a relative node on the launcher route", withNode(posixNpm, "node"), &FieldError{Func: "Target.Command", Field: "NodeExecPath", Value: "node", Reason: ErrRelativeNode}},
		{"no node", withNode(posixCli, ""), &FieldError{Func: "Target.Command", Field: "NodeExecPath", Value: "", Reason: ErrRelativeNode}},
		{"a node folder holding :", withNode(posixNpm, "/opt/x:/node"), &FieldError{Func: "Target.Command", Field: "NodeExecPath", Value: "/opt/x:/node", Reason: ErrListSeparator}},
		{"a node folder holding ;", withNode(winCli, `C:\n;\node.exe`), &FieldError{Func: "Target.Command", Field: "NodeExecPath", Value: `C:\n;\node.exe`, Reason: ErrListSeparator}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := tt.target.Command("install")
			assert.Equal(t, tt.want, err)
			assert.Equal(t, Command{}, c)
		})
	}
}

// TestCommandRefusesNpmCmdPaths lists the paths npm.cmd would expand into
// command lines that cmd.exe misreads: each refused on the cmd.exe route,
// and each fine where node.exe runs npm-cli.js without cmd.exe.
func TestCommandRefusesNpmCmdPaths(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		field  string
		value  string
		target Target
	}{
		// npm.cmd's IF EXIST "%NPM_PREFIX_NPM_CLI_JS%" would end its quotes
		// and run calc.
		{"a double quote in the prefix", "GlobalPrefix", `C:\Windows" calc & REM "`, withPrefix(winCmd, `C:\Windows" calc & REM "`)},
		{"a percent in the prefix", "GlobalPrefix", `C:\100%\npm`, withPrefix(winCmd, `C:\100%\npm`)},
		{"an exclamation mark in the prefix", "GlobalPrefix", `C:\a!b!\npm`, withPrefix(winCmd, `C:\a!b!\npm`)},
		{"a caret in the prefix", "GlobalPrefix", `C:\a^b\npm`, withPrefix(winCmd, `C:\a^b\npm`)},
		{"a line feed in the prefix", "GlobalPrefix", "C:\\a\nb", withPrefix(winCmd, "C:\\a\nb")},
		{"a DEL in the prefix", "GlobalPrefix", "C:\\a\x7fb", withPrefix(winCmd, "C:\\a\x7fb")},
		{"a pipe in the prefix", "GlobalPrefix", `C:\a|b`, withPrefix(winCmd, `C:\a|b`)},
		{"a stream name in the prefix", "GlobalPrefix", `C:\npm::$DATA`, withPrefix(winCmd, `C:\npm::$DATA`)},
		{"invalid UTF-8 in the prefix", "GlobalPrefix", "C:\\\xff", withPrefix(winCmd, "C:\\\xff")},
		// CALL doubles the caret, the FOR step finds no node.exe, and npm.cmd
		// falls back to an inherited NPM_PREFIX_NPM_CLI_JS.
		{"a caret in the node folder", "NodeExecPath", `C:\a^b\node.exe`, withNode(winCmd, `C:\a^b\node.exe`)},
		{"a wildcard in the node folder", "NodeExecPath", `C:\a*\node.exe`, withNode(winCmd, `C:\a*\node.exe`)},
		{"a caret in the batch file's folder", "Invocation.Cmd", `C:\a^b\npm.cmd`, withCmd(winCmd, `C:\a^b\npm.cmd`)},
		{"a redirection in the batch file's folder", "Invocation.Cmd", `C:\a>b\npm.cmd`, withCmd(winCmd, `C:\a>b\npm.cmd`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := tt.target.Command("install")
			assert.Equal(t, &FieldError{Func: "Target.Command", Field: tt.field, Value: tt.value, Reason: ErrBatchPath}, err)
			assert.ErrorIs(t, err, ErrBatchPath)
			assert.Equal(t, Command{}, c)
			if tt.field != "Invocation.Cmd" {
				direct := tt.target
				direct.Invocation = Invocation{Cmd: `C:\Program Files\nodejs\node.exe`, PreArgs: []string{`C:\Program Files\nodejs\node_modules\npm\bin\npm-cli.js`}}
				_, err = direct.Command("install")
				assert.NoError(t, err, "without cmd.exe")
			}
		})
	}
}

// TestCommandTakesNpmCmdPaths lists real Windows folders the cmd.exe route
// takes: npm.cmd quotes them wherever it uses them.
func TestCommandTakesNpmCmdPaths(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		target Target
	}{
		{"Program Files (x86)", withNode(withCmd(winCmd, `C:\Program Files (x86)\nodejs\npm.cmd`), `C:\Program Files (x86)\nodejs\node.exe`)},
		{"an ampersand and a semicolon-free comma", withPrefix(winCmd, `D:\Tom & Jerry, Inc\npm`)},
		{"a drive root prefix", withPrefix(winCmd, `C:\`)},
		{"a UNC prefix", withPrefix(winCmd, `\\srv\share\npm`)},
		{"non-ASCII", withPrefix(winCmd, `C:\Users\José\AppData\Roaming\npm`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := tt.target.Command("install")
			assert.NoError(t, err)
		})
	}
}

func TestCommandAccepts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		target Target
	}{
		{"Windows .exe", withCmd(winCli, `C:\n\node.exe`)},
		{"Windows .EXE", withCmd(winCli, `C:\n\NODE.EXE`)},
		{"Windows .com", withCmd(winCli, `C:\n\node.com`)},
		{"Windows drive", withCmd(winCmd, `C:\n\npm.cmd`)},
		{"Windows drive, slashes", withCmd(winCmd, `c:/n/npm.cmd`)},
		{"Windows UNC", withCmd(winCmd, `\\srv\share\npm.cmd`)},
		{"Windows UNC, slashes", withCmd(winCmd, `//srv/share/npm.cmd`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := tt.target.Command("install")
			assert.NoError(t, err)
		})
	}
}

// TestCommandAbsoluteRule checks Command's rule for a Windows program path
// at its edges: every drive letter in either case and nothing next to them
// in ASCII, the shortest drive root and the shortest double-separator start.
// An absolute path that names no program is refused as not executable, a
// relative one as relative.
func TestCommandAbsoluteRule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cmd  string
		want Reason // 0 when the command is made
	}{
		{"drive A", `A:\nodejs\node.exe`, 0},
		{"drive Z", `Z:\nodejs\node.exe`, 0},
		{"drive a", `a:\nodejs\node.exe`, 0},
		{"drive z", `z:\nodejs\node.exe`, 0},
		{"@ before A is no drive", `@:\nodejs\node.exe`, ErrRelativePath},
		{"[ after Z is no drive", `[:\nodejs\node.exe`, ErrRelativePath},
		{"` before a is no drive", "`:\\nodejs\\node.exe", ErrRelativePath},
		{"{ after z is no drive", `{:\nodejs\node.exe`, ErrRelativePath},
		{"drive root alone is absolute", `C:\`, ErrNotExecutable},
		{"drive without separator is relative", `C:`, ErrRelativePath},
		{"two separators alone are absolute", `\\`, ErrNotExecutable},
		{"two slashes alone are absolute", `//`, ErrNotExecutable},
		{"one separator is relative", `\`, ErrRelativePath},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := withCmd(winCli, tt.cmd).Command("install")
			if tt.want == 0 {
				require.NoError(t, err)
				assert.Equal(t, tt.cmd, c.Path)
				return
			}
			assert.Equal(t, &UnsafeCommandError{Func: "Target.Command", Cmd: tt.cmd, Reason: tt.want}, err)
		})
	}
}

func TestCommandString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		c    Command
		want string
	}{
		{"the zero Command prints nothing", Command{}, ""},
		{"posix shell quoting",
			Command{Args: []string{"/a b/node", "it's", "x=y,z:1", "$HOME", "é", "a\nb"}},
			`'/a b/node' 'it'\''s' x=y,z:1 '$HOME' 'é' 'a` + "\n" + `b'`},
		{"Windows EscapeArg quoting",
			Command{Args: []string{`C:\a b\node.exe`, `a"b`, `C:\x\`, `C:\x y\`, `a\\"b`, "", "a\tb", `\\srv\s`}, Target: Target{Windows: true}},
			`"C:\a b\node.exe" a\"b C:\x\ "C:\x y\\" a\\\\\"b "" "a` + "\t" + `b" \\srv\s`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.c.String())
		})
	}
}

// TestExecCmdRemakes checks that ExecCmd runs only what Target.Command
// makes: a Command whose fields were changed after the fact is refused,
// whatever field changed, on either route.
func TestExecCmdRemakes(t *testing.T) {
	t.Parallel()
	install := []string{"install", "-g", "@kici-dev/orchestrator@0.20.0"}
	mustCommand := func(tg Target) Command {
		c, err := tg.Command(install...)
		require.NoError(t, err)
		return c
	}
	tests := []struct {
		name string
		edit func(c *Command)
		want error // the reason ExecCmd leaves in exec.Cmd.Err on this platform
	}{
		{"posix, unchanged", func(*Command) {}, nil},
		{"posix, another program", func(c *Command) { c.Path = "/bin/sh" }, ErrAltered},
		{"posix, another argv[0]", func(c *Command) { c.Args[0] = "/bin/sh" }, ErrAltered},
		{"posix, an argument after --prefix", func(c *Command) { c.Args = append(c.Args, "--prefix=/elsewhere") }, ErrAltered},
		{"posix, another prefix in the target", func(c *Command) { c.Target.GlobalPrefix = "/elsewhere" }, ErrAltered},
		{"posix, npm-cli.js dropped", func(c *Command) { c.Args = slices.Delete(c.Args, 1, 2) }, ErrAltered},
		{"posix, a relative node in the target", func(c *Command) { c.Target.NodeExecPath = "node" }, ErrRelativeNode},
		{"posix, a cmd.exe line on a posix command", func(c *Command) { c.CmdLine = "cmd.exe /d /s /c calc" }, ErrAltered},
		{"posix, no arguments at all", func(c *Command) { c.Args = nil }, ErrAltered},
		{"posix, an npm argument changed in place runs as shown", func(c *Command) { c.Args[3] = "--json" }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustCommand(posixCli)
			tt.edit(&c)
			cmd := c.ExecCmd([]string{"PATH=/bin"})
			if tt.want == nil {
				assert.NoError(t, cmd.Err)
				assert.Equal(t, c.Args, cmd.Args)
				return
			}
			assert.ErrorIs(t, cmd.Err, tt.want)
			assert.Equal(t, cmd.Err, cmd.Run())
		})
	}
	winTests := []struct {
		name string
		edit func(c *Command)
		want Reason // ErrOtherPlatform when the command is made again as it is
	}{
		{"cmd.exe, unchanged", func(*Command) {}, ErrOtherPlatform},
		// Args edited on the cmd.exe route used to be ignored: CmdLine ran.
		{"cmd.exe, the line in Args edited", func(c *Command) { c.Args[4] = `""C:\Program Files\nodejs\npm.cmd" install -g x"` }, ErrAltered},
		{"cmd.exe, CmdLine edited", func(c *Command) { c.CmdLine += " & calc" }, ErrAltered},
		{"cmd.exe, another program", func(c *Command) { c.Path = `C:\Windows\System32\calc.exe` }, ErrAltered},
		{"cmd.exe, Args and CmdLine edited alike, still allow-listed", func(c *Command) {
			c.Args[4] = `""C:\Program Files\nodejs\npm.cmd" view x"`
			c.CmdLine = "cmd.exe /d /s /c " + c.Args[4]
		}, ErrOtherPlatform},
		{"cmd.exe, an injection in both", func(c *Command) {
			c.Args[4] = `""C:\Program Files\nodejs\npm.cmd" x&calc"`
			c.CmdLine = "cmd.exe /d /s /c " + c.Args[4]
		}, ErrArgSyntax},
		{"cmd.exe, a quote in the target's prefix", func(c *Command) { c.Target.GlobalPrefix = `C:\Windows" calc & REM "` }, ErrBatchPath},
		{"cmd.exe, the line's closing quote dropped", func(c *Command) {
			c.Args[4] = strings.TrimSuffix(c.Args[4], `"`)
			c.CmdLine = "cmd.exe /d /s /c " + c.Args[4]
		}, ErrAltered},
		{"cmd.exe, the line split in two", func(c *Command) { c.Args = append(c.Args[:4:4], `""C:\Program Files\nodejs\npm.cmd"`, `install"`) }, ErrAltered},
		{"cmd.exe, no space after the batch file", func(c *Command) {
			c.Args[4] = `""C:\Program Files\nodejs\npm.cmd"install"`
			c.CmdLine = "cmd.exe /d /s /c " + c.Args[4]
		}, ErrAltered},
		{"cmd.exe, no npm arguments", func(c *Command) {
			c.Args[4] = `""C:\Program Files\nodejs\npm.cmd""`
			c.CmdLine = "cmd.exe /d /s /c " + c.Args[4]
		}, ErrOtherPlatform},
		{"cmd.exe, another batch file in the line", func(c *Command) {
			c.Args[4] = `""C:\evil\npm.cmd" install"`
			c.CmdLine = "cmd.exe /d /s /c " + c.Args[4]
		}, ErrAltered},
	}
	for _, tt := range winTests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustCommand(winCmd)
			tt.edit(&c)
			cmd := c.ExecCmd([]string{`SystemRoot=C:\Windows`})
			if tt.want == ErrOtherPlatform && runtime.GOOS == "windows" {
				assert.NoError(t, cmd.Err)
				return
			}
			assert.ErrorIs(t, cmd.Err, tt.want)
		})
	}
	t.Run("the zero Command", func(t *testing.T) {
		assert.ErrorIs(t, Command{}.ExecCmd(nil).Err, ErrAltered)
	})
}
