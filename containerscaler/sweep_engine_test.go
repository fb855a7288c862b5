package containerscaler

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// orphan creates a container of image with labels, started or not, as an
// earlier process of some scaler left it.
func (e *env) orphan(image string, labels map[string]string, start bool) string {
	e.t.Helper()
	ctx := context.Background()
	res, err := e.c.ContainerCreate(ctx, client.ContainerCreateOptions{Config: &container.Config{Image: image, Labels: labels}})
	require.NoError(e.t, err)
	e.t.Cleanup(func() {
		_, _ = e.c.ContainerRemove(context.Background(), res.ID, client.ContainerRemoveOptions{Force: true})
	})
	if start {
		_, err = e.c.ContainerStart(ctx, res.ID, client.ContainerStartOptions{})
		require.NoError(e.t, err)
	}
	return res.ID
}

func (e *env) exists(id string) bool {
	_, err := e.c.ContainerInspect(context.Background(), id, client.ContainerInspectOptions{})
	return err == nil
}

// TestCleanupOrphans removes this scaler's containers that no agent owns,
// and the rules of addresses no container holds, in both layouts.
func TestCleanupOrphans(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	image := e.agentImage(nil)
	b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image, ImagePullPolicy: scalerconfig.PullNever}),
		func(o *Options) { o.IsRegistered = func(id string) bool { return id == "registered" } })
	tracked := e.spawn(b, "tracked", Request{LabelSet: []string{"linux"}})
	labels := func(scaler, agent string) map[string]string {
		return map[string]string{"kici-managed": "true", "kici-scaler-name": scaler, "kici-agent-id": agent}
	}
	exited := e.orphan(image, labels(e.name, "gone"), false)
	unregistered := e.orphan(image, labels(e.name, "unregistered"), true)
	registered := e.orphan(image, labels(e.name, "registered"), true)
	neighbour := e.orphan(image, labels(e.name+"-other", "gone"), false)

	// Rules whose owner is gone, in the backend's layout and the
	// orchestrator's, and rules of a live neighbour's address.
	stale := e.writeRules("deadbeef0000000", netip.MustParseAddr("172.30.250.9"), 99999)
	e.nft("insert rule ip kici forward ip saddr 172.30.250.10 ip daddr 10.0.0.0/8 drop\n" +
		"insert rule ip kici input ip saddr 172.30.250.10 drop\n")
	// A neighbour's agent on the isolated network: its address's rules
	// stay, though no backend of this process holds it.
	res, err := e.c.ContainerCreate(context.Background(), client.ContainerCreateOptions{
		Config: &container.Config{Image: image, Labels: labels(e.name+"-neighbour", "theirs")},
		NetworkingConfig: &network.NetworkingConfig{EndpointsConfig: map[string]*network.EndpointSettings{
			agentspawn.IsolatedNetwork: {},
		}},
	})
	require.NoError(t, err)
	t.Cleanup(func() {
		_, _ = e.c.ContainerRemove(context.Background(), res.ID, client.ContainerRemoveOptions{Force: true})
	})
	_, err = e.c.ContainerStart(context.Background(), res.ID, client.ContainerStartOptions{})
	require.NoError(t, err)
	info, err := e.c.ContainerInspect(context.Background(), res.ID, client.ContainerInspectOptions{})
	require.NoError(t, err)
	theirs := e.writeRules(owner(res.ID), info.Container.NetworkSettings.Networks[agentspawn.IsolatedNetwork].IPAddress, 99998)

	n, err := b.CleanupOrphans(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 2+len(stale.Forward)+len(stale.Input)+2+2, n, "two containers, and the rules of two addresses (each chain with its guard)")
	assert.False(t, e.exists(exited))
	assert.False(t, e.exists(unregistered))
	assert.True(t, e.exists(registered), "a running agent that registered")
	assert.True(t, e.exists(neighbour), "another scaler's")
	assert.True(t, e.exists(tracked.ContainerID), "an agent the backend runs")
	rules := e.ruleset()
	assert.NotContains(t, rules, "172.30.250.")
	assert.Contains(t, rules, "agent-forward-"+tracked.IP.String(), "the tracked agent's rules stay")
	assert.Contains(t, rules, "agent-forward-"+theirs.Addr.String(), "the neighbour's rules stay")
}

// TestCleanupOrphansListingFails: when the Engine cannot list the
// containers that hold addresses, no rule is removed, and that is no
// error; a failure of the scaler's own listing is one.
func TestCleanupOrphansListingFails(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: "unused"}))
	e.writeRules("deadbeef0000000", netip.MustParseAddr("172.30.250.9"), 99999)
	hostWide := func(r *http.Request) bool {
		return enginetest.On(http.MethodGet, "/containers/json")(r) && !strings.Contains(r.URL.RawQuery, "kici-scaler-name")
	}
	fault := e.faults.Fail(hostWide, http.StatusInternalServerError, "listing broke")
	n, err := b.CleanupOrphans(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 0, n)
	assert.Equal(t, 1, fault.Hits())
	assert.Contains(t, e.ruleset(), "agent-forward-172.30.250.9")
	fault.Remove()

	e.faults.Fail(enginetest.On(http.MethodGet, "/containers/json"), http.StatusInternalServerError, "listing broke")
	_, err = b.CleanupOrphans(context.Background())
	assert.ErrorContains(t, err, "listing broke")
}

