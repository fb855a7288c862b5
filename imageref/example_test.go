package imageref_test

import (
	"errors"
	"fmt"

	"github.com/kicikit/kicikit/imageref"
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
