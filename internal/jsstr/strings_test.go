package jsstr

import (
	"cmp"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nodeCase is one case of JSON.stringify: the string as its UTF-16 code
// units, and node's result.
type nodeCase struct {
	In   []uint16
	Want string
}

// UnmarshalJSON reads a case, written as [units, result].
func (c *nodeCase) UnmarshalJSON(b []byte) error {
	var pair [2]json.RawMessage
	if err := json.Unmarshal(b, &pair); err != nil {
		return err
	}
	if err := json.Unmarshal(pair[0], &c.In); err != nil {
		return err
	}
	return json.Unmarshal(pair[1], &c.Want)
}

// readNodeStrings reads testdata/strings.json, what node 20 answers
// (testdata/gen/strings.mjs).
func readNodeStrings(t *testing.T) (cases []nodeCase, sorted [][]uint16) {
	t.Helper()
	raw, err := os.ReadFile("testdata/strings.json")
	require.NoError(t, err)
	var d struct {
		Stringify []nodeCase
		Sort      [][]uint16
	}
	require.NoError(t, json.Unmarshal(raw, &d))
	require.Greater(t, len(d.Stringify), 150)
	require.Greater(t, len(d.Sort), 20)
	return d.Stringify, d.Sort
}

// wtf8 returns UTF-16 code units as a Go string the way the YAML reader
// holds them: a pair as its character's UTF-8, a lone surrogate as the
// three bytes UTF-8 would give its code point.
func wtf8(units []uint16) string {
	var b []byte
	for i := 0; i < len(units); i++ {
		r := rune(units[i])
		if utf16.IsSurrogate(r) && r < 0xDC00 && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] < 0xE000 {
			r = utf16.DecodeRune(r, rune(units[i+1]))
			i++
		}
		if utf16.IsSurrogate(r) {
			b = append(b, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
			continue
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// TestStringifyLikeNode compares with node's JSON.stringify: every ASCII
// character, the edges of each UTF-8 length, and surrogates alone, paired
// and reversed.
func TestStringifyLikeNode(t *testing.T) {
	t.Parallel()
	cases, _ := readNodeStrings(t)
	for _, c := range cases {
		assert.Equal(t, c.Want, Stringify(wtf8(c.In)), "%U", c.In)
	}
}

func TestStringify(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", `""`},
		{"quote and backslash", `a"b\c`, `"a\"b\\c"`},
		{"short escapes", "\b\t\n\f\r", `"\b\t\n\f\r"`},
		{"other controls in lower-case hex", "\x00\x1b\x1f", `"\u0000\u001b\u001f"`},
		{"DEL and line separators as they are", "\x7f\u2028\u2029", "\"\x7f\u2028\u2029\""},
		{"a lone surrogate in WTF-8", "a\xed\xa0\x80b", `"a\ud800b"`},
		{"a high and a low one in WTF-8 are one character", "\xed\xa0\xbd\xed\xb8\x80", `"😀"`},
		{"a low one before a high one", "\xed\xb8\x80\xed\xa0\xbd", `"\ude00\ud83d"`},
		{"a cut surrogate is not one", "\xed\xa0", "\"\uFFFD\uFFFD\""},
		{"invalid UTF-8 byte by byte", "\xff\xc3", "\"\uFFFD\uFFFD\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, Stringify(tc.in))
		})
	}
}

// TestCompareLikeNode: sorting node's strings with Compare gives node's
// order, and Compare agrees with the order of their code units.
func TestCompareLikeNode(t *testing.T) {
	t.Parallel()
	_, sorted := readNodeStrings(t)
	want := make([]string, len(sorted))
	for i, u := range sorted {
		want[i] = wtf8(u)
	}
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortStableFunc(got, Compare)
	assert.Equal(t, want, got)
	for i := range sorted {
		for j := range sorted {
			assert.Equal(t, slices.Compare(sorted[i], sorted[j]), Compare(want[i], want[j]), "%q %q", want[i], want[j])
		}
	}
}

// TestCompareDropIns: the order of file names in JavaScript's sort, and so
// in scalerconfig.Load's order of drop-ins.
func TestCompareDropIns(t *testing.T) {
	t.Parallel()
	sorted := []string{"10.yaml", "9.yaml", "a.yaml", "a.yml", "ab", "\U00010000.yaml", "\uE000.yaml"}
	for i, a := range sorted {
		for j, b := range sorted {
			assert.Equal(t, cmp.Compare(i, j), Compare(a, b), "%q %q", a, b)
		}
	}
}

func FuzzStringify(f *testing.F) {
	for _, s := range []string{"", `"\`, "\x00\u2028", "\xed\xa0\x80", "\xed\xa0\xbd\xed\xb8\x80", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Stringify(s)
		// Valid JSON that reads back as s wherever s is valid UTF-8.
		require.True(t, utf8.ValidString(out))
		var back string
		require.NoError(t, json.Unmarshal([]byte(out), &back), "%q", out)
		if utf8.ValidString(s) {
			assert.Equal(t, s, back)
		}
	})
}
