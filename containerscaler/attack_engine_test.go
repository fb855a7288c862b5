package containerscaler

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"net/http"
	"net/netip"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The engine tests of this file play an attacker inside an agent (issue
// 32): the agent's container keeps Docker's default capabilities, raw
// sockets among them, and sends what it likes through
// [enginetest.Spoof]. The backends write their rules in the Engine's own
// network namespace, where the agents' traffic is, and an
// [enginetest.Oracle] counts what passes the host's filtering there. The
// tests of one run share that namespace's table ip kici, as the backends
// of one host do; each has its own marks and ports.

// attackEnv is one attack test's world: env's, with the Engine's
// namespace, forwarding to 10.99.0.0/16 and the metadata address, an
// oracle, and an orchestrator port of the test's own.
type attackEnv struct {
	*env
	ns     string
	oracle *enginetest.Oracle
	port   uint16 // the orchestrator's port on the gateway
}

func newAttackEnv(t *testing.T) *attackEnv {
	t.Helper()
	a := &attackEnv{env: newEnv(t), ns: enginetest.InEngineNetns(t)}
	enginetest.Forwarding(t)
	a.oracle = enginetest.NewOracle(t)
	var b [2]byte
	_, _ = rand.Read(b[:])
	a.port = 20000 + binary.BigEndian.Uint16(b[:])%20000
	return a
}

// The addresses the attacks aim at.
var (
	gateway  = netip.MustParseAddr(agentspawn.IsolatedNetworkGateway)
	unused   = netip.MustParseAddr("172.30.0.250") // no agent's, in the isolated network
	private  = netip.MustParseAddr("10.99.0.1")    // a private range, routed on
	metadata = netip.MustParseAddr(enginetest.MetadataAddr)
)

// closedPort is a host port no rule of a default policy opens.
const closedPort = 9

// nftHere and nftThere both run nft in the Engine's namespace (the tests
// run in it). The package shares what it knows of a table between the
// backends of one command only: two backends, one of each, are two
// processes' as far as it can tell.
func (a *attackEnv) nftHere() []string  { return []string{"nft"} }
func (a *attackEnv) nftThere() []string { return []string{"ip", "netns", "exec", a.ns, "nft"} }

// strict is a label set of the default policy: the host's orchestrator
// port and DNS, no private range.
func strict(image string) scalerconfig.LabelSet {
	return scalerconfig.LabelSet{Labels: []string{"strict"}, Image: image, ImagePullPolicy: scalerconfig.PullNever}
}

// open is a label set that may reach anything on the host, 10.99.0.0/16
// and the metadata address.
func open(image string) scalerconfig.LabelSet {
	return scalerconfig.LabelSet{Labels: []string{"open"}, Image: image, ImagePullPolicy: scalerconfig.PullNever,
		NetworkPolicy: &scalerconfig.NetworkPolicy{HostAccess: []string{"*"},
			Allowlist: []string{enginetest.ForwardNet, enginetest.MetadataAddr + "/32"}}}
}

// backendAs is New's backend of the scaler name for these label sets, its
// Engine requests through engine, its rules written by nft; shut down at
// the end.
func (a *attackEnv) backendAs(name string, engine client.APIClient, nft []string, sets ...scalerconfig.LabelSet) *Backend {
	a.t.Helper()
	cfg := a.config(sets...)
	cfg.Scalers[0].Name = name
	return a.backend(cfg, func(o *Options) { o.Scaler, o.Engine, o.NftCommand = name, engine, nft })
}

// spawnAs spawns agent id of the label set labelled label, dialling the
// test's orchestrator port.
func (a *attackEnv) spawnAs(b *Backend, id, label string) Agent {
	a.t.Helper()
	return a.spawn(b, id, a.request(id, label))
}

// backendHere is a backend of the test's scaler with both label sets,
// its rules written in this namespace, and the test's agent image.
func (a *attackEnv) backendHere() (*Backend, string) {
	a.t.Helper()
	image := a.agentImage(nil)
	return a.backendAs(a.name, a.engine, a.nftHere(), strict(image), open(image)), image
}

// pair spawns two agents of a backend of the test's scaler with both
// label sets, its rules written in this namespace: the attacker, of the
// strict label set, and the victim, of the label set labelled victim.
func (a *attackEnv) pair(victim string) (attacker, target Agent) {
	a.t.Helper()
	b, _ := a.backendHere()
	return a.spawnAs(b, "attacker", "strict"), a.spawnAs(b, "victim", victim)
}

// request is the spawn request of agent id of the label set labelled
// label, dialling the test's orchestrator port.
func (a *attackEnv) request(id, label string) Request {
	return Request{AgentID: id, LabelSet: []string{label},
		OrchestratorURL: fmt.Sprintf("ws://%s:%d/ws", gateway, a.port)}
}

// flow is one packet an agent sends, and whether it must pass.
type flow struct {
	name string
	from Agent
	p    enginetest.Packet
	pass bool
}

// check sends each flow from its agent, those of one agent at once, in
// order, and fails the test for each that passes when it must not, or
// does not when it must; with the kici table as it was then.
func (a *attackEnv) check(flows ...flow) {
	a.t.Helper()
	var order []string
	by := map[string][]flow{}
	for _, f := range flows {
		if by[f.from.ContainerID] == nil {
			order = append(order, f.from.ContainerID)
		}
		by[f.from.ContainerID] = append(by[f.from.ContainerID], f)
	}
	failed := false
	for _, id := range order {
		packets := make([]enginetest.Packet, len(by[id]))
		for i, f := range by[id] {
			packets[i] = f.p
		}
		for i, got := range a.oracle.Send(a.c, id, packets...) {
			f := by[id][i]
			if got.Passed() != f.pass {
				failed = true
				a.t.Errorf("%s (agent %s at %s): passed %v (%s), must pass: %v", f.name, f.from.ID, f.from.IP, got.Passed(), got, f.pass)
			}
		}
	}
	if failed {
		a.t.Logf("table ip kici then:\n%s", kiciTable())
	}
}

// kiciTable is the Engine namespace's table ip kici, as nft lists it.
func kiciTable() string {
	out, err := exec.Command("nft", "list", "table", "ip", "kici").CombinedOutput()
	if err != nil {
		return fmt.Sprintf("nft list table ip kici: %v: %s", err, out)
	}
	return string(out)
}

// The packets of the attacks.
var protocols = []enginetest.Proto{enginetest.UDP, enginetest.TCP, enginetest.ICMP, enginetest.RawIP}

// packet is a packet of proto to dst, from src (zero: the sender's own),
// to port for UDP and TCP; protocol 253 (experiments) for RawIP.
func packet(proto enginetest.Proto, src, dst netip.Addr, port uint16) enginetest.Packet {
	p := enginetest.Packet{Proto: proto, Src: src, Dst: dst}
	switch proto {
	case enginetest.UDP, enginetest.TCP:
		p.Port = port
	case enginetest.RawIP:
		p.Protocol = 253
	}
	return p
}

// TestAttackSpoofedSourcesPass (issue 32, defect 1): an agent sends, with
// a raw socket, packets whose source is an unused address of the isolated
// network, or another live agent's (one whose policy opens the host, a
// private range and the metadata address), that agent's MAC too: UDP, a
// TCP SYN, ICMP and protocol 253, to a closed host port, to 10.99.0.1, to
// 169.254.169.254 and to the other agent. None may pass where the same
// packet from the agent's own address is dropped; from their own addresses
// both agents still reach what their policies allow.
func TestAttackSpoofedSourcesPass(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	attacker, victim := a.pair("open")
	victimLink := enginetest.LinkOf(t, a.c, victim.ContainerID)
	flows := []flow{
		{"the victim's own UDP to a host port (hostAccess *)", victim, packet(enginetest.UDP, netip.Addr{}, gateway, closedPort), true},
		{"the victim's own UDP to 10.99.0.1 (allowlisted)", victim, packet(enginetest.UDP, netip.Addr{}, private, 53), true},
		{"the victim's own UDP to the metadata address (allowlisted)", victim, packet(enginetest.UDP, netip.Addr{}, metadata, 80), true},
		{"the attacker's own UDP to the orchestrator's port", attacker, packet(enginetest.UDP, netip.Addr{}, gateway, a.port), true},
		{"the attacker's own TCP SYN to the orchestrator's port", attacker, packet(enginetest.TCP, netip.Addr{}, gateway, a.port), true},
	}
	type target struct {
		name string
		addr netip.Addr
		port uint16
	}
	targets := []target{{"a closed host port", gateway, closedPort}, {"10.99.0.1", private, 53},
		{"the metadata address", metadata, 80}, {"the other agent", victim.IP, closedPort}}
	var macSpoofs []flow
	for _, to := range targets {
		for _, proto := range protocols {
			p := packet(proto, netip.Addr{}, to.addr, to.port)
			if to.addr == victim.IP {
				p.DstMAC = victimLink.MAC // bridged, not routed
			}
			own, fromUnused, fromVictim := p, p, p
			fromUnused.Src, fromVictim.Src = unused, victim.IP
			what := fmt.Sprintf("%s to %s", proto, to.name)
			flows = append(flows,
				flow{"the attacker's own " + what, attacker, own, false},
				flow{what + " from an unused address", attacker, fromUnused, false},
				flow{what + " from the other agent's address", attacker, fromVictim, false})
			if to.addr != victim.IP {
				fromVictim.SrcMAC = victimLink.MAC
				macSpoofs = append(macSpoofs, flow{what + " from the other agent's address and MAC", attacker, fromVictim, false})
			}
		}
	}
	// Last: a frame with the victim's MAC moves it to the attacker's port.
	a.check(append(flows, macSpoofs...)...)
}

// TestAttackIPv6AroundRules (issue 32, defect 2): the isolated network is
// IPv4 only here, yet its bridge has an IPv6 link-local address. An agent
// sends IPv6 from its link-local address, raw, to the bridge's, to a port
// its IPv4 rules drop: nothing may reach the host. Nor may a router
// advertisement it sends the host give the host's bridge a prefix.
func TestAttackIPv6AroundRules(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	b, _ := a.backendHere()
	attacker := a.spawnAs(b, "attacker", "strict")
	bridge := enginetest.HostInterface(t, gateway)
	linkLocal := enginetest.LinkLocal(t, bridge.Name)
	flows := []flow{
		{"IPv4 UDP to a closed host port", attacker, packet(enginetest.UDP, netip.Addr{}, gateway, closedPort), false},
		{"IPv4 UDP to the orchestrator's port", attacker, packet(enginetest.UDP, netip.Addr{}, gateway, a.port), true},
	}
	for _, proto := range protocols {
		flows = append(flows, flow{fmt.Sprintf("IPv6 %s to the bridge's link-local address %s", proto, linkLocal),
			attacker, packet(proto, netip.Addr{}, linkLocal, closedPort), false})
	}
	a.check(flows...)

	var r [2]byte
	_, _ = rand.Read(r[:])
	prefix := netip.MustParsePrefix(fmt.Sprintf("2001:db8:%x::/64", binary.BigEndian.Uint16(r[:])))
	t.Cleanup(func() { forgetPrefix(t, bridge.Name, prefix) })
	enginetest.Spoof(t, a.c, attacker.ContainerID, enginetest.Packet{Proto: enginetest.RA, Prefix: prefix,
		Dst: linkLocal, DstMAC: bridge.MAC})
	time.Sleep(500 * time.Millisecond)
	assert.Empty(t, hostPrefix(t, bridge.Name, prefix), "a router advertisement from an agent gave the host's bridge %s", prefix)
}

// hostPrefix returns the host's addresses and routes of dev in prefix,
// as ip lists them.
func hostPrefix(t *testing.T, dev string, prefix netip.Prefix) string {
	t.Helper()
	addrs, err := exec.Command("ip", "-6", "addr", "show", "dev", dev, "to", prefix.String()).CombinedOutput()
	require.NoError(t, err, "%s", addrs)
	routes, err := exec.Command("ip", "-6", "route", "show", prefix.String(), "dev", dev).CombinedOutput()
	require.NoError(t, err, "%s", routes)
	return strings.TrimSpace(string(addrs) + string(routes))
}

// forgetPrefix removes what an advertisement of prefix gave dev.
func forgetPrefix(t *testing.T, dev string, prefix netip.Prefix) {
	out, err := exec.Command("ip", "-6", "-o", "addr", "show", "dev", dev, "to", prefix.String()).Output()
	if err == nil {
		for _, m := range regexp.MustCompile(`inet6 (\S+)`).FindAllStringSubmatch(string(out), -1) {
			_ = exec.Command("ip", "-6", "addr", "del", m[1], "dev", dev).Run()
		}
	}
	_ = exec.Command("ip", "-6", "route", "del", prefix.String(), "dev", dev).Run()
	assert.Empty(t, hostPrefix(t, dev, prefix), "the advertised prefix is gone")
}

// TestAttackARPPoisoning (issue 32's source binding, at layer 2): an agent
// claims another agent's address with its own MAC, by gratuitous ARP and
// by an ARP reply to the gateway, and claims the gateway's address to the
// other agent. Neither the host's neighbour entry of the other agent, nor
// the other agent's entry of the gateway, may change: else what the host
// sends that agent, or what that agent sends the orchestrator, goes to the
// attacker.
func TestAttackARPPoisoning(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	attacker, victim := a.pair("strict")
	attackerLink := enginetest.LinkOf(t, a.c, attacker.ContainerID)
	bridge := enginetest.HostInterface(t, gateway)
	victimMAC := enginetest.LearnNeighbour(t, bridge.Name, victim.IP)
	// The victim's kernel resolves the gateway as it connects to the
	// orchestrator.
	enginetest.Probe(t, a.c, victim.ContainerID, fmt.Sprintf("tcp:%s:%d", gateway, a.port))
	require.Equal(t, bridge.MAC, enginetest.LinkOf(t, a.c, victim.ContainerID).Neighbours[gateway])
	time.Sleep(1100 * time.Millisecond) // past the entries' locktime: a plain reply may replace them now

	enginetest.Spoof(t, a.c, attacker.ContainerID,
		enginetest.Packet{Proto: enginetest.ARP, ARPOp: enginetest.ARPRequest, Src: victim.IP, Dst: victim.IP},
		enginetest.Packet{Proto: enginetest.ARP, ARPOp: enginetest.ARPReply, Src: victim.IP, Dst: gateway, DstMAC: bridge.MAC},
		enginetest.Packet{Proto: enginetest.ARP, ARPOp: enginetest.ARPRequest, Src: gateway, Dst: gateway},
		enginetest.Packet{Proto: enginetest.ARP, ARPOp: enginetest.ARPReply, Src: gateway, Dst: victim.IP, DstMAC: victimMAC})
	stays(t, victimMAC.String(), func() string { return enginetest.Neighbour(t, bridge.Name, victim.IP).String() },
		"the host's neighbour entry of the victim %s (the attacker's MAC is %s)", victim.IP, attackerLink.MAC)
	stays(t, bridge.MAC.String(), func() string {
		return enginetest.LinkOf(t, a.c, victim.ContainerID).Neighbours[gateway].String()
	}, "the victim's neighbour entry of the gateway (the attacker's MAC is %s)", attackerLink.MAC)
}

// stays fails the test unless get returns want at each look, every 100 ms
// for a second: what a frame changes, it changes within that.
func stays(t testing.TB, want string, get func() string, msg string, args ...any) {
	t.Helper()
	for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if got := get(); got != want {
			t.Errorf("%s: %s, must stay %s", fmt.Sprintf(msg, args...), got, want)
			return
		}
	}
}

