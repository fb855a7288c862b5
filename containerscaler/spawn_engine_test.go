package containerscaler

import (
	"context"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSpawnAsANewUser spawns the pool's own agent image of a label set with
// limits, a volume, the runtime socket and an extra host, and reads what
// the agent sees in its container: the groups, limits, binds, hosts and
// environment the orchestrator 0.20.0 gives it, and its address on the
// isolated network. Destroy then leaves nothing.
func TestSpawnAsANewUser(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	image := e.agentImage(nil)
	volume := "kicikit-" + e.name
	e.removeVolumeAtEnd(volume)
	cfg := e.config(scalerconfig.LabelSet{
		Labels: []string{"linux", "docker"}, Image: image, ImagePullPolicy: scalerconfig.PullNever,
		Resources:       &hostconfig.Resources{Limits: &hostconfig.ResourceSpec{CPUs: 1.5, Memory: "512m"}},
		Volumes:         []string{volume + ":/data"},
		ContainerSocket: true,
		Env:             scalerconfig.Env{{Name: "FROM_LABEL_SET", Value: "1"}},
	})
	cfg.Scalers[0].ExtraHosts = []string{"kici-host:192.0.2.1"}
	b := e.backend(cfg, func(o *Options) {
		o.SocketPath = socketPath()
		o.Environ = []string{"PATH=/bin", "KICI_AGENT_ENV_FORWARDED=yes"}
		o.Token = func(_ context.Context, id string, labels []string) (string, error) { return "token-" + id, nil }
	})

	a := e.spawn(b, "a1", Request{LabelSet: []string{"docker", "linux"}, BoundJobID: "job-7"})
	require.True(t, a.IP.Is4())
	assert.True(t, netip.MustParsePrefix("172.30.0.0/16").Contains(a.IP))
	assert.Equal(t, 1, b.Active())

	r := enginetest.ReadAgent(t, e.c, a.ContainerID)
	assert.Equal(t, []string{enginetest.AgentNode, enginetest.AgentScript}, r.Argv)
	assert.Equal(t, "0 1990", r.Groups)
	assert.Equal(t, "4096", r.PidsMax)
	assert.Equal(t, "536870912", r.MemoryMax)
	assert.Equal(t, "150000", r.CPUQuota)
	assert.Equal(t, []string{a.IP.String() + "/16"}, r.IPs)
	assert.Contains(t, r.Hosts, "192.0.2.1 kici-host")
	// The Engine adds PATH and HOSTNAME before them and HOME after; the
	// image's own environment follows.
	var env []string
	for _, kv := range r.Env {
		if name, _, _ := strings.Cut(kv, "="); name != "PATH" && name != "HOSTNAME" && name != "HOME" {
			env = append(env, kv)
		}
	}
	wantEnv := []string{
		"KICI_ORCHESTRATOR_URL=ws://172.30.0.1:4000/ws",
		"KICI_AGENT_ID=a1",
		"KICI_LABELS=docker,linux,kici:agent:container,kici:scaler:" + e.name + ",kici:role:builder,kici:role:init-runner",
		"KICI_SCALER_MANAGED=1",
		"KICI_EXECUTION_MODE=bare-metal",
		"KICI_RUNTIME_IMAGE=" + image,
		"KICI_AGENT_TOKEN=token-a1",
		"FORWARDED=yes",
		"FROM_LABEL_SET=1",
		"KICI_SCALER_SINGLE_JOB=1",
	}
	assert.Equal(t, wantEnv, env)

	info, err := e.c.ContainerInspect(context.Background(), a.ContainerID, client.ContainerInspectOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{volume + ":/data", socketPath() + ":" + socketPath()}, info.Container.HostConfig.Binds)
	assert.Equal(t, map[string]string{"kici-managed": "true", "kici-scaler-name": e.name, "kici-agent-id": "a1",
		"kici-labels": "docker,linux", "kici-bound-job-id": "job-7", "kicikit.test": e.name}, info.Container.Config.Labels)

	assert.Equal(t, []string{
		"scaler.provisioning: creating container",
		"scaler.network: configuring network isolation",
		"scaler.ready: container started",
		"agent.connecting: waiting for agent WS registration",
	}, e.events.of("a1"))

	iso, err := agentspawn.PlanIsolation(agentspawn.IsolationInput{Addr: a.IP, HostAccess: []string{"172.30.0.1:53", "*:4000"}})
	require.NoError(t, err)
	assert.Equal(t, iso.Forward, e.chain("agent-forward-"+a.IP.String()), "the forward rules, in order")
	assert.Equal(t, iso.Input, e.chain("agent-input-"+a.IP.String()), "the input rules, in order")
	rules := e.ruleset()
	assert.Contains(t, rules, a.IP.String()+" : goto agent-forward-"+a.IP.String())
	info, err = e.c.ContainerInspect(context.Background(), a.ContainerID, client.ContainerInspectOptions{})
	require.NoError(t, err)
	assert.Contains(t, rules, a.IP.String()+` : "`+a.ContainerID[:15]+`"`, "the container owns its address's rules")
	mac := info.Container.NetworkSettings.Networks[agentspawn.IsolatedNetwork].MacAddress.String()
	assert.Regexp(t, `\d+ \. `+mac+` \. `+a.IP.String(), rules, "its port is bound to its MAC and address")

	require.NoError(t, b.Destroy(context.Background(), "a1"))
	assert.Equal(t, 0, b.Active())
	assert.Empty(t, e.containers("a1"))
	assert.NotContains(t, e.ruleset(), a.IP.String())
	require.NoError(t, b.Destroy(context.Background(), "a1"), "an agent already gone is no error")
}

// TestSpawnJobImage runs an agent in a job's own image, pulled from a
// registry with the job's credentials: from the KiCI runtime of the label
// set's agent image, filled once into a volume, under the agent image's
// tini.
func TestSpawnJobImage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reg := enginetest.Registry(t)
	image := e.agentImage(map[string]string{"kici.runtime.init": "tini"})
	job := reg.Ref("job-" + e.name + ":1")
	enginetest.JobImage(t, e.c, job)
	enginetest.Push(t, e.c, job, reg.Auth())
	b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image}))

	a := e.spawn(b, "j1", Request{LabelSet: []string{"linux"}, Job: &Job{Image: job, Auth: reg.Auth()}})
	r := enginetest.ReadAgent(t, e.c, a.ContainerID)
	assert.Equal(t, "tini", r.PID1)
	assert.Equal(t, []string{enginetest.AgentNode, enginetest.AgentScript}, r.Argv)
	assert.Equal(t, "0", r.Groups, "a job's image gets no sudo group")
	assert.Contains(t, r.Env, "KICI_JOB_IMAGE_AGENT=1")
	assert.NotContains(t, r.Env, "KICI_SCALER_SINGLE_JOB=1")
	assert.Contains(t, r.Env, "KICI_RUNTIME_IMAGE="+image)
	assert.Equal(t, []string{
		"scaler.provisioning: pulling image " + job,
		"scaler.provisioning: materializing the KiCI runtime from " + image,
		"scaler.provisioning: creating container",
		"scaler.network: configuring network isolation",
		"scaler.ready: container started",
		"agent.connecting: waiting for agent WS registration",
	}, e.events.of("j1"))

	// The volume is complete now: a second job fills nothing.
	a2 := e.spawn(b, "j2", Request{LabelSet: []string{"linux"}, Job: &Job{Image: job, Auth: reg.Auth()}})
	assert.Equal(t, "tini", enginetest.ReadAgent(t, e.c, a2.ContainerID).PID1)
	for _, ev := range e.events.of("j2") {
		assert.NotContains(t, ev, "materializing")
	}
	info, err := e.c.ContainerInspect(context.Background(), a2.ContainerID, client.ContainerInspectOptions{})
	require.NoError(t, err)
	binds := info.Container.HostConfig.Binds
	require.Len(t, binds, 1)
	assert.True(t, strings.HasPrefix(binds[0], "kici-runtime-") && strings.HasSuffix(binds[0], ":/opt/kici:ro"), binds[0])
	assert.Empty(t, e.managed("kicikit.test="+e.name), "no populator or probe is left")
}

