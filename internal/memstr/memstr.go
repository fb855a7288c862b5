// Package memstr holds the orchestrator's grammar of memory strings
// ("512m", "1.5g"). Its parseMemoryString applies it to two things:
//
//   - a label set's resources, which hostconfig.ParseMemory reads in exact
//     arithmetic into an int64;
//   - a resource cap's maxMemory, which scalerconfig reads in the
//     orchestrator's own float64 arithmetic.
//
// [Split] checks a string against the grammar. Each reader computes its
// bytes from the parts.
//
// The grammar is the regular expression /^(\d+(?:\.\d+)?)\s*([kmgKMG])$/
// of the orchestrator's config.ts (kici-dev/kici-public, commit
// 0b46a9a5a27836be8b5af7a5e0c806592d3b5d6d):
//
//   - a decimal number of ASCII digits, optionally "." and more digits;
//   - JavaScript's white space ([jsstr.IsSpace]);
//   - one unit, k, m or g in either case, with nothing after it.
//
// hostconfig's package documentation gives it to users.
package memstr

import "github.com/kicikit/kicikit/internal/jsstr"

// Memory is a memory string split by the grammar.
type Memory struct {
	// Number is the decimal number as written: digits, optionally "." and
	// more digits.
	Number string
	// Shift is log2 of the unit's multiple: 10 for k, 20 for m, 30 for g.
	Shift uint
}

// Fault is why a string is not a memory string, the first the grammar
// meets from the start of the string.
type Fault uint8

// The faults, in the order Split checks them; OK is none.
const (
	OK       Fault = iota
	Empty          // the empty string
	NoNumber       // no decimal number at the start: "5." and ".5" have none
	NoUnit         // no unit after the number and any white space
	Trailing       // anything after the unit, white space included
)

// Split returns the number and the unit of s. It returns the fault that
// makes s no memory string, if any. It does not allocate.
func Split(s string) (Memory, Fault) {
	if s == "" {
		return Memory{}, Empty
	}
	n := numberLen(s)
	if n == 0 {
		return Memory{}, NoNumber
	}
	rest := s[n:]
	shift := unitShift(rest)
	if shift == 0 {
		// White space before the unit is rare: skip it only now.
		rest = jsstr.TrimLeft(rest)
		shift = unitShift(rest)
	}
	switch {
	case shift == 0:
		return Memory{}, NoUnit
	case len(rest) > 1:
		return Memory{}, Trailing
	}
	return Memory{Number: s[:n], Shift: shift}, OK
}

// numberLen is the length of the decimal number s starts with, 0 for none:
// digits, and a "." only with more digits after it ("5." is no number).
func numberLen(s string) int {
	i := digits(s)
	if i == 0 || i == len(s) || s[i] != '.' {
		return i
	}
	j := digits(s[i+1:])
	if j == 0 {
		return 0
	}
	return i + 1 + j
}

// digits is the length of the ASCII digits s starts with.
func digits(s string) int {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// unitShift returns log2 of the multiple of the unit s starts with, or 0
// when it starts with none.
func unitShift(s string) uint {
	if s == "" {
		return 0
	}
	switch s[0] {
	case 'k', 'K':
		return 10
	case 'm', 'M':
		return 20
	case 'g', 'G':
		return 30
	}
	return 0
}
