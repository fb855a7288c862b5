package agentversion

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/mod/semver"

	"github.com/kicikit/kicikit/internal/jsstr"
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
			require.ErrorAs(t, err, &pe, "Parse(%q)", s)
			require.Equal(t, ParseError{Func: "Parse", Input: s, Reason: reason}, *pe)
			require.Equal(t, Version{}, v, "Parse(%q) with its error", s)
			return
		}
		require.NoError(t, err, "Parse(%q)", s)
		require.Equal(t, want, v, "Parse(%q)", s)
		str := v.String()
		back, err := Parse(str)
		require.NoError(t, err, "Parse(%q.String() = %q)", s, str)
		require.Equal(t, v, back, "Parse(%q.String() = %q)", s, str)
		for _, part := range strings.Split(str, ".") {
			require.False(t, len(part) > 1 && part[0] == '0', "%v.String() = %q has leading zeros", v, str)
		}
		require.Equal(t, "v"+str, semver.Canonical(v.Semver()), "semver.Canonical(%q)", v.Semver())
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
		require.Equal(t, -back, c, "Compare(%q, %q) against Compare(%q, %q)", a, b, b, a)
		require.Equal(t, err == nil, errBack == nil, "Compare(%q, %q) = %v but Compare(%q, %q) = %v", a, b, err, b, a, errBack)
		va, ra := seedParse(strings.TrimPrefix(a, "v"))
		vb, rb := seedParse(strings.TrimPrefix(b, "v"))
		if ra != 0 || rb != 0 {
			want := &CompareError{A: a, B: b}
			if ra != 0 {
				want.ErrA = &ParseError{Func: "Compare", Input: a, Reason: ra}
			}
			if rb != 0 {
				want.ErrB = &ParseError{Func: "Compare", Input: b, Reason: rb}
			}
			var ce *CompareError
			require.ErrorAs(t, err, &ce, "Compare(%q, %q)", a, b)
			require.Equal(t, want, ce, "Compare(%q, %q)", a, b)
			require.Equal(t, 0, c, "Compare(%q, %q) with its error", a, b)
			return
		}
		require.NoError(t, err, "Compare(%q, %q)", a, b)
		require.Equal(t, va.Compare(vb), c, "Compare(%q, %q) against Version.Compare", a, b)
		require.Contains(t, []int{-1, 0, 1}, c, "Compare(%q, %q)", a, b)
		require.Equal(t, semver.Compare(va.Semver(), vb.Semver()), c, "Compare(%q, %q) against semver.Compare", a, b)
		self, err := Compare(a, a)
		require.NoError(t, err, "Compare(%q, %q)", a, a)
		require.Equal(t, 0, self, "Compare(%q, %q)", a, a)
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
			require.ErrorAs(t, err, &pe, "ParseTarget(%q)", s)
			require.Equal(t, ParseError{Func: "ParseTarget", Input: s, Reason: reason}, *pe)
			require.Equal(t, Version{}, v, "ParseTarget(%q) with its error", s)
			require.Equal(t, "", text, "ParseTarget(%q) with its error", s)
			return
		}
		require.NoError(t, err, "ParseTarget(%q)", s)
		require.Equal(t, want, v, "ParseTarget(%q)", s)
		require.Equal(t, bare, text, "ParseTarget(%q)", s)
		c, err := Compare(text, v.String())
		require.NoError(t, err, "ParseTarget(%q): Compare(%q, %q)", s, text, v.String())
		require.Equal(t, 0, c, "ParseTarget(%q): Compare(%q, %q)", s, text, v.String())
	})
}
