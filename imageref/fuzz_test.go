package imageref

import (
	"errors"
	"strings"
	"testing"

	"github.com/distribution/reference"
	"github.com/opencontainers/go-digest"
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
	if (err == nil) != (refErr == nil) || valid(s) != (refErr == nil) {
		t.Fatalf("Parse(%q) = %v, %v; valid says %v; the reference package says %v", s, got, err, valid(s), refErr)
	}
	if byHand := normalizedNamedError(s); !sameError(byHand, refErr) {
		t.Fatalf("normalizedNamedError(%q) = %v; the reference package says %v", s, byHand, refErr)
	}
	if err != nil {
		checkParseError(t, s, got, err, refErr)
		return
	}
	if got.String() != s {
		t.Fatalf("Parse(%q).String() = %q", s, got.String())
	}
	if back := MustParse(got.String()); back != got {
		t.Fatalf("Parse(%q) = %+v, but its String parses to %+v", s, got, back)
	}
	l := Split(s)
	if l.Repository != got.Repository || l.Tag != got.Tag || l.Digest != got.Digest ||
		l.HasTag != (got.Tag != "") || l.HasDigest != (got.Digest != "") {
		t.Fatalf("Parse(%q) = %+v; the orchestrator's split is %+v", s, got, l)
	}
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
		if c.got != c.want {
			t.Fatalf("Parse(%q): %s is %q, the reference package says %q", s, c.what, c.got, c.want)
		}
	}
}

// checkParseError checks the error's shape: it wraps the reference
// package's error, and its Reason is the one the reference package's
// verdicts give, and right: fixing the part it blames, alone, makes the
// rest parse.
func checkParseError(t *testing.T, s string, got Ref, err, refErr error) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Input != s || !sameError(pe.Err, refErr) || got != (Ref{}) {
		t.Fatalf("Parse(%q) = %+v, %#v; the reference package says %v", s, got, err, refErr)
	}
	if want := classify(Split(s), accepts); pe.Reason != want {
		t.Fatalf("Parse(%q): %v; with the reference package deciding, %v", s, pe.Reason, want)
	}
	// At most 64 bytes of the input, each quoted as at most 4, the prefix,
	// the length and the longest reason.
	if len(err.Error()) > 4*64+150 {
		t.Fatalf("Parse(%q): the error is %d bytes long", s, len(err.Error()))
	}
	if !errors.Is(err, pe.Reason) {
		t.Fatalf("Parse(%q): errors.Is(err, %v) is false", s, pe.Reason)
	}
	l := Split(s)
	switch pe.Reason {
	case ErrNameEmpty:
		if l.Repository != "" {
			t.Fatalf("Parse(%q): %v, but the repository is %q", s, pe.Reason, l.Repository)
		}
		return
	case ErrNameUppercase:
		// A valid name, that is, followed by a tag: a bare 64-hex string is
		// a valid name but not a valid reference.
		if lower := strings.ToLower(l.Repository); lower == l.Repository || !accepts(lower+":x") {
			t.Fatalf("Parse(%q): %v, but %q in lower case is not a valid name", s, pe.Reason, l.Repository)
		}
		return
	case ErrReferenceInvalid:
		return
	}
	// The repository is fine: with a valid tag and digest in place of the
	// wrong one, the reference parses.
	fixed := l.Repository
	switch pe.Reason {
	case ErrTagInvalid:
		if !l.HasTag {
			t.Fatalf("Parse(%q): %v without a tag", s, pe.Reason)
		}
		fixed += ":x"
	case ErrDigestInvalid:
		if !l.HasDigest {
			t.Fatalf("Parse(%q): %v without a digest", s, pe.Reason)
		}
		if l.HasTag {
			fixed += ":" + l.Tag
		}
		fixed += "@" + sha256
	default:
		t.Fatalf("Parse(%q): unknown reason %d", s, pe.Reason)
	}
	if _, err := reference.ParseNormalizedNamed(fixed); err != nil {
		t.Fatalf("Parse(%q): %v, but %q does not parse either: %v", s, pe.Reason, fixed, err)
	}
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
