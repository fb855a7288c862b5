package imageref

import (
	"errors"
	"strings"
	"testing"

	"github.com/distribution/reference"
	"github.com/opencontainers/go-digest"
	"github.com/stretchr/testify/require"
)

func addRefSeeds(add func(string)) {
	for _, s := range []string{
		"", "kici-agent", "kici-agent:latest", "kici-agent:0.19.0", "kici-agent:v0.19.0-3",
		"quay.io/kici/kici-agent:0.20.0", "registry.local:5000/kici-agent",
		"registry.local:5000/mirror/kici-agent:edge@" + sha256, "kici-agent@" + sha256,
		"kici-agent@sha512:" + hex64 + hex64, "localhost:5000", "[::1]:5000/kici-agent:1",
		"index.docker.io/kici/kici-agent", "docker.io/library/kici-agent", "Registry/kici-agent",
		hex64, hex64 + ":1", "kici-agent:", "kici-agent@", ":latest", "@" + sha256,
		"Kici-Agent", "quay.io/Kici/kici-agent:0.19.0", "kici-agent: 0.19.0", "kici-agent:a+b",
		"kici-agent@md5:" + hex64[:32], "kici agent", "localhost:5000:0.20.0", "a:b:c", "a@b/c:d@e",
		"kici/" + strings.Repeat("a", 251),
	} {
		add(s)
	}
}

func FuzzParse(f *testing.F) {
	addRefSeeds(func(s string) { f.Add(s) })
	f.Fuzz(checkParse)
}

// FuzzParseLong checks Parse on inputs near and beyond the grammar's
// length limits: s with n (128 to 383) copies of c inserted at byte at.
func FuzzParseLong(f *testing.F) {
	for i, s := range []string{
		"kici-agent", "q.io/kici-agent", "kici-agent:_", "kici-agent@sha512:" + hex64 + hex64,
		"q.io/kici-agent:1@" + sha256, "Q.io/Kici/kici-agent", "@" + sha256, "kici/a",
	} {
		for _, c := range []byte{'a', '0', 'A', '.', '/', ':', '@', '_'} {
			f.Add(s, uint16(len(s)-i%2), c, uint8(i*37))
		}
	}
	f.Fuzz(func(t *testing.T, s string, at uint16, c byte, n uint8) {
		i := int(at) % (len(s) + 1)
		checkParse(t, s[:i]+strings.Repeat(string(c), 128+int(n))+s[i:])
	})
}

// checkParse checks that Parse accepts s exactly when the reference
// package does, splits it as the orchestrator does and agrees with the
// reference package on every part, or else reports why it is invalid and
// wraps the reference package's error. It checks the hand-written grammar
// on s too, alone.
func checkParse(t *testing.T, s string) {
	t.Helper()
	got, err := Parse(s)
	named, refErr := reference.ParseNormalizedNamed(s)
	require.Equal(t, refErr == nil, err == nil, "Parse(%q) = %v, %v; the reference package says %v", s, got, err, refErr)
	require.Equal(t, refErr == nil, valid(s), "valid(%q); the reference package says %v", s, refErr)
	byHand := normalizedNamedError(s)
	require.True(t, sameError(byHand, refErr), "normalizedNamedError(%q) = %v; the reference package says %v", s, byHand, refErr)
	if err != nil {
		checkParseError(t, s, got, err, refErr)
		return
	}
	require.Equal(t, s, got.String(), "Parse(%q).String()", s)
	require.Equal(t, got, MustParse(got.String()), "Parse(%q): its String parsed again", s)
	want := Parts{Repository: got.Repository, Tag: got.Tag, Digest: got.Digest, HasTag: got.Tag != "", HasDigest: got.Digest != ""}
	require.Equal(t, want, Split(s), "Parse(%q) against the orchestrator's split", s)
	tagged, _ := named.(reference.Tagged)
	digested, _ := named.(reference.Digested)
	var tag, dgst string
	if tagged != nil {
		tag = tagged.Tag()
	}
	if digested != nil {
		dgst = digested.Digest().String()
	}
	for _, c := range []struct{ what, got, want string }{
		{"Name", got.Name(), named.Name()},
		{"Domain", got.Domain(), reference.Domain(named)},
		{"Path", got.Path(), reference.Path(named)},
		{"FamiliarName", got.FamiliarName(), reference.FamiliarName(named)},
		{"Tag", got.Tag, tag},
		{"Digest", got.Digest, dgst},
	} {
		require.Equal(t, c.want, c.got, "Parse(%q): %s against the reference package", s, c.what)
	}
}

