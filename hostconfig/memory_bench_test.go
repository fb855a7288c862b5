package hostconfig_test

import (
	"testing"

	"github.com/kicikit/kicikit/hostconfig"
)

// benchInputs are bench/'s memory strings, where ParseMemory runs beside
// github.com/docker/go-units' RAMInBytes on the same inputs.
var benchInputs = []string{"512m", "1.5g", "64k", "2G", "256 M", "0.75g", "8589934591g", "1.048576m"}

func BenchmarkParseMemory(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range benchInputs {
			if _, err := hostconfig.ParseMemory(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}
