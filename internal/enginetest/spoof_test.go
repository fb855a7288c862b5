package enginetest_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/enginetest"
)

// spoofNet is a bridge network of the test's own, on a /24 of 10.98.0.0/16
// (never the isolated network's range), removed when t ends.
type spoofNet struct {
	name    string
	subnet  netip.Prefix
	gateway netip.Addr
}

func newSpoofNet(t *testing.T, c *client.Client) spoofNet {
	t.Helper()
	for range 20 {
		var b [1]byte
		_, _ = rand.Read(b[:])
		n := spoofNet{name: strings.Replace(ref("kicikit-spoof"), ":", "-", 1), subnet: netip.PrefixFrom(netip.AddrFrom4([4]byte{10, 98, b[0], 0}), 24)}
		n.gateway = n.subnet.Addr().Next()
		_, err := c.NetworkCreate(context.Background(), n.name, client.NetworkCreateOptions{Driver: "bridge",
			IPAM: &network.IPAM{Config: []network.IPAMConfig{{Subnet: n.subnet, Gateway: n.gateway}}}})
		if err != nil && strings.Contains(err.Error(), "overlaps") {
			continue // a parallel test's
		}
		require.NoError(t, err)
		t.Cleanup(func() {
			_, err := c.NetworkRemove(context.Background(), n.name, client.NetworkRemoveOptions{})
			assert.NoError(t, err)
		})
		return n
	}
	t.Fatal("no free /24 in 10.98.0.0/16")
	return spoofNet{}
}

// host returns the network's address n.
func (n spoofNet) host(i byte) netip.Addr {
	a := n.subnet.Addr().As4()
	a[3] = i
	return netip.AddrFrom4(a)
}

// agent runs a fake agent on the network, and returns its container's
// id and interface.
func (n spoofNet) agent(t *testing.T, c *client.Client, image string) (string, enginetest.Link) {
	t.Helper()
	id := run(t, c, &container.Config{Image: image}, &container.HostConfig{NetworkMode: container.NetworkMode(n.name)})
	return id, enginetest.LinkOf(t, c, id)
}

// dropTable adds a table that drops by rules, removed when t ends (or when
// the returned function is called).
func dropTable(t *testing.T, family string, chains map[string]string) func() {
	t.Helper()
	var b [4]byte
	_, _ = rand.Read(b[:])
	name := fmt.Sprintf("kicikit-drop-%x", b)
	script := "add table " + family + " " + name + "\n"
	for hook, rule := range chains {
		script += fmt.Sprintf("add chain %s %s %s { type filter hook %s priority -10; policy accept; }\n", family, name, hook, hook)
		script += fmt.Sprintf("add rule %s %s %s %s\n", family, name, hook, rule)
	}
	require.NoError(t, enginetest.Nft(script))
	removed := false
	remove := func() {
		if !removed {
			removed = true
			assert.NoError(t, enginetest.Nft("delete table "+family+" "+name+"\n"))
		}
	}
	t.Cleanup(remove)
	return remove
}

// spoofed is one spoofed packet of TestOracleCounts and where it must pass.
type spoofed struct {
	name string
	p    enginetest.Packet
	want enginetest.Passage
}

