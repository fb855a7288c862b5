package npmtarget

import "strconv"

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

// execError is an error [Command.ExecCmd] leaves in exec.Cmd.Err, for Start
// to return.
type execError string

func (e execError) Error() string { return string(e) }

// errNoSystemRoot is what ExecCmd leaves in exec.Cmd.Err for a cmd.exe line
// when the environment names no usable SystemRoot.
const errNoSystemRoot = execError("npmtarget: the environment names no usable SystemRoot, so cmd.exe cannot be found")
