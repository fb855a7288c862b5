package npmtarget

import (
	"os/exec"
	"slices"
	"strings"
)

// PrefixViaEnv reports whether the global prefix travels in the environment
// (npm_config_prefix, set by [Target.Env]). Otherwise it is a --prefix
// argument ([Target.Args]). It is true on the npm.cmd fallback: an
// Invocation with no PreArgs whose Cmd is a batch file. cmd.exe cannot take
// the "\", ":" and "=" of a "--prefix=C:\…" argument ([WindowsShellCommand]
// refuses them).
//
// For a posix target, Cmd is a batch file when it matches /\.cmd$/i, as in
// the orchestrator. For a Windows target ".bat" counts too. The trailing
// dots and spaces Windows drops from a file name are dropped first. So
// "npm.cmd.", "npm.cmd " and "npm.BAT" are batch files too. [Target.Command]
// runs each through cmd.exe, which must not receive the prefix as an
// argument.
func (t Target) PrefixViaEnv() bool {
	return len(t.Invocation.PreArgs) == 0 && isBatch(t.Invocation.Cmd, t.Windows)
}

// Args returns the arguments for one npm call, after t.Invocation.Cmd.
// These are the Invocation's PreArgs (npm-cli.js when the service's node
// runs it), then npmArgs. Then comes "--prefix=<GlobalPrefix>", unless
// [Target.PrefixViaEnv]. npm ranks a command-line --prefix above the
// environment. So the install lands in the service's prefix, whatever
// npm_config_prefix the caller carries. Args returns a new slice; it never
// shares PreArgs or npmArgs.
func (t Target) Args(npmArgs ...string) []string {
	args := make([]string, 0, len(t.Invocation.PreArgs)+len(npmArgs)+1)
	args = append(args, t.Invocation.PreArgs...)
	args = append(args, npmArgs...)
	if !t.PrefixViaEnv() {
		args = append(args, "--prefix="+t.GlobalPrefix)
	}
	return args
}

// Env returns the environment npm runs in. environ is the caller's
// environment, as [os.Environ] gives it ("NAME=value" entries). Env returns
// environ with these changes:
//
//   - PATH starts with the service's node folder (dirname of NodeExecPath).
//     The target's list separator follows (";" on Windows, ":" on posix),
//     then the caller's PATH. So a launcher fallback, such as an "env node"
//     shebang or npm.cmd, finds the service's node. The new entry takes the
//     place, and the spelling, of the caller's PATH. Of several, it takes
//     the last, which os/exec also keeps. When the caller's PATH is missing
//     or empty, PATH is the node folder alone. (The orchestrator writes
//     "<folder><separator>", whose empty element a posix shell reads as the
//     working directory.)
//   - On the npm.cmd fallback ([Target.PrefixViaEnv]), every
//     npm_config_prefix and npm_config_global_prefix entry goes, in any
//     case. npm_config_prefix=<GlobalPrefix> is appended.
//   - On the cmd.exe route (a batch file on Windows), beyond the
//     orchestrator, NPM_PREFIX_NPM_CLI_JS goes. npm.cmd keeps an inherited
//     one when its own look-up of the prefix fails, and then runs the
//     npm-cli.js it names. NoDefaultCurrentDirectoryInExePath=1 is appended,
//     and any inherited one goes. So cmd.exe never runs a node.exe from the
//     working directory when npm.cmd falls back to "node".
//
// Every other entry stays as it is and where it is. So an operator's
// npm_config_registry or proxy still applies.
//
// Names compare as the target platform compares them. On Windows case does
// not matter: an environment holding "Path" gets that entry replaced, never
// a second "PATH" beside it. On posix names compare exactly. A name is the
// text before the first "=" after the first byte. (Windows keeps per-drive
// entries such as "=C:=C:\work".) An entry without one is kept as it is.
// Env returns a new slice and never changes environ.
//
// Env refuses nothing: it describes the environment of any target, an
// unsafe one included. [Resolve] and [Target.Command] refuse the targets
// whose environment would mislead npm or cmd.exe. These are a relative node
// ([ErrRelativeNode]) and a node folder holding the list separator
// ([ErrListSeparator]).
func (t Target) Env(environ []string) []string {
	sameName := func(a, b string) bool { return a == b }
	if t.Windows {
		sameName = strings.EqualFold
	}
	lastPath, pathEntry := t.pathEntry(environ, sameName)
	viaEnv, viaCmd := t.PrefixViaEnv(), t.viaCmdExe()
	env := make([]string, 0, len(environ)+3)
	for i, kv := range environ {
		name, _, ok := cutEnv(kv)
		switch {
		case !ok:
		case sameName(name, "PATH"):
			if i == lastPath {
				env = append(env, pathEntry)
			}
			continue
		case viaEnv && (strings.EqualFold(name, "npm_config_prefix") || strings.EqualFold(name, "npm_config_global_prefix")),
			viaCmd && (strings.EqualFold(name, "NPM_PREFIX_NPM_CLI_JS") || strings.EqualFold(name, noCwdInExePath)):
			continue
		}
		env = append(env, kv)
	}
	if lastPath < 0 {
		env = append(env, pathEntry)
	}
	if viaEnv {
		env = append(env, "npm_config_prefix="+t.GlobalPrefix)
	}
	if viaCmd {
		env = append(env, noCwdInExePath+"=1")
	}
	return env
}

