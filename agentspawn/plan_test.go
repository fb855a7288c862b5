package agentspawn

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/api/types/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// backendConfig is container-backend.test.ts's createBackend(): the scaler
// test-container with its two default label sets, maxAgents 5, on the
// socket /var/run/docker.sock, changed by opts.
func backendConfig(opts ...func(*scalerconfig.Scaler, *scalerconfig.Config)) *scalerconfig.Config {
	cfg := &scalerconfig.Config{Scalers: []scalerconfig.Scaler{{
		Name: "test-container", Type: scalerconfig.TypeContainer, MaxAgents: 5,
		LabelSets: []scalerconfig.LabelSet{
			{
				Labels:    []string{"linux", "docker"},
				Image:     "ghcr.io/org/kici-agent:latest",
				Resources: &hostconfig.Resources{Limits: &hostconfig.ResourceSpec{Memory: "2g", CPUs: 2}},
			},
			{
				Labels:          []string{"linux", "node20"},
				Image:           "ghcr.io/org/kici-agent-node20:latest",
				ContainerSocket: true,
				Env:             scalerconfig.Env{{Name: "NODE_VERSION", Value: "20"}},
			},
		},
	}}}
	for _, o := range opts {
		o(&cfg.Scalers[0], cfg)
	}
	return cfg
}

// spawnReq is backend.spawn(labelSet, agentId, 'http://localhost:4000')
// on cfg, with the backend's socket.
func spawnReq(cfg *scalerconfig.Config, labelSet []string, agentID string) Request {
	return Request{
		Config: cfg, Scaler: "test-container", LabelSet: labelSet, AgentID: agentID,
		OrchestratorURL: "http://localhost:4000", SocketPath: "/var/run/docker.sock",
	}
}

var (
	linuxDocker = []string{"linux", "docker"}
	linuxNode20 = []string{"linux", "node20"}
)

// jobContainer is the per-job image of container-backend.test.ts.
func jobContainer() *JobImage {
	return &JobImage{
		Image:        "reg.internal:5000/acme/ci:1.2",
		Auth:         &registry.AuthConfig{Username: "bot", Password: "s3cr3t", ServerAddress: "reg.internal:5000"},
		AgentImageID: "sha256:" + strings.Repeat("a", 64),
	}
}

