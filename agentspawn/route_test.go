package agentspawn

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/scalerconfig"
)

// matcherScaler is one scaler of label-matcher.test.ts's
// findBackendForLabels input: a name, label sets and mandatory labels. Route
// adds to each label set the labels the scaler manager adds, the same for
// every scaler here (container scalers, no platform, every role), so the
// sizes compare as the test's do.
type matcherScaler struct {
	name      string
	labelSets [][]string
	mandatory []string
}

func matcherConfig(scalers ...matcherScaler) *scalerconfig.Config {
	return matcherConfigBy(scalerconfig.Rules016, scalers...)
}

// matcherConfigBy is matcherConfig as a read by the rules r leaves it.
func matcherConfigBy(r scalerconfig.Rules, scalers ...matcherScaler) *scalerconfig.Config {
	cfg := &scalerconfig.Config{Rules: r}
	for _, s := range scalers {
		sc := scalerconfig.Scaler{Name: s.name, Type: scalerconfig.TypeContainer, MaxAgents: 1, MandatoryLabels: s.mandatory}
		for _, labels := range s.labelSets {
			sc.LabelSets = append(sc.LabelSets, scalerconfig.LabelSet{Labels: labels, Image: "img"})
		}
		cfg.Scalers = append(cfg.Scalers, sc)
	}
	return cfg
}

// routeCase is one findBackendForLabels call: want is the matched scaler's
// name and label set index, or "" for null.
type routeCase struct {
	name    string
	cfg     *scalerconfig.Config
	runsOn  []string
	exclude []string
	want    string
	index   int
}

func runRouteCases(t *testing.T, tests []routeCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, ok := Route(RouteInput{Config: tt.cfg, RunsOn: tt.runsOn, Exclude: tt.exclude})
			if tt.want == "" {
				assert.False(t, ok, "matched %+v", m)
				return
			}
			if assert.True(t, ok) {
				assert.Equal(t, tt.want, tt.cfg.Scalers[m.ScalerIndex].Name)
				assert.Equal(t, tt.index, m.LabelSetIndex)
			}
		})
	}
}