// TestAttackFDBPoisoning (issue 32's source binding, at layer 2): an agent
// sends a frame whose source is another agent's MAC. The bridge must not
// learn that MAC on the attacker's port: else the bridge sends the
// attacker what is meant for the other agent.
func TestAttackFDBPoisoning(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	attacker, victim := a.pair("strict")
	attackerLink := enginetest.LinkOf(t, a.c, attacker.ContainerID)
	victimLink := enginetest.LinkOf(t, a.c, victim.ContainerID) // it asked the gateway's MAC: the bridge learnt its own
	bridge := enginetest.HostInterface(t, gateway)
	require.Equal(t, victimLink.HostPort, enginetest.FDBPort(t, bridge.Name, victimLink.MAC))

	enginetest.Spoof(t, a.c, attacker.ContainerID,
		enginetest.Packet{Proto: enginetest.UDP, SrcMAC: victimLink.MAC, Dst: gateway, Port: a.port},
		enginetest.Packet{Proto: enginetest.ARP, SrcMAC: victimLink.MAC, Src: victim.IP, Dst: gateway})
	stays(t, "another port", func() string {
		if port := enginetest.FDBPort(t, bridge.Name, victimLink.MAC); port == attackerLink.HostPort {
			return "the attacker's port " + port
		}
		return "another port"
	}, "the bridge's port of the victim's MAC %s", victimLink.MAC)
}

