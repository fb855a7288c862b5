package containerscaler

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEngineRefusesEachStep fails each Engine request of a job's spawn in
// turn, as an Engine that refuses it: the spawn fails with the Engine's
// words and leaves nothing behind.
func TestEngineRefusesEachStep(t *testing.T) {
	t.Parallel()
	for _, step := range jobSteps()[1:] { // the inspect of a missing image fails as one
		t.Run(step.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			image := e.agentImage(nil)
			volume := runtimeVolume(t, e, image)
			job := "job-" + e.name + ":1"
			enginetest.JobImage(t, e.c, job)
			b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image}))
			if step.name == "job image pull" {
				job = "127.0.0.1:1/missing:1" // not present: pulled, and refused
			}
			fault := e.faults.Fail(nth(step.nth, step.match), http.StatusInternalServerError, "the engine says no")

			_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "f1",
				OrchestratorURL: "ws://172.30.0.1:4000/ws", Job: &Job{Image: job}})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "the engine says no")
			assert.Equal(t, 1, fault.Hits())
			e.leftNothing(b, "f1", image, volume)
		})
	}
}

// TestRuntimeCopyFails: an agent image without the KiCI runtime fails the
// copy, whose own words the error carries.
func TestRuntimeCopyFails(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bare := "kici-agent-" + e.name + ":bare"
	enginetest.BuildImage(t, e.c, bare, enginetest.ImageSpec{Layout: enginetest.Job, Labels: map[string]string{"kicikit.test": e.name}})
	volume := runtimeVolume(t, e, bare)
	e.removeVolumeAtEnd(volume)
	job := "job-" + e.name + ":1"
	enginetest.JobImage(t, e.c, job)
	b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: bare}))
	_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "b1",
		OrchestratorURL: "ws://172.30.0.1:4000/ws", Job: &Job{Image: job}})
	require.ErrorIs(t, err, ErrRuntimeVolume)
	assert.Regexp(t, `^Failed to materialize the KiCI runtime from `+bare+`: runtime copy exited 1: cp: can't stat '/opt/kici/\.': No such file or directory\. The image must carry`, err.Error())
	assert.False(t, e.volumeExists(volume))
}

// failingNft runs nft in the test's namespace, but fails, as nft does, a
// script or command that holds want.
func (e *env) failingNft(want string) func(*Options) {
	return func(o *Options) {
		o.NftCommand = []string{"sh", "-c", `in=$(cat); case "$in $*" in *"` + want + `"*) echo "Error: refused by the test" >&2; exit 1;; esac; ` +
			`printf %s "$in" | ip netns exec ` + e.ns + ` nft "$@"`, "nft"}
	}
}

// TestNftRefuses: an nft that refuses the rules of an agent's address
// fails its spawn, which removes the container; one that refuses their
// removal fails Destroy, which still removes the container, and then the
// sweep; one that cannot list the table or the bindings fails
// CleanupOrphans, and a spawn, which writes nothing.
func TestNftRefuses(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	image := e.agentImage(nil)
	cfg := e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image, ImagePullPolicy: scalerconfig.PullNever})

	b := e.backend(cfg, e.failingNft("add rule ip kici agent-forward-172"))
	_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "n1", OrchestratorURL: "ws://x:4000"})
	var ce *CommandError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "Error: refused by the test", ce.Stderr)
	settled(t, b)
	assert.Empty(t, e.containers("n1"))

	b = e.backend(cfg, e.failingNft("delete chain"))
	a := e.spawn(b, "n2", Request{LabelSet: []string{"linux"}})
	err = b.Destroy(context.Background(), "n2")
	require.ErrorAs(t, err, &ce)
	assert.Empty(t, e.containers("n2"), "the container goes all the same")
	assert.Equal(t, 0, b.Active())
	assert.Contains(t, e.ruleset(), "agent-forward-"+a.IP.String(), "rules nft would not remove stay")
	_, err = b.CleanupOrphans(context.Background())
	var se *StepError
	require.ErrorAs(t, err, &se, "the sweep cannot remove them either")
	assert.Equal(t, "remove stale rules", se.Step)
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, e.ruleset(), "agent-forward-"+a.IP.String())
	e.nft("flush ruleset\n")

	for _, listing := range []string{"list table ip kici", "list set bridge kici"} {
		b = e.backend(cfg, e.failingNft(listing))
		_, err = b.CleanupOrphans(context.Background())
		require.ErrorAs(t, err, &ce, listing)
	}
	b = e.backend(cfg, e.failingNft("list table ip kici"))
	_, err = b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "n3", OrchestratorURL: "ws://x:4000"})
	require.ErrorAs(t, err, &ce, "a spawn that cannot read the table writes no rule")
	settled(t, b)
	assert.Empty(t, e.containers("n3"))
	assert.Empty(t, e.agentAddrs())

	o := Options{Config: cfg, Scaler: e.name, Engine: e.engine}
	e.failingNft("add table")(&o)
	_, err = New(context.Background(), o)
	require.ErrorAs(t, err, &ce, "New fails when the table cannot be made")
}

