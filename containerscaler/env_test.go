package containerscaler

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// env is one engine test's world: two clients of the real Engine, the
// backend's, whose requests go through faults, and the test's own; and a
// network namespace of its own for the backend's nftables rules.
type env struct {
	t      testing.TB
	c      *client.Client // the test's
	engine *client.Client // the backend's, through faults
	faults *enginetest.Faults
	ns     string
	name   string // a name unique to the test: its scaler's, its images'
	events *eventLog
}

func newEnv(t testing.TB) *env {
	t.Helper()
	e := &env{t: t, faults: &enginetest.Faults{}, events: &eventLog{}}
	e.c = enginetest.Engine(t)
	e.engine = enginetest.EngineWith(t, e.faults.Wrap)
	e.ns = enginetest.Netns(t)
	var b [4]byte
	_, _ = rand.Read(b[:])
	e.name = "t" + hex.EncodeToString(b[:])
	return e
}

// nftCommand runs nft in the test's namespace.
func (e *env) nftCommand() []string { return []string{"ip", "netns", "exec", e.ns, "nft"} }

// agentImage builds an agent image of the test's own, so that its id and
// runtime volume are the test's too, and removes the volume at the end.
func (e *env) agentImage(labels map[string]string) string {
	ref := "kici-agent-" + e.name + ":0.20.0"
	if labels == nil {
		labels = map[string]string{}
	}
	labels["kicikit.test"] = e.name
	id := enginetest.AgentImage(e.t, e.c, ref, labels)
	e.removeVolumeAtEnd(agentspawn.RuntimeVolumeName(id))
	return ref
}

func (e *env) removeVolumeAtEnd(name string) {
	e.t.Cleanup(func() {
		_, _ = e.c.VolumeRemove(context.Background(), name, client.VolumeRemoveOptions{Force: true})
	})
}

// config is a config of one container scaler, named for the test, with
// these label sets.
func (e *env) config(labelSets ...scalerconfig.LabelSet) *scalerconfig.Config {
	return &scalerconfig.Config{Scalers: []scalerconfig.Scaler{{
		Name: e.name, Type: scalerconfig.TypeContainer, MaxAgents: 8, LabelSets: labelSets,
	}}}
}

// backend is New's backend for cfg, its rules in the test's namespace,
// its events logged; everything it runs is shut down at the end.
func (e *env) backend(cfg *scalerconfig.Config, with ...func(*Options)) *Backend {
	e.t.Helper()
	o := Options{Config: cfg, Scaler: e.name, Engine: e.engine, NftCommand: e.nftCommand(), Events: e.events.add}
	for _, f := range with {
		f(&o)
	}
	b, err := New(context.Background(), o)
	require.NoError(e.t, err)
	e.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		b.ShutdownAll(ctx)
	})
	return b
}

// spawn spawns an agent of the first label set, and fails the test when it
// fails.
func (e *env) spawn(b *Backend, id string, r Request) Agent {
	e.t.Helper()
	if r.AgentID == "" {
		r.AgentID = id
	}
	if r.OrchestratorURL == "" {
		r.OrchestratorURL = "ws://172.30.0.1:4000/ws"
	}
	a, err := b.Spawn(context.Background(), r)
	require.NoError(e.t, err)
	return a
}

// managed lists the Engine's kici-managed containers that carry every
// label, "key=value", stopped ones included.
func (e *env) managed(labels ...string) []container.Summary {
	e.t.Helper()
	list, err := e.c.ContainerList(context.Background(), client.ContainerListOptions{
		All: true, Filters: make(client.Filters).Add("label", append([]string{"kici-managed=true"}, labels...)...),
	})
	require.NoError(e.t, err)
	return list.Items
}

// containers lists the containers of agentID that this test's scaler made.
func (e *env) containers(agentID string) []container.Summary {
	e.t.Helper()
	return e.managed("kici-scaler-name="+e.name, "kici-agent-id="+agentID)
}

// volumeExists reports whether the Engine has a volume of that name.
func (e *env) volumeExists(name string) bool {
	_, err := e.c.VolumeInspect(context.Background(), name, client.VolumeInspectOptions{})
	return err == nil
}

// ruleset is `nft list ruleset` in the test's namespace: the backend's
// three tables.
func (e *env) ruleset() string {
	e.t.Helper()
	out, err := exec.Command("ip", "netns", "exec", e.ns, "nft", "list", "ruleset").CombinedOutput()
	require.NoError(e.t, err, "%s", out)
	return string(out)
}

// agentAddrs are the addresses on the isolated network that the test's
// ruleset names, but the gateway and the subnet's own and broadcast
// addresses (the static rules name them): none once every agent's rules
// are gone.
func (e *env) agentAddrs() []string {
	e.t.Helper()
	var addrs []string
	for _, a := range regexp.MustCompile(`172\.30\.\d+\.\d+`).FindAllString(e.ruleset(), -1) {
		if !slices.Contains([]string{agentspawn.IsolatedNetworkGateway, "172.30.0.0", "172.30.255.255"}, a) && !slices.Contains(addrs, a) {
			addrs = append(addrs, a)
		}
	}
	return addrs
}

// table is `nft list table FAMILY kici` in the test's namespace.
func (e *env) table(family string) string {
	e.t.Helper()
	out, err := exec.Command("ip", "netns", "exec", e.ns, "nft", "list", "table", family, "kici").CombinedOutput()
	require.NoError(e.t, err, "%s", out)
	return string(out)
}

