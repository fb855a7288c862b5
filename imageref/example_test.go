package imageref_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/kicikit/kicikit/imageref"
	"github.com/kicikit/kicikit/scalerconfig"
)

func ExampleParse() {
	for _, s := range []string{
		"kici-agent",
		"registry.local:5000/mirror/kici-agent:0.20.0",
		"quay.io/kici/kici-agent:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	} {
		ref, err := imageref.Parse(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("repository %q tag %q digest %q\n", ref.Repository, ref.Tag, ref.Digest)
	}
	// Output:
	// repository "kici-agent" tag "" digest ""
	// repository "registry.local:5000/mirror/kici-agent" tag "0.20.0" digest ""
	// repository "quay.io/kici/kici-agent" tag "latest" digest "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
}

func ExampleParse_errors() {
	for _, s := range []string{"Quay.io/KiCI/kici-agent", "kici-agent:", "kici-agent@sha256:abc"} {
		_, err := imageref.Parse(s)
		fmt.Println(err)
		switch {
		case errors.Is(err, imageref.ErrNameUppercase):
			fmt.Println("  → lower-case the repository")
		case errors.Is(err, imageref.ErrTagInvalid):
			fmt.Println("  → fix the tag")
		case errors.Is(err, imageref.ErrDigestInvalid):
			fmt.Println("  → fix the digest")
		}
	}
	// Output:
	// imageref.Parse("Quay.io/KiCI/kici-agent"): repository name must be lowercase
	//   → lower-case the repository
	// imageref.Parse("kici-agent:"): invalid tag
	//   → fix the tag
	// imageref.Parse("kici-agent@sha256:abc"): invalid digest
	//   → fix the digest
}

func ExampleRef_Name() {
	ref := imageref.MustParse("kici-agent:0.20.0")
	fmt.Println(ref.Name())
	fmt.Println(ref.FamiliarName())
	fmt.Println(ref)
	// Output:
	// docker.io/library/kici-agent
	// kici-agent
	// kici-agent:0.20.0
}

func ExampleIsAgentImage() {
	fmt.Println(imageref.IsAgentImage("registry.local:5000/mirror/kici-agent"))
	fmt.Println(imageref.IsAgentImage("kici-agent-dev"))
	// Output:
	// true
	// false
}

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
	findings := imageref.CheckAgentImages(imageref.CheckInput{
		Config:           cfg,
		TargetVersion:    "v0.20.0",
		ScalerConfigPath: "/etc/kici/scalers.yaml",
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
	for _, f := range imageref.CheckAgentImages(imageref.CheckInput{Config: cfg, TargetVersion: "0.20.0", ScalerConfigPath: "scalers.yaml"}) {
		switch f := f.(type) {
		case imageref.MovingTag:
			fmt.Println(f.Labels, "moving tag", f.Image)
		case imageref.OlderPin:
			fmt.Println(f.Labels, "pinned to", f.Tag, "not", f.Target)
		case imageref.NeverPull:
			fmt.Println(f.Labels, "never pulled:", f.Image)
		case imageref.FloatingTag:
			fmt.Println(f.Labels, "floating tag", f.Tag)
		case imageref.InvalidImage:
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
	in := imageref.CheckInput{Config: cfg, TargetVersion: "0.20.0", ScalerConfigPath: "scalers.yaml", ScalerConfigDir: "scalers.d"}
	for _, f := range imageref.CheckAgentImages(in) {
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
	findings := imageref.CheckAgentImages(imageref.CheckInput{Config: cfg, ScalerConfigPath: "scalers.yaml"})
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
	//     "message": "container scaler \"docker\", label set [linux]: image kici-agent:edge has the floating tag edge: like latest it can move to another release, and with imagePullPolicy IfNotPresent each host keeps the image it pulled first, so nothing tells which agent release runs. In scalers.yaml, set image to the kici-agent release you upgrade to (kici-agent:<version>) on this label set, or pin a digest (kici-agent@sha256:<digest>).",
	//     "scalerIndex": 0,
	//     "labelSetIndex": 0,
	//     "tag": "edge",
	//     "target": "",
	//     "where": "scalers.yaml"
	//   }
	// ]
}
