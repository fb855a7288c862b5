// Package errtext holds the one rule kicikit's error messages follow for the
// input they quote: strconv.Quote of at most [MaxQuoted] bytes. So an error
// about a 10 MB string stays a line, not a copy of the string.
//
// Every error of the module reads
//
//	<package>.<Func>(<quoted input>): <reason>
//
// When the call has no single input, it reads <package>.<Func>: <message>.
// Each input is quoted by [Quote].
package errtext

import (
	"strconv"
	"unicode/utf8"
)

// MaxQuoted is the most bytes of an input that [Quote] shows.
const MaxQuoted = 64

// Quote returns s quoted as strconv.Quote quotes it, when s is at most
// MaxQuoted bytes long. A longer s is cut to its first MaxQuoted bytes,
// less any UTF-8 sequence the cut would split. The cut is quoted, then
// followed by "..." and the whole length: "\"aaa…\"... (10485760 bytes)".
func Quote(s string) string {
	if len(s) <= MaxQuoted {
		return strconv.Quote(s)
	}
	cut := MaxQuoted
	// Back off to the start of a rune, but never more than a rune's length:
	// invalid UTF-8 is cut where it is.
	for i := cut; i > cut-utf8.UTFMax && i > 0; i-- {
		if utf8.RuneStart(s[i]) {
			cut = i
			break
		}
	}
	return strconv.Quote(s[:cut]) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}
