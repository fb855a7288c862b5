package imageref

import (
	"strings"
	"testing"
)

// benchRefs are references as operators write them, from a familiar name
// to a long path pinned to a sha512 digest.
var benchRefs = []string{
	"quay.io/kici-dev/kici-agent:0.20.0",
	"kici-agent",
	"registry.example.com:5000/mirror/kici-agent@" + sha256,
	"docker.io/library/ubuntu:22.04",
	"localhost/kici-agent:latest",
	"registry.example.com:5000/kici-dev/ci/agents/linux/amd64/kici-agent:0.20.0-rc.1@" + sha256,
	"[2001:db8::1]:5000/kici/kici-agent:0.20.0@sha384:" + hex64 + hex64[:32],
	"ghcr.io/kici-dev/" + strings.Repeat("agents-", 30) + "kici-agent@sha512:" + hex64 + hex64,
}

func BenchmarkParse(b *testing.B) {
	for _, s := range benchRefs {
		if _, err := Parse(s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range benchRefs {
			Parse(s) //nolint:errcheck // checked above
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(benchRefs)), "ns/ref")
}
