package jsstr

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jsSpace is ECMAScript's white space, built from Unicode's tables rather
// than listed: the WhiteSpace code points (TAB, VT, FF, ZWNBSP and every
// Space_Separator, category Zs) and the LineTerminator ones (LF, CR, LS, PS).
// Node 20 agrees over every code point:
//
//	node -e 'for (let c = 0; c <= 0x10ffff; c++) { const s = String.fromCodePoint(c);
//	  if (/\s/.test(s) !== (s.trim() === "")) throw c; if (/\s/.test(s)) console.log(c.toString(16)) }'
//
// prints 9 a b c d 20 a0 1680 2000-200a 2028 2029 202f 205f 3000 feff.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\v', '\f', 0xFEFF, '\n', '\r', 0x2028, 0x2029:
		return true
	}
	return unicode.Is(unicode.Zs, r)
}

// TestIsSpace checks IsSpace against the tables for every code point, and
// states how it differs from Go's own unicode.IsSpace (the White_Space
// property): JavaScript leaves out U+0085 (NEL) and adds U+FEFF.
func TestIsSpace(t *testing.T) {
	t.Parallel()
	for r := rune(0); r <= unicode.MaxRune; r++ {
		// Compared first: testify on 1.1M code points is slow.
		if got, want := IsSpace(r), jsSpace(r); got != want {
			require.Equal(t, want, got, "IsSpace(%U)", r)
		}
		if want := r == 0xFEFF || r != 0x85 && unicode.IsSpace(r); IsSpace(r) != want {
			require.Equal(t, want, IsSpace(r), "IsSpace(%U) against unicode.IsSpace less NEL plus BOM", r)
		}
	}
}

func TestSpaceLen(t *testing.T) {
	t.Parallel()
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		s := string(r) + "x"
		want := 0
		if jsSpace(r) {
			want = utf8.RuneLen(r)
		}
		if got := SpaceLen(s); got != want { // compared first: testify on 1.1M code points is slow
			require.Equal(t, want, got, "SpaceLen(%q)", s)
		}
	}
	assert.Equal(t, 0, SpaceLen(""))
	assert.Equal(t, 0, SpaceLen("\xe3\x80"), "a cut U+3000 is not white space")
	assert.Equal(t, 0, SpaceLen("\x85"), "a lone continuation byte is not NEL")
}

func TestTrim(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"nothing to trim", "0.20.0", "0.20.0"},
		{"ASCII white space", " \t\n\v\f\r0.20.0\r\n ", "0.20.0"},
		{"Unicode white space", "\ufeff\u00a0a b\u3000\u2028", "a b"},
		{"inner space stays", "a \u3000 b", "a \u3000 b"},
		{"all white space", " \t\u2000\u200a ", ""},
		{"NEL is not white space", "\u0085a\u0085", "\u0085a\u0085"},
		{"invalid UTF-8 stays", "\xff 1 \xe3\x80", "\xff 1 \xe3\x80"},
		{"a cut character at the end stays", "1 \xe3\x80", "1 \xe3\x80"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Trim(tt.in))
		})
	}
}

// TestTrimEveryCodePoint checks Trim for every code point against the set,
// at the start, at the end and at both ends of a string.
func TestTrimEveryCodePoint(t *testing.T) {
	t.Parallel()
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		c := string(r)
		for _, s := range []string{c + "1", "1" + c, c + "1" + c} {
			want := s
			if jsSpace(r) {
				want = "1"
			}
			if got := Trim(s); got != want { // compared first: testify on 3.3M strings is slow
				require.Equal(t, want, got, "Trim(%q)", s)
			}
		}
	}
}

func TestTrimLeft(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"nothing to trim", "1k", "1k"},
		{"leading white space goes", " \t\ufeff\u3000k", "k"},
		{"trailing white space stays", "\u2028k ", "k "},
		{"all white space", " \u00a0", ""},
		{"NEL stays", "\u0085k", "\u0085k"},
		{"invalid UTF-8 stays", "\xe3\x80k", "\xe3\x80k"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, TrimLeft(tt.in))
		})
	}
}

func TestTrimNoAllocs(t *testing.T) {
	s := strings.Repeat("\u3000", 4) + "0.20.0" + strings.Repeat(" ", 4)
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = Trim(s) }))
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = TrimLeft(s) }))
}
