package scalerconfig_test

import (
	"errors"
	"fmt"
	"testing/fstest"

	"github.com/kicikit/kicikit/scalerconfig"
)

// A config is read by the rules of the release that reads it. The newest
// (0.16.0 on, the default) refuse a flat resources block and a plain
// platform label; an orchestrator before 0.16.0 loads both.
func ExampleScanOptions_Load() {
	fsys := fstest.MapFS{"scalers.yaml": {Data: []byte(`version: 1
scalers:
  - name: arm
    type: container
    maxAgents: 2
    labelSets:
      - labels: [linux, ARM64]
        image: quay.io/kici-dev/kici-agent:0.20.0
        resources: {cpus: 2, memory: 4g}
  - name: mac
    type: bare-metal
    maxAgents: 1
    labelSets:
      - labels: [macos]
        binaryPath: /opt/kici/bin/kici-agent
`)}}
	_, err := scalerconfig.Load(fsys, "scalers.yaml", "")
	var problems *scalerconfig.Error
	if errors.As(err, &problems) {
		for _, p := range problems.Problems {
			fmt.Println(p)
		}
	}

	rules, _ := scalerconfig.RulesFor("0.15.0")
	cfg, err := scalerconfig.ScanOptions{Rules: rules}.Load(fsys, "scalers.yaml", "")
	if err != nil {
		fmt.Println(err)
		return
	}
	ls := cfg.Scalers[0].LabelSets[0]
	fmt.Println(cfg.Rules, ls.Labels, *ls.Resources.Requests, *ls.Resources.Limits)
	// Output:
	// scalers.yaml:9:20: scalers[0].labelSets[0].resources: resources takes { requests, limits }: nest cpus and memory under limits (a limit alone also sets the request)
	// scalers.yaml:14:18: scalers[1].labelSets[0].labels: Scaler "mac" labelSets[0]: label "macos" names a platform; declare platform: { os, arch } instead
	// 0.14.0 (b9d436e) [linux arm64] {2 4g} {2 4g}
}

func ExampleRulesFor() {
	for _, release := range []string{"0.20.0", "v0.16.0", "0.15.3", "0.14.0-9159", "0.12.0", "0.20"} {
		r, ok := scalerconfig.RulesFor(release)
		fmt.Println(release, r, ok)
	}
	// Output:
	// 0.20.0 0.16.0 (84ac3cd) true
	// v0.16.0 0.16.0 (84ac3cd) true
	// 0.15.3 0.14.0 (b9d436e) true
	// 0.14.0-9159 0.14.0 (b9d436e) true
	// 0.12.0 0.12.0 (0b46a9a) true
	// 0.20 0.16.0 (84ac3cd) false
}

// On a Windows host, from 0.14.0 on, a bare-metal agent's batch file whose
// path cmd.exe would read as syntax is refused; elsewhere it loads.
func ExampleScanOptions_Load_windowsHost() {
	fsys := fstest.MapFS{"scalers.yaml": {Data: []byte(`version: 1
scalers:
  - name: windows-bare-metal
    type: bare-metal
    maxAgents: 2
    platform: {os: windows, arch: x64}
    labelSets:
      - labels: [windows, bare-metal]
        binaryPath: 'C:\a&b\kici-agent.cmd'
`)}}
	windows := scalerconfig.ScanOptions{Host: scalerconfig.Platform{OS: "windows"}}
	_, err := windows.Load(fsys, "scalers.yaml", "")
	fmt.Println(err)
	_, err = scalerconfig.Load(fsys, "scalers.yaml", "")
	fmt.Println(err)
	// Output:
	// scalerconfig.Load: 1 problem
	// scalers.yaml:9:21: scalers[0].labelSets[0].binaryPath: Bare-metal scaler "windows-bare-metal" label set [0]: cannot run "C:\a&b\kici-agent.cmd" as a bare-metal agent: it contains "&", which cmd.exe reads as syntax when it runs the batch file. Move the agent to a path without it.
	// <nil>
}

// A config an older release loads becomes one 0.16.0 loads where it leaves
// no choice: each Problem's Fix, made by ApplyFixes, keeps every other byte.
// A scaler's labels show once its label sets' resources are nested.
func ExampleApplyFixes() {
	src := []byte(`version: 1
scalers:
  - name: arm
    type: container
    maxAgents: 2
    labelSets:
      - labels: [linux, arm64]
        image: quay.io/kici-dev/kici-agent:0.20.0
        resources:   # per agent
          cpus: 2
          memory: 4g
`)
	for round := 1; ; round++ {
		_, err := scalerconfig.Load(fstest.MapFS{"scalers.yaml": {Data: src}}, "scalers.yaml", "")
		var problems *scalerconfig.Error
		if !errors.As(err, &problems) {
			break
		}
		var fixes []scalerconfig.Fix
		for _, p := range problems.Problems {
			fmt.Printf("%d: %s: %s\n", round, p.Path, p.Hint)
			if p.Fix != nil {
				fixes = append(fixes, *p.Fix)
			}
		}
		out, _, err := scalerconfig.ApplyFixes(src, fixes)
		if err != nil {
			fmt.Println(err)
			return
		}
		src = out
	}
	fmt.Print(string(src))
	// Output:
	// 1: scalers[0].labelSets[0].resources: nest them: resources: {limits: {cpus: 2, memory: 4g}}
	// 2: scalers[0].labelSets[0].labels: declare platform: {os: linux, arch: arm64} on this scaler, the platform its label sets name
	// version: 1
	// scalers:
	//   - name: arm
	//     type: container
	//     maxAgents: 2
	//     platform: {os: linux, arch: arm64}
	//     labelSets:
	//       - labels: [linux, arm64]
	//         image: quay.io/kici-dev/kici-agent:0.20.0
	//         resources:   # per agent
	//           limits:
	//             cpus: 2
	//             memory: 4g
}
