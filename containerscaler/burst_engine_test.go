package containerscaler

import (
	"context"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A burst: 20 spawns at once on a scaler of maxConcurrentSpawns 8.
const (
	burstSize  = 20
	burstSlots = 8
)

// TestSpawnBurst spawns 20 agents at once on a scaler of
// maxConcurrentSpawns 8 and maxAgents 20, with the creates held at the
// Engine: 8 spawns reach their create, and no ninth while those 8 hold
// their slots. Released, every spawn succeeds, each with a running
// container at its address; destroyed at once, they leave no container
// and no rule.
func TestSpawnBurst(t *testing.T) {
	t.Parallel()
	e, b, gauge := burstBackend(t)
	creates := e.faults.Hold(enginetest.On(http.MethodPost, "/containers/create"))
	done := make(chan burstResult, 1)
	go func() { done <- spawnAll(b, "burst-") }()
	waitFor(t, func() bool { return creates.Hits() == burstSlots })
	time.Sleep(time.Second) // time for a ninth create, were there a slot for it
	assert.Equal(t, burstSlots, creates.Hits(), "the creates of the spawns holding a slot")
	assert.Equal(t, burstSize, b.Active(), "every spawn admitted, 12 waiting for a slot")
	creates.Remove()
	res := <-done
	agents := res.agents(t)
	assert.Equal(t, burstSlots, gauge.most(), "spawns between their create and their end at once")
	e.checkRunning(agents)
	destroyAll(t, b, agents)
	e.checkNothingLeft(b)
}

// burstBackend is the backend of an isolated scaler of maxAgents 20 and
// maxConcurrentSpawns 8 whose one label set runs a fresh agent image, and
// the gauge of its spawns that hold a slot.
func burstBackend(t testing.TB) (*env, *Backend, *slotGauge) {
	e := newEnv(t)
	cfg := e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: e.agentImage(nil), ImagePullPolicy: scalerconfig.PullNever})
	cfg.Scalers[0].MaxAgents, cfg.Scalers[0].MaxConcurrentSpawns = burstSize, burstSlots
	g := &slotGauge{spawning: map[string]bool{}}
	b := e.backend(cfg, func(o *Options) {
		o.Events = func(ev Event) {
			e.events.add(ev)
			g.event(ev)
		}
	})
	return e, b, g
}

// slotGauge counts, from a backend's events, the spawns between their
// create ("creating container") and their end (agent.connecting or
// scaler.failed). A spawn holds its slot over that span and longer, so
// the most counted at once is at most the slots held at once.
type slotGauge struct {
	mu       sync.Mutex
	spawning map[string]bool // by agent id
	max      int
}

func (g *slotGauge) event(ev Event) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case ev.Type == EventProvisioning && ev.Message == "creating container":
		g.spawning[ev.AgentID] = true
		g.max = max(g.max, len(g.spawning))
	case ev.Type == EventConnecting || ev.Type == EventFailed:
		delete(g.spawning, ev.AgentID)
	}
}

// most is the most spawns counted at once so far.
func (g *slotGauge) most() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.max
}

// reset forgets the most counted so far.
func (g *slotGauge) reset() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.max = len(g.spawning)
}

// burstResult is what the spawns of a burst returned, in order.
type burstResult struct {
	ids    []string
	spawns []Agent
	errs   []error
}

// agents returns the burst's agents, and fails t unless each spawn
// succeeded with a container and an address on the isolated network.
func (r burstResult) agents(t testing.TB) []Agent {
	t.Helper()
	subnet := netip.MustParsePrefix("172.30.0.0/16")
	for i, err := range r.errs {
		require.NoError(t, err, "spawn of %s", r.ids[i])
		a := r.spawns[i]
		require.Equal(t, r.ids[i], a.ID)
		require.NotEmpty(t, a.ContainerID, a.ID)
		require.True(t, subnet.Contains(a.IP), "%s at %s", a.ID, a.IP)
	}
	return r.spawns
}

// spawnAll spawns burstSize agents at once, their ids prefix and a
// number, and returns when every spawn has.
func spawnAll(b *Backend, prefix string) burstResult {
	r := burstResult{ids: make([]string, burstSize), spawns: make([]Agent, burstSize), errs: make([]error, burstSize)}
	var wg sync.WaitGroup
	for i := range burstSize {
		r.ids[i] = prefix + strconv.Itoa(i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.spawns[i], r.errs[i] = b.Spawn(context.Background(), Request{
				LabelSet: []string{"linux"}, AgentID: r.ids[i], OrchestratorURL: "ws://172.30.0.1:4000/ws",
			})
		}()
	}
	wg.Wait()
	return r
}

// destroyAll destroys the agents at once, and fails t when a Destroy
// fails.
func destroyAll(t testing.TB, b *Backend, agents []Agent) {
	t.Helper()
	errs := make([]error, len(agents))
	var wg sync.WaitGroup
	for i, a := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = b.Destroy(context.Background(), a.ID)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "destroy of %s", agents[i].ID)
	}
}

// checkRunning checks that each agent's container runs, at the agent's
// address on the isolated network, and that its rules are written.
func (e *env) checkRunning(agents []Agent) {
	e.t.Helper()
	rules := e.ruleset()
	for _, a := range agents {
		info, err := e.c.ContainerInspect(context.Background(), a.ContainerID, client.ContainerInspectOptions{})
		require.NoError(e.t, err)
		require.True(e.t, info.Container.State.Running, "%s runs", a.ID)
		require.Equal(e.t, a.IP, addressOf(info.Container.NetworkSettings), "%s's address", a.ID)
		require.Contains(e.t, rules, "agent-forward-"+a.IP.String()+" ", "%s's rules", a.ID)
	}
}

// checkNothingLeft checks that the backend counts no agent, and that its
// scaler has no container, its tables no rule of an address (the static
// rules name the subnet and its broadcast address, which agentAddrs
// leaves out), and its bridge table no port, MAC or binding.
func (e *env) checkNothingLeft(b *Backend) {
	e.t.Helper()
	require.Equal(e.t, 0, b.Active())
	require.Empty(e.t, e.managed(agentspawn.LabelScaler+"="+e.name), "no container of the scaler")
	require.Empty(e.t, e.agentAddrs(), "no rule of an address")
	require.NotContains(e.t, e.table("bridge"), "elements", "no port, MAC or binding")
}
