package npmtarget

import "strings"

// CmdExe is [Command.Path] on the npm.cmd fallback: the cmd.exe in the
// Windows system folder, written with the variable that names that folder.
// [Command.ExecCmd] expands SystemRoot from the environment it is given; the
// path is never searched for on PATH or in the working directory.
const CmdExe = `%SystemRoot%\System32\cmd.exe`

// Command describes the process that runs one npm call for a [Target],
// without starting it: what os/exec needs, decided without reading the
// environment or the disk. [Target.Command] makes one; [Command.ExecCmd]
// turns it into an *exec.Cmd.
type Command struct {
	// Path is the program to start: the target's Invocation.Cmd, or CmdExe
	// on the npm.cmd fallback.
	Path string
	// Args is the argument list, program first, as exec.Cmd.Args: the
	// Invocation.Cmd and then Target.Args; on the npm.cmd fallback "cmd.exe",
	// "/d", "/s", "/c" and the quoted WindowsShellCommand line.
	Args []string
	// CmdLine is, on the npm.cmd fallback, the whole command line cmd.exe
	// receives, exactly:
	//
	//	cmd.exe /d /s /c ""<npm.cmd>" <args>"
	//
	// It goes to Windows as is (syscall.SysProcAttr.CmdLine), out of reach of
	// os/exec's quoting, which follows the C runtime's rules and not cmd.exe's
	// (golang/go#27199). Empty for every other command.
	CmdLine string
	// Target is the target the command runs npm for; [Command.Env] derives
	// the environment from it.
	Target Target
}

// Command describes the process that runs npm with npmArgs for t, such as
// t.Command("install", "-g", "@kici-dev/orchestrator@0.20.0"). It runs
// t.Invocation.Cmd with [Target.Args], except where t.Invocation.Cmd is a
// batch file on Windows (npm.cmd, and see [Target.PrefixViaEnv] for what
// counts): Windows runs a batch file through cmd.exe, so the command is
// cmd.exe itself, with /d (no AutoRun commands), /s and /c and the line
// [WindowsShellCommand] builds, the way node's spawn with shell: true runs it.
//
// Command returns an error, and runs nothing, when
//
//   - t.Invocation.Cmd is not an absolute path of the target platform
//     (posix: starts with "/"; Windows: a drive root such as "C:\" or a UNC
//     or device path starting with two separators): an *[UnsafeCommandError]
//     with [ReasonRelativePath];
//   - on Windows, t.Invocation.Cmd is neither a batch file nor a ".exe" or
//     ".com" program: [ReasonNotExecutable];
//   - on the cmd.exe route, [WindowsShellCommand] refuses the batch file's
//     path or an argument (PreArgs and --prefix included, which is why the
//     prefix travels in the environment there).
//
// The environment is not part of the returned value's fields: it depends on
// the caller's, which this package does not read. [Command.Env] and
// [Command.ExecCmd] take it as an argument.
func (t Target) Command(npmArgs ...string) (Command, error) {
	cmd := t.Invocation.Cmd
	if !isAbsolute(cmd, t.Windows) {
		return Command{}, &UnsafeCommandError{Cmd: cmd, Reason: ReasonRelativePath}
	}
	args := t.Args(npmArgs...)
	if t.Windows && isBatch(cmd, true) {
		line, err := WindowsShellCommand(cmd, args)
		if err != nil {
			return Command{}, err
		}
		quoted := `"` + line + `"`
		return Command{
			Path:    CmdExe,
			Args:    []string{"cmd.exe", "/d", "/s", "/c", quoted},
			CmdLine: "cmd.exe /d /s /c " + quoted,
			Target:  t,
		}, nil
	}
	if t.Windows && !hasSuffixFold(cmd, ".exe") && !hasSuffixFold(cmd, ".com") {
		return Command{}, &UnsafeCommandError{Cmd: cmd, Reason: ReasonNotExecutable}
	}
	return Command{Path: cmd, Args: append([]string{cmd}, args...), Target: t}, nil
}

