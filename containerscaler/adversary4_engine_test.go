//go:build linux

package containerscaler

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/stretchr/testify/assert"
)

// The engine tests of this file are a fourth adversarial review of issue
// 32's isolation (TestAdv4...), of the two rules the third one's holes
// brought: agent-gate's `meta protocol { 8021q, 8021ad } drop` and
// agent-forward's `oif @agent-ports ether type ip oif . ether daddr .
// ip daddr != @agent-bindings drop`. They reuse the world and frame
// writers of attack_engine_test.go and adversary*_engine_test.go.
//
// Found open when they were written, and closed since by agent-arp: ARP
// frames bridged to an agent carried data in a trailer and in the fields
// its kernel ignores (TestAdv4ARPTrailerToAgent, TestAdv4ARPFieldsToAgent).

// vlanTagged is frame with a tag of the TPID tpid and VLAN id vid after
// its MACs.
func vlanTagged(tpid, vid uint16, frame []byte) []byte {
	out := append([]byte{}, frame[:12]...)
	out = append(out, byte(tpid>>8), byte(tpid), byte(vid>>8)&0x0f, byte(vid))
	return append(out, frame[12:]...)
}

// oddTags are ways a frame goes tagged that the gate's drop of frames of
// two tags must hold against, or that it does not name: three tags, an
// outer tag of a TPID Linux does not strip (0x9100, 0x9200) over an
// 802.1Q tag, an 802.1Q tag over a 0x9100 one, one 802.1ad tag, one
// 802.1Q tag of a VLAN other than 0.
var oddTags = []struct {
	name string
	make func([]byte) []byte
}{
	{"three 802.1Q-VLAN-0 tags", func(f []byte) []byte { return tagged(0x8100, tagged(0x8100, tagged(0x8100, f))) }},
	{"802.1ad+802.1Q+802.1Q VLAN-0 tags", func(f []byte) []byte { return tagged(0x88a8, tagged(0x8100, tagged(0x8100, f))) }},
	{"0x9100+802.1Q VLAN-0 tags", func(f []byte) []byte { return tagged(0x9100, tagged(0x8100, f)) }},
	{"0x9200+802.1Q VLAN-0 tags", func(f []byte) []byte { return tagged(0x9200, tagged(0x8100, f)) }},
	{"one 0x9100 VLAN-0 tag", func(f []byte) []byte { return tagged(0x9100, f) }},
	{"802.1Q+0x9100+802.1Q VLAN-0 tags", func(f []byte) []byte { return tagged(0x8100, tagged(0x9100, tagged(0x8100, f))) }},
	{"one 802.1ad VLAN-0 tag", func(f []byte) []byte { return tagged(0x88a8, f) }},
	{"one 802.1ad tag of VLAN 5", func(f []byte) []byte { return vlanTagged(0x88a8, 5, f) }},
	{"one 802.1Q tag of VLAN 5", func(f []byte) []byte { return vlanTagged(0x8100, 5, f) }},
	{"802.1Q VLAN 5 over 802.1Q VLAN 0", func(f []byte) []byte { return vlanTagged(0x8100, 5, tagged(0x8100, f)) }},
}

