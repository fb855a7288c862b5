package agentspawn

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestURLPortLikeNode reads testdata/urlport.json, the port node 20's URL
// parser gives host-access.ts's portOf for each URL (testdata/gen/urlport.mjs).
func TestURLPortLikeNode(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/urlport.json")
	require.NoError(t, err)
	var rows [][2]*string
	require.NoError(t, json.Unmarshal(raw, &rows))
	require.Greater(t, len(rows), 50)
	for _, row := range rows {
		url, want := *row[0], row[1]
		t.Run(url, func(t *testing.T) {
			t.Parallel()
			port, ok := urlPort(url)
			if want == nil {
				assert.False(t, ok, "port %q", port)
				return
			}
			assert.True(t, ok)
			assert.Equal(t, *want, port)
		})
	}
}

// TestHostAccess holds host-access.test.ts's resolveAgentHostAccess cases
// (at 0b46a9a) and the three of container-backend.test.ts, each row naming
// its test.
func TestHostAccess(t *testing.T) {
	t.Parallel()
	base := HostAccessInput{OrchestratorURL: "http://192.168.1.40:10143", Gateway: "172.30.0.1"}
	with := func(f func(*HostAccessInput)) HostAccessInput { in := base; f(&in); return in }
	tests := []struct {
		name string
		in   HostAccessInput
		want []string
	}{
		{"host-access: grants the orchestrator port and DNS on the gateway, and nothing else", base, []string{"172.30.0.1:53", "*:10143"}},
		{"host-access: folds in the host services the orchestrator directed the agent at",
			with(func(in *HostAccessInput) { in.HostServices = []string{"192.168.1.40:9000"} }),
			[]string{"172.30.0.1:53", "*:10143", "192.168.1.40:9000"}},
		{"host-access: does not repeat a host service that is already the orchestrator port",
			with(func(in *HostAccessInput) { in.HostServices = []string{"*:10143"} }),
			[]string{"172.30.0.1:53", "*:10143"}},
		{"host-access: reads the port out of a ws:// orchestrator URL",
			with(func(in *HostAccessInput) { in.OrchestratorURL = "ws://host:4319" }),
			[]string{"172.30.0.1:53", "*:4319"}},
		{"host-access: falls back to the scheme port when the URL names none",
			with(func(in *HostAccessInput) { in.OrchestratorURL = "https://orch.example.com" }),
			[]string{"172.30.0.1:53", "*:443"}},
		{"host-access: still grants DNS when the orchestrator URL cannot be parsed",
			with(func(in *HostAccessInput) { in.OrchestratorURL = "not a url" }),
			[]string{"172.30.0.1:53"}},
		{"host-access: takes the label set at its word and adds nothing",
			with(func(in *HostAccessInput) {
				in.Policy = &scalerconfig.NetworkPolicy{HostAccess: []string{"10.98.0.0/24:443"}}
			}),
			[]string{"10.98.0.0/24:443"}},
		{"host-access: honours an empty policy as \"reach nothing on the host\"",
			with(func(in *HostAccessInput) { in.Policy = &scalerconfig.NetworkPolicy{HostAccess: []string{}} }),
			[]string{}},
		{"host-access: ignores a policy that sets only the egress fields",
			with(func(in *HostAccessInput) {
				in.Policy = &scalerconfig.NetworkPolicy{DenyAll: true, Allowlist: []string{"10.0.0.0/8"}}
			}),
			[]string{"172.30.0.1:53", "*:10143"}},
		{"container-backend: narrows host reachability to the orchestrator port and DNS by default",
			HostAccessInput{OrchestratorURL: "http://localhost:4000", Gateway: IsolatedNetworkGateway},
			[]string{"172.30.0.1:53", "*:4000"}},
		{"container-backend: applies a label set hostAccess verbatim",
			HostAccessInput{OrchestratorURL: "http://localhost:4000", Gateway: IsolatedNetworkGateway,
				Policy: &scalerconfig.NetworkPolicy{HostAccess: []string{"192.168.1.40:5000"}}},
			[]string{"192.168.1.40:5000"}},
		{"container-backend: folds the orchestrator host services into the default",
			HostAccessInput{OrchestratorURL: "http://localhost:4000", Gateway: IsolatedNetworkGateway,
				HostServices: []string{"192.168.1.40:9000"}},
			[]string{"172.30.0.1:53", "*:4000", "192.168.1.40:9000"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, HostAccess(tt.in))
		})
	}
}

// TestIPv4RefusedEmpty: a host of no labels, or of empty ones, is no
// number and so no address to refuse; the callers refuse an empty host
// before they ask, and ipv4Refused must not fail on one either.
func TestIPv4RefusedEmpty(t *testing.T) {
	t.Parallel()
	assert.True(t, ipv4Refused("1.18446744073709551617"), "a number past 2^64 does not wrap")
	for _, host := range []string{"", ".", ".."} {
		t.Run(strconv.Quote(host), func(t *testing.T) {
			t.Parallel()
			assert.False(t, ipv4Refused(host))
		})
	}
}
