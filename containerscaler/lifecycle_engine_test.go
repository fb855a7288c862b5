//go:build linux

package containerscaler

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pool is a config of one label set, linux, of the test's agent image,
// never pulled.
func (e *env) pool() *scalerconfig.Config {
	return e.config(scalerconfig.LabelSet{Labels: []string{"linux"}, Image: e.agentImage(nil), ImagePullPolicy: scalerconfig.PullNever})
}

// TestDestroyWaitsUntilGone (issue 32, defect 5): while a Destroy stops a
// running agent, a second Destroy of it and ShutdownAll wait for the
// container to be gone, and so do their callers: none returns while the
// container is there, with its rules.
func TestDestroyWaitsUntilGone(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := e.backend(e.pool())
	a := e.spawn(b, "w1", Request{LabelSet: []string{"linux"}})
	hold := e.faults.Hold(enginetest.On(http.MethodDelete, "/containers/*"))

	returned := make(chan string, 3)
	go func() { _ = b.Destroy(context.Background(), "w1"); returned <- "first Destroy" }()
	<-hold.Arrived()
	go func() { _ = b.Destroy(context.Background(), "w1"); returned <- "second Destroy" }()
	go func() { _ = b.ShutdownAll(context.Background()); returned <- "ShutdownAll" }()
	select {
	case who := <-returned:
		t.Fatalf("%s returned while the container was being removed", who)
	case <-time.After(500 * time.Millisecond):
	}
	assert.True(t, e.exists(a.ContainerID))
	assert.Contains(t, e.ruleset(), "agent-forward-"+a.IP.String(), "a stopping container keeps its rules")

	hold.Remove()
	for range 3 {
		select {
		case <-returned:
		case <-time.After(time.Minute):
			t.Fatal("a Destroy or ShutdownAll did not return once the container was gone")
		}
	}
	assert.False(t, e.exists(a.ContainerID))
	assert.NotContains(t, e.ruleset(), a.IP.String())
}

// engineBehind is a transport that shows the containers the Engine lists
// as created some time earlier than it says: an Engine whose clock is
// behind this host's.
type engineBehind struct {
	next  http.RoundTripper
	shift int64
}

var createdField = regexp.MustCompile(`"Created":(\d+)`)

func (s engineBehind) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := s.next.RoundTrip(r)
	if err != nil || r.Method != http.MethodGet || enginetest.APIPath(r) != "/containers/json" {
		return res, err
	}
	body, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if err != nil {
		return nil, err
	}
	body = createdField.ReplaceAllFunc(body, func(m []byte) []byte {
		n, _ := strconv.ParseInt(string(createdField.FindSubmatch(m)[1]), 10, 64)
		return []byte(`"Created":` + strconv.FormatInt(n-s.shift, 10))
	})
	res.Body, res.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	res.Header.Del("Content-Length")
	return res, nil
}

// answerLost is a transport that sends each container create to the
// Engine, which makes the container, and then loses the answer.
type answerLost struct{ next http.RoundTripper }

func (l answerLost) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := l.next.RoundTrip(r)
	if err == nil && enginetest.On(http.MethodPost, "/containers/create")(r) {
		_ = res.Body.Close()
		return nil, errors.New("the answer was lost")
	}
	return res, err
}

// TestLostCreateFoundByName (issue 32, defect 6): a create whose answer
// is lost fails the spawn; the container the Engine made all the same is
// found by its name and labels, and removed, with the Engine's clock 5 s
// behind this host's.
func TestLostCreateFoundByName(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	engine := enginetest.EngineWith(t, func(next http.RoundTripper) http.RoundTripper {
		return answerLost{engineBehind{next: next, shift: 5}}
	})
	b := e.backend(e.pool(), func(o *Options) { o.Engine = engine })
	_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "l1", OrchestratorURL: "ws://x:4000"})
	require.ErrorContains(t, err, "the answer was lost")
	var se *StepError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "create container", se.Step)
	settled(t, b)
	assert.Empty(t, e.containers("l1"), "the container the lost create made is gone")
}

