package containerscaler

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEngineFor(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	given, err := client.New(client.WithHost("unix:///nonexistent.sock"))
	require.NoError(t, err)
	tests := []struct {
		name       string
		o          Options
		s          scalerconfig.Scaler
		wantHost   string
		wantSocket string
	}{
		{"given engine, scaler's socket", Options{Engine: given}, scalerconfig.Scaler{SocketPath: str("/run/x.sock")}, "unix:///nonexistent.sock", "/run/x.sock"},
		{"given engine and socket", Options{Engine: given, SocketPath: "/run/y.sock"}, scalerconfig.Scaler{SocketPath: str("/run/x.sock")}, "unix:///nonexistent.sock", "/run/y.sock"},
		{"given engine, remote host", Options{Engine: given}, scalerconfig.Scaler{Host: str("tcp://h:2376"), SocketPath: str("/run/x.sock")}, "unix:///nonexistent.sock", ""},
		{"remote host keeps its port", Options{}, scalerconfig.Scaler{Host: str("tcp://builder.internal:2376"), SocketPath: str("/run/x.sock")}, "tcp://builder.internal:2376", ""},
		{"socket path", Options{}, scalerconfig.Scaler{SocketPath: str("/run/podman/podman.sock")}, "unix:///run/podman/podman.sock", "/run/podman/podman.sock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			engine, socket, err := engineFor(tt.o, &tt.s)
			require.NoError(t, err)
			assert.Equal(t, tt.wantHost, engine.DaemonHost())
			assert.Equal(t, tt.wantSocket, socket)
		})
	}
}

func TestEngineForBadHost(t *testing.T) {
	t.Parallel()
	host := "no scheme"
	_, _, err := engineFor(Options{}, &scalerconfig.Scaler{Host: &host})
	assert.Error(t, err)
}

// TestProbeSocket probes rootless Podman's socket under XDG_RUNTIME_DIR;
// the machine's own /var/run/docker.sock and /run/podman/podman.sock come
// first when this process may use them.
func TestProbeSocket(t *testing.T) {
	t.Parallel()
	if accessible("/var/run/docker.sock") || accessible("/run/podman/podman.sock") {
		t.Skip("this machine has a runtime socket of its own, which the probe takes first")
	}
	dir := t.TempDir()
	sock := filepath.Join(dir, "podman", "podman.sock")
	require.NoError(t, os.MkdirAll(filepath.Dir(sock), 0o755))
	require.NoError(t, os.WriteFile(sock, nil, 0o600))
	env := []string{"HOME=/root", "XDG_RUNTIME_DIR=" + dir, "XDG_RUNTIME_DIR=/elsewhere"}
	assert.Equal(t, sock, probeSocket(scalerconfig.RuntimeAuto, env))
	assert.Equal(t, sock, probeSocket(scalerconfig.RuntimePodman, env))
	assert.Equal(t, "", probeSocket(scalerconfig.RuntimeDocker, env), "a docker hint keeps only Docker's socket")
	assert.Equal(t, "", probeSocket(scalerconfig.RuntimeAuto, []string{"XDG_RUNTIME_DIR="}))
	_, _, err := engineFor(Options{}, &scalerconfig.Scaler{Name: "linux", Runtime: scalerconfig.RuntimeDocker})
	assert.ErrorIs(t, err, ErrNoRuntime)
}
