package npmtarget

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// batBadBut holds arguments that cmd.exe would read as syntax, or that a
// batch file would split or expand: the BatBadBut corpus (RyotaK's write-up,
// Rust's CVE-2024-24576 and CVE-2024-43402 tests, golang/go#27199) and a few
// more. Every one must be refused, by name, and appear in no output line.
var batBadBut = []string{
	"&whoami",
	`"&calc.exe`,
	"%PATH%",
	"%%cd:~,%",
	"!TMP!",
	`hello^"world`,
	"a|calc",
	"(calc)",
	"key=value",
	"x,y",
	"x;y",
	`C:\x\`,
	"a\nb",
	"a\rb",
	"é",
	"",
	"a b",
	"a\tb",
	"<in",
	">out",
	"a^b",
	`"`,
	`\"`,
	`"\"&calc"`,
	"a\x00b",
	`--prefix=C:\Users\k\AppData\Roaming\npm`,
	"x\x1a",
	"$HOME",
	"`id`",
	"~",
	"*",
	"?",
	"'",
	"#",
	"\u00a0",
	"\uff02&calc", // a fullwidth quote, which a best-fit code page turns into "
	"\xff",
}

func TestWindowsShellCommand(t *testing.T) {
	const npm = `C:\Program Files\nodejs\npm.cmd`
	line, err := WindowsShellCommand(npm, []string{"install", "-g", "@kici-dev/orchestrator@0.20.0"})
	require.NoError(t, err)
	assert.Equal(t, `"C:\Program Files\nodejs\npm.cmd" install -g @kici-dev/orchestrator@0.20.0`, line)

	line, err = WindowsShellCommand(npm, nil)
	require.NoError(t, err)
	assert.Equal(t, `"C:\Program Files\nodejs\npm.cmd"`, line)

	line, err = WindowsShellCommand(npm, []string{"A-Za-z0-9@/._+-", "--json", "@s/p@1.2.3-rc.1+b"})
	require.NoError(t, err)
	assert.Equal(t, `"C:\Program Files\nodejs\npm.cmd" A-Za-z0-9@/._+- --json @s/p@1.2.3-rc.1+b`, line)
}

func TestBatBadBut(t *testing.T) {
	const npm = `C:\Program Files\nodejs\npm.cmd`
	for _, bad := range batBadBut {
		t.Run(strconv.Quote(bad), func(t *testing.T) {
			for _, args := range [][]string{{bad}, {"install", bad}, {"install", bad, "-g", "&other"}} {
				line, err := WindowsShellCommand(npm, args)
				var argErr *UnsafeArgError
				require.ErrorAs(t, err, &argErr)
				assert.Equal(t, bad, argErr.Arg, "the error names the first refused argument")
				assert.Contains(t, err.Error(), strconv.Quote(bad))
				assert.NotContains(t, err.Error(), "\n")
				assert.Empty(t, line)
			}
			// Through Target.Command on the npm.cmd fallback: no command at all.
			cmd, err := winCmd.Command("install", "-g", bad)
			var argErr *UnsafeArgError
			require.ErrorAs(t, err, &argErr)
			assert.Equal(t, bad, argErr.Arg)
			assert.Equal(t, Command{}, cmd)
		})
	}
}

func TestWindowsShellCommandRefusesCmdPath(t *testing.T) {
	for _, cmd := range []string{
		`C:\a"b\npm.cmd`,
		`C:\%TEMP%\npm.cmd`,
		`C:\a%b\npm.cmd`,
		`C:\a!b!\npm.cmd`,
		"C:\\a\r\\npm.cmd",
		"C:\\a\n\\npm.cmd",
		"C:\\a\x00\\npm.cmd",
		"C:\\a\t\\npm.cmd",
		"C:\\a\x1f\\npm.cmd",
		"C:\\a\xff\\npm.cmd",
	} {
		line, err := WindowsShellCommand(cmd, []string{"install"})
		var cmdErr *UnsafeCommandError
		require.ErrorAs(t, err, &cmdErr, "%q", cmd)
		assert.Equal(t, cmd, cmdErr.Cmd)
		assert.Equal(t, ReasonCmdSyntax, cmdErr.Reason)
		assert.Contains(t, err.Error(), strconv.Quote(cmd))
		assert.Empty(t, line)
	}
	// Inside quotes cmd.exe takes these literally: they are fine in the path.
	for _, cmd := range []string{`C:\a&b\npm.cmd`, `C:\a^b\npm.cmd`, `C:\(x86)\npm.cmd`, `C:\a b\npm.cmd`, `C:\José\npm.cmd`, `C:\a;b,c=d\npm.cmd`, `\\srv\share\npm.cmd`} {
		line, err := WindowsShellCommand(cmd, []string{"install"})
		require.NoError(t, err, cmd)
		assert.Equal(t, `"`+cmd+`" install`, line)
	}
	// The path is checked before the arguments.
	_, err := WindowsShellCommand(`C:\%x%\npm.cmd`, []string{"&whoami"})
	var cmdErr *UnsafeCommandError
	assert.ErrorAs(t, err, &cmdErr)
}

func TestErrorMessages(t *testing.T) {
	assert.Equal(t, `cannot pass "&whoami" to npm: it holds a character cmd.exe reads as syntax`, (&UnsafeArgError{Arg: "&whoami"}).Error())
	assert.Equal(t, `cannot pass "a\nb" to npm: it holds a character cmd.exe reads as syntax`, (&UnsafeArgError{Arg: "a\nb"}).Error())
	assert.Equal(t, `cannot run "C:\\%x%\\npm.cmd" through cmd.exe: it holds a character cmd.exe reads as syntax even inside quotes`,
		(&UnsafeCommandError{Cmd: `C:\%x%\npm.cmd`, Reason: ReasonCmdSyntax}).Error())
	assert.Equal(t, `cannot run "npm": it is not an absolute path`, (&UnsafeCommandError{Cmd: "npm", Reason: ReasonRelativePath}).Error())
	assert.Equal(t, `cannot run "C:\\n\\node": it is neither a .exe or .com program nor a .cmd or .bat batch file`,
		(&UnsafeCommandError{Cmd: `C:\n\node`, Reason: ReasonNotExecutable}).Error())
	// An error is usable through errors.As from a wrapped chain.
	wrapped := errors.Join(errors.New("upgrade"), &UnsafeArgError{Arg: "x y"})
	var argErr *UnsafeArgError
	require.ErrorAs(t, wrapped, &argErr)
	assert.True(t, strings.HasPrefix(argErr.Error(), `cannot pass "x y"`))
}
