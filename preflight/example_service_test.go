package preflight_test

import (
	"fmt"
	"testing/fstest"

	"github.com/kicikit/kicikit/preflight"
	"github.com/kicikit/kicikit/scalerconfig"
)

func ExampleCheckService() {
	// os.DirFS("/") on the orchestrator's host.
	fsys := fstest.MapFS{
		"etc/kici/orchestrator.env": {Data: []byte("KICI_SCALER_CONFIG_PATH=scalers.yaml\n")},
		"var/lib/kici/scalers.yaml": {Data: []byte(`version: 1
scalers:
  - name: docker
    type: container
    maxAgents: 4
    labelSets:
      - labels: [Linux]
        image: quay.io/kici-dev/kici-agent:0.19.0
`)},
	}
	switch r := preflight.CheckService(preflight.ServiceInput{
		FS: fsys, EnvFile: "/etc/kici/orchestrator.env", WorkingDir: "/var/lib/kici", TargetVersion: "0.20.0",
	}).(type) {
	case preflight.Checked:
		for _, f := range r.Findings {
			fmt.Println(f.LabelSet().ImagePos, "Warning: "+f.Message())
		}
	case preflight.NoScalerConfig:
		// The service has no scaler config: nothing to check.
	case preflight.Invalid:
		for _, p := range r.Err.Problems { // the orchestrator stays silent, then fails to start its scalers
			fmt.Println(p)
		}
	case preflight.Unreadable:
		fmt.Println("agent images not checked:", r.Err) // the orchestrator stays silent
	}
	// Output:
	// /var/lib/kici/scalers.yaml:8:16 Warning: container scaler "docker", label set [linux]: image quay.io/kici-dev/kici-agent:0.19.0 is older than the upgrade target 0.20.0, so the container agents keep running 0.19.0. In /var/lib/kici/scalers.yaml, set "image: quay.io/kici-dev/kici-agent:0.20.0" on this label set.
}

func ExampleFix() {
	src := []byte(`version: 1
scalers:
  - name: docker
    type: container
    maxAgents: 4
    labelSets:
      - labels: [linux]
        image: 'quay.io/kici-dev/kici-agent:latest'  # pinned below
`)
	cfg, err := scalerconfig.Load(fstest.MapFS{"scalers.yaml": {Data: src}}, "scalers.yaml", "")
	if err != nil {
		panic(err)
	}
	var edits []scalerconfig.ImageEdit
	for _, f := range preflight.CheckAgentImages(preflight.Input{Config: cfg, Location: scalerconfig.Location{Path: "scalers.yaml"}, TargetVersion: "0.20.0"}) {
		if e, ok := preflight.Fix(f); ok {
			edits = append(edits, e)
		}
	}
	fixed, _, err := scalerconfig.EditImages(src, edits)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(fixed[len(src)-60:]))
	// Output:
	// image: 'quay.io/kici-dev/kici-agent:0.20.0'  # pinned below
}
