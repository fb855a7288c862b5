package jsstr

import "unicode/utf8"

// IsSpace reports whether JavaScript reads r as white space. That is a
// WhiteSpace or LineTerminator code point of ECMAScript, which
// String.prototype.trim removes and \s matches. It is [unicode.IsSpace]
// without U+0085 (NEL) and with U+FEFF (ZERO WIDTH NO-BREAK SPACE).
func IsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}

// SpaceLen returns the length in bytes of the white space character
// ([IsSpace]) that s starts with. It returns 0 when s starts with none.
// Invalid UTF-8 is not white space.
func SpaceLen(s string) int {
	if s == "" {
		return 0
	}
	if c := s[0]; c < utf8.RuneSelf {
		if isASCIISpace(c) {
			return 1
		}
		return 0
	}
	if r, n := utf8.DecodeRuneInString(s); IsSpace(r) {
		return n
	}
	return 0
}

func isASCIISpace(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' }

// Trim returns s without its leading and trailing white space ([IsSpace]),
// as String.prototype.trim does. It does not allocate.
func Trim(s string) string {
	// The common case first: nothing to trim.
	if s == "" || s[0] < utf8.RuneSelf && !isASCIISpace(s[0]) && s[len(s)-1] < utf8.RuneSelf && !isASCIISpace(s[len(s)-1]) {
		return s
	}
	return trimRight(trimLeft(s))
}

// TrimLeft returns s without its leading white space ([IsSpace]), as
// String.prototype.trimStart does. It does not allocate.
func TrimLeft(s string) string {
	// The common case, nothing to trim, stays small enough to inline.
	if s == "" || s[0] < utf8.RuneSelf && !isASCIISpace(s[0]) {
		return s
	}
	return trimLeft(s)
}

func trimLeft(s string) string {
	for {
		n := SpaceLen(s)
		if n == 0 {
			return s
		}
		s = s[n:]
	}
}

func trimRight(s string) string {
	for s != "" {
		r, n := rune(s[len(s)-1]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeLastRuneInString(s)
		}
		if !IsSpace(r) {
			break
		}
		s = s[:len(s)-n]
	}
	return s
}
