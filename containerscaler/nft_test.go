package containerscaler

import (
	"errors"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const wantTable = `add table ip kici
add chain ip kici forward { type filter hook forward priority 0; policy accept; }
add chain ip kici input { type filter hook input priority 0; policy accept; }
add chain ip kici output { type filter hook output priority 0; policy accept; }
add map ip kici agent-forward-addrs { type ipv4_addr : verdict; }
add map ip kici agent-input-addrs { type ipv4_addr : verdict; }
add chain ip kici agent-forward { type filter hook forward priority 0; policy accept; }
flush chain ip kici agent-forward
add rule ip kici agent-forward ip saddr vmap @agent-forward-addrs
add chain ip kici agent-input { type filter hook input priority 0; policy accept; }
flush chain ip kici agent-input
add rule ip kici agent-input ip saddr vmap @agent-input-addrs
`

func TestScripts(t *testing.T) {
	t.Parallel()
	assert.Equal(t, wantTable, tableScript())

	iso := agentspawn.Isolation{
		Addr:    netip.MustParseAddr("172.30.0.5"),
		Forward: []string{"ip saddr 172.30.0.5 ip daddr 172.30.0.1 accept", "ip saddr 172.30.0.5 drop"},
		Input:   []string{"ip saddr 172.30.0.5 drop"},
	}
	assert.Equal(t, wantTable+`add chain ip kici agent-forward-172.30.0.5
flush chain ip kici agent-forward-172.30.0.5
add rule ip kici agent-forward-172.30.0.5 ip saddr 172.30.0.5 ip daddr 172.30.0.1 accept
add rule ip kici agent-forward-172.30.0.5 ip saddr 172.30.0.5 drop
add element ip kici agent-forward-addrs { 172.30.0.5 : jump agent-forward-172.30.0.5 }
add chain ip kici agent-input-172.30.0.5
flush chain ip kici agent-input-172.30.0.5
add rule ip kici agent-input-172.30.0.5 ip saddr 172.30.0.5 drop
add element ip kici agent-input-addrs { 172.30.0.5 : jump agent-input-172.30.0.5 }
`, applyScript(iso))

	assert.Equal(t, `add table ip kici
add map ip kici agent-forward-addrs { type ipv4_addr : verdict; }
add map ip kici agent-input-addrs { type ipv4_addr : verdict; }
add chain ip kici agent-forward-172.30.0.9
add element ip kici agent-forward-addrs { 172.30.0.9 : jump agent-forward-172.30.0.9 }
delete element ip kici agent-forward-addrs { 172.30.0.9 }
flush chain ip kici agent-forward-172.30.0.9
delete chain ip kici agent-forward-172.30.0.9
add chain ip kici agent-input-172.30.0.9
add element ip kici agent-input-addrs { 172.30.0.9 : jump agent-input-172.30.0.9 }
delete element ip kici agent-input-addrs { 172.30.0.9 }
flush chain ip kici agent-input-172.30.0.9
delete chain ip kici agent-input-172.30.0.9
delete rule ip kici forward handle 53
delete rule ip kici input handle 55
`, removeScript([]netip.Addr{netip.MustParseAddr("172.30.0.9")}, []legacyRule{{"forward", 53}, {"input", 55}}))
}

// TestParseRuleset reads a listing nft 1.0.6 wrote of a table holding three
// addresses' rules of the backend's layout, a chain left without its map
// entry, and rules of the orchestrator's layout: per address, per subnet,
// per interface, and with a wildcard interface.
func TestParseRuleset(t *testing.T) {
	t.Parallel()
	out, err := os.ReadFile("testdata/ruleset.json")
	require.NoError(t, err)
	rs, err := parseRuleset(out)
	require.NoError(t, err)
	a := netip.MustParseAddr
	assert.Equal(t, map[netip.Addr]int{a("172.30.0.5"): 11, a("172.30.0.9"): 11, a("10.1.0.4"): 11, a("172.30.0.11"): 1}, rs.rules)
	assert.Equal(t, map[string][]legacyRule{
		"172.30.0.7": {{"forward", 54}, {"forward", 53}, {"input", 56}, {"input", 55}},
		"172.30.0.8": {{"forward", 61}},
		"tap-ab12":   {{"forward", 60}},
	}, rs.legacy)

	addrs, legacy, n := rs.stale(map[string]bool{"172.30.0.5": true})
	assert.Equal(t, []netip.Addr{a("172.30.0.9"), a("172.30.0.11")}, addrs)
	assert.Equal(t, []legacyRule{{"forward", 53}, {"forward", 54}, {"forward", 61}, {"input", 55}, {"input", 56}}, legacy)
	assert.Equal(t, 11+1+4+1, n)

	addrs, legacy, n = rs.stale(map[string]bool{"172.30.0.5": true, "172.30.0.9": true, "172.30.0.11": true, "172.30.0.7": true, "172.30.0.8": true})
	assert.Empty(t, addrs)
	assert.Empty(t, legacy)
	assert.Zero(t, n)
}

func TestParseRulesetRefuses(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "{", `{"nftables": 3}`} {
		_, err := parseRuleset([]byte(in))
		assert.Error(t, err, in)
	}
	rs, err := parseRuleset([]byte(`{"nftables": [{"map": {"name": "agent-forward-addrs", "elem": [3, ["x"], ["not-an-address", {}]]}}]}`))
	require.NoError(t, err)
	assert.Empty(t, rs.rules)
}

func TestNftProbe(t *testing.T) {
	t.Parallel()
	sh := func(script string) nftRunner { return nftRunner{argv: []string{"sh", "-c", script, "nft"}} }
	tests := []struct {
		name   string
		runner nftRunner
		want   Reason
		text   string
	}{
		{"missing", nftRunner{argv: []string{"/nonexistent/nft"}}, ErrNftMissing, "nftables binary not found at /usr/sbin/nft. The orchestrator container image must include nftables (apk add nftables). Network isolation for agents cannot be established without nftables."},
		{"no privilege", sh(`echo "Error: Could not process rule: Operation not permitted" >&2; exit 1`), ErrNftDenied, "nftables operation denied -- missing NET_ADMIN capability. Start the orchestrator container with --cap-add=NET_ADMIN. Network isolation for agents requires this capability."},
		{"other", sh(`echo "Error: syntax error" >&2; exit 1`), ErrNft, "nftables validation failed: sh -c echo \"Error: syntax error\" >&2; exit 1 nft list tables: exit status 1: Error: syntax error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.runner.probe("linux")
			assert.ErrorIs(t, err, tt.want)
			assert.EqualError(t, err, tt.text)
			var ce *CommandError
			assert.True(t, errors.As(err, &ce))
		})
	}
	assert.NoError(t, sh("exit 0").probe("linux"))
}

// TestNftOutputBounded: what a runaway nft prints is cut, not kept whole.
func TestNftOutputBounded(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("head"); err != nil {
		t.Skip("no head")
	}
	r := nftRunner{argv: []string{"sh", "-c", `head -c 100000 /dev/zero | tr '\0' x; head -c 10000 /dev/zero | tr '\0' e >&2; exit 3`, "nft"}}
	_, err := r.run("")
	var ce *CommandError
	require.ErrorAs(t, err, &ce)
	assert.True(t, ce.Stderr == strings.Repeat("e", 4096), "stderr kept: %d bytes", len(ce.Stderr))
}
