package agentspawn

import (
	"encoding/json"
	"testing"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMarshalJSONExact: the create body's bytes, keys in the orchestrator's
// order, for the spawn of a job's image.
func TestMarshalJSONExact(t *testing.T) {
	t.Parallel()
	r := spawnReq(backendConfig(), linuxDocker, "agent-1")
	r.Job = &JobImage{Image: "node:20", AgentImageID: "sha256:mock"}
	r.BoundJobID = "job-<1>&"
	sp, err := plan(t, r)
	require.NoError(t, err)
	body, err := sp.MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, `{"Image":"node:20",`+
		`"Cmd":["/opt/kici/node/bin/node","/opt/kici/app/packages/agent/dist/server.js"],`+
		`"Env":["KICI_ORCHESTRATOR_URL=http://localhost:4000","KICI_AGENT_ID=agent-1",`+
		`"KICI_LABELS=linux,docker,kici:agent:container,kici:scaler:test-container,kici:role:builder,kici:role:init-runner",`+
		`"KICI_SCALER_MANAGED=1","KICI_EXECUTION_MODE=bare-metal","KICI_RUNTIME_IMAGE=ghcr.io/org/kici-agent:latest",`+
		`"KICI_JOB_IMAGE_AGENT=1"],`+
		`"Labels":{"kici-managed":"true","kici-scaler-name":"test-container","kici-agent-id":"agent-1","kici-labels":"docker,linux",`+
		`"kici-bound-job-id":"job-<1>&"},`+
		`"HostConfig":{"Memory":2147483648,"NanoCpus":2000000000,"Binds":["kici-runtime-mock:/opt/kici:ro"],"AutoRemove":false,"PidsLimit":4096},`+
		`"NetworkingConfig":{"EndpointsConfig":{"kici-agent-net":{}}}}`, string(body))
}

// TestMarshalJSONKeys: which keys a Spawn's values give, whatever a caller
// changed in it.
func TestMarshalJSONKeys(t *testing.T) {
	t.Parallel()
	pids := int64(7)
	negative := container.HostConfig{Binds: []string{}, ExtraHosts: []string{}, GroupAdd: []string{}}
	negative.Memory, negative.NanoCPUs = -1, -1
	other := container.HostConfig{Privileged: true, NetworkMode: "host", AutoRemove: true}
	other.PidsLimit, other.CPUShares = &pids, 512
	tests := []struct {
		name string
		sp   Spawn
		want string
	}{
		{"the zero Spawn", Spawn{}, `{"HostConfig":{"AutoRemove":false}}`},
		{"zero and negative limits, empty lists, empty labels", Spawn{
			Config:     container.Config{Cmd: []string{}, Env: []string{}, Labels: map[string]string{}},
			HostConfig: negative,
		}, `{"Labels":{},"HostConfig":{"AutoRemove":false}}`},
		{"fields Plan never sets are not written", Spawn{
			Config:     container.Config{Image: "i", User: "root", Tty: true, Entrypoint: []string{"sh"}},
			HostConfig: other,
		}, `{"Image":"i","HostConfig":{"AutoRemove":true,"PidsLimit":7}}`},
		{"labels of the backend first, then the others sorted", Spawn{
			Config: container.Config{Labels: map[string]string{"z": "1", "kici-run-id": "r", "a": "2", "kici-managed": "true"}},
		}, `{"Labels":{"kici-managed":"true","kici-run-id":"r","a":"2","z":"1"},"HostConfig":{"AutoRemove":false}}`},
		{"endpoints sorted, each with empty settings", Spawn{
			Networking: &network.NetworkingConfig{EndpointsConfig: map[string]*network.EndpointSettings{
				"kici-agent-net": {}, "bridge": {Aliases: []string{"x"}},
			}},
		}, `{"HostConfig":{"AutoRemove":false},"NetworkingConfig":{"EndpointsConfig":{"bridge":{},"kici-agent-net":{}}}}`},
		{"no endpoints", Spawn{Networking: &network.NetworkingConfig{}},
			`{"HostConfig":{"AutoRemove":false},"NetworkingConfig":{"EndpointsConfig":{}}}`},
		{"strings escaped as JSON, HTML left alone", Spawn{
			Config: container.Config{Image: "a\"b\\c\n<&>\u2028", Env: []string{"\x00"}},
		}, `{"Image":"a\"b\\c\n<&>\u2028","Env":["\u0000"],"HostConfig":{"AutoRemove":false}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			body, err := tt.sp.MarshalJSON()
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(body))
			validateBody(t, body)
			var direct, viaJSON any
			require.NoError(t, json.Unmarshal(body, &direct))
			marshalled, err := json.Marshal(tt.sp)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(marshalled, &viaJSON))
			assert.Equal(t, direct, viaJSON, "json.Marshal writes the same JSON (with HTML escaped)")
		})
	}
}

// TestMarshalJSONStrings: strings come out as encoding/json writes them,
// less its HTML escaping.
func TestMarshalJSONStrings(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"empty", "", `""`},
		{"plain", "plain", `"plain"`},
		{"quote and backslash", "a\"b\\c", `"a\"b\\c"`},
		{"control characters", "\n\r\t\b\f\x00\x1f\x7f", `"\n\r\t\b\f\u0000\u001f` + "\x7f" + `"`},
		{"line separators", "\u2028\u2029", `"\u2028\u2029"`},
		{"invalid UTF-8, a replacement a byte", "\xff\xfe", `"\ufffd\ufffd"`},
		{"non-ASCII", "é😀", `"é😀"`},
		{"no HTML escaping", "<&>", `"<&>"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var w jsonWriter
			w.str(tt.in)
			assert.Equal(t, tt.want, w.b.String())
		})
	}
}