// TestSpawnJobImageWithoutCredentials: a private job image pulled without
// the job's credentials fails the spawn, and leaves nothing.
func TestSpawnJobImageWithoutCredentials(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reg := enginetest.Registry(t)
	image := e.agentImage(nil)
	job := reg.Ref("job-" + e.name + ":1")
	enginetest.JobImage(t, e.c, job)
	enginetest.Push(t, e.c, job, reg.Auth())
	b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image}))

	_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "j1",
		OrchestratorURL: "ws://172.30.0.1:4000/ws", Job: &Job{Image: job}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no basic auth credentials")
	assert.Equal(t, 0, b.Active())
	assert.Empty(t, e.containers("j1"))
	events := e.events.of("j1")
	require.NotEmpty(t, events)
	assert.Equal(t, "scaler.failed: "+err.Error(), events[len(events)-1])
}

// TestRuntimeVolumeOnce: spawns that need one runtime volume at once fill
// it once.
func TestRuntimeVolumeOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	image := e.agentImage(nil)
	job := "job-" + e.name + ":1"
	enginetest.JobImage(t, e.c, job)
	b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image}))

	var wg sync.WaitGroup
	for _, id := range []string{"j1", "j2", "j3"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: id,
				OrchestratorURL: "ws://172.30.0.1:4000/ws", Job: &Job{Image: job}})
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	assert.Equal(t, 3, b.Active())
	creates := 0
	for _, r := range e.faults.Requests() {
		if r == "POST /volumes/create" {
			creates++
		}
	}
	assert.Equal(t, 1, creates)
	materialized := 0
	for _, id := range []string{"j1", "j2", "j3"} {
		for _, ev := range e.events.of(id) {
			if strings.Contains(ev, "materializing") {
				materialized++
			}
		}
	}
	assert.Equal(t, 1, materialized)
}

