package npmtarget

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCommand(t *testing.T) {
	t.Run("posix, the pinned node runs npm-cli.js", func(t *testing.T) {
		c, err := posixCli.Command("install", "-g", "@kici-dev/orchestrator@0.20.0")
		require.NoError(t, err)
		assert.Equal(t, Command{
			Path:   "/usr/bin/node",
			Args:   []string{"/usr/bin/node", "/usr/lib/node_modules/npm/bin/npm-cli.js", "install", "-g", "@kici-dev/orchestrator@0.20.0", "--prefix=/usr"},
			Target: posixCli,
		}, c)
		assert.Equal(t, "/usr/bin/node /usr/lib/node_modules/npm/bin/npm-cli.js install -g @kici-dev/orchestrator@0.20.0 --prefix=/usr", c.String())
		assert.Equal(t, []string{"PATH=/usr/bin:/bin"}, c.Env([]string{"PATH=/bin"}))
	})
	t.Run("posix, the npm launcher; arguments pass as they are", func(t *testing.T) {
		c, err := posixNpm.Command("view", "a b", "&x", "")
		require.NoError(t, err)
		assert.Equal(t, []string{"/usr/bin/npm", "view", "a b", "&x", "", "--prefix=/usr"}, c.Args)
		assert.Empty(t, c.CmdLine)
		assert.Equal(t, `/usr/bin/npm view 'a b' '&x' '' --prefix=/usr`, c.String())
	})
	t.Run("Windows, node.exe runs npm-cli.js without a shell", func(t *testing.T) {
		c, err := winCli.Command("install", "-g", "@kici-dev/orchestrator@0.20.0")
		require.NoError(t, err)
		assert.Equal(t, `C:\Program Files\nodejs\node.exe`, c.Path)
		assert.Equal(t, []string{
			`C:\Program Files\nodejs\node.exe`, `C:\Program Files\nodejs\node_modules\npm\bin\npm-cli.js`,
			"install", "-g", "@kici-dev/orchestrator@0.20.0", `--prefix=C:\Users\k\AppData\Roaming\npm`,
		}, c.Args)
		assert.Empty(t, c.CmdLine)
		assert.Equal(t, `"C:\Program Files\nodejs\node.exe" "C:\Program Files\nodejs\node_modules\npm\bin\npm-cli.js" install -g @kici-dev/orchestrator@0.20.0 --prefix=C:\Users\k\AppData\Roaming\npm`, c.String())
	})
	t.Run("Windows, npm.cmd through cmd.exe", func(t *testing.T) {
		c, err := winCmd.Command("install", "-g", "@kici-dev/orchestrator@0.20.0")
		require.NoError(t, err)
		line := `""C:\Program Files\nodejs\npm.cmd" install -g @kici-dev/orchestrator@0.20.0"`
		assert.Equal(t, Command{
			Path:    `%SystemRoot%\System32\cmd.exe`,
			Args:    []string{"cmd.exe", "/d", "/s", "/c", line},
			CmdLine: "cmd.exe /d /s /c " + line,
			Target:  winCmd,
		}, c)
		assert.Equal(t, c.CmdLine, c.String())
		assert.Equal(t, []string{`Path=C:\Program Files\nodejs;C:\Windows`, `npm_config_prefix=C:\Users\k\AppData\Roaming\npm`},
			c.Env([]string{`Path=C:\Windows`, `npm_config_prefix=C:\elsewhere`}))
	})
	t.Run("Windows, batch-file spellings all go through cmd.exe", func(t *testing.T) {
		for _, cmd := range []string{`C:\n\npm.CMD`, `C:\n\npm.cmd.`, `C:\n\npm.cmd `, `C:\n\npm.bat`} {
			c, err := withCmd(winCmd, cmd).Command("install")
			require.NoError(t, err, cmd)
			assert.Equal(t, `cmd.exe /d /s /c ""`+cmd+`" install"`, c.CmdLine)
		}
	})
	t.Run("Windows, a batch file with PreArgs cannot take their paths", func(t *testing.T) {
		target := winCli
		target.Invocation.Cmd = `C:\shims\node.cmd`
		_, err := target.Command("install")
		var argErr *UnsafeArgError
		require.ErrorAs(t, err, &argErr)
		assert.Equal(t, `C:\Program Files\nodejs\node_modules\npm\bin\npm-cli.js`, argErr.Arg)
	})
	t.Run("Windows, a program must be .exe or .com", func(t *testing.T) {
		for _, cmd := range []string{`C:\n\node`, `C:\n\node.ps1`, `C:\n\node.exe.`, `C:\n\npm.cmd::$DATA`, `C:\n\node.exe\`} {
			_, err := withCmd(winCli, cmd).Command("install")
			var cmdErr *UnsafeCommandError
			require.ErrorAs(t, err, &cmdErr, cmd)
			assert.Equal(t, UnsafeCommandError{Cmd: cmd, Reason: ReasonNotExecutable}, *cmdErr)
		}
		for _, cmd := range []string{`C:\n\node.exe`, `C:\n\NODE.EXE`, `C:\n\node.com`} {
			_, err := withCmd(winCli, cmd).Command("install")
			assert.NoError(t, err, cmd)
		}
	})
	t.Run("relative programs are refused", func(t *testing.T) {
		for _, tc := range []struct {
			target Target
			cmd    string
		}{
			{posixNpm, "npm"}, {posixNpm, "./npm"}, {posixNpm, ""}, {posixNpm, `C:\n\npm`},
			{winCmd, "npm.cmd"}, {winCmd, `\n\npm.cmd`}, {winCmd, `C:npm.cmd`}, {winCmd, `.\npm.cmd`}, {winCmd, "/n/npm.cmd"}, {winCmd, ""},
		} {
			c, err := withCmd(tc.target, tc.cmd).Command("install")
			var cmdErr *UnsafeCommandError
			require.ErrorAs(t, err, &cmdErr, tc.cmd)
			assert.Equal(t, UnsafeCommandError{Cmd: tc.cmd, Reason: ReasonRelativePath}, *cmdErr)
			assert.Equal(t, Command{}, c)
		}
		for _, cmd := range []string{`C:\n\npm.cmd`, `c:/n/npm.cmd`, `\\srv\share\npm.cmd`, `//srv/share/npm.cmd`, `\\?\C:\n\npm.cmd`} {
			_, err := withCmd(winCmd, cmd).Command("install")
			assert.NoError(t, err, cmd)
		}
	})
	t.Run("a cmd.exe path of the batch file", func(t *testing.T) {
		_, err := withCmd(winCmd, `C:\100%\npm.cmd`).Command("install")
		var cmdErr *UnsafeCommandError
		require.ErrorAs(t, err, &cmdErr)
		assert.Equal(t, ReasonCmdSyntax, cmdErr.Reason)
	})
	t.Run("the zero Command prints nothing", func(t *testing.T) {
		assert.Empty(t, Command{}.String())
	})
}