// TestPlanContainerBackend holds every assertion of the orchestrator's
// container-backend.test.ts (at 0b46a9a5) that a function of the spawn's
// inputs can answer; each row names its test ("spawn: ..." for
// describe('spawn()')). The ones left out are about the backend's state
// and I/O: tracking, abort signals, start, nftables calls, destroy,
// orphans, reload's label sets, runtime detection and tool requirements.
func TestPlanContainerBackend(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		req   Request
		check func(t *testing.T, sp Spawn)
	}{
		{"spawn: creates container with correct env vars", spawnReq(backendConfig(), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
			assert.Contains(t, sp.Config.Env, "KICI_ORCHESTRATOR_URL=http://localhost:4000")
			assert.Contains(t, sp.Config.Env, "KICI_AGENT_ID=agent-1")
			assert.Contains(t, sp.Config.Env, "KICI_LABELS=linux,docker,kici:agent:container,kici:scaler:test-container,kici:role:builder,kici:role:init-runner")
			assert.Contains(t, sp.Config.Env, "KICI_SCALER_MANAGED=1")
		}},
		{"spawn: passes additional env from label set config", spawnReq(backendConfig(), linuxNode20, "agent-2"), func(t *testing.T, sp Spawn) {
			assert.Contains(t, sp.Config.Env, "NODE_VERSION=20")
		}},
		{"spawn: bounds the agent container without restricting the build it runs", spawnReq(backendConfig(), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
			require.NotNil(t, sp.HostConfig.PidsLimit)
			assert.Equal(t, int64(4096), *sp.HostConfig.PidsLimit)
			assert.False(t, sp.HostConfig.AutoRemove)
			assert.Nil(t, sp.HostConfig.CapDrop)
			assert.Nil(t, sp.HostConfig.SecurityOpt)
		}},
		{"spawn: applies resource limits (Memory and NanoCpus)", spawnReq(backendConfig(), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
			assert.Equal(t, int64(2*1024*1024*1024), sp.HostConfig.Memory)
			assert.Equal(t, int64(2e9), sp.HostConfig.NanoCPUs)
		}},
		{"spawn: applies default resources when label set has none", spawnReq(backendConfig(func(s *scalerconfig.Scaler, c *scalerconfig.Config) {
			s.LabelSets = []scalerconfig.LabelSet{{Labels: []string{"linux", "basic"}, Image: "basic:latest"}}
			c.Defaults = &scalerconfig.Defaults{Resources: &hostconfig.Resources{Limits: &hostconfig.ResourceSpec{Memory: "1g", CPUs: 1}}}
		}), []string{"linux", "basic"}, "agent-1"), func(t *testing.T, sp Spawn) {
			assert.Equal(t, int64(1024*1024*1024), sp.HostConfig.Memory)
			assert.Equal(t, int64(1e9), sp.HostConfig.NanoCPUs)
		}},
		{"spawn: uses effectiveLimits when provided (overrides label-set / default)", func() Request {
			r := spawnReq(backendConfig(), linuxDocker, "agent-1")
			r.Effective = hostconfig.Limits{CPUs: 0.5, MemBytes: 1024 * 1024 * 1024}
			return r
		}(), func(t *testing.T, sp Spawn) {
			assert.Equal(t, int64(1024*1024*1024), sp.HostConfig.Memory)
			assert.Equal(t, int64(0.5*1e9), sp.HostConfig.NanoCPUs)
		}},
		{"spawn: adds container labels (kici-managed, kici-scaler-name, kici-agent-id)", spawnReq(backendConfig(), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
			assert.Equal(t, map[string]string{
				"kici-managed": "true", "kici-scaler-name": "test-container", "kici-agent-id": "agent-1", "kici-labels": "docker,linux",
			}, sp.Config.Labels)
		}},
		{"spawn: adds bound-work labels (kici-bound-job-id, kici-run-id) when spawn context is provided", func() Request {
			r := spawnReq(backendConfig(), linuxDocker, "agent-1")
			r.BoundJobID, r.RunID = "job-123", "run-456"
			return r
		}(), func(t *testing.T, sp Spawn) {
			assert.Equal(t, "job-123", sp.Config.Labels["kici-bound-job-id"])
			assert.Equal(t, "run-456", sp.Config.Labels["kici-run-id"])
		}},
		{"spawn: mounts socket at native path when containerSocket is true", spawnReq(backendConfig(), linuxNode20, "agent-2"), func(t *testing.T, sp Spawn) {
			assert.Contains(t, sp.HostConfig.Binds, "/var/run/docker.sock:/var/run/docker.sock")
		}},
		{"spawn: mounts podman socket at native path when detected", func() Request {
			r := spawnReq(backendConfig(), linuxNode20, "agent-2")
			r.SocketPath = "/run/podman/podman.sock"
			return r
		}(), func(t *testing.T, sp Spawn) {
			assert.Contains(t, sp.HostConfig.Binds, "/run/podman/podman.sock:/run/podman/podman.sock")
		}},
		{"spawn: does NOT mount socket when containerSocket is false (default)", spawnReq(backendConfig(), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
			assert.Nil(t, sp.HostConfig.Binds)
		}},
		{"spawn: pulls image before creating container when it is absent", spawnReq(backendConfig(), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
			assert.Equal(t, PullIfMissing{Image: "ghcr.io/org/kici-agent:latest"}, sp.Pull)
		}},
		{"spawn: imagePullPolicy: with no imagePullPolicy set, does not pull when the image is already present (and pulls once when it is absent)",
			spawnReq(backendConfig(), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
				assert.IsType(t, PullIfMissing{}, sp.Pull)
			}},
		{"spawn: imagePullPolicy: explicit imagePullPolicy Always pulls even when the image is present", spawnReq(backendConfig(func(s *scalerconfig.Scaler, _ *scalerconfig.Config) {
			s.LabelSets = []scalerconfig.LabelSet{{Labels: linuxDocker, Image: "moving:latest", ImagePullPolicy: scalerconfig.PullAlways}}
		}), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
			assert.Equal(t, PullAlways{Image: "moving:latest"}, sp.Pull)
		}},
		{"spawn: imagePullPolicy: imagePullPolicy Never does not pull even when the image is absent", spawnReq(backendConfig(func(s *scalerconfig.Scaler, _ *scalerconfig.Config) {
			s.LabelSets = []scalerconfig.LabelSet{{Labels: linuxDocker, Image: "pinned:1.0", ImagePullPolicy: scalerconfig.PullNever}}
		}), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
			assert.Equal(t, NoPull{Image: "pinned:1.0"}, sp.Pull)
		}},
		{"spawn: sets AutoRemove to false", spawnReq(backendConfig(), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
			assert.False(t, sp.HostConfig.AutoRemove)
		}},
		{"spawn: passes extraHosts to HostConfig.ExtraHosts", spawnReq(backendConfig(func(s *scalerconfig.Scaler, _ *scalerconfig.Config) {
			s.ExtraHosts = []string{"registry.local:host-gateway"}
		}), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
			assert.Equal(t, []string{"registry.local:host-gateway"}, sp.HostConfig.ExtraHosts)
		}},
		{"spawn: does NOT set ExtraHosts when extraHosts is not configured", spawnReq(backendConfig(), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
			assert.Nil(t, sp.HostConfig.ExtraHosts)
		}},
		{"spawn: forwards KICI_AGENT_ENV_ prefixed vars with prefix stripped", func() Request {
			r := spawnReq(backendConfig(), linuxDocker, "agent-1")
			r.Environ = []string{"PATH=/usr/bin", "KICI_AGENT_ENV_HTTP_PROXY=http://proxy:3128", "KICI_AGENT_ENV_NO_PROXY=localhost,.internal"}
			return r
		}(), func(t *testing.T, sp Spawn) {
			assert.Contains(t, sp.Config.Env, "HTTP_PROXY=http://proxy:3128")
			assert.Contains(t, sp.Config.Env, "NO_PROXY=localhost,.internal")
			for _, e := range sp.Config.Env {
				assert.False(t, strings.HasPrefix(e, "KICI_AGENT_ENV_"), e)
			}
		}},
		{"spawn: scalers.yaml env overrides KICI_AGENT_ENV_ forwarded vars", func() Request {
			r := spawnReq(backendConfig(), linuxNode20, "agent-2")
			r.Environ = []string{"KICI_AGENT_ENV_NODE_VERSION=forwarded-value"}
			return r
		}(), func(t *testing.T, sp Spawn) {
			var entries []string
			for _, e := range sp.Config.Env {
				if strings.HasPrefix(e, "NODE_VERSION=") {
					entries = append(entries, e)
				}
			}
			assert.Equal(t, []string{"NODE_VERSION=forwarded-value", "NODE_VERSION=20"}, entries)
		}},
		{"spawn: skips nftables rules when network isolation is disabled (no isolated network either)", spawnReq(backendConfig(func(s *scalerconfig.Scaler, _ *scalerconfig.Config) {
			s.NetworkIsolation = new(bool)
		}), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
			assert.Nil(t, sp.Networking)
		}},
		{"shutdownAll: includes all role labels when roles is undefined (default)", spawnReq(backendConfig(), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
			labels := envValue(t, sp, "KICI_LABELS")
			assert.Contains(t, labels, "kici:role:builder")
			assert.Contains(t, labels, "kici:role:init-runner")
		}},
		{"shutdownAll: includes only kici:role:builder when roles is [\"builder\"]", spawnReq(backendConfig(func(s *scalerconfig.Scaler, _ *scalerconfig.Config) {
			s.Roles = []scalerconfig.Role{scalerconfig.RoleBuilder}
		}), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
			labels := envValue(t, sp, "KICI_LABELS")
			assert.Contains(t, labels, "kici:role:builder")
			assert.NotContains(t, labels, "kici:role:init-runner")
		}},
		{"shutdownAll: includes no role labels when roles is [] (execution only)", spawnReq(backendConfig(func(s *scalerconfig.Scaler, _ *scalerconfig.Config) {
			s.Roles = []scalerconfig.Role{}
		}), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
			assert.NotContains(t, envValue(t, sp, "KICI_LABELS"), "kici:role:")
		}},
		{"isolated network: attaches containers to isolated network", spawnReq(backendConfig(), linuxDocker, "agent-1"), func(t *testing.T, sp Spawn) {
			assert.Equal(t, &network.NetworkingConfig{EndpointsConfig: map[string]*network.EndpointSettings{"kici-agent-net": {}}}, sp.Networking)
		}},
		{"per-job image: spawns the job own image with the runtime injected, not the pool image", func() Request {
			r := spawnReq(backendConfig(), linuxDocker, "agent-perjob")
			r.OrchestratorURL, r.BoundJobID, r.RunID, r.Job = "ws://orch/ws", "job-1", "run-1", jobContainer()
			return r
		}(), func(t *testing.T, sp Spawn) {
			assert.Equal(t, "reg.internal:5000/acme/ci:1.2", sp.Config.Image)
			assert.True(t, slices.ContainsFunc(sp.HostConfig.Binds, func(b string) bool { return strings.HasSuffix(b, ":/opt/kici:ro") }))
			assert.Equal(t, []string{"/opt/kici/node/bin/node", "/opt/kici/app/packages/agent/dist/server.js"}, sp.Config.Cmd)
		}},
		{"per-job image: authenticates the pull for a private per-job image", func() Request {
			r := spawnReq(backendConfig(), linuxDocker, "agent-priv")
			r.OrchestratorURL, r.Job = "ws://orch/ws", jobContainer()
			return r
		}(), func(t *testing.T, sp Spawn) {
			assert.Equal(t, PullIfMissing{Image: "reg.internal:5000/acme/ci:1.2", Auth: jobContainer().Auth}, sp.Pull)
		}},
		{"per-job image: spawns the fixed pool image and injects nothing when no job image is set", func() Request {
			r := spawnReq(backendConfig(), linuxDocker, "agent-fixed")
			r.OrchestratorURL, r.BoundJobID = "ws://orch/ws", "job-1"
			return r
		}(), func(t *testing.T, sp Spawn) {
			assert.NotEqual(t, "reg.internal:5000/acme/ci:1.2", sp.Config.Image)
			assert.False(t, slices.ContainsFunc(sp.HostConfig.Binds, func(b string) bool { return strings.HasSuffix(b, ":/opt/kici:ro") }))
			assert.Nil(t, sp.Config.Cmd)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sp, err := plan(t, tt.req)
			require.NoError(t, err)
			tt.check(t, sp)
		})
	}
}

