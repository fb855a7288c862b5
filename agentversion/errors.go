package agentversion

import (
	"strconv"

	"github.com/kicikit/kicikit/internal/errtext"
)

// Reason is why a string is not a version. Each Reason is an error value.
// A caller branches on it with errors.Is:
//
//	if errors.Is(err, agentversion.ErrRange) { … }
//
// The zero Reason is not one of them and is never reported.
type Reason uint8

// The reasons a string is not a version, in the order [Parse] checks them.
const (
	// ErrEmpty means the input is empty or only white space.
	ErrEmpty Reason = iota + 1
	// ErrPartCount means the input, before its first "-", is not three
	// dot-separated parts.
	ErrPartCount
	// ErrNotDigits means a part is empty or holds something other than
	// ASCII digits, such as a "v", a "+build" or a space.
	ErrNotDigits
	// ErrRange means a part is all digits but too large for uint64. A part
	// that is also not all digits is reported as ErrNotDigits.
	ErrRange
)

// Error returns a short lower-case description of r.
func (r Reason) Error() string {
	switch r {
	case ErrEmpty:
		return "empty version"
	case ErrPartCount:
		return "not three dot-separated parts"
	case ErrNotDigits:
		return "a part is not a run of ASCII digits"
	case ErrRange:
		return "a part is too large"
	}
	return "reason " + strconv.Itoa(int(r))
}

// ParseError reports a string that is not a version.
type ParseError struct {
	Func   string // the function that refused Input: "Parse", "ParseTarget" or "Compare"
	Input  string // the string as given to Func
	Reason Reason // why it is not a version
}

// Error returns `agentversion.<Func>(<input>): <reason>`. The input is
// quoted, cut to its first 64 bytes, with its length when it is longer.
func (e *ParseError) Error() string {
	return "agentversion." + e.Func + "(" + errtext.Quote(e.Input) + "): " + e.Reason.Error()
}

// Unwrap returns e.Reason, so that errors.Is(err, ErrRange) works.
func (e *ParseError) Unwrap() error {
	return e.Reason
}

// CompareError reports that [Compare] was given a string that is not a
// version. It names each side that failed.
type CompareError struct {
	A, B string // the arguments, as given to Compare

	// ErrA is why A is not a version, nil when it is one; ErrB likewise for
	// B. At least one of them is set.
	ErrA, ErrB *ParseError
}

func newCompareError(a, b string, ra, rb Reason) *CompareError {
	e := &CompareError{A: a, B: b}
	if ra != 0 {
		e.ErrA = &ParseError{Func: "Compare", Input: a, Reason: ra}
	}
	if rb != 0 {
		e.ErrB = &ParseError{Func: "Compare", Input: b, Reason: rb}
	}
	return e
}

// Error returns `agentversion.Compare(<a>, <b>): <side>: <reason>`. The
// side is "a", "b" or both. Each input is quoted as [ParseError.Error]
// quotes it.
func (e *CompareError) Error() string {
	s := "agentversion.Compare(" + errtext.Quote(e.A) + ", " + errtext.Quote(e.B) + "): "
	switch {
	case e.ErrA != nil && e.ErrB != nil:
		return s + "a: " + e.ErrA.Reason.Error() + "; b: " + e.ErrB.Reason.Error()
	case e.ErrA != nil:
		return s + "a: " + e.ErrA.Reason.Error()
	case e.ErrB != nil:
		return s + "b: " + e.ErrB.Reason.Error()
	}
	return s + "no side failed"
}

// Unwrap returns the [*ParseError] of each side that failed, a first. So
// errors.As finds a's when both failed.
func (e *CompareError) Unwrap() []error {
	errs := make([]error, 0, 2)
	if e.ErrA != nil {
		errs = append(errs, e.ErrA)
	}
	if e.ErrB != nil {
		errs = append(errs, e.ErrB)
	}
	return errs
}
