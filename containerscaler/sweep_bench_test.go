package containerscaler

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/require"
)

// The world of BenchmarkCleanupOrphans: a scaler's listing of 1,000
// containers, of which 10 are orphans.
const (
	sweepSpares  = 990
	sweepOrphans = 10
	// sweepAtOnce bounds the creates and removals of the spares: the
	// Engine's host has 2 cores.
	sweepAtOnce = 8
)

// BenchmarkCleanupOrphans times CleanupOrphans where its scaler's listing
// holds 1,000 kici-managed containers: 990 running agents that registered,
// which it spares, and 10 orphans, half exited, half created and never
// started, which it stops and removes (impl=CleanupOrphans). Beside it,
// impl=baseline is the Engine's own time for the same removal, through the
// same client: one listing of the scaler's containers, then the 10
// removals, at once. The orphans are made again before each op, outside
// the timer. The sweep of the rules (two nft listings and a host-wide
// listing of the containers) is CleanupOrphans' and not the baseline's.
func BenchmarkCleanupOrphans(b *testing.B) {
	w := newSweepWorld(b)
	b.Run("impl=CleanupOrphans", func(b *testing.B) {
		logLoad(b)
		for b.Loop() {
			b.StopTimer()
			w.leaveOrphans(b)
			b.StartTimer()
			n, err := w.be.CleanupOrphans(context.Background())
			require.NoError(b, err)
			require.Equal(b, sweepOrphans, n, "the orphans, and no rule")
		}
		b.StopTimer()
		w.checkSpared(b)
	})
	b.Run("impl=baseline", func(b *testing.B) {
		logLoad(b)
		for b.Loop() {
			b.StopTimer()
			w.leaveOrphans(b)
			b.StartTimer()
			require.Equal(b, sweepOrphans, w.listAndRemove(b))
		}
		b.StopTimer()
		w.checkSpared(b)
	})
}

// sweepWorld is BenchmarkCleanupOrphans' Engine: a backend, the 990
// running agents it spares, and the spec of its orphans.
type sweepWorld struct {
	e       *env
	be      *Backend
	orphans []agentspawn.Spawn // the orphans' containers, as spawns made them
	spares  map[string]bool    // the spares' container ids
}

// newSweepWorld makes the world once: the backend, whose IsRegistered
// knows the spares' agents, and the 990 spares, removed at the end. The
// spares run with no network: the sweep reads their listing, not their
// addresses, and a Linux bridge takes at most 1,023 ports.
func newSweepWorld(b *testing.B) *sweepWorld {
	e := newEnv(b)
	image := e.agentImage(nil)
	cfg := e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image, ImagePullPolicy: scalerconfig.PullNever})
	cfg.Scalers[0].MaxAgents = sweepSpares + sweepOrphans
	w := &sweepWorld{e: e, spares: map[string]bool{}}
	w.be = e.backend(cfg, func(o *Options) {
		o.IsRegistered = func(id string) bool { return strings.HasPrefix(id, "spare-") }
	})
	for i := range sweepOrphans {
		sp := w.plan(b, "orphan-"+strconv.Itoa(i))
		if i < sweepOrphans/2 { // exits at once
			sp.Config.Env = append(sp.Config.Env, "KICI_FAKE_EXIT=0")
		}
		w.orphans = append(w.orphans, sp)
	}
	spares := make([]agentspawn.Spawn, sweepSpares)
	for i := range spares {
		spares[i] = w.plan(b, "spare-"+strconv.Itoa(i))
		spares[i].HostConfig.NetworkMode, spares[i].Networking = "none", nil
	}
	b.Cleanup(w.removeAll)
	ids := make([]string, sweepSpares)
	errs := make([]error, sweepSpares)
	forEach(sweepSpares, sweepAtOnce, func(i int) { ids[i], errs[i] = w.run(spares[i], true) })
	for i, id := range ids {
		require.NoError(b, errs[i])
		w.spares[id] = true
	}
	settle()
	return w
}

// plan is the container a spawn of agentID makes.
func (w *sweepWorld) plan(b *testing.B, agentID string) agentspawn.Spawn {
	sp, err := agentspawn.Plan(agentspawn.Request{Config: w.be.cfg, Scaler: w.be.name, LabelSet: []string{"linux"},
		AgentID: agentID, OrchestratorURL: "ws://172.30.0.1:4000/ws"})
	require.NoError(b, err)
	return sp
}

