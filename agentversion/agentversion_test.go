package agentversion

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/kicikit/kicikit/internal/jsstr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/mod/semver"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want Version
		err  Reason // 0: a version
	}{
		{"plain", "1.2.3", Version{1, 2, 3}, 0},
		{"zero", "0.0.0", Version{}, 0},
		{"build counter dropped", "0.5.0-9159", Version{0, 5, 0}, 0},
		{"prerelease dropped", "1.2.3-rc.1", Version{1, 2, 3}, 0},
		{"suffix with plus dropped", "1.2.3-rc+1", Version{1, 2, 3}, 0},
		{"empty suffix", "1.2.3-", Version{1, 2, 3}, 0},
		{"only the first dash counts", "1.2.3-4.5.6", Version{1, 2, 3}, 0},
		{"leading zeros", "01.002.0003", Version{1, 2, 3}, 0},
		{"trimmed ascii", " \t1.2.3\r\n", Version{1, 2, 3}, 0},
		{"trimmed unicode", "\u00a0\u20281.2.3\u3000\u202f", Version{1, 2, 3}, 0},
		{"trimmed BOM as JavaScript does", "\ufeff1.2.3\ufeff", Version{1, 2, 3}, 0},
		{"max uint64", "18446744073709551615.18446744073709551615.18446744073709551615", Version{1<<64 - 1, 1<<64 - 1, 1<<64 - 1}, 0},
		{"max uint64 with leading zeros", "0018446744073709551615.0.0", Version{1<<64 - 1, 0, 0}, 0},

		{"empty", "", Version{}, ErrEmpty},
		{"blank", " \t\n", Version{}, ErrEmpty},
		{"NEL is not trimmed as JavaScript does not", "\u00851.2.3", Version{}, ErrNotDigits},
		{"zero width space is not white space", "\u200b1.2.3", Version{}, ErrNotDigits},
		{"two parts", "1.2", Version{}, ErrPartCount},
		{"four parts", "1.2.3.4", Version{}, ErrPartCount},
		{"one part", "1", Version{}, ErrPartCount},
		{"dash first", "-1.2.3", Version{}, ErrPartCount},
		{"dash inside", "1.2-3.4", Version{}, ErrPartCount},
		{"lone dash", "-", Version{}, ErrPartCount},
		{"v prefix", "v1.2.3", Version{}, ErrNotDigits},
		{"build metadata", "1.2.3+b", Version{}, ErrNotDigits},
		{"empty middle part", "1..3", Version{}, ErrNotDigits},
		{"empty last part", "1.2.", Version{}, ErrNotDigits},
		{"dots only", "..", Version{}, ErrNotDigits},
		{"inner space", "1. 2.3", Version{}, ErrNotDigits},
		{"space before suffix", "1.2.3 -x", Version{}, ErrNotDigits},
		{"sign", "+1.2.3", Version{}, ErrNotDigits},
		{"hex", "1.2.0x1", Version{}, ErrNotDigits},
		{"exponent", "1.2.1e3", Version{}, ErrNotDigits},
		{"arabic digits", "١.٢.٣", Version{}, ErrNotDigits},
		{"fullwidth digits", "１.２.３", Version{}, ErrNotDigits},
		{"NUL", "1.2.3\x00", Version{}, ErrNotDigits},
		{"invalid UTF-8", "\xff1.2.3", Version{}, ErrNotDigits},
		{"invalid UTF-8 at the end", "1.2.3\xe2\x80", Version{}, ErrNotDigits},
		{"overflow", "18446744073709551616.0.0", Version{}, ErrRange},
		{"overflow last part", "0.0.18446744073709551616", Version{}, ErrRange},
		{"overflow by far", "1.99999999999999999999999.3", Version{}, ErrRange},
		{"not digits wins over overflow", "99999999999999999999999.x.3", Version{}, ErrNotDigits},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(tt.in)
			if tt.err == 0 {
				require.NoError(t, err)
				assert.Equal(t, tt.want, got)
				return
			}
			assert.Equal(t, Version{}, got)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, &ParseError{Func: "Parse", Input: tt.in, Reason: tt.err}, pe)
			assert.ErrorIs(t, err, tt.err)
		})
	}
}