// holderFlows are the flows that tell whether an agent of the strict label
// set runs with its rules: the orchestrator's port passes, a closed host
// port, 10.99.0.1 and the metadata address do not.
func (a *attackEnv) holderFlows(who string, ag Agent) []flow {
	return []flow{
		{who + ": UDP to the orchestrator's port", ag, packet(enginetest.UDP, netip.Addr{}, gateway, a.port), true},
		{who + ": UDP to a closed host port", ag, packet(enginetest.UDP, netip.Addr{}, gateway, closedPort), false},
		{who + ": TCP SYN to a closed host port", ag, packet(enginetest.TCP, netip.Addr{}, gateway, closedPort), false},
		{who + ": UDP to 10.99.0.1", ag, packet(enginetest.UDP, netip.Addr{}, private, 53), false},
		{who + ": UDP to the metadata address", ag, packet(enginetest.UDP, netip.Addr{}, metadata, 80), false},
	}
}

// addressAttempts is how many times a test that needs an agent to get the
// address another freed tries: Docker's IPAM gives the lowest free
// address, which another process's agent may take first. These tests do
// not run in parallel with the package's others: on a defective backend,
// a Destroy that strips the rules of an address, or a leftover rule, would
// hit whichever test's agent holds it.
const addressAttempts = 5

