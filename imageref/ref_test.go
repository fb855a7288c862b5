package imageref

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/distribution/reference"
	godigest "github.com/opencontainers/go-digest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	hex64  = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	sha256 = "sha256:" + hex64
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		in       string
		want     Ref
		fullName string // Name()
		familiar string // FamiliarName()
	}{
		{"familiar", "kici-agent", Ref{"kici-agent", "", ""}, "docker.io/library/kici-agent", "kici-agent"},
		{"familiar tagged", "kici-agent:0.20.0", Ref{"kici-agent", "0.20.0", ""}, "docker.io/library/kici-agent", "kici-agent"},
		{"hub namespace", "kici/kici-agent:latest", Ref{"kici/kici-agent", "latest", ""}, "docker.io/kici/kici-agent", "kici/kici-agent"},
		{"docker.io official", "docker.io/kici-agent", Ref{"docker.io/kici-agent", "", ""}, "docker.io/library/kici-agent", "kici-agent"},
		{"docker.io library", "docker.io/library/kici-agent", Ref{"docker.io/library/kici-agent", "", ""}, "docker.io/library/kici-agent", "kici-agent"},
		{"library nested stays", "docker.io/library/a/kici-agent", Ref{"docker.io/library/a/kici-agent", "", ""}, "docker.io/library/a/kici-agent", "library/a/kici-agent"},
		{"legacy index", "index.docker.io/kici/kici-agent:1", Ref{"index.docker.io/kici/kici-agent", "1", ""}, "docker.io/kici/kici-agent", "kici/kici-agent"},
		{"legacy index official", "index.docker.io/kici-agent", Ref{"index.docker.io/kici-agent", "", ""}, "docker.io/library/kici-agent", "kici-agent"},
		{"quay", "quay.io/kici/kici-agent:0.20.0", Ref{"quay.io/kici/kici-agent", "0.20.0", ""}, "quay.io/kici/kici-agent", "quay.io/kici/kici-agent"},
		{"registry port", "registry.local:5000/kici-agent", Ref{"registry.local:5000/kici-agent", "", ""}, "registry.local:5000/kici-agent", "registry.local:5000/kici-agent"},
		{"registry port and tag", "registry.local:5000/kici-agent:v1", Ref{"registry.local:5000/kici-agent", "v1", ""}, "registry.local:5000/kici-agent", "registry.local:5000/kici-agent"},
		{"localhost", "localhost/kici-agent", Ref{"localhost/kici-agent", "", ""}, "localhost/kici-agent", "localhost/kici-agent"},
		{"localhost port", "localhost:5000/kici/kici-agent:x", Ref{"localhost:5000/kici/kici-agent", "x", ""}, "localhost:5000/kici/kici-agent", "localhost:5000/kici/kici-agent"},
		{"ipv6", "[::1]:5000/kici-agent:1", Ref{"[::1]:5000/kici-agent", "1", ""}, "[::1]:5000/kici-agent", "[::1]:5000/kici-agent"},
		{"upper-case host", "Registry/kici-agent", Ref{"Registry/kici-agent", "", ""}, "Registry/kici-agent", "Registry/kici-agent"},
		{"bare host is a hub namespace", "registry/kici-agent", Ref{"registry/kici-agent", "", ""}, "docker.io/registry/kici-agent", "registry/kici-agent"},
		{"digest", "kici-agent@" + sha256, Ref{"kici-agent", "", sha256}, "docker.io/library/kici-agent", "kici-agent"},
		{"tag and digest", "quay.io/kici/kici-agent:0.20.0@" + sha256, Ref{"quay.io/kici/kici-agent", "0.20.0", sha256}, "quay.io/kici/kici-agent", "quay.io/kici/kici-agent"},
		{"sha512 digest", "kici-agent@sha512:" + hex64 + hex64, Ref{"kici-agent", "", "sha512:" + hex64 + hex64}, "docker.io/library/kici-agent", "kici-agent"},
		{"sha384 digest", "kici-agent@sha384:" + hex64 + hex64[:32], Ref{"kici-agent", "", "sha384:" + hex64 + hex64[:32]}, "docker.io/library/kici-agent", "kici-agent"},
		{"port-like tag", "localhost:5000", Ref{"localhost", "5000", ""}, "docker.io/library/localhost", "localhost"},
		{"hex name with tag", hex64 + ":1", Ref{hex64, "1", ""}, "docker.io/library/" + hex64, hex64},
		{"longest tag", "kici-agent:_" + strings.Repeat("a", 127), Ref{"kici-agent", "_" + strings.Repeat("a", 127), ""}, "docker.io/library/kici-agent", "kici-agent"},
		{"first element no registry", "a_b.c/kici-agent:0.20.0", Ref{"a_b.c/kici-agent", "0.20.0", ""}, "a_b.c/kici-agent", "a_b.c/kici-agent"},
		{"first element no registry, deeper", "0_0.0/kici/kici-agent", Ref{"0_0.0/kici/kici-agent", "", ""}, "0_0.0/kici/kici-agent", "0_0.0/kici/kici-agent"},
		{"upper-case tag", "kici-agent:LATEST", Ref{"kici-agent", "LATEST", ""}, "docker.io/library/kici-agent", "kici-agent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.in, got.String())
			assert.Equal(t, tt.fullName, got.Name())
			assert.Equal(t, tt.familiar, got.FamiliarName())
			if got.Domain() == "" {
				assert.Equal(t, got.Path(), got.Name())
			} else {
				assert.Equal(t, got.Domain()+"/"+got.Path(), got.Name())
			}

			named, err := reference.ParseNormalizedNamed(tt.in)
			require.NoError(t, err)
			assertAgreesWithReference(t, named, got)
		})
	}
}

