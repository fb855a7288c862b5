//go:build linux

package containerscaler

import (
	"context"
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
func inNetnsOf(t *testing.T, c client.APIClient, id string, f func() error) {
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
func rawSend(t *testing.T, c client.APIClient, id string, frames ...[]byte) {
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
// base chain accepts it; the victim's kernel delivers both to a socket
// bound to the port on every address. Neither may reach the victim.
func TestAdvBroadcastToOtherAgent(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	image := a.agentImage(nil)
	b := a.backendAs(a.name, a.engine, a.nftHere(), strict(image))
	attacker := a.spawnAs(b, "attacker", "strict")
	victim := a.spawnAs(b, "victim", "strict")
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
// Here the Engine's answer to the spawn's inspect comes late, which widens
// the window; it is open on every spawn of a job's image. What the host
// sends the victim must reach the victim and not the attacker.
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
	wait := enginetest.ListenIn(t, a.c, victim.ContainerID, a.port, 2*time.Second)
	mark := a.oracle.Mark()
	conn, err := net.Dial("udp", netip.AddrPortFrom(victim.IP, a.port).String())
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.Write(binary.BigEndian.AppendUint32(nil, mark))
	require.NoError(t, err)
	got := wait()
	leaked := false
	for _, f := range sniffed.wait() {
		leaked = leaked || udpMarked(f, mark)
	}

	assert.False(t, leaked, "a datagram the host sent the victim %s (MAC %s) reached the attacker's port %s (the bridge's port of that MAC: %s)",
		victim.IP, victimLink.MAC, attackerPort, enginetest.FDBPort(t, bridge.Name, victimLink.MAC))
	assert.Contains(t, got, mark, "the datagram the host sent the victim reached it")
}
