package containerscaler

import (
	"context"
	"errors"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestErrorTexts(t *testing.T) {
	t.Parallel()
	cause := errors.New("runtime copy exited 1: cp: can't stat '/opt/kici/.': No such file or directory")
	tests := []struct {
		err  *Error
		want string
	}{
		{&Error{Reason: ErrNoRuntime}, "No container runtime found. Install Docker or Podman, or configure host."},
		{&Error{Reason: ErrNetworkRace}, "Failed to find isolated network kici-agent-net after 409 conflict"},
		{&Error{Reason: ErrAgentExists, Scaler: "linux", Agent: "a1"}, `Agent a1 is already provisioned by container backend "linux"`},
		{&Error{Reason: ErrTornDown, Agent: "scaler-container-1"}, "Agent scaler-container-1 was torn down while its container was being provisioned"},
		{&Error{Reason: ErrTimeout, Timeout: 300000}, "scaler spawn timed out after 300000ms"},
		{&Error{Reason: ErrNoAddress, Container: "0123456789abcdef0123"}, "Agent container 0123456789ab has no address on kici-agent-net, so its network isolation rules cannot be applied"},
		{&Error{Reason: ErrNoAddress, Container: "short"}, "Agent container short has no address on kici-agent-net, so its network isolation rules cannot be applied"},
		{&Error{Reason: ErrRuntimeVolume, Image: "reg/kici-agent:0.20.0", Err: cause}, "Failed to materialize the KiCI runtime from reg/kici-agent:0.20.0: runtime copy exited 1: cp: can't stat '/opt/kici/.': No such file or directory. The image must carry /opt/kici/node and /opt/kici/app."},
		{&Error{Reason: ErrNft}, "nftables validation failed: <nil>"},
		{&Error{Reason: ErrNetworkIPv6}, "Isolated network kici-agent-net has IPv6 enabled: its agents would reach over IPv6 what their nftables rules drop. Remove it (docker network rm kici-agent-net) and the backend creates it again, IPv4 only."},
		{&Error{Reason: ErrNetworkDriver, Driver: "macvlan"}, `Isolated network kici-agent-net uses the "macvlan" driver: network isolation binds each agent to its port on a bridge. Remove it (docker network rm kici-agent-net) and the backend creates it again as a bridge.`},
		{&Error{Reason: ErrNetworkSubnet, Subnet: netip.MustParsePrefix("10.9.0.0/16"), Gateway: netip.MustParseAddr("10.9.0.1")}, "Isolated network kici-agent-net has the subnet 10.9.0.0/16 with the gateway 10.9.0.1: network isolation's rules are written for 172.30.0.0/16 and its gateway 172.30.0.1. Remove it (docker network rm kici-agent-net) and the backend creates it again."},
		{&Error{Reason: ErrNetworkSubnet, Subnet: netip.MustParsePrefix("172.30.0.0/24")}, "Isolated network kici-agent-net has the subnet 172.30.0.0/24: network isolation's rules are written for 172.30.0.0/16 and its gateway 172.30.0.1. Remove it (docker network rm kici-agent-net) and the backend creates it again."},
		{&Error{Reason: ErrAddressTaken, Container: "0123456789abcdef", Holder: "fedcba987654321", Addr: netip.MustParseAddr("172.30.0.9")}, "Agent container 0123456789ab cannot take the rules of 172.30.0.9: container fedcba987654 holds that address on kici-agent-net"},
		{&Error{Reason: ErrAddressLost, Container: "0123456789abcdef", Addr: netip.MustParseAddr("172.30.0.9")}, "Agent container 0123456789ab no longer holds 172.30.0.9 on kici-agent-net: it stopped while its network isolation rules were written"},
		{&Error{Reason: ErrNftMissing, Nft: []string{"ip", "netns", "exec", "ns1", "nft"}}, "nftables binary not found at ip netns exec ns1 nft. The orchestrator container image must include nftables (apk add nftables). Network isolation for agents cannot be established without nftables."},
		{&Error{Reason: ErrNftMissing, Nft: []string{"nft"}}, "nftables binary not found at /usr/sbin/nft. The orchestrator container image must include nftables (apk add nftables). Network isolation for agents cannot be established without nftables."},
		{&Error{Reason: 0, Scaler: "linux"}, `Container backend "linux" failed: container backend failure`},
	}
	for _, tt := range tests {
		t.Run(tt.err.Reason.Error(), func(t *testing.T) {
			assert.EqualError(t, tt.err, tt.want)
			assert.ErrorIs(t, tt.err, tt.err.Reason)
		})
	}
}

func TestErrorIs(t *testing.T) {
	t.Parallel()
	timeout := &Error{Reason: ErrTimeout}
	assert.ErrorIs(t, timeout, context.DeadlineExceeded)
	assert.ErrorIs(t, timeout, ErrTimeout)
	assert.NotErrorIs(t, timeout, ErrTornDown)
	assert.NotErrorIs(t, &Error{Reason: ErrTornDown}, context.DeadlineExceeded)
	cause := errors.New("x")
	assert.ErrorIs(t, &Error{Reason: ErrRuntimeVolume, Err: cause}, cause)
	for r := ErrNoRuntime; r <= ErrAddressLost; r++ {
		assert.NotEqual(t, "container backend failure", r.Error(), "reason %d has words of its own", r)
	}
}