// TestAttackDestroyStripsOthersRules (issue 32, defect 3): backend 1's
// Destroy of agent A has the Engine remove A's container, which frees A's
// address; its answer comes late (held here, to widen the window), and
// only then does the Destroy go on to A's rules. Meanwhile backend 2,
// another process's, spawns agent B, which gets A's address. Once A's
// Destroy returned, B must still run with its rules.
func TestAttackDestroyStripsOthersRules(t *testing.T) {
	a := newAttackEnv(t)
	image := a.agentImage(nil)
	var late enginetest.LateAnswers
	b1 := a.backendAs(a.name, enginetest.EngineWith(t, late.Wrap), a.nftHere(), strict(image))
	b2 := a.backendAs(a.name+"-2", a.c, a.nftThere(), strict(image))
	for attempt := 1; ; attempt++ {
		first := a.spawnAs(b1, fmt.Sprintf("a%d", attempt), "strict")
		remove := late.Hold(enginetest.On(http.MethodDelete, "/containers/"+first.ContainerID))
		destroyed := make(chan error, 1)
		go func() { destroyed <- b1.Destroy(context.Background(), first.ID) }()
		<-remove.Held() // the container is gone, and its address free
		second := a.spawnAs(b2, fmt.Sprintf("b%d", attempt), "strict")
		remove.Release()
		require.NoError(t, <-destroyed)
		if second.IP == first.IP {
			a.check(a.holderFlows("B, on A's address", second)...)
			return
		}
		t.Logf("attempt %d: B got %s, not A's %s", attempt, second.IP, first.IP)
		require.NoError(t, b2.Destroy(context.Background(), second.ID))
		require.Less(t, attempt, addressAttempts, "no agent of backend 2 got the address backend 1's Destroy freed")
	}
}