// TestRouteLabelMatcher holds label-matcher.test.ts's findBackendForLabels
// cases (at db60c390), each row naming its test. Two of them give
// findBackendForLabels a scaler-wide gate without the per-label-set one
// ("falls back to the scaler-wide gate when the per-set array is absent"
// and "... misaligned"), which the scaler manager at 0b46a9a5 never does:
// it always passes a gate per label set, and Route always computes one.
// The per-label-set gate cases name their gate by a platform taint the
// label set carries (arm64 for the test's gpu), the one way a config gates
// one label set of a scaler and not another: by 0.12.0's rules only
// (Rules012). From 0.16.0 (84ac3cd's mandatoryGate) every label set of a
// scaler has the scaler's gate, and a plain label gates nothing.
func TestRouteLabelMatcher(t *testing.T) {
	t.Parallel()
	scalers := matcherConfig(
		matcherScaler{name: "docker-linux", labelSets: [][]string{{"linux", "docker"}, {"linux", "node20"}}},
		matcherScaler{name: "bare-metal-gpu", labelSets: [][]string{{"linux", "gpu", "cuda"}}},
	)
	gated := matcherConfig(
		matcherScaler{name: "gpu-pool", labelSets: [][]string{{"linux", "gpu"}}, mandatory: []string{"gpu"}},
		matcherScaler{name: "generic", labelSets: [][]string{{"linux", "docker"}}, mandatory: []string{}},
	)
	mixedSets := matcherScaler{name: "mixed", labelSets: [][]string{{"linux", "arm64"}, {"macos", "xcode"}}}
	mixed, mixed016 := matcherConfigBy(scalerconfig.Rules012, mixedSets), matcherConfig(mixedSets)
	runRouteCases(t, []routeCase{
		{"returns scaler name and index for exact match", scalers, []string{"linux", "docker"}, nil, "docker-linux", 0},
		{"matches second label set in a scaler", scalers, []string{"linux", "node20"}, nil, "docker-linux", 1},
		{"matches label set in second scaler", scalers, []string{"linux", "gpu", "cuda"}, nil, "bare-metal-gpu", 0},
		{"returns null when no match", scalers, []string{"windows", "docker"}, nil, "", 0},
		{"matches subset (job labels subset of scaler labels)", scalers, []string{"linux"}, nil, "docker-linux", 0},
		{"handles different label order", scalers, []string{"docker", "linux"}, nil, "docker-linux", 0},
		{"handles case-insensitive matching", scalers, []string{"Linux", "Docker"}, nil, "docker-linux", 0},
		{"skips backends with excluded labels", scalers, []string{"linux"}, []string{"gpu"}, "docker-linux", 0},
		{"returns same result with no exclusions (backward compat)", scalers, []string{"linux", "docker"}, []string{}, "docker-linux", 0},
		{"tries next backend when first match has excluded label", matcherConfig(
			matcherScaler{name: "gpu-scaler", labelSets: [][]string{{"linux", "gpu"}}},
			matcherScaler{name: "docker-scaler", labelSets: [][]string{{"linux", "docker"}}},
		), []string{"linux"}, []string{"gpu"}, "docker-scaler", 0},
		{"returns null when all matching backends have excluded labels", matcherConfig(
			matcherScaler{name: "gpu-1", labelSets: [][]string{{"linux", "gpu"}}},
			matcherScaler{name: "gpu-2", labelSets: [][]string{{"linux", "gpu", "cuda"}}},
		), []string{"linux"}, []string{"gpu"}, "", 0},
		{"mandatoryLabels gate: matches when runsOn includes every mandatory label", gated, []string{"linux", "gpu"}, nil, "gpu-pool", 0},
		{"mandatoryLabels gate: blocks generic job from gated scaler even when subset matches its labelSet", gated, []string{"linux"}, nil, "generic", 0},
		{"mandatoryLabels gate: returns null when runsOn is missing mandatory label and no fallback scaler matches", matcherConfig(
			matcherScaler{name: "gpu-only", labelSets: [][]string{{"linux", "gpu"}}, mandatory: []string{"gpu"}},
		), []string{"linux"}, nil, "", 0},
		{"mandatoryLabels gate: treats undefined mandatoryLabels the same as []", matcherConfig(
			matcherScaler{name: "plain", labelSets: [][]string{{"linux"}}},
		), []string{"linux"}, nil, "plain", 0},
		{"mandatoryLabels gate: case-insensitive matching for mandatory labels", matcherConfig(
			matcherScaler{name: "gpu", labelSets: [][]string{{"linux", "GPU"}}, mandatory: []string{"GPU"}},
		), []string{"linux", "gpu"}, nil, "gpu", 0},
		{"mandatoryLabels gate: all mandatory labels must be present (multi-gate), one missing", matcherConfig(
			matcherScaler{name: "gpu+cuda", labelSets: [][]string{{"linux", "gpu", "cuda"}}, mandatory: []string{"gpu", "cuda"}},
		), []string{"linux", "gpu"}, nil, "", 0},
		{"mandatoryLabels gate: all mandatory labels must be present (multi-gate), all present", matcherConfig(
			matcherScaler{name: "gpu+cuda", labelSets: [][]string{{"linux", "gpu", "cuda"}}, mandatory: []string{"gpu", "cuda"}},
		), []string{"linux", "gpu", "cuda"}, nil, "gpu+cuda", 0},
		{"mandatoryLabels gate: empty runsOn cannot match a gated scaler (early-return walks list)", matcherConfig(
			matcherScaler{name: "gpu-first", labelSets: [][]string{{"linux", "gpu"}}, mandatory: []string{"gpu"}},
			matcherScaler{name: "plain-second", labelSets: [][]string{{"linux"}}, mandatory: []string{}},
		), []string{}, nil, "plain-second", 0},
		{"mandatoryLabels gate: empty runsOn returns null when only gated scalers exist", matcherConfig(
			matcherScaler{name: "gpu-only", labelSets: [][]string{{"linux", "gpu"}}, mandatory: []string{"gpu"}},
		), nil, nil, "", 0},
		{"mandatoryLabels gate: smallest-labelSet tiebreaker still wins among gated scalers", matcherConfig(
			matcherScaler{name: "gpu-broad", labelSets: [][]string{{"linux", "gpu", "cuda", "extra"}}, mandatory: []string{"gpu"}},
			matcherScaler{name: "gpu-narrow", labelSets: [][]string{{"linux", "gpu"}}, mandatory: []string{"gpu"}},
		), []string{"linux", "gpu"}, nil, "gpu-narrow", 0},
		{"mandatoryLabels gate: mandatoryLabels gate stacks with excludeLabels opt-out", matcherConfig(
			matcherScaler{name: "gpu", labelSets: [][]string{{"linux", "gpu", "spot"}}, mandatory: []string{"gpu"}},
		), []string{"linux", "gpu"}, []string{"spot"}, "", 0},
		{"per-label-set gate: routes to a label set whose own gate is satisfied, ignoring a sibling set gate (first)", mixed, []string{"linux", "arm64"}, nil, "mixed", 0},
		{"per-label-set gate: routes to a label set whose own gate is satisfied, ignoring a sibling set gate (second)", mixed, []string{"macos", "xcode"}, nil, "mixed", 1},
		{"per-label-set gate: still refuses a label set whose own gate is unsatisfied", mixed, []string{"xcode"}, nil, "", 0},
		{"per-label-set gate: empty runsOn picks the first ungated label set, not only the first scaler", matcherConfigBy(scalerconfig.Rules012,
			matcherScaler{name: "mixed", labelSets: [][]string{{"linux", "arm64"}, {"linux"}}},
		), nil, nil, "mixed", 1},
		{"per-label-set gate: empty runsOn still matches nothing when every label set is gated", mixed, nil, nil, "", 0},
		{"per-label-set gate by 0.14.0's rules too", matcherConfigBy(scalerconfig.Rules014, mixedSets), []string{"xcode"}, nil, "", 0},
		// 0.16.0 on: a plain label gates nothing (such a config does not
		// load there; a literal routes as the manager would).
		{"0.16.0: a plain label is no gate (first)", mixed016, []string{"linux"}, nil, "mixed", 0},
		{"0.16.0: a plain label is no gate (second)", mixed016, []string{"xcode"}, nil, "mixed", 1},
		{"0.16.0: empty runsOn takes the scaler's first label set", mixed016, nil, nil, "mixed", 0},
	})
}