// TestCleanupFailuresTell: a removal that fails reaches the caller, as an
// event naming the step and as part of the error of the method that
// returns one: a spawn's unwinding, Destroy, ShutdownAll, CleanupOrphans.
// A container that cannot be removed keeps its rules.
func TestCleanupFailuresTell(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := e.backend(e.pool())
	removal := enginetest.On(http.MethodDelete, "/containers/*")

	// A spawn that fails at its start, and whose container cannot go.
	start := e.faults.Fail(enginetest.On(http.MethodPost, "/containers/*/start"), http.StatusInternalServerError, "no start today")
	refuse := e.faults.Fail(removal, http.StatusInternalServerError, "no removal today")
	_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "c1", OrchestratorURL: "ws://x:4000"})
	start.Remove()
	require.Error(t, err)
	lines := strings.Split(err.Error(), "\n")
	require.Len(t, lines, 2, err.Error())
	assert.Regexp(t, `^start container [0-9a-f]{12}: .*no start today$`, lines[0])
	assert.Regexp(t, `^remove container [0-9a-f]{12}: .*no removal today$`, lines[1])
	events := e.events.of("c1")
	assert.True(t, strings.HasPrefix(events[len(events)-2], "scaler.failed: start container "), events)
	assert.Equal(t, "scaler.cleanup_failed: "+lines[1], events[len(events)-1])
	require.Len(t, e.containers("c1"), 1, "the container the Engine would not remove")

	// Destroy and ShutdownAll of running agents whose containers cannot go.
	refuse.Remove()
	a2 := e.spawn(b, "c2", Request{LabelSet: []string{"linux"}})
	a3 := e.spawn(b, "c3", Request{LabelSet: []string{"linux"}})
	refuse = e.faults.Fail(removal, http.StatusInternalServerError, "no removal today")
	err = b.Destroy(context.Background(), "c2")
	assert.Regexp(t, `^remove container [0-9a-f]{12}: .*no removal today$`, err.Error())
	assert.Contains(t, e.events.of("c2"), "scaler.cleanup_failed: "+err.Error())
	assert.Contains(t, e.ruleset(), "agent-forward-"+a2.IP.String(), "its container is there: its rules stay")
	err = b.ShutdownAll(context.Background())
	assert.Regexp(t, `^remove container [0-9a-f]{12}: .*no removal today$`, err.Error(), "ShutdownAll says what it could not remove")
	assert.Equal(t, 0, b.Active())

	// CleanupOrphans finds them, stopped, and says what it could not
	// remove; the rules of stopped containers, which hold no address, go;
	// then it removes the containers.
	rules := 0
	for _, a := range []Agent{a2, a3} {
		rules += len(e.chain("agent-forward-"+a.IP.String())) + len(e.chain("agent-input-"+a.IP.String()))
	}
	assert.Equal(t, 2*11, rules, "c2's and c3's")
	n, err := b.CleanupOrphans(context.Background())
	assert.Equal(t, rules+2*2, n, "and each chain's guard")
	require.Error(t, err)
	failed := strings.Split(err.Error(), "\n")
	assert.Len(t, failed, 3, err.Error())
	for _, id := range []string{"c1", "c2", "c3"} {
		assert.Subset(t, append(failed, "?"), []string{strings.TrimPrefix(last(e.events.of(id)), "scaler.cleanup_failed: ")})
	}
	refuse.Remove()
	n, err = b.CleanupOrphans(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 3, n, "three containers")
	assert.Empty(t, e.managed("kici-scaler-name="+e.name))
	assert.Empty(t, e.agentAddrs())
}