// Env returns the environment the command runs in, given the caller's
// environment as [os.Environ] gives it: c.Target.Env(environ). See
// [Target.Env].
func (c Command) Env(environ []string) []string {
	return c.Target.Env(environ)
}

// String returns the command as one line. On the npm.cmd fallback that is
// CmdLine. Otherwise, for a Windows target, it is the command line os/exec
// gives Windows for Args (quoted by syscall.EscapeArg's rules); for a posix
// target, Args separated by spaces, each argument that needs it in single
// quotes, as a posix shell reads them.
func (c Command) String() string {
	if c.CmdLine != "" {
		return c.CmdLine
	}
	b := make([]byte, 0, 64)
	for i, a := range c.Args {
		if i > 0 {
			b = append(b, ' ')
		}
		if c.Target.Windows {
			b = appendWindowsArg(b, a)
		} else {
			b = appendShellWord(b, a)
		}
	}
	return string(b)
}

// appendWindowsArg appends a as syscall.EscapeArg writes it: quoted when it
// is empty or holds a space or tab; a "\"" escaped, and the backslashes
// before a "\"" (or before the closing quote) doubled.
func appendWindowsArg(b []byte, a string) []byte {
	quote := a == "" || strings.ContainsAny(a, " \t")
	if !quote && !strings.ContainsAny(a, `"\`) {
		return append(b, a...)
	}
	if quote {
		b = append(b, '"')
	}
	slashes := 0
	for i := 0; i < len(a); i++ {
		switch a[i] {
		case '\\':
			slashes++
		case '"':
			for ; slashes > 0; slashes-- {
				b = append(b, '\\')
			}
			b = append(b, '\\')
		default:
			slashes = 0
		}
		b = append(b, a[i])
	}
	if quote {
		for ; slashes > 0; slashes-- {
			b = append(b, '\\')
		}
		b = append(b, '"')
	}
	return b
}

// appendShellWord appends a as a posix shell word: as it is when every byte
// is in A-Z a-z 0-9 @ / . _ + - : = , and otherwise in single quotes, where
// each single quote of a closes the quotes, is escaped with a backslash and
// opens them again.
func appendShellWord(b []byte, a string) []byte {
	plain := a != ""
	for i := 0; i < len(a) && plain; i++ {
		plain = shellSafeByte(a[i]) || a[i] == ':' || a[i] == '=' || a[i] == ','
	}
	if plain {
		return append(b, a...)
	}
	b = append(b, '\'')
	for i := 0; i < len(a); i++ {
		if a[i] == '\'' {
			b = append(b, `'\''`...)
		} else {
			b = append(b, a[i])
		}
	}
	return append(b, '\'')
}

// isAbsolute reports whether p is a fully qualified path of the flavour:
// posix, starting with "/"; Windows, a drive letter, ":" and a separator, or
// two separators (a UNC path \\server\share\… or a device path \\?\…). A
// Windows path starting with one separator hangs off the current drive, and
// "C:x" off the current folder of drive C, so neither counts.
func isAbsolute(p string, windows bool) bool {
	if !windows {
		return strings.HasPrefix(p, "/")
	}
	if len(p) >= 3 && isDriveLetter(p[0]) && p[1] == ':' && isWin32Sep(p[2]) {
		return true
	}
	return len(p) >= 2 && isWin32Sep(p[0]) && isWin32Sep(p[1])
}

// execError is an error [Command.ExecCmd] leaves in exec.Cmd.Err, for Start
// to return.
type execError string

func (e execError) Error() string { return string(e) }

// errNoSystemRoot is what ExecCmd leaves in exec.Cmd.Err for a cmd.exe line
// when the environment names no usable SystemRoot.
const errNoSystemRoot = execError("npmtarget: the environment names no usable SystemRoot, so cmd.exe cannot be found")

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
		return "", errNoSystemRoot
	}
	// A root of separators alone ("\\") would leave \System32\cmd.exe, on
	// whatever drive is current.
	path := strings.TrimRight(root, `\/`) + `\System32\cmd.exe`
	if !isAbsolute(path, true) {
		return "", errNoSystemRoot
	}
	return path, nil
}