// seedCases is testdata/seed.json: what the orchestrator 0.20.0 answers,
// computed by testdata/seed.mjs, a JavaScript transcription of its behaviour.
type seedCases struct {
	Parse []struct {
		In   string    `json:"in"`
		Want *[3]int64 `json:"want"`
	} `json:"parse"`
	Compare []struct {
		A    string `json:"a"`
		B    string `json:"b"`
		Want *int   `json:"want"`
	} `json:"compare"`
	Target []struct {
		In   string `json:"in"`
		Want *struct {
			Text    string   `json:"text"`
			Version [3]int64 `json:"version"`
		} `json:"want"`
	} `json:"target"`
}

func loadSeed(t testing.TB) seedCases {
	t.Helper()
	b, err := os.ReadFile("testdata/seed.json")
	require.NoError(t, err)
	var c seedCases
	require.NoError(t, json.Unmarshal(b, &c))
	require.NotEmpty(t, c.Parse)
	require.NotEmpty(t, c.Compare)
	require.NotEmpty(t, c.Target)
	return c
}

func TestParseAgreesWithSeed(t *testing.T) {
	t.Parallel()
	for i, c := range loadSeed(t).Parse {
		t.Run(strconv.Itoa(i)+"_"+strconv.Quote(c.In), func(t *testing.T) {
			t.Parallel()
			got, err := Parse(c.In)
			if c.Want == nil {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, Version{uint64(c.Want[0]), uint64(c.Want[1]), uint64(c.Want[2])}, got)
		})
	}
}

func TestCompareAgreesWithSeed(t *testing.T) {
	t.Parallel()
	for i, c := range loadSeed(t).Compare {
		t.Run(strconv.Itoa(i)+"_"+strconv.Quote(c.A)+"_"+strconv.Quote(c.B), func(t *testing.T) {
			t.Parallel()
			got, err := Compare(c.A, c.B)
			if c.Want == nil {
				assert.Error(t, err)
				assert.Equal(t, 0, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, *c.Want, got)
		})
	}
}

func TestParseTargetAgreesWithSeed(t *testing.T) {
	t.Parallel()
	for i, c := range loadSeed(t).Target {
		t.Run(strconv.Itoa(i)+"_"+strconv.Quote(c.In), func(t *testing.T) {
			t.Parallel()
			v, text, err := ParseTarget(c.In)
			if c.Want == nil {
				assert.Error(t, err)
				assert.Equal(t, "", text)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, Version{uint64(c.Want.Version[0]), uint64(c.Want.Version[1]), uint64(c.Want.Version[2])}, v)
			assert.Equal(t, c.Want.Text, text)
		})
	}
}

func TestParseTarget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want Version
		text string
		err  Reason // 0: a target
	}{
		{"plain", "0.20.0", Version{0, 20, 0}, "0.20.0", 0},
		{"v dropped", "v0.20.0", Version{0, 20, 0}, "0.20.0", 0},
		{"trimmed before the v", " v0.20.0\n", Version{0, 20, 0}, "0.20.0", 0},
		{"JavaScript white space trimmed", "\ufeff\u3000v0.20.0\u2028", Version{0, 20, 0}, "0.20.0", 0},
		{"suffix kept in the text", "v0.20.0-rc.1", Version{0, 20, 0}, "0.20.0-rc.1", 0},
		{"space after the v stays in the text", "v 0.20.0", Version{0, 20, 0}, " 0.20.0", 0},
		{"beyond 2^53", "18446744073709551615.0.0", Version{1<<64 - 1, 0, 0}, "18446744073709551615.0.0", 0},

		{"empty", "", Version{}, "", ErrEmpty},
		{"blank", " \t", Version{}, "", ErrEmpty},
		{"lone v", " v ", Version{}, "", ErrEmpty},
		{"NEL is not white space", "\u00850.20.0", Version{}, "", ErrNotDigits},
		{"two v", "vv0.20.0", Version{}, "", ErrNotDigits},
		{"capital V", "V0.20.0", Version{}, "", ErrNotDigits},
		{"a tag", "latest", Version{}, "", ErrPartCount},
		{"too large", "v0.0.18446744073709551616", Version{}, "", ErrRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, text, err := ParseTarget(tt.in)
			assert.Equal(t, tt.want, v)
			assert.Equal(t, tt.text, text)
			if tt.err == 0 {
				require.NoError(t, err)
				return
			}
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, &ParseError{Func: "ParseTarget", Input: tt.in, Reason: tt.err}, pe)
			assert.ErrorIs(t, err, tt.err)
		})
	}
}

