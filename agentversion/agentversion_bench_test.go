package agentversion

import "testing"

// benchPairs are bench/'s pairs, where Compare runs beside
// golang.org/x/mod/semver and other semver libraries; the "v" they carry
// for semver's sake is one Compare strips.
var benchPairs = [][2]string{
	{"v0.19.0", "v0.20.0"},
	{"v0.20.0", "v0.20.0"},
	{"v1.2.3", "v1.2.10"},
	{"v10.20.30", "v10.20.29"},
	{"v2.0.0", "v1.99.99"},
	{"v0.5.0-9159", "v0.5.0"},
}

func BenchmarkCompare(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range benchPairs {
			if _, err := Compare(p[0], p[1]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("0.20.0-9159"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseTarget(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ParseTarget(" v0.20.0-9159\n"); err != nil {
			b.Fatal(err)
		}
	}
}
