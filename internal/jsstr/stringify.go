package jsstr

import (
	"strings"
	"unicode/utf8"
)

// Stringify returns JSON.stringify(s), the well-formed form of ES2019:
//
//   - s in double quotes, with '"' and '\' escaped by a backslash;
//   - U+0000 to U+001F escaped: \b, \t, \n, \f and \r so, the others as
//     \u00xx, hex in lower case;
//   - each lone surrogate as \uxxxx;
//   - everything else as it is, U+007F, U+2028 and U+2029 included.
//
// A lone surrogate is read from its WTF-8 bytes (ED A0..BF 80..BF). That
// is how a \u escape leaves one in a string of the YAML reader. A high and
// a low surrogate written so, one after the other, are one character, as
// in JavaScript. Any other byte that is not UTF-8 is written as U+FFFD.
func Stringify(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			writeASCII(&b, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			r, n = surrogate(s[i:])
		}
		if 0xD800 <= r && r <= 0xDFFF {
			writeEscape(&b, r)
		} else {
			b.WriteRune(r)
		}
		i += n
	}
	b.WriteByte('"')
	return b.String()
}

// writeASCII writes the ASCII character c as JSON.stringify does.
func writeASCII(b *strings.Builder, c byte) {
	switch c {
	case '"', '\\':
		b.WriteByte('\\')
		b.WriteByte(c)
	case '\b':
		b.WriteString(`\b`)
	case '\t':
		b.WriteString(`\t`)
	case '\n':
		b.WriteString(`\n`)
	case '\f':
		b.WriteString(`\f`)
	case '\r':
		b.WriteString(`\r`)
	default:
		if c < 0x20 {
			writeEscape(b, rune(c))
		} else {
			b.WriteByte(c)
		}
	}
}

// writeEscape writes the code unit u as \uxxxx.
func writeEscape(b *strings.Builder, u rune) {
	const hex = "0123456789abcdef"
	b.WriteString(`\u`)
	b.WriteByte(hex[u>>12&0xf])
	b.WriteByte(hex[u>>8&0xf])
	b.WriteByte(hex[u>>4&0xf])
	b.WriteByte(hex[u&0xf])
}

// surrogate reads the WTF-8 surrogate s starts with: a lone one as itself
// (a rune from 0xD800 to 0xDFFF) and its 3 bytes, a high one followed by a
// low one as the character they make and their 6 bytes; or U+FFFD and 1
// for a byte that starts neither.
func surrogate(s string) (rune, int) {
	hi, ok := wtf8Unit(s)
	if !ok {
		return utf8.RuneError, 1
	}
	if lo, ok := wtf8Unit(s[3:]); ok && hi < 0xDC00 && lo >= 0xDC00 {
		return 0x10000 + (hi-0xD800)<<10 + (lo - 0xDC00), 6
	}
	return hi, 3
}

// wtf8Unit returns the surrogate code unit whose WTF-8 bytes s starts
// with, if it does.
func wtf8Unit(s string) (rune, bool) {
	if len(s) < 3 || s[0] != 0xED || s[1] < 0xA0 || s[1] > 0xBF || s[2] < 0x80 || s[2] > 0xBF {
		return 0, false
	}
	return 0xD000 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), true
}