// TestParseTargetAndCompareAgree checks that a target compares with
// Compare as the version ParseTarget returns, text and all.
func TestParseTargetAndCompareAgree(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"0.20.0", " v0.20.0 ", "v0.19.9-3", "v 1.0.0"} {
		t.Run(in, func(t *testing.T) {
			t.Parallel()
			v, text, err := ParseTarget(in)
			require.NoError(t, err)
			for _, other := range ordered {
				c, err := Compare(other, text)
				require.NoError(t, err)
				assert.Equal(t, MustParse(other).Compare(v), c)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a, b string
		want int
	}{
		{"equal", "1.2.3", "1.2.3", 0},
		{"older patch", "1.2.3", "1.2.4", -1},
		{"newer patch", "1.2.4", "1.2.3", 1},
		{"older minor beats patch", "1.2.9", "1.3.0", -1},
		{"newer major beats minor", "2.0.0", "1.99.99", 1},
		{"numeric not lexical", "1.10.0", "1.9.0", 1},
		{"one v stripped each side", "v0.19.0", "0.20.0", -1},
		{"v on b", "0.20.0", "v0.20.0", 0},
		{"v then space", "v 1.2.3", "1.2.3", 0},
		{"prerelease is the release", "0.20.0-5", "0.20.0", 0},
		{"v and prerelease", "v0.20.0-rc.1", "0.19.0", 1},
		{"beyond 2^53 exact", "9007199254740993.0.0", "9007199254740992.0.0", 1},
		{"max uint64", "18446744073709551615.0.0", "18446744073709551614.0.0", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Compare(tt.a, tt.b)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			back, err := Compare(tt.b, tt.a)
			require.NoError(t, err)
			assert.Equal(t, -tt.want, back)
		})
	}
}

func TestCompareError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		a, b       string
		errA, errB Reason // 0: that side is a version
		msg        string
	}{
		{"a fails", "1.2", "1.2.3", ErrPartCount, 0,
			`agentversion.Compare("1.2", "1.2.3"): a: not three dot-separated parts`},
		{"b fails", "1.2.3", "latest", 0, ErrPartCount,
			`agentversion.Compare("1.2.3", "latest"): b: not three dot-separated parts`},
		{"both fail", "", "v1.2.x", ErrEmpty, ErrNotDigits,
			`agentversion.Compare("", "v1.2.x"): a: empty version; b: a part is not a run of ASCII digits`},
		{"space before v", " v1.2.3", "1.2.3", ErrNotDigits, 0,
			`agentversion.Compare(" v1.2.3", "1.2.3"): a: a part is not a run of ASCII digits`},
		{"two v", "vv1.2.3", "1.2.3", ErrNotDigits, 0,
			`agentversion.Compare("vv1.2.3", "1.2.3"): a: a part is not a run of ASCII digits`},
		{"capital V", "1.2.3", "V1.2.3", 0, ErrNotDigits,
			`agentversion.Compare("1.2.3", "V1.2.3"): b: a part is not a run of ASCII digits`},
		{"lone v", "v", "1.2.3", ErrEmpty, 0,
			`agentversion.Compare("v", "1.2.3"): a: empty version`},
		{"overflow", "1.2.3", "v1.2.18446744073709551616", 0, ErrRange,
			`agentversion.Compare("1.2.3", "v1.2.18446744073709551616"): b: a part is too large`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Compare(tt.a, tt.b)
			assert.Equal(t, 0, got)
			var ce *CompareError
			require.ErrorAs(t, err, &ce)
			want := &CompareError{A: tt.a, B: tt.b}
			if tt.errA != 0 {
				want.ErrA = &ParseError{Func: "Compare", Input: tt.a, Reason: tt.errA}
			}
			if tt.errB != 0 {
				want.ErrB = &ParseError{Func: "Compare", Input: tt.b, Reason: tt.errB}
			}
			assert.Equal(t, want, ce)
			assert.EqualError(t, err, tt.msg)

			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			if tt.errA != 0 {
				assert.Equal(t, want.ErrA, pe, "errors.As finds a's error first")
				assert.ErrorIs(t, err, tt.errA)
			} else {
				assert.Equal(t, want.ErrB, pe)
			}
			if tt.errB != 0 {
				assert.ErrorIs(t, err, tt.errB)
			}
		})
	}
}

