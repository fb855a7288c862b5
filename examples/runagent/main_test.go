package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun runs the example on the test Engine: it prints the agent's
// container and address, and removes the container once interrupted.
func TestRun(t *testing.T) {
	c := enginetest.Engine(t)
	ns := enginetest.Netns(t)
	enginetest.AgentImage(t, c, "kici-agent-runagent:0.20.0", map[string]string{"kicikit.test": "runagent"})
	config := filepath.Join(t.TempDir(), "scalers.yaml")
	require.NoError(t, os.WriteFile(config, []byte(`version: 1
scalers:
  - name: runagent-test
    type: container
    maxAgents: 1
    labelSets:
      - labels: [linux]
        image: kici-agent-runagent:0.20.0
        imagePullPolicy: Never
`), 0o644))

	ctx, interrupt := context.WithCancel(context.Background())
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-config", config, "-id", "runagent-1", "-nft", "ip netns exec " + ns + " nft"}, w)
		w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	m := regexp.MustCompile(`^agent runagent-1: container ([0-9a-f]{12}), address (172\.30\.\d+\.\d+)\n$`).FindStringSubmatch(line)
	require.NotNil(t, m, line)
	_, err = c.ContainerInspect(context.Background(), m[1], client.ContainerInspectOptions{})
	require.NoError(t, err, "the agent's container runs")

	interrupt()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(time.Minute):
		t.Fatal("runagent did not end once interrupted")
	}
	_, err = c.ContainerInspect(context.Background(), m[1], client.ContainerInspectOptions{})
	assert.Error(t, err, "the container is gone")
}
