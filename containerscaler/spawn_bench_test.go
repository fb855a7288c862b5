package containerscaler

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/require"
)

// BenchmarkSpawn is what a caller feels: Spawn and Destroy of an agent of
// the pool's own image, isolated, against the Engine's own time for the
// same container (BenchmarkEngineAlone: create, start, inspect, stop,
// remove). The difference is the backend's: its checks, the rules' one
// nft process, and its two removals' order.
func BenchmarkSpawn(b *testing.B) {
	_, be := benchBackend(b)
	logLoad(b)
	i := 0
	for b.Loop() {
		i++
		id := "bench-" + strconv.Itoa(i)
		_, err := be.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: id, OrchestratorURL: "ws://x:4000"})
		require.NoError(b, err)
		require.NoError(b, be.Destroy(context.Background(), id))
	}
}

// BenchmarkEngineAlone is the Engine's own time for BenchmarkSpawn's
// container, through the same client.
func BenchmarkEngineAlone(b *testing.B) {
	e, be := benchBackend(b)
	sp, err := agentspawn.Plan(agentspawn.Request{Config: be.cfg, Scaler: be.name, LabelSet: []string{"linux"},
		AgentID: "bench", OrchestratorURL: "ws://x:4000"})
	require.NoError(b, err)
	ctx := context.Background()
	logLoad(b)
	for b.Loop() {
		res, err := e.engine.ContainerCreate(ctx, client.ContainerCreateOptions{Config: &sp.Config, HostConfig: &sp.HostConfig, NetworkingConfig: sp.Networking})
		require.NoError(b, err)
		_, err = e.engine.ContainerStart(ctx, res.ID, client.ContainerStartOptions{})
		require.NoError(b, err)
		_, err = e.engine.ContainerInspect(ctx, res.ID, client.ContainerInspectOptions{})
		require.NoError(b, err)
		timeout := 10
		_, _ = e.engine.ContainerStop(ctx, res.ID, client.ContainerStopOptions{Timeout: &timeout})
		_, err = e.engine.ContainerRemove(ctx, res.ID, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
		require.NoError(b, err)
	}
}

// benchBackend is a backend of an isolated scaler whose one label set runs
// a fresh agent image, never pulled.
func benchBackend(b *testing.B) (*env, *Backend) {
	e := newEnv(b)
	image := e.agentImage(nil)
	return e, e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image, ImagePullPolicy: scalerconfig.PullNever}))
}

// BenchmarkSpawnBurst is 20 spawns at once on a scaler of
// maxConcurrentSpawns 8 and maxAgents 20, each with a running container at
// its address (checked, outside the timer), then their 20 Destroys at
// once, after which no container and no rule is left (checked too). One
// op is the burst: its spawns (spawn-ns/op, until the last has returned)
// and its destroys (destroy-ns/op). max-spawning is the most spawns seen
// at once between their create and their end, from the events: at most
// the slots held at once, which must not pass 8.
func BenchmarkSpawnBurst(b *testing.B) {
	e, be, gauge := burstBackend(b)
	var spawning, destroying time.Duration
	most, round := 0, 0
	logLoad(b)
	for b.Loop() {
		round++
		gauge.reset()
		start := time.Now()
		res := spawnAll(be, "burst-"+strconv.Itoa(round)+"-")
		spawned := time.Now()
		spawning += spawned.Sub(start)
		b.StopTimer()
		agents := res.agents(b)
		e.checkRunning(agents)
		most = max(most, gauge.most())
		b.StartTimer()
		start = time.Now()
		destroyAll(b, be, agents)
		destroying += time.Since(start)
		b.StopTimer()
		e.checkNothingLeft(be)
		b.StartTimer()
	}
	require.LessOrEqual(b, most, burstSlots, "spawns holding a slot at once")
	b.ReportMetric(float64(spawning.Nanoseconds())/float64(round), "spawn-ns/op")
	b.ReportMetric(float64(destroying.Nanoseconds())/float64(round), "destroy-ns/op")
	b.ReportMetric(float64(most), "max-spawning")
}
