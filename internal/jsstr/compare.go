package jsstr

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Compare compares a and b as JavaScript compares strings (the < operator
// and Array.prototype.sort without a comparator): by UTF-16 code units. It
// returns -1, 0 or +1. That is Go's byte order except where a character
// beyond U+FFFF (a surrogate pair, from 0xD800) meets one of U+E000 to
// U+FFFF: JavaScript puts the former first. Invalid UTF-8 reads as U+FFFD,
// one byte at a time. It allocates nothing.
func Compare(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	// Back up to a byte that starts a character (decoding from the start
	// of the string steps on every such byte), so that the characters the
	// first difference is in are decoded whole in both strings.
	for i > 0 && (continues(a, i) || continues(b, i)) {
		i--
	}
	a, b = a[i:], b[i:]
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ka, kb := unitKey(ra), unitKey(rb); ka != kb {
			if ka < kb {
				return -1
			}
			return 1
		}
		a, b = a[na:], b[nb:]
	}
	switch {
	case a == "" && b == "":
		return 0
	case a == "":
		return -1
	}
	return 1
}

// continues reports whether s has a UTF-8 continuation byte at i.
func continues(s string, i int) bool { return i < len(s) && !utf8.RuneStart(s[i]) }

// unitKey is r's first UTF-16 code unit in its high half and its second, if
// any, in its low half, so that comparing keys compares code units.
func unitKey(r rune) uint32 {
	if r >= 0x10000 {
		hi, lo := utf16.EncodeRune(r)
		return uint32(hi)<<16 | uint32(lo)
	}
	return uint32(r) << 16
}