// TestReapUnowned removes one agent's containers of this scaler, running
// or not, tracked or not. A listing or a removal that fails removes
// nothing and is the agent's cleanup_failed event, naming its step.
func TestReapUnowned(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	image := e.agentImage(nil)
	b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image}))
	mine := e.orphan(image, map[string]string{"kici-managed": "true", "kici-scaler-name": e.name, "kici-agent-id": "u1"}, true)
	other := e.orphan(image, map[string]string{"kici-managed": "true", "kici-scaler-name": e.name + "-other", "kici-agent-id": "u1"}, true)

	fault := e.faults.Fail(enginetest.On(http.MethodGet, "/containers/json"), http.StatusInternalServerError, "listing broke")
	assert.False(t, b.ReapUnowned(context.Background(), "u1"))
	assert.Regexp(t, `^scaler\.cleanup_failed: list containers: .*listing broke$`, last(e.events.of("u1")))
	fault.Remove()
	fault = e.faults.Fail(enginetest.On(http.MethodDelete, "/containers/*"), http.StatusInternalServerError, "removal broke")
	assert.False(t, b.ReapUnowned(context.Background(), "u1"))
	assert.Regexp(t, `^scaler\.cleanup_failed: remove container `+mine[:12]+`: .*removal broke$`, last(e.events.of("u1")))
	assert.True(t, e.exists(mine))
	fault.Remove()

	assert.True(t, b.ReapUnowned(context.Background(), "u1"))
	assert.False(t, e.exists(mine))
	assert.True(t, e.exists(other))
	assert.False(t, b.ReapUnowned(context.Background(), "u1"))
}

// TestReload takes the new label sets and maxAgents, and refuses a config
// the backend cannot serve, changing nothing.
func TestReload(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	image := e.agentImage(nil)
	ls := func(labels ...string) scalerconfig.LabelSet {
		return scalerconfig.LabelSet{Labels: labels, Image: image, ImagePullPolicy: scalerconfig.PullNever}
	}
	b := e.backend(e.config(ls("linux")))

	bad := e.config(ls("linux"), scalerconfig.LabelSet{Labels: []string{"a"}}, scalerconfig.LabelSet{Labels: []string{"b"}})
	err := b.Reload(bad)
	assert.EqualError(t, err, "Label set [1] requires an 'image' field for container backend\n"+
		"Label set [2] requires an 'image' field for container backend")
	assert.ErrorIs(t, err, agentspawn.ErrNoImage)
	assert.ErrorIs(t, b.Reload(&scalerconfig.Config{}), agentspawn.ErrUnknownScaler)
	other := e.config(ls("linux"))
	other.Scalers[0].Type = scalerconfig.TypeBareMetal
	assert.ErrorIs(t, b.Reload(other), agentspawn.ErrNotContainer)
	_, err = b.Spawn(context.Background(), Request{LabelSet: []string{"gpu"}, AgentID: "r0", OrchestratorURL: "ws://x:4000"})
	assert.ErrorIs(t, err, agentspawn.ErrLabelSetNotSupported, "unchanged")

	next := e.config(ls("gpu"))
	next.Scalers[0].MaxAgents = 1
	require.NoError(t, b.Reload(next))
	e.spawn(b, "r1", Request{LabelSet: []string{"gpu"}})
	_, err = b.Spawn(context.Background(), Request{LabelSet: []string{"gpu"}, AgentID: "r2", OrchestratorURL: "ws://x:4000"})
	assert.ErrorIs(t, err, agentspawn.ErrAtCapacity)
	_, err = b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "r3", OrchestratorURL: "ws://x:4000"})
	assert.ErrorIs(t, err, agentspawn.ErrLabelSetNotSupported)
}

// TestRuntimeVolumeReuse: a complete volume is probed and reused; one left
// incomplete (no marker) is filled again.
func TestRuntimeVolumeReuse(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	image := e.agentImage(nil)
	volume := runtimeVolume(t, e, image)
	_, err := e.c.VolumeCreate(context.Background(), client.VolumeCreateOptions{Name: volume})
	require.NoError(t, err)
	job := "job-" + e.name + ":1"
	enginetest.JobImage(t, e.c, job)
	b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image}))

	e.spawn(b, "v1", Request{LabelSet: []string{"linux"}, Job: &Job{Image: job}})
	assert.Contains(t, e.events.of("v1"), "scaler.provisioning: materializing the KiCI runtime from "+image, "an empty volume is filled")
	e.spawn(b, "v2", Request{LabelSet: []string{"linux"}, Job: &Job{Image: job}})
	assert.NotContains(t, e.events.of("v2"), "scaler.provisioning: materializing the KiCI runtime from "+image, "a complete one is not")
	assert.True(t, b.populated(context.Background(), fillOf{id: image, volume: volume}))
}

