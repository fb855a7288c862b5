package npmtarget

import (
	"strconv"

	"github.com/kicikit/kicikit/internal/errtext"
)

// Reason is why npmtarget refuses a value, a command or an upgrade. Each
// Reason is an error value. A caller branches on it with errors.Is:
//
//	if errors.Is(err, npmtarget.ErrRelativePath) { … }
//
// The zero Reason is not one of them and is never reported. The package
// documentation says what each refusal guards against.
type Reason uint8

// The reasons npmtarget refuses.
const (
	// ErrCmdSyntax means a program path holds a byte cmd.exe reads as syntax
	// even inside double quotes: a double quote, "%" or "!". A control byte
	// (U+0000-U+001F) counts too, as does text that is not valid UTF-8.
	ErrCmdSyntax Reason = iota + 1
	// ErrRelativePath means a path is not absolute on the target platform.
	// What it names would depend on the working directory.
	ErrRelativePath
	// ErrNotExecutable means a Windows program path ends in none of ".exe",
	// ".com", ".cmd" and ".bat".
	ErrNotExecutable
	// ErrArgSyntax means an argument for cmd.exe is empty or holds a byte
	// outside A-Z a-z 0-9 @ / . _ + -.
	ErrArgSyntax
	// ErrOtherPlatform means a command was to start on a platform other than
	// its target's. A Windows target's command runs only on Windows. A posix
	// target's runs nowhere else.
	ErrOtherPlatform
	// ErrNoSystemRoot means the environment names no SystemRoot that gives an
	// absolute cmd.exe path cmd.exe can take.
	ErrNoSystemRoot
	// ErrRelativeNode means the service's node is not an absolute path of the
	// target platform. The refused value's message says to give the absolute
	// path.
	ErrRelativeNode
	// ErrListSeparator means the service's node folder holds the target's PATH
	// list separator: ":" on posix, ";" on Windows.
	ErrListSeparator
	// ErrBatchPath means a path holds what cmd.exe would misread on the
	// cmd.exe route. npm.cmd expands the path into its own command lines there.
	// The bytes refused are a double quote, "%", "!", "^", a control character,
	// and a character Windows forbids in a file name.
	ErrBatchPath
	// ErrPackageName means the package that owns the entry script is not a name
	// npm takes (validate-npm-package-name's rules). It is refused too when npm
	// would read it as something else once "@<version>" follows it, such as
	// "C:", "x.tgz" or "-x".
	ErrPackageName
	// ErrVersion means the version to install is neither a semantic version nor
	// a dist-tag in a form npm reads as nothing else. Examples are an alias
	// ("npm:left-pad@1.3.0"), a folder ("../x") and a range ("^1.2.3").
	ErrVersion
	// ErrAltered means a [Command] given to [Command.ExecCmd] is not what
	// [Target.Command] makes of its Target and npm arguments. A field was
	// changed after the fact, or the Command was built by hand.
	ErrAltered

	// ErrNoVersion means [PlanUpgrade] was given no version to install.
	ErrNoVersion
	// ErrNotGlobal means the entry script is in a node_modules folder that is
	// not a global install ([NotGlobal]).
	ErrNotGlobal
	// ErrNoGlobalPackage means the launch command is unknown or names no entry
	// script in a node_modules folder ([NoEntry]).
	ErrNoGlobalPackage
	// ErrUnsafeTarget means [Resolve] refused the global install it found
	// ([Unsafe]). The orchestrator would go on.
	ErrUnsafeTarget
)

// Error returns a short lower-case description of r.
func (r Reason) Error() string {
	switch r {
	case ErrCmdSyntax:
		return "it holds a character cmd.exe reads as syntax even inside quotes"
	case ErrRelativePath:
		return "it is not an absolute path"
	case ErrNotExecutable:
		return "it is neither a .exe or .com program nor a .cmd or .bat batch file"
	case ErrArgSyntax:
		return "it holds a character cmd.exe reads as syntax"
	case ErrOtherPlatform:
		return "the command's target runs on another platform"
	case ErrNoSystemRoot:
		return "the environment names no usable SystemRoot, so cmd.exe cannot be found"
	case ErrRelativeNode:
		return "the service's node is not an absolute path, so npm would run from the working directory: give its absolute path"
	case ErrListSeparator:
		return "the node folder holds the PATH list separator, which would split PATH: move node to a folder without it"
	case ErrBatchPath:
		return "npm.cmd would hand it to cmd.exe, which misreads a double quote, %, !, ^, a control character " +
			"or a character Windows forbids in a file name: use a folder without them, or keep npm-cli.js beside node so that npm runs without cmd.exe"
	case ErrPackageName:
		return "npm would not read it as the name of a package to install: install the package under a valid npm package name"
	case ErrVersion:
		return "npm would read it as something other than a version or a dist-tag (an alias, a URL, a git repository, a folder, a tarball or a range): " +
			"give a version such as 0.20.0 or a dist-tag such as latest"
	case ErrAltered:
		return "the command is not what Target.Command makes of its target and arguments: make it with Target.Command and run it unchanged"
	case ErrNoVersion:
		return "no version to install was given"
	case ErrNotGlobal:
		return "the launch target is not inside a global npm install"
	case ErrNoGlobalPackage:
		return "the launch command names no global package to update"
	case ErrUnsafeTarget:
		return "npm cannot be run safely for the global install"
	}
	return "reason " + strconv.Itoa(int(r))
}

// UnsafeArgError reports an argument that cannot be handed to cmd.exe. It
// is empty or holds a byte outside the orchestrator's allow-list
// A-Z a-z 0-9 @ / . _ + -.
type UnsafeArgError struct {
	Func string // the call that refused it: "WindowsShellCommand" or "Target.Command"
	Arg  string // the argument as given
}

// Error returns the orchestrator's message after the call's name. The
// argument is quoted by Go's rules and cut to a bounded length. So control
// bytes stay visible, and the message stays one short line.
func (e *UnsafeArgError) Error() string {
	return "npmtarget." + e.Func + ": cannot pass " + errtext.Quote(e.Arg) + " to npm: " + ErrArgSyntax.Error()
}

// Unwrap returns [ErrArgSyntax].
func (e *UnsafeArgError) Unwrap() error { return ErrArgSyntax }

// UnsafeCommandError reports a program path that [WindowsShellCommand] or
// [Target.Command] refuses to run.
type UnsafeCommandError struct {
	Func   string // the call that refused it: "WindowsShellCommand" or "Target.Command"
	Cmd    string // the program path as given
	Reason Reason // why it is refused
}

// Error returns a one-line message naming the call and the path. The path
// is quoted by Go's rules and cut to a bounded length.
func (e *UnsafeCommandError) Error() string {
	return "npmtarget." + e.Func + "(" + errtext.Quote(e.Cmd) + "): cannot run the program: " + e.Reason.Error()
}

// Unwrap returns e.Reason, so that errors.Is(err, ErrRelativePath) works.
func (e *UnsafeCommandError) Unwrap() error { return e.Reason }

// execError is what [Command.ExecCmd] leaves in exec.Cmd.Err, for Start to
// return: "npmtarget.Command.ExecCmd: " and the reason.
type execError struct{ reason Reason }

func (e execError) Error() string { return "npmtarget.Command.ExecCmd: " + e.reason.Error() }

func (e execError) Unwrap() error { return e.reason }