// TestOracleCounts: with no rule, a container's spoofed packets of each
// kind pass, and the oracle counts each where it passed: the host's
// input, the forward hook (routed out, or bridged to another container);
// with a plain drop rule of their source, none does. So the oracle can
// tell both ways.
func TestOracleCounts(t *testing.T) {
	t.Parallel()
	c := enginetest.Engine(t)
	enginetest.Forwarding(t)
	o := enginetest.NewOracle(t)
	n := newSpoofNet(t, c)
	image := ref("enginetest-spoof")
	enginetest.AgentImage(t, c, image, nil)
	id, self := n.agent(t, c, image)
	_, other := n.agent(t, c, image)
	bridge := enginetest.HostInterface(t, n.gateway)
	linkLocal := enginetest.LinkLocal(t, bridge.Name)
	spoof := n.host(250)
	packets := func() []spoofed {
		in, fwd := enginetest.Passage{Input: 1}, enginetest.Passage{Forward: 1}
		return []spoofed{
			{"udp to the host", enginetest.Packet{Proto: enginetest.UDP, Src: spoof, Dst: n.gateway, Port: 9}, in},
			{"tcp to the host", enginetest.Packet{Proto: enginetest.TCP, Src: spoof, Dst: n.gateway, Port: 9}, in},
			{"icmp to the host", enginetest.Packet{Proto: enginetest.ICMP, Src: spoof, Dst: n.gateway}, in},
			{"protocol 253 to the host", enginetest.Packet{Proto: enginetest.RawIP, Protocol: 253, Src: spoof, Dst: n.gateway}, in},
			{"udp routed on", enginetest.Packet{Proto: enginetest.UDP, Src: spoof, Dst: netip.MustParseAddr("10.99.0.1"), Port: 9}, fwd},
			{"udp to the metadata", enginetest.Packet{Proto: enginetest.UDP, Src: spoof, Dst: netip.MustParseAddr(enginetest.MetadataAddr), Port: 80}, fwd},
			{"udp bridged to another container", enginetest.Packet{Proto: enginetest.UDP, Src: spoof, Dst: other.Addr(), DstMAC: other.MAC, Port: 9}, fwd},
			{"udp over IPv6 link-local to the host", enginetest.Packet{Proto: enginetest.UDP, Dst: linkLocal, Port: 9}, in},
		}
	}
	sendAll(t, o, c, id, packets(), true)
	dropTable(t, "inet", map[string]string{"input": "ip saddr " + spoof.String() + " drop",
		"forward": "ip saddr " + spoof.String() + " drop"})
	dropTable(t, "ip6", map[string]string{"input": "ether saddr " + self.MAC.String() + " drop"})
	sendAll(t, o, c, id, packets(), false)
}

// sendAll sends the packets at once and checks where each passed: where
// it wants, or nowhere.
func sendAll(t *testing.T, o *enginetest.Oracle, c *client.Client, id string, list []spoofed, pass bool) {
	t.Helper()
	packets := make([]enginetest.Packet, len(list))
	for i, s := range list {
		packets[i] = s.p
	}
	for i, got := range o.Send(c, id, packets...) {
		if pass {
			assert.Equal(t, list[i].want, got, "%s: passes with no rule", list[i].name)
		} else {
			assert.Equal(t, enginetest.Passage{}, got, "%s: a drop rule stops it", list[i].name)
		}
	}
}

// send sends one packet through the oracle and returns its passage.
func send(t *testing.T, o *enginetest.Oracle, c *client.Client, id string, p enginetest.Packet) enginetest.Passage {
	t.Helper()
	return o.Send(c, id, p)[0]
}

// TestSinkAgrees: what the oracle counts at the host's input is what a
// socket there receives.
func TestSinkAgrees(t *testing.T) {
	t.Parallel()
	c := enginetest.Engine(t)
	o := enginetest.NewOracle(t)
	n := newSpoofNet(t, c)
	image := ref("enginetest-spoof")
	enginetest.AgentImage(t, c, image, nil)
	id, _ := n.agent(t, c, image)
	sink := enginetest.ListenUDP(t, n.gateway)
	p := enginetest.Packet{Proto: enginetest.UDP, Src: n.host(251), Dst: n.gateway, Port: sink.Port(), Mark: o.Mark()}
	assert.Equal(t, enginetest.Passage{Input: 1}, send(t, o, c, id, p))
	assert.Equal(t, 1, sink.Received(p.Mark))
}

// TestNeighbourPoisoned: a container's gratuitous ARP claiming another's
// address leaves the host's neighbour entry alone when an ARP rule drops
// it, and takes it over when none does.
func TestNeighbourPoisoned(t *testing.T) {
	t.Parallel()
	c := enginetest.Engine(t)
	n := newSpoofNet(t, c)
	image := ref("enginetest-spoof")
	enginetest.AgentImage(t, c, image, nil)
	id, attacker := n.agent(t, c, image)
	_, victim := n.agent(t, c, image)
	bridge := enginetest.HostInterface(t, n.gateway)
	require.Equal(t, victim.MAC, enginetest.LearnNeighbour(t, bridge.Name, victim.Addr()))
	claim := []enginetest.Packet{
		{Proto: enginetest.ARP, ARPOp: enginetest.ARPRequest, Src: victim.Addr(), Dst: victim.Addr()},
		{Proto: enginetest.ARP, ARPOp: enginetest.ARPReply, Src: victim.Addr(), Dst: n.gateway, DstMAC: bridge.MAC},
	}
	allow := dropTable(t, "arp", map[string]string{"input": "arp saddr ether " + attacker.MAC.String() + " drop"})
	enginetest.Spoof(t, c, id, claim...)
	time.Sleep(500 * time.Millisecond)
	assert.Equal(t, victim.MAC, enginetest.Neighbour(t, bridge.Name, victim.Addr()), "dropped: no poisoning")
	allow()
	enginetest.Spoof(t, c, id, claim...)
	assert.Eventually(t, func() bool { return slices.Equal(attacker.MAC, enginetest.Neighbour(t, bridge.Name, victim.Addr())) },
		2*time.Second, 100*time.Millisecond, "not dropped: poisoned")
}

