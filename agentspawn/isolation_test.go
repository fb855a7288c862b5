package agentspawn_test

import (
	"net/netip"
	"testing"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlanIsolation(t *testing.T) {
	t.Parallel()
	addr := netip.MustParseAddr("172.30.0.5")
	const from = "ip saddr 172.30.0.5 "
	drops := []string{
		from + "ip daddr 10.0.0.0/8 drop",
		from + "ip daddr 172.16.0.0/12 drop",
		from + "ip daddr 192.168.0.0/16 drop",
		from + "ip daddr 169.254.0.0/16 drop",
	}
	gateway := from + "ip daddr 172.30.0.1 accept"
	established := from + "ct state established,related accept"
	tests := []struct {
		name          string
		in            agentspawn.IsolationInput
		forward, inpt []string
	}{
		{
			// The orchestrator's default for ws://localhost:4000, as the
			// research notes' nft -c check of 0.15.0's rules lists it.
			name: "default host access",
			in: agentspawn.IsolationInput{Addr: addr, HostAccess: agentspawn.HostAccess(agentspawn.HostAccessInput{
				OrchestratorURL: "ws://localhost:4000/ws", Gateway: agentspawn.IsolatedNetworkGateway,
			})},
			forward: append([]string{gateway}, drops...),
			inpt: []string{
				established,
				from + "ip daddr 172.30.0.1 tcp dport 53 accept",
				from + "ip daddr 172.30.0.1 udp dport 53 accept",
				from + "tcp dport 4000 accept",
				from + "udp dport 4000 accept",
				from + "drop",
			},
		},
		{
			name: "allowlist before the drops, denyAll last",
			in: agentspawn.IsolationInput{Addr: addr, Policy: &scalerconfig.NetworkPolicy{
				Allowlist: []string{"10.1.2.0/24", "192.168.7.9", "010.0.0.1/08"}, DenyAll: true,
			}},
			forward: append(append([]string{gateway,
				from + "ip daddr 10.1.2.0/24 accept",
				from + "ip daddr 192.168.7.9 accept",
				from + "ip daddr 10.0.0.0/8 accept",
			}, drops...), from+"drop"),
			inpt: []string{established, from + "drop"},
		},
		{
			name:    "host access: any address and port, a range, a bare port",
			in:      agentspawn.IsolationInput{Addr: addr, HostAccess: []string{"*", "10.9.8.7/16:*", " 0443 "}},
			forward: append([]string{gateway}, drops...),
			inpt: []string{
				established,
				from + "accept",
				from + "ip daddr 10.9.0.0/16 accept",
				from + "tcp dport 443 accept",
				from + "udp dport 443 accept",
				from + "drop",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := agentspawn.PlanIsolation(tt.in)
			require.NoError(t, err)
			assert.Equal(t, agentspawn.Isolation{Addr: addr, Forward: tt.forward, Input: tt.inpt}, got)
		})
	}
}

func TestPlanIsolationRefuses(t *testing.T) {
	t.Parallel()
	addr := netip.MustParseAddr("172.30.0.5")
	tests := []struct {
		name, field, entry, msg string
		in                      agentspawn.IsolationInput
	}{
		{"no address", "addr", "invalid IP", "agent address invalid IP is not an IPv4 address",
			agentspawn.IsolationInput{}},
		{"IPv6 address", "addr", "fd00::5", "agent address fd00::5 is not an IPv4 address",
			agentspawn.IsolationInput{Addr: netip.MustParseAddr("fd00::5")}},
		{"host name in the allowlist", "allowlist", "registry.internal",
			`allowlist entry "registry.internal" is not an IPv4 address or an IPv4 CIDR`,
			agentspawn.IsolationInput{Addr: addr, Policy: &scalerconfig.NetworkPolicy{Allowlist: []string{"10.0.0.0/8", "registry.internal"}}}},
		{"host access port out of range", "hostAccess", "*:70000",
			`hostAccess entry "*:70000" has port 70000, outside 1-65535`,
			agentspawn.IsolationInput{Addr: addr, HostAccess: []string{"53", "*:70000"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := agentspawn.PlanIsolation(tt.in)
			var ie *agentspawn.IsolationError
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, tt.field, ie.Field)
			assert.Equal(t, tt.entry, ie.Entry)
			assert.EqualError(t, err, tt.msg)
			assert.Equal(t, agentspawn.Isolation{}, got)
		})
	}
}
