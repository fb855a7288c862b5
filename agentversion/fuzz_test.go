package agentversion

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kicikit/kicikit/internal/jsstr"
	"golang.org/x/mod/semver"
)

// The fuzz tests check Parse and Compare against seedParse, a direct and
// deliberately slow port of the orchestrator's parseVersionBase built from
// the standard library, and check the round trip and the order's laws.

var seedDigits = regexp.MustCompile(`^[0-9]+$`)

// seedParse is parseVersionBase line by line, with the one deliberate
// difference of the package: a part beyond uint64 is not a version. It also
// says which Reason Parse must report.
func seedParse(version string) (Version, Reason) {
	trimmed := strings.TrimFunc(version, jsstr.IsSpace)
	parts := strings.Split(strings.Split(trimmed, "-")[0], ".")
	if len(parts) != 3 {
		if trimmed == "" {
			return Version{}, ErrEmpty
		}
		return Version{}, ErrPartCount
	}
	var nums [3]uint64
	for _, part := range parts {
		if !seedDigits.MatchString(part) {
			return Version{}, ErrNotDigits
		}
	}
	for i, part := range parts {
		n, err := strconv.ParseUint(part, 10, 64)
		if err != nil {
			return Version{}, ErrRange
		}
		nums[i] = n
	}
	return Version{nums[0], nums[1], nums[2]}, 0
}

func addSeeds(f *testing.F, add func(s string)) {
	c := loadSeed(f)
	for _, p := range c.Parse {
		add(p.In)
	}
	for _, s := range ordered {
		add(s)
	}
	for _, s := range []string{"18446744073709551616.0.0", "1.2.3\xff", "\xe2\x80\xa81.2.3", "v1.2.3", "v 1.2.3"} {
		add(s)
	}
}

func FuzzParse(f *testing.F) {
	addSeeds(f, func(s string) { f.Add(s) })
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Parse(s)
		want, reason := seedParse(s)
		if reason != 0 {
			var pe *ParseError
			if !errors.As(err, &pe) || *pe != (ParseError{Func: "Parse", Input: s, Reason: reason}) {
				t.Fatalf("Parse(%q) = %v, %v; want a *ParseError with reason %v", s, v, err, reason)
			}
			if v != (Version{}) {
				t.Fatalf("Parse(%q) returned %v with its error", s, v)
			}
			return
		}
		if err != nil || v != want {
			t.Fatalf("Parse(%q) = %v, %v; want %v", s, v, err, want)
		}
		str := v.String()
		if back, err := Parse(str); err != nil || back != v {
			t.Fatalf("Parse(%q.String() = %q) = %v, %v", s, str, back, err)
		}
		for _, part := range strings.Split(str, ".") {
			if len(part) > 1 && part[0] == '0' {
				t.Fatalf("%v.String() = %q has leading zeros", v, str)
			}
		}
		if canon := semver.Canonical(v.Semver()); canon != "v"+str {
			t.Fatalf("semver.Canonical(%q) = %q, want %q", v.Semver(), canon, "v"+str)
		}
	})
}

func FuzzCompare(f *testing.F) {
	var inputs []string
	addSeeds(f, func(s string) { inputs = append(inputs, s) })
	for i, a := range inputs {
		f.Add(a, inputs[(i*7+3)%len(inputs)])
		f.Add("v"+a, a)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		c, err := Compare(a, b)
		back, errBack := Compare(b, a)
		if c != -back || (err == nil) != (errBack == nil) {
			t.Fatalf("Compare(%q, %q) = %d, %v but Compare(%q, %q) = %d, %v", a, b, c, err, b, a, back, errBack)
		}
		va, ra := seedParse(strings.TrimPrefix(a, "v"))
		vb, rb := seedParse(strings.TrimPrefix(b, "v"))
		if ra != 0 || rb != 0 {
			want := CompareError{A: a, B: b}
			if ra != 0 {
				want.ErrA = &ParseError{Func: "Compare", Input: a, Reason: ra}
			}
			if rb != 0 {
				want.ErrB = &ParseError{Func: "Compare", Input: b, Reason: rb}
			}
			var ce *CompareError
			if !errors.As(err, &ce) || ce.A != a || ce.B != b ||
				!equalParseErr(ce.ErrA, want.ErrA) || !equalParseErr(ce.ErrB, want.ErrB) || c != 0 {
				t.Fatalf("Compare(%q, %q) = %d, %v; want %+v", a, b, c, err, want)
			}
			return
		}
		if err != nil {
			t.Fatalf("Compare(%q, %q): %v", a, b, err)
		}
		if want := va.Compare(vb); c != want {
			t.Fatalf("Compare(%q, %q) = %d, Version.Compare says %d", a, b, c, want)
		}
		if c < -1 || c > 1 {
			t.Fatalf("Compare(%q, %q) = %d", a, b, c)
		}
		if want := semver.Compare(va.Semver(), vb.Semver()); c != want {
			t.Fatalf("Compare(%q, %q) = %d, semver.Compare says %d", a, b, c, want)
		}
		if self, err := Compare(a, a); err != nil || self != 0 {
			t.Fatalf("Compare(%q, %q) = %d, %v", a, a, self, err)
		}
	})
}

// FuzzParseTarget checks ParseTarget against the orchestrator's reading of
// a target (trim, one "v", then parseVersionBase) and against Compare: a
// target's text compares as its version.
func FuzzParseTarget(f *testing.F) {
	addSeeds(f, func(s string) { f.Add(s) })
	for _, c := range loadSeed(f).Target {
		f.Add(c.In)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, text, err := ParseTarget(s)
		bare := strings.TrimPrefix(strings.TrimFunc(s, jsstr.IsSpace), "v")
		want, reason := seedParse(bare)
		if reason != 0 {
			var pe *ParseError
			if !errors.As(err, &pe) || *pe != (ParseError{Func: "ParseTarget", Input: s, Reason: reason}) || v != (Version{}) || text != "" {
				t.Fatalf("ParseTarget(%q) = %v, %q, %v; want a *ParseError with reason %v", s, v, text, err, reason)
			}
			return
		}
		if err != nil || v != want || text != bare {
			t.Fatalf("ParseTarget(%q) = %v, %q, %v; want %v, %q", s, v, text, err, want, bare)
		}
		if c, err := Compare(text, v.String()); err != nil || c != 0 {
			t.Fatalf("ParseTarget(%q) = %v, %q, but Compare(%q, %q) = %d, %v", s, v, text, text, v.String(), c, err)
		}
	})
}

func equalParseErr(a, b *ParseError) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
