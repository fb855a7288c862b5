package preflight

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/scalerconfig"
)

// oldStyleConfig is a config an orchestrator before 0.16.0 loads, and
// 0.16.0 and later refuse: a flat resources block in a label set and in
// the defaults, a block with cpus beside limits, a plain ARM64 label in a
// scaler without platform.
const oldStyleConfig = `version: 1
defaults:
  resources: {cpus: 1, memory: 1g}
scalers:
  - name: arm
    type: container
    maxAgents: 2
    labelSets:
      - labels: [linux, ARM64]
        image: quay.io/kici-dev/kici-agent:0.20.0
        resources: {cpus: 2, memory: 4g}
  - name: big
    type: container
    maxAgents: 1
    labelSets:
      - labels: [linux, big]
        image: quay.io/kici-dev/kici-agent:0.20.0
        resources: {cpus: 8, limits: {memory: 16g}}
`

// TestCheckServiceByTargetRules: the config is read as the target release
// reads it, and a Windows service as on a Windows host.
func TestCheckServiceByTargetRules(t *testing.T) {
	t.Parallel()
	service := func(config, target string, windows bool) ServiceCheck {
		fsys := fstest.MapFS{
			"etc/kici/orchestrator.env": {Data: []byte("KICI_SCALER_CONFIG_PATH=/etc/kici/scalers.yaml\n")},
			"etc/kici/scalers.yaml":     {Data: []byte(config)},
		}
		return CheckService(ServiceInput{FS: fsys, EnvFile: "/etc/kici/orchestrator.env", TargetVersion: target, Windows: windows})
	}
	problems := func(sc ServiceCheck) []string {
		inv, ok := sc.(Invalid)
		require.True(t, ok, "%#v", sc)
		var out []string
		for _, p := range inv.Err.Problems {
			out = append(out, p.String())
		}
		return out
	}
	refusals := []string{
		"/etc/kici/scalers.yaml:3:14: defaults.resources: resources takes { requests, limits }: nest cpus and memory under limits (a limit alone also sets the request)",
		"/etc/kici/scalers.yaml:11:20: scalers[0].labelSets[0].resources: resources takes { requests, limits }: nest cpus and memory under limits (a limit alone also sets the request)",
		"/etc/kici/scalers.yaml:18:20: scalers[1].labelSets[0].resources: resources takes { requests, limits }: nest cpus and memory under limits (a limit alone also sets the request)",
	}
	for _, target := range []string{"0.20.0", "0.16.0", " v0.17.0 ", ""} {
		assert.Equal(t, refusals, problems(service(oldStyleConfig, target, false)), "target %q", target)
	}
	// The block with cpus beside limits was no form of 0.12.0's either.
	old := problems(service(oldStyleConfig, "0.15.0", false))
	require.Len(t, old, 1)
	assert.Contains(t, old[0], "scalers[1].labelSets[0].resources: Invalid input")

	// The label alone: each flat block nested, cpus beside limits moved in.
	nested := strings.NewReplacer("{cpus: 1, memory: 1g}", "{limits: {cpus: 1, memory: 1g}}",
		"{cpus: 2, memory: 4g}", "{limits: {cpus: 2, memory: 4g}}", "{cpus: 8, limits: {memory: 16g}}", "{limits: {cpus: 8, memory: 16g}}").Replace(oldStyleConfig)
	assert.Equal(t, []string{`/etc/kici/scalers.yaml:9:25: scalers[0].labelSets[0].labels: Scaler "arm" labelSets[0]: label "arm64" names a platform; declare platform: { os, arch } instead`},
		problems(service(nested, "0.20.0", false)))
	for _, target := range []string{"0.15.0", "0.14.0", "0.12.0"} {
		checked, ok := service(nested, target, false).(Checked)
		require.True(t, ok, target)
		assert.Equal(t, []string{"linux", "arm64"}, checked.Config.Scalers[0].LabelSets[0].Labels, target)
		want, _ := scalerconfig.RulesFor(target)
		assert.Equal(t, want, checked.Config.Rules, target)
	}
	declared := strings.Replace(nested, "    maxAgents: 2\n", "    maxAgents: 2\n    platform: {os: linux, arch: arm64}\n", 1)
	checked, ok := service(declared, "0.20.0", false).(Checked)
	require.True(t, ok)
	assert.Equal(t, scalerconfig.Rules016, checked.Config.Rules)
}

// TestCheckServiceWindowsHost: a Windows service's bare-metal batch file
// that cmd.exe would read as syntax is refused from 0.14.0.
func TestCheckServiceWindowsHost(t *testing.T) {
	t.Parallel()
	config := "version: 1\nscalers:\n  - name: w\n    type: bare-metal\n    maxAgents: 1\n    platform: {os: windows, arch: x64}\n" +
		"    labelSets:\n      - labels: [windows]\n        binaryPath: 'C:\\tools(1)\\kici-agent.cmd'\n"
	fsys := fstest.MapFS{
		"kici/orchestrator.env": {Data: []byte("KICI_SCALER_CONFIG_PATH=C:\\kici\\scalers.yaml\r\n")},
		"kici/scalers.yaml":     {Data: []byte(config)},
	}
	for target, refused := range map[string]bool{"0.20.0": true, "0.15.0": true, "0.14.0": true, "0.13.0": false, "": true} {
		sc := CheckService(ServiceInput{FS: fsys, EnvFile: `C:\kici\orchestrator.env`, TargetVersion: target, Windows: true})
		if !refused {
			assert.IsType(t, Checked{}, sc, target)
			continue
		}
		inv, ok := sc.(Invalid)
		require.True(t, ok, "%s: %#v", target, sc)
		require.Len(t, inv.Err.Problems, 1)
		assert.Equal(t, `C:\kici\scalers.yaml:9:21: scalers[0].labelSets[0].binaryPath: Bare-metal scaler "w" label set [0]: cannot run "C:\tools(1)\kici-agent.cmd" as a bare-metal agent: it contains "(", which cmd.exe reads as syntax when it runs the batch file. Move the agent to a path without it.`,
			inv.Err.Problems[0].String(), target)
	}
	fsys["kici/orchestrator.env"] = &fstest.MapFile{Data: []byte("KICI_SCALER_CONFIG_PATH=/kici/scalers.yaml\n")}
	assert.IsType(t, Checked{}, CheckService(ServiceInput{FS: fsys, EnvFile: "/kici/orchestrator.env", TargetVersion: "0.20.0"}), "a Linux service")
}

// TestInvalidConfigKind: the kind of a config's problems, which no Finding
// has, says which release refuses what.
func TestInvalidConfigKind(t *testing.T) {
	t.Parallel()
	k := InvalidConfigKind()
	assert.Equal(t, CodeInvalidConfig, k.Code)
	assert.Equal(t, "error", k.Severity)
	assert.True(t, strings.HasSuffix(k.Summary, ".") && strings.HasSuffix(k.Help, "."))
	for _, want := range []string{"From 0.16.0", "directly under resources", "platform: {os, arch}", "from 0.14.0, on a Windows host", "target release"} {
		assert.Contains(t, k.Help, want)
	}
	for _, kind := range Kinds() {
		assert.NotEqual(t, CodeInvalidConfig, kind.Code, "not a Finding's kind")
	}
}
