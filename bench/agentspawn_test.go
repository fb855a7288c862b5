package bench

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/scalerconfig"
)

// spawnConfig is a container scaler whose one label set has 3 labels, 2
// volumes and 4 env entries, with limits and the runtime socket: the
// label set of the Plan goal.
func spawnConfig() *scalerconfig.Config {
	return &scalerconfig.Config{Scalers: []scalerconfig.Scaler{{
		Name: "linux-pool", Type: scalerconfig.TypeContainer, MaxAgents: 8,
		LabelSets: []scalerconfig.LabelSet{{
			Labels:          []string{"linux", "docker", "node20"},
			Image:           "quay.io/kici-dev/kici-agent:0.20.0",
			Volumes:         []string{"kici-cache:/cache:rw", "/srv/tools:/tools:ro"},
			ContainerSocket: true,
			Env: scalerconfig.Env{
				{Name: "NODE_VERSION", Value: "20"}, {Name: "TZ", Value: "UTC"},
				{Name: "LANG", Value: "C.UTF-8"}, {Name: "CI", Value: "true"},
			},
			Resources: &hostconfig.Resources{Limits: &hostconfig.ResourceSpec{CPUs: 2, Memory: "4g"}},
		}},
	}}}
}

func spawnRequest(cfg *scalerconfig.Config) agentspawn.Request {
	return agentspawn.Request{
		Config: cfg, Scaler: "linux-pool", LabelSet: []string{"linux", "docker", "node20"},
		AgentID: "scaler-container-1", OrchestratorURL: "ws://10.0.0.2:4000/ws", SocketPath: "/var/run/docker.sock",
	}
}

// handBuilt is the floor of Plan: the same Config, HostConfig and
// NetworkingConfig built by hand from the label set, as a program that
// knows what the label set holds writes it (lower-case labels, each once,
// limits set, a local socket), with no lookup, no matching, no checks.
func handBuilt(r agentspawn.Request, ls *scalerconfig.LabelSet) (container.Config, container.HostConfig, *network.NetworkingConfig) {
	env := make([]string, 0, 12)
	env = append(env,
		"KICI_ORCHESTRATOR_URL="+r.OrchestratorURL,
		"KICI_AGENT_ID="+r.AgentID,
		"KICI_LABELS="+strings.Join(r.LabelSet, ",")+",kici:agent:container,kici:scaler:"+r.Scaler+",kici:role:builder,kici:role:init-runner",
		"KICI_SCALER_MANAGED=1",
		"KICI_EXECUTION_MODE=bare-metal",
		"KICI_RUNTIME_IMAGE="+ls.Image)
	for _, v := range ls.Env {
		env = append(env, v.Name+"="+v.Value)
	}
	env = append(env, "KICI_SCALER_SINGLE_JOB=1")
	// kici-labels is the label set sorted: its labels are lower case, and
	// each is there once.
	sorted := slices.Clone(ls.Labels)
	slices.Sort(sorted)
	cfg := container.Config{Image: ls.Image, Env: env, Labels: map[string]string{
		"kici-managed": "true", "kici-scaler-name": r.Scaler, "kici-agent-id": r.AgentID, "kici-labels": strings.Join(sorted, ","),
	}}
	binds := make([]string, 0, len(ls.Volumes)+1)
	binds = append(append(binds, ls.Volumes...), r.SocketPath+":"+r.SocketPath)
	mem, _ := hostconfig.ParseMemory(ls.Resources.Limits.Memory)
	pids := int64(hostconfig.PidsLimit)
	hc := container.HostConfig{Binds: binds, GroupAdd: []string{strconv.Itoa(hostconfig.SudoGroupGID)}}
	hc.Memory, hc.NanoCPUs, hc.PidsLimit = mem, int64(ls.Resources.Limits.CPUs*1e9), &pids
	nc := &network.NetworkingConfig{EndpointsConfig: map[string]*network.EndpointSettings{agentspawn.IsolatedNetwork: {}}}
	return cfg, hc, nc
}