// run creates the container of sp and, when start is set, starts it; it
// returns the container's id, or "" and the error.
func (w *sweepWorld) run(sp agentspawn.Spawn, start bool) (string, error) {
	ctx := context.Background()
	res, err := w.e.c.ContainerCreate(ctx, client.ContainerCreateOptions{
		Config: &sp.Config, HostConfig: &sp.HostConfig, NetworkingConfig: sp.Networking,
	})
	if err != nil || !start {
		return res.ID, err
	}
	_, err = w.e.c.ContainerStart(ctx, res.ID, client.ContainerStartOptions{})
	return res.ID, err
}

// leaveOrphans makes the 10 orphans of an earlier process: agents of the
// scaler that the backend does not track, the first half exited, the
// others created and never started.
func (w *sweepWorld) leaveOrphans(b *testing.B) {
	errs := make([]error, sweepOrphans)
	forEach(sweepOrphans, sweepOrphans, func(i int) {
		exited := i < sweepOrphans/2
		var id string
		if id, errs[i] = w.run(w.orphans[i], exited); errs[i] != nil || !exited {
			return
		}
		wait := w.e.c.ContainerWait(context.Background(), id, client.ContainerWaitOptions{Condition: container.WaitConditionNotRunning})
		select {
		case <-wait.Result:
		case errs[i] = <-wait.Error:
		}
	})
	for _, err := range errs {
		require.NoError(b, err)
	}
}

// listAndRemove is the baseline: one listing of the scaler's containers,
// through the backend's client and with its filter, then the removals of
// those not running, at once, as the backend removes them. It returns
// how many it removed.
func (w *sweepWorld) listAndRemove(b *testing.B) int {
	ctx := context.Background()
	list, err := w.be.engine.ContainerList(ctx, client.ContainerListOptions{All: true, Filters: w.be.labels()})
	require.NoError(b, err)
	var orphans []string
	for _, c := range list.Items {
		if c.State != container.StateRunning {
			orphans = append(orphans, c.ID)
		}
	}
	errs := make([]error, len(orphans))
	forEach(len(orphans), len(orphans), func(i int) {
		_, errs[i] = w.be.engine.ContainerRemove(ctx, orphans[i], client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
	})
	for _, err := range errs {
		require.NoError(b, err)
	}
	return len(orphans)
}

// checkSpared checks that the scaler's containers are the 990 spares,
// each running.
func (w *sweepWorld) checkSpared(b *testing.B) {
	list, err := w.e.c.ContainerList(context.Background(), client.ContainerListOptions{All: true, Filters: w.be.labels()})
	require.NoError(b, err)
	require.Len(b, list.Items, sweepSpares)
	for _, c := range list.Items {
		require.True(b, w.spares[c.ID], "a spare: %s", c.ID)
		require.Equal(b, container.StateRunning, c.State)
	}
}

// removeAll removes every container of the scaler, at most sweepAtOnce at
// a time.
func (w *sweepWorld) removeAll() {
	list, err := w.e.c.ContainerList(context.Background(), client.ContainerListOptions{
		All: true, Filters: make(client.Filters).Add("label", agentspawn.LabelScaler+"="+w.e.name),
	})
	if err != nil {
		w.e.t.Errorf("listing the benchmark's containers: %v", err)
		return
	}
	forEach(len(list.Items), sweepAtOnce, func(i int) {
		_, err := w.e.c.ContainerRemove(context.Background(), list.Items[i].ID, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
		if err != nil {
			w.e.t.Errorf("removing %s: %v", list.Items[i].ID, err)
		}
	})
}

// settle waits, 5 minutes at most, for the host's load average over a
// minute to fall below three quarters of its cores: making the spares
// loads the host for many minutes, and the load average trails the load.
// Without /proc/loadavg it returns at once.
func settle() {
	limit := 0.75 * float64(runtime.NumCPU())
	for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Second) {
		out, err := os.ReadFile("/proc/loadavg")
		if err != nil {
			return
		}
		load, err := strconv.ParseFloat(strings.Fields(string(out) + " x")[0], 64)
		if err != nil || load < limit {
			return
		}
	}
}

// logLoad logs the host's load average, where /proc/loadavg has it: the
// figures of a shared host mean little without it.
func logLoad(b *testing.B) {
	if out, err := os.ReadFile("/proc/loadavg"); err == nil {
		b.Logf("load average: %s", strings.TrimSpace(string(out)))
	}
}

// forEach runs f(0) to f(n-1), atOnce at a time, and returns when all
// have returned.
func forEach(n, atOnce int, f func(i int)) {
	var wg sync.WaitGroup
	at := make(chan struct{}, max(1, atOnce))
	for i := range n {
		wg.Add(1)
		at <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-at }()
			f(i)
		}()
	}
	wg.Wait()
}