func TestCommandStringQuoting(t *testing.T) {
	posix := Command{Args: []string{"/a b/node", "it's", "x=y,z:1", "$HOME", "é", "a\nb"}}
	assert.Equal(t, `'/a b/node' 'it'\''s' x=y,z:1 '$HOME' 'é' 'a`+"\n"+`b'`, posix.String())
	win := Command{Args: []string{`C:\a b\node.exe`, `a"b`, `C:\x\`, `C:\x y\`, `a\\"b`, "", "a\tb", `\\srv\s`}, Target: Target{Windows: true}}
	assert.Equal(t, `"C:\a b\node.exe" a\"b C:\x\ "C:\x y\\" a\\\\\"b "" "a`+"\t"+`b" \\srv\s`, win.String())
}

func TestSystemCmdExe(t *testing.T) {
	for _, tc := range []struct {
		environ []string
		want    string
	}{
		{[]string{`SystemRoot=C:\Windows`}, `C:\Windows\System32\cmd.exe`},
		{[]string{`SYSTEMROOT=D:\WINNT\`}, `D:\WINNT\System32\cmd.exe`},
		{[]string{`systemroot=C:\a`, `SystemRoot=C:\Windows`}, `C:\Windows\System32\cmd.exe`},
		{[]string{`SystemRoot=\\srv\win`}, `\\srv\win\System32\cmd.exe`},
		{[]string{`SystemRoot=C:\`}, `C:\System32\cmd.exe`},
	} {
		got, err := systemCmdExe(tc.environ)
		require.NoError(t, err, tc.environ)
		assert.Equal(t, tc.want, got)
	}
	for _, environ := range [][]string{nil, {"PATH=C:\\x"}, {"SystemRoot="}, {"SystemRoot=Windows"}, {`SystemRoot=C:\Win%x%`}, {`SystemRoot=C:\Windows`, `SystemRoot=.`}} {
		got, err := systemCmdExe(environ)
		assert.Equal(t, errNoSystemRoot, err, environ)
		assert.Empty(t, got)
	}
	// A SystemRoot of separators alone passes for a UNC path, but cutting
	// its trailing separators leaves \System32\cmd.exe, which hangs off the
	// current drive: the program that ran would depend on the working
	// directory, the very thing CmdExe rules out.
	for _, root := range []string{`\\`, `//`, `\/`, `\\\`, `\\\\`} {
		got, err := systemCmdExe([]string{"SystemRoot=" + root})
		assert.Equal(t, errNoSystemRoot, err, root)
		assert.Empty(t, got, root)
	}
	assert.Contains(t, errNoSystemRoot.Error(), "SystemRoot")
}

// TestCommandAbsoluteRule checks Command's rule for a Windows program path
// at its edges: every drive letter in either case and nothing next to them
// in ASCII, the shortest drive root and the shortest double-separator start.
// An absolute path that names no program is refused as not executable, a
// relative one as relative.
func TestCommandAbsoluteRule(t *testing.T) {
	for _, tc := range []struct {
		name string
		cmd  string
		want CommandReason // "" when the command is made
	}{
		{"drive A", `A:\nodejs\node.exe`, ""},
		{"drive Z", `Z:\nodejs\node.exe`, ""},
		{"drive a", `a:\nodejs\node.exe`, ""},
		{"drive z", `z:\nodejs\node.exe`, ""},
		{"@ before A is no drive", `@:\nodejs\node.exe`, ReasonRelativePath},
		{"[ after Z is no drive", `[:\nodejs\node.exe`, ReasonRelativePath},
		{"` before a is no drive", "`:\\nodejs\\node.exe", ReasonRelativePath},
		{"{ after z is no drive", `{:\nodejs\node.exe`, ReasonRelativePath},
		{"drive root alone is absolute", `C:\`, ReasonNotExecutable},
		{"drive without separator is relative", `C:`, ReasonRelativePath},
		{"two separators alone are absolute", `\\`, ReasonNotExecutable},
		{"two slashes alone are absolute", `//`, ReasonNotExecutable},
		{"one separator is relative", `\`, ReasonRelativePath},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := withCmd(winCli, tc.cmd).Command("install")
			if tc.want == "" {
				require.NoError(t, err)
				assert.Equal(t, tc.cmd, c.Path)
				return
			}
			var cmdErr *UnsafeCommandError
			require.ErrorAs(t, err, &cmdErr)
			assert.Equal(t, UnsafeCommandError{Cmd: tc.cmd, Reason: tc.want}, *cmdErr)
		})
	}
}
