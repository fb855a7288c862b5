package containerscaler

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
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

// TestCancelAtEachStep cancels a job's spawn while each of its Engine
// requests is held, and checks that nothing is left: no container, no
// populator or probe, no half-filled runtime volume, no rule.
func TestCancelAtEachStep(t *testing.T) {
	t.Parallel()
	for _, step := range jobSteps() {
		t.Run(step.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			reg := enginetest.OpenRegistry(t)
			image := e.agentImage(nil)
			volume := runtimeVolume(t, e, image)
			job := reg.Ref("job-" + e.name + ":1")
			enginetest.JobImage(t, e.c, job)
			enginetest.Push(t, e.c, job, nil)
			b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image}))

			fault := e.faults.Hold(nth(step.nth, step.match))
			ctx, cancel := context.WithCancelCause(context.Background())
			stop := errors.New("the job was cancelled")
			done := make(chan error, 1)
			go func() {
				_, err := b.Spawn(ctx, Request{LabelSet: []string{"linux"}, AgentID: "c1",
					OrchestratorURL: "ws://172.30.0.1:4000/ws", Job: &Job{Image: job}})
				done <- err
			}()
			select {
			case <-fault.Arrived():
			case err := <-done:
				t.Fatalf("the spawn ended before the held request (%v); requests: %q", err, e.faults.Requests())
			case <-time.After(30 * time.Second):
				t.Fatalf("the held request never came; requests: %q", e.faults.Requests())
			}
			cancel(stop)
			select {
			case err := <-done:
				assert.Equal(t, stop, err, "Spawn returns the cancellation's cause")
			case <-time.After(10 * time.Second):
				t.Fatal("Spawn did not return once its context ended")
			}
			fault.Remove() // a create runs to its answer: let it have one
			e.leftNothing(b, "c1", image, volume)
		})
	}
}

// runtimeVolume is the runtime volume of an image.
func runtimeVolume(t *testing.T, e *env, image string) string {
	t.Helper()
	img, err := e.c.ImageInspect(context.Background(), image)
	require.NoError(t, err)
	return agentspawn.RuntimeVolumeName(img.ID)
}

// TestSpawnDeadline: a spawn whose Engine request never answers, its
// context ignored, returns at the deadline with the orchestrator's text;
// its container is removed once the request ends.
func TestSpawnDeadline(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	image := e.agentImage(nil)
	b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image,
		ImagePullPolicy: scalerconfig.PullNever}), func(o *Options) { o.SpawnTimeout = 700 * time.Millisecond })
	stall := e.faults.Stall(enginetest.On(http.MethodPost, "/containers/*/start"))

	start := time.Now()
	_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "d1", OrchestratorURL: "ws://x:4000"})
	took := time.Since(start)
	require.Error(t, err)
	assert.Equal(t, "scaler spawn timed out after 700ms", err.Error())
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.ErrorIs(t, err, ErrTimeout)
	assert.Less(t, took, 5*time.Second)
	assert.Equal(t, 1, b.Active(), "counted until its unwinding ends")
	require.Len(t, e.containers("d1"), 1, "the container the stalled start is about")

	stall.Remove()
	settled(t, b)
	assert.Empty(t, e.containers("d1"))
	events := e.events.of("d1")
	assert.Equal(t, "scaler.failed: scaler spawn timed out after 700ms", events[len(events)-1])
}

// TestDestroyDuringSpawn: Destroy during the container's start ends the
// agent at once, and the spawn fails as torn down, leaving nothing.
func TestDestroyDuringSpawn(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	image := e.agentImage(nil)
	b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image, ImagePullPolicy: scalerconfig.PullNever}))
	hold := e.faults.Hold(enginetest.On(http.MethodPost, "/containers/*/start"))
	done := make(chan error, 1)
	go func() {
		_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "t1", OrchestratorURL: "ws://x:4000"})
		done <- err
	}()
	<-hold.Arrived()
	assert.Equal(t, 1, b.Active())
	require.NoError(t, b.Destroy(context.Background(), "t1"))
	assert.Equal(t, 0, b.Active(), "Destroy stops counting the agent at once")
	hold.Remove()
	err := <-done
	assert.ErrorIs(t, err, ErrTornDown)
	assert.EqualError(t, err, "Agent t1 was torn down while its container was being provisioned")
	waitFor(t, func() bool { return len(e.containers("t1")) == 0 })
	assert.Empty(t, e.agentAddrs())
}

