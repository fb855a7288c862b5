//go:build linux

package containerscaler

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// The engine tests of this file are an adversarial review of issue 32's
// isolation (TestAdv...): each plays an attacker inside an agent, or a
// race between backends, against the real Engine, and fails while the
// hole it names is open. They reuse attack_engine_test.go's world: rules
// in the Engine's own namespace, an oracle there, forwarding to
// 10.99.0.0/16 and the metadata address.
//
// Where the fake agent cannot craft a frame, the test writes it itself,
// through a packet socket it opens inside the container's network
// namespace: what root in the container may do with CAP_NET_RAW, which
// Docker's default capabilities give it.

// inNetnsOf runs f on a thread of its own inside the network namespace of
// container id, which runs.
func inNetnsOf(t testing.TB, c client.APIClient, id string, f func() error) {
	t.Helper()
	info, err := c.ContainerInspect(context.Background(), id, client.ContainerInspectOptions{})
	require.NoError(t, err)
	require.NotNil(t, info.Container.State)
	ns, err := os.Open("/proc/" + strconv.Itoa(info.Container.State.Pid) + "/ns/net")
	require.NoError(t, err)
	defer ns.Close()
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		self, err := os.Open("/proc/thread-self/ns/net")
		if err != nil {
			runtime.UnlockOSThread()
			done <- err
			return
		}
		defer self.Close()
		if err := unix.Setns(int(ns.Fd()), unix.CLONE_NEWNET); err != nil {
			runtime.UnlockOSThread()
			done <- err
			return
		}
		err = f()
		if unix.Setns(int(self.Fd()), unix.CLONE_NEWNET) == nil {
			runtime.UnlockOSThread()
		}
		done <- err
	}()
	require.NoError(t, <-done)
}

// rawSend writes whole Ethernet frames on eth0 of container id, through a
// packet socket in its namespace.
func rawSend(t testing.TB, c client.APIClient, id string, frames ...[]byte) {
	t.Helper()
	inNetnsOf(t, c, id, func() error {
		ifc, err := net.InterfaceByName("eth0")
		if err != nil {
			return err
		}
		fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW, 0)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		for _, f := range frames {
			to := &unix.SockaddrLinklayer{Ifindex: ifc.Index, Halen: 6, Protocol: htons(binary.BigEndian.Uint16(f[12:14]))}
			copy(to.Addr[:], f[:6])
			if err := unix.Sendto(fd, f, 0, to); err != nil {
				return err
			}
		}
		return nil
	})
}

func htons(v uint16) uint16 { return v<<8 | v>>8 }

// sniffer is a packet socket on eth0 of a container: every frame its
// interface receives, whatever its destination MAC.
type sniffer struct {
	fd     int
	mu     sync.Mutex
	frames [][]byte
	done   chan struct{}
}

// sniff opens a sniffer in container id, which runs, for d.
func sniff(t *testing.T, c client.APIClient, id string, d time.Duration) *sniffer {
	t.Helper()
	s := &sniffer{fd: -1, done: make(chan struct{})}
	inNetnsOf(t, c, id, func() error {
		ifc, err := net.InterfaceByName("eth0")
		if err != nil {
			return err
		}
		fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW, int(htons(unix.ETH_P_ALL)))
		if err != nil {
			return err
		}
		if err := unix.Bind(fd, &unix.SockaddrLinklayer{Protocol: htons(unix.ETH_P_ALL), Ifindex: ifc.Index}); err != nil {
			unix.Close(fd)
			return err
		}
		tv := unix.NsecToTimeval((100 * time.Millisecond).Nanoseconds())
		if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
			unix.Close(fd)
			return err
		}
		s.fd = fd
		return nil
	})
	go func() {
		defer close(s.done)
		defer unix.Close(s.fd)
		buf := make([]byte, 65536)
		for end := time.Now().Add(d); time.Now().Before(end); {
			n, _, err := unix.Recvfrom(s.fd, buf, 0)
			if err == nil && n > 0 {
				s.mu.Lock()
				s.frames = append(s.frames, append([]byte(nil), buf[:n]...))
				s.mu.Unlock()
			}
		}
	}()
	return s
}

// wait waits for the sniffer's time to end and returns what it received;
// a nil sniffer received nothing.
func (s *sniffer) wait() [][]byte {
	if s == nil {
		return nil
	}
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.frames
}