// TestNetworkCreateRace: two backends that start at once on an Engine
// without the isolated network both take the one network. dockerd 20.10
// answers the loser's create with 403 "Pool overlaps", not 409. The race is
// run on a network of the test's own, name and subnet, as the isolated
// network is every other engine test's.
func TestNetworkCreateRace(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	name := "kicikit-race-" + e.name
	opts := networkCreateOptions()
	third := byte(e.name[1]) // a subnet of the test's own, within 172.29/16
	opts.IPAM.Config[0].Subnet = netip.PrefixFrom(netip.AddrFrom4([4]byte{172, 29, third, 0}), 24)
	opts.IPAM.Config[0].Gateway = netip.AddrFrom4([4]byte{172, 29, third, 1})
	t.Cleanup(func() {
		if id, _ := findNetwork(context.Background(), e.c, name); id != "" {
			_, _ = e.c.NetworkRemove(context.Background(), id, client.NetworkRemoveOptions{})
		}
	})
	// The first create is held until the second has made the network.
	hold := e.faults.Hold(nth(1, enginetest.On(http.MethodPost, "/networks/create")))
	var wg sync.WaitGroup
	ids := make([]string, 2)
	errs := make([]error, 2)
	won := make(chan struct{}, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids[i], errs[i] = ensureNamedNetwork(ctx, e.engine, e.name, name, opts)
			won <- struct{}{}
		}()
	}
	<-hold.Arrived()
	<-won
	hold.Remove()
	wg.Wait()
	creates := 0
	for _, r := range e.faults.Requests() {
		if r == "POST /networks/create" {
			creates++
		}
	}
	assert.Equal(t, 2, creates, "both created, one lost")
	require.NoError(t, errs[0])
	require.NoError(t, errs[1])
	assert.Equal(t, ids[0], ids[1])
	list, err := e.c.NetworkList(ctx, client.NetworkListOptions{Filters: make(client.Filters).Add("name", name)})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	assert.Equal(t, map[string]string{"kici-managed": "true"}, list.Items[0].Labels)

	// Another network on the subnet is no race: its 403 is the error.
	_, err = ensureNamedNetwork(ctx, e.engine, e.name, name+"-other", opts)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Pool overlaps")
	assert.NotErrorIs(t, err, ErrNetworkRace)
}

// TestNewRefuses: New checks nft first, and refuses a scaler it cannot
// serve, before any Engine request.
func TestNewRefuses(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: "x"})
	_, err := New(context.Background(), Options{Config: cfg, Scaler: e.name, Engine: e.engine, NftCommand: []string{"/nonexistent/nft"}})
	assert.ErrorIs(t, err, ErrNftMissing)
	_, err = New(context.Background(), Options{Config: cfg, Scaler: "nope", Engine: e.engine})
	assert.ErrorIs(t, err, agentspawn.ErrUnknownScaler)
	_, err = New(context.Background(), Options{Scaler: e.name, Engine: e.engine})
	assert.ErrorIs(t, err, agentspawn.ErrNoConfig)
	assert.Equal(t, []string{"HEAD /_ping"}, e.faults.Requests(), "only enginetest's own ping")

	off := false
	cfg.Scalers[0].NetworkIsolation = &off
	b, err := New(context.Background(), Options{Config: cfg, Scaler: e.name, Engine: e.engine, NftCommand: []string{"/nonexistent/nft"}})
	require.NoError(t, err, "without isolation, no nft")
	assert.Equal(t, 0, b.Active())
}

// TestIsolationEndToEnd writes an agent's rules into the Engine's own
// namespace and connects out from the agent's container: the
// orchestrator's port on the gateway is open, another port is not.
func TestIsolationEndToEnd(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ns := enginetest.InEngineNetns(t)
	image := e.agentImage(nil)
	b := e.backend(e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image, ImagePullPolicy: scalerconfig.PullNever}),
		func(o *Options) { o.NftCommand = []string{"ip", "netns", "exec", ns, "nft"} })
	open, shut := listen(t), listen(t) // on the gateway, which New's network holds
	a := e.spawn(b, "i1", Request{LabelSet: []string{"linux"},
		OrchestratorURL: "ws://" + agentspawn.IsolatedNetworkGateway + ":" + open + "/ws"})
	probes := enginetest.Probe(t, e.c, a.ContainerID, "tcp:172.30.0.1:"+open, "tcp:172.30.0.1:"+shut)
	assert.Equal(t, map[string]string{"tcp:172.30.0.1:" + open: "ok", "tcp:172.30.0.1:" + shut: "timeout"}, probes)

	require.NoError(t, b.Destroy(context.Background(), "i1"))
}

// listen opens a listener on the isolated network's gateway, which the
// test's namespace holds, and returns its port.
func listen(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", agentspawn.IsolatedNetworkGateway+":0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}
