package jsstr

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nodeLower is testdata/lower.json, what node 20 answers (testdata/gen/lower.mjs).
type nodeLower struct {
	Lower         [][2]json.RawMessage
	Cased         [][2]rune
	CaseIgnorable [][2]rune
	Sigma         [][2]string
}

func readNodeLower(t *testing.T) nodeLower {
	t.Helper()
	raw, err := os.ReadFile("testdata/lower.json")
	require.NoError(t, err)
	var d nodeLower
	require.NoError(t, json.Unmarshal(raw, &d))
	return d
}

// TestToLowerEveryCodePoint compares each code point alone with node's
// toLowerCase: its own lower case when node changes it, itself otherwise.
func TestToLowerEveryCodePoint(t *testing.T) {
	t.Parallel()
	d := readNodeLower(t)
	want := map[rune]string{}
	for _, e := range d.Lower {
		var cp rune
		var to []rune
		require.NoError(t, json.Unmarshal(e[0], &cp))
		require.NoError(t, json.Unmarshal(e[1], &to))
		want[cp] = string(to)
	}
	require.Greater(t, len(want), 1400)
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		w, ok := want[r]
		if !ok {
			w = string(r)
		}
		if got := ToLower(string(r)); got != w { // compared first: testify on 1.1M code points is slow
			require.Equal(t, w, got, "ToLower(%U): node's answer", r)
		}
	}
}

// TestToLowerFinalSigma compares node's answers for strings of capital
// sigma among cased, uncased and case-ignorable characters.
func TestToLowerFinalSigma(t *testing.T) {
	t.Parallel()
	d := readNodeLower(t)
	require.NotEmpty(t, d.Sigma)
	for _, c := range d.Sigma {
		assert.Equal(t, c[1], ToLower(c[0]), "%+q", c[0])
	}
}

// TestRanges checks the generated ranges against lower.json's, code point
// by code point at each bound.
func TestRanges(t *testing.T) {
	t.Parallel()
	d := readNodeLower(t)
	for _, tc := range []struct {
		name   string
		ranges string
		want   [][2]rune
	}{
		{"Cased", casedRanges, d.Cased},
		{"Case_Ignorable", caseIgnorableRanges, d.CaseIgnorable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.Len(t, tc.ranges, 6*len(tc.want))
			for _, r := range tc.want {
				assert.True(t, inRanges(tc.ranges, r[0]), "%U", r[0])
				assert.True(t, inRanges(tc.ranges, r[1]), "%U", r[1])
				assert.False(t, inRanges(tc.ranges, r[0]-1), "%U", r[0]-1)
				assert.False(t, inRanges(tc.ranges, r[1]+1), "%U", r[1]+1)
			}
		})
	}
}

func TestToLower(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"lower ascii", "docker", "docker"},
		{"upper ascii", "Docker-LINUX", "docker-linux"},
		{"dotted capital i", "\u0130stanbul", "i\u0307stanbul"},
		{"kelvin sign", "\u212Aici:x", "kici:x"},
		{"final sigma", "ΟΔΟΣ", "οδος"},
		{"sigma alone", "Σ", "σ"},
		{"sigma inside a word", "ΑΣΑ", "ασα"},
		{"sigma before an apostrophe", "ΑΣ'", "ας'"},
		{"sigma after an apostrophe", "Α'Σ", "α'ς"},
		{"invalid utf-8 kept", "A\xffB", "a\xffb"},
		{"replacement character", "A\uFFFD", "a\uFFFD"},
		{"capital sharp s", "\u1E9E", "ß"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, ToLower(tc.in))
		})
	}
}

func TestToLowerNoAllocation(t *testing.T) {
	s := "docker-linux-x64"
	allocs := testing.AllocsPerRun(100, func() { _ = ToLower(s) })
	assert.Equal(t, 0.0, allocs)
	assert.True(t, utf8.ValidString(ToLower("ÀÉ")))
}

func FuzzToLower(f *testing.F) {
	for _, s := range []string{"", "Docker", "ΟΔΟΣ", "\u0130", "A\xffΣ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l := ToLower(s)
		// Lower-casing twice changes nothing more, and keeps valid UTF-8 valid.
		assert.Equal(t, l, ToLower(l))
		if utf8.ValidString(s) {
			assert.True(t, utf8.ValidString(l))
		}
	})
}

// TestLowerSpecialTable checks the generated table's records: in strictly
// ascending code point order, each lower case valid UTF-8, padded with
// zero bytes, and different from what unicode.ToLower gives.
func TestLowerSpecialTable(t *testing.T) {
	t.Parallel()
	require.Zero(t, len(lowerSpecialTable)%specialWidth)
	prev := rune(-1)
	for i := 0; i < len(lowerSpecialTable); i += specialWidth {
		rec := lowerSpecialTable[i : i+specialWidth]
		cp := codePoint(rec, 0)
		assert.Greater(t, cp, prev, "records out of order at %U", cp)
		prev = cp
		to := rec[4 : 4+int(rec[3])]
		assert.True(t, utf8.ValidString(to), "%U", cp)
		assert.Equal(t, strings.Repeat("\x00", specialWidth-4-len(to)), rec[4+len(to):], "%U", cp)
		got, ok := lowerSpecial(cp)
		assert.True(t, ok)
		assert.Equal(t, to, got)
		assert.NotEqual(t, string(unicode.ToLower(cp)), to, "%U", cp)
	}
	_, ok := lowerSpecial('A')
	assert.False(t, ok)
	_, ok = lowerSpecial(unicode.MaxRune)
	assert.False(t, ok)
}

func BenchmarkToLower(b *testing.B) {
	for _, s := range []string{"docker-linux-x64", "Docker-LINUX", "İSTANBUL ΟΔΟΣ \U00010D50"} {
		b.Run(s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = ToLower(s)
			}
		})
	}
}
