package yamljs_test

import (
	"errors"
	"fmt"

	"github.com/kicikit/kicikit/internal/yamljs"
)

func ExampleParse() {
	src := []byte("scalers:\n  - name: docker\n    labelSets:\n      - labels: [Docker, yes]\n        image: 'ghcr.io/kici-dev/kici-agent:0.20.0'\n")
	root, err := yamljs.Parse(src)
	if err != nil {
		fmt.Println(err)
		return
	}
	set := root.Pairs[0].Value.Items[0].Pairs[1].Value.Items[0]
	labels := set.Pairs[0].Value
	fmt.Println(labels.Items[1].Kind, labels.Items[1].Str) // yes is a string in YAML 1.2
	image := set.Pairs[1].Value
	fmt.Printf("%s at %d:%d is %q\n", image.Str, image.Pos.Line, image.Pos.Column, src[image.Pos.Offset:image.End.Offset])
	// Output:
	// string yes
	// ghcr.io/kici-dev/kici-agent:0.20.0 at 5:16 is "'ghcr.io/kici-dev/kici-agent:0.20.0'"
}

func ExampleParse_error() {
	_, err := yamljs.Parse([]byte("name: a\nname: b\n---\nname: c\n"))
	var se *yamljs.SyntaxError
	if errors.As(err, &se) {
		for _, p := range se.Problems {
			fmt.Println(p.Code, p)
		}
	}
	fmt.Println(errors.Is(err, yamljs.ErrDuplicateKey))
	fmt.Print(se.Thrown) // as the orchestrator prints it
	// Output:
	// DUPLICATE_KEY 2:1: Map keys must be unique
	// MULTIPLE_DOCS 3:1: Source contains multiple documents; please use YAML.parseAllDocuments()
	// true
	// Map keys must be unique at line 2, column 1:
	//
	// name: a
	// name: b
	// ^
}

func ExampleParse_keys() {
	root, _ := yamljs.Parse([]byte("b: 1\n10: x\n2: y\n~: null key\n[a, b]: seq key\n"))
	for _, p := range root.Pairs {
		fmt.Printf("%q ", p.Key)
	}
	// Output:
	// "2" "10" "b" "" "[ a, b ]"
}
