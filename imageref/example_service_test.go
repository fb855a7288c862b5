package imageref_test

import (
	"fmt"
	"testing/fstest"

	"github.com/kicikit/kicikit/imageref"
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
	switch r := imageref.CheckService(imageref.ServiceInput{
		FS: fsys, EnvFile: "/etc/kici/orchestrator.env", WorkingDir: "/var/lib/kici", TargetVersion: "0.20.0",
	}).(type) {
	case imageref.Checked:
		for _, f := range r.Findings {
			fmt.Println("Warning: " + f.Message())
		}
	case imageref.NoScalerConfig:
		// The service has no scaler config: nothing to check.
	case imageref.Unchecked:
		fmt.Println("agent images not checked:", r.Err) // the orchestrator stays silent
	}
	// Output:
	// Warning: container scaler "docker", label set [linux]: image quay.io/kici-dev/kici-agent:0.19.0 is older than the upgrade target 0.20.0, so the container agents keep running 0.19.0. In /var/lib/kici/scalers.yaml, set "image: quay.io/kici-dev/kici-agent:0.20.0" on this label set.
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
	for _, f := range imageref.CheckAgentImages(imageref.CheckInput{Config: *cfg, TargetVersion: "0.20.0", ScalerConfigPath: "scalers.yaml"}) {
		if e, ok := imageref.Fix(f); ok {
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
