package agentspawn

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRuntimeVolumeName: what node 20 answers for container-runtime.ts's
// runtimeVolumeName (at 0b46a9a5) on each id.
func TestRuntimeVolumeName(t *testing.T) {
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
			assert.Equal(t, tt.want, RuntimeVolumeName(tt.id))
		})
	}
}

func TestRuntimeLayout(t *testing.T) {
	assert.Equal(t, "/opt/kici", RuntimeMount)
	assert.Equal(t, "/opt/kici/node/bin/node", AgentNode)
	assert.Equal(t, "/opt/kici/app/packages/agent/dist/server.js", AgentScript)
	// container-backend.test.ts, 'creates kici-agent-net network on startup
	// if not exists' and the nftables rules' gateway.
	assert.Equal(t, "kici-agent-net", IsolatedNetwork)
	assert.Equal(t, "172.30.0.0/16", IsolatedNetworkSubnet)
	assert.Equal(t, "172.30.0.1", IsolatedNetworkGateway)
}