// envValue is the value of the entry name in the spawn's environment.
func envValue(t *testing.T, sp Spawn, name string) string {
	t.Helper()
	for _, e := range sp.Config.Env {
		if v, ok := strings.CutPrefix(e, name+"="); ok {
			return v
		}
	}
	require.FailNow(t, "no such entry", "no %s in %q", name, sp.Config.Env)
	return ""
}

// TestPlanRefusals holds the refusals of container-backend.test.ts, with
// the orchestrator's messages, and the ones kicikit adds.
func TestPlanRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		req    Request
		reason Reason
		text   string
	}{
		{"spawn: throws when label set not found", spawnReq(backendConfig(), []string{"windows", "gpu"}, "agent-1"), ErrLabelSetNotSupported,
			`Label set [windows, gpu] not supported by container backend "test-container"`},
		{"spawn: throws when at maxAgents capacity", func() Request {
			r := spawnReq(backendConfig(func(s *scalerconfig.Scaler, _ *scalerconfig.Config) { s.MaxAgents = 1 }), linuxDocker, "agent-2")
			r.Active = 1
			return r
		}(), ErrAtCapacity, `Container backend "test-container" at capacity (1/1)`},
		{"at capacity names maxAgents twice, whatever runs", func() Request {
			r := spawnReq(backendConfig(), linuxDocker, "agent-9")
			r.Active = 7
			return r
		}(), ErrAtCapacity, `Container backend "test-container" at capacity (5/5)`},
		{"reload: validates container label sets must have image", spawnReq(backendConfig(func(s *scalerconfig.Scaler, _ *scalerconfig.Config) {
			s.LabelSets[1].Image = ""
		}), linuxNode20, "agent-1"), ErrNoImage, `Label set [1] requires an 'image' field for container backend`},
		{"an empty label set matches only an empty key", spawnReq(backendConfig(), nil, "agent-1"), ErrLabelSetNotSupported,
			`Label set [] not supported by container backend "test-container"`},
		{"no config", Request{Scaler: "test-container", LabelSet: linuxDocker}, ErrNoConfig,
			"No scaler config: there is no container backend to spawn from"},
		{"unknown scaler", func() Request { r := spawnReq(backendConfig(), linuxDocker, "a"); r.Scaler = "other"; return r }(),
			ErrUnknownScaler, `No scaler "other" in the scaler config`},
		{"no scaler name", func() Request {
			r := spawnReq(backendConfig(func(s *scalerconfig.Scaler, _ *scalerconfig.Config) { s.Name = "" }), linuxDocker, "a")
			r.Scaler = ""
			return r
		}(), ErrUnknownScaler, `No scaler "" in the scaler config`},
		{"not a container scaler", spawnReq(backendConfig(func(s *scalerconfig.Scaler, _ *scalerconfig.Config) {
			s.Type = scalerconfig.TypeBareMetal
		}), linuxDocker, "a"), ErrNotContainer, `Scaler "test-container" is a bare-metal scaler, not a container scaler`},
		{"empty job image", func() Request {
			r := spawnReq(backendConfig(), linuxDocker, "a")
			r.Job = &JobImage{}
			return r
		}(), ErrEmptyJobImage, `Job container image is empty: container backend "test-container" has no image to spawn`},
		{"no agent id", spawnReq(backendConfig(), linuxDocker, ""), ErrNoAgentID,
			`Agent id is empty: container backend "test-container" cannot name the agent`},
		{"no orchestrator URL", func() Request {
			r := spawnReq(backendConfig(), linuxDocker, "a")
			r.OrchestratorURL = ""
			return r
		}(), ErrNoOrchestratorURL, `Orchestrator URL is empty: an agent of container backend "test-container" would have nothing to dial`},
		{"a memory limit the orchestrator cannot read", spawnReq(backendConfig(func(s *scalerconfig.Scaler, _ *scalerconfig.Config) {
			s.LabelSets[0].Resources.Limits.Memory = "2Gi"
		}), linuxDocker, "a"), ErrLimits,
			`Container backend "test-container" cannot apply the limits of label set [linux, docker]: hostconfig.ResolveSpawnLimits: limits.memory "2Gi": text after the unit`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sp, err := plan(t, tt.req)
			require.Error(t, err)
			assert.Equal(t, Spawn{}, sp)
			assert.Equal(t, tt.text, err.Error())
			assert.ErrorIs(t, err, tt.reason)
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.reason, e.Reason)
			assert.Equal(t, tt.req.Scaler, e.Scaler)
			assert.Equal(t, tt.req.LabelSet, e.LabelSet)
			switch tt.reason {
			case ErrNoConfig, ErrUnknownScaler, ErrNotContainer, ErrLabelSetNotSupported:
				assert.Equal(t, -1, e.LabelSetIndex, "no label set matched")
			default:
				assert.GreaterOrEqual(t, e.LabelSetIndex, 0)
			}
			for _, other := range []Reason{ErrNoConfig, ErrUnknownScaler, ErrNotContainer, ErrLabelSetNotSupported, ErrAtCapacity,
				ErrNoImage, ErrEmptyJobImage, ErrNoAgentID, ErrNoOrchestratorURL, ErrLimits} {
				if other != tt.reason {
					assert.NotErrorIs(t, err, other)
				}
			}
		})
	}
}

// TestPlanLimitErrorUnwraps: a refused limit is the hostconfig error, which
// errors.As and errors.Is find through the *Error.
func TestPlanLimitErrorUnwraps(t *testing.T) {
	t.Parallel()
	_, err := plan(t, spawnReq(backendConfig(func(s *scalerconfig.Scaler, _ *scalerconfig.Config) {
		s.LabelSets[0].Resources.Limits.Memory = "0.0001k"
	}), linuxDocker, "a"))
	var le *hostconfig.LimitError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "memory", le.Field)
	assert.ErrorIs(t, err, hostconfig.ErrZeroLimit)
	assert.ErrorIs(t, err, ErrLimits)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 0, e.LabelSetIndex)
	assert.Same(t, le, errors.Unwrap(err))
}
