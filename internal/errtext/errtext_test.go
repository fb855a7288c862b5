package errtext

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestQuote(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", MaxQuoted)
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", `""`},
		{"short", "1.2", `"1.2"`},
		{"control bytes stay visible", "a\nb\x00", `"a\nb\x00"`},
		{"exactly the limit", long, strconv.Quote(long)},
		{"one byte over", long + "b", strconv.Quote(long) + "... (65 bytes)"},
		{"a rune across the cut is left out whole", long[:MaxQuoted-1] + "é" + "z", strconv.Quote(long[:MaxQuoted-1]) + "... (66 bytes)"},
		{"invalid UTF-8 is cut where it is", long[:MaxQuoted-1] + "\xff\xff", strconv.Quote(long[:MaxQuoted-1]+"\xff") + "... (65 bytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Quote(tt.in))
		})
	}
}

func TestQuoteIsBounded(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("\u00e9\"\\", 1<<20)
	q := Quote(huge)
	// Each byte quotes to at most 4 bytes (\xNN), plus the quotes and the
	// length note.
	assert.LessOrEqual(t, len(q), 4*MaxQuoted+40)
	unq, err := strconv.Unquote(q[:strings.LastIndex(q, `"`)+1])
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(huge, unq), "the quoted part is a prefix of the input")
	assert.True(t, utf8.ValidString(unq))
}

func FuzzQuote(f *testing.F) {
	f.Add("")
	f.Add(strings.Repeat("é", 40))
	f.Add(strings.Repeat("a", MaxQuoted) + "\xff")
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		end := strings.LastIndex(q, `"`) + 1
		unq, err := strconv.Unquote(q[:end])
		require.NoError(t, err, "Quote(%q) = %s: its quoted part does not unquote", s, q)
		assert.True(t, strings.HasPrefix(s, unq), "Quote(%q) = %s: not a prefix", s, q)
		assert.LessOrEqual(t, len(unq), MaxQuoted, "Quote(%q) = %s", s, q)
		assert.Equal(t, len(s) <= MaxQuoted, end == len(q), "Quote(%q) = %s: a short input is quoted whole, a long one noted", s, q)
		if len(s) <= MaxQuoted {
			assert.Equal(t, s, unq, "Quote(%q) = %s: a short input is quoted whole", s, q)
		}
	})
}
