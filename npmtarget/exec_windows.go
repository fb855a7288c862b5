//go:build windows

package npmtarget

import (
	"os/exec"
	"syscall"
)

// setPlatform refuses a posix target's command and hands a cmd.exe line to
// Windows verbatim, with the cmd.exe that environ's SystemRoot names
// ([Command.ExecCmd]).
func setPlatform(cmd *exec.Cmd, c Command, environ []string) {
	switch {
	case !c.Target.Windows:
		cmd.Err = execError{ErrOtherPlatform}
	case c.CmdLine != "":
		path, err := systemCmdExe(environ)
		cmd.Path, cmd.Err = path, err
		cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: c.CmdLine}
	}
}