// BenchmarkPlan: agentspawn.Plan beside its floor, on the same label set.
// Before timing, the two are checked to build the same container.
func BenchmarkPlan(b *testing.B) {
	cfg := spawnConfig()
	req := spawnRequest(cfg)
	ls := &cfg.Scalers[0].LabelSets[0]
	sp, err := agentspawn.Plan(req)
	if err != nil {
		b.Fatal(err)
	}
	c, hc, nc := handBuilt(req, ls)
	if !reflect.DeepEqual(sp.Config, c) || !reflect.DeepEqual(sp.HostConfig, hc) || !reflect.DeepEqual(sp.Networking, nc) {
		b.Fatalf("the floor builds another container:\n%+v\n%+v", sp, c)
	}
	b.Run("impl=kicikit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := agentspawn.Plan(req); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/labelset")
	})
	b.Run("impl=floor", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			handBuilt(req, ls)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/labelset")
	})
}

// cpuTime is the CPU time, user and system, the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPlanCPU: Plan and its floor interleaved, a batch of each in
// every op, each measured in CPU time (the process's, garbage collection
// included): on a shared machine the load drifting over the run falls on
// both alike, and time the process waits for a core is not counted. It
// reports kicikit-cpu-ns/labelset and floor-cpu-ns/labelset, what the goal
// compares.
func BenchmarkPlanCPU(b *testing.B) {
	const batch = 2000
	cfg := spawnConfig()
	req := spawnRequest(cfg)
	ls := &cfg.Scalers[0].LabelSets[0]
	var plan, floor time.Duration
	for b.Loop() {
		t0 := cpuTime(b)
		for range batch {
			if _, err := agentspawn.Plan(req); err != nil {
				b.Fatal(err)
			}
		}
		t1 := cpuTime(b)
		for range batch {
			handBuilt(req, ls)
		}
		plan, floor = plan+t1-t0, floor+cpuTime(b)-t1
	}
	n := float64(b.N * batch)
	b.ReportMetric(float64(plan.Nanoseconds())/n, "kicikit-cpu-ns/labelset")
	b.ReportMetric(float64(floor.Nanoseconds())/n, "floor-cpu-ns/labelset")
}

// routeConfig is n container label sets over n/10 scalers, two labels
// each, none of which serves the job but the last: Route reads them all.
func routeConfig(n int) *scalerconfig.Config {
	cfg := &scalerconfig.Config{}
	for i := 0; i < n; i += 10 {
		s := scalerconfig.Scaler{Name: "pool-" + strconv.Itoa(i), Type: scalerconfig.TypeContainer, MaxAgents: 4}
		for j := range 10 {
			s.LabelSets = append(s.LabelSets, scalerconfig.LabelSet{
				Labels: []string{"linux", "set-" + strconv.Itoa(i+j)},
				Image:  "quay.io/kici-dev/kici-agent:0.20.0",
			})
		}
		cfg.Scalers = append(cfg.Scalers, s)
	}
	return cfg
}

// BenchmarkRoute: Route over 1,000 and 100,000 label sets, the time per
// label set; the job's runs-on matches only the last label set.
func BenchmarkRoute(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		cfg := routeConfig(n)
		in := agentspawn.RouteInput{Config: cfg, RunsOn: []string{"Linux", "set-" + strconv.Itoa(n-1)}}
		m, ok := agentspawn.Route(in)
		if !ok || m.ScalerIndex != len(cfg.Scalers)-1 || m.LabelSetIndex != 9 {
			b.Fatalf("n=%d: routed to %+v, %v", n, m, ok)
		}
		b.Run(fmt.Sprintf("n=%d/impl=kicikit", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				agentspawn.Route(in)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/labelset")
		})
		// scan reads what Route reads of each label set, its labels'
		// bytes, and nothing else: the memory's share of Route's time,
		// which grows once the label sets outgrow the caches.
		b.Run(fmt.Sprintf("n=%d/impl=scan", n), func(b *testing.B) {
			sum := 0
			for b.Loop() {
				for i := range cfg.Scalers {
					for _, ls := range cfg.Scalers[i].LabelSets {
						for _, l := range ls.Labels {
							sum += len(l) + int(l[len(l)-1])
						}
					}
				}
			}
			if sum == 0 {
				b.Fatal("read nothing")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/labelset")
		})
	}
}