// assertAgreesWithReference checks a Ref against what the reference package
// parsed from the same string.
func assertAgreesWithReference(t testing.TB, named reference.Named, got Ref) {
	t.Helper()
	assert.Equal(t, named.Name(), got.Name())
	assert.Equal(t, reference.Domain(named), got.Domain())
	assert.Equal(t, reference.Path(named), got.Path())
	assert.Equal(t, reference.FamiliarName(named), got.FamiliarName())
	var tag, dgst string
	if tagged, ok := named.(reference.Tagged); ok {
		tag = tagged.Tag()
	}
	if digested, ok := named.(reference.Digested); ok {
		dgst = digested.Digest().String()
	}
	assert.Equal(t, tag, got.Tag)
	assert.Equal(t, dgst, got.Digest)
}

func TestParseError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		in     string
		reason Reason
		refErr error // a reference package sentinel the error also matches; nil: none
		msg    string
	}{
		{"empty", "", ErrNameEmpty, reference.ErrReferenceInvalidFormat,
			`imageref.Parse(""): empty repository name`},
		{"only a tag", ":latest", ErrNameEmpty, reference.ErrReferenceInvalidFormat,
			`imageref.Parse(":latest"): empty repository name`},
		{"only a digest", "@" + sha256, ErrNameEmpty, reference.ErrReferenceInvalidFormat,
			`imageref.Parse("@sha256:` + hex64[:56] + `"... (72 bytes)): empty repository name`},
		{"upper-case familiar name", "Kici-Agent", ErrNameUppercase, nil,
			`imageref.Parse("Kici-Agent"): repository name must be lowercase`},
		// reference.ParseNormalizedNamed reports this with a plain string,
		// not reference.ErrNameContainsUppercase.
		{"upper-case path", "quay.io/Kici/kici-agent:0.19.0", ErrNameUppercase, nil,
			`imageref.Parse("quay.io/Kici/kici-agent:0.19.0"): repository name must be lowercase`},
		{"upper-case name before a bad tag", "KICI:bad tag", ErrNameUppercase, nil,
			`imageref.Parse("KICI:bad tag"): repository name must be lowercase`},
		{"empty tag", "kici-agent:", ErrTagInvalid, reference.ErrReferenceInvalidFormat,
			`imageref.Parse("kici-agent:"): invalid tag`},
		{"tag with a space", "kici-agent: 0.19.0", ErrTagInvalid, reference.ErrReferenceInvalidFormat,
			`imageref.Parse("kici-agent: 0.19.0"): invalid tag`},
		{"tag starting with a dash", "kici-agent:-rc", ErrTagInvalid, reference.ErrReferenceInvalidFormat,
			`imageref.Parse("kici-agent:-rc"): invalid tag`},
		{"tag too long", "kici-agent:" + strings.Repeat("a", 129), ErrTagInvalid, reference.ErrReferenceInvalidFormat,
			`imageref.Parse("kici-agent:` + strings.Repeat("a", 53) + `"... (140 bytes)): invalid tag`},
		{"plus in tag", "kici-agent:1.2.3+b", ErrTagInvalid, reference.ErrReferenceInvalidFormat,
			`imageref.Parse("kici-agent:1.2.3+b"): invalid tag`},
		{"bad tag before a bad digest", "kici-agent:a b@x", ErrTagInvalid, reference.ErrReferenceInvalidFormat,
			`imageref.Parse("kici-agent:a b@x"): invalid tag`},
		{"empty digest", "kici-agent@", ErrDigestInvalid, reference.ErrReferenceInvalidFormat,
			`imageref.Parse("kici-agent@"): invalid digest`},
		{"empty digest after a tag", "kici-agent:latest@", ErrDigestInvalid, reference.ErrReferenceInvalidFormat,
			`imageref.Parse("kici-agent:latest@"): invalid digest`},
		{"short digest", "kici-agent@sha256:" + hex64[:40], ErrDigestInvalid, nil,
			`imageref.Parse("kici-agent@sha256:` + hex64[:40] + `"): invalid digest`},
		{"unsupported algorithm", "kici-agent@md5:" + hex64[:32], ErrDigestInvalid, nil,
			`imageref.Parse("kici-agent@md5:` + hex64[:32] + `"): invalid digest`},
		{"upper-case algorithm", "kici-agent@SHA256:" + hex64, ErrDigestInvalid, nil,
			`imageref.Parse("kici-agent@SHA256:` + hex64[:46] + `"... (82 bytes)): invalid digest`},
		{"two digests", "kici-agent@" + sha256 + "@" + sha256, ErrDigestInvalid, reference.ErrReferenceInvalidFormat,
			`imageref.Parse("kici-agent@sha256:` + hex64[:46] + `"... (154 bytes)): invalid digest`},
		{"space in name", "kici agent", ErrReferenceInvalid, reference.ErrReferenceInvalidFormat,
			`imageref.Parse("kici agent"): invalid reference format`},
		{"leading space", " kici-agent", ErrReferenceInvalid, reference.ErrReferenceInvalidFormat,
			`imageref.Parse(" kici-agent"): invalid reference format`},
		{"trailing separator", "kici-agent_", ErrReferenceInvalid, reference.ErrReferenceInvalidFormat,
			`imageref.Parse("kici-agent_"): invalid reference format`},
		{"port without a path", "localhost:5000:0.20.0", ErrReferenceInvalid, reference.ErrReferenceInvalidFormat,
			`imageref.Parse("localhost:5000:0.20.0"): invalid reference format`},
		{"name too long", "kici/" + strings.Repeat("a", 251), ErrReferenceInvalid, reference.ErrNameTooLong,
			`imageref.Parse("kici/` + strings.Repeat("a", 59) + `"... (256 bytes)): invalid reference format: repository name must not be more than 255 characters`},
		// Found by FuzzParse: in lower case this is a bare identifier, which
		// is not a reference, but with a tag it would be; the reference
		// package too says "must be lowercase".
		{"upper-case identifier", "000000000000000000000000000000000000000000000000000000000000A000", ErrNameUppercase, nil,
			`imageref.Parse("000000000000000000000000000000000000000000000000000000000000A000"): repository name must be lowercase`},
		{"64 bytes, not an identifier", strings.Repeat("a", 62) + " b", ErrReferenceInvalid, reference.ErrReferenceInvalidFormat,
			`imageref.Parse("` + strings.Repeat("a", 62) + ` b"): invalid reference format`},
		{"identifier", hex64, ErrReferenceInvalid, nil,
			`imageref.Parse("` + hex64 + `"): invalid reference format: 64 hexadecimal digits name an image by its ID, not a repository`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(tt.in)
			assert.Equal(t, Ref{}, got)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tt.in, pe.Input)
			assert.Equal(t, tt.reason, pe.Reason)
			require.Error(t, pe.Err)
			assert.ErrorIs(t, err, tt.reason)
			if tt.refErr != nil {
				assert.ErrorIs(t, err, tt.refErr)
			}
			assert.EqualError(t, err, tt.msg)
			for _, other := range []Reason{ErrNameEmpty, ErrNameUppercase, ErrTagInvalid, ErrDigestInvalid, ErrReferenceInvalid} {
				if other != tt.reason {
					assert.False(t, errors.Is(err, other), "also %v", other)
				}
			}
		})
	}
}

