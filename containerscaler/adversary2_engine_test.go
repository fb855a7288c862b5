//go:build linux

package containerscaler

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"testing"
	"time"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The engine tests of this file are a second adversarial review of issue
// 32's isolation (TestAdv2...): each plays an attacker inside a container
// on the isolated network, or a race between backends, against the real
// Engine, and fails while the hole it names is open. They reuse the world
// of attack_engine_test.go (rules in the Engine's own namespace, an
// oracle there, forwarding to 10.99.0.0/16 and the metadata address) and
// the frame writers of adversary_engine_test.go.

// outsider starts a container of image on the isolated network only, as a
// container before its binding is (a job image's ENTRYPOINT runs then),
// or a container someone else attached: no rules name it. It is removed
// at the end of the test.
func (a *attackEnv) outsider(image string) string {
	a.t.Helper()
	return a.outsiderOn(image, agentspawn.IsolatedNetwork)
}

// beside spawns agent id, of the label set labelled label, of a backend
// of the test's scaler with both label sets, and starts an outsider
// beside it on the isolated network: the agent, and the outsider's
// container and link.
func (a *attackEnv) beside(id, label string) (Agent, string, enginetest.Link) {
	a.t.Helper()
	b, image := a.backendHere()
	agent := a.spawnAs(b, id, label)
	outsider := a.outsider(image)
	return agent, outsider, enginetest.LinkOf(a.t, a.c, outsider)
}

// tagged is frame with a VLAN tag of VLAN 0 (priority tagged) after its
// MACs, of the TPID tpid: 0x8100 (802.1Q) or 0x88a8 (802.1ad). Linux
// strips either on receipt, and takes the frame as untagged.
func tagged(tpid uint16, frame []byte) []byte {
	out := append([]byte{}, frame[:12]...)
	out = append(out, byte(tpid>>8), byte(tpid), 0x00, 0x00)
	return append(out, frame[12:]...)
}

// tags are the ways a frame goes untagged or priority tagged: "" and the
// TPIDs of tagged.
var tags = []struct {
	name string
	tpid uint16
}{{"untagged", 0}, {"802.1Q-VLAN-0-tagged", 0x8100}, {"802.1ad-VLAN-0-tagged", 0x88a8}}

// tag is frame as tags' t makes it.
func tag(tpid uint16, frame []byte) []byte {
	if tpid == 0 {
		return frame
	}
	return tagged(tpid, frame)
}

// arpFrame is an ARP packet of operation op from sender (senderMAC at
// senderIP) to target (targetMAC at targetIP), in an Ethernet frame from
// senderMAC to dst.
func arpFrame(dst net.HardwareAddr, op uint16, senderMAC net.HardwareAddr, senderIP netip.Addr, targetMAC net.HardwareAddr, targetIP netip.Addr) []byte {
	b := []byte{0, 1, 8, 0, 6, 4, byte(op >> 8), byte(op)}
	b = append(append(b, senderMAC...), senderIP.AsSlice()...)
	b = append(append(b, targetMAC...), targetIP.AsSlice()...)
	return etherFrame(dst, senderMAC, 0x0806, b)
}

// groupMAC is a link-local group address (01:80:c2:00:00:03, 802.1X's
// PAE group) that a bridge neither forwards (group_fwd_mask) nor treats
// as the bridge group or LLDP: it runs the frame through the bridge
// family's input hook, then hands it to the host on the port it came in
// by.
var groupMAC = net.HardwareAddr{0x01, 0x80, 0xc2, 0, 0, 0x03}