// TestNoAddress: a container that has no address on the isolated network
// when the backend reads it (its agent crashed at start) fails the spawn,
// closed, with what it printed; nothing is left.
func TestNoAddress(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	image := e.agentImage(nil)
	b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image, ImagePullPolicy: scalerconfig.PullNever,
		Env: scalerconfig.Env{{Name: "KICI_FAKE_EXIT", Value: "3"}}}))
	hold := e.faults.Hold(enginetest.On(http.MethodGet, "/containers/*/json"))
	done := make(chan error, 1)
	go func() {
		_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "x1", OrchestratorURL: "ws://x:4000"})
		done <- err
	}()
	<-hold.Arrived()
	list := e.containers("x1")
	require.Len(t, list, 1)
	waitFor(t, func() bool {
		info, err := e.c.ContainerInspect(context.Background(), list[0].ID, client.ContainerInspectOptions{})
		return err == nil && !info.Container.State.Running
	})
	hold.Remove()
	err := <-done
	require.ErrorIs(t, err, ErrNoAddress)
	assert.EqualError(t, err, "Agent container "+list[0].ID[:12]+" has no address on kici-agent-net, so its network isolation rules cannot be applied")
	events := e.events.of("x1")
	failed := events[len(events)-1]
	assert.True(t, strings.HasPrefix(failed, "scaler.failed: "+err.Error()+"\n--- captured output ---\n"), failed)
	assert.True(t, strings.HasSuffix(failed, "\nready"), failed)
	assert.Contains(t, failed, `env "KICI_FAKE_EXIT=3"`)
	settled(t, b)
	assert.Empty(t, e.containers("x1"))
}

// TestCapacity: a scaler at maxAgents refuses a spawn with the
// orchestrator's text, as does an agent id it tracks, before any Engine
// request; and spawns wait for the scaler's one slot in turn.
func TestCapacity(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	image := e.agentImage(nil)
	cfg := e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image, ImagePullPolicy: scalerconfig.PullNever})
	cfg.Scalers[0].MaxAgents, cfg.Scalers[0].MaxConcurrentSpawns = 2, 1
	b := e.backend(cfg)

	hold := e.faults.Hold(enginetest.On(http.MethodPost, "/containers/create"))
	first := make(chan error, 1)
	go func() {
		_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "s1", OrchestratorURL: "ws://x:4000"})
		first <- err
	}()
	<-hold.Arrived()
	second := make(chan error, 1)
	go func() {
		_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "s2", OrchestratorURL: "ws://x:4000"})
		second <- err
	}()
	waitFor(t, func() bool { return b.Active() == 2 })
	requests := len(e.faults.Requests())

	_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "s3", OrchestratorURL: "ws://x:4000"})
	assert.EqualError(t, err, `Container backend "`+e.name+`" at capacity (2/2)`)
	assert.ErrorIs(t, err, agentspawn.ErrAtCapacity)
	assert.Equal(t, 1, hold.Hits(), "the second spawn waits for the slot: no create of its own yet")
	assert.Len(t, e.faults.Requests(), requests, "a refused spawn makes no Engine request")

	hold.Remove()
	require.NoError(t, <-first)
	require.NoError(t, <-second)
	_, err = b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "s1", OrchestratorURL: "ws://x:4000"})
	assert.ErrorIs(t, err, agentspawn.ErrAtCapacity)
	require.NoError(t, b.Destroy(context.Background(), "s2"))
	_, err = b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "s1", OrchestratorURL: "ws://x:4000"})
	assert.ErrorIs(t, err, ErrAgentExists)
	_, err = b.Spawn(context.Background(), Request{LabelSet: []string{"windows"}, AgentID: "s4", OrchestratorURL: "ws://x:4000"})
	assert.EqualError(t, err, `Label set [windows] not supported by container backend "`+e.name+`"`)
}