func TestParseErrorWithoutErr(t *testing.T) {
	t.Parallel()
	e := &ParseError{Input: "x y", Reason: ErrReferenceInvalid}
	assert.Equal(t, `imageref.Parse("x y"): invalid reference format`, e.Error())
	assert.Equal(t, []error{ErrReferenceInvalid}, e.Unwrap())
}

func TestReasonError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		r    Reason
		want string
	}{
		{ErrNameEmpty, "empty repository name"},
		{ErrNameUppercase, "repository name must be lowercase"},
		{ErrTagInvalid, "invalid tag"},
		{ErrDigestInvalid, "invalid digest"},
		{ErrReferenceInvalid, "invalid reference format"},
		{0, "reason 0"},
		{200, "reason 200"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.r.Error())
		})
	}
}

func TestMustParse(t *testing.T) {
	t.Parallel()
	assert.Equal(t, Ref{"quay.io/kici/kici-agent", "0.20.0", ""}, MustParse("quay.io/kici/kici-agent:0.20.0"))
	assert.PanicsWithError(t, `imageref.Parse("kici-agent:"): invalid tag`, func() {
		MustParse("kici-agent:")
	})
}

// TestSplitLenient covers each branch of the orchestrator's parseImageRef,
// on strings that need not be valid.
func TestSplitLenient(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want Parts
	}{
		{"no tag", "kici-agent", Parts{Repository: "kici-agent"}},
		{"tag", "kici-agent:1", Parts{Repository: "kici-agent", Tag: "1", HasTag: true}},
		{"empty tag", "kici-agent:", Parts{Repository: "kici-agent", HasTag: true}},
		{"port is not a tag", "host:5000/kici-agent", Parts{Repository: "host:5000/kici-agent"}},
		{"port and tag", "host:5000/kici-agent:1", Parts{Repository: "host:5000/kici-agent", Tag: "1", HasTag: true}},
		{"last colon", "a:b:c", Parts{Repository: "a:b", Tag: "c", HasTag: true}},
		{"digest", "kici-agent@sha256:x", Parts{Repository: "kici-agent", Digest: "sha256:x", HasDigest: true}},
		{"empty digest", "kici-agent@", Parts{Repository: "kici-agent", HasDigest: true}},
		{"tag and digest", "kici-agent:1@sha256:x", Parts{Repository: "kici-agent", Tag: "1", HasTag: true, Digest: "sha256:x", HasDigest: true}},
		{"first at", "a@b/c:d@e", Parts{Repository: "a", Digest: "b/c:d@e", HasDigest: true}},
		{"empty", "", Parts{}},
		{"colon only", ":", Parts{HasTag: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Split(tt.in))
		})
	}
}