// TestAdv2TaggedGroupFrameFromUnbound: a container on the isolated
// network with no rules (here one attached to it; a job image's
// ENTRYPOINT before its binding is the same, TestAdv2EntrypointTaggedToHost)
// sends UDP in frames to a link-local group address, 01:80:c2:00:00:03,
// with a VLAN tag of VLAN 0 (802.1Q's 0x8100 or 802.1ad's 0x88a8). The
// bridge does not forward such a frame: it runs it through the bridge
// family's input hook, whose agent-gate drops IPv4, IPv6 and ARP to a
// group address by `ether type { ip, ip6, arp }`, and drops the network's
// addresses by `ether type ip ip saddr 172.30.0.0/16`. nft reads a tagged
// frame's ether type as the tag's TPID (it puts the tag the kernel took
// out back into the header it reads), so none of them matches, and the
// port is in no set: the frame passes. The bridge hands it to the host
// on the container's veth, where Linux strips the VLAN 0 tag and takes
// the datagram as received on the veth, which is not in agent-bridges:
// table ip kici's `iifname @agent-bridges drop` and table ip6 kici's do
// not match, and the hooks' policy accepts. The datagrams to a closed
// host port (from the container's own address or any other) and, over
// IPv6, to the veth's host-side link-local address reach the host's
// input: every UDP port of the host is open to it (not TCP, whose
// segments in a frame to a group MAC Linux drops:
// TestAdv2TaggedTCPFromUnbound). Those to 10.99.0.1 and the metadata
// address are not forwarded only because a frame to a group MAC is not
// PACKET_HOST. None may pass: a container reaches nothing before its
// rules are written. The same frames untagged are dropped (control).
func TestAdv2TaggedGroupFrameFromUnbound(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	_, id, link := a.beside("agent", "strict") // the bridge has an agent on it
	own := link.Addr()
	vethLinkLocal := enginetest.LinkLocal(t, link.HostPort)
	targets := []struct {
		name     string
		from, to netip.Addr
	}{
		{"IPv4 UDP to a closed host port", own, gateway},
		{"IPv4 UDP to 10.99.0.1", own, private},
		{"IPv4 UDP to the metadata address", own, metadata},
		{"IPv4 UDP from an outside address to a closed host port", netip.MustParseAddr("192.0.2.7"), gateway},
		{"IPv6 UDP to the veth's host-side link-local address", eui64(link.MAC), vethLinkLocal},
	}
	var marks []uint32
	var frames [][]byte
	var names []string
	for _, tg := range targets {
		for _, how := range tags {
			m := a.oracle.Mark()
			marks = append(marks, m)
			frames = append(frames, tag(how.tpid, udpFrame(groupMAC, link.MAC, tg.from, tg.to, closedPort, m)))
			names = append(names, how.name+" "+tg.name)
		}
	}
	read := a.markedCounters(marks...)
	rawSend(t, a.c, id, frames...)
	for i, got := range read() {
		assert.False(t, got.Passed(), "from a container with no rules, %s, in a frame to %s, passed the host's filtering (%s)", names[i], groupMAC, got)
	}
	if t.Failed() {
		t.Logf("table bridge kici then:\n%s", nftList("table", "bridge", "kici"))
	}
}

// tcpSyn is a TCP SYN from src to dst:port, of sequence number seq, its
// checksum filled in.
func tcpSyn(src, dst netip.Addr, port uint16, seq uint32) []byte {
	l4 := []byte{0x9c, 0x40, byte(port >> 8), byte(port), byte(seq >> 24), byte(seq >> 16), byte(seq >> 8), byte(seq),
		0, 0, 0, 0, 5 << 4, 0x02, 0xfa, 0xf0, 0, 0, 0, 0}
	pseudo := append(append(append([]byte{}, src.AsSlice()...), dst.AsSlice()...), 0, 6, 0, byte(len(l4)))
	sum := inetChecksum(append(pseudo, l4...))
	l4[16], l4[17] = byte(sum>>8), byte(sum)
	return ipv4Packet(6, src, dst, nil, l4)
}

// synAcked reports whether frame is an IPv4 TCP SYN-ACK from src that
// acknowledges seq.
func synAcked(frame []byte, src netip.Addr, seq uint32) bool {
	if len(frame) < 14+20+20 || binary.BigEndian.Uint16(frame[12:]) != 0x0800 || frame[14+9] != 6 ||
		netip.AddrFrom4([4]byte(frame[14+12:14+16])) != src {
		return false
	}
	tcp := frame[14+int(frame[14]&0x0f)*4:]
	return len(tcp) >= 20 && tcp[13]&0x12 == 0x12 && binary.BigEndian.Uint32(tcp[8:]) == seq+1
}