// TestAttackLateInspectTakesAddress (issue 32, defect 4): backend 1's
// spawn of L (host access "*") reads its running container's address, and
// the answer comes late: meanwhile L's container dies, which frees the
// address, and backend 2, another process's, spawns H (the default
// policy), which gets it. L's spawn must then fail, and neither its rules
// nor its unwinding (nor its Destroy, had it succeeded) may change H's:
// a closed host port stays closed to H.
func TestAttackLateInspectTakesAddress(t *testing.T) {
	a := newAttackEnv(t)
	image := a.agentImage(nil)
	var late enginetest.LateAnswers
	b1 := a.backendAs(a.name, enginetest.EngineWith(t, late.Wrap), a.nftHere(), open(image))
	b2 := a.backendAs(a.name+"-2", a.c, a.nftThere(), strict(image))
	for attempt := 1; ; attempt++ {
		var res lateSpawn
		done := make(chan struct{})
		hold := late.Hold(containerInspect)
		go func() {
			defer close(done)
			res.agent, res.err = b1.Spawn(context.Background(), a.request(fmt.Sprintf("l%d", attempt), "open"))
		}()
		hold, id, addr := a.heldRunning(&late, hold, done)
		a.kill(id)
		holder := a.spawnAs(b2, fmt.Sprintf("h%d", attempt), "strict")
		hold.Release()
		<-done
		if holder.IP != addr {
			t.Logf("attempt %d: H got %s, not L's %s", attempt, holder.IP, addr)
			_ = b1.Destroy(context.Background(), res.agent.ID)
			require.NoError(t, b2.Destroy(context.Background(), holder.ID))
			require.Less(t, attempt, addressAttempts, "no agent of backend 2 got the address of backend 1's dead container")
			continue
		}
		assert.Error(t, res.err, "the spawn of L, whose container no longer holds %s", addr)
		a.check(a.holderFlows("H, once L's spawn returned", holder)...)
		if res.err == nil {
			require.NoError(t, b1.Destroy(context.Background(), res.agent.ID))
		}
		settled(t, b1)
		a.check(a.holderFlows("H, once L was unwound or destroyed", holder)...)
		return
	}
}

