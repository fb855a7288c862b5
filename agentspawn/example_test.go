package agentspawn_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"testing/fstest"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/scalerconfig"
)

const scalersYAML = `version: 1
scalers:
  - name: linux-pool
    type: container
    maxAgents: 4
    labelSets:
      - labels: [linux, docker]
        image: quay.io/kici-dev/kici-agent:0.20.0
        containerSocket: true
        resources: {limits: {cpus: 2, memory: 4g}}
`

func load() *scalerconfig.Config {
	cfg, err := scalerconfig.Load(fstest.MapFS{"scalers.yaml": {Data: []byte(scalersYAML)}}, "scalers.yaml", "")
	if err != nil {
		panic(err)
	}
	return cfg
}

// A job's runs-on routed to its label set, then the container the backend
// creates for it.
func ExamplePlan() {
	cfg := load()
	m, ok := agentspawn.Route(agentspawn.RouteInput{Config: cfg, RunsOn: []string{"Docker"}})
	if !ok {
		fmt.Println("no label set serves the job")
		return
	}
	s := &cfg.Scalers[m.ScalerIndex]
	sp, err := agentspawn.Plan(agentspawn.Request{
		Config:          cfg,
		Scaler:          s.Name,
		LabelSet:        s.LabelSets[m.LabelSetIndex].Labels,
		AgentID:         "scaler-container-1",
		OrchestratorURL: "ws://10.0.0.2:4000/ws",
		SocketPath:      "/var/run/docker.sock",
		Environ:         []string{"HOME=/root", "KICI_AGENT_ENV_HTTP_PROXY=http://proxy:3128"},
		PlatformTaints:  agentspawn.PlatformTaints(s, scalerconfig.Platform{}),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sp.Config.Image)
	for _, e := range sp.Config.Env {
		fmt.Println(e)
	}
	fmt.Println(sp.Config.Labels["kici-labels"], sp.HostConfig.Binds, sp.HostConfig.GroupAdd, sp.HostConfig.Memory, sp.HostConfig.NanoCPUs)
	// Output:
	// quay.io/kici-dev/kici-agent:0.20.0
	// KICI_ORCHESTRATOR_URL=ws://10.0.0.2:4000/ws
	// KICI_AGENT_ID=scaler-container-1
	// KICI_LABELS=linux,docker,kici:agent:container,kici:scaler:linux-pool,kici:role:builder,kici:role:init-runner
	// KICI_SCALER_MANAGED=1
	// KICI_EXECUTION_MODE=bare-metal
	// KICI_RUNTIME_IMAGE=quay.io/kici-dev/kici-agent:0.20.0
	// HTTP_PROXY=http://proxy:3128
	// KICI_SCALER_SINGLE_JOB=1
	// docker,linux [/var/run/docker.sock:/var/run/docker.sock] [1990] 4294967296 2000000000
}

// A refusal reads as the orchestrator's message, and errors.Is tells which
// one it is.
func ExamplePlan_refused() {
	_, err := agentspawn.Plan(agentspawn.Request{
		Config: load(), Scaler: "linux-pool", LabelSet: []string{"linux", "docker"},
		AgentID: "scaler-container-5", OrchestratorURL: "ws://10.0.0.2:4000/ws", Active: 4,
	})
	fmt.Println(err)
	fmt.Println(errors.Is(err, agentspawn.ErrAtCapacity))
	// Output:
	// Container backend "linux-pool" at capacity (4/4)
	// true
}

// The spawn of a job that runs in its own image: the KiCI runtime is
// mounted from a volume filled from the agent image, and the command
// starts the agent from it.
func ExampleJobImage() {
	sp, err := agentspawn.Plan(agentspawn.Request{
		Config: load(), Scaler: "linux-pool", LabelSet: []string{"docker", "linux"},
		AgentID: "scaler-container-2", OrchestratorURL: "ws://10.0.0.2:4000/ws",
		Job: &agentspawn.JobImage{Image: "node:20-bookworm", AgentImageID: "sha256:0f3c9a5e"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sp.Config.Image, sp.Config.Cmd)
	fmt.Println(sp.HostConfig.Binds, sp.HostConfig.GroupAdd == nil)
	fmt.Println(sp.Config.Env[len(sp.Config.Env)-1])
	// Output:
	// node:20-bookworm [/opt/kici/node/bin/node /opt/kici/app/packages/agent/dist/server.js]
	// [kici-runtime-0f3c9a5e:/opt/kici:ro] true
	// KICI_JOB_IMAGE_AGENT=1
}

// What to do before creating the container, in a type switch.
func ExamplePull() {
	sp, err := agentspawn.Plan(agentspawn.Request{
		Config: load(), Scaler: "linux-pool", LabelSet: []string{"linux", "docker"},
		AgentID: "scaler-container-3", OrchestratorURL: "ws://10.0.0.2:4000/ws",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	switch p := sp.Pull.(type) {
	case agentspawn.NoPull:
		fmt.Println("the host must have", p.Image)
	case agentspawn.PullIfMissing:
		fmt.Println("inspect", p.Image, "and pull it when it is missing")
	case agentspawn.PullAlways:
		fmt.Println("pull", p.Image)
	}
	// Output:
	// inspect quay.io/kici-dev/kici-agent:0.20.0 and pull it when it is missing
}

// The body of POST /containers/create, as the orchestrator sends it.
func ExampleSpawn_MarshalJSON() {
	sp, err := agentspawn.Plan(agentspawn.Request{
		Config: load(), Scaler: "linux-pool", LabelSet: []string{"linux", "docker"},
		AgentID: "scaler-container-4", OrchestratorURL: "ws://10.0.0.2:4000/ws", BoundJobID: "job-9",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := json.Marshal(sp)
	var out map[string]json.RawMessage
	_ = json.Unmarshal(body, &out)
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	_ = enc.Encode(struct {
		Labels, HostConfig, NetworkingConfig json.RawMessage
	}{out["Labels"], out["HostConfig"], out["NetworkingConfig"]})
	// Output:
	// {
	//   "Labels": {
	//     "kici-managed": "true",
	//     "kici-scaler-name": "linux-pool",
	//     "kici-agent-id": "scaler-container-4",
	//     "kici-labels": "docker,linux",
	//     "kici-bound-job-id": "job-9"
	//   },
	//   "HostConfig": {
	//     "Memory": 4294967296,
	//     "NanoCpus": 2000000000,
	//     "GroupAdd": [
	//       "1990"
	//     ],
	//     "AutoRemove": false,
	//     "PidsLimit": 4096
	//   },
	//   "NetworkingConfig": {
	//     "EndpointsConfig": {
	//       "kici-agent-net": {}
	//     }
	//   }
	// }
}

// A job that asks for nothing the pool has matches no label set.
func ExampleRoute() {
	cfg := load()
	for _, runsOn := range [][]string{{"linux"}, {"kici:agent:container", "kici:os:linux"}, {"linux", "gpu"}} {
		m, ok := agentspawn.Route(agentspawn.RouteInput{Config: cfg, RunsOn: runsOn})
		fmt.Println(runsOn, m, ok)
	}
	// Output:
	// [linux] {0 0} true
	// [kici:agent:container kici:os:linux] {0 0} true
	// [linux gpu] {0 0} false
}

func ExampleAgentLabels() {
	fmt.Println(agentspawn.AgentLabels([]string{"linux", "arm64"}, scalerconfig.TypeContainer, "arm-pool", []scalerconfig.Role{}, []string{"arm64"}))
	// Output:
	// [linux arm64 kici:agent:container kici:scaler:arm-pool]
}

func ExampleNormalizeLabelSet() {
	fmt.Println(agentspawn.NormalizeLabelSet([]string{"Linux", "docker", "linux"}))
	// Output:
	// docker,linux
}

func ExampleRuntimeVolumeName() {
	fmt.Println(agentspawn.RuntimeVolumeName("sha256:9d2f7c1b8e6a4f3d2c1b0a99887766554433221100ffeeddccbbaa"))
	// Output:
	// kici-runtime-9d2f7c1b8e6a4f3d2c1b0a9988776655
}

func ExampleHostAccess() {
	fmt.Println(agentspawn.HostAccess(agentspawn.HostAccessInput{
		OrchestratorURL: "ws://10.0.0.2:4000/ws",
		Gateway:         agentspawn.IsolatedNetworkGateway,
	}))
	// Output:
	// [172.30.0.1:53 *:4000]
}

func ExamplePlatformTaints() {
	s := &scalerconfig.Scaler{Type: scalerconfig.TypeBareMetal}
	fmt.Println(agentspawn.PlatformTaints(s, scalerconfig.Platform{OS: "macos", Arch: "arm64"}))
	// Output:
	// [macos arm64]
}

func ExampleOverlaps() {
	cfg := load()
	cfg.Scalers = append(cfg.Scalers, scalerconfig.Scaler{Name: "other", Type: scalerconfig.TypeContainer,
		LabelSets: []scalerconfig.LabelSet{{Labels: []string{"docker", "Linux"}}}})
	fmt.Println(agentspawn.Overlaps(cfg))
	// Output:
	// [{docker,linux linux-pool other}]
}