// TestAdv4OddTagsFromUnbound: a container on the isolated network with
// no rules sends frames of oddTags' tags (three tags; an outer TPID Linux
// does not strip, 0x9100 or 0x9200, so that meta protocol reads neither
// 8021q nor 8021ad; one 802.1ad tag; a VLAN other than 0):
//   - to the bridge's MAC, UDP from a running agent's address (its policy
//     opens every host port and 10.99.0.0/16) to a closed host port and to
//     10.99.0.1;
//   - to 01:80:c2:00:00:03, UDP from its own address to a closed host port;
//   - to the agent's MAC, UDP to the agent from 10.99.0.7 (no address of
//     the isolated network, which the gate would drop).
//
// None may pass the host's filtering nor reach the agent's interface. The
// bound attacker sends the same to the bridge's MAC from its own address.
// Controls: the agent's own datagram to a closed host port passes, a
// datagram the host sends the agent reaches its interface.
func TestAdv4OddTagsFromUnbound(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	attacker, victim := a.pair("open")
	attackerLink := enginetest.LinkOf(t, a.c, attacker.ContainerID)
	victimLink := enginetest.LinkOf(t, a.c, victim.ContainerID)
	id := a.outsider(a.agentImage(nil))
	link := enginetest.LinkOf(t, a.c, id)
	bridge := enginetest.HostInterface(t, gateway)
	outside := netip.MustParseAddr("10.99.0.7")

	control := a.oracle.Mark()
	marks := []uint32{control}
	var names []string
	var unbound, bound [][]byte
	toAgent := map[uint32]string{}
	var toAgentFrames [][]byte
	for _, w := range oddTags {
		for _, tg := range []struct {
			name     string
			dst      net.HardwareAddr
			from, to netip.Addr
		}{
			{"UDP from the victim's address to a closed host port, to the bridge's MAC", bridge.MAC, victim.IP, gateway},
			{"UDP from the victim's address to 10.99.0.1, to the bridge's MAC", bridge.MAC, victim.IP, private},
			{"UDP from its own address to a closed host port, to " + groupMAC.String(), groupMAC, link.Addr(), gateway},
		} {
			m := a.oracle.Mark()
			marks = append(marks, m)
			names = append(names, "from a container with no rules, "+w.name+", "+tg.name)
			unbound = append(unbound, w.make(udpFrame(tg.dst, link.MAC, tg.from, tg.to, closedPort, m)))
		}
		m := a.oracle.Mark()
		marks = append(marks, m)
		names = append(names, "from the bound attacker, "+w.name+", UDP from its address to a closed host port, to the bridge's MAC")
		bound = append(bound, w.make(udpFrame(bridge.MAC, attackerLink.MAC, attacker.IP, gateway, closedPort, m)))
		m = a.oracle.Mark()
		toAgent[m] = "from a container with no rules, " + w.name + ", UDP from 10.99.0.7 to the victim, to its MAC"
		toAgentFrames = append(toAgentFrames, w.make(udpFrame(victimLink.MAC, link.MAC, outside, victim.IP, a.port, m)))
	}
	read := a.markedCounters(marks...)
	sniffed := sniff(t, a.c, victim.ContainerID, 6*time.Second)
	rawSend(t, a.c, victim.ContainerID, udpFrame(bridge.MAC, victimLink.MAC, victim.IP, gateway, closedPort, control))
	rawSend(t, a.c, id, append(unbound, toAgentFrames...)...)
	rawSend(t, a.c, attacker.ContainerID, bound...)
	got := read()
	assert.True(t, got[0].Passed(), "the victim's own UDP to a closed host port passed (control): %s", got[0])
	for i, p := range got[1:] {
		assert.False(t, p.Passed(), "%s passed the host's filtering (%s)", names[i], p)
	}
	hostMark, _, _ := a.hostToVictim(victim, nil)
	frames := sniffed.wait()
	saw := func(m uint32) bool {
		for _, f := range frames {
			if udpMarked(f, m) || bytes.Contains(f, binary.BigEndian.AppendUint32(nil, m)) {
				return true
			}
		}
		return false
	}
	assert.True(t, saw(hostMark), "the datagram the host sent the victim reached its interface (control)")
	for m, name := range toAgent {
		assert.False(t, saw(m), "%s reached the victim's interface", name)
	}
	if t.Failed() {
		t.Logf("table bridge kici then:\n%s", nftList("table", "bridge", "kici"))
	}
}

// peer is a label set of the default policy whose allowlist holds the
// isolated network: its agents may reach each other.
func peer(image string) scalerconfig.LabelSet {
	return scalerconfig.LabelSet{Labels: []string{"peer"}, Image: image, ImagePullPolicy: scalerconfig.PullNever,
		NetworkPolicy: &scalerconfig.NetworkPolicy{Allowlist: []string{"172.30.0.0/16"}}}
}