// chain is the rules of one chain of table ip kici, in order.
func (e *env) chain(name string) []string {
	e.t.Helper()
	out, err := exec.Command("ip", "netns", "exec", e.ns, "nft", "list", "chain", "ip", "kici", name).CombinedOutput()
	require.NoError(e.t, err, "%s", out)
	var rules []string
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "table ") && !strings.HasPrefix(line, "chain ") && line != "}" {
			rules = append(rules, line)
		}
	}
	// An address's chain starts with the backend's guard against related
	// packets of other addresses' flows; the rest is the orchestrator's.
	if addr, ok := strings.CutPrefix(name, "agent-forward-"); ok || strings.HasPrefix(name, "agent-input-") {
		if !ok {
			addr = strings.TrimPrefix(name, "agent-input-")
		}
		guard := "ct state related ct original ip saddr != " + addr + " ct original ip daddr != " + addr + " drop"
		require.NotEmpty(e.t, rules, "chain %s", name)
		require.Equal(e.t, guard, rules[0], "chain %s starts with the guard", name)
		rules = rules[1:]
	}
	return rules
}

// writeRules writes, in the test's namespace, the rules an owner holds at
// an address, bound to a port that does not exist, as another backend
// writes them.
func (e *env) writeRules(owner string, addr netip.Addr, port uint32) agentspawn.Isolation {
	e.t.Helper()
	iso, err := agentspawn.PlanIsolation(agentspawn.IsolationInput{Addr: addr})
	require.NoError(e.t, err)
	var s script
	s.table("")
	s.bind(owner, binding{addr: addr, port: port, mac: net.HardwareAddr{2, 0x42, 0xac, 0x1e, 0xfa, byte(port)}}, iso)
	e.nft(s.String())
	return iso
}

// nft runs an nft script in the test's namespace.
func (e *env) nft(script string) {
	e.t.Helper()
	cmd := exec.Command("ip", "netns", "exec", e.ns, "nft", "-f", "-")
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.CombinedOutput()
	require.NoError(e.t, err, "%s", out)
}

// last is the last of a list.
func last(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[len(list)-1]
}

// settled waits until the backend counts no agent: every unwinding over.
func settled(t testing.TB, b *Backend) {
	t.Helper()
	waitFor(t, func() bool { return b.Active() == 0 })
}

// eventLog records a backend's events.
type eventLog struct {
	mu   sync.Mutex
	list []Event
}

func (l *eventLog) add(e Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.list = append(l.list, e)
}

// of returns the events of one agent, as "type: message".
func (l *eventLog) of(agentID string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, e := range l.list {
		if e.AgentID == agentID {
			out = append(out, e.Type+": "+e.Message)
		}
	}
	return out
}

// socketPath is the Engine's socket, as DOCKER_HOST names it.
func socketPath() string {
	return strings.TrimPrefix(os.Getenv("DOCKER_HOST"), "unix://")
}

// jobStep is one Engine request of a job's spawn: the n-th request, from
// 1, that match matches.
type jobStep struct {
	name  string
	match enginetest.Match
	nth   int
}

// jobSteps are the Engine requests of a job's spawn whose image is pulled
// and whose runtime volume is filled, in order.
func jobSteps() []jobStep {
	// An image's name holds slashes: its inspect is /images/NAME/json.
	imageInspect := func(r *http.Request) bool {
		p := enginetest.APIPath(r)
		return r.Method == http.MethodGet && strings.HasPrefix(p, "/images/") && strings.HasSuffix(p, "/json")
	}
	return []jobStep{
		{"job image inspect", imageInspect, 1},
		{"job image pull", enginetest.On(http.MethodPost, "/images/create"), 1},
		{"agent image inspect", imageInspect, 3},
		{"runtime volume inspect", enginetest.On(http.MethodGet, "/volumes/*"), 1},
		{"runtime volume create", enginetest.On(http.MethodPost, "/volumes/create"), 1},
		{"populator create", enginetest.On(http.MethodPost, "/containers/create"), 1},
		{"populator start", enginetest.On(http.MethodPost, "/containers/*/start"), 1},
		{"populator wait", enginetest.On(http.MethodPost, "/containers/*/wait"), 1},
		{"isolated network list", enginetest.On(http.MethodGet, "/networks"), 1},
		{"agent create", enginetest.On(http.MethodPost, "/containers/create"), 2},
		{"agent start", enginetest.On(http.MethodPost, "/containers/*/start"), 2},
		{"agent inspect", enginetest.On(http.MethodGet, "/containers/*/json"), 1},
		{"agent address check", enginetest.On(http.MethodGet, "/containers/*/json"), 2},
	}
}

// nth matches the n-th request that m matches, from 1.
func nth(n int, m enginetest.Match) enginetest.Match {
	seen := 0
	return func(r *http.Request) bool {
		if !m(r) {
			return false
		}
		seen++
		return seen == n
	}
}

// leftNothing checks, once the backend's unwinding is over, that a failed
// spawn of agentID left nothing: no container, no populator or probe of
// the test's agent image, no half-filled runtime volume, no rule; and that
// it reported its failure last.
func (e *env) leftNothing(b *Backend, agentID, image, volume string) {
	e.t.Helper()
	settled(e.t, b)
	assert.Empty(e.t, e.containers(agentID))
	assert.Empty(e.t, e.managed("kicikit.test="+e.name), "no populator or probe")
	if e.volumeExists(volume) {
		assert.True(e.t, b.populated(context.Background(), fillOf{id: image, volume: volume}), "a volume left behind is complete")
	}
	assert.Empty(e.t, e.agentAddrs(), "no rule of an address")
	events := e.events.of(agentID)
	require.NotEmpty(e.t, events)
	assert.True(e.t, strings.HasPrefix(events[len(events)-1], "scaler.failed: "), events[len(events)-1])
}
