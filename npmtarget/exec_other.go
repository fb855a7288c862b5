//go:build !windows

package npmtarget

import "os/exec"

// ExecCmd returns an *exec.Cmd that starts c, in the environment
// c.Env(environ); pass os.Environ() for the caller's own. It sets Path, Args
// and Env (and on Windows SysProcAttr, for the cmd.exe line), so the caller
// can still set Dir, Stdout and the rest. Nothing is looked up on PATH: Path
// is used as it is.
//
// On Windows, on the npm.cmd fallback, Path is CmdExe with SystemRoot taken
// from environ, and CmdLine goes to Windows verbatim through
// SysProcAttr.CmdLine. A command whose platform is not the running one (a
// Windows target elsewhere, a posix target on Windows), or a cmd.exe line
// without a usable SystemRoot, gets an exec.Cmd whose Err is set, so that
// Start and Run return it and start nothing.
func (c Command) ExecCmd(environ []string) *exec.Cmd {
	cmd := &exec.Cmd{Path: c.Path, Args: c.Args, Env: c.Env(environ)}
	if c.Target.Windows || c.CmdLine != "" {
		cmd.Err = errOnlyWindows
	}
	return cmd
}

const errOnlyWindows = execError("npmtarget: the command of a Windows target runs only on Windows")
