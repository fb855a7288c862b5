package containerscaler

import (
	"errors"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseTable reads a listing nft 1.0.6 wrote of a table holding three
// owners' rules, a chain no owner holds, and rules of the orchestrator's
// layout: per address, per subnet, per interface, and with a wildcard
// interface (testdata/table.json).
func TestParseTable(t *testing.T) {
	t.Parallel()
	out, err := os.ReadFile("testdata/table.json")
	require.NoError(t, err)
	st, err := parseTable(out)
	require.NoError(t, err)
	a := netip.MustParseAddr
	assert.Equal(t, map[netip.Addr]string{a("172.30.0.5"): "3f2a1b9c0d4e5f6", a("172.30.0.9"): "77aa00bb11cc22d",
		a("10.1.0.4"): "0000000000000ab"}, st.owners)
	assert.Equal(t, map[netip.Addr]int{a("172.30.0.5"): 11, a("172.30.0.9"): 11, a("10.1.0.4"): 11, a("172.30.0.11"): 1}, st.rules)
	assert.Equal(t, map[string][]legacyRule{
		"172.30.0.7": {{"forward", 55}, {"forward", 56}, {"input", 57}, {"input", 58}},
		"tap-ab12":   {{"forward", 60}},
		"172.30.0.8": {{"forward", 62}},
	}, st.legacy)
}

// TestParseBindings reads a listing nft 1.0.6 wrote of the bridge table's
// bindings, one of whose ports exists (lo) and is named.
func TestParseBindings(t *testing.T) {
	t.Parallel()
	out, err := os.ReadFile("testdata/bindings.json")
	require.NoError(t, err)
	list, err := parseBindings(out)
	require.NoError(t, err)
	a := netip.MustParseAddr
	assert.Equal(t, []boundPort{
		{"42", "02:42:ac:1e:00:07", a("10.1.0.4")}, {"40", "02:42:ac:1e:00:05", a("172.30.0.5")},
		{"41", "02:42:ac:1e:00:06", a("172.30.0.9")}, {"lo", "02:42:ac:1e:00:0c", a("172.30.0.12")},
	}, list)
	assert.Equal(t, `"lo" . 02:42:ac:1e:00:0c . 172.30.0.12`, list[3].key())
}

func TestParseRefuses(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "{", `{"nftables": 3}`} {
		_, err := parseTable([]byte(in))
		assert.Error(t, err, in)
		_, err = parseBindings([]byte(in))
		assert.Error(t, err, in)
	}
	st, err := parseTable([]byte(`{"nftables": [{"map": {"name": "agent-owners", "elem": [3, ["x"], ["not-an-address", "a"], ["::1", "b"]]}}]}`))
	require.NoError(t, err)
	assert.Empty(t, st.owners)
	list, err := parseBindings([]byte(`{"nftables": [{"set": {"name": "agent-bindings", "elem": [3, {"concat": ["1", "m"]},
		{"concat": ["a\"b", "m", "172.30.0.5"]}, {"concat": ["", "m", "172.30.0.6"]}, {"concat": ["1", "m", "::1"]}]}}]}`))
	require.NoError(t, err)
	assert.Empty(t, list, "what cannot be written back is not read")
}