// TestAdv4IPv4ToAgentAddressing: agents whose allowlist holds the isolated
// network may reach each other: a frame from one (the sender) to
// another's (the victim's) MAC and address reaches the victim's interface
// (control: agent-forward's rule that IPv4 bridged to an agent is
// addressed to it lets legitimate traffic by). What must not reach it:
//   - from the sender, the victim's address in a frame to the IPv4
//     multicast MAC 01:00:5e:00:00:01, to the broadcast MAC, and to a MAC
//     no port has (flooded);
//   - from the sender, in a frame to the victim's MAC, a third agent's
//     address (which the sender's rules allow), the isolated network's
//     broadcast address, 224.0.0.251;
//   - from the sender, the victim's address and MAC, from the third
//     agent's address (the sender's binding does not hold it);
//   - from a container with no rules, the victim's MAC and address, from
//     10.99.0.7 and from 0.0.0.0 (no address the gate drops).
//
// The third agent must not receive the frames to the victim's MAC with
// its address either.
func TestAdv4IPv4ToAgentAddressing(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	image := a.agentImage(nil)
	b := a.backendAs(a.name, a.engine, a.nftHere(), peer(image))
	sender := a.spawnAs(b, "sender", "peer")
	victim := a.spawnAs(b, "victim", "peer")
	third := a.spawnAs(b, "third", "peer")
	id := a.outsider(image)
	link := enginetest.LinkOf(t, a.c, id)
	senderLink := enginetest.LinkOf(t, a.c, sender.ContainerID)
	victimLink := enginetest.LinkOf(t, a.c, victim.ContainerID)

	control := a.oracle.Mark()
	sent := map[uint32]string{}
	from := func(m uint32, name string) uint32 { sent[m] = name; return m }
	var senderFrames, outsiderFrames [][]byte
	senderFrames = append(senderFrames, udpFrame(victimLink.MAC, senderLink.MAC, sender.IP, victim.IP, a.port, control))
	for _, d := range []struct {
		name string
		mac  net.HardwareAddr
	}{
		{"the IPv4 multicast MAC 01:00:5e:00:00:01", net.HardwareAddr{0x01, 0x00, 0x5e, 0, 0, 1}},
		{"the broadcast MAC", net.HardwareAddr{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{"a MAC no port has", net.HardwareAddr{0x02, 0x42, 0xac, 0x1e, 0x00, 0xfb}},
	} {
		m := from(a.oracle.Mark(), "from the sender, UDP to the victim's address in a frame to "+d.name)
		senderFrames = append(senderFrames, udpFrame(d.mac, senderLink.MAC, sender.IP, victim.IP, a.port, m))
	}
	for _, dst := range []netip.Addr{third.IP, netip.MustParseAddr("172.30.255.255"), netip.MustParseAddr("224.0.0.251")} {
		m := from(a.oracle.Mark(), fmt.Sprintf("from the sender, UDP to %s in a frame to the victim's MAC", dst))
		senderFrames = append(senderFrames, udpFrame(victimLink.MAC, senderLink.MAC, sender.IP, dst, a.port, m))
	}
	m := from(a.oracle.Mark(), "from the sender, UDP from the third agent's address to the victim")
	senderFrames = append(senderFrames, udpFrame(victimLink.MAC, senderLink.MAC, third.IP, victim.IP, a.port, m))
	for _, src := range []netip.Addr{netip.MustParseAddr("10.99.0.7"), netip.IPv4Unspecified()} {
		m := from(a.oracle.Mark(), fmt.Sprintf("from a container with no rules, UDP from %s to the victim, to its MAC", src))
		outsiderFrames = append(outsiderFrames, udpFrame(victimLink.MAC, link.MAC, src, victim.IP, a.port, m))
	}
	victimSniffed := sniff(t, a.c, victim.ContainerID, 2*time.Second)
	thirdSniffed := sniff(t, a.c, third.ContainerID, 2*time.Second)
	rawSend(t, a.c, sender.ContainerID, senderFrames...)
	rawSend(t, a.c, id, outsiderFrames...)
	seen := func(frames [][]byte, m uint32) bool {
		for _, f := range frames {
			if udpMarked(f, m) {
				return true
			}
		}
		return false
	}
	atVictim, atThird := victimSniffed.wait(), thirdSniffed.wait()
	assert.True(t, seen(atVictim, control), "from the sender, UDP to the victim's MAC and address reached it (control)")
	for m, name := range sent {
		assert.False(t, seen(atVictim, m), "%s reached the victim's interface", name)
		assert.False(t, seen(atThird, m), "%s reached the third agent's interface", name)
	}
	if t.Failed() {
		t.Logf("table bridge kici then:\n%s", nftList("table", "bridge", "kici"))
	}
}

// arpWith is an ARP frame as arpFrame makes it, with trailer after the
// ARP packet: the parser reads the first 28 bytes, a packet socket the
// whole frame.
func arpWith(frame, trailer []byte) []byte {
	return append(append([]byte{}, frame...), trailer...)
}

// arpCase is an ARP frame a test sends from a container, and what of it
// the victim's interface must not see.
type arpCase struct {
	name  string
	from  string
	frame []byte
	sign  []byte
}

// arpToVictim sends control from the attacker, then each case's frame,
// and fails the test unless the victim's interface sees control and none
// of the cases' signs.
func (a *attackEnv) arpToVictim(t *testing.T, attacker, victim Agent, control []byte, cases []arpCase) {
	t.Helper()
	sniffed := sniff(t, a.c, victim.ContainerID, 2*time.Second)
	rawSend(t, a.c, attacker.ContainerID, control)
	for _, c := range cases {
		rawSend(t, a.c, c.from, c.frame)
	}
	frames := sniffed.wait()
	sawControl := false
	for _, fr := range frames {
		sawControl = sawControl || bytes.Equal(fr, control)
	}
	assert.True(t, sawControl, "the attacker's broadcast ARP request for the victim's address reached it (control)")
	for _, c := range cases {
		saw := false
		for _, fr := range frames {
			saw = saw || bytes.Contains(fr, c.sign)
		}
		assert.False(t, saw, "%s reached the victim's interface", c.name)
	}
	if t.Failed() {
		t.Logf("table bridge kici then:\n%s", nftList("table", "bridge", "kici"))
	}
}

// secret is n random bytes.
func secret(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}

var (
	broadcastMAC = net.HardwareAddr{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	zeroMAC      = net.HardwareAddr{0, 0, 0, 0, 0, 0}
)

// TestAdv4ARPTrailerToAgent: agent-forward drops what is bridged to an
// agent's port but IPv4 addressed to it and ARP; agent-port holds ARP
// from an agent to its own sender MAC and address, and the gate ARP from
// a port with no rules to a sender address outside the isolated network.
// Nothing held the length of an ARP frame: bytes after the 28 of the
// ARP packet, up to the MTU, which the victim's ARP ignores and a process
// of it with a packet socket reads, are a channel between agents whose
// policies let them not talk (what TestAdv3FrameToAgentWithOtherDestination
// closed for IPv4). Sent to the victim, both agents of the default policy:
//   - from the attacker, an ARP reply to the victim's MAC, sender the
//     attacker, target the victim, with 1000 bytes after it;
//   - from the attacker, a broadcast ARP request for the victim's address
//     with 1000 bytes after it;
//   - from a container with no rules, an ARP probe (sender 0.0.0.0) to the
//     victim's MAC with 1000 bytes after it.
//
// None may reach the victim's interface. The attacker's plain broadcast
// ARP request for the victim's address does (control: agents that may
// talk must resolve each other).
func TestAdv4ARPTrailerToAgent(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	b, image := a.backendHere()
	attacker := a.spawnAs(b, "attacker", "strict")
	victim := a.spawnAs(b, "victim", "strict")
	id := a.outsider(image)
	link := enginetest.LinkOf(t, a.c, id)
	attackerLink := enginetest.LinkOf(t, a.c, attacker.ContainerID)
	victimLink := enginetest.LinkOf(t, a.c, victim.ContainerID)
	control := arpFrame(broadcastMAC, enginetest.ARPRequest, attackerLink.MAC, attacker.IP, zeroMAC, victim.IP)
	s1, s2, s3 := secret(1000), secret(1000), secret(1000)
	a.arpToVictim(t, attacker, victim, control, []arpCase{
		{"from the attacker, an ARP reply to the victim's MAC with 1000 bytes after it", attacker.ContainerID,
			arpWith(arpFrame(victimLink.MAC, enginetest.ARPReply, attackerLink.MAC, attacker.IP, victimLink.MAC, victim.IP), s1), s1[:32]},
		{"from the attacker, a broadcast ARP request for the victim's address with 1000 bytes after it", attacker.ContainerID,
			arpWith(control, s2), s2[:32]},
		{"from a container with no rules, an ARP probe to the victim's MAC with 1000 bytes after it", id,
			arpWith(arpFrame(victimLink.MAC, enginetest.ARPRequest, link.MAC, netip.IPv4Unspecified(), zeroMAC, victim.IP), s3), s3[:32]},
	})
}

// TestAdv4ARPFieldsToAgent: TestAdv4ARPTrailerToAgent's channel in the
// fields of ARP packets of 28 bytes, which agent-port and agent-forward
// did not read: the target MAC and address (10 bytes a frame). Sent to the
// victim by the attacker, both agents of the default policy:
//   - an ARP request to the victim's MAC, its target MAC and address data
//     (an address outside the isolated network);
//   - a broadcast ARP request for the victim's address, its target MAC
//     data (Linux sends zeros there);
//   - an ARP reply to the victim's MAC, its target MAC and address data;
//   - an ARP packet of operation 0x1234 to the victim's MAC, its target
//     fields data.
//
// None may reach the victim's interface. The plain broadcast request for
// the victim's address does (control).
func TestAdv4ARPFieldsToAgent(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	attacker, victim := a.pair("strict")
	attackerLink := enginetest.LinkOf(t, a.c, attacker.ContainerID)
	victimLink := enginetest.LinkOf(t, a.c, victim.ContainerID)
	control := arpFrame(broadcastMAC, enginetest.ARPRequest, attackerLink.MAC, attacker.IP, zeroMAC, victim.IP)
	data := func() (net.HardwareAddr, netip.Addr) {
		s := secret(10)
		s[0] &^= 1
		s[6] = 198 // 198.x.y.z: no address of the isolated network
		return net.HardwareAddr(s[:6]), netip.AddrFrom4([4]byte(s[6:]))
	}
	var cases []arpCase
	add := func(name string, f []byte) {
		cases = append(cases, arpCase{name, attacker.ContainerID, f, f[32:42]}) // the target fields
	}
	mac, ip := data()
	add("an ARP request to the victim's MAC whose target fields are data",
		arpFrame(victimLink.MAC, enginetest.ARPRequest, attackerLink.MAC, attacker.IP, mac, ip))
	mac, _ = data()
	add("a broadcast ARP request for the victim's address whose target MAC is data",
		arpFrame(broadcastMAC, enginetest.ARPRequest, attackerLink.MAC, attacker.IP, mac, victim.IP))
	mac, ip = data()
	add("an ARP reply to the victim's MAC whose target fields are data",
		arpFrame(victimLink.MAC, enginetest.ARPReply, attackerLink.MAC, attacker.IP, mac, ip))
	mac, ip = data()
	add("an ARP packet of operation 0x1234 to the victim's MAC whose target fields are data",
		arpFrame(victimLink.MAC, 0x1234, attackerLink.MAC, attacker.IP, mac, ip))
	a.arpToVictim(t, attacker, victim, control, cases)
}

// TestAdv4OtherBridgeTagged: agent-gate's `meta protocol { 8021q, 8021ad }
// drop` sees every bridge of the host. Two containers on another bridge
// network (no agent's) exchange frames at layer 2 while an agent runs:
// untagged UDP, and UDP with one tag of VLAN 5, 802.1Q and 802.1ad (what
// a VLAN trunk between them carries). Each must reach the other's
// interface. A frame of two tags (802.1ad VLAN 5 over 802.1Q VLAN 7, QinQ)
// is dropped there too, as nftscript.go's comment says; the test logs
// what it saw of it.
func TestAdv4OtherBridgeTagged(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	b, image := a.backendHere()
	a.spawnAs(b, "agent", "strict")
	other, _ := a.otherNetwork()
	one := a.outsiderOn(image, other)
	two := a.outsiderOn(image, other)
	oneLink, twoLink := enginetest.LinkOf(t, a.c, one), enginetest.LinkOf(t, a.c, two)
	ways := []struct {
		name string
		make func([]byte) []byte
	}{
		{"untagged", func(f []byte) []byte { return f }},
		{"one 802.1Q tag of VLAN 5", func(f []byte) []byte { return vlanTagged(0x8100, 5, f) }},
		{"one 802.1ad tag of VLAN 5", func(f []byte) []byte { return vlanTagged(0x88a8, 5, f) }},
		{"802.1ad VLAN 5 over 802.1Q VLAN 7", func(f []byte) []byte { return vlanTagged(0x88a8, 5, vlanTagged(0x8100, 7, f)) }},
	}
	marks := make([]uint32, len(ways))
	frames := make([][]byte, len(ways))
	for i, w := range ways {
		marks[i] = a.oracle.Mark()
		frames[i] = w.make(udpFrame(twoLink.MAC, oneLink.MAC, oneLink.Addr(), twoLink.Addr(), 7000, marks[i]))
	}
	sniffed := sniff(t, a.c, two, 2*time.Second)
	rawSend(t, a.c, one, frames...)
	got := sniffed.wait()
	for i, w := range ways {
		mark := binary.BigEndian.AppendUint32(nil, marks[i])
		saw := false
		for _, f := range got {
			saw = saw || bytes.Contains(f, mark)
		}
		if i == len(ways)-1 {
			t.Logf("on another bridge, UDP %s reached the other container: %v", w.name, saw)
			continue
		}
		assert.True(t, saw, "on another bridge, UDP %s reached the other container", w.name)
	}
}