// brokenAgent builds an agent image without the agent's tree and returns
// a backend whose one label set runs it, the image, its runtime volume,
// and a job spawn of an agent id on that backend.
func (e *env) brokenAgent() (b *Backend, ref, volume string, spawn func(agentID string) error) {
	e.t.Helper()
	ref = "kici-agent-" + e.name + ":broken"
	id := enginetest.BuildImage(e.t, e.c, ref, enginetest.ImageSpec{Layout: enginetest.BrokenAgent,
		Labels: map[string]string{"kicikit.test": e.name}})
	volume = agentspawn.RuntimeVolumeName(id)
	e.removeVolumeAtEnd(volume)
	job := "job-" + e.name + ":1"
	enginetest.JobImage(e.t, e.c, job)
	b = e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: ref}))
	return b, ref, volume, func(agentID string) error {
		_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: agentID,
			OrchestratorURL: "ws://172.30.0.1:4000/ws", Job: &Job{Image: job}})
		return err
	}
}

// TestRuntimeVolumeBroken: an agent image without the agent's tree fails a
// job's spawn with the populator's own words, and leaves no volume and no
// populator.
func TestRuntimeVolumeBroken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b, ref, volume, spawn := e.brokenAgent()

	err := spawn("j1")
	require.ErrorIs(t, err, ErrRuntimeVolume)
	// The populator's checks print nothing: test -f fails silently.
	assert.EqualError(t, err, "Failed to materialize the KiCI runtime from "+ref+
		": runtime copy exited 1 with no output. The image must carry /opt/kici/node and /opt/kici/app.")
	assert.False(t, e.volumeExists(volume), "the half-filled volume is removed")
	assert.Empty(t, e.managed("kicikit.test="+e.name), "no populator or probe is left")
	assert.Equal(t, 0, b.Active())
}

