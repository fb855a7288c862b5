package npmtarget

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// UnsafeArgError reports an argument that cannot be handed to cmd.exe: one
// that is empty or holds a byte outside the orchestrator's allow-list
// A-Z a-z 0-9 @ / . _ + -.
type UnsafeArgError struct {
	Arg string // the argument as given
}

// Error returns the orchestrator's message, with the argument quoted as Go
// quotes strings, so that control bytes stay visible and the message stays
// one line.
func (e *UnsafeArgError) Error() string {
	return "cannot pass " + strconv.Quote(e.Arg) + " to npm: it holds a character cmd.exe reads as syntax"
}

// CommandReason is why a program path cannot be run safely. Its values are
// the constants below.
type CommandReason string

// The reasons [WindowsShellCommand] and [Target.Command] refuse a program
// path.
const (
	// ReasonCmdSyntax: the path holds a byte cmd.exe reads as syntax even
	// inside double quotes (a double quote, "%" or "!"), a control byte (CR,
	// LF, NUL and the rest of U+0000-U+001F, none of which a Windows file
	// name holds), or is not valid UTF-8 (Windows names are UTF-16, so it
	// names no file).
	ReasonCmdSyntax CommandReason = "cmd-syntax"
	// ReasonRelativePath: the path is not absolute on the target platform,
	// so the program that ran would depend on the working directory (cmd.exe
	// looks there first).
	ReasonRelativePath CommandReason = "relative-path"
	// ReasonNotExecutable: on Windows, the path ends neither in ".exe" or
	// ".com" nor in a batch file's ".cmd" or ".bat". os/exec would try every
	// extension in PATHEXT, .bat and .cmd among them, and run a batch file
	// without cmd.exe's quoting rules.
	ReasonNotExecutable CommandReason = "not-executable"
)

// UnsafeCommandError reports a program path that [WindowsShellCommand] or
// [Target.Command] refuses to run.
type UnsafeCommandError struct {
	Cmd    string        // the program path as given
	Reason CommandReason // why it is refused
}

// Error returns a one-line message naming the path, quoted as Go quotes
// strings.
func (e *UnsafeCommandError) Error() string {
	q := strconv.Quote(e.Cmd)
	switch e.Reason {
	case ReasonRelativePath:
		return "cannot run " + q + ": it is not an absolute path"
	case ReasonNotExecutable:
		return "cannot run " + q + ": it is neither a .exe or .com program nor a .cmd or .bat batch file"
	}
	return "cannot run " + q + " through cmd.exe: it holds a character cmd.exe reads as syntax even inside quotes"
}

// WindowsShellCommand returns the command line cmd.exe runs for a batch file
// with arguments, as the orchestrator's windowsShellCommand does: cmd in
// double quotes, then each argument, separated by single spaces. It returns
// "" and an error instead when
//
//   - cmd holds a byte cmd.exe reads as syntax even inside double quotes
//     (a double quote, "%" or "!") or a control byte (CR, LF, NUL and the
//     rest of U+0000-U+001F), or is not valid UTF-8: a *[UnsafeCommandError]
//     with [ReasonCmdSyntax] (the orchestrator checks only the arguments);
//   - an argument is empty or holds a byte outside A-Z a-z 0-9 @ / . _ + -:
//     an *[UnsafeArgError] naming the first such argument.
//
// The allow-list is stricter than quoting can be made safe: cmd.exe expands
// %VAR% and !VAR! inside quotes, ends the line at CR, LF or NUL, and splits
// arguments at ",", ";" and "=" as well as spaces, so no escaping rule covers
// every argument (BatBadBut: Rust's CVE-2024-24576 and CVE-2024-43402, Go's
// golang/go#27199). Every accepted line is therefore the quoted cmd followed
// by nothing but allow-listed bytes and spaces. [Target.Command] wraps the
// line as cmd.exe /d /s /c "<line>".
func WindowsShellCommand(cmd string, args []string) (string, error) {
	if !cmdQuotable(cmd) {
		return "", &UnsafeCommandError{Cmd: cmd, Reason: ReasonCmdSyntax}
	}
	for _, a := range args {
		if !shellSafe(a) {
			return "", &UnsafeArgError{Arg: a}
		}
	}
	var b strings.Builder
	b.WriteByte('"')
	b.WriteString(cmd)
	b.WriteByte('"')
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(a)
	}
	return b.String(), nil
}

// cmdQuotable reports whether cmd can stand between double quotes on a
// cmd.exe line.
func cmdQuotable(cmd string) bool {
	for i := 0; i < len(cmd); i++ {
		switch c := cmd[i]; {
		case c < 0x20, c == '"', c == '%', c == '!':
			return false
		}
	}
	return utf8.ValidString(cmd)
}

// shellSafe is the orchestrator's /^[A-Za-z0-9@/._+-]+$/.
func shellSafe(arg string) bool {
	if arg == "" {
		return false
	}
	for i := 0; i < len(arg); i++ {
		if !shellSafeByte(arg[i]) {
			return false
		}
	}
	return true
}

func shellSafeByte(c byte) bool {
	switch {
	case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		return true
	}
	return c == '@' || c == '/' || c == '.' || c == '_' || c == '+' || c == '-'
}
