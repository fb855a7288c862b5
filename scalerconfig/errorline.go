package scalerconfig

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// What [Error.Error] writes of the problems: the first maxShownProblems,
// each part of a problem's line at most so many bytes once escaped.
const (
	maxShownProblems = 20
	maxShownFile     = 256
	maxShownPath     = 256
	maxShownMessage  = 512
)

// line is p as a line of Error: "file:line:column: path: message", each
// part shown (escaped, and cut around its middle when long).
func (p Problem) line() string {
	var b strings.Builder
	b.WriteString(shown(p.File, maxShownFile))
	if p.Line > 0 {
		b.WriteString(":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column))
	}
	b.WriteString(": ")
	if p.Path != "" {
		b.WriteString(shown(p.Path, maxShownPath) + ": ")
	}
	b.WriteString(shown(p.Message, maxShownMessage))
	if hint := p.DidYouMean(); hint != "" {
		b.WriteString("; " + shown(hint, maxShownMessage))
	}
	return b.String()
}

// shown returns s escaped as strconv.Quote escapes it, without the quotes
// and leaving '"' and '\' as they are, so that it stays on one line: a
// control character (C0, DEL and C1), any other rune Go does not print,
// and a byte of invalid UTF-8 (\xff). When that is longer than max bytes,
// only its start and its end are written, each at most max/2 bytes and
// cut between runes, around "... (N bytes) ...", N being len(s).
func shown(s string, max int) string {
	if len(s) <= max && printableASCII(s) {
		return s
	}
	var head strings.Builder
	cut, at := -1, 0 // the head's length once it is max/2 bytes, and where it ends in s
	for i := 0; i < len(s); {
		esc, n := escapeRune(s[i:])
		if head.Len()+len(esc) > max/2 && cut < 0 {
			cut, at = head.Len(), i
		}
		if head.Len()+len(esc) > max {
			return head.String()[:cut] + "... (" + strconv.Itoa(len(s)) + " bytes) ..." + tail(s[at:], max/2)
		}
		head.WriteString(esc)
		i += n
	}
	return head.String()
}

// tail is the end of s, escaped, at most max bytes of it.
func tail(s string, max int) string {
	var parts []string
	size := 0
	for end := len(s); end > 0; {
		esc, n := escapeLastRune(s[:end])
		if size+len(esc) > max {
			break
		}
		parts = append(parts, esc)
		size += len(esc)
		end -= n
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(parts[i])
	}
	return b.String()
}

// escapeRune returns the first rune of s as shown writes it, and its
// length in s.
func escapeRune(s string) (string, int) {
	r, n := utf8.DecodeRuneInString(s)
	return escape(r, n, s[:n]), n
}

// escapeLastRune is escapeRune of the last rune of s.
func escapeLastRune(s string) (string, int) {
	r, n := utf8.DecodeLastRuneInString(s)
	return escape(r, n, s[len(s)-n:]), n
}

// escape is the rune r, written as raw in s, as shown writes it.
func escape(r rune, n int, raw string) string {
	switch {
	case r == utf8.RuneError && n == 1:
		return `\x` + strconv.FormatUint(uint64(raw[0])>>4, 16) + strconv.FormatUint(uint64(raw[0])&15, 16)
	case r == '"' || r == '\\' || strconv.IsPrint(r):
		return raw
	}
	q := strconv.QuoteRune(r) // '\n', '\x1b', '\u0085'
	return q[1 : len(q)-1]
}

// printableASCII reports whether s holds only printable ASCII.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