func TestCompareErrorWithoutFailure(t *testing.T) {
	t.Parallel()
	e := &CompareError{A: "1.2.3", B: "1.2.3"}
	assert.Equal(t, `agentversion.Compare("1.2.3", "1.2.3"): no side failed`, e.Error())
	assert.Empty(t, e.Unwrap())
}

func TestReasonError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		r    Reason
		want string
	}{
		{ErrEmpty, "empty version"},
		{ErrPartCount, "not three dot-separated parts"},
		{ErrNotDigits, "a part is not a run of ASCII digits"},
		{ErrRange, "a part is too large"},
		{0, "reason 0"},
		{99, "reason 99"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.r.Error())
		})
	}
}

func TestParseErrorMessage(t *testing.T) {
	t.Parallel()
	_, err := Parse("v1.2.3")
	assert.EqualError(t, err, `agentversion.Parse("v1.2.3"): a part is not a run of ASCII digits`)
	assert.False(t, errors.Is(err, ErrRange))
	_, _, err = ParseTarget("\n1.2\x00")
	assert.EqualError(t, err, `agentversion.ParseTarget("\n1.2\x00"): not three dot-separated parts`)
}

// TestLongInputErrors checks that an error about a 1 MiB input quotes only
// its start and its length, and that making and printing it costs next to
// nothing beyond the scan of the input.
func TestLongInputErrors(t *testing.T) {
	huge := strings.Repeat("1", 1<<20) + "x"
	huge2 := "0." + huge
	quoted := `"` + strings.Repeat("1", 64) + `"... (1048577 bytes)`
	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"Parse", func() error { _, err := Parse(huge); return err },
			"agentversion.Parse(" + quoted + "): not three dot-separated parts"},
		{"ParseTarget", func() error { _, _, err := ParseTarget(huge); return err },
			"agentversion.ParseTarget(" + quoted + "): not three dot-separated parts"},
		{"Compare", func() error { _, err := Compare(huge, huge2); return err },
			`agentversion.Compare(` + quoted + `, "0.` + strings.Repeat("1", 62) + `"... (1048579 bytes)): a: not three dot-separated parts; b: not three dot-separated parts`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.EqualError(t, tt.call(), tt.want)
			assert.Less(t, heapBytes(func() { _ = tt.call().Error() }), uint64(4096))
		})
	}
}

// heapBytes returns how many bytes one call of f allocates, on average over
// a few calls.
func heapBytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 8 {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / 8
}

// ordered lists base versions in increasing order; a row's index orders it,
// as semver's own tests do.
var ordered = []string{
	"0.0.0",
	"0.0.1",
	"0.0.9",
	"0.0.10",
	"0.1.0",
	"0.5.0",
	"0.19.9",
	"0.20.0",
	"0.20.1",
	"0.100.0",
	"1.0.0",
	"1.2.3",
	"1.2.10",
	"1.10.0",
	"2.0.0",
	"10.0.0",
	"9007199254740992.0.0",
	"9007199254740993.0.0",
	"18446744073709551615.0.0",
	"18446744073709551615.18446744073709551615.18446744073709551615",
}

func TestOrder(t *testing.T) {
	t.Parallel()
	for i, a := range ordered {
		for j, b := range ordered {
			t.Run(a+"_"+b, func(t *testing.T) {
				t.Parallel()
				va, vb := MustParse(a), MustParse(b)
				want := 0
				if i < j {
					want = -1
				} else if i > j {
					want = 1
				}
				assert.Equal(t, want, va.Compare(vb))
				assert.Equal(t, want < 0, va.Less(vb))
				got, err := Compare(a, b)
				require.NoError(t, err)
				assert.Equal(t, want, got)
				// golang.org/x/mod/semver orders the same base versions the
				// same way, both as written and in the form Semver returns.
				assert.Equal(t, want, semver.Compare("v"+a, "v"+b))
				assert.Equal(t, want, semver.Compare(va.Semver(), vb.Semver()))
			})
		}
	}
}