// udpMarked reports whether frame is an IPv4 UDP datagram whose payload
// starts with mark.
func udpMarked(frame []byte, mark uint32) bool {
	if len(frame) < 14+20+8+4 || binary.BigEndian.Uint16(frame[12:]) != 0x0800 || frame[14+9] != 17 {
		return false
	}
	ihl := int(frame[14]&0x0f) * 4
	at := 14 + ihl + 8
	return len(frame) >= at+4 && binary.BigEndian.Uint32(frame[at:]) == mark
}

// TestAdvBroadcastToOtherAgent: an agent's rules drop what it sends to
// 172.16.0.0/12, every other agent among it. The attacker sends a victim
// (both of the default policy) a UDP datagram in a frame to the victim's
// own MAC, its IP destination the limited broadcast 255.255.255.255, or
// the all-hosts group 224.0.0.1: the frame is unicast at layer 2, so the
// bridge's drop of broadcast and multicast (meta pkttype) does not see
// it, and its IP destination is in no range the attacker's chains drop,
// so the chain of the attacker's address ends without a verdict and the
// base chain accepts it, in the bridge family and in the ip family alike.
// The victim's kernel delivers the broadcast to a socket bound to the
// port on every address (the multicast datagram passes the rules too; the
// fake agent's socket takes none). Neither may reach the victim.
func TestAdvBroadcastToOtherAgent(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	attacker, victim := a.pair("strict")
	to := enginetest.LinkOf(t, a.c, victim.ContainerID)
	wait := enginetest.ListenIn(t, a.c, victim.ContainerID, a.port, 2*time.Second)
	packets := map[string]enginetest.Packet{}
	for name, dst := range map[string]string{
		"the victim's own address (control)": victim.IP.String(),
		"255.255.255.255":                    "255.255.255.255",
		"224.0.0.1":                          "224.0.0.1",
	} {
		packets[name] = enginetest.Packet{Proto: enginetest.UDP, Dst: netip.MustParseAddr(dst), DstMAC: to.MAC,
			Port: a.port, Mark: a.oracle.Mark()}
	}
	var list []enginetest.Packet
	for _, p := range packets {
		list = append(list, p)
	}
	enginetest.Spoof(t, a.c, attacker.ContainerID, list...)
	got := wait()
	for name, p := range packets {
		assert.NotContains(t, got, p.Mark, "a UDP datagram to %s, in a frame to the victim's MAC %s, reached the victim", name, to.MAC)
	}
	if t.Failed() {
		t.Logf("table bridge kici then:\n%s", nftList("table", "bridge", "kici"))
	}
}

// nftList is `nft list ARGS` in the Engine's namespace.
func nftList(args ...string) string {
	out, err := execOut("nft", append([]string{"list"}, args...)...)
	if err != nil {
		return fmt.Sprintf("nft list %v: %v: %s", args, err, out)
	}
	return out
}

// execOut runs a command and returns its combined output.
func execOut(name string, args ...string) (string, error) {
	out, err := exec.Command(name, args...).CombinedOutput()
	return string(out), err
}

// entrypointImage builds a job image, ref, whose ENTRYPOINT runs script
// (busybox sh) before it execs the command the backend gives it: a job's
// image keeps its ENTRYPOINT, only its Cmd is the agent's. It is removed
// at the end of the test, once b has shut its agents down.
func (a *attackEnv) entrypointImage(b *Backend, ref, script string) {
	a.t.Helper()
	ctx := context.Background()
	base := ref + "-base"
	enginetest.JobImage(a.t, a.c, base)
	made, err := a.c.ContainerCreate(ctx, client.ContainerCreateOptions{Config: &container.Config{Image: base}})
	require.NoError(a.t, err)
	defer func() {
		_, _ = a.c.ContainerRemove(ctx, made.ID, client.ContainerRemoveOptions{Force: true})
	}()
	entrypoint, err := json.Marshal([]string{"/bin/sh", "-c", script + "\nexec \"$@\"", "sh"})
	require.NoError(a.t, err)
	_, err = a.c.ContainerCommit(ctx, made.ID, client.ContainerCommitOptions{Reference: ref,
		Changes: []string{"ENTRYPOINT " + string(entrypoint)}})
	require.NoError(a.t, err)
	a.t.Cleanup(func() {
		_, _ = a.c.ImageRemove(context.Background(), ref, client.ImageRemoveOptions{Force: true})
	})
	a.t.Cleanup(func() { shutdown(b) })
}

// shutdown shuts b's agents down, a minute at most.
func shutdown(b *Backend) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_ = b.ShutdownAll(ctx)
}