// TestNormalizeLabelSet holds label-matcher.test.ts's normalizeLabelSet
// and labelSetsMatch cases.
func TestNormalizeLabelSet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		labels []string
		want   string
	}{
		{"sorts labels alphabetically", []string{"docker", "linux"}, "docker,linux"},
		{"sorts labels alphabetically (reversed)", []string{"linux", "docker"}, "docker,linux"},
		{"deduplicates labels", []string{"linux", "linux", "docker"}, "docker,linux"},
		{"lowercases labels", []string{"Docker", "Linux"}, "docker,linux"},
		{"lowercases labels (all caps)", []string{"LINUX", "DOCKER"}, "docker,linux"},
		{"handles combined sort, dedup, and lowercase", []string{"Docker", "linux", "linux"}, "docker,linux"},
		{"returns empty string for empty array", []string{}, ""},
		{"sorts by UTF-16 code units", []string{"\uFFFD", "\U0001F600", "Z", "a"}, "a,z,\U0001F600,\uFFFD"},
		{"does not trim", []string{" linux", "linux"}, " linux,linux"},
		{"an empty label is a label", []string{"", "linux"}, ",linux"},
		{"many labels", []string{"j", "i", "h", "g", "f", "e", "d", "c", "b", "a", "A"}, "a,b,c,d,e,f,g,h,i,j"},
	}
	match := []struct {
		name string
		a, b []string
		want bool
	}{
		{"labelSetsMatch: returns true for exact match", []string{"linux", "docker"}, []string{"linux", "docker"}, true},
		{"labelSetsMatch: returns true for different order (still matches)", []string{"docker", "linux"}, []string{"linux", "docker"}, true},
		{"labelSetsMatch: returns false for different sets", []string{"linux", "docker"}, []string{"linux", "gpu"}, false},
		{"labelSetsMatch: returns false for subset (does NOT match)", []string{"linux"}, []string{"linux", "docker"}, false},
		{"labelSetsMatch: returns false for superset (does NOT match)", []string{"linux", "docker", "gpu"}, []string{"linux", "docker"}, false},
		{"labelSetsMatch: handles case-insensitive matching", []string{"Linux", "Docker"}, []string{"linux", "docker"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, NormalizeLabelSet(tt.labels))
		})
	}
	for _, tt := range match {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, NormalizeLabelSet(tt.a) == NormalizeLabelSet(tt.b))
		})
	}
}

