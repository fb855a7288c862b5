package agentversion_test

import (
	"errors"
	"fmt"

	"github.com/kicikit/kicikit/agentversion"
)

func ExampleParse() {
	for _, s := range []string{"0.20.0", " 0.5.0-9159\n", "v0.20.0", "0.20", "1.2.3+build"} {
		v, err := agentversion.Parse(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(v)
	}
	// Output:
	// 0.20.0
	// 0.5.0
	// agentversion.Parse("v0.20.0"): a part is not a run of ASCII digits
	// agentversion.Parse("0.20"): not three dot-separated parts
	// agentversion.Parse("1.2.3+build"): a part is not a run of ASCII digits
}

func ExampleParse_reason() {
	_, err := agentversion.Parse("0.99999999999999999999.0")
	var pe *agentversion.ParseError
	if errors.As(err, &pe) {
		fmt.Printf("%q: %v\n", pe.Input, pe.Reason)
	}
	fmt.Println(errors.Is(err, agentversion.ErrRange))
	// Output:
	// "0.99999999999999999999.0": a part is too large
	// true
}

// An upgrade tool reads its target version once, with ParseTarget, and
// prints the text it returns wherever it names the target, as the
// orchestrator does.
func ExampleParseTarget() {
	for _, s := range []string{"0.20.0", " v0.20.0-rc.1\n", "\u00850.20.0", "latest"} {
		v, text, err := agentversion.ParseTarget(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%q: version %v, upgrade target %s\n", s, v, text)
	}
	// Output:
	// "0.20.0": version 0.20.0, upgrade target 0.20.0
	// " v0.20.0-rc.1\n": version 0.20.0, upgrade target 0.20.0-rc.1
	// agentversion.ParseTarget("\u00850.20.0"): a part is not a run of ASCII digits
	// agentversion.ParseTarget("latest"): not three dot-separated parts
}

func ExampleCompare() {
	pairs := [][2]string{
		{"v0.19.0", "0.20.0"},
		{"0.20.0-5", "v0.20.0"},
		{"v 0.21.0", "0.20.0"},
		{"latest", "0.20.0"},
	}
	for _, p := range pairs {
		c, err := agentversion.Compare(p[0], p[1])
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%q vs %q: %d\n", p[0], p[1], c)
	}
	// Output:
	// "v0.19.0" vs "0.20.0": -1
	// "0.20.0-5" vs "v0.20.0": 0
	// "v 0.21.0" vs "0.20.0": 1
	// agentversion.Compare("latest", "0.20.0"): a: not three dot-separated parts
}

func ExampleCompare_side() {
	_, err := agentversion.Compare("0.20.0", " v0.19.0")
	var ce *agentversion.CompareError
	if errors.As(err, &ce) {
		fmt.Println(ce.ErrA == nil, ce.ErrB.Reason)
	}
	// Output:
	// true a part is not a run of ASCII digits
}

func ExampleVersion_Compare() {
	installed := agentversion.MustParse("0.19.3")
	target := agentversion.MustParse("0.20.0")
	switch installed.Compare(target) {
	case -1:
		fmt.Println(installed, "is older than", target)
	case 0:
		fmt.Println(installed, "is", target)
	case 1:
		fmt.Println(installed, "is newer than", target)
	}
	// Output:
	// 0.19.3 is older than 0.20.0
}

func ExampleVersion_Semver() {
	fmt.Println(agentversion.MustParse("01.2.3-9159").Semver())
	// Output:
	// v1.2.3
}
