package preflight_test

import (
	"fmt"
	"testing/fstest"

	"github.com/kicikit/kicikit/preflight"
	"github.com/kicikit/kicikit/scalerconfig"
)

// A memory the orchestrator cannot read loads, and fails every spawn that
// reads it. Check finds it at its value, before the upgrade.
func ExampleCheck() {
	fsys := fstest.MapFS{"scalers.yaml": {Data: []byte(`version: 1
scalers:
  - name: docker
    type: container
    maxAgents: 4
    labelSets:
      - labels: [linux]
        image: quay.io/kici-dev/kici-agent:0.20.0
        resources:
          limits: {cpus: 2, memory: 4GB}
`)}}
	cfg, err := scalerconfig.Load(fsys, "scalers.yaml", "")
	if err != nil {
		panic(err)
	}
	for _, f := range preflight.Check(preflight.Input{Config: cfg, Location: scalerconfig.Location{Path: "scalers.yaml"}}) {
		if f, ok := f.(preflight.InvalidMemory); ok {
			fmt.Printf("%s: %s %q: %v\n", f.At, f.Field, f.Memory, f.Err)
		}
		fmt.Println(f.Message())
	}
	// Output:
	// scalers.yaml:10:37: resources.limits.memory "4GB": hostconfig.ParseMemory("4GB"): text after the unit
	// container scaler "docker", label set [linux]: resources.limits.memory: Invalid memory format: "4GB". Expected format like "512m", "2g", or "1024k". The orchestrator loads this config and reads the memory only when it spawns an agent, so every spawn for this label set fails there, unless the job sets its own memory. In scalers.yaml, write the memory as a number and one unit k, m or g on this label set ("4g").
}