// TestFDBPoisoned: a frame from a container with another's MAC as its
// source leaves the bridge's forwarding database alone when a bridge rule
// drops it, and moves the MAC to the sender's port when none does.
func TestFDBPoisoned(t *testing.T) {
	t.Parallel()
	c := enginetest.Engine(t)
	n := newSpoofNet(t, c)
	image := ref("enginetest-spoof")
	enginetest.AgentImage(t, c, image, nil)
	id, attacker := n.agent(t, c, image)
	_, victim := n.agent(t, c, image)
	bridge := enginetest.HostInterface(t, n.gateway)
	require.Equal(t, victim.HostPort, enginetest.FDBPort(t, bridge.Name, victim.MAC), "the bridge learnt the victim's MAC where it is")
	frame := enginetest.Packet{Proto: enginetest.UDP, SrcMAC: victim.MAC, Dst: n.gateway, Port: 9}
	allow := dropTable(t, "bridge", map[string]string{"prerouting": "iifname " + attacker.HostPort + " ether saddr != " + attacker.MAC.String() + " drop"})
	enginetest.Spoof(t, c, id, frame)
	time.Sleep(500 * time.Millisecond)
	assert.Equal(t, victim.HostPort, enginetest.FDBPort(t, bridge.Name, victim.MAC), "dropped: no poisoning")
	allow()
	enginetest.Spoof(t, c, id, frame)
	assert.Eventually(t, func() bool { return enginetest.FDBPort(t, bridge.Name, victim.MAC) == attacker.HostPort },
		2*time.Second, 100*time.Millisecond, "not dropped: poisoned")
}

// TestListenIn: what one container sends another on the same bridge
// reaches the other's socket, unless a rule drops it. br_netfilter hands
// the IP forward hook a bridged frame only untagged: a rule there drops
// the untagged frame, not one with an 802.1Q tag of VLAN 0, which the
// receiving kernel takes all the same; a bridge rule drops both.
func TestListenIn(t *testing.T) {
	t.Parallel()
	c := enginetest.Engine(t)
	o := enginetest.NewOracle(t)
	n := newSpoofNet(t, c)
	image := ref("enginetest-spoof")
	enginetest.AgentImage(t, c, image, nil)
	id, _ := n.agent(t, c, image)
	other, to := n.agent(t, c, image)
	received := func() (untagged, tagged bool) {
		t.Helper()
		wait := enginetest.ListenIn(t, c, other, 7777, time.Second)
		u := enginetest.Packet{Proto: enginetest.UDP, Dst: to.Addr(), DstMAC: to.MAC, Port: 7777, Mark: o.Mark()}
		g := u
		g.Tag, g.Mark = true, o.Mark()
		enginetest.Spoof(t, c, id, u, g)
		marks := wait()
		return slices.Contains(marks, u.Mark), slices.Contains(marks, g.Mark)
	}
	untagged, tagged := received()
	assert.True(t, untagged && tagged, "no rule: both received")
	allow := dropTable(t, "inet", map[string]string{"forward": "ip daddr " + to.Addr().String() + " drop"})
	untagged, tagged = received()
	assert.False(t, untagged, "an IP forward rule drops the untagged frame")
	assert.True(t, tagged, "but not the tagged one")
	allow()
	dropTable(t, "bridge", map[string]string{"forward": "oifname " + to.HostPort + " drop"})
	untagged, tagged = received()
	assert.False(t, untagged || tagged, "a bridge rule drops both")
}