// TestOverlaps holds label-matcher.test.ts's detectLabelSetOverlaps cases.
func TestOverlaps(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  *scalerconfig.Config
		want []Overlap
	}{
		{"returns empty array when no overlaps", matcherConfig(
			matcherScaler{name: "docker-linux", labelSets: [][]string{{"linux", "docker"}}},
			matcherScaler{name: "bare-metal-gpu", labelSets: [][]string{{"linux", "gpu"}}},
		), nil},
		{"detects overlap between two scalers", matcherConfig(
			matcherScaler{name: "docker-1", labelSets: [][]string{{"linux", "docker"}}},
			matcherScaler{name: "docker-2", labelSets: [][]string{{"linux", "docker"}}},
		), []Overlap{{Labels: "docker,linux", First: "docker-1", Second: "docker-2"}}},
		{"detects overlap with different label order", matcherConfig(
			matcherScaler{name: "scaler-a", labelSets: [][]string{{"docker", "linux"}}},
			matcherScaler{name: "scaler-b", labelSets: [][]string{{"linux", "docker"}}},
		), []Overlap{{Labels: "docker,linux", First: "scaler-a", Second: "scaler-b"}}},
		{"allows same scaler with duplicate label sets (intra-scaler)", matcherConfig(
			matcherScaler{name: "docker-multi", labelSets: [][]string{{"linux", "docker"}, {"linux", "docker"}}},
		), nil},
		{"detects multiple overlapping pairs", matcherConfig(
			matcherScaler{name: "scaler-a", labelSets: [][]string{{"linux", "docker"}, {"linux", "gpu"}}},
			matcherScaler{name: "scaler-b", labelSets: [][]string{{"linux", "docker"}}},
			matcherScaler{name: "scaler-c", labelSets: [][]string{{"linux", "gpu"}}},
		), []Overlap{{"docker,linux", "scaler-a", "scaler-b"}, {"gpu,linux", "scaler-a", "scaler-c"}}},
		{"a nil config has none", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Overlaps(tt.cfg))
		})
	}
}

// TestRouteLowerCasesWholeLabels: the manager's labels are lower-cased
// whole, as JavaScript does it, so a scaler's name lower-cases in the
// context of its prefix: a final sigma after "kici:scaler:" is ς, where Σ
// alone lower-cases to σ.
func TestRouteLowerCasesWholeLabels(t *testing.T) {
	t.Parallel()
	cfg := matcherConfig(matcherScaler{name: "Σ", labelSets: [][]string{{"x"}}}, matcherScaler{name: "Pool", labelSets: [][]string{{"x"}}})
	for _, tt := range []struct {
		runsOn string
		want   int
		ok     bool
	}{
		{"kici:scaler:ς", 0, true},
		{"kici:scaler:σ", 0, false},
		{"kici:scaler:pool", 1, true},
		{"KICI:SCALER:POOL", 1, true},
	} {
		t.Run(tt.runsOn, func(t *testing.T) {
			t.Parallel()
			m, ok := Route(RouteInput{Config: cfg, RunsOn: []string{tt.runsOn}})
			assert.Equal(t, tt.ok, ok)
			if ok {
				assert.Equal(t, tt.want, m.ScalerIndex)
			}
		})
	}
}

// TestRouteLongLabelSets: label sets of 7 to 20 labels, each in reverse
// order so that none comes sorted: every label of each is found, and
// repeated labels count once.
func TestRouteLongLabelSets(t *testing.T) {
	t.Parallel()
	for _, n := range []int{7, 8, 9, 12, 20} {
		t.Run(fmt.Sprintf("%d labels", n), func(t *testing.T) {
			t.Parallel()
			labels := make([]string, n)
			for i := range labels {
				labels[i] = fmt.Sprintf("L%02d", n-i)
			}
			cfg := matcherConfig(matcherScaler{name: "s", labelSets: [][]string{labels}})
			for _, l := range labels {
				_, ok := Route(RouteInput{Config: cfg, RunsOn: []string{strings.ToLower(l)}})
				assert.True(t, ok, "%s", l)
				_, ok = Route(RouteInput{Config: cfg, RunsOn: []string{"x"}, Exclude: []string{l}})
				assert.False(t, ok, "excluding %s", l)
			}
			// The same labels twice over, in two cases, are the same label set:
			// on a tie the first wins, so the repeated one must not count more.
			twice := append(append([]string{}, labels...), labels...)
			for i := range labels {
				twice[i] = strings.ToLower(twice[i])
			}
			cfg = matcherConfig(matcherScaler{name: "s", labelSets: [][]string{twice, labels}})
			m, ok := Route(RouteInput{Config: cfg, RunsOn: []string{strings.ToLower(labels[0])}})
			assert.True(t, ok)
			assert.Equal(t, 0, m.LabelSetIndex)
			// One label more loses to the shorter.
			more := append([]string{"extra"}, labels...)
			cfg = matcherConfig(matcherScaler{name: "s", labelSets: [][]string{more, twice}})
			m, ok = Route(RouteInput{Config: cfg, RunsOn: []string{strings.ToLower(labels[n-1])}})
			assert.True(t, ok)
			assert.Equal(t, 1, m.LabelSetIndex)
		})
	}
}

