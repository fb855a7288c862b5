package scalerconfig_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing/fstest"

	"github.com/kicikit/kicikit/scalerconfig"
)

func ExampleEditImages() {
	src := []byte("version: 1\r\n" +
		"scalers:\r\n" +
		"  - name: docker   # comments, quotes and CRLF stay\r\n" +
		"    type: container\r\n" +
		"    maxAgents: 4\r\n" +
		"    labelSets:\r\n" +
		"      - labels: [linux]\r\n" +
		"        image: \"quay.io/kici-dev/kici-agent:0.19.0\"\r\n" +
		"      - labels: [build]\r\n" +
		"        image: >-\r\n" +
		"          quay.io/kici-dev/kici-agent:0.19.0\r\n")
	cfg, err := scalerconfig.Load(fstest.MapFS{"scalers.yaml": {Data: src}}, "scalers.yaml", "")
	if err != nil {
		panic(err)
	}
	ls := cfg.Scalers[0].LabelSets[0]
	out, reps, err := scalerconfig.EditImages(src, []scalerconfig.ImageEdit{
		{Pos: ls.ImagePos, End: ls.ImageEnd, Image: "quay.io/kici-dev/kici-agent:0.20.0"},
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d:%d %s\n", reps[0].Pos.Line, reps[0].Pos.Column, reps[0].Text)
	fmt.Printf("%q\n", bytes.SplitAfter(out, []byte("\n"))[7])

	block := cfg.Scalers[0].LabelSets[1]
	_, _, err = scalerconfig.EditImages(src, []scalerconfig.ImageEdit{
		{Pos: block.ImagePos, End: block.ImageEnd, Image: "quay.io/kici-dev/kici-agent:0.20.0"},
	})
	fmt.Println(errors.Is(err, scalerconfig.ErrBlockScalar), err)
	// Output:
	// 8:16 "quay.io/kici-dev/kici-agent:0.20.0"
	// "        image: \"quay.io/kici-dev/kici-agent:0.20.0\"\r\n"
	// true scalerconfig.EditImages("quay.io/kici-dev/kici-agent:0.20.0"): at 10:16: the image is a block scalar (| or >): edit it by hand
}

// The replacements say what EditImages changed, for a report: here as a
// SARIF-like fix, the region and its new text.
func ExampleReplacement() {
	src := []byte("version: 1\nscalers:\n  - name: docker\n    type: container\n    maxAgents: 4\n    labelSets:\n      - labels: [linux]\n        image: 'quay.io/kici-dev/kici-agent:latest'\n")
	cfg, err := scalerconfig.Load(fstest.MapFS{"scalers.yaml": {Data: src}}, "scalers.yaml", "")
	if err != nil {
		panic(err)
	}
	ls := cfg.Scalers[0].LabelSets[0]
	_, reps, err := scalerconfig.EditImages(src, []scalerconfig.ImageEdit{
		{Pos: ls.ImagePos, End: ls.ImageEnd, Image: "quay.io/kici-dev/kici-agent:0.20.0"},
	})
	if err != nil {
		panic(err)
	}
	for _, r := range reps {
		fmt.Printf("%s to %d:%d: %s\n", r.Pos, r.End.Line, r.End.Column, r.Text)
	}
	// Output:
	// scalers.yaml:8:16 to 8:52: 'quay.io/kici-dev/kici-agent:0.20.0'
}
