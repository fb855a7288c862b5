package npmtarget

import (
	"strings"
	"unicode/utf8"
)

// CmdExe is [Command.Path] on the npm.cmd fallback. It is the cmd.exe in the
// Windows system folder, written with the variable that names that folder.
// [Command.ExecCmd] expands SystemRoot from the environment it is given. The
// path is never searched for on PATH or in the working directory.
const CmdExe = `%SystemRoot%\System32\cmd.exe`

// WindowsShellCommand returns the command line cmd.exe runs for a batch
// file with arguments. It is the orchestrator's windowsShellCommand: cmd in
// double quotes, then each argument, separated by single spaces. It returns
// "" and an error instead when
//
//   - cmd holds a byte cmd.exe reads as syntax even inside double quotes
//     (a double quote, "%" or "!"), or a control byte (U+0000-U+001F), or is
//     not valid UTF-8. The error is a *[UnsafeCommandError] with
//     [ErrCmdSyntax]. (The orchestrator checks only the arguments.)
//   - an argument is empty or holds a byte outside A-Z a-z 0-9 @ / . _ + -.
//     The error is an *[UnsafeArgError] naming the first such argument.
//
// No quoting makes every argument safe for cmd.exe; the package
// documentation says why. So every accepted line is the quoted cmd followed
// by nothing but allow-listed bytes and spaces. [Target.Command] wraps the
// line as cmd.exe /d /s /c "<line>".
func WindowsShellCommand(cmd string, args []string) (string, error) {
	return shellCommand("WindowsShellCommand", cmd, args)
}

// shellCommand is WindowsShellCommand, with fn naming the call in its
// errors.
func shellCommand(fn, cmd string, args []string) (string, error) {
	if !cmdQuotable(cmd) {
		return "", &UnsafeCommandError{Func: fn, Cmd: cmd, Reason: ErrCmdSyntax}
	}
	for _, a := range args {
		if !shellSafe(a) {
			return "", &UnsafeArgError{Func: fn, Arg: a}
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

// viaCmdExe reports whether t's npm runs through cmd.exe: its program is a
// batch file on Windows.
func (t Target) viaCmdExe() bool {
	return t.Windows && isBatch(t.Invocation.Cmd, true)
}

// isBatch reports whether cmd names a batch file: on Windows, a name ending
// in ".cmd" or ".bat" in any case once Windows has dropped its trailing dots
// and spaces (the check Rust adopted for CVE-2024-43402); on posix, the
// orchestrator's /\.cmd$/i.
func isBatch(cmd string, windows bool) bool {
	if !windows {
		return hasSuffixFold(cmd, ".cmd")
	}
	cmd = strings.TrimRight(cmd, ". ")
	return hasSuffixFold(cmd, ".cmd") || hasSuffixFold(cmd, ".bat")
}

// hasSuffixFold reports whether s ends in the ASCII suffix, ignoring ASCII
// case.
func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// systemCmdExe expands CmdExe with the SystemRoot of environ (the last, name
// compared without regard to case): that must be an absolute Windows path
// that cmd.exe can take.
func systemCmdExe(environ []string) (string, error) {
	root := ""
	for _, kv := range environ {
		if name, value, ok := cutEnv(kv); ok && strings.EqualFold(name, "SystemRoot") {
			root = value
		}
	}
	if !isAbsolute(root, true) || !cmdQuotable(root) {
		return "", execError{ErrNoSystemRoot}
	}
	// A root of separators alone ("\\") would leave \System32\cmd.exe, on
	// whatever drive is current.
	path := strings.TrimRight(root, `\/`) + `\System32\cmd.exe`
	if !isAbsolute(path, true) {
		return "", execError{ErrNoSystemRoot}
	}
	return path, nil
}
