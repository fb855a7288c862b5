package agentspawn

import (
	"testing"

	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/stretchr/testify/assert"
)

// TestAgentLabels holds labels.test.ts's scalerAgentLabels and
// resolveRoleLabels cases (at 0b46a9a5), each row naming its test, and
// taint-reachability.test.ts's one that needs no agent registry.
func TestAgentLabels(t *testing.T) {
	t.Parallel()
	role := func(r ...scalerconfig.Role) []scalerconfig.Role { return append([]scalerconfig.Role{}, r...) }
	tests := []struct {
		name     string
		labelSet []string
		backend  scalerconfig.ScalerType
		scaler   string
		roles    []scalerconfig.Role
		taints   []string
		want     []string
	}{
		{"scalerAgentLabels: combines the base label set with the scaler-injected kici: labels",
			[]string{"linux", "container"}, "container", "container-default", role("builder"), nil,
			[]string{"linux", "container", "kici:agent:container", "kici:scaler:container-default", "kici:role:builder"}},
		{"scalerAgentLabels: expands undefined roles to all known roles (matches the agent wire labels)",
			[]string{"linux", "bare-metal"}, "bare-metal", "bm", nil, nil,
			[]string{"linux", "bare-metal", "kici:agent:bare-metal", "kici:scaler:bm", "kici:role:builder", "kici:role:init-runner"}},
		{"scalerAgentLabels: emits no role labels for an execution-only scaler ([] roles)",
			[]string{"linux"}, "container", "c", role(), nil,
			[]string{"linux", "kici:agent:container", "kici:scaler:c"}},
		{"scalerAgentLabels: appends the platform taints, so a job asking for the platform can match",
			[]string{"linux"}, "bare-metal", "gpu-pool", role(), []string{"arm64"},
			[]string{"linux", "kici:agent:bare-metal", "kici:scaler:gpu-pool", "arm64"}},
		{"scalerAgentLabels: de-duplicates a taint the label set already declares",
			[]string{"linux", "arm64"}, "bare-metal", "gpu-pool", role(), []string{"arm64"},
			[]string{"linux", "arm64", "kici:agent:bare-metal", "kici:scaler:gpu-pool"}},
		{"resolveRoleLabels: returns single role label for init-runner",
			nil, "container", "c", role("init-runner"), nil,
			[]string{"kici:agent:container", "kici:scaler:c", "kici:role:init-runner"}},
		{"resolveRoleLabels: returns both role labels for builder and init-runner",
			nil, "container", "c", role("builder", "init-runner"), nil,
			[]string{"kici:agent:container", "kici:scaler:c", "kici:role:builder", "kici:role:init-runner"}},
		{"resolveRoleLabels: returns all role labels when all is specified",
			nil, "container", "c", role("all"), nil,
			[]string{"kici:agent:container", "kici:scaler:c", "kici:role:builder", "kici:role:init-runner"}},
		{"resolveRoleLabels: normalizes to all role labels when all is combined with specific roles",
			nil, "container", "c", role("builder", "all"), nil,
			[]string{"kici:agent:container", "kici:scaler:c", "kici:role:builder", "kici:role:init-runner"}},
		{"taint-reachability: injects the taint into the labels the agent registers with",
			[]string{"linux"}, "bare-metal", "gpu-pool", nil, PlatformTaints(&scalerconfig.Scaler{Platform: &scalerconfig.Platform{OS: "linux", Arch: "arm64"}}, scalerconfig.Platform{}),
			[]string{"linux", "kici:agent:bare-metal", "kici:scaler:gpu-pool", "kici:role:builder", "kici:role:init-runner", "arm64"}},
		{"the first of each label is kept, case-sensitively",
			[]string{"Linux", "linux", "Linux", "kici:agent:container"}, "container", "c", role("builder", "builder"), []string{"linux", "macos", "macos"},
			[]string{"Linux", "linux", "kici:agent:container", "kici:scaler:c", "kici:role:builder", "macos"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, AgentLabels(tt.labelSet, tt.backend, tt.scaler, tt.roles, tt.taints))
		})
	}
}

// TestAgentLabelsLong: a label set of many labels, some repeated, keeps
// the first of each in order.
func TestAgentLabelsLong(t *testing.T) {
	t.Parallel()
	var in, want []string
	for i := range 40 {
		l := string(rune('a' + i%26))
		in = append(in, l)
		if i < 26 {
			want = append(want, l)
		}
	}
	want = append(want, "kici:agent:container", "kici:scaler:c")
	assert.Equal(t, want, AgentLabels(in, "container", "c", []scalerconfig.Role{}, []string{"a", "z"}))
}

