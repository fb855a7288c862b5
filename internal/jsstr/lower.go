package jsstr

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

//go:generate go run gen_lower.go

// ToLower returns s lower-cased as JavaScript's String.prototype.toLowerCase
// does it in node 20 (ICU's full case mapping, locale independent): where
// a character's lower case is several characters (U+0130 becomes "i̇"),
// where Unicode is newer than Go's tables, and capital sigma, which is final
// sigma (ς) at the end of a word and σ elsewhere (Unicode's Final_Sigma
// condition). Invalid UTF-8 is kept as it is. A string with nothing to
// change is returned without allocating.
func ToLower(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			break
		}
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for i < len(s) {
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
		i += n
	}
	return b.String()
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

// inRanges reports whether r is in the packed ranges of lower_table.go.
func inRanges(ranges string, r rune) bool {
	lo, hi := 0, len(ranges)/6
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		e := ranges[m*6:]
		first := rune(e[0])<<16 | rune(e[1])<<8 | rune(e[2])
		last := rune(e[3])<<16 | rune(e[4])<<8 | rune(e[5])
		switch {
		case r < first:
			hi = m
		case r > last:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}
