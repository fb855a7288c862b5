package jsstr

import (
	"cmp"
	"unicode/utf8"
)

// Compare compares a and b as JavaScript's default sort orders strings, by
// their UTF-16 code units, and returns -1, 0 or +1. That is the order of
// their code points (which [strings.Compare] gives for UTF-8) except that a
// character beyond U+FFFF, a surrogate pair from 0xD800 on, comes before
// U+E000 to U+FFFF: "\U0001F600" < "\uFFFF". A byte that is not UTF-8
// compares as U+FFFD. Compare does not allocate.
func Compare(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			return cmp.Compare(utf16Key(ra), utf16Key(rb))
		}
		a, b = a[na:], b[nb:]
	}
	return cmp.Compare(len(a), len(b))
}

// utf16Key is r's first UTF-16 code unit, with its second one after it, so
// that comparing keys compares code units.
func utf16Key(r rune) uint32 {
	if r >= 0x10000 {
		r -= 0x10000
		return (0xD800+uint32(r)>>10)<<16 | (0xDC00 + uint32(r)&0x3FF)
	}
	return uint32(r) << 16
}