// lateSpawn is the outcome of TestAttackLateInspectTakesAddress's spawn.
type lateSpawn struct {
	agent Agent
	err   error
}

// containerInspect matches a container's inspect.
var containerInspect = enginetest.On(http.MethodGet, "/containers/*/json")

// heldRunning waits until hold, or the next hold of a container's inspect,
// holds the answer to the inspect of a running container with an address
// on the isolated network, and returns that hold, the container and the
// address. It lets every other answer through, and fails the test when the
// spawn is done first.
func (a *attackEnv) heldRunning(late *enginetest.LateAnswers, hold *enginetest.LateAnswer, done <-chan struct{}) (*enginetest.LateAnswer, string, netip.Addr) {
	a.t.Helper()
	for {
		select {
		case <-hold.Held():
		case <-done:
			a.t.Fatal("the spawn ended without an inspect of its running container, whose answer the test holds")
		}
		id := strings.Split(hold.Paths()[0], "/")[2]
		info, err := a.c.ContainerInspect(context.Background(), id, client.ContainerInspectOptions{})
		if err == nil && info.Container.State.Running && info.Container.NetworkSettings != nil {
			if n := info.Container.NetworkSettings.Networks[agentspawn.IsolatedNetwork]; n != nil && n.IPAddress.IsValid() {
				a.t.Cleanup(hold.Release) // a test that stops early lets the spawn end
				return hold, id, n.IPAddress
			}
		}
		next := late.Hold(containerInspect)
		hold.Release()
		hold = next
	}
}

// kill kills container id, and returns once the Engine has it stopped.
func (a *attackEnv) kill(id string) {
	a.t.Helper()
	ctx := context.Background()
	_, err := a.c.ContainerKill(ctx, id, client.ContainerKillOptions{Signal: "KILL"})
	require.NoError(a.t, err)
	w := a.c.ContainerWait(ctx, id, client.ContainerWaitOptions{Condition: container.WaitConditionNotRunning})
	select {
	case <-w.Result:
	case err := <-w.Error:
		require.NoError(a.t, err)
	}
}