// TestSpawnGivesUp: a spawn whose context ends while it waits for a slot
// gives up, uncounted, having made no Engine request; a token source that
// fails fails the spawn before any.
func TestSpawnGivesUp(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	image := e.agentImage(nil)
	cfg := e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image, ImagePullPolicy: scalerconfig.PullNever})
	cfg.Scalers[0].MaxConcurrentSpawns = 1
	noToken := errors.New("no token today")
	b := e.backend(cfg, func(o *Options) {
		o.Token = func(_ context.Context, id string, _ []string) (string, error) {
			if id == "g3" {
				return "", noToken
			}
			return "t", nil
		}
	})
	hold := e.faults.Hold(enginetest.On(http.MethodPost, "/containers/create"))
	first := make(chan error, 1)
	go func() {
		_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "g1", OrchestratorURL: "ws://x:4000"})
		first <- err
	}()
	<-hold.Arrived()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	requests := len(e.faults.Requests())
	_, err := b.Spawn(ctx, Request{LabelSet: []string{"linux"}, AgentID: "g2", OrchestratorURL: "ws://x:4000"})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, 1, b.Active(), "the spawn that gave up is not counted")
	assert.Len(t, e.faults.Requests(), requests, "it made no Engine request")
	hold.Remove()
	require.NoError(t, <-first)

	_, err = b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "g3", OrchestratorURL: "ws://x:4000"})
	assert.Equal(t, noToken, err)
	waitFor(t, func() bool { return b.Active() == 1 })

	// ShutdownAll gives up waiting when its context ends.
	stall := e.faults.Stall(enginetest.On(http.MethodPost, "/containers/create"))
	go func() {
		_, _ = b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "g4", OrchestratorURL: "ws://x:4000"})
	}()
	<-stall.Arrived()
	short, cancelShort := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancelShort()
	b.ShutdownAll(short)
	assert.ErrorIs(t, short.Err(), context.DeadlineExceeded, "it returned once its context ended")
	stall.Remove()
	settled(t, b)
	waitFor(t, func() bool { return len(e.containers("g1")) == 0 && len(e.containers("g4")) == 0 })
}

// TestNoIsolation: a scaler with networkIsolation false runs its agents on
// the Engine's default network, with no address of the isolated network
// and no rule, and sweeps no rule.
func TestNoIsolation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	image := e.agentImage(nil)
	off := false
	cfg := e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image, ImagePullPolicy: scalerconfig.PullNever})
	cfg.Scalers[0].NetworkIsolation = &off
	b := e.backend(cfg, func(o *Options) { o.NftCommand = nil })
	a := e.spawn(b, "o1", Request{LabelSet: []string{"linux"}})
	assert.False(t, a.IP.IsValid())
	r := enginetest.ReadAgent(t, e.c, a.ContainerID)
	require.Len(t, r.IPs, 1)
	assert.True(t, strings.HasPrefix(r.IPs[0], "172.17."), "the default bridge: %s", r.IPs[0])
	assert.Equal(t, []string{
		"scaler.provisioning: creating container",
		"scaler.ready: container started",
		"agent.connecting: waiting for agent WS registration",
	}, e.events.of("o1"))
	n, err := b.CleanupOrphans(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 0, n)
	require.NoError(t, b.Destroy(context.Background(), "o1"))
}

// TestPolicyRefused: a network policy no rule can match refuses the spawn
// before any Engine request.
func TestPolicyRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: "unused",
		NetworkPolicy: &scalerconfig.NetworkPolicy{Allowlist: []string{"registry.internal"}}}))
	requests := len(e.faults.Requests())
	_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "p1", OrchestratorURL: "ws://x:4000"})
	var ie *agentspawn.IsolationError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "allowlist", ie.Field)
	assert.Len(t, e.faults.Requests(), requests)
	assert.Equal(t, 0, b.Active())
}

// TestNewEngineFails: New fails when the Engine cannot list its networks,
// and when the scaler's host is no Engine address.
func TestNewEngineFails(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: "unused"})
	list := e.faults.Fail(enginetest.On(http.MethodGet, "/networks"), http.StatusInternalServerError, "no networks today")
	_, err := New(context.Background(), Options{Config: cfg, Scaler: e.name, Engine: e.engine, NftCommand: e.nftCommand()})
	assert.ErrorContains(t, err, "no networks today")
	list.Remove()
	e.faults.Fail(enginetest.On(http.MethodGet, "/networks/*"), http.StatusInternalServerError, "no network today")
	_, err = New(context.Background(), Options{Config: cfg, Scaler: e.name, Engine: e.engine, NftCommand: e.nftCommand()})
	var se *StepError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "inspect network kici-agent-net", se.Step)
	assert.ErrorContains(t, err, "no network today")
	host := "not an address"
	cfg.Scalers[0].Host = &host
	_, err = New(context.Background(), Options{Config: cfg, Scaler: e.name, NftCommand: e.nftCommand()})
	assert.Error(t, err)
}

// TestAgentImageMissing: a job's spawn whose agent image is neither
// present nor pullable fails, and leaves nothing.
func TestAgentImageMissing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	job := "job-" + e.name + ":1"
	enginetest.JobImage(t, e.c, job)
	b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: "127.0.0.1:1/kici-agent:missing"}))
	_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "m1",
		OrchestratorURL: "ws://x:4000", Job: &Job{Image: job}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "127.0.0.1:1")
	settled(t, b)
	assert.Empty(t, e.containers("m1"))
}