// spoofLoop is a shell loop that has the fake agent of the runtime volume
// send the packets n times, 100 ms apart, in the background.
func spoofLoop(n int, packets ...map[string]any) string {
	arg, _ := json.Marshal(packets)
	return fmt.Sprintf("( i=0; while [ $i -lt %d ]; do %s spoof '%s' >/dev/null 2>&1; i=$((i+1)); sleep 0.1; done ) &",
		n, enginetest.AgentNode, arg)
}

// TestAdvWindowPoisonsBridge: a job's image keeps its ENTRYPOINT, which
// runs as root from the container's start, before the backend has read
// the container's port and written its binding. The attacker's ENTRYPOINT
// sends, in that window, frames whose Ethernet source is a running
// victim agent's MAC (Docker derives it from the address: 02:42 and the
// IPv4 address). The attacker's port is not yet in agent-ports, so only
// the address checks of agent-prerouting see the frames, and their IP
// source (the attacker's own address, not yet bound) is in no set: they
// pass, and the bridge learns the victim's MAC on the attacker's port.
// Once bound, the attacker may no longer send that MAC, but what the
// bridge learnt stays until the victim sends again: what the host sends
// the victim (the orchestrator's messages) goes out the attacker's port.
// Here the Engine's answer to the spawn's inspect comes late, which makes
// the window certain; without it, one frame the ENTRYPOINT sends as it
// starts is in time too (seen twice in two tries). What the host sends
// the victim must reach the victim and not the attacker.
func TestAdvWindowPoisonsBridge(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	image := a.agentImage(nil)
	var late enginetest.LateAnswers
	b := a.backendAs(a.name, enginetest.EngineWith(t, late.Wrap), a.nftHere(), strict(image))
	victim := a.spawnAs(b, "victim", "strict")
	victimLink := enginetest.LinkOf(t, a.c, victim.ContainerID)
	bridge := enginetest.HostInterface(t, gateway)
	// The victim asked the gateway's MAC: the host holds the victim's, and
	// sends there with no question until it doubts it (5 s after a use).
	require.Equal(t, victimLink.MAC, enginetest.Neighbour(t, bridge.Name, victim.IP))
	require.Equal(t, victimLink.HostPort, enginetest.FDBPort(t, bridge.Name, victimLink.MAC))

	job := "job-" + a.name + ":poison"
	a.entrypointImage(b, job, spoofLoop(50, map[string]any{"kind": "udp", "dst": unused.String(), "port": closedPort,
		"srcMAC": victimLink.MAC.String(), "dstMAC": "02:00:00:00:00:01"}))
	hold := late.Hold(containerInspect)
	done := make(chan struct{})
	var res lateSpawn
	go func() {
		defer close(done)
		r := a.request("attacker", "strict")
		r.Job = &Job{Image: job}
		res.agent, res.err = b.Spawn(context.Background(), r)
	}()
	hold, id, _ := a.heldRunning(&late, hold, done)
	attackerPort := enginetest.LinkOf(t, a.c, id).HostPort
	poisoned := false
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end) && !poisoned; time.Sleep(50 * time.Millisecond) {
		poisoned = enginetest.FDBPort(t, bridge.Name, victimLink.MAC) == attackerPort
	}
	hold.Release()
	<-done
	t.Logf("in the window, the bridge learnt the victim's MAC on the attacker's port: %v", poisoned)
	var sniffed *sniffer
	if res.err == nil { // a spawn that fails takes the attacker's port away
		sniffed = sniff(t, a.c, res.agent.ContainerID, 2*time.Second)
	}
	mark, got, leaked := a.hostToVictim(victim, sniffed)

	assert.False(t, leaked, "a datagram the host sent the victim %s (MAC %s) reached the attacker's port %s (the bridge's port of that MAC: %s)",
		victim.IP, victimLink.MAC, attackerPort, enginetest.FDBPort(t, bridge.Name, victimLink.MAC))
	assert.Contains(t, got, mark, "the datagram the host sent the victim reached it")
}

// hostToVictim sends the victim, from the host, a UDP datagram of a new
// mark to the test's port, and returns the mark, the marks the victim got
// and whether the sniffer (nil: none) caught the datagram.
func (a *attackEnv) hostToVictim(victim Agent, sniffed *sniffer) (mark uint32, got []uint32, leaked bool) {
	a.t.Helper()
	wait := enginetest.ListenIn(a.t, a.c, victim.ContainerID, a.port, 2*time.Second)
	mark = a.oracle.Mark()
	conn, err := net.Dial("udp", netip.AddrPortFrom(victim.IP, a.port).String())
	require.NoError(a.t, err)
	defer conn.Close()
	_, err = conn.Write(binary.BigEndian.AppendUint32(nil, mark))
	require.NoError(a.t, err)
	got = wait()
	for _, f := range sniffed.wait() {
		leaked = leaked || udpMarked(f, mark)
	}
	return mark, got, leaked
}