// TestAttackLeftoverOrchestratorRules (issue 32, defect 7): a host the
// orchestrator ran on keeps a rule of its layout, `ip saddr X drop` in
// chain input of table ip kici, from an agent of X gone. The next agent on
// X must still reach the orchestrator's port its policy opens.
func TestAttackLeftoverOrchestratorRules(t *testing.T) {
	a := newAttackEnv(t)
	b, _ := a.backendHere()
	for attempt := 1; ; attempt++ {
		gone := a.spawnAs(b, fmt.Sprintf("gone%d", attempt), "strict")
		require.NoError(t, b.Destroy(context.Background(), gone.ID))
		forget := leaveRule(t, "ip saddr "+gone.IP.String()+" drop")
		next := a.spawnAs(b, fmt.Sprintf("next%d", attempt), "strict")
		if next.IP == gone.IP {
			a.check(a.holderFlows("the next agent on "+gone.IP.String(), next)...)
			return
		}
		t.Logf("attempt %d: the next agent got %s, not %s", attempt, next.IP, gone.IP)
		require.NoError(t, b.Destroy(context.Background(), next.ID))
		forget()
		require.Less(t, attempt, addressAttempts, "no next agent got the address of the one gone")
	}
}

// leaveRule adds rule to the orchestrator's chain input of table ip kici,
// in the Engine's namespace, making the chain as the orchestrator does if
// it is missing. It returns a function that removes the rule, and the
// chain if it made it, which the end of the test calls too.
func leaveRule(t *testing.T, rule string) func() {
	t.Helper()
	made := false
	if enginetest.Nft("add rule ip kici input "+rule+"\n") != nil {
		made = true
		require.NoError(t, enginetest.Nft("add table ip kici\n"+
			"add chain ip kici input { type filter hook input priority 0; policy accept; }\n"+
			"add rule ip kici input "+rule+"\n"))
	}
	done := false
	forget := func() {
		if done {
			return
		}
		done = true
		out, err := exec.Command("nft", "-a", "list", "chain", "ip", "kici", "input").CombinedOutput()
		if err != nil {
			return // gone with the table
		}
		for _, line := range strings.Split(string(out), "\n") {
			text, handle, ok := strings.Cut(strings.TrimSpace(line), " # handle ")
			if ok && text == rule {
				assert.NoError(t, enginetest.Nft("delete rule ip kici input handle "+handle+"\n"))
			}
		}
		if made {
			assert.NoError(t, enginetest.Nft("delete chain ip kici input\n"))
		}
	}
	t.Cleanup(forget)
	return forget
}

// The IPv6 subnet and gateway of TestAttackIPv6Network's network.
var (
	subnet6  = netip.MustParsePrefix("fd6b:6963:6900::/64")
	gateway6 = netip.MustParseAddr("fd6b:6963:6900::1")
)

// TestAttackIPv6Network (issue 32, defect 2): New takes an existing
// kici-agent-net as it finds it. On one created with IPv6 an agent has an
// IPv6 address and reaches, over IPv6, the host's ports its IPv4 rules
// drop. New (or the spawn) must refuse such a network with an error that
// names IPv6, or the agent must reach nothing over IPv6 that its IPv4
// rules drop. The test removes the network and creates it with IPv6, and
// removes it at its end, so that the next New makes it as the package
// does: it does not run in parallel with the package's other tests, which
// need the network as New makes it.
func TestAttackIPv6Network(t *testing.T) {
	a := newAttackEnv(t)
	image := a.agentImage(nil)
	a.networkWithIPv6()
	cfg := a.config(strict(image))
	b, err := New(context.Background(), Options{Config: cfg, Scaler: a.name, Engine: a.engine, NftCommand: a.nftHere()})
	if err != nil {
		assert.Regexp(t, `(?i)ipv6`, err.Error(), "New refuses the network, and says why")
		return
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		b.ShutdownAll(ctx)
	})
	attacker, err := b.Spawn(context.Background(), a.request("attacker", "strict"))
	if err != nil {
		assert.Regexp(t, `(?i)ipv6`, err.Error(), "the spawn refuses the network, and says why")
		return
	}
	link := enginetest.LinkOf(t, a.c, attacker.ContainerID)
	if !slices.ContainsFunc(link.Addrs, func(p netip.Prefix) bool { return subnet6.Contains(p.Addr()) }) {
		t.Logf("the agent has no address in %s (%v): the network was made again?", subnet6, link.Addrs)
	}
	bridge := enginetest.HostInterface(t, gateway)
	flows := []flow{
		{"IPv4 UDP to a closed host port", attacker, packet(enginetest.UDP, netip.Addr{}, gateway, closedPort), false},
		{"IPv4 UDP to the orchestrator's port", attacker, packet(enginetest.UDP, netip.Addr{}, gateway, a.port), true},
	}
	for _, dst := range []netip.Addr{gateway6, enginetest.LinkLocal(t, bridge.Name)} {
		for _, proto := range protocols {
			flows = append(flows, flow{fmt.Sprintf("IPv6 %s to the host's %s", proto, dst), attacker, packet(proto, netip.Addr{}, dst, closedPort), false})
		}
	}
	a.check(flows...)
}

