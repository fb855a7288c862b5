//go:build !windows

package npmtarget

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExecCmd(t *testing.T) {
	t.Parallel()
	c, err := posixCli.Command("install", "-g", "x@1")
	require.NoError(t, err)
	cmd := c.ExecCmd([]string{"PATH=/bin", "A=1"})
	assert.Equal(t, "/usr/bin/node", cmd.Path)
	assert.Equal(t, c.Args, cmd.Args)
	assert.Equal(t, []string{"PATH=/usr/bin:/bin", "A=1"}, cmd.Env)
	assert.NoError(t, cmd.Err)
	assert.Nil(t, cmd.SysProcAttr)
}

// TestExecCmdWindowsElsewhere checks that a Windows command does not start
// here, and says why.
func TestExecCmdWindowsElsewhere(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		target Target
	}{
		{"node.exe", winCli},
		{"npm.cmd through cmd.exe", winCmd},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := tt.target.Command("install")
			require.NoError(t, err)
			cmd := c.ExecCmd(nil)
			require.Error(t, cmd.Err)
			assert.Equal(t, cmd.Err, cmd.Run())
			assert.ErrorIs(t, cmd.Err, ErrOtherPlatform)
		})
	}
}

// TestExecCmdRuns starts a real process through ExecCmd: a shell standing in
// for node, printing its PATH and arguments, so that the environment and
// argv that reach the child are the ones described.
func TestExecCmdRuns(t *testing.T) {
	t.Parallel()
	const sh = "/bin/sh"
	if _, err := os.Stat(sh); err != nil {
		t.Skip("no /bin/sh")
	}
	target := Target{
		NodeExecPath: "/opt/node/bin/node",
		GlobalPrefix: "/opt/prefix",
		Invocation:   Invocation{Cmd: sh, PreArgs: []string{"-c", `printf '%s\n' "$PATH" "$npm_config_registry" "$@"`, "npm"}},
	}
	c, err := target.Command("install", "-g", "@kici-dev/orchestrator@0.20.0", "a b;&c")
	require.NoError(t, err)
	cmd := c.ExecCmd([]string{"PATH=/usr/bin:/bin", "npm_config_registry=https://r.example"})
	out, err := cmd.Output()
	require.NoError(t, err)
	assert.Equal(t, []string{
		"/opt/node/bin:/usr/bin:/bin",
		"https://r.example",
		"install", "-g", "@kici-dev/orchestrator@0.20.0", "a b;&c", "--prefix=/opt/prefix",
	}, strings.Split(strings.TrimSuffix(string(out), "\n"), "\n"))
}

// TestCommandStringIsAShellCommand feeds String() of a posix command to a
// shell and checks that the shell reads the same arguments back.
func TestCommandStringIsAShellCommand(t *testing.T) {
	t.Parallel()
	const sh = "/bin/sh"
	if _, err := os.Stat(sh); err != nil {
		t.Skip("no /bin/sh")
	}
	c := Command{Path: "/usr/bin/printf", Args: []string{"/usr/bin/printf", `%s|`, "it's", "a b", "$HOME", "`id`", "", "x=y", "\\", "é", "'"}}
	target := Target{NodeExecPath: "/usr/bin/node", Invocation: Invocation{Cmd: sh, PreArgs: []string{"-c", c.String()}}}
	sc, err := target.Command()
	require.NoError(t, err)
	// Drop the --prefix that Args adds: the shell line ignores it as $0.
	out, err := sc.ExecCmd(nil).Output()
	require.NoError(t, err)
	assert.Equal(t, "it's|a b|$HOME|`id`||x=y|\\|é|'|", string(out))
}