func TestIsAgentImage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		repository string
		want       bool
	}{
		{"kici-agent", true},
		{"quay.io/kici/kici-agent", true},
		{"registry.local:5000/mirror/kici-agent", true},
		{"/kici-agent", true},
		{"kici-agent/", false},
		{"kici-agent-dev", false},
		{"quay.io/kici-agent/other", false},
		{"KICI-AGENT", false},
		{"", false},
	}
	assert.True(t, MustParse("quay.io/kici/kici-agent:0.20.0").IsAgent())
	assert.False(t, MustParse("ubuntu").IsAgent())
	for _, tt := range tests {
		t.Run(tt.repository, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, IsAgentImage(tt.repository))
		})
	}
}

func TestRefString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ref  Ref
		want string
	}{
		{"zero", Ref{}, ""},
		{"repository", Ref{Repository: "kici-agent"}, "kici-agent"},
		{"tag", Ref{Repository: "kici-agent", Tag: "1"}, "kici-agent:1"},
		{"digest", Ref{Repository: "kici-agent", Digest: sha256}, "kici-agent@" + sha256},
		{"both", Ref{Repository: "kici-agent", Tag: "1", Digest: sha256}, "kici-agent:1@" + sha256},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.ref.String())
		})
	}
}

// TestNameOfUnparsedRef checks that the name methods never fail, even on a
// Ref that Parse would not return.
func TestNameOfUnparsedRef(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name             string
		ref              Ref
		domain, path     string
		fullName, family string
	}{
		{"zero", Ref{}, "docker.io", "library/", "docker.io/library/", ""},
		{"slash only", Ref{Repository: "/"}, "docker.io", "/", "docker.io//", "/"},
		{"hub namespace", Ref{Repository: "a/b/c"}, "docker.io", "a/b/c", "docker.io/a/b/c", "a/b/c"},
		{"no registry", Ref{Repository: "a_b.c/d"}, "", "a_b.c/d", "a_b.c/d", "a_b.c/d"},
		{"upper-case no registry", Ref{Repository: "A_B/d"}, "", "A_B/d", "A_B/d", "A_B/d"},
		{"upper-case registry", Ref{Repository: "Reg/d"}, "Reg", "d", "Reg/d", "Reg/d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.domain, tt.ref.Domain())
			assert.Equal(t, tt.path, tt.ref.Path())
			assert.Equal(t, tt.fullName, tt.ref.Name())
			assert.Equal(t, tt.family, tt.ref.FamiliarName())
		})
	}
}