// TestAdv2TaggedTCPFromUnbound: TestAdv2TaggedGroupFrameFromUnbound's
// hole, to a TCP service of the host's that no rule opens to agents (a
// listener on the gateway's address, another port than the
// orchestrator's). The container with no rules teaches the host its own
// MAC with a VLAN-0-tagged ARP request for the gateway
// (TestAdv2TaggedARPFromUnbound's hole: untagged, its ARP is dropped, and
// the host could not answer it), then sends a VLAN-0-tagged SYN to 01:80:c2:00:00:03: the host's
// SYN-ACK comes back to it, the handshake open. It must not.
func TestAdv2TaggedTCPFromUnbound(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	_, id, link := a.beside("agent", "strict")
	bridge := enginetest.HostInterface(t, gateway)
	ln, err := net.Listen("tcp", netip.AddrPortFrom(gateway, 0).String())
	require.NoError(t, err)
	defer ln.Close()
	port := uint16(ln.Addr().(*net.TCPAddr).Port)
	sniffed := sniff(t, a.c, id, 2*time.Second)
	seq := a.oracle.Mark()
	rawSend(t, a.c, id,
		tagged(0x8100, arpFrame(bridge.MAC, enginetest.ARPRequest, link.MAC, link.Addr(), make(net.HardwareAddr, 6), gateway)),
		tagged(0x8100, etherFrame(groupMAC, link.MAC, 0x0800, tcpSyn(link.Addr(), gateway, port, seq))))
	acked := false
	for _, f := range sniffed.wait() {
		acked = acked || synAcked(f, gateway, seq)
	}
	assert.False(t, acked, "a container with no rules opened a TCP handshake with the host's %s:%d, which no rule opens", gateway, port)
}

// TestAdv2TaggedARPFromUnbound: a container on the isolated network with
// no rules (one attached to it; a job image's ENTRYPOINT before its
// binding is the same) claims a running agent's address: it sends the
// host an ARP reply, sender the victim's address and its own MAC, to the
// bridge's MAC, with a VLAN tag of VLAN 0 (0x8100 or 0x88a8). agent-gate
// drops ARP whose sender is on the isolated network by `ether type arp
// arp saddr ip 172.30.0.0/16`, which a tagged frame does not match (nft
// reads its ether type as the TPID), and the port is in no set. The
// bridge passes the frame up to the host on the bridge, Linux strips the
// VLAN 0 tag, and the host's neighbour entry of the victim takes the
// attacker's MAC: what the host sends the victim (the orchestrator's
// messages) goes to the attacker's port, whose agent-port does not
// filter what it receives. The entry must keep the victim's MAC. The
// same reply untagged is dropped (control, sent first); the entry is put
// back after each frame, so that each is tried on its own.
func TestAdv2TaggedARPFromUnbound(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	c := a.newClaim()
	for _, how := range tags {
		a.tryReply(c, how.name, tag(how.tpid, c.reply))
	}
}

// claim is a try by a container with no rules to take a running agent's
// address at the host: the victim, the container and its link, the
// bridge, the host's neighbour entry of the victim, and the container's
// ARP reply to the host that claims the victim's address.
type claim struct {
	victim    Agent
	id        string
	link      enginetest.Link
	bridge    enginetest.HostIface
	victimMAC net.HardwareAddr
	reply     []byte
}

// newClaim sets a claim up, past the neighbour entry's locktime: a plain
// reply may replace it now.
func (a *attackEnv) newClaim() claim {
	a.t.Helper()
	var c claim
	c.victim, c.id, c.link = a.beside("victim", "strict")
	c.bridge = enginetest.HostInterface(a.t, gateway)
	c.victimMAC = enginetest.LearnNeighbour(a.t, c.bridge.Name, c.victim.IP)
	time.Sleep(1100 * time.Millisecond)
	c.reply = arpFrame(c.bridge.MAC, enginetest.ARPReply, c.link.MAC, c.victim.IP, c.bridge.MAC, gateway)
	return c
}

// tryReply sends frame, the claim's reply in the way name says, from the
// claim's container: the host's entry of the victim must keep the
// victim's MAC. It puts the entry back, and waits out its locktime, for
// the next frame to be tried on its own.
func (a *attackEnv) tryReply(c claim, name string, frame []byte) {
	a.t.Helper()
	rawSend(a.t, a.c, c.id, frame)
	stays(a.t, c.victimMAC.String(), func() string { return enginetest.Neighbour(a.t, c.bridge.Name, c.victim.IP).String() },
		"%s ARP reply: the host's neighbour entry of the victim %s (the attacker's MAC is %s)", name, c.victim.IP, c.link.MAC)
	out, err := execOut("ip", "neigh", "replace", c.victim.IP.String(), "lladdr", c.victimMAC.String(), "dev", c.bridge.Name, "nud", "reachable")
	require.NoError(a.t, err, "%s", out)
	time.Sleep(1100 * time.Millisecond)
}

