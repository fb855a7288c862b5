package preflight_test

import (
	"fmt"
	"testing/fstest"

	"github.com/kicikit/kicikit/preflight"
	"github.com/kicikit/kicikit/scalerconfig"
)

// A config of any size checked one scaler at a time: Location.Scan
// hands each scaler over as it reads it, and Scan keeps only the findings.
// They count once the orchestrator would accept the config.
func ExampleScan() {
	fsys := fstest.MapFS{"etc/kici/scalers.yaml": {Data: []byte(`version: 1
scalers:
  - name: docker
    type: container
    maxAgents: 4
    labelSets:
      - labels: [linux, x64]
        image: quay.io/kici/kici-agent:latest
      - labels: [linux, current]
        image: quay.io/kici/kici-agent:0.20.0
      - labels: [linux, node]
        image: docker.io/library/node:20
  - name: old
    type: container
    maxAgents: 1
    labelSets:
      - labels: [linux, old]
        image: quay.io/kici/kici-agent:0.19.0
`)}}
	loc := scalerconfig.Location{Path: "/etc/kici/scalers.yaml"}
	in := preflight.Input{Location: loc, TargetVersion: "0.20.0"}
	findings, n, err := preflight.Scan(in, func(each func(int, *scalerconfig.Scaler)) (*scalerconfig.Config, error) {
		return loc.Scan(fsys, scalerconfig.ScanOptions{}, each)
	})
	if err != nil {
		fmt.Println(err) // the config is refused: there are no findings
		return
	}
	for _, f := range findings {
		s := f.LabelSet()
		fmt.Printf("%s: scalers[%d].labelSets[%d]: %s\n", s.ImagePos, s.ScalerIndex, s.LabelSetIndex, f.Code())
	}
	// The images checked, and those skipped: no finding is no proof of a
	// clean config when no agent image was checked.
	fmt.Printf("%d agent images checked, %d other images skipped\n", n.Agent, n.Other)
	// Output:
	// /etc/kici/scalers.yaml:8:16: scalers[0].labelSets[0]: moving-tag
	// /etc/kici/scalers.yaml:18:16: scalers[1].labelSets[0]: older-pin
	// 3 agent images checked, 1 other images skipped
}