// TestAddressLost: a container that stops while its rules are written
// fails its spawn with ErrAddressLost, and the unwinding removes what it
// wrote.
func TestAddressLost(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := e.backend(e.pool())
	// The second inspect is the check that follows the rules' transaction.
	hold := e.faults.Hold(nth(2, enginetest.On(http.MethodGet, "/containers/*/json")))
	done := make(chan error, 1)
	go func() {
		_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "s1", OrchestratorURL: "ws://x:4000"})
		done <- err
	}()
	<-hold.Arrived()
	list := e.containers("s1")
	require.Len(t, list, 1)
	assert.Contains(t, e.ruleset(), `: "`+list[0].ID[:15]+`"`, "the rules are written")
	_, err := e.c.ContainerKill(context.Background(), list[0].ID, client.ContainerKillOptions{})
	require.NoError(t, err)
	waitFor(t, func() bool { return !e.running(list[0].ID) })
	hold.Remove()
	err = <-done
	require.ErrorIs(t, err, ErrAddressLost)
	assert.Regexp(t, `^Agent container [0-9a-f]{12} no longer holds 172\.30\.\d+\.\d+ on kici-agent-net: it stopped while its network isolation rules were written$`, err.Error())
	settled(t, b)
	assert.Empty(t, e.agentAddrs())
	assert.Empty(t, e.containers("s1"))
}

// TestAddressTaken: rules for an address that another running container
// holds, as an out-of-date answer would have them written, are refused
// with ErrAddressTaken, naming the holder, and nothing is written.
func TestAddressTaken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := e.backend(e.pool())
	holder := e.spawn(b, "t1", Request{LabelSet: []string{"linux"}})
	before := e.ruleset()
	iso, err := agentspawn.PlanIsolation(agentspawn.IsolationInput{Addr: holder.IP, HostAccess: []string{"*"}})
	require.NoError(t, err)
	b.mu.Lock()
	bd := b.agents["t1"].bound
	b.mu.Unlock()
	intruder := strings.Repeat("f", 64)

	err = b.bind(context.Background(), "t2", intruder, "", bd, iso)
	var ae *Error
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, ErrAddressTaken, ae.Reason)
	assert.Equal(t, holder.ContainerID[:15], ae.Holder)
	assert.Equal(t, holder.IP, ae.Addr)
	assert.Equal(t, before, e.ruleset(), "nothing written")
}

// TestLostCreateUnfound: a create whose answer is lost, and whose
// container cannot then be looked up by its name, fails the spawn with
// both errors, and the lookup's is the agent's cleanup_failed event; the
// sweep removes the container the create made.
func TestLostCreateUnfound(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	engine := enginetest.EngineWith(t, func(next http.RoundTripper) http.RoundTripper {
		return answerLost{e.faults.Wrap(next)}
	})
	b := e.backend(e.pool(), func(o *Options) { o.Engine = engine })
	fault := e.faults.Fail(enginetest.On(http.MethodGet, "/containers/kici-agent-l2-*/json"), http.StatusInternalServerError, "no lookup today")
	_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "l2", OrchestratorURL: "ws://x:4000"})
	require.Error(t, err)
	lines := strings.Split(err.Error(), "\n")
	require.Len(t, lines, 2, err.Error())
	assert.Regexp(t, `^create container: .*the answer was lost$`, lines[0])
	assert.Regexp(t, `^inspect container kici-agent-l2-[0-9a-f]{8}: .*no lookup today$`, lines[1])
	assert.Equal(t, "scaler.cleanup_failed: "+lines[1], last(e.events.of("l2")))
	settled(t, b)
	require.Len(t, e.containers("l2"), 1, "the container the lost create made")
	fault.Remove()

	n, err := b.CleanupOrphans(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Empty(t, e.containers("l2"))
}

// running reports whether the container id runs.
func (e *env) running(id string) bool {
	info, err := e.c.ContainerInspect(context.Background(), id, client.ContainerInspectOptions{})
	return err == nil && info.Container.State.Running
}

