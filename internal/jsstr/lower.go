package jsstr

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

//go:generate go run gen_lower.go

// ToLower returns s lower-cased as node 20's String.prototype.toLowerCase
// does. That is ICU's full case mapping, locale independent. It differs
// from strings.ToLower in three ways. A character's lower case may be
// several characters: U+0130 becomes "i̇". It follows a Unicode newer than
// Go's tables. Capital sigma becomes final sigma (ς) at the end of a word, σ
// elsewhere (Unicode's Final_Sigma condition). Invalid UTF-8 is kept as
// it is. A string with nothing to change is returned without allocating.
func ToLower(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c >= utf8.RuneSelf {
			i += writeLower(&b, s, i)
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// writeLower writes the lower case of the character at s[i:], which does
// not start with an ASCII byte, and returns its length in s.
func writeLower(b *strings.Builder, s string, i int) int {
	r, n := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && n == 1:
		b.WriteByte(s[i])
	case r == 'Σ':
		if finalSigma(s, i, i+n) {
			b.WriteRune('ς')
		} else {
			b.WriteRune('σ')
		}
	default:
		if l, ok := lowerSpecial(r); ok {
			b.WriteString(l)
		} else {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return n
}

// finalSigma reports whether the capital sigma at s[start:end] ends a word,
// as ICU reads Unicode's Final_Sigma: before it, past any case-ignorable
// characters, a cased one; after it, past any case-ignorable characters,
// none. A character both cased and case-ignorable is skipped as ignorable.
func finalSigma(s string, start, end int) bool {
	before := false
	for b := s[:start]; b != ""; {
		r, n := utf8.DecodeLastRuneInString(b)
		if !inRanges(caseIgnorableRanges, r) {
			before = inRanges(casedRanges, r)
			break
		}
		b = b[:len(b)-n]
	}
	if !before {
		return false
	}
	for _, r := range s[end:] {
		if !inRanges(caseIgnorableRanges, r) {
			return !inRanges(casedRanges, r)
		}
	}
	return true
}

// specialWidth is the size of a record of lowerSpecialTable.
const specialWidth = 8

// lowerSpecial returns the lower case of r where JavaScript's differs from
// unicode.ToLower's (a mapping to several code points, or one that Go's
// Unicode tables do not have), from the generated lowerSpecialTable: a
// record of specialWidth bytes for each such code point, in code point
// order, the code point in three bytes, the length of its lower case in
// one, then the lower case's UTF-8. The result is a part of the constant:
// it does not allocate.
func lowerSpecial(r rune) (string, bool) {
	lo, hi := 0, len(lowerSpecialTable)/specialWidth
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		rec := lowerSpecialTable[m*specialWidth : (m+1)*specialWidth]
		switch cp := codePoint(rec, 0); {
		case r < cp:
			hi = m
		case r > cp:
			lo = m + 1
		default:
			return rec[4 : 4+int(rec[3])], true
		}
	}
	return "", false
}

// inRanges reports whether r is in the packed ranges of lower_table.go:
// six bytes a range, its first and its last code point.
func inRanges(ranges string, r rune) bool {
	lo, hi := 0, len(ranges)/6
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch {
		case r < codePoint(ranges, m*6):
			hi = m
		case r > codePoint(ranges, m*6+3):
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

// codePoint reads the code point written in three bytes at s[i:].
func codePoint(s string, i int) rune {
	return rune(s[i])<<16 | rune(s[i+1])<<8 | rune(s[i+2])
}
