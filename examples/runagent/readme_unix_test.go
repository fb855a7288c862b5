//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readme is the README's commands that put the stand-in agent image into
// .ci/engine's Engine and run the example there, as it writes them: the
// folder it starts the Engine in, and the two lines.
type readme struct {
	dir, image, runagent string
}

// readmeCommands reads them from the README's sh blocks.
func readmeCommands(t *testing.T) readme {
	t.Helper()
	text, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	var r readme
	inBlock := false
	for _, line := range strings.Split(string(text), "\n") {
		switch {
		case line == "```sh":
			inBlock = true
		case line == "```":
			inBlock = false
		case !inBlock:
		case strings.HasPrefix(line, "bash .ci/engine start "):
			r.dir = strings.TrimPrefix(line, "bash .ci/engine start ")
		case strings.Contains(line, " go run ./internal/enginetest/cmd/agentimage "):
			r.image = line
		case strings.Contains(line, " go run ./examples/runagent "):
			r.runagent = line
		}
	}
	require.NotEmpty(t, r.dir, "README.md starts an Engine: bash .ci/engine start DIR")
	for _, line := range []string{r.image, r.runagent} {
		require.True(t, strings.HasPrefix(line, "bash .ci/engine exec "+r.dir+" go run "),
			"README.md runs %q in the Engine it starts (%s)", line, r.dir)
	}
	return r
}

// on is the README's line run on the Engine of folder dir instead of its.
func (r readme) on(line, dir string) string {
	return "bash .ci/engine exec " + dir + strings.TrimPrefix(line, "bash .ci/engine exec "+r.dir)
}

// TestREADME runs the README's runagent commands as it writes them, on the
// test's Engine: the stand-in goes in, the example prints the agent's
// container and address, and an interrupt ends it and removes them.
func TestREADME(t *testing.T) {
	c := enginetest.Engine(t)
	enginetest.InEngineNetns(t) // nft writes the rules where the README's commands run
	dir := enginetest.EngineDir(t)
	r := readmeCommands(t)

	image := r.image[strings.LastIndex(r.image, " ")+1:]
	t.Cleanup(func() {
		_, err := c.ImageRemove(context.Background(), image, client.ImageRemoveOptions{Force: true})
		assert.NoError(t, err)
	})
	cmd := exec.Command("bash", "-c", r.on(r.image, dir))
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s\n%s", r.image, out)
	assert.Regexp(t, "^"+regexp.QuoteMeta(image)+`: sha256:[0-9a-f]{64}, a stand-in agent image \(fakeagent\)\n$`, string(out))

	id := runUntilInterrupted(t, c, r.on(r.runagent, dir), "unix://"+dir+"/docker.sock")
	_, err = c.ContainerInspect(context.Background(), id, client.ContainerInspectOptions{})
	assert.True(t, cerrdefs.IsNotFound(err), "the agent's container is gone: %v", err)
}

// runUntilInterrupted runs the command line, as a shell of its own, until
// it prints its agent on the Engine at host; checks that the container
// runs; interrupts it as Ctrl-C does, and returns the container's id once
// it ended without a word.
func runUntilInterrupted(t *testing.T, c client.APIClient, line, host string) string {
	t.Helper()
	cmd := exec.Command("bash", "-c", line)
	cmd.Dir = "../.."
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // a process group, as a shell's job
	var stderr lockedBuffer                               // read while the command writes it
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // a test that failed half way
		<-done
	})
	lines := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- l
	}()
	var got string
	select {
	case got = <-lines:
	case <-time.After(3 * time.Minute):
		t.Fatalf("%s printed no agent within 3 minutes:\n%s", line, stderr.String())
	}
	m := regexp.MustCompile(`^agent (\S+) of scaler "[^"]+": container ([0-9a-f]{12}), address (172\.30\.\d+\.\d+), on (\S+)\n$`).FindStringSubmatch(got)
	require.NotNil(t, m, "%q\n%s", got, stderr.String())
	assert.Equal(t, host, m[4])
	info, err := c.ContainerInspect(context.Background(), m[2], client.ContainerInspectOptions{})
	require.NoError(t, err)
	assert.True(t, info.Container.State.Running, "the agent's container runs")
	assert.Equal(t, m[3], info.Container.NetworkSettings.Networks["kici-agent-net"].IPAddress.String())

	require.NoError(t, syscall.Kill(-cmd.Process.Pid, syscall.SIGINT))
	select {
	case err := <-done:
		done <- err
		// go run exits 1 once interrupted, whatever its program's status;
		// it says "exit status N" when that is not 0, and the program says
		// why on standard error.
		var exit *exec.ExitError
		if err != nil && (!errors.As(err, &exit) || exit.ExitCode() != 1) {
			t.Fatalf("%s ended with %v once interrupted:\n%s", line, err, stderr.String())
		}
		require.Empty(t, stderr.String(), "%s ended with a message once interrupted", line)
	case <-time.After(time.Minute):
		t.Fatalf("%s did not end within a minute of an interrupt:\n%s", line, stderr.String())
	}
	return m[2]
}

// lockedBuffer is a bytes.Buffer that may be read while it is written.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