// TestLabelConstants holds labels.test.ts's constants that agentspawn uses.
func TestLabelConstants(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "kici:role:", RoleLabelPrefix, "role constants: ROLE_LABEL_PREFIX is kici:role:")
	assert.Equal(t, "kici:agent:", AgentTypeLabelPrefix, "agentTypeLabel: prefixes with kici:agent:")
	assert.Equal(t, "kici:scaler:", ScalerLabelPrefix, "scalerLabel: prefixes with kici:scaler:")
	assert.Equal(t, "kici:agent-feature:global-eval-skips-result-aware", AgentFeatureLabel,
		"isSelfReportedLabel: treats agent-feature labels as self-reported behaviour facts")
	// role constants: KNOWN_ROLES contains exactly builder and init-runner
	assert.Equal(t, []string{"kici:agent:container", "kici:scaler:linux-container", "kici:role:builder", "kici:role:init-runner"},
		AgentLabels(nil, "container", "linux-container", nil, nil))
}

// TestPlatformTaints holds labels.test.ts's platformToTaints and host
// mapping cases, through the scaler manager's resolution of a scaler's
// platform (manager.ts's resolveScalerPlatform, at 0b46a9a5).
func TestPlatformTaints(t *testing.T) {
	t.Parallel()
	declared := func(os, arch string) *scalerconfig.Scaler {
		return &scalerconfig.Scaler{Type: scalerconfig.TypeContainer, Platform: &scalerconfig.Platform{OS: os, Arch: arch}}
	}
	bareMetal := &scalerconfig.Scaler{Type: scalerconfig.TypeBareMetal}
	host := func(os, arch string) scalerconfig.Platform { return scalerconfig.Platform{OS: os, Arch: arch} }
	tests := []struct {
		name   string
		scaler *scalerconfig.Scaler
		host   scalerconfig.Platform
		want   []string
	}{
		{"platformToTaints: does not taint the linux/x64 default", declared("linux", "x64"), host("", ""), nil},
		{"platformToTaints: taints windows regardless of arch", declared("windows", "x64"), host("", ""), []string{"windows"}},
		{"platformToTaints: taints macos + arm64 together", declared("macos", "arm64"), host("", ""), []string{"macos", "arm64"}},
		{"platformToTaints: taints arm64 on a linux pool", declared("linux", "arm64"), host("", ""), []string{"arm64"}},
		{"a declared platform wins over the host", declared("linux", "x64"), host("darwin", "arm64"), nil},
		{"host mapping: maps node platform strings (darwin is macos)", bareMetal, host("darwin", "arm64"), []string{"macos", "arm64"}},
		{"host mapping: maps node platform strings (win32 is windows)", bareMetal, host("win32", "x64"), []string{"windows"}},
		{"host mapping: the config's words", bareMetal, host("windows", "arm64"), []string{"windows", "arm64"}},
		{"host mapping: combines into a structured platform or null (linux, ppc64)", bareMetal, host("linux", "ppc64"), nil},
		{"host mapping: combines into a structured platform or null (sunos, x64)", bareMetal, host("sunos", "x64"), nil},
		{"a container scaler does not take the host's", &scalerconfig.Scaler{Type: scalerconfig.TypeContainer}, host("darwin", "arm64"), nil},
		{"a nil scaler", nil, host("darwin", "arm64"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, PlatformTaints(tt.scaler, tt.host))
		})
	}
}

// platformScaler is a scaler of one label set, typ and platform as given.
func platformScaler(typ scalerconfig.ScalerType, platform *scalerconfig.Platform, labels ...string) *scalerconfig.Config {
	return &scalerconfig.Config{Scalers: []scalerconfig.Scaler{{
		Name: "p", Type: typ, MaxAgents: 1, Platform: platform,
		LabelSets: []scalerconfig.LabelSet{{Labels: labels, Image: "img"}},
	}}}
}

// by012 is cfg as a read by 0.12.0's rules leaves it.
func by012(cfg *scalerconfig.Config) *scalerconfig.Config {
	cfg.Rules = scalerconfig.Rules012
	return cfg
}