// The frames the tests write themselves.

// etherFrame is an Ethernet frame: dst, src, the EtherType, the payload.
func etherFrame(dst, src net.HardwareAddr, etherType uint16, payload []byte) []byte {
	f := append(append(append([]byte{}, dst...), src...), byte(etherType>>8), byte(etherType))
	return append(f, payload...)
}

// ipv4Packet is an IPv4 packet of protocol proto from src to dst, with
// options (a multiple of 4 bytes), its header checksum filled in.
func ipv4Packet(proto uint8, src, dst netip.Addr, options, l4 []byte) []byte {
	ihl := 20 + len(options)
	h := []byte{byte(0x40 | ihl/4), 0}
	h = binary.BigEndian.AppendUint16(h, uint16(ihl+len(l4)))
	h = append(h, 0, 0, 0x40, 0, 64, proto, 0, 0)
	h = append(append(append(h, src.AsSlice()...), dst.AsSlice()...), options...)
	binary.BigEndian.PutUint16(h[10:], inetChecksum(h))
	return append(h, l4...)
}

// ipv6Packet is an IPv6 packet of next header proto from src to dst.
func ipv6Packet(proto uint8, src, dst netip.Addr, l4 []byte) []byte {
	h := binary.BigEndian.AppendUint32(nil, 6<<28)
	h = binary.BigEndian.AppendUint16(h, uint16(len(l4)))
	h = append(h, proto, 64)
	h = append(append(h, src.AsSlice()...), dst.AsSlice()...)
	return append(h, l4...)
}

// udpDatagram is a UDP datagram from src to dst (IPv4 or IPv6), to port,
// whose payload starts with mark, its checksum filled in.
func udpDatagram(src, dst netip.Addr, port uint16, mark uint32) []byte {
	l4 := binary.BigEndian.AppendUint16(nil, 40000)
	l4 = binary.BigEndian.AppendUint16(l4, port)
	payload := append(binary.BigEndian.AppendUint32(nil, mark), "kicikit-adversary"...)
	l4 = binary.BigEndian.AppendUint16(l4, uint16(8+len(payload)))
	l4 = append(append(l4, 0, 0), payload...)
	pseudo := append(append([]byte{}, src.AsSlice()...), dst.AsSlice()...)
	if dst.Is4() {
		pseudo = append(pseudo, 0, 17)
		pseudo = binary.BigEndian.AppendUint16(pseudo, uint16(len(l4)))
	} else {
		pseudo = binary.BigEndian.AppendUint32(pseudo, uint32(len(l4)))
		pseudo = append(pseudo, 0, 0, 0, 17)
	}
	binary.BigEndian.PutUint16(l4[6:], inetChecksum(append(pseudo, l4...)))
	return l4
}

// udpFrame is an Ethernet frame from srcMAC to dstMAC that carries
// udpDatagram, in IPv4 or IPv6 as the addresses are.
func udpFrame(dstMAC, srcMAC net.HardwareAddr, src, dst netip.Addr, port uint16, mark uint32) []byte {
	if dst.Is6() {
		return etherFrame(dstMAC, srcMAC, 0x86dd, ipv6Packet(17, src, dst, udpDatagram(src, dst, port, mark)))
	}
	return etherFrame(dstMAC, srcMAC, 0x0800, ipv4Packet(17, src, dst, nil, udpDatagram(src, dst, port, mark)))
}

// inetChecksum is the Internet checksum of b.
func inetChecksum(b []byte) uint16 {
	var sum uint32
	for i := 0; i+1 < len(b); i += 2 {
		sum += uint32(binary.BigEndian.Uint16(b[i:]))
	}
	if len(b)%2 == 1 {
		sum += uint32(b[len(b)-1]) << 8
	}
	for sum > 0xffff {
		sum = sum>>16 + sum&0xffff
	}
	return ^uint16(sum)
}