// TestParseLengthLimits proves the limits Parse applies before the
// reference package reads its input against the reference package itself:
// the longest path, tag and digest are accepted, one byte more never is,
// and the reason is the one the reference package's verdict gives.
func TestParseLengthLimits(t *testing.T) {
	t.Parallel()
	path := "kici/" + strings.Repeat("a", 250) // 255 bytes
	tag := "_" + strings.Repeat("a", 127)      // 128 bytes
	digest := "sha512:" + hex64 + hex64        // 135 bytes
	registry := strings.Repeat("r.", 5000) + "r"
	tests := []struct {
		name   string
		in     string
		reason Reason // 0: valid
		err    error  // the reference package's sentinel in the error; nil: its own text
	}{
		{"longest path", "q.io/" + path, 0, nil},
		{"longest familiar name", strings.Repeat("a", 247), 0, nil}, // library/ makes 255
		{"longest tag", "kici-agent:" + tag, 0, nil},
		{"longest digest", "kici-agent@" + digest, 0, nil},
		{"longest of each", "q.io/" + path + ":" + tag + "@" + digest, 0, nil},
		{"a registry has no limit", registry + "/" + path + ":" + tag + "@" + digest, 0, nil},

		{"path", "q.io/" + path + "a", ErrReferenceInvalid, reference.ErrNameTooLong},
		{"path with no registry", path + "a", ErrReferenceInvalid, reference.ErrNameTooLong},
		{"path under localhost", "localhost/" + path + "a", ErrReferenceInvalid, reference.ErrNameTooLong},
		{"path with no registry, invalid", path + "_", ErrReferenceInvalid, reference.ErrReferenceInvalidFormat},
		// Lower-case letters, digits, "-" and "_" never make a registry, so
		// the first element counts in the path.
		{"path whose first element is no registry", "az09-_/" + strings.Repeat("a", 248) + "_", ErrReferenceInvalid, reference.ErrReferenceInvalidFormat},
		{"familiar name", strings.Repeat("a", 256), ErrReferenceInvalid, reference.ErrNameTooLong},
		{"path after a long registry", registry + "/" + path + "a", ErrReferenceInvalid, reference.ErrNameTooLong},
		{"upper-case path of the longest", "q.io/A" + strings.Repeat("a", 254), ErrNameUppercase, nil},
		{"upper-case path, too long in lower case too", "q.io/" + strings.Repeat("A", 256), ErrReferenceInvalid, nil},
		// The Kelvin sign is 3 bytes, its lower case "k" one.
		{"upper-case path that lower case shortens", "q.io/" + strings.Repeat("\u212a", 100), ErrNameUppercase, nil},
		{"tag", "kici-agent:" + tag + "a", ErrTagInvalid, reference.ErrReferenceInvalidFormat},
		{"tag after a long registry", registry + "/kici-agent:" + tag + "a", ErrTagInvalid, reference.ErrReferenceInvalidFormat},
		{"tag after an invalid name", "Kici-agent:" + tag + "a", ErrNameUppercase, nil},
		// The reference package tries the input again in lower case, where
		// each 3-byte Kelvin sign is a 1-byte "k".
		{"tag that lower case shortens", "kici-agent:" + strings.Repeat("\u212a", 50), ErrTagInvalid, reference.ErrNameContainsUppercase},
		{"digest", "kici-agent@" + digest + "0", ErrDigestInvalid, godigest.ErrDigestInvalidLength},
		{"digest after a tag", "kici-agent:1@" + digest + "0", ErrDigestInvalid, godigest.ErrDigestInvalidLength},
		{"digest of an unknown algorithm", "kici-agent@md5:" + hex64 + hex64, ErrDigestInvalid, godigest.ErrDigestUnsupported},
		{"digest of an unknown upper-case algorithm", "kici-agent:1@MD5:" + hex64 + hex64, ErrDigestInvalid, godigest.ErrDigestInvalidFormat},
		{"digest with no name", "@" + digest + "0", ErrNameEmpty, reference.ErrReferenceInvalidFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, refErr := reference.ParseNormalizedNamed(tt.in)
			got, err := Parse(tt.in)
			if tt.reason == 0 {
				require.NoError(t, refErr)
				require.NoError(t, err)
				assert.Equal(t, tt.in, got.String())
				return
			}
			require.Error(t, refErr, "the reference package accepts it")
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tt.reason, pe.Reason)
			if tt.err != nil {
				assert.Equal(t, tt.err, pe.Err)
			}
			checkParseError(t, tt.in, got, err, refErr)
		})
	}
}