// TestIsolatedNetworkRefused: an isolated network that has IPv6, is not
// a bridge, or is on another subnet is refused with the reason: agents on
// it would reach over IPv6 what their rules drop, would not be bound to
// their ports, or would meet rules written for another network. The one
// New takes forwards LLDP-addressed frames.
func TestIsolatedNetworkRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	mk := func(name string, opts client.NetworkCreateOptions) string {
		res, err := e.c.NetworkCreate(ctx, "kicikit-"+name+"-"+e.name, opts)
		require.NoError(t, err)
		t.Cleanup(func() { _, _ = e.c.NetworkRemove(context.Background(), res.ID, client.NetworkRemoveOptions{}) })
		return res.ID
	}
	v6 := true
	ipv6 := mk("v6", client.NetworkCreateOptions{Driver: "bridge", EnableIPv6: &v6, IPAM: &network.IPAM{Config: []network.IPAMConfig{
		{Subnet: netip.MustParsePrefix("fd00:" + e.name[1:5] + "::/64")}}}})
	_, err := bridgeOf(ctx, e.engine, "s", ipv6)
	require.ErrorIs(t, err, ErrNetworkIPv6)
	assert.EqualError(t, err, "Isolated network kici-agent-net has IPv6 enabled: its agents would reach over IPv6 what their "+
		"nftables rules drop. Remove it (docker network rm kici-agent-net) and the backend creates it again, IPv4 only.")

	// This kernel has no macvlan or ipvlan: the Engine's own networks
	// host and none are of other drivers.
	for name, driver := range map[string]string{"host": "host", "none": "null"} {
		id, err := findNetwork(ctx, e.engine, name)
		require.NoError(t, err)
		_, err = bridgeOf(ctx, e.engine, "s", id)
		require.ErrorIs(t, err, ErrNetworkDriver)
		assert.EqualError(t, err, "Isolated network kici-agent-net uses the "+strconv.Quote(driver)+" driver: network isolation "+
			"binds each agent to its port on a bridge. Remove it (docker network rm kici-agent-net) and the backend creates it again as a bridge.")
	}

	elsewhere := mk("sub", client.NetworkCreateOptions{Driver: "bridge", IPAM: &network.IPAM{Config: []network.IPAMConfig{
		{Subnet: netip.MustParsePrefix("10.251.0.0/24"), Gateway: netip.MustParseAddr("10.251.0.1")}}}})
	_, err = bridgeOf(ctx, e.engine, "s", elsewhere)
	require.ErrorIs(t, err, ErrNetworkSubnet)
	assert.EqualError(t, err, "Isolated network kici-agent-net has the subnet 10.251.0.0/24 with the gateway 10.251.0.1: network "+
		"isolation's rules are written for 172.30.0.0/16 and its gateway 172.30.0.1. Remove it (docker network rm kici-agent-net) "+
		"and the backend creates it again.")

	e.backend(e.pool())
	id, err := findNetwork(ctx, e.engine, agentspawn.IsolatedNetwork)
	require.NoError(t, err)
	bridge, err := bridgeOf(ctx, e.engine, "s", id)
	require.NoError(t, err)
	assert.Equal(t, "br-"+id[:12], bridge)
	ifc, err := net.InterfaceByName(bridge)
	require.NoError(t, err, "the test runs in the Engine's namespace")
	mask, err := groupFwdMask(ifc.Index)
	require.NoError(t, err)
	assert.NotZero(t, mask&lldpGroup, "the bridge forwards LLDP-addressed frames")
}

// TestStepsNamed: an Engine error says which step failed.
func TestStepsNamed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := e.backend(e.pool())
	e.faults.Fail(nth(1, enginetest.On(http.MethodGet, "/containers/*/json")), http.StatusInternalServerError, "inspect broke")
	_, err := b.Spawn(context.Background(), Request{LabelSet: []string{"linux"}, AgentID: "n1", OrchestratorURL: "ws://x:4000"})
	var se *StepError
	require.ErrorAs(t, err, &se)
	assert.Regexp(t, `^inspect container [0-9a-f]{12}$`, se.Step)
	assert.Regexp(t, `^inspect container [0-9a-f]{12}: .*inspect broke$`, err.Error())
}
