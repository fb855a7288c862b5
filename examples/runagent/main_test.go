package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) { os.Exit(enginetest.Main(m)) }

// writeConfig writes the files of a scaler config under a folder of its
// own and returns the folder.
func writeConfig(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	return dir
}

// TestUsage: a usage error, a config that does not load and a job no label
// set serves each end the program with one line, before any Engine is
// dialled.
func TestUsage(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, map[string]string{"scalers.yaml": `version: 1
scalers:
  - name: local
    type: container
    maxAgents: 1
    labelSets:
      - labels: [linux]
        image: kici-agent:0.20.0
`, "bad.yaml": "version: 2\nscalers: []\n"})
	config := filepath.Join(dir, "scalers.yaml")
	tests := []struct {
		name   string
		args   []string
		status int
		stderr string
	}{
		{"unknown flag", []string{"-bogus"}, 2, "runagent: flag provided but not defined: -bogus (run with -h for usage)\n"},
		{"argument", []string{"-config", config, "extra"}, 2, `runagent: unexpected argument "extra" (run with -h for usage)` + "\n"},
		{"no config", nil, 2, "runagent: -config: no scaler config given (run with -h for usage)\n"},
		{"missing config", []string{"-config", filepath.Join(dir, "missing.yaml")}, 2, ""},
		{"refused config", []string{"-config", filepath.Join(dir, "bad.yaml")}, 2, ""},
		{"no route", []string{"-config", config, "-runs-on", "macos,arm64"}, 1, "runagent: No scaler backend matches requested labels [macos, arm64]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			assert.Equal(t, tt.status, run(context.Background(), tt.args, &stdout, &stderr))
			assert.Empty(t, stdout.String())
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line: %q", stderr.String())
			assert.True(t, strings.HasPrefix(stderr.String(), "runagent: "), stderr.String())
			if tt.stderr != "" {
				assert.Equal(t, tt.stderr, stderr.String())
			}
		})
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 0, run(context.Background(), []string{"-h"}, &stdout, &stderr))
	assert.True(t, strings.HasPrefix(stdout.String(), usage+"\n"), stdout.String())
	assert.Contains(t, stdout.String(), "-dir folder")
	assert.Empty(t, stderr.String())
}

// TestImageMissing: an agent image the Engine cannot pull is named, with
// the Engine and what to do.
func TestImageMissing(t *testing.T) {
	t.Parallel()
	c := enginetest.Engine(t)
	dir := writeConfig(t, map[string]string{"scalers.yaml": `version: 1
scalers:
  - name: runagent-missing
    type: container
    maxAgents: 1
    networkIsolation: false
    labelSets:
      - labels: [linux]
        image: 127.0.0.1:1/kici-agent:absent
`})
	var stdout, stderr bytes.Buffer
	status := run(context.Background(), []string{"-config", filepath.Join(dir, "scalers.yaml"), "-id", "runagent-missing"}, &stdout, &stderr)
	assert.Equal(t, 1, status)
	assert.Empty(t, stdout.String())
	msg := stderr.String()
	assert.Equal(t, 1, strings.Count(msg, "\n"), "one line: %q", msg)
	assert.True(t, strings.HasPrefix(msg, `runagent: the agent image "127.0.0.1:1/kici-agent:absent" is not on the Engine at `+c.DaemonHost()+" ("), msg)
	assert.True(t, strings.HasSuffix(msg, "put a stand-in there: go run ./internal/enginetest/cmd/agentimage 127.0.0.1:1/kici-agent:absent\n"), msg)
}

// TestRemoteHost: a scaler's host is the Engine its agents run on, whatever
// DOCKER_HOST says; the scaler comes from a drop-in.
func TestRemoteHost(t *testing.T) {
	c := enginetest.Engine(t)
	host := c.DaemonHost()
	image := "kici-agent-runagent-remote:0.20.0"
	enginetest.AgentImage(t, c, image, map[string]string{"kicikit.test": "runagent"})
	t.Setenv(client.EnvOverrideHost, "unix:///nonexistent.sock")
	dir := writeConfig(t, map[string]string{"scalers.yaml": `version: 1
scalers:
  - name: runagent-local
    type: container
    maxAgents: 1
    labelSets:
      - labels: [linux]
        image: kici-agent:0.20.0
`, "scalers.d/remote.yaml": `scalers:
  - name: runagent-remote
    type: container
    maxAgents: 1
    host: ` + host + `
    networkIsolation: false
    labelSets:
      - labels: [linux, remote]
        image: ` + image + `
        imagePullPolicy: Never
`})
	args := []string{"-config", filepath.Join(dir, "scalers.yaml"), "-dir", filepath.Join(dir, "scalers.d"), "-runs-on", "linux,remote", "-id", "runagent-remote"}
	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	out, w := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, args, w, &stderr)
		w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err, stderr.String())
	m := regexp.MustCompile(`^agent runagent-remote of scaler "runagent-remote": container ([0-9a-f]{12}), no address \(no network isolation\), on (.*)\n$`).FindStringSubmatch(line)
	require.NotNil(t, m, line)
	assert.Equal(t, host, m[2])
	_, err = c.ContainerInspect(context.Background(), m[1], client.ContainerInspectOptions{})
	require.NoError(t, err, "the agent's container runs on the scaler's host")

	interrupt()
	select {
	case status := <-done:
		require.Equal(t, 0, status, stderr.String())
	case <-time.After(time.Minute):
		t.Fatal("runagent did not end once interrupted")
	}
	_, err = c.ContainerInspect(context.Background(), m[1], client.ContainerInspectOptions{})
	assert.Error(t, err, "the container is gone")
}