// TestParseOverlongErr checks that an input Parse refuses without the
// reference package, because a part of it is longer than that part of any
// valid reference, still carries as Err exactly the error
// reference.ParseNormalizedNamed returns for it: the same sentinel value, or
// an error of the same text that wraps nothing. Each kind of over-long part
// is tried at the fewest bytes that make it over-long (one fewer, and Parse
// asks the reference package), and at 4 KiB, where a part that lower case
// shortens is too long in lower case as well, and so no longer an upper-case
// one.
func TestParseOverlongErr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                string
		before, unit, after string // the input: before, n copies of unit, after
		over                int    // the fewest copies that make the input over-long
		reason              Reason // at over; checkParseError checks every Reason
		sentinel            error  // the reference package's error at over; nil: one of its own text
	}{
		{"path", "q.io/", "a", "", 256, ErrReferenceInvalid, reference.ErrNameTooLong},
		{"path under localhost", "localhost/", "a", "", 256, ErrReferenceInvalid, reference.ErrNameTooLong},
		{"path with no registry", "kici/", "a", "", 251, ErrReferenceInvalid, reference.ErrNameTooLong},
		{"familiar name", "", "a", "", 256, ErrReferenceInvalid, reference.ErrNameTooLong},
		{"path after a long registry", strings.Repeat("r.", 300) + "r/", "a", ":1@" + sha256, 256, ErrReferenceInvalid, reference.ErrNameTooLong},
		{"invalid path", "q.io/", "a", "_", 255, ErrReferenceInvalid, reference.ErrReferenceInvalidFormat},
		{"upper-case path", "q.io/", "A", "", 256, ErrReferenceInvalid, nil},
		{"upper-case familiar name", "", "A", ":1", 256, ErrReferenceInvalid, nil},
		{"path that lower case shortens", "q.io/", "\u212a", "", 86, ErrNameUppercase, nil},
		{"tag", "kici-agent:", "a", "", 129, ErrTagInvalid, reference.ErrReferenceInvalidFormat},
		{"upper-case tag", "Q.IO/kici-agent:", "A", "@" + sha256, 129, ErrTagInvalid, reference.ErrReferenceInvalidFormat},
		{"tag after an upper-case name", "Kici-agent:", "a", "", 129, ErrNameUppercase, nil},
		{"tag that lower case shortens", "kici-agent:", "\u212a", "", 43, ErrTagInvalid, reference.ErrNameContainsUppercase},
		{"sha256 digest", "kici-agent@sha256:", "a", "", 129, ErrDigestInvalid, godigest.ErrDigestInvalidLength},
		{"sha512 digest after a tag", "kici-agent:1@sha512:", "0", "", 129, ErrDigestInvalid, godigest.ErrDigestInvalidLength},
		{"upper-case digest", "kici-agent@sha384:", "A", "", 129, ErrDigestInvalid, godigest.ErrDigestInvalidLength},
		{"digest of an unknown algorithm", "kici-agent@md5:", "0", "", 132, ErrDigestInvalid, godigest.ErrDigestUnsupported},
		{"digest of an upper-case algorithm", "kici-agent:1@MD5:", "0", "", 132, ErrDigestInvalid, godigest.ErrDigestInvalidFormat},
		{"digest with no name", "@sha256:", "0", "", 129, ErrNameEmpty, reference.ErrReferenceInvalidFormat},
		{"two digests", "kici-agent@" + sha256 + "@", "0", "", 64, ErrDigestInvalid, reference.ErrReferenceInvalidFormat},
	}
	for _, tt := range tests {
		input := func(n int) string { return tt.before + strings.Repeat(tt.unit, n) + tt.after }
		for _, n := range []int{tt.over, 4096 / len(tt.unit)} {
			t.Run(fmt.Sprintf("%s/%d", tt.name, n), func(t *testing.T) {
				t.Parallel()
				in := input(n)
				require.False(t, tooLong(Split(input(tt.over-1))), "one fewer is over-long too")
				require.True(t, tooLong(Split(in)), "Parse asks the reference package")
				_, refErr := reference.ParseNormalizedNamed(in)
				require.Error(t, refErr)
				if n == tt.over {
					require.True(t, refErr == tt.sentinel || tt.sentinel == nil && !slices.Contains(sentinels, refErr),
						"the reference package says %v", refErr)
				}
				got, err := Parse(in)
				var pe *ParseError
				require.ErrorAs(t, err, &pe)
				if n == tt.over {
					assert.Equal(t, tt.reason, pe.Reason)
				}
				if slices.Contains(sentinels, refErr) {
					assert.True(t, pe.Err == refErr, "Err is %v, the reference package says %v", pe.Err, refErr)
				} else {
					require.NoError(t, errors.Unwrap(refErr), "the reference package's error wraps one")
					assert.EqualError(t, pe.Err, refErr.Error())
					assert.NoError(t, errors.Unwrap(pe.Err))
				}
				checkParseError(t, in, got, err, refErr)
			})
		}
	}
}

