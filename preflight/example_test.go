package preflight_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/kicikit/kicikit/preflight"
	"github.com/kicikit/kicikit/scalerconfig"
)

func ExampleCheckAgentImages() {
	// What scalerconfig.Load returns for a scalers.yaml with one container
	// scaler; a literal works as well.
	cfg := scalerconfig.Config{Scalers: []scalerconfig.Scaler{{
		Name: "docker",
		Type: scalerconfig.TypeContainer,
		LabelSets: []scalerconfig.LabelSet{
			{Labels: []string{"linux", "x64"}, Image: "quay.io/kici/kici-agent:latest"},
			{Labels: []string{"linux", "pinned"}, Image: "quay.io/kici/kici-agent:0.19.0", ImagePullPolicy: scalerconfig.PullAlways},
			{Labels: []string{"linux", "current"}, Image: "quay.io/kici/kici-agent:0.20.0"},
		},
	}}}
	findings := preflight.CheckAgentImages(preflight.Input{
		Config:        &cfg,
		Location:      scalerconfig.Location{Path: "/etc/kici/scalers.yaml"},
		TargetVersion: "v0.20.0",
	})
	for _, f := range findings {
		fmt.Printf("Warning: %s\n", f.Message())
	}
	// Output:
	// Warning: container scaler "docker", label set [linux, x64]: image quay.io/kici/kici-agent:latest with imagePullPolicy IfNotPresent keeps the agent image this host already pulled, so the upgrade does not change the container agents. In /etc/kici/scalers.yaml, set "image: quay.io/kici/kici-agent:0.20.0" on this label set, or set "imagePullPolicy: Always" to pull latest on every spawn.
	// Warning: container scaler "docker", label set [linux, pinned]: image quay.io/kici/kici-agent:0.19.0 is older than the upgrade target 0.20.0, so the container agents keep running 0.19.0. In /etc/kici/scalers.yaml, set "image: quay.io/kici/kici-agent:0.20.0" on this label set.
}

func ExampleCheckAgentImages_typeSwitch() {
	cfg := scalerconfig.Config{Scalers: []scalerconfig.Scaler{{
		Name: "docker",
		Type: scalerconfig.TypeContainer,
		LabelSets: []scalerconfig.LabelSet{
			{Labels: []string{"a"}, Image: "kici-agent:0.18.0", ImagePullPolicy: scalerconfig.PullNever},
			{Labels: []string{"b"}, Image: "kici-agent:stable"},
			{Labels: []string{"c"}, Image: "kici-agent: 0.20.0"},
		},
	}}}
	for _, f := range preflight.CheckAgentImages(preflight.Input{Config: &cfg, Location: scalerconfig.Location{Path: "scalers.yaml"}, TargetVersion: "0.20.0"}) {
		switch f := f.(type) {
		case preflight.MovingTag:
			fmt.Println(f.Labels, "moving tag", f.Image)
		case preflight.OlderPin:
			fmt.Println(f.Labels, "pinned to", f.Tag, "not", f.Target)
		case preflight.NeverPull:
			fmt.Println(f.Labels, "never pulled:", f.Image)
		case preflight.FloatingTag:
			fmt.Println(f.Labels, "floating tag", f.Tag)
		case preflight.InvalidImage:
			fmt.Println(f.Labels, "invalid:", f.Err.Reason)
		default:
			panic(fmt.Sprintf("unexpected finding %T", f))
		}
	}
	// Output:
	// [a] pinned to 0.18.0 not 0.20.0
	// [a] never pulled: kici-agent:0.18.0
	// [b] floating tag stable
	// [c] invalid: invalid tag
}

func ExampleFinding_LabelSet() {
	// The positions are those scalerconfig.Load records; a literal may leave
	// them out.
	cfg := scalerconfig.Config{Scalers: []scalerconfig.Scaler{{
		Name: "docker",
		Type: scalerconfig.TypeContainer,
		LabelSets: []scalerconfig.LabelSet{{
			Labels:   []string{"linux"},
			Image:    "kici-agent:0.19.0",
			Pos:      scalerconfig.Pos{File: "scalers.d/10-docker.yaml", Line: 5, Column: 9, Offset: 71},
			ImagePos: scalerconfig.Pos{File: "scalers.d/10-docker.yaml", Line: 6, Column: 16, Offset: 101},
			ImageEnd: scalerconfig.Pos{File: "scalers.d/10-docker.yaml", Line: 6, Column: 33, Offset: 118},
		}},
	}}}
	in := preflight.Input{Config: &cfg, Location: scalerconfig.Location{Path: "scalers.yaml", Dir: "scalers.d"}, TargetVersion: "0.20.0"}
	for _, f := range preflight.CheckAgentImages(in) {
		s := f.LabelSet() // whichever type f is
		fmt.Printf("%s: %s: scaler %s, label set %v [%s]\n", s.ImagePos, s.Image, s.Scaler, s.Labels, f.Code())
	}
	// Output:
	// scalers.d/10-docker.yaml:6:16: kici-agent:0.19.0: scaler docker, label set [linux] [older-pin]
}

func ExampleFinding_json() {
	cfg := scalerconfig.Config{Scalers: []scalerconfig.Scaler{{
		Name:      "docker",
		Type:      scalerconfig.TypeContainer,
		LabelSets: []scalerconfig.LabelSet{{Labels: []string{"linux"}, Image: "kici-agent:edge"}},
	}}}
	findings := preflight.CheckAgentImages(preflight.Input{Config: &cfg, Location: scalerconfig.Location{Path: "scalers.yaml"}})
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(findings); err != nil {
		fmt.Println(err)
	}
	// Output:
	// [
	//   {
	//     "code": "floating-tag",
	//     "scaler": "docker",
	//     "labels": [
	//       "linux"
	//     ],
	//     "image": "kici-agent:edge",
	//     "message": "container scaler \"docker\", label set [linux]: image \"kici-agent:edge\" has the floating tag \"edge\": like latest it can move to another release, and with imagePullPolicy IfNotPresent each host keeps the image it pulled first, so nothing tells which agent release runs. In scalers.yaml, set image to the kici-agent release you upgrade to (kici-agent:<version>) on this label set, or pin a digest (kici-agent@sha256:<digest>).",
	//     "scalerIndex": 0,
	//     "labelSetIndex": 0,
	//     "tag": "edge",
	//     "target": "",
	//     "where": "scalers.yaml"
	//   }
	// ]
}
