package containerscaler

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAgentToAgent: an agent reaches another agent over the bridge only
// where both agents' forward rules allow it (an allowlist entry: the
// orchestrator's forward rules let no reply through otherwise), whether
// the host passes bridged traffic through the ip family's hooks
// (br_netfilter's bridge-nf-call-iptables) or not; the orchestrator's
// rules hold with it only. A container on the network that is no agent
// reaches no agent. Not parallel: it switches that setting of the
// Engine's namespace.
func TestAgentToAgent(t *testing.T) {
	e := newEnv(t)
	ns := enginetest.InEngineNetns(t)
	const knob = "/proc/sys/net/bridge/bridge-nf-call-iptables"
	was, err := os.ReadFile(knob)
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.WriteFile(knob, was, 0o644) })

	image := e.agentImage(nil)
	b := e.backend(e.config(
		scalerconfig.LabelSet{Labels: []string{"linux"}, Image: image, ImagePullPolicy: scalerconfig.PullNever},
		scalerconfig.LabelSet{Labels: []string{"peer"}, Image: image, ImagePullPolicy: scalerconfig.PullNever,
			NetworkPolicy: &scalerconfig.NetworkPolicy{Allowlist: []string{"172.30.0.0/16"}}},
	), func(o *Options) { o.NftCommand = []string{"ip", "netns", "exec", ns, "nft"} })
	target := e.spawn(b, "target", Request{LabelSet: []string{"peer"}})
	stranger := e.spawn(b, "stranger", Request{LabelSet: []string{"linux"}})
	peer := e.spawn(b, "peer", Request{LabelSet: []string{"peer"}})
	outsider := e.orphan(image, map[string]string{"kicikit.test": e.name}, false)
	_, err = e.c.NetworkConnect(context.Background(), agentspawn.IsolatedNetwork, client.NetworkConnectOptions{Container: outsider})
	require.NoError(t, err)
	_, err = e.c.ContainerStart(context.Background(), outsider, client.ContainerStartOptions{})
	require.NoError(t, err)
	listenIn(t, e.c, target.ContainerID, 7000)

	to := "tcp:" + target.IP.String() + ":7000"
	for _, bridged := range []string{"1", "0"} {
		require.NoError(t, os.WriteFile(knob, []byte(bridged), 0o644))
		for _, c := range []struct{ name, id, want string }{
			{"an agent whose allowlist does not hold it", stranger.ContainerID, "timeout"},
			{"an agent whose allowlist holds it", peer.ContainerID, "ok"},
			{"a container that is no agent", outsider, "timeout"},
		} {
			assert.Equal(t, map[string]string{to: c.want}, enginetest.Probe(t, e.c, c.id, to),
				"%s, bridge-nf-call-iptables=%s", c.name, bridged)
		}
	}
}

// listenIn runs a TCP listener on port in a running container of the
// test's agent image, busybox's nc, which accepts and closes, and waits
// until it listens.
func listenIn(t *testing.T, c client.APIClient, id string, port int) {
	t.Helper()
	ctx := context.Background()
	ex, err := c.ExecCreate(ctx, id, client.ExecCreateOptions{Cmd: []string{"/bin/busybox", "nc", "-ll", "-p", strconv.Itoa(port), "-e", "/bin/busybox", "true"}})
	require.NoError(t, err)
	_, err = c.ExecStart(ctx, ex.ID, client.ExecStartOptions{Detach: true})
	require.NoError(t, err)
	info, err := c.ContainerInspect(ctx, id, client.ContainerInspectOptions{})
	require.NoError(t, err)
	listening := fmt.Sprintf(":%04X ", port) // /proc/net/tcp: the local port, listening or not
	proc := "/proc/" + strconv.Itoa(info.Container.State.Pid) + "/net/"
	require.Eventually(t, func() bool {
		v4, _ := os.ReadFile(proc + "tcp")
		v6, _ := os.ReadFile(proc + "tcp6")
		return strings.Contains(string(v4)+string(v6), listening)
	}, 10*time.Second, 50*time.Millisecond)
}