// TestAdv2EntrypointTaggedToHost: TestAdv2TaggedGroupFrameFromUnbound
// as a job would do it. A job's image keeps its ENTRYPOINT, which runs as
// root from the container's start, before the backend has read the
// container's port and written its binding; the Engine's answer to the
// spawn's inspect comes late here, which makes that window certain. The
// ENTRYPOINT sends, with the fake agent of the runtime volume, UDP to a
// closed host port in frames to 01:80:c2:00:00:03 with an 802.1Q tag of
// VLAN 0, from the container's own address: they reach the host's input
// through the container's veth, as that test says (16 datagrams in the 2 s
// the test holds the window open, on the first run), and the spawn then
// succeeds. None
// may: a container reaches nothing before its rules are written.
func TestAdv2EntrypointTaggedToHost(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	image := a.agentImage(nil)
	var late enginetest.LateAnswers
	b := a.backendAs(a.name, enginetest.EngineWith(t, late.Wrap), a.nftHere(), strict(image))
	mark := a.oracle.Mark()
	read := a.markedCounters(mark)
	job := "job-" + a.name + ":tagged"
	a.entrypointImage(b, job, spoofLoop(50, map[string]any{"kind": "udp", "dst": gateway.String(), "port": closedPort,
		"dstMAC": groupMAC.String(), "tag": true, "mark": mark}))
	hold := late.Hold(containerInspect)
	done := make(chan struct{})
	var res lateSpawn
	go func() {
		defer close(done)
		r := a.request("attacker", "strict")
		r.Job = &Job{Image: job}
		res.agent, res.err = b.Spawn(context.Background(), r)
	}()
	hold, _, _ = a.heldRunning(&late, hold, done)
	time.Sleep(2 * time.Second) // the ENTRYPOINT sends every 100 ms
	before := read()[0]
	hold.Release()
	<-done
	require.NoError(t, res.err)
	assert.False(t, before.Passed(), "before its binding, the job's ENTRYPOINT reached a closed host port with VLAN-0-tagged UDP to %s (%s)", groupMAC, before)
}

// icmpUnreachable is an IPv4 ICMP port unreachable from src to dst about
// the UDP datagram from inSrc:inPort to inDst:inDport, its unused field
// mark (where the oracle's counters find it).
func icmpUnreachable(src, dst, inSrc, inDst netip.Addr, inSport, inDport uint16, mark uint32) []byte {
	inner := ipv4Packet(17, inSrc, inDst, nil, []byte{byte(inSport >> 8), byte(inSport), byte(inDport >> 8), byte(inDport), 0, 8, 0, 0})
	icmp := append([]byte{3, 3, 0, 0, byte(mark >> 24), byte(mark >> 16), byte(mark >> 8), byte(mark)}, inner...)
	sum := inetChecksum(icmp)
	icmp[2], icmp[3] = byte(sum>>8), byte(sum)
	return ipv4Packet(1, src, dst, nil, icmp)
}

