// Package bench measures kicikit's parsers beside the libraries a Go
// developer would otherwise reach for, on the same inputs, in one run.
//
// It is a module of its own so that the library's go.mod never requires the
// peers it is compared with. Each benchmark has one sub-benchmark per
// implementation, named impl=<name>, so that benchstat -col /impl sets them
// side by side; bench/run does that.
package bench

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/Masterminds/semver/v3"
	"github.com/distribution/reference"
	units "github.com/docker/go-units"
	"github.com/google/go-containerregistry/pkg/name"
	goversion "github.com/hashicorp/go-version"
	xsemver "golang.org/x/mod/semver"

	"github.com/kicikit/kicikit/agentversion"
	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/imageref"
	"github.com/kicikit/kicikit/preflight"
	"github.com/kicikit/kicikit/scalerconfig"
)

// versionPairs are written with a leading v, which every implementation
// accepts (x/mod/semver requires it; agentversion.Compare drops one). They
// are the pairs of agentversion's own BenchmarkCompare. want is the answer of
// the three semver libraries; kicikit differs only where the pair differs in
// a "-suffix", which KiCI reads as a build counter, not a prerelease.
var versionPairs = []struct {
	a, b          string
	want, kicikit int
}{
	{"v0.19.0", "v0.20.0", -1, -1},
	{"v0.20.0", "v0.20.0", 0, 0},
	{"v1.2.3", "v1.2.10", -1, -1},
	{"v10.20.30", "v10.20.29", 1, 1},
	{"v2.0.0", "v1.99.99", 1, 1},
	{"v0.5.0-9159", "v0.5.0", -1, 0},
}

func BenchmarkCompare(b *testing.B) {
	impls := []struct {
		name    string
		compare func(a, b string) (int, error)
	}{
		{"kicikit", agentversion.Compare},
		{"xmod", func(a, b string) (int, error) {
			// semver.Compare reads an invalid version as less than any
			// valid one; the check below rules that out with IsValid.
			return xsemver.Compare(a, b), nil
		}},
		{"masterminds", func(a, b string) (int, error) {
			v, err := semver.NewVersion(a)
			if err != nil {
				return 0, err
			}
			w, err := semver.NewVersion(b)
			if err != nil {
				return 0, err
			}
			return v.Compare(w), nil
		}},
		{"hashicorp", func(a, b string) (int, error) {
			v, err := goversion.NewVersion(a)
			if err != nil {
				return 0, err
			}
			w, err := goversion.NewVersion(b)
			if err != nil {
				return 0, err
			}
			return v.Compare(w), nil
		}},
	}
	for _, impl := range impls {
		for _, p := range versionPairs {
			if !xsemver.IsValid(p.a) || !xsemver.IsValid(p.b) {
				b.Fatalf("x/mod/semver rejects %q or %q", p.a, p.b)
			}
			want := p.want
			if impl.name == "kicikit" {
				want = p.kicikit
			}
			if got, err := impl.compare(p.a, p.b); err != nil || got != want {
				b.Fatalf("%s: compare(%q, %q) = %d, %v; want %d", impl.name, p.a, p.b, got, err, want)
			}
		}
		b.Run("impl="+impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range versionPairs {
					impl.compare(p.a, p.b) //nolint:errcheck // checked above
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(versionPairs)), "ns/pair")
		})
	}
}

// memoryStrings are those of hostconfig's own BenchmarkParseMemory: both
// grammars accept them, with the same value (checked below), from a plain
// "512m" to a 13-digit count of gigabytes and a six-digit fraction.
var memoryStrings = []string{"512m", "1.5g", "64k", "2G", "256 M", "0.75g", "8589934591g", "1.048576m"}

func BenchmarkParseMemory(b *testing.B) {
	impls := []struct {
		name  string
		parse func(string) (int64, error)
	}{
		{"kicikit", hostconfig.ParseMemory},
		{"gounits", units.RAMInBytes},
	}
	for _, s := range memoryStrings {
		ours, err1 := hostconfig.ParseMemory(s)
		theirs, err2 := units.RAMInBytes(s)
		if err1 != nil || err2 != nil || ours != theirs {
			b.Fatalf("%q: kicikit %d, %v; go-units %d, %v", s, ours, err1, theirs, err2)
		}
	}
	for _, impl := range impls {
		b.Run("impl="+impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range memoryStrings {
					impl.parse(s) //nolint:errcheck // checked above
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(memoryStrings)), "ns/string")
		})
	}
}

