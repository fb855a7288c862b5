package hostconfig_test

import (
	"testing"

	"github.com/docker/go-units"
	"github.com/kicikit/kicikit/hostconfig"
)

// benchInputs are memory strings both ParseMemory and go-units' RAMInBytes
// accept with the same value, so the two benchmarks do the same work.
var benchInputs = []string{"512m", "1.5g", "64k", "2G", "256 M", "0.75g", "8589934591g", "1.048576m"}

func TestBenchInputsAgree(t *testing.T) {
	for _, s := range benchInputs {
		want, err := units.RAMInBytes(s)
		if err != nil {
			t.Fatalf("RAMInBytes(%q): %v", s, err)
		}
		got, err := hostconfig.ParseMemory(s)
		if err != nil || got != want {
			t.Errorf("ParseMemory(%q) = %d, %v; RAMInBytes = %d", s, got, err, want)
		}
	}
}

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

// BenchmarkRAMInBytes is the comparison: github.com/docker/go-units, which
// the Docker CLI uses for --memory, on the same inputs.
func BenchmarkRAMInBytes(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range benchInputs {
			if _, err := units.RAMInBytes(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}