// checkParseError checks the error's shape: it wraps the reference
// package's error, and its Reason is the one the reference package's
// verdicts give, and right: fixing the part it blames, alone, makes the
// rest parse.
func checkParseError(t *testing.T, s string, got Ref, err, refErr error) {
	t.Helper()
	var pe *ParseError
	require.ErrorAs(t, err, &pe, "Parse(%q)", s)
	require.Equal(t, Ref{}, got, "Parse(%q) with its error", s)
	require.Equal(t, s, pe.Input, "Parse(%q)", s)
	require.True(t, sameError(pe.Err, refErr), "Parse(%q) wraps %#v; the reference package says %v", s, pe.Err, refErr)
	require.Equal(t, classify(Split(s), accepts), pe.Reason, "Parse(%q) against the reason the reference package's verdicts give", s)
	// At most 64 bytes of the input, each quoted as at most 4, the prefix,
	// the length and the longest reason.
	require.LessOrEqual(t, len(err.Error()), 4*64+150, "Parse(%q): the error's length", s)
	require.ErrorIs(t, err, pe.Reason, "Parse(%q)", s)
	l := Split(s)
	switch pe.Reason {
	case ErrNameEmpty:
		require.Equal(t, "", l.Repository, "Parse(%q): %v", s, pe.Reason)
		return
	case ErrNameUppercase:
		// A valid name, that is, followed by a tag: a bare 64-hex string is
		// a valid name but not a valid reference.
		lower := strings.ToLower(l.Repository)
		require.NotEqual(t, l.Repository, lower, "Parse(%q): %v of a lower-case repository", s, pe.Reason)
		require.True(t, accepts(lower+":x"), "Parse(%q): %v, but %q in lower case is not a valid name", s, pe.Reason, l.Repository)
		return
	case ErrReferenceInvalid:
		return
	}
	// The repository is fine: with a valid tag and digest in place of the
	// wrong one, the reference parses.
	fixed := l.Repository
	switch pe.Reason {
	case ErrTagInvalid:
		require.True(t, l.HasTag, "Parse(%q): %v without a tag", s, pe.Reason)
		fixed += ":x"
	case ErrDigestInvalid:
		require.True(t, l.HasDigest, "Parse(%q): %v without a digest", s, pe.Reason)
		if l.HasTag {
			fixed += ":" + l.Tag
		}
		fixed += "@" + sha256
	default:
		require.FailNow(t, "unknown reason", "Parse(%q): %d", s, pe.Reason)
	}
	_, err = reference.ParseNormalizedNamed(fixed)
	require.NoError(t, err, "Parse(%q): %v, but %q does not parse either", s, pe.Reason, fixed)
}

// accepts reports whether the reference package accepts s: the oracle the
// tests hold the hand-written grammar to.
func accepts(s string) bool {
	_, err := reference.ParseNormalizedNamed(s)
	return err == nil
}

// sentinels are the error values of the reference package and go-digest.
var sentinels = []error{
	reference.ErrReferenceInvalidFormat, reference.ErrTagInvalidFormat, reference.ErrDigestInvalidFormat,
	reference.ErrNameContainsUppercase, reference.ErrNameEmpty, reference.ErrNameTooLong, reference.ErrNameNotCanonical,
	digest.ErrDigestInvalidFormat, digest.ErrDigestInvalidLength, digest.ErrDigestUnsupported,
}

// sameError reports whether got is want, the error the reference package
// returned: the same sentinel, or, for an error of its own text, no
// sentinel and the same text.
func sameError(got, want error) bool {
	if got == nil || want == nil {
		return got == want
	}
	for _, sentinel := range sentinels {
		if errors.Is(got, sentinel) || errors.Is(want, sentinel) {
			return got == want
		}
	}
	return got.Error() == want.Error()
}
