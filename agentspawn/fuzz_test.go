package agentspawn

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/internal/jsstr"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/api/types/container"
	"github.com/stretchr/testify/require"
)

// split cuts a fuzz string into a list at each "|" ("" is no list).
func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "|")
}

// fuzzRequest builds a request on fullConfig's container scaler from fuzz
// strings.
func fuzzRequest(labels, image, env, volumes, memory string, cpus float64, agentID, url, job string, active int) Request {
	r := fullRequest()
	ls := &r.Config.Scalers[1].LabelSets[1]
	ls.Labels, ls.Image = split(labels), image
	ls.Volumes = split(volumes)
	ls.Env = nil
	for _, kv := range split(env) {
		name, value, _ := strings.Cut(kv, "=")
		ls.Env = append(ls.Env, scalerconfig.EnvVar{Name: name, Value: value})
	}
	ls.Resources = &hostconfig.Resources{Limits: &hostconfig.ResourceSpec{CPUs: cpus, Memory: memory}}
	r.LabelSet, r.AgentID, r.OrchestratorURL, r.Active = split(labels), agentID, url, active
	r.Environ = split(env)
	if job != "" {
		r.Job = &JobImage{Image: strings.TrimPrefix(job, "!"), AgentImageID: job, Init: split(job)}
	}
	return r
}

// FuzzPlan: Plan never panics, every Spawn it returns validates against
// the Engine's schema and holds the backend's fixed entries, and every
// refusal is an *Error with a Reason.
func FuzzPlan(f *testing.F) {
	f.Add("linux|docker", "img:1", "A=1|KICI_AGENT_ENV_B=2", "/a:/a", "512m", 1.5, "agent", "ws://o/ws", "", 0)
	f.Add("Linux|LINUX", "img", "", "", "", 0.0, "a", "u", "node:20", 3)
	f.Add("", "", "=|==|KICI_AGENT_ENV_=", "", "2Gi", -1.0, "", "", "!", 9)
	f.Add("İ|ς|\xff", "\x00", "\u2028=\"", "<>:&", "1e3", 1e-12, "\\", "\n", "sha256:😀", -5)
	f.Fuzz(func(t *testing.T, labels, image, env, volumes, memory string, cpus float64, agentID, url, job string, active int) {
		r := fuzzRequest(labels, image, env, volumes, memory, cpus, agentID, url, job, active)
		sp, err := plan(t, r)
		if err != nil {
			var e *Error
			require.ErrorAs(t, err, &e)
			require.NotEmpty(t, e.Error())
			require.ErrorIs(t, err, e.Reason)
			return
		}
		require.Equal(t, "KICI_ORCHESTRATOR_URL="+url, sp.Config.Env[0])
		require.Equal(t, "KICI_AGENT_ID="+agentID, sp.Config.Env[1])
		require.Equal(t, "KICI_SCALER_MANAGED=1", sp.Config.Env[3])
		require.Equal(t, NormalizeLabelSet(r.LabelSet), sp.Config.Labels["kici-labels"])
		require.Equal(t, r.Job == nil, sp.Config.Cmd == nil)
	})
}

// naiveRoute is the scaler manager's choice written as directly as the
// orchestrator writes it, with sets: findBackendForLabels with the
// per-label-set gate of labelSetMandatoryLabels (0b46a9a) or mandatoryGate
// (84ac3cd, by the config's Rules), over the label sets of
// getEnrichedScalerEntries. Route must agree.
func naiveRoute(in RouteInput) (Match, bool) {
	lower := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, l := range list {
			m[jsstr.ToLower(l)] = true
		}
		return m
	}
	target := lower(in.RunsOn)
	best, bestSize, found := Match{}, 0, false
	for i := range in.Config.Scalers {
		s := &in.Config.Scalers[i]
		// The added labels are TestRouteAddedLabels' to check; here they
		// are taken as Route computes them, and the matching is redone.
		auto := addedLabels(s, in.Host).list
		for j, ls := range s.LabelSets {
			gate := append(append([]string{}, s.MandatoryLabels...), PlatformTaints(s, in.Host)...)
			for l := range lower(ls.Labels) {
				if in.Config.Rules != scalerconfig.Rules016 && scalerconfig.IsPlatformLabel(l) {
					gate = append(gate, l)
				}
			}
			if len(target) == 0 {
				if len(gate) == 0 {
					return Match{i, j}, true
				}
				continue
			}
			ok := true
			for _, g := range gate {
				ok = ok && target[jsstr.ToLower(g)]
			}
			labels := lower(append(append([]string{}, ls.Labels...), auto...))
			for l := range target {
				ok = ok && labels[l]
			}
			for _, e := range in.Exclude {
				ok = ok && !labels[jsstr.ToLower(e)]
			}
			if ok && (!found || len(labels) < bestSize) {
				best, bestSize, found = Match{i, j}, len(labels), true
			}
		}
	}
	return best, found
}