// TestAdv2ForgedRelatedICMP: an agent's input rules start with the
// orchestrator's `ct state established,related accept`, and conntrack
// takes an ICMP error as related to any connection its quoted header
// names, once the error's destination is that connection's source:
// whoever sends it. The attacker (the default policy: the host's
// orchestrator port only) sends the host, from its own bound address and
// MAC, an ICMP port unreachable quoting a datagram the host sent the
// victim (another agent), and a control quoting a flow that does not
// exist. The control is dropped; the forged error passes the attacker's
// input chain and reaches the host's stack, which reports
// ECONNREFUSED on the host's socket to the victim: an agent reaches the
// host with what its rules otherwise drop, and breaks the host's flows
// with another agent (or with anyone, were it to quote those). Neither may
// pass.
func TestAdv2ForgedRelatedICMP(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	attacker, victim := a.pair("strict")
	attackerLink := enginetest.LinkOf(t, a.c, attacker.ContainerID)
	bridge := enginetest.HostInterface(t, gateway)
	wait := enginetest.ListenIn(t, a.c, victim.ContainerID, a.port, 3*time.Second) // no unreachable of its own
	conn, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(netip.AddrPortFrom(victim.IP, a.port)))
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.Write([]byte("kicikit-flow"))
	require.NoError(t, err)
	sport := uint16(conn.LocalAddr().(*net.UDPAddr).Port)

	control, forged := a.oracle.Mark(), a.oracle.Mark()
	var script string
	for _, m := range []uint32{control, forged} {
		name := fmt.Sprintf("input-%08x", m)
		script += fmt.Sprintf("add counter %s %s\n", a.oracle.Table(), name)
		script += fmt.Sprintf("add rule %s input meta l4proto icmp @th,32,32 0x%08x counter name %q\n", a.oracle.Table(), m, name)
	}
	require.NoError(t, enginetest.Nft(script))
	rawSend(t, a.c, attacker.ContainerID,
		etherFrame(bridge.MAC, attackerLink.MAC, 0x0800, icmpUnreachable(attacker.IP, gateway, gateway, victim.IP, sport+1, a.port, control)),
		etherFrame(bridge.MAC, attackerLink.MAC, 0x0800, icmpUnreachable(attacker.IP, gateway, gateway, victim.IP, sport, a.port, forged)))
	time.Sleep(time.Second)
	assert.Zero(t, a.counter(fmt.Sprintf("input-%08x", control)), "an ICMP error quoting no flow reached the host's input")
	assert.Zero(t, a.counter(fmt.Sprintf("input-%08x", forged)),
		"an ICMP error from the attacker %s quoting the host's flow to the victim %s reached the host's input", attacker.IP, victim.IP)
	_ = conn.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	_, err = conn.Read(make([]byte, 64))
	assert.NotErrorIs(t, err, syscall.ECONNREFUSED, "the host's socket to the victim took the attacker's forged error")
	wait()
}

// TestAdv2TaggedFramesFromBound (passes; a regression test): what
// TestAdv2TaggedGroupFrameFromUnbound sends, from a bound agent: UDP to
// a closed host port and to 10.99.0.1, and IPv6 UDP to the host's
// link-local address of its veth, in frames to 01:80:c2:00:00:03 and to
// the bridge's MAC, untagged and with an 802.1Q or 802.1ad tag of VLAN 0,
// and an ARP reply claiming another agent's address, tagged. agent-port
// accepts from a bound port only untagged IPv4 and ARP of its own
// addresses: none may pass, nor change the host's neighbour entry of
// the other agent.
func TestAdv2TaggedFramesFromBound(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	attacker, victim := a.pair("strict")
	link := enginetest.LinkOf(t, a.c, attacker.ContainerID)
	bridge := enginetest.HostInterface(t, gateway)
	vethLinkLocal := enginetest.LinkLocal(t, link.HostPort)
	targets := []struct {
		name     string
		from, to netip.Addr
	}{
		{"IPv4 UDP to a closed host port", attacker.IP, gateway},
		{"IPv4 UDP to 10.99.0.1", attacker.IP, private},
		{"IPv6 UDP to the veth's host-side link-local address", eui64(link.MAC), vethLinkLocal},
	}
	var marks []uint32
	var frames [][]byte
	var names []string
	for _, dst := range []net.HardwareAddr{groupMAC, bridge.MAC} {
		for _, tg := range targets {
			for _, how := range tags {
				m := a.oracle.Mark()
				marks = append(marks, m)
				frames = append(frames, tag(how.tpid, udpFrame(dst, link.MAC, tg.from, tg.to, closedPort, m)))
				names = append(names, fmt.Sprintf("%s %s, in a frame to %s", how.name, tg.name, dst))
			}
		}
	}
	read := a.markedCounters(marks...)
	rawSend(t, a.c, attacker.ContainerID, frames...)
	for i, got := range read() {
		assert.False(t, got.Passed(), "from a bound agent, %s, passed the host's filtering (%s)", names[i], got)
	}

	victimMAC := enginetest.LearnNeighbour(t, bridge.Name, victim.IP)
	time.Sleep(1100 * time.Millisecond) // past the entry's locktime
	reply := arpFrame(bridge.MAC, enginetest.ARPReply, link.MAC, victim.IP, bridge.MAC, gateway)
	rawSend(t, a.c, attacker.ContainerID, tagged(0x8100, reply), tagged(0x88a8, reply))
	stays(t, victimMAC.String(), func() string { return enginetest.Neighbour(t, bridge.Name, victim.IP).String() },
		"tagged ARP replies from a bound agent: the host's neighbour entry of the victim %s (the attacker's MAC is %s)", victim.IP, link.MAC)
}
