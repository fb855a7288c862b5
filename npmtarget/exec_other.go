//go:build !windows

package npmtarget

import "os/exec"

// setPlatform refuses every command of a Windows target: only Windows runs
// it ([Command.ExecCmd]).
func setPlatform(cmd *exec.Cmd, c Command, _ []string) {
	if c.Target.Windows || c.CmdLine != "" {
		cmd.Err = execError{ErrOtherPlatform}
	}
}
