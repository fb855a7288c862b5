package npmtarget

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/kicikit/kicikit/internal/errtext"
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

// acceptedArgs are arguments cmd.exe takes as they are: every byte of the
// allow-list, and the shapes npm's own arguments have.
var acceptedArgs = []string{"install", "-g", "@kici-dev/orchestrator@0.20.0", "A-Za-z0-9@/._+-", "--json", "@s/p@1.2.3-rc.1+b"}

func TestWindowsShellCommand(t *testing.T) {
	t.Parallel()
	const npm = `C:\Program Files\nodejs\npm.cmd`
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"an install", []string{"install", "-g", "@kici-dev/orchestrator@0.20.0"}, `"C:\Program Files\nodejs\npm.cmd" install -g @kici-dev/orchestrator@0.20.0`},
		{"no arguments", nil, `"C:\Program Files\nodejs\npm.cmd"`},
		{"every accepted argument", acceptedArgs, `"C:\Program Files\nodejs\npm.cmd" install -g @kici-dev/orchestrator@0.20.0 A-Za-z0-9@/._+- --json @s/p@1.2.3-rc.1+b`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			line, err := WindowsShellCommand(npm, tt.args)
			require.NoError(t, err)
			assert.Equal(t, tt.want, line)
		})
	}
}

func TestBatBadBut(t *testing.T) {
	t.Parallel()
	const npm = `C:\Program Files\nodejs\npm.cmd`
	for _, bad := range batBadBut {
		t.Run(strconv.Quote(bad), func(t *testing.T) {
			t.Parallel()
			for _, args := range [][]string{{bad}, {"install", bad}, {"install", bad, "-g", "&other"}} {
				t.Run(strconv.Itoa(len(args))+" arguments", func(t *testing.T) {
					line, err := WindowsShellCommand(npm, args)
					var argErr *UnsafeArgError
					require.ErrorAs(t, err, &argErr)
					assert.Equal(t, bad, argErr.Arg, "the error names the first refused argument")
					assert.Contains(t, err.Error(), errtext.Quote(bad))
					assert.ErrorIs(t, err, ErrArgSyntax)
					assert.NotContains(t, err.Error(), "\n")
					assert.Empty(t, line)
				})
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
	t.Parallel()
	tests := []struct{ name, cmd string }{
		{"double quote", `C:\a"b\npm.cmd`},
		{"a variable", `C:\%TEMP%\npm.cmd`},
		{"a lone percent", `C:\a%b\npm.cmd`},
		{"a delayed variable", `C:\a!b!\npm.cmd`},
		{"CR", "C:\\a\r\\npm.cmd"},
		{"LF", "C:\\a\n\\npm.cmd"},
		{"NUL", "C:\\a\x00\\npm.cmd"},
		{"tab", "C:\\a\t\\npm.cmd"},
		{"unit separator", "C:\\a\x1f\\npm.cmd"},
		{"invalid UTF-8", "C:\\a\xff\\npm.cmd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			line, err := WindowsShellCommand(tt.cmd, []string{"install"})
			assert.Equal(t, &UnsafeCommandError{Func: "WindowsShellCommand", Cmd: tt.cmd, Reason: ErrCmdSyntax}, err)
			assert.ErrorIs(t, err, ErrCmdSyntax)
			assert.Empty(t, line)
		})
	}
	t.Run("the path is checked before the arguments", func(t *testing.T) {
		t.Parallel()
		_, err := WindowsShellCommand(`C:\%x%\npm.cmd`, []string{"&whoami"})
		var cmdErr *UnsafeCommandError
		assert.ErrorAs(t, err, &cmdErr)
	})
}

// TestWindowsShellCommandTakesCmdPath lists paths that cmd.exe reads
// literally inside quotes.
func TestWindowsShellCommandTakesCmdPath(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, cmd string }{
		{"ampersand", `C:\a&b\npm.cmd`},
		{"caret", `C:\a^b\npm.cmd`},
		{"parentheses", `C:\(x86)\npm.cmd`},
		{"space", `C:\a b\npm.cmd`},
		{"non-ASCII", `C:\José\npm.cmd`},
		{"argument separators", `C:\a;b,c=d\npm.cmd`},
		{"UNC", `\\srv\share\npm.cmd`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			line, err := WindowsShellCommand(tt.cmd, []string{"install"})
			require.NoError(t, err)
			assert.Equal(t, `"`+tt.cmd+`" install`, line)
		})
	}
}

func TestSystemCmdExe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		environ []string
		want    string
	}{
		{"SystemRoot", []string{`SystemRoot=C:\Windows`}, `C:\Windows\System32\cmd.exe`},
		{"upper case, trailing separator", []string{`SYSTEMROOT=D:\WINNT\`}, `D:\WINNT\System32\cmd.exe`},
		{"the last of several", []string{`systemroot=C:\a`, `SystemRoot=C:\Windows`}, `C:\Windows\System32\cmd.exe`},
		{"UNC", []string{`SystemRoot=\\srv\win`}, `\\srv\win\System32\cmd.exe`},
		{"drive root", []string{`SystemRoot=C:\`}, `C:\System32\cmd.exe`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := systemCmdExe(tt.environ)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestSystemCmdExeRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		environ []string
	}{
		{"no environment", nil},
		{"no SystemRoot", []string{"PATH=C:\\x"}},
		{"empty", []string{"SystemRoot="}},
		{"relative", []string{"SystemRoot=Windows"}},
		{"cmd.exe syntax", []string{`SystemRoot=C:\Win%x%`}},
		{"the last counts", []string{`SystemRoot=C:\Windows`, `SystemRoot=.`}},
		// A SystemRoot of separators alone passes for a UNC path, but cutting
		// its trailing separators leaves \System32\cmd.exe, which hangs off
		// the current drive: the program that ran would depend on the
		// working directory, the very thing CmdExe rules out.
		{"two backslashes", []string{`SystemRoot=\\`}},
		{"two slashes", []string{`SystemRoot=//`}},
		{"mixed separators", []string{`SystemRoot=\/`}},
		{"three separators", []string{`SystemRoot=\\\`}},
		{"four separators", []string{`SystemRoot=\\\\`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := systemCmdExe(tt.environ)
			assert.ErrorIs(t, err, ErrNoSystemRoot)
			assert.EqualError(t, err, "npmtarget.Command.ExecCmd: the environment names no usable SystemRoot, so cmd.exe cannot be found")
			assert.Empty(t, got)
		})
	}
}

func TestErrorMessages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"unsafe argument", &UnsafeArgError{Func: "WindowsShellCommand", Arg: "&whoami"},
			`npmtarget.WindowsShellCommand: cannot pass "&whoami" to npm: it holds a character cmd.exe reads as syntax`},
		{"unsafe argument, one line", &UnsafeArgError{Func: "Target.Command", Arg: "a\nb"},
			`npmtarget.Target.Command: cannot pass "a\nb" to npm: it holds a character cmd.exe reads as syntax`},
		{"unsafe argument, bounded", &UnsafeArgError{Func: "Target.Command", Arg: strings.Repeat("&", 1<<20)},
			`npmtarget.Target.Command: cannot pass "` + strings.Repeat("&", 64) + `"... (1048576 bytes) to npm: it holds a character cmd.exe reads as syntax`},
		{"cmd.exe syntax in the path", &UnsafeCommandError{Func: "WindowsShellCommand", Cmd: `C:\%x%\npm.cmd`, Reason: ErrCmdSyntax},
			`npmtarget.WindowsShellCommand("C:\\%x%\\npm.cmd"): cannot run the program: it holds a character cmd.exe reads as syntax even inside quotes`},
		{"relative path", &UnsafeCommandError{Func: "Target.Command", Cmd: "npm", Reason: ErrRelativePath},
			`npmtarget.Target.Command("npm"): cannot run the program: it is not an absolute path`},
		{"not executable", &UnsafeCommandError{Func: "Target.Command", Cmd: `C:\n\node`, Reason: ErrNotExecutable},
			`npmtarget.Target.Command("C:\\n\\node"): cannot run the program: it is neither a .exe or .com program nor a .cmd or .bat batch file`},
		{"a long path, bounded", &UnsafeCommandError{Func: "Target.Command", Cmd: strings.Repeat("x", 1000), Reason: ErrRelativePath},
			`npmtarget.Target.Command("` + strings.Repeat("x", 64) + `"... (1000 bytes)): cannot run the program: it is not an absolute path`},
		{"other platform", execError{ErrOtherPlatform}, "npmtarget.Command.ExecCmd: the command's target runs on another platform"},
		{"a refused field", &FieldError{Func: "Resolve", Field: "NodeExecPath", Value: "C:node.exe", Reason: ErrRelativeNode},
			`npmtarget.Resolve("C:node.exe"): NodeExecPath: the service's node is not an absolute path, so npm would run from the working directory: give its absolute path`},
		{"a refused field, bounded", &FieldError{Func: "PlanUpgrade", Field: "Version", Value: strings.Repeat("v", 1<<20), Reason: ErrVersion},
			`npmtarget.PlanUpgrade("` + strings.Repeat("v", 64) + `"... (1048576 bytes)): Version: ` + ErrVersion.Error()},
		{"an unknown reason", Reason(200), "reason 200"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.err.Error())
		})
	}
	t.Run("errors.As and errors.Is find an error in a wrapped chain", func(t *testing.T) {
		t.Parallel()
		wrapped := errors.Join(errors.New("upgrade"), &UnsafeArgError{Arg: "x y"})
		var argErr *UnsafeArgError
		require.ErrorAs(t, wrapped, &argErr)
		assert.Equal(t, "x y", argErr.Arg)
		assert.ErrorIs(t, wrapped, ErrArgSyntax)
		assert.ErrorIs(t, fmt.Errorf("upgrade: %w", &UnsafeCommandError{Reason: ErrRelativePath}), ErrRelativePath)
	})
}

// TestReasons checks that every Reason has a description of its own that
// says what it is about.
func TestReasons(t *testing.T) {
	t.Parallel()
	seen := map[string]Reason{}
	for r := ErrCmdSyntax; r <= ErrUnsafeTarget; r++ {
		t.Run(strconv.Itoa(int(r)), func(t *testing.T) {
			text := r.Error()
			assert.NotEqual(t, "reason "+strconv.Itoa(int(r)), text)
			assert.NotContains(t, seen, text, "the same text as %d", seen[text])
			seen[text] = r
		})
	}
}
