package containerscaler

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"testing"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/kicikit/kicikit/agentspawn"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNetworkCreateBody: the body of POST /networks/create is the
// orchestrator's (ensureIsolatedNetwork, at 221047e), field for field.
func TestNetworkCreateBody(t *testing.T) {
	t.Parallel()
	o := networkCreateOptions()
	body, err := json.Marshal(network.CreateRequest{
		Name: "kici-agent-net", Driver: o.Driver, IPAM: o.IPAM, Labels: o.Labels,
	})
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(body, &got))
	assert.Equal(t, "kici-agent-net", got["Name"])
	assert.Equal(t, "bridge", got["Driver"])
	assert.Equal(t, map[string]any{"kici-managed": "true"}, got["Labels"])
	assert.Equal(t, []any{map[string]any{"Subnet": "172.30.0.0/16", "Gateway": "172.30.0.1"}}, got["IPAM"].(map[string]any)["Config"])
	assert.False(t, o.Internal)
	assert.Nil(t, o.Options)
}

func TestLostCreateRace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want bool
	}{
		{cerrdefs.ErrConflict.WithMessage("network with name kici-agent-net already exists"), true},
		{fmt.Errorf("wrapped: %w", cerrdefs.ErrPermissionDenied.WithMessage("Pool overlaps with other one on this address space")), true},
		{cerrdefs.ErrPermissionDenied.WithMessage("operation not permitted"), false},
		{errors.New("Pool overlaps with other one on this address space"), false},
		{cerrdefs.ErrNotFound, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, lostCreateRace(tt.err), tt.err.Error())
	}
}

func TestBridgeName(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "br-0123456789ab", bridgeName("0123456789abcdef", nil))
	assert.Equal(t, "kx0", bridgeName("0123456789abcdef", map[string]string{"com.docker.network.bridge.name": "kx0"}))
}

func TestAddressOf(t *testing.T) {
	t.Parallel()
	assert.False(t, addressOf(nil).IsValid())
	assert.False(t, addressOf(&container.NetworkSettings{}).IsValid(), "not on the isolated network")
	a := netip.MustParseAddr("172.30.0.9")
	ns := &container.NetworkSettings{Networks: map[string]*network.EndpointSettings{agentspawn.IsolatedNetwork: {IPAddress: a}}}
	assert.Equal(t, a, addressOf(ns))
}