// fuzzConfig builds three scalers from fuzz strings: label sets split at
// ";", labels at "|"; typ's third bit picks 0.12.0's rules.
func fuzzConfig(a, b, mandatory, roles string, typ, os, arch uint8) *scalerconfig.Config {
	types := []scalerconfig.ScalerType{"container", "bare-metal", "firecracker", "event"}
	oses := []string{"", "linux", "macos", "windows", "darwin", "freebsd"}
	arches := []string{"", "x64", "arm64", "riscv64"}
	cfg := &scalerconfig.Config{Rules: []scalerconfig.Rules{scalerconfig.Rules016, scalerconfig.Rules012}[typ>>2&1]}
	for k, sets := range []string{a, b, a + ";" + b} {
		s := scalerconfig.Scaler{Name: "s" + string(rune('0'+k)), Type: types[(int(typ)+k)%len(types)], MandatoryLabels: split(mandatory)}
		if k == 1 {
			s.Platform = &scalerconfig.Platform{OS: oses[int(os)%len(oses)], Arch: arches[int(arch)%len(arches)]}
		}
		if k != 2 && roles != "-" {
			for _, r := range split(roles) {
				s.Roles = append(s.Roles, scalerconfig.Role(r))
			}
			if s.Roles == nil {
				s.Roles = []scalerconfig.Role{}
			}
		}
		for _, set := range strings.Split(sets, ";") {
			s.LabelSets = append(s.LabelSets, scalerconfig.LabelSet{Labels: split(set)})
		}
		cfg.Scalers = append(cfg.Scalers, s)
	}
	return cfg
}

// FuzzRoute: Route never panics, agrees with naiveRoute, and a label set it
// returns is one Plan finds again from its labels.
func FuzzRoute(f *testing.F) {
	f.Add("linux|docker;linux|node20", "linux|gpu", "", "", "linux", "", uint8(0), uint8(1), uint8(1))
	f.Add("macos|xcode;arm64", "Linux", "gpu", "all", "linux|gpu", "spot", uint8(1), uint8(2), uint8(2))
	f.Add("", ";", "", "-", "", "", uint8(2), uint8(0), uint8(0))
	f.Add("kici:os:linux|x", "windows|WIN32", "", "builder|builder", "KICI:AGENT:BARE-METAL|x", "kici:role:builder", uint8(1), uint8(4), uint8(3))
	f.Add("macos|xcode;arm64", "Linux", "", "all", "xcode", "", uint8(5), uint8(2), uint8(2))
	f.Add("linux|arm64;linux", "windows|arm64", "", "", "", "", uint8(4), uint8(3), uint8(1))
	f.Fuzz(func(t *testing.T, a, b, mandatory, roles, runsOn, exclude string, typ, os, arch uint8) {
		cfg := fuzzConfig(a, b, mandatory, roles, typ, os, arch)
		host := scalerconfig.Platform{OS: []string{"", "linux", "darwin", "win32", "sunos"}[int(os)%5], Arch: []string{"", "x64", "arm64", "ppc64"}[int(arch)%4]}
		in := RouteInput{Config: cfg, RunsOn: split(runsOn), Exclude: split(exclude), Host: host}
		m, ok := Route(in)
		wm, wok := naiveRoute(in)
		require.Equal(t, wok, ok)
		require.Equal(t, wm, m)
		if !ok {
			return
		}
		s := cfg.Scalers[m.ScalerIndex]
		require.Less(t, m.LabelSetIndex, len(s.LabelSets))
		if s.Type != scalerconfig.TypeContainer {
			return
		}
		s.MaxAgents = 1
		for j := range s.LabelSets {
			s.LabelSets[j].Image = "img"
		}
		cfg.Scalers[m.ScalerIndex] = s
		sp, err := plan(t, Request{Config: cfg, Scaler: s.Name, LabelSet: s.LabelSets[m.LabelSetIndex].Labels, AgentID: "a", OrchestratorURL: "u",
			PlatformTaints: PlatformTaints(&s, host)})
		require.NoError(t, err)
		require.Equal(t, NormalizeLabelSet(s.LabelSets[sp.LabelSetIndex].Labels), NormalizeLabelSet(s.LabelSets[m.LabelSetIndex].Labels))
	})
}

// FuzzJSONString: the create body is valid JSON whatever a string holds,
// and reads back as the string, each invalid UTF-8 byte as U+FFFD.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "a\"b", "\x00\xff", "\u2028<&>", "é😀\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		body, err := Spawn{Config: container.Config{Image: s}}.MarshalJSON()
		require.NoError(t, err)
		var back struct{ Image string }
		require.NoError(t, json.Unmarshal(body, &back), "%s", body)
		require.Equal(t, string([]rune(s)), back.Image)
	})
}
