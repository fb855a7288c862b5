package agentspawn

import (
	"encoding/json"
	"testing"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/api/types/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fullConfig is a container scaler with every input that reaches the
// container set.
func fullConfig() *scalerconfig.Config {
	return &scalerconfig.Config{
		Defaults: &scalerconfig.Defaults{Resources: &hostconfig.Resources{Limits: &hostconfig.ResourceSpec{Memory: "1g"}}},
		Scalers: []scalerconfig.Scaler{
			{Name: "bm", Type: scalerconfig.TypeBareMetal, MaxAgents: 1, LabelSets: []scalerconfig.LabelSet{{Labels: []string{"gpu"}}}},
			{
				Name: "linux-pool", Type: scalerconfig.TypeContainer, MaxAgents: 4,
				ExtraHosts: []string{"registry.local:10.0.0.5"},
				Roles:      []scalerconfig.Role{scalerconfig.RoleInitRunner},
				LabelSets: []scalerconfig.LabelSet{
					{Labels: []string{"linux"}, Image: "quay.io/kici-dev/kici-agent:0.19.0"},
					{
						Labels:           []string{"linux", "docker", "arm64"},
						Image:            "quay.io/kici-dev/kici-agent:0.20.0",
						ImagePullPolicy:  scalerconfig.PullAlways,
						Volumes:          []string{"kici-cache:/cache:rw", "/srv/tools:/tools:ro"},
						ContainerSocket:  true,
						BackpressureMode: "pause",
						Env:              scalerconfig.Env{{Name: "0", Value: "zero"}, {Name: "NODE_VERSION", Value: "20"}, {Name: "TZ", Value: "UTC"}},
						Resources:        &hostconfig.Resources{Limits: &hostconfig.ResourceSpec{CPUs: 1.5, Memory: "512m"}},
					},
				},
			},
		},
	}
}

func fullRequest() Request {
	return Request{
		Config:          fullConfig(),
		Scaler:          "linux-pool",
		LabelSet:        []string{"Docker", "linux", "arm64", "linux"},
		AgentID:         "scaler-container-7",
		OrchestratorURL: "ws://10.0.0.2:4000/ws",
		Token:           "tok-123",
		SocketPath:      "/run/podman/podman.sock",
		Environ:         []string{"HOME=/root", "KICI_AGENT_ENV_HTTP_PROXY=http://proxy:3128", "KICI_AGENT_ENV_=x", "KICI_AGENT_ENV_BROKEN", "KICI_AGENT_ENV_TZ=Europe/Paris", "KICI_AGENT_ENVX=1"},
		PlatformTaints:  []string{"arm64"},
		BoundJobID:      "job-1",
		RunID:           "run-1",
		Active:          3,
	}
}

// TestPlanPoolImage is every field of the container for the label set's
// own image, in the backend's order, with the seed's single-job rule.
func TestPlanPoolImage(t *testing.T) {
	t.Parallel()
	sp, err := plan(t, fullRequest())
	require.NoError(t, err)
	assert.Equal(t, 1, sp.ScalerIndex)
	assert.Equal(t, 1, sp.LabelSetIndex)
	assert.Equal(t, "quay.io/kici-dev/kici-agent:0.20.0", sp.Config.Image)
	assert.Equal(t, []string{
		"KICI_ORCHESTRATOR_URL=ws://10.0.0.2:4000/ws",
		"KICI_AGENT_ID=scaler-container-7",
		"KICI_LABELS=Docker,linux,arm64,kici:agent:container,kici:scaler:linux-pool,kici:role:init-runner",
		"KICI_SCALER_MANAGED=1",
		"KICI_EXECUTION_MODE=bare-metal",
		"KICI_RUNTIME_IMAGE=quay.io/kici-dev/kici-agent:0.20.0",
		"KICI_AGENT_TOKEN=tok-123",
		"KICI_BACKPRESSURE_MODE=pause",
		"HTTP_PROXY=http://proxy:3128",
		"TZ=Europe/Paris",
		"0=zero",
		"NODE_VERSION=20",
		"TZ=UTC",
		"KICI_SCALER_SINGLE_JOB=1",
	}, sp.Config.Env)
	assert.Equal(t, map[string]string{
		"kici-managed": "true", "kici-scaler-name": "linux-pool", "kici-agent-id": "scaler-container-7",
		"kici-labels": "arm64,docker,linux", "kici-bound-job-id": "job-1", "kici-run-id": "run-1",
	}, sp.Config.Labels)
	assert.Nil(t, sp.Config.Cmd)
	assert.Equal(t, []string{"kici-cache:/cache:rw", "/srv/tools:/tools:ro", "/run/podman/podman.sock:/run/podman/podman.sock"}, sp.HostConfig.Binds)
	assert.Equal(t, []string{"registry.local:10.0.0.5"}, sp.HostConfig.ExtraHosts)
	assert.Equal(t, []string{"1990"}, sp.HostConfig.GroupAdd, "the seed: the kici-sudo group for the pool's own image")
	assert.Equal(t, int64(512<<20), sp.HostConfig.Memory)
	assert.Equal(t, int64(1.5e9), sp.HostConfig.NanoCPUs)
	assert.Equal(t, PullAlways{Image: "quay.io/kici-dev/kici-agent:0.20.0"}, sp.Pull)
	require.NotNil(t, sp.Networking)

	body, err := json.Marshal(sp)
	require.NoError(t, err)
	assert.JSONEq(t, `{
		"Image": "quay.io/kici-dev/kici-agent:0.20.0",
		"Env": [
			"KICI_ORCHESTRATOR_URL=ws://10.0.0.2:4000/ws", "KICI_AGENT_ID=scaler-container-7",
			"KICI_LABELS=Docker,linux,arm64,kici:agent:container,kici:scaler:linux-pool,kici:role:init-runner",
			"KICI_SCALER_MANAGED=1", "KICI_EXECUTION_MODE=bare-metal", "KICI_RUNTIME_IMAGE=quay.io/kici-dev/kici-agent:0.20.0",
			"KICI_AGENT_TOKEN=tok-123", "KICI_BACKPRESSURE_MODE=pause", "HTTP_PROXY=http://proxy:3128", "TZ=Europe/Paris",
			"0=zero", "NODE_VERSION=20", "TZ=UTC", "KICI_SCALER_SINGLE_JOB=1"],
		"Labels": {"kici-managed": "true", "kici-scaler-name": "linux-pool", "kici-agent-id": "scaler-container-7",
			"kici-labels": "arm64,docker,linux", "kici-bound-job-id": "job-1", "kici-run-id": "run-1"},
		"HostConfig": {"Memory": 536870912, "NanoCpus": 1500000000,
			"Binds": ["kici-cache:/cache:rw", "/srv/tools:/tools:ro", "/run/podman/podman.sock:/run/podman/podman.sock"],
			"ExtraHosts": ["registry.local:10.0.0.5"], "GroupAdd": ["1990"], "AutoRemove": false, "PidsLimit": 4096},
		"NetworkingConfig": {"EndpointsConfig": {"kici-agent-net": {}}}
	}`, string(body))
}

// TestPlanJobImage is the container for a job's own image: the runtime
// injected, its command, no single-job rule (the seed).
func TestPlanJobImage(t *testing.T) {
	t.Parallel()
	r := fullRequest()
	auth := &registry.AuthConfig{Username: "bot", Password: "s3cr3t", ServerAddress: "reg.internal:5000"}
	r.Job = &JobImage{Image: "node:20-bookworm", Auth: auth, AgentImageID: "sha256:mock", Init: []string{"/opt/kici/init", "--"}}
	sp, err := plan(t, r)
	require.NoError(t, err)
	assert.Equal(t, "node:20-bookworm", sp.Config.Image)
	assert.Equal(t, "KICI_RUNTIME_IMAGE=quay.io/kici-dev/kici-agent:0.20.0", sp.Config.Env[5], "the pool's image, even for a job's")
	assert.Equal(t, "KICI_JOB_IMAGE_AGENT=1", sp.Config.Env[len(sp.Config.Env)-1])
	assert.NotContains(t, sp.Config.Env, hostconfig.SingleJobEnv)
	assert.Nil(t, sp.HostConfig.GroupAdd)
	assert.Equal(t, []string{"/opt/kici/init", "--", "/opt/kici/node/bin/node", "/opt/kici/app/packages/agent/dist/server.js"}, sp.Config.Cmd)
	assert.Equal(t, []string{"kici-cache:/cache:rw", "/srv/tools:/tools:ro", "/run/podman/podman.sock:/run/podman/podman.sock",
		"kici-runtime-mock:/opt/kici:ro"}, sp.HostConfig.Binds)
	assert.Equal(t, PullIfMissing{Image: "node:20-bookworm", Auth: auth}, sp.Pull, "IfNotPresent, whatever the label set's policy")
	assert.NotSame(t, auth, sp.Pull.(PullIfMissing).Auth, "a copy, not the request's")

	r.Job.AgentImageID = ""
	sp, err = plan(t, r)
	require.NoError(t, err)
	assert.Equal(t, "kici-runtime-quay.io-kici-dev-kici-agent-0.20:/opt/kici:ro", sp.HostConfig.Binds[3],
		"without an inspected id, the image reference names the volume")
}

// TestPlanSharesNothing: changing the request or the config after Plan
// leaves the Spawn as it was.
func TestPlanSharesNothing(t *testing.T) {
	t.Parallel()
	r := fullRequest()
	r.Job = &JobImage{Image: "node:20", AgentImageID: "sha256:abc", Init: []string{"init"}}
	sp, err := plan(t, r)
	require.NoError(t, err)
	want, err := json.Marshal(sp)
	require.NoError(t, err)
	ls := &r.Config.Scalers[1].LabelSets[1]
	ls.Volumes[0], ls.Env[0].Value, r.Job.Init[0] = "changed", "changed", "changed"
	r.Config.Scalers[1].ExtraHosts[0] = "changed"
	r.LabelSet[0], r.PlatformTaints[0] = "changed", "changed"
	got, err := json.Marshal(sp)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
}

// TestPlanPullPolicies: the pull for each imagePullPolicy of the label
// set's own image; one the orchestrator does not know pulls, as its
// pullImageIfMissing pulls for any policy but Never and IfNotPresent.
func TestPlanPullPolicies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		policy scalerconfig.PullPolicy
		want   Pull
	}{
		{"", PullIfMissing{Image: "img:1"}},
		{scalerconfig.PullIfNotPresent, PullIfMissing{Image: "img:1"}},
		{scalerconfig.PullAlways, PullAlways{Image: "img:1"}},
		{scalerconfig.PullNever, NoPull{Image: "img:1"}},
		{"Sometimes", PullAlways{Image: "img:1"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.policy), func(t *testing.T) {
			t.Parallel()
			cfg := backendConfig(func(s *scalerconfig.Scaler, _ *scalerconfig.Config) {
				s.LabelSets[0].Image, s.LabelSets[0].ImagePullPolicy = "img:1", tt.policy
			})
			sp, err := plan(t, spawnReq(cfg, linuxDocker, "a"))
			require.NoError(t, err)
			assert.Equal(t, tt.want, sp.Pull)
		})
	}
}