// TestSweepScript: what the sweep removes. An owner's rules whose
// container does not hold their address, chains and bindings with no
// owner, and the orchestrator's rules of isolated-network addresses no
// container holds.
func TestSweepScript(t *testing.T) {
	t.Parallel()
	out, err := os.ReadFile("testdata/table.json")
	require.NoError(t, err)
	st, err := parseTable(out)
	require.NoError(t, err)
	out, err = os.ReadFile("testdata/bindings.json")
	require.NoError(t, err)
	ports, err := parseBindings(out)
	require.NoError(t, err)
	a := netip.MustParseAddr
	held := map[netip.Addr]string{a("172.30.0.5"): "3f2a1b9c0d4e5f6", a("172.30.0.9"): "someone-else00", a("172.30.0.7"): "x"}
	s, n := sweepScript(st, ports, held)
	// 172.30.0.9's owner no longer holds it; 10.1.0.4's owner is gone;
	// 172.30.0.11 and 172.30.0.12 have no owner; 172.30.0.8's legacy rule
	// has no holder; 172.30.0.7 has one.
	assert.Equal(t, 11+11+1+1, n)
	for _, line := range []string{
		`add element ip kici agent-owners { 172.30.0.9 : "77aa00bb11cc22d" }`,
		`add element ip kici agent-owners { 10.1.0.4 : "0000000000000ab" }`,
		`create element ip kici agent-owners { 172.30.0.11 : "-" }`,
		`delete element bridge kici agent-bindings { "lo" . 02:42:ac:1e:00:0c . 172.30.0.12 }`,
		`delete rule ip kici forward handle 62`,
	} {
		assert.Contains(t, s, line+"\n")
	}
	for _, no := range []string{"172.30.0.5 ", "handle 55", "handle 60"} {
		assert.NotContains(t, s, no)
	}

	held = map[netip.Addr]string{}
	for addr, o := range st.owners {
		held[addr] = o
	}
	held[a("172.30.0.8")], held[a("172.30.0.7")] = "x", "x"
	st.rules = map[netip.Addr]int{a("172.30.0.5"): 11, a("172.30.0.9"): 11, a("10.1.0.4"): 11}
	_, n = sweepScript(st, ports[:3], held)
	assert.Equal(t, -1, n, "nothing to sweep")
}

// TestScriptsOnNft runs the scripts on nft, in a namespace of the test's
// own: an address has one owner at a time; another's bind fails whole; a
// release removes only its owner's rules; a takeover swaps owners in one
// transaction.
func TestScriptsOnNft(t *testing.T) {
	t.Parallel()
	ns := enginetest.Netns(t)
	n := nftRunner{argv: []string{"ip", "netns", "exec", ns, "nft"}}
	list := func() string {
		out, err := n.run("", "list", "ruleset")
		require.NoError(t, err)
		return string(out)
	}
	addr := netip.MustParseAddr("172.30.0.5")
	iso, err := agentspawn.PlanIsolation(agentspawn.IsolationInput{Addr: addr})
	require.NoError(t, err)
	mine := binding{addr: addr, port: 40, mac: net.HardwareAddr{2, 0x42, 0xac, 0x1e, 0, 5}}
	theirs := binding{addr: addr, port: 41, mac: net.HardwareAddr{2, 0x42, 0xac, 0x1e, 0, 6}}
	transact := func(f func(*script)) error {
		var s script
		s.table("br-test")
		f(&s)
		return n.transact(s.String())
	}

	b := &Backend{nft: n}
	st, err := b.listTable()
	require.NoError(t, err, "a table that does not exist lists as empty")
	assert.Empty(t, st.owners)
	ports, err := b.listBindings()
	require.NoError(t, err)
	assert.Empty(t, ports)
	_, err = (&Backend{nft: nftRunner{argv: []string{"ip", "netns", "exec", ns + "-missing", "nft"}}}).listTable()
	assert.ErrorContains(t, err, "list table ip kici: ", "a namespace that does not exist is no empty table")

	require.NoError(t, transact(func(s *script) { s.bind("owner-a", mine, iso) }))
	require.NoError(t, transact(func(s *script) { s.bind("owner-a", mine, iso) }), "binding again is no change")
	before := list()
	assert.Contains(t, before, `172.30.0.5 : "owner-a"`)
	assert.Contains(t, before, "40 . 02:42:ac:1e:00:05 . 172.30.0.5")
	ports, err = b.listBindings()
	require.NoError(t, err)
	assert.Equal(t, []boundPort{mine.bound()}, ports)

	err = transact(func(s *script) { s.bind("owner-b", theirs, iso) })
	assert.ErrorContains(t, err, "File exists", "another owner's bind")
	err = transact(func(s *script) { s.release("owner-b", addr, []boundPort{theirs.bound()}, false) })
	assert.Error(t, err, "another owner's release")
	err = transact(func(s *script) { s.release("", addr, nil, false) })
	assert.Error(t, err, "a release of an address with no owner")
	assert.Equal(t, before, list(), "nothing changed")

	require.NoError(t, transact(func(s *script) {
		s.release("owner-a", addr, []boundPort{mine.bound()}, true)
		s.bind("owner-b", theirs, iso)
	}), "a takeover")
	after := list()
	assert.Contains(t, after, `172.30.0.5 : "owner-b"`)
	assert.Contains(t, after, "41 . 02:42:ac:1e:00:06 . 172.30.0.5")
	assert.NotContains(t, after, "02:42:ac:1e:00:05")
	assert.Contains(t, after, "ip saddr 172.30.0.5 ip daddr 10.0.0.0/8 drop")

	require.NoError(t, transact(func(s *script) { s.release("owner-b", addr, []boundPort{theirs.bound()}, false) }))
	require.NoError(t, transact(func(s *script) { s.release("owner-b", addr, []boundPort{theirs.bound()}, false) }), "twice is no error")
	assert.NotContains(t, list(), "172.30.0.5")
}

