package errtext

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestQuote(t *testing.T) {
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
			assert.Equal(t, tt.want, Quote(tt.in))
		})
	}
}

func TestQuoteIsBounded(t *testing.T) {
	huge := strings.Repeat("\u00e9\"\\", 1<<20)
	q := Quote(huge)
	// Each byte quotes to at most 4 bytes (\xNN), plus the quotes and the
	// length note.
	assert.LessOrEqual(t, len(q), 4*MaxQuoted+40)
	unq, err := strconv.Unquote(q[:strings.LastIndex(q, `"`)+1])
	assert.NoError(t, err)
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
		if err != nil {
			t.Fatalf("Quote(%q) = %s: its quoted part does not unquote: %v", s, q, err)
		}
		if !strings.HasPrefix(s, unq) || len(unq) > MaxQuoted {
			t.Fatalf("Quote(%q) = %s: not a prefix of at most %d bytes", s, q, MaxQuoted)
		}
		if (len(s) <= MaxQuoted) != (end == len(q)) || (len(s) <= MaxQuoted && unq != s) {
			t.Fatalf("Quote(%q) = %s: a short input must be quoted whole, a long one noted", s, q)
		}
	})
}