// noCwdInExePath is the variable that, defined, keeps cmd.exe from looking
// for a program in the working directory first.
const noCwdInExePath = "NoDefaultCurrentDirectoryInExePath"

// pathEntry returns the index of the caller's PATH entry that counts (the
// last; -1 for none) and the entry that replaces it.
func (t Target) pathEntry(environ []string, sameName func(a, b string) bool) (int, string) {
	last, name, value := -1, "PATH", ""
	for i, kv := range environ {
		if n, v, ok := cutEnv(kv); ok && sameName(n, "PATH") {
			last, name, value = i, n, v
		}
	}
	entry := name + "=" + dirname(t.Windows, t.NodeExecPath)
	if value != "" {
		entry += listSeparator(t.Windows) + value
	}
	return last, entry
}

// cutEnv splits an environment entry at the first "=" after its first byte.
func cutEnv(kv string) (name, value string, ok bool) {
	if kv == "" {
		return "", "", false
	}
	i := strings.IndexByte(kv[1:], '=')
	if i < 0 {
		return "", "", false
	}
	return kv[:i+1], kv[i+2:], true
}

// Command describes the process that runs one npm call for a [Target],
// without starting it. It holds what os/exec needs, decided without reading
// the environment or the disk. [Target.Command] makes one. [Command.ExecCmd]
// turns it into an *exec.Cmd.
type Command struct {
	// Path is the program to start: the target's Invocation.Cmd, or CmdExe on
	// the npm.cmd fallback.
	Path string
	// Args is the argument list, program first, as exec.Cmd.Args. It is the
	// Invocation.Cmd and then Target.Args. On the npm.cmd fallback it is
	// "cmd.exe", "/d", "/s", "/c" and the quoted WindowsShellCommand line.
	Args []string
	// CmdLine is the whole command line cmd.exe receives on the npm.cmd
	// fallback, exactly:
	//
	//	cmd.exe /d /s /c ""<npm.cmd>" <args>"
	//
	// It goes to Windows as is (syscall.SysProcAttr.CmdLine). So os/exec does
	// not quote it: os/exec follows the C runtime's rules, not cmd.exe's
	// (golang/go#27199). CmdLine is empty for every other command.
	CmdLine string
	// Target is the target the command runs npm for. [Command.Env] derives the
	// environment from it.
	Target Target
}

// Command describes the process that runs npm with npmArgs for t, such as
// t.Command("install", "-g", "@kici-dev/orchestrator@0.20.0"). It runs
// t.Invocation.Cmd with [Target.Args]. The exception is a batch file on
// Windows, such as npm.cmd ([Target.PrefixViaEnv] says what counts).
// Windows runs a batch file through cmd.exe. So the command is cmd.exe
// itself, with /d (no AutoRun commands), /s and /c, and the line
// [WindowsShellCommand] builds. This is how node's spawn with shell: true
// runs it.
//
// Command returns an error, and runs nothing, when
//
//   - t.Invocation.Cmd is not an absolute path of the target platform: an
//     *[UnsafeCommandError] with [ErrRelativePath]. On posix an absolute
//     path starts with "/". On Windows it is a drive root such as "C:\", or
//     a UNC or device path starting with two separators.
//   - on Windows, t.Invocation.Cmd is neither a batch file nor a ".exe" or
//     ".com" program: [ErrNotExecutable];
//   - on the cmd.exe route, t.Invocation.Cmd holds a byte cmd.exe reads as
//     syntax even inside quotes: [ErrCmdSyntax];
//   - t fails a check that [Resolve] makes beyond the orchestrator: a
//     *[FieldError] with [ErrRelativeNode] or [ErrListSeparator]. On the
//     cmd.exe route it may be [ErrBatchPath], for the global prefix, the
//     node folder or the batch file's folder.
//   - on the cmd.exe route, [WindowsShellCommand] refuses the batch file's
//     path or an argument. PreArgs and --prefix count, which is why the
//     prefix travels in the environment there.
//
// The environment is not among the returned value's fields. It depends on
// the caller's, which this package does not read. [Command.Env] and
// [Command.ExecCmd] take it as an argument.
func (t Target) Command(npmArgs ...string) (Command, error) {
	return t.command("Target.Command", npmArgs)
}

// command is Target.Command, with fn naming the call in its errors.
func (t Target) command(fn string, npmArgs []string) (Command, error) {
	cmd := t.Invocation.Cmd
	if !isAbsolute(cmd, t.Windows) {
		return Command{}, &UnsafeCommandError{Func: fn, Cmd: cmd, Reason: ErrRelativePath}
	}
	if t.viaCmdExe() && !cmdQuotable(cmd) {
		return Command{}, &UnsafeCommandError{Func: fn, Cmd: cmd, Reason: ErrCmdSyntax}
	}
	if err := checkTarget(fn, t); err != nil {
		return Command{}, err
	}
	// The Command keeps a Target of its own, so that changing one never
	// changes the other.
	t.Invocation.PreArgs = slices.Clone(t.Invocation.PreArgs)
	args := t.Args(npmArgs...)
	if t.viaCmdExe() {
		line, err := shellCommand(fn, cmd, args)
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
		return Command{}, &UnsafeCommandError{Func: fn, Cmd: cmd, Reason: ErrNotExecutable}
	}
	return Command{Path: cmd, Args: append([]string{cmd}, args...), Target: t}, nil
}