// TestRuntimeVolumeCleanupFails: a failed fill whose half-filled volume
// the Engine will not remove says so, in the spawn's error and as an
// event; a probe that cannot be created reads as an incomplete volume,
// which goes.
func TestRuntimeVolumeCleanupFails(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b, _, volume, spawn := e.brokenAgent()

	fault := e.faults.Fail(enginetest.On(http.MethodDelete, "/volumes/*"), http.StatusInternalServerError, "volume removal broke")
	err := spawn("v1")
	fault.Remove()
	require.ErrorIs(t, err, ErrRuntimeVolume)
	lines := strings.Split(err.Error(), "\n")
	require.Len(t, lines, 2, err.Error())
	assert.Regexp(t, `^remove volume `+volume+`: .*volume removal broke$`, lines[1])
	assert.Contains(t, e.events.of("v1"), "scaler.cleanup_failed: "+lines[1])
	assert.True(t, e.volumeExists(volume), "the volume the Engine would not remove")
	_, err = e.c.VolumeRemove(context.Background(), volume, client.VolumeRemoveOptions{})
	require.NoError(t, err)

	probe := e.faults.Fail(nth(2, enginetest.On(http.MethodPost, "/containers/create")), http.StatusInternalServerError, "no probe today")
	err = spawn("v2")
	require.ErrorIs(t, err, ErrRuntimeVolume)
	assert.NotContains(t, err.Error(), "no probe today", "a volume no probe can vouch for is incomplete: no error of its own")
	assert.Equal(t, 1, probe.Hits(), "the populator's create, then the probe's")
	assert.False(t, e.volumeExists(volume), "and removed")
	assert.Empty(t, e.managed("kicikit.test="+e.name), "no populator or probe is left")
	assert.Equal(t, 0, b.Active())
}

// TestPullPolicies: IfNotPresent pulls a missing image and not a present
// one, Always pulls every time, Never never does.
func TestPullPolicies(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reg := enginetest.OpenRegistry(t)
	image := reg.Ref("kici-agent-" + e.name + ":0.20.0")
	enginetest.AgentImage(t, e.c, image, map[string]string{"kicikit.test": e.name})
	enginetest.Push(t, e.c, image, nil)
	pulls := func() int {
		n := 0
		for _, r := range e.faults.Requests() {
			if r == "POST /images/create" {
				n++
			}
		}
		return n
	}
	tests := []struct {
		policy scalerconfig.PullPolicy
		pulled int
	}{
		{scalerconfig.PullIfNotPresent, 1}, // missing: pulled
		{scalerconfig.PullIfNotPresent, 0}, // present now
		{scalerconfig.PullAlways, 1},
		{scalerconfig.PullNever, 0},
	}
	for i, tt := range tests {
		cfg := e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image, ImagePullPolicy: tt.policy})
		b := e.backend(cfg)
		before := pulls()
		id := "p" + string(rune('0'+i))
		e.spawn(b, id, Request{LabelSet: []string{"linux"}})
		assert.Equal(t, tt.pulled, pulls()-before, "%s, spawn %d", tt.policy, i)
		pulling := slices.Contains(e.events.of(id), "scaler.provisioning: pulling image "+image)
		assert.Equal(t, tt.pulled == 1, pulling)
		require.NoError(t, b.Destroy(context.Background(), id))
	}
}

// TestPullNeverMissing: policy Never on a missing image fails at create,
// and leaves nothing.
func TestPullNeverMissing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"},
		Image: "kici-agent-" + e.name + ":missing", ImagePullPolicy: scalerconfig.PullNever}))
	_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "n1", OrchestratorURL: "ws://x:4000"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "No such image")
	assert.Empty(t, e.containers("n1"))
	assert.Equal(t, 0, b.Active())
}