// imageRefs are the references of BenchmarkParseImage, in two sets: short
// ones, as most configs write them, and long and digest-pinned ones, whose
// validation reads more bytes (a path of 200 bytes, a tag of 128, sha384
// and sha512 digests, an IPv6 registry).
var imageRefs = []struct {
	set  string
	refs []string
}{
	{"short", []string{
		"quay.io/kici-dev/kici-agent:0.20.0",
		"kici-agent",
		"registry.example.com:5000/mirror/kici-agent@sha256:" + hex64,
		"docker.io/library/ubuntu:22.04",
		"localhost/kici-agent:latest",
	}},
	{"long", []string{
		"registry.example.com:5000/kici-dev/ci/agents/linux/amd64/kici-agent:0.20.0-rc.1@sha256:" + hex64,
		"ghcr.io/kici-dev/" + strings.Repeat("agents-", 26) + "pool/kici-agent@sha512:" + hex64 + hex64,
		"[2001:db8::1]:5000/kici/kici-agent:0.20.0@sha384:" + hex64 + hex64[:32],
		"kici-agent:0.20.0-" + strings.Repeat("build.", 18) + "x1234@sha256:" + hex64,
		"index.docker.io/kici/kici-agent:latest@sha256:" + hex64,
	}},
}

const hex64 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func BenchmarkParseImage(b *testing.B) {
	impls := []struct {
		name  string
		parse func(string) error
	}{
		{"kicikit", func(s string) error { _, err := imageref.Parse(s); return err }},
		{"distribution", func(s string) error { _, err := reference.ParseNormalizedNamed(s); return err }},
		{"ggcr", func(s string) error { _, err := name.ParseReference(s); return err }},
	}
	for _, set := range imageRefs {
		for _, s := range set.refs {
			checkSameRef(b, s)
		}
		for _, impl := range impls {
			for _, s := range set.refs {
				if err := impl.parse(s); err != nil {
					b.Fatalf("%s rejects %q: %v", impl.name, s, err)
				}
			}
			b.Run("set="+set.set+"/impl="+impl.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					for _, s := range set.refs {
						impl.parse(s) //nolint:errcheck // checked above
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(set.refs)), "ns/ref")
			})
		}
	}
}

// checkSameRef checks that kicikit reads s as distribution/reference does:
// the same fully qualified name, tag and digest.
func checkSameRef(b *testing.B, s string) {
	b.Helper()
	named, err := reference.ParseNormalizedNamed(s)
	if err != nil {
		b.Fatalf("distribution rejects %q: %v", s, err)
	}
	var tag, digest string
	if t, ok := named.(reference.Tagged); ok {
		tag = t.Tag()
	}
	if d, ok := named.(reference.Digested); ok {
		digest = d.Digest().String()
	}
	r, err := imageref.Parse(s)
	if err != nil || r.Name() != named.Name() || r.Tag != tag || r.Digest != digest {
		b.Fatalf("%q: kicikit %q, %q, %q, %v; distribution %q, %q, %q", s, r.Name(), r.Tag, r.Digest, err, named.Name(), tag, digest)
	}
}

// scalerConfig returns a config of n container label sets, as an operator
// who keeps most agents pinned to the target writes it: nine in ten pinned,
// one in ten on a moving tag, so the check reports a finding for a tenth.
func scalerConfig(n int) scalerconfig.Config {
	sets := make([]scalerconfig.LabelSet, n)
	for i := range sets {
		image := "quay.io/kici-dev/kici-agent:0.20.0"
		if i%10 == 9 {
			image = "quay.io/kici-dev/kici-agent:latest"
		}
		sets[i] = scalerconfig.LabelSet{Labels: []string{"linux", "pool-" + strconv.Itoa(i)}, Image: image}
	}
	return scalerconfig.Config{Scalers: []scalerconfig.Scaler{{Name: "docker", Type: scalerconfig.TypeContainer, LabelSets: sets}}}
}

// BenchmarkCheckAgentImages reports the cost per label set (ns/labelset),
// which stays flat as the config grows, beside the floor a check that
// validates each image and compares its tag with the target cannot go
// under (impl=parse-compare: one imageref.Parse of every label set's image
// and one agentversion.Compare of its tag with the target), and beside one
// reference.ParseNormalizedNamed of every image (impl=distribution), what
// the validation alone cost when imageref.Parse called it.
func BenchmarkCheckAgentImages(b *testing.B) {
	const target = "0.20.0"
	for _, n := range []int{10, 1000, 100000} {
		cfg := scalerConfig(n)
		in := preflight.Input{Config: &cfg, Location: scalerconfig.Location{Path: "/etc/kici/scalers.yaml"}, TargetVersion: target}
		if got := len(preflight.CheckAgentImages(in)); got != n/10 {
			b.Fatalf("n=%d: %d findings, want %d", n, got, n/10)
		}
		b.Run(fmt.Sprintf("n=%d/impl=check", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				preflight.CheckAgentImages(in)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/labelset")
		})
		b.Run(fmt.Sprintf("n=%d/impl=parse-compare", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, ls := range cfg.Scalers[0].LabelSets {
					ref, _ := imageref.Parse(ls.Image)    // valid by construction
					agentversion.Compare(ref.Tag, target) //nolint:errcheck // "latest" is no release: a tenth fail, as in the check
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/labelset")
		})
		b.Run(fmt.Sprintf("n=%d/impl=distribution", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, ls := range cfg.Scalers[0].LabelSets {
					reference.ParseNormalizedNamed(ls.Image) //nolint:errcheck // valid by construction
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/labelset")
		})
	}
}