// TestRouteGateByRules: issue 31's example, and the gate of a declared
// platform. A scaler with platform windows on x64 gates each of its label
// sets by windows alone from 0.16.0 (mandatoryGate at 84ac3cd), so a
// runsOn: [windows] job reaches its label set [windows, arm64]; by 0.12.0's
// rules that label set's own arm64 gates it too.
func TestRouteGateByRules(t *testing.T) {
	t.Parallel()
	winAgent := `C:\kici\kici-agent.cmd`
	config := func(r scalerconfig.Rules) *scalerconfig.Config {
		return &scalerconfig.Config{Rules: r, Scalers: []scalerconfig.Scaler{{
			Name: "win", Type: scalerconfig.TypeBareMetal, MaxAgents: 1,
			Platform:  &scalerconfig.Platform{OS: "windows", Arch: "x64"},
			LabelSets: []scalerconfig.LabelSet{{Labels: []string{"windows", "arm64"}, BinaryPath: &winAgent}},
		}}}
	}
	for _, tt := range []struct {
		rules  scalerconfig.Rules
		runsOn []string
		ok     bool
	}{
		{scalerconfig.Rules016, []string{"windows"}, true},
		{scalerconfig.Rules016, []string{"Windows", "ARM64"}, true},
		{scalerconfig.Rules016, []string{"arm64"}, false}, // the platform's taint, windows, is the gate
		{scalerconfig.Rules016, nil, false},
		{scalerconfig.Rules014, []string{"windows"}, false},
		{scalerconfig.Rules012, []string{"windows"}, false},
		{scalerconfig.Rules012, []string{"windows", "arm64"}, true},
	} {
		t.Run(fmt.Sprint(tt.rules, tt.runsOn), func(t *testing.T) {
			t.Parallel()
			m, ok := Route(RouteInput{Config: config(tt.rules), RunsOn: tt.runsOn, Host: scalerconfig.Platform{OS: "linux", Arch: "x64"}})
			assert.Equal(t, tt.ok, ok)
			if ok {
				assert.Equal(t, Match{}, m)
			}
		})
	}
}

// TestRouteLoadedConfig routes in a config as Load reads it: the rules the
// read followed are the gate's.
func TestRouteLoadedConfig(t *testing.T) {
	t.Parallel()
	src := "version: 1\nscalers:\n  - name: win\n    type: bare-metal\n    maxAgents: 1\n" +
		"    platform: {os: windows, arch: x64}\n    labelSets:\n      - labels: [windows, arm64]\n        binaryPath: /opt/kici\n" +
		"  - name: arm\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [linux, arm64]\n        image: i\n"
	fsys := fstest.MapFS{"s.yaml": {Data: []byte(src)}}
	_, err := scalerconfig.Load(fsys, "s.yaml", "")
	var problems *scalerconfig.Error
	require.ErrorAs(t, err, &problems, "the plain arm64 of the second scaler, from 0.16.0")
	old, err := scalerconfig.ScanOptions{Rules: scalerconfig.Rules012}.Load(fsys, "s.yaml", "")
	require.NoError(t, err)
	_, ok := Route(RouteInput{Config: old, RunsOn: []string{"windows"}})
	assert.False(t, ok, "0.12.0: the label set's arm64 gates it")
	m, ok := Route(RouteInput{Config: old, RunsOn: []string{"linux"}})
	assert.False(t, ok, "0.12.0: arm64 gates the linux set too: %+v", m)
	m, ok = Route(RouteInput{Config: old, RunsOn: []string{"linux", "arm64"}})
	assert.True(t, ok)
	assert.Equal(t, Match{ScalerIndex: 1}, m)

	fsys["s.yaml"].Data = []byte(strings.Replace(src, "  - name: arm\n    type: container\n    maxAgents: 1\n",
		"  - name: arm\n    type: container\n    maxAgents: 1\n    platform: {os: linux, arch: arm64}\n", 1))
	cfg, err := scalerconfig.Load(fsys, "s.yaml", "")
	require.NoError(t, err)
	m, ok = Route(RouteInput{Config: cfg, RunsOn: []string{"windows"}})
	assert.True(t, ok, "0.16.0: the platform's windows alone gates the set [windows, arm64]")
	assert.Equal(t, Match{}, m)
	_, ok = Route(RouteInput{Config: cfg, RunsOn: []string{"linux"}})
	assert.False(t, ok, "0.16.0: the arm scaler's platform gates it by arm64")
}