// networkWithIPv6 replaces the isolated network with one of the same IPv4
// subnet and gateway, and IPv6, and removes that at the end of the test.
// Another process's test may hold the network a while: it waits a minute
// at most for its containers to go.
func (a *attackEnv) networkWithIPv6() {
	a.t.Helper()
	ctx := context.Background()
	v6 := true
	opts := client.NetworkCreateOptions{Driver: "bridge", EnableIPv6: &v6,
		IPAM: &network.IPAM{Config: []network.IPAMConfig{
			{Subnet: netip.MustParsePrefix(agentspawn.IsolatedNetworkSubnet), Gateway: gateway},
			{Subnet: subnet6, Gateway: gateway6}}},
		Labels: map[string]string{agentspawn.LabelManaged: "true"}}
	a.t.Cleanup(func() { a.removeNetwork() })
	deadline := time.Now().Add(time.Minute)
	for {
		a.removeNetwork()
		_, err := a.c.NetworkCreate(ctx, agentspawn.IsolatedNetwork, opts)
		if err == nil {
			return
		}
		require.True(a.t, time.Now().Before(deadline), "creating %s with IPv6: %v", agentspawn.IsolatedNetwork, err)
		time.Sleep(time.Second) // another process made it again
	}
}

// removeNetwork removes the isolated network, if it is there, waiting a
// minute at most for another process's containers to leave it.
func (a *attackEnv) removeNetwork() {
	a.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		_, err := a.c.NetworkRemove(context.Background(), agentspawn.IsolatedNetwork, client.NetworkRemoveOptions{})
		if err == nil || cerrdefs.IsNotFound(err) {
			return
		}
		require.True(a.t, time.Now().Before(deadline), "removing %s: %v", agentspawn.IsolatedNetwork, err)
		time.Sleep(time.Second)
	}
}

// TestAttackTaggedFrameReachesAgent (not in issue 32): the rules of an
// agent drop what it sends to 172.16.0.0/12, the other agents of the
// isolated network among it, and br_netfilter puts the frames one
// container bridges to another through the IP forward hook, where they
// are. It does so for untagged frames only: an agent that sends another a
// UDP datagram in a frame with an 802.1Q tag of VLAN 0 (priority tagged)
// goes past the hook, and the other agent's kernel takes the frame as
// untagged. Neither frame may reach the other agent.
func TestAttackTaggedFrameReachesAgent(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	attacker, victim := a.pair("strict")
	to := enginetest.LinkOf(t, a.c, victim.ContainerID)
	wait := enginetest.ListenIn(t, a.c, victim.ContainerID, a.port, time.Second)
	untagged := enginetest.Packet{Proto: enginetest.UDP, Dst: victim.IP, DstMAC: to.MAC, Port: a.port, Mark: a.oracle.Mark()}
	tagged := untagged
	tagged.Tag, tagged.Mark = true, a.oracle.Mark()
	enginetest.Spoof(t, a.c, attacker.ContainerID, untagged, tagged)
	got := wait()
	assert.NotContains(t, got, untagged.Mark, "the untagged frame reached the other agent")
	assert.NotContains(t, got, tagged.Mark, "the frame tagged VLAN 0 reached the other agent")
}