// TestShutdownAll destroys every agent, and returns once a spawn under
// way has unwound too.
func TestShutdownAll(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	image := e.agentImage(nil)
	b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image, ImagePullPolicy: scalerconfig.PullNever}))
	e.spawn(b, "h1", Request{LabelSet: []string{"linux"}})
	e.spawn(b, "h2", Request{LabelSet: []string{"linux"}})
	hold := e.faults.Hold(enginetest.On(http.MethodPost, "/containers/*/start"))
	done := make(chan error, 1)
	go func() {
		_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "h3", OrchestratorURL: "ws://x:4000"})
		done <- err
	}()
	<-hold.Arrived()
	go func() { time.Sleep(200 * time.Millisecond); hold.Remove() }()
	b.ShutdownAll(context.Background())
	assert.Equal(t, 0, b.Active())
	for _, id := range []string{"h1", "h2", "h3"} {
		assert.Empty(t, e.containers(id), id)
	}
	assert.ErrorIs(t, <-done, ErrTornDown)
	assert.Empty(t, e.agentAddrs())
}

// TestDestroyBeforeCreate: Destroy reaches a spawn that waits for a slot,
// and one held in its pull: each ends at once as torn down, and creates
// no container.
func TestDestroyBeforeCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reg := enginetest.OpenRegistry(t)
	image := reg.Ref("kici-agent-" + e.name + ":0.20.0")
	enginetest.AgentImage(t, e.c, image, map[string]string{"kicikit.test": e.name})
	enginetest.Push(t, e.c, image, nil)
	cfg := e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image, ImagePullPolicy: scalerconfig.PullAlways})
	cfg.Scalers[0].MaxConcurrentSpawns = 1
	b := e.backend(cfg)
	pull := e.faults.Hold(enginetest.On(http.MethodPost, "/images/create"))
	spawn := func(id string) chan error {
		done := make(chan error, 1)
		go func() {
			_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: id, OrchestratorURL: "ws://x:4000"})
			done <- err
		}()
		return done
	}
	pulling := spawn("q1")
	<-pull.Arrived()
	queued := spawn("q2")
	waitFor(t, func() bool { return b.Active() == 2 })

	require.NoError(t, b.Destroy(context.Background(), "q2"))
	select {
	case err := <-queued:
		assert.ErrorIs(t, err, ErrTornDown, "the queued spawn ends at once")
	case <-time.After(10 * time.Second):
		t.Fatal("a queued spawn did not end when destroyed")
	}
	require.NoError(t, b.Destroy(context.Background(), "q1"))
	select {
	case err := <-pulling:
		assert.ErrorIs(t, err, ErrTornDown, "the pulling spawn ends at once")
	case <-time.After(10 * time.Second):
		t.Fatal("a pulling spawn did not end when destroyed")
	}
	pull.Remove()
	settled(t, b)
	for _, r := range e.faults.Requests() {
		assert.NotEqual(t, "POST /containers/create", r)
	}
}

// TestBackendsShareTheTable: two scalers of one process spawn, destroy and
// sweep at once on one nftables table; each live agent keeps its rules,
// and each ended one leaves none.
func TestBackendsShareTheTable(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	image := e.agentImage(nil)
	ls := scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image, ImagePullPolicy: scalerconfig.PullNever}
	cfg := e.config(ls)
	cfg.Scalers = append(cfg.Scalers, cfg.Scalers[0])
	cfg.Scalers[1].Name = e.name + "-gpu"
	one := e.backend(cfg)
	two := e.backend(cfg, func(o *Options) { o.Scaler = e.name + "-gpu" })
	var wg sync.WaitGroup
	kept := make([]Agent, 8)
	for i := range kept {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := []*Backend{one, two}[i%2]
			id := "s" + strconv.Itoa(i)
			a, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: id, OrchestratorURL: "ws://x:4000"})
			assert.NoError(t, err)
			if i%4 == 0 {
				assert.NoError(t, b.Destroy(context.Background(), id))
				return
			}
			kept[i] = a
			_, err = []*Backend{two, one}[i%2].CleanupOrphans(context.Background())
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	for i, a := range kept {
		if i%4 == 0 {
			continue
		}
		assert.Equal(t, 5, len(e.chain("agent-forward-"+a.IP.String())), "agent %d keeps its rules", i)
	}
	assert.Equal(t, 6, strings.Count(e.table("ip"), "chain agent-forward-"), "the rules of the six live agents, and no more")
}