func TestNftProbe(t *testing.T) {
	t.Parallel()
	sh := func(script string) nftRunner { return nftRunner{argv: []string{"sh", "-c", script, "nft"}} }
	const missingTail = ". The orchestrator container image must include nftables (apk add nftables). " +
		"Network isolation for agents cannot be established without nftables."
	tests := []struct {
		name   string
		runner nftRunner
		want   Reason
		text   string
	}{
		{"missing", nftRunner{argv: []string{"nft-that-is-not-installed"}}, ErrNftMissing, "nftables binary not found at nft-that-is-not-installed" + missingTail},
		{"missing by path", nftRunner{argv: []string{"/nonexistent/nft"}}, ErrNftMissing, "nftables binary not found at /nonexistent/nft" + missingTail},
		{"missing behind ip netns exec", sh(`echo 'exec of "nft" failed: No such file or directory' >&2; exit 255`), ErrNftMissing, ""},
		{"missing behind sudo", sh(`echo 'sudo: nft: command not found' >&2; exit 1`), ErrNftMissing, ""},
		{"no namespace", sh(`echo 'Cannot open network namespace "ns": No such file or directory' >&2; exit 255`), ErrNft, ""},
		{"no privilege", sh(`echo "Error: Could not process rule: Operation not permitted" >&2; exit 1`), ErrNftDenied, "nftables operation denied -- missing NET_ADMIN capability. Start the orchestrator container with --cap-add=NET_ADMIN. Network isolation for agents requires this capability."},
		{"other", sh(`echo "Error: syntax error" >&2; exit 1`), ErrNft, "nftables validation failed: sh -c echo \"Error: syntax error\" >&2; exit 1 nft list tables: exit status 1: Error: syntax error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.runner.probe("linux")
			assert.ErrorIs(t, err, tt.want)
			if tt.text != "" {
				assert.EqualError(t, err, tt.text)
			}
			var ce *CommandError
			assert.True(t, errors.As(err, &ce))
		})
	}
	assert.NoError(t, sh("exit 0").probe("linux"))
	e := &Error{Reason: ErrNftMissing, Nft: []string{"nft"}}
	assert.Equal(t, "nftables binary not found at /usr/sbin/nft"+missingTail, e.Error(), "the orchestrator's words for its own command")
}

// TestNftOutputBounded: nft's message is the end of what it wrote to
// standard error; a listing past the bound is an error, not read in part.
func TestNftOutputBounded(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("head"); err != nil {
		t.Skip("no head")
	}
	r := nftRunner{argv: []string{"sh", "-c", `head -c 100000 /dev/zero | tr '\0' x; head -c 10000 /dev/zero | tr '\0' e >&2; echo "Error: the end" >&2; exit 3`, "nft"}}
	_, err := r.run("")
	var ce *CommandError
	require.ErrorAs(t, err, &ce)
	assert.Len(t, ce.Stderr, 4096-1, "stderr kept, less its last newline")
	assert.True(t, strings.HasSuffix(ce.Stderr, "eeeeError: the end"), "its end is kept: %q", ce.Stderr[len(ce.Stderr)-30:])

	// A listing that ends well but is past the bound is refused whole.
	r = nftRunner{argv: []string{"sh", "-c", `head -c $((64 << 20 | 1)) /dev/zero`, "nft"}}
	out, err := r.run("")
	require.ErrorIs(t, err, errNftOutput)
	assert.Nil(t, out)

	h := headBuffer{max: 4}
	_, _ = h.Write([]byte("abc"))
	assert.False(t, h.cut)
	_, _ = h.Write([]byte("def"))
	assert.Equal(t, "abcd", string(h.b))
	assert.True(t, h.cut)
}