// TestParseLongInput checks that a long input that cannot be valid costs
// Parse a read of its bytes and no more: a short error, almost no memory,
// and time linear in its length, on the order of one pass over it, as a
// lower-casing takes (when no race detector or coverage slows Parse).
func TestParseLongInput(t *testing.T) {
	n := 4 << 20
	if raceDetector {
		n = 1 << 20 // the race detector slows each byte tenfold
	}
	tests := []struct {
		name   string
		in     string
		reason Reason
	}{
		{"familiar name", strings.Repeat("a", n), ErrReferenceInvalid},
		{"upper-case familiar name", strings.Repeat("A", n), ErrReferenceInvalid},
		{"upper-case path", "quay.io/" + strings.Repeat("A", n), ErrReferenceInvalid},
		{"path", "quay.io/kici/" + strings.Repeat("a", n), ErrReferenceInvalid},
		{"tag", "kici-agent:" + strings.Repeat("a", n), ErrTagInvalid},
		{"digest", "kici-agent@sha256:" + strings.Repeat("a", n), ErrDigestInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			allocated := heapAllocated(func() { _, err = Parse(tt.in) })
			assert.ErrorIs(t, err, tt.reason)
			assert.Less(t, len(err.Error()), 200, "the error's text")
			assert.Less(t, allocated, uint64(64<<10), "bytes allocated")

			// Linear: four times the input takes about four times as long,
			// however the race detector or coverage slow each step.
			quarter := tt.in[:len(tt.in)-3*n/4]
			took := fastest(func() { _, err = Parse(tt.in) })
			part := fastest(func() { _, _ = Parse(quarter) })
			assert.Less(t, took, 8*part+10*time.Millisecond, "Parse took %v, and %v on a quarter of the input", took, part)
			if !raceDetector && testing.CoverMode() == "" {
				pass := fastest(func() { _ = strings.ToLower(tt.in) })
				assert.Less(t, took, 20*pass+10*time.Millisecond, "Parse took %v, a lower-casing %v", took, pass)
			}
		})
	}
}

// heapAllocated returns the bytes f allocates on the heap: the least of
// three runs, since the count is the whole program's and a test running
// beside f (or the race detector's runtime) may allocate during one of them.
func heapAllocated(f func()) uint64 {
	least := uint64(math.MaxUint64)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

// fastest returns the shortest time f takes in three runs.
func fastest(f func()) time.Duration {
	best := time.Duration(math.MaxInt64)
	for range 3 {
		start := time.Now()
		f()
		best = min(best, time.Since(start))
	}
	return best
}
