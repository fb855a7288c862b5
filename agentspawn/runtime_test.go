package agentspawn

import (
	"strings"
	"testing"

	"github.com/moby/moby/api/types/container"
	"github.com/stretchr/testify/assert"
)

// TestRuntimeVolumeName: what node 20 answers for container-runtime.ts's
// runtimeVolumeName (at 0b46a9a5) on each id.
func TestRuntimeVolumeName(t *testing.T) {
	t.Parallel()
	tests := []struct{ id, want string }{
		{"sha256:mock", "kici-runtime-mock"}, // container-backend.test.ts's inspected image
		{"sha256:" + strings.Repeat("a", 64), "kici-runtime-" + strings.Repeat("a", 32)},
		{"quay.io/kici-dev/kici-agent:0.20.0", "kici-runtime-quay.io-kici-dev-kici-agent-0.20"},
		{"SHA256:abc", "kici-runtime-SHA256-abc"},
		{"sha256:sha256:x", "kici-runtime-sha256-x"},
		{"", "kici-runtime-"},
		{"é😀x", "kici-runtime----x"},
		{strings.Repeat("a", 31) + "😀", "kici-runtime-" + strings.Repeat("a", 31) + "-"},
		{strings.Repeat("a", 30) + "😀b", "kici-runtime-" + strings.Repeat("a", 30) + "--"},
		{"a_b.c-d e", "kici-runtime-a_b.c-d-e"},
		{"\xff\xfe", "kici-runtime---"},
		{"AZaz09", "kici-runtime-AZaz09"},
		{"@[`{/:", "kici-runtime-------"},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, RuntimeVolumeName(tt.id))
		})
	}
}

func TestRuntimeLayout(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "/opt/kici", RuntimeMount)
	assert.Equal(t, "/opt/kici/node/bin/node", AgentNode)
	assert.Equal(t, "/opt/kici/app/packages/agent/dist/server.js", AgentScript)
	// container-backend.test.ts, 'creates kici-agent-net network on startup
	// if not exists' and the nftables rules' gateway.
	assert.Equal(t, "kici-agent-net", IsolatedNetwork)
	assert.Equal(t, "172.30.0.0/16", IsolatedNetworkSubnet)
	assert.Equal(t, "172.30.0.1", IsolatedNetworkGateway)
}

func TestRuntimeInit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		labels map[string]string
		want   []string
	}{
		{"tini", map[string]string{"kici.runtime.init": "tini", "other": "x"}, []string{"/opt/kici/bin/tini", "-s", "--"}},
		{"no labels", nil, nil},
		{"no init label", map[string]string{"org.opencontainers.image.version": "0.20.0"}, nil},
		{"an init this release does not know", map[string]string{"kici.runtime.init": "dumb-init"}, nil},
		{"case matters", map[string]string{"kici.runtime.init": "Tini"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, RuntimeInit(tt.labels))
		})
	}
}

func TestRuntimeContainers(t *testing.T) {
	t.Parallel()
	const image, volume = "registry.example/kici-agent:0.20.0", "kici-runtime-0123456789abcdef0123456789abcdef"
	want := func(script string) RuntimeContainer {
		return RuntimeContainer{
			Config: container.Config{
				Image: image, User: "0:0", Cmd: []string{"sh", "-c", script},
				Labels: map[string]string{"kici-managed": "true"},
			},
			HostConfig: container.HostConfig{Binds: []string{volume + ":/kici-runtime-out"}},
		}
	}
	// The orchestrator's populator and probe commands, container-runtime.ts at 221047e.
	assert.Equal(t, want("set -e; cp -a /opt/kici/. /kici-runtime-out/; "+
		"test -x /kici-runtime-out/node/bin/node; "+
		"test -f /kici-runtime-out/app/packages/agent/dist/server.js; "+
		"touch /kici-runtime-out/.kici-runtime-complete"), RuntimePopulator(image, volume))
	assert.Equal(t, want("test -f /kici-runtime-out/.kici-runtime-complete"), RuntimeProbe(image, volume))
}