// markedCounters adds, to the oracle's table, counters of UDP datagrams of
// each mark at its input and forward hooks, and returns a function that
// reads them once they have settled: as Oracle.Send does, for frames the
// test writes itself.
func (a *attackEnv) markedCounters(marks ...uint32) func() []enginetest.Passage {
	a.t.Helper()
	var script string
	for _, m := range marks {
		for _, hook := range []string{"input", "forward"} {
			name := fmt.Sprintf("%s-%08x", hook, m)
			script += fmt.Sprintf("add counter %s %s\n", a.oracle.Table(), name)
			script += fmt.Sprintf("add rule %s %s meta l4proto udp @th,64,32 0x%08x counter name %q\n", a.oracle.Table(), hook, m, name)
		}
	}
	require.NoError(a.t, enginetest.Nft(script))
	return func() []enginetest.Passage {
		time.Sleep(time.Second)
		out := make([]enginetest.Passage, len(marks))
		for i, m := range marks {
			out[i] = enginetest.Passage{Input: a.counter(fmt.Sprintf("input-%08x", m)), Forward: a.counter(fmt.Sprintf("forward-%08x", m))}
		}
		return out
	}
}

// counter reads one named counter of the oracle's table.
func (a *attackEnv) counter(name string) uint64 {
	a.t.Helper()
	out, err := exec.Command("nft", "-j", "list", "counter", a.oracle.Table(), name).Output()
	require.NoError(a.t, err)
	var doc struct {
		Nftables []struct{ Counter *struct{ Packets uint64 } }
	}
	require.NoError(a.t, json.Unmarshal(out, &doc))
	for _, o := range doc.Nftables {
		if o.Counter != nil {
			return o.Counter.Packets
		}
	}
	return 0
}

// linkLocalGroup is an address of the IEEE 802.1D link-local group
// (01:80:c2:00:00:00 to 0f) other than the bridge group: a bridge
// forwards no frame to it, it hands it up on the port it came in by.
var linkLocalGroup = net.HardwareAddr{0x01, 0x80, 0xc2, 0, 0, 0x0e}

// eui64 is the IPv6 link-local address the kernel derives from mac.
func eui64(mac net.HardwareAddr) netip.Addr {
	var a [16]byte
	a[0], a[1] = 0xfe, 0x80
	copy(a[8:], []byte{mac[0] ^ 2, mac[1], mac[2], 0xff, 0xfe, mac[3], mac[4], mac[5]})
	return netip.AddrFrom16(a)
}

// TestAdvLinkLocalFramesBypassBinding: a bridge does not forward a frame
// to a link-local group address (01:80:c2:00:00:0X, but the bridge
// group's with STP off): it learns its source MAC, runs it through the
// bridge family's input hook, not prerouting, and hands it to the host's
// stack as received on the port itself, the agent's veth, not on the
// bridge. So a bound agent's frame to 01:80:c2:00:00:0e meets neither
// agent-prerouting's binding nor, at layer 3, `iifname @agent-bridges
// drop` (its iifname is the veth). The attacker (default policy) sends
// the host, that way:
//   - UDP to a closed host port from an unused address of the isolated
//     network, and from the victim's (whose policy opens every host port);
//   - IPv6 UDP to the host's link-local address of the attacker's veth;
//   - a router advertisement: the host takes an address and a route of
//     the attacker's prefix on the veth;
//   - a frame whose source is the victim's MAC: the bridge learns it on
//     the attacker's port, at any time, and what the host sends the victim
//     goes to the attacker.
//
// None may pass, nor change what the host has, nor take the victim's
// traffic.
func TestAdvLinkLocalFramesBypassBinding(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	attacker, victim := a.pair("open")
	attackerLink := enginetest.LinkOf(t, a.c, attacker.ContainerID)
	victimLink := enginetest.LinkOf(t, a.c, victim.ContainerID)
	bridge := enginetest.HostInterface(t, gateway)
	vethLinkLocal := enginetest.LinkLocal(t, attackerLink.HostPort)

	flows := []struct {
		name     string
		from, to netip.Addr
	}{
		{"IPv4 UDP from an unused address to a closed host port", unused, gateway},
		{"IPv4 UDP from the victim's address to a closed host port", victim.IP, gateway},
		{"IPv6 UDP to the host's link-local address of the attacker's veth, to a closed port", eui64(attackerLink.MAC), vethLinkLocal},
	}
	marks := make([]uint32, len(flows))
	frames := make([][]byte, len(flows))
	for i, f := range flows {
		marks[i] = a.oracle.Mark()
		frames[i] = udpFrame(linkLocalGroup, attackerLink.MAC, f.from, f.to, closedPort, marks[i])
	}
	read := a.markedCounters(marks...)
	rawSend(t, a.c, attacker.ContainerID, frames...)
	for i, got := range read() {
		assert.False(t, got.Passed(), "%s, in a frame to %s, passed the host's filtering (%s)", flows[i].name, linkLocalGroup, got)
	}

	var r [2]byte
	_, _ = rand.Read(r[:])
	prefix := netip.MustParsePrefix(fmt.Sprintf("2001:db8:%x::/64", binary.BigEndian.Uint16(r[:])))
	t.Cleanup(func() { forgetPrefix(t, attackerLink.HostPort, prefix) })
	enginetest.Spoof(t, a.c, attacker.ContainerID, enginetest.Packet{Proto: enginetest.RA, Prefix: prefix, DstMAC: linkLocalGroup})
	time.Sleep(500 * time.Millisecond)
	assert.Empty(t, hostPrefix(t, attackerLink.HostPort, prefix), "a router advertisement to %s gave the host's veth %s", linkLocalGroup, prefix)

	require.Equal(t, victimLink.MAC, enginetest.Neighbour(t, bridge.Name, victim.IP))
	rawSend(t, a.c, attacker.ContainerID, udpFrame(linkLocalGroup, victimLink.MAC, attacker.IP, gateway, closedPort, a.oracle.Mark()))
	learnt := enginetest.FDBPort(t, bridge.Name, victimLink.MAC)
	sniffed := sniff(t, a.c, attacker.ContainerID, 2*time.Second)
	mark, got, leaked := a.hostToVictim(victim, sniffed)
	assert.NotEqual(t, attackerLink.HostPort, learnt, "the bridge's port of the victim's MAC %s, once the attacker sent a frame from it to %s", victimLink.MAC, linkLocalGroup)
	assert.False(t, leaked, "a datagram the host sent the victim %s reached the attacker's port %s", victim.IP, attackerLink.HostPort)
	assert.Contains(t, got, mark, "the datagram the host sent the victim reached it")
}