// Env returns the environment the command runs in: c.Target.Env(environ).
// environ is the caller's environment, as [os.Environ] gives it. See
// [Target.Env].
func (c Command) Env(environ []string) []string {
	return c.Target.Env(environ)
}

// ExecCmd returns an *exec.Cmd that starts c, in the environment
// c.Env(environ). Pass os.Environ() for the caller's own. It sets Path, Args
// and Env, and on Windows SysProcAttr for the cmd.exe line. The caller can
// still set Dir, Stdout and the rest. Nothing is looked up on PATH: Path is
// used as it is. The exec.Cmd shares no slice with c, nor with another
// ExecCmd's.
//
// ExecCmd runs only what [Target.Command] makes. It makes the command again
// from c.Target and the npm arguments c.Args carries. It refuses c when its
// Path, Args or CmdLine differ from that ([ErrAltered]). It refuses c too
// when Target.Command now refuses c.Target. So a field changed after the
// fact is never silently ignored or run unchecked.
//
// On the npm.cmd fallback on Windows, Path is CmdExe with SystemRoot taken
// from environ. CmdLine goes to Windows verbatim, through
// SysProcAttr.CmdLine.
//
// Some commands cannot start. A command's platform may not be the running
// one: a Windows target elsewhere, or a posix target on Windows. A cmd.exe
// line may lack a usable SystemRoot. c may be refused. ExecCmd then returns
// an exec.Cmd whose Err is set, so that Start and Run return it and start
// nothing.
func (c Command) ExecCmd(environ []string) *exec.Cmd {
	cmd := &exec.Cmd{Path: c.Path, Args: slices.Clone(c.Args), Env: c.Env(environ)}
	want, err := c.remake()
	if err != nil {
		cmd.Err = err
		return cmd
	}
	setPlatform(cmd, want, environ)
	return cmd
}

// remake makes c again with Target.Command, from c.Target and the npm
// arguments in c.Args, and reports an error unless that gives c back.
func (c Command) remake() (Command, error) {
	npmArgs, ok := c.npmArgs()
	if !ok {
		return Command{}, execError{ErrAltered}
	}
	want, err := c.Target.command("Command.ExecCmd", npmArgs)
	if err != nil {
		return Command{}, err
	}
	if want.Path != c.Path || want.CmdLine != c.CmdLine || !slices.Equal(want.Args, c.Args) {
		return Command{}, execError{ErrAltered}
	}
	return want, nil
}

// npmArgs returns the npm arguments c.Args carries after the program, its
// PreArgs and before its --prefix, as Target.Command placed them: on the
// cmd.exe route, the words after the batch file in the quoted line.
func (c Command) npmArgs() ([]string, bool) {
	t := c.Target
	args := c.Args
	if t.viaCmdExe() {
		words, ok := cmdExeWords(args, t.Invocation.Cmd)
		if !ok {
			return nil, false
		}
		args = words
	}
	if len(args) == 0 || len(args)-1 < len(t.Invocation.PreArgs) || !slices.Equal(args[1:1+len(t.Invocation.PreArgs)], t.Invocation.PreArgs) {
		return nil, false
	}
	args = args[1+len(t.Invocation.PreArgs):]
	if !t.PrefixViaEnv() {
		n := len(args)
		if n == 0 || args[n-1] != "--prefix="+t.GlobalPrefix {
			return nil, false
		}
		args = args[:n-1]
	}
	return args, true
}

// cmdExeWords returns the words of a cmd.exe route's Args as Target.Command
// writes them, cmd.exe /d /s /c ""<batch>" <word> <word>...", with the batch
// file first.
func cmdExeWords(args []string, batch string) ([]string, bool) {
	if len(args) != 5 || !slices.Equal(args[:4], []string{"cmd.exe", "/d", "/s", "/c"}) {
		return nil, false
	}
	rest, quoted := strings.CutPrefix(args[4], `""`+batch+`"`)
	rest, closed := strings.CutSuffix(rest, `"`)
	if !quoted || !closed || rest != "" && rest[0] != ' ' {
		return nil, false
	}
	if rest == "" {
		return []string{batch}, true
	}
	return append([]string{batch}, strings.Split(rest[1:], " ")...), true
}

// String returns the command as one line. On the npm.cmd fallback that is
// CmdLine. Otherwise, for a Windows target, it is the command line os/exec
// gives Windows for Args, quoted by syscall.EscapeArg's rules. For a posix
// target it is Args separated by spaces. Each argument that needs it is in
// single quotes, as a posix shell reads them.
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