// TestRouteAddedLabels holds labels.test.ts's deriveOsArchLabels and
// platformToOsArchLabels cases (at 84ac3cd, as at 0b46a9a), and its
// derivePlatformTaints cases at 0b46a9a (84ac3cd removes the function),
// by 0.12.0's rules, as the labels the scaler manager adds to a label set
// and the gate it applies: a runs-on label matches only a label the label
// set has or gets.
func TestRouteAddedLabels(t *testing.T) {
	t.Parallel()
	pl := func(os, arch string) *scalerconfig.Platform { return &scalerconfig.Platform{OS: os, Arch: arch} }
	bm, ct := scalerconfig.TypeBareMetal, scalerconfig.TypeContainer
	tests := []struct {
		name   string
		cfg    *scalerconfig.Config
		host   scalerconfig.Platform
		runsOn []string
		match  bool
	}{
		{"deriveOsArchLabels: maps linux platform", platformScaler(bm, nil, "x"), scalerconfig.Platform{OS: "linux", Arch: "x64"}, []string{"kici:os:linux", "kici:arch:x64", "kici:arch:amd64"}, true},
		{"deriveOsArchLabels: maps darwin platform to kici:os:macos + kici:os:darwin", platformScaler(bm, nil, "x"), scalerconfig.Platform{OS: "darwin", Arch: "arm64"}, []string{"kici:os:macos", "kici:os:darwin", "kici:arch:arm64", "macos", "arm64"}, true},
		{"deriveOsArchLabels: maps darwin platform, not kici:os:linux", platformScaler(bm, nil, "x"), scalerconfig.Platform{OS: "darwin", Arch: "arm64"}, []string{"kici:os:linux", "macos", "arm64"}, false},
		{"deriveOsArchLabels: maps win32 platform to kici:os:windows + kici:os:win32", platformScaler(bm, nil, "x"), scalerconfig.Platform{OS: "win32", Arch: "x64"}, []string{"kici:os:windows", "kici:os:win32", "kici:arch:x64", "kici:arch:amd64", "windows"}, true},
		{"deriveOsArchLabels: passes through unknown platform with kici:os: prefix", platformScaler(bm, nil, "x"), scalerconfig.Platform{OS: "freebsd", Arch: "x64"}, []string{"kici:os:freebsd", "kici:arch:amd64"}, true},
		{"deriveOsArchLabels: passes through unknown arch with kici:arch: prefix", platformScaler(bm, nil, "x"), scalerconfig.Platform{OS: "linux", Arch: "riscv64"}, []string{"kici:arch:riscv64", "kici:os:linux"}, true},
		{"platformToOsArchLabels: derives linux/x64 labels", platformScaler(ct, pl("linux", "x64"), "x"), scalerconfig.Platform{}, []string{"kici:os:linux", "kici:arch:x64", "kici:arch:amd64"}, true},
		{"platformToOsArchLabels: derives windows/x64 labels (os synonyms included)", platformScaler(ct, pl("windows", "x64"), "x"), scalerconfig.Platform{}, []string{"kici:os:windows", "kici:os:win32", "kici:arch:x64", "kici:arch:amd64", "windows"}, true},
		{"platformToOsArchLabels: derives macos/arm64 labels", platformScaler(ct, pl("macos", "arm64"), "x"), scalerconfig.Platform{}, []string{"kici:os:macos", "kici:os:darwin", "kici:arch:arm64", "macos", "arm64"}, true},
		{"a declared platform gates on its taints", platformScaler(ct, pl("macos", "arm64"), "x"), scalerconfig.Platform{}, []string{"macos"}, false},
		{"a container scaler without a platform runs linux agents, on the host's architecture", platformScaler(ct, nil, "x"), scalerconfig.Platform{OS: "darwin", Arch: "arm64"}, []string{"kici:os:linux", "kici:arch:arm64"}, true},
		{"a container scaler without a platform is not kici:os:macos on a macos host", platformScaler(ct, nil, "x"), scalerconfig.Platform{OS: "darwin", Arch: "arm64"}, []string{"kici:os:macos"}, false},
		{"the zero host adds no architecture", platformScaler(ct, nil, "x"), scalerconfig.Platform{}, []string{"kici:arch:x64"}, false},
		{"the added labels: agent, scaler, roles, agent feature", platformScaler(ct, nil, "x"), scalerconfig.Platform{}, []string{"kici:agent:container", "kici:scaler:p", "kici:role:builder", "kici:role:init-runner", AgentFeatureLabel}, true},
		{"added labels compare lower-cased", platformScaler(ct, nil, "x"), scalerconfig.Platform{}, []string{"KICI:Scaler:P", "KICI:OS:LINUX"}, true},
		{"derivePlatformTaints: taints a windows bare-metal pool with windows", by012(platformScaler(bm, nil, "windows", "bare-metal")), scalerconfig.Platform{}, []string{"bare-metal"}, false},
		{"derivePlatformTaints: taints a windows bare-metal pool with windows (requested)", by012(platformScaler(bm, nil, "windows", "bare-metal")), scalerconfig.Platform{}, []string{"bare-metal", "windows"}, true},
		{"derivePlatformTaints: taints a macos pool with its os labels", by012(platformScaler(bm, nil, "macos", "darwin", "bare-metal")), scalerconfig.Platform{}, []string{"macos"}, false},
		{"derivePlatformTaints: taints a macos pool with its os labels (both requested)", by012(platformScaler(bm, nil, "macos", "darwin", "bare-metal")), scalerconfig.Platform{}, []string{"macos", "darwin"}, true},
		{"derivePlatformTaints: taints an arm64 linux pool with arm64 only (linux is default)", by012(platformScaler(bm, nil, "arm64", "linux", "bare-metal")), scalerconfig.Platform{}, []string{"arm64"}, true},
		{"derivePlatformTaints: does not taint a linux/x64 pool", by012(platformScaler(bm, nil, "linux", "bare-metal")), scalerconfig.Platform{}, []string{"bare-metal"}, true},
		{"derivePlatformTaints: is case-insensitive and de-duplicates", by012(platformScaler(bm, nil, "Windows", "WINDOWS", "bare-metal")), scalerconfig.Platform{}, []string{"bare-metal", "windows"}, true},
		{"derivePlatformTaints: is case-insensitive (not requested)", by012(platformScaler(bm, nil, "Windows", "WINDOWS", "bare-metal")), scalerconfig.Platform{}, []string{"bare-metal"}, false},
		{"derivePlatformTaints: excludes the defaults from the taint set", by012(platformScaler(bm, nil, "linux", "x64", "amd64")), scalerconfig.Platform{}, []string{"x64"}, true},
		{"every plain taint: win32", by012(platformScaler(bm, nil, "win32", "x")), scalerconfig.Platform{}, []string{"x"}, false},
		{"every plain taint: aarch64", by012(platformScaler(bm, nil, "aarch64", "x")), scalerconfig.Platform{}, []string{"x"}, false},
		{"every plain taint: arm", by012(platformScaler(bm, nil, "arm", "x")), scalerconfig.Platform{}, []string{"x"}, false},
		{"a bare-metal scaler takes the host's platform and its taints", platformScaler(bm, nil, "x"), scalerconfig.Platform{OS: "macos", Arch: "x64"}, []string{"x"}, false},
		{"an empty runs-on is refused by the host's taints", platformScaler(bm, nil, "x"), scalerconfig.Platform{OS: "windows", Arch: "x64"}, nil, false},
		{"an empty runs-on is refused by a declared platform's taints", platformScaler(ct, pl("linux", "arm64"), "x"), scalerconfig.Platform{}, nil, false},
		{"an empty runs-on is refused by a label set's taint", by012(platformScaler(ct, nil, "arm", "x")), scalerconfig.Platform{}, []string{}, false},
		{"0.16.0: a label set's plain platform label taints nothing", platformScaler(bm, nil, "windows", "bare-metal"), scalerconfig.Platform{}, []string{"bare-metal"}, true},
		{"0.16.0: nor for an empty runs-on", platformScaler(ct, nil, "arm", "x"), scalerconfig.Platform{}, []string{}, true},
		{"an empty runs-on takes an ungated label set", platformScaler(ct, pl("linux", "x64"), "x"), scalerconfig.Platform{OS: "windows"}, nil, true},
		{"an excluded added label vetoes every label set", platformScaler(ct, nil, "x"), scalerconfig.Platform{}, []string{"x"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var exclude []string
			if tt.name == "an excluded added label vetoes every label set" {
				exclude = []string{"KICI:AGENT:CONTAINER"}
			}
			_, ok := Route(RouteInput{Config: tt.cfg, RunsOn: tt.runsOn, Exclude: exclude, Host: tt.host})
			assert.Equal(t, tt.match, ok)
		})
	}
}