// TestAdvRecreatedNetwork: New reads the isolated network's bridge once,
// and refuses a network that is not a bridge or has IPv6 then only.
// Every later transaction adds that bridge to agent-bridges, whose drop
// is what stops, at layer 3, a container before its binding. The
// network is removed while no agent runs (docker network prune does
// so), and made again by hand, as the package makes it; the backend goes
// on spawning onto its new bridge, which no rule names. In the window
// before its binding (the Engine's answer to the spawn's inspect comes
// late here), the attacker's IPv4 to a closed host port and to 10.99.0.1,
// and its IPv6 to the new bridge, pass. None may pass: a container
// reaches nothing before its rules are written. Not parallel: it makes
// the isolated network again, and removes it at its end.
func TestAdvRecreatedNetwork(t *testing.T) {
	a := newAttackEnv(t)
	image := a.agentImage(nil)
	var late enginetest.LateAnswers
	b := a.backendAs(a.name, enginetest.EngineWith(t, late.Wrap), a.nftHere(), strict(image))
	t.Cleanup(func() { a.removeNetwork() })
	a.removeNetwork()
	_, err := a.c.NetworkCreate(context.Background(), agentspawn.IsolatedNetwork, networkCreateOptions())
	require.NoError(t, err)

	hold := late.Hold(containerInspect)
	done := make(chan struct{})
	var res lateSpawn
	go func() {
		defer close(done)
		res.agent, res.err = b.Spawn(context.Background(), a.request("attacker", "strict"))
	}()
	hold, id, _ := a.heldRunning(&late, hold, done)
	bridge := enginetest.HostInterface(t, gateway)
	linkLocal := enginetest.LinkLocal(t, bridge.Name)
	flows := []enginetest.Packet{
		packet(enginetest.UDP, netip.Addr{}, gateway, closedPort),
		packet(enginetest.UDP, netip.Addr{}, private, 53),
		packet(enginetest.UDP, netip.Addr{}, linkLocal, closedPort),
	}
	for i := range flows { // it cannot ask by ARP before its binding; it may know
		flows[i].DstMAC = bridge.MAC
	}
	passed := a.oracle.Send(a.c, id, flows...)
	hold.Release()
	<-done
	for i, p := range flows {
		assert.False(t, passed[i].Passed(), "before its binding, on the new bridge %s, the attacker's UDP to %s:%d passed (%s)", bridge.Name, p.Dst, p.Port, passed[i])
	}
	if t.Failed() {
		t.Logf("table ip kici then:\n%s", kiciTable())
	}
	if res.err == nil {
		require.NoError(t, b.Destroy(context.Background(), res.agent.ID))
	}
}