// TestPlanMatch: the label set the backend matches, normalized as
// normalizeLabelSet does, the first of equal ones.
func TestPlanMatch(t *testing.T) {
	t.Parallel()
	cfg := &scalerconfig.Config{Scalers: []scalerconfig.Scaler{
		{Name: "c", Type: scalerconfig.TypeContainer, MaxAgents: 9, LabelSets: []scalerconfig.LabelSet{
			{Labels: []string{"linux"}, Image: "a"},
			{Labels: []string{"Linux", "docker", "DOCKER"}, Image: "b"},
			{Labels: []string{"docker", "linux"}, Image: "c"},
			{Labels: []string{"İ"}, Image: "d"},
			{Labels: []string{" linux"}, Image: "e"},
			{Labels: []string{"", "gpu", "gpu"}, Image: "g"},
			{Labels: []string{"a,b"}, Image: "h"},
			{Labels: []string{""}, Image: "i"},
			{Labels: []string{"x", ""}, Image: "j"},
		}},
		{Name: "c", Type: scalerconfig.TypeContainer, MaxAgents: 9, LabelSets: []scalerconfig.LabelSet{{Labels: []string{"gpu"}, Image: "f"}}},
	}}
	tests := []struct {
		labels []string
		want   int
	}{
		{[]string{"linux"}, 0},
		{[]string{"LINUX", "linux"}, 0},
		{[]string{"docker", "linux"}, 1},
		{[]string{"linux", "docker", "linux"}, 1},
		{[]string{"i̇"}, 3}, // JavaScript lower-cases İ to i and a combining dot
		{[]string{" linux"}, 4},
		{[]string{"linux "}, -1}, // no trimming
		{[]string{"gpu", ""}, 5}, // an empty label is a label, a repeated one counts once
		{[]string{"gpu"}, -1},    // the first scaler of that name
		{[]string{"linux", "docker", "gpu"}, -1},
		// The backend compares the joined keys, not the labels: a comma in
		// a label reads as a separator, and an empty key is a key.
		{[]string{"a", "b"}, 6}, // "a,b" is the key of [a,b] and of ["a,b"]
		{[]string{"A,B"}, 6},
		{nil, 7},              // "" is the key of [] and of [""]
		{[]string{"", ""}, 7}, // the same key
		{[]string{",x"}, 8},   // [x, ""] sorts to ["", x]: ",x"
		{[]string{"a", "b,"}, -1},
	}
	for _, tt := range tests {
		t.Run(NormalizeLabelSet(tt.labels), func(t *testing.T) {
			t.Parallel()
			sp, err := plan(t, Request{Config: cfg, Scaler: "c", LabelSet: tt.labels, AgentID: "a", OrchestratorURL: "ws://o"})
			if tt.want < 0 {
				assert.ErrorIs(t, err, ErrLabelSetNotSupported)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, sp.LabelSetIndex)
			assert.Equal(t, cfg.Scalers[0].LabelSets[tt.want].Image, sp.Config.Image)
		})
	}
}
