package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/enginetest"
)

func TestMain(m *testing.M) { os.Exit(enginetest.Main(m)) }

func TestUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args           []string
		status         int
		stdout, stderr string
	}{
		{nil, 2, "", "agentimage: no image given (run with -h for usage)\n"},
		{[]string{"-x"}, 2, "", "agentimage: flag provided but not defined: -x (run with -h for usage)\n"},
		{[]string{"-h"}, 0, usage + "\n", ""},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, tt.status, run(tt.args, &stdout, &stderr), tt.args)
		assert.Equal(t, tt.stdout, stdout.String(), tt.args)
		assert.Equal(t, tt.stderr, stderr.String(), tt.args)
	}
}

// TestPut: the stand-in is an agent image, under each name given, on the
// Engine at DOCKER_HOST.
func TestPut(t *testing.T) {
	t.Parallel()
	c := enginetest.Engine(t)
	refs := []string{"kicikit-agentimage-test:a", "127.0.0.1:1/kici-agent:agentimage-test"}
	t.Cleanup(func() {
		for _, ref := range refs {
			_, err := c.ImageRemove(context.Background(), ref, client.ImageRemoveOptions{Force: true})
			assert.NoError(t, err)
		}
	})
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(refs, &stdout, &stderr), stderr.String())
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	require.Len(t, lines, 2, stdout.String())
	for i, ref := range refs {
		img, err := c.ImageInspect(context.Background(), ref)
		require.NoError(t, err)
		assert.Equal(t, ref+": "+img.ID+", a stand-in agent image (fakeagent)", lines[i])
		assert.Equal(t, []string{enginetest.AgentNode, enginetest.AgentScript}, img.Config.Cmd)
		assert.Equal(t, map[string]string{label: "fakeagent"}, img.Config.Labels)
	}
}

func TestPutRefused(t *testing.T) {
	t.Parallel()
	enginetest.Engine(t)
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 1, run([]string{"Not A Reference"}, &stdout, &stderr))
	assert.Empty(t, stdout.String())
	assert.Regexp(t, `^agentimage: the Engine at \S+: importing Not A Reference: .*\n$`, stderr.String())
}
