package containerscaler

import (
	"context"
	"strconv"
	"testing"

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