func TestString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		v          Version
		str, svers string
	}{
		{"zero", Version{}, "0.0.0", "v0.0.0"},
		{"plain", Version{1, 2, 3}, "1.2.3", "v1.2.3"},
		{"max", Version{1<<64 - 1, 1<<64 - 1, 1<<64 - 1},
			"18446744073709551615.18446744073709551615.18446744073709551615",
			"v18446744073709551615.18446744073709551615.18446744073709551615"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.str, tt.v.String())
			assert.Equal(t, tt.svers, tt.v.Semver())
			assert.True(t, semver.IsValid(tt.v.Semver()))
			assert.Equal(t, tt.svers, semver.Canonical(tt.v.Semver()))
			assert.Equal(t, tt.v, MustParse(tt.v.String()))

			text, err := tt.v.MarshalText()
			require.NoError(t, err)
			assert.Equal(t, tt.str, string(text))
			appended, err := tt.v.AppendText([]byte("at "))
			require.NoError(t, err)
			assert.Equal(t, "at "+tt.str, string(appended))
		})
	}
}

func TestString_leadingZerosDropped(t *testing.T) {
	t.Parallel()
	v := MustParse("01.02.03-4")
	assert.Equal(t, "1.2.3", v.String())
	assert.Equal(t, "1.2.3", fmt.Sprint(v))
}

func TestJSON(t *testing.T) {
	t.Parallel()
	type doc struct {
		Target Version `json:"target"`
	}
	var d doc
	require.NoError(t, json.Unmarshal([]byte(`{"target":" 0.20.0-7 "}`), &d))
	assert.Equal(t, Version{0, 20, 0}, d.Target)
	out, err := json.Marshal(d)
	require.NoError(t, err)
	assert.Equal(t, `{"target":"0.20.0"}`, string(out))

	d = doc{Target: Version{1, 2, 3}}
	err = json.Unmarshal([]byte(`{"target":"v0.20.0"}`), &d)
	assert.ErrorIs(t, err, ErrNotDigits)
	assert.Equal(t, Version{1, 2, 3}, d.Target, "unchanged on error")
}

func TestMustParse(t *testing.T) {
	t.Parallel()
	assert.Equal(t, Version{0, 20, 0}, MustParse("0.20.0"))
	assert.PanicsWithError(t, `agentversion.Parse("0.20"): not three dot-separated parts`, func() {
		MustParse("0.20")
	})
}

// TestParseTrimsJavaScriptSpace checks, for every code point, that Parse
// trims it from both ends exactly when JavaScript's trim does (jsstr's
// tests prove IsSpace against Unicode's tables and node).
func TestParseTrimsJavaScriptSpace(t *testing.T) {
	t.Parallel()
	var wrong []string // the inputs Parse reads otherwise than trim
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) || '0' <= r && r <= '9' || r == '-' {
			continue // not encodable, or part of the grammar
		}
		in := string(r) + "1.2.3" + string(r)
		if _, err := Parse(in); (err == nil) != jsstr.IsSpace(r) {
			wrong = append(wrong, strconv.Quote(in))
		}
	}
	assert.Empty(t, wrong, "accepted exactly when trim removes the code point")
}

func TestNoAllocs(t *testing.T) {
	tests := []struct {
		name string
		f    func()
	}{
		{"Parse", func() { _, _ = Parse("0.20.0") }},
		{"Parse trimmed with suffix", func() { _, _ = Parse("\u00a0 0.5.0-9159\u3000") }},
		{"Compare", func() { _, _ = Compare("v0.19.0", "0.20.0-5") }},
		{"ParseTarget", func() { _, _, _ = ParseTarget(" v0.20.0-rc.1\n") }},
		{"Version.Compare", func() { _ = Version{1, 2, 3}.Compare(Version{1, 2, 4}) }},
		{"AppendText", func() {
			var buf [64]byte
			_, _ = Version{1, 2, 3}.AppendText(buf[:0])
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, 0.0, testing.AllocsPerRun(1000, tt.f))
		})
	}
}

// The results of TestStringAllocs go here, so that they escape as a
// caller's would.
var (
	sinkString string
	sinkBytes  []byte
)

// TestStringAllocs checks that the text forms allocate only their result,
// even for the longest version, as netip's TestAddrStringAllocs does for
// addresses: the digits are laid out in a buffer on the stack that holds
// three 20-digit parts.
func TestStringAllocs(t *testing.T) {
	longest := Version{1<<64 - 1, 1<<64 - 1, 1<<64 - 1}
	tests := []struct {
		name string
		f    func()
	}{
		{"String", func() { sinkString = longest.String() }},
		{"Semver", func() { sinkString = longest.Semver() }},
		{"MarshalText", func() { sinkBytes, _ = longest.MarshalText() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, 1.0, testing.AllocsPerRun(1000, tt.f))
		})
	}
}
