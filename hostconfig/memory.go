package hostconfig

import (
	"github.com/kicikit/kicikit/internal/errtext"
	"github.com/kicikit/kicikit/internal/memstr"
)

// ParseMemory returns the number of bytes a memory string stands for, such
// as "512m" or "1.5g". It reads a scaler config's memory limit as the
// orchestrator does. The package documentation gives the grammar: a decimal
// number, optional white space, and one unit k, m or g in either case. The
// units are binary multiples (1024, 1024², 1024³).
//
// The result is the floor of the number times the unit. It is computed
// exactly, however many fractional digits there are. So "0.0001k" is 0, and
// "1.9999999999999999999k" is 2047, where float64 arithmetic would answer
// 2048.
//
// Any other string is a *[ParseError] naming the input and its [Reason], as
// is a value of more than [math.MaxInt64] bytes. The result is then 0.
// ParseMemory does not allocate unless it fails.
func ParseMemory(s string) (int64, error) {
	m, fault := memstr.Split(s)
	if fault != memstr.OK {
		return 0, &ParseError{Input: s, Reason: faultReason(fault)}
	}
	whole, frac := wholeAndFraction(m.Number)
	if whole > (1<<63-1)>>m.Shift {
		// whole<<shift is a multiple of 2^shift, so when it is at most
		// MaxInt64 it is at most 2^63 - 2^shift, and adding the
		// fraction's bytes (less than 2^shift) still fits.
		return 0, &ParseError{Input: s, Reason: ErrRange}
	}
	return int64(whole<<m.Shift + fracBytes(frac, m.Shift)), nil
}

// faultReason is the Reason of a string the grammar refuses.
func faultReason(f memstr.Fault) Reason {
	switch f {
	case memstr.Empty:
		return ErrEmpty
	case memstr.NoNumber:
		return ErrNumber
	case memstr.NoUnit:
		return ErrUnit
	}
	return ErrTrailing
}

// wholeAndFraction reads a number of the grammar, digits with optionally
// "." and more digits: its integer part and its fractional digits ("" for
// none). Past 2^53 the integer part is out of range for every unit (k
// allows at most 2^53-1), so it stops growing there instead of
// overflowing.
func wholeAndFraction(number string) (whole uint64, frac string) {
	i := 0
	for ; i < len(number) && number[i] != '.'; i++ {
		if whole < 1<<53 {
			whole = whole*10 + uint64(number[i]-'0')
		}
	}
	if i < len(number) {
		frac = number[i+1:]
	}
	return whole, frac
}

// fracBytes returns floor(0.d1d2…dn × 2^shift) for the digits d1…dn of frac,
// exactly, from the last digit back: with q the floor for 0.d(i+1)…dn, the
// floor for 0.di…dn is (di × 2^shift + q) / 10, since
// floor((a+y)/10) = floor((a+floor(y))/10) for an integer a and a real
// y >= 0. q stays below 2^shift.
func fracBytes(frac string, shift uint) uint64 {
	var q uint64
	for j := len(frac) - 1; j >= 0; j-- {
		q = (uint64(frac[j]-'0')<<shift + q) / 10
	}
	return q
}

// ParseError is the error [ParseMemory] returns for a string it refuses.
type ParseError struct {
	// Input is the string as given to ParseMemory.
	Input string
	// Reason says what is wrong with it.
	Reason Reason
}

// Error returns a one-line message naming the call, the input and the
// reason. An example is `hostconfig.ParseMemory("2x"): no unit k, m or g
// after the number`.
func (e *ParseError) Error() string {
	return "hostconfig.ParseMemory(" + errtext.Quote(e.Input) + "): " + e.Reason.Error()
}

// Unwrap returns the reason. So errors.Is(err, [ErrRange]) matches the
// reason of a ParseError anywhere in err's chain.
func (e *ParseError) Unwrap() error { return e.Reason }

// Reason is what is wrong with a limit as written. It says why [ParseMemory]
// refuses a memory string. [ErrZeroLimit] says why [ResolveSpawnLimits]
// refuses a limit. A Reason is an error itself. So a caller can branch on
// errors.Is(err, hostconfig.ErrRange) without unpacking the [ParseError].
// Being a constant, it cannot be reassigned.
type Reason uint8

// The reasons [ParseMemory] refuses a string for, checked in this order
// from the start of the string, with [ErrRange] last: "99999999999999999999x"
// is [ErrUnit].
const (
	// ErrEmpty is an empty string.
	ErrEmpty Reason = iota + 1
	// ErrNumber is a string that does not start with a decimal number. Either
	// something comes before the digits (a sign, white space, a unit), or a "."
	// has no digit before or after it.
	ErrNumber
	// ErrUnit is a number followed by no unit. Or it is followed by something
	// other than white space and one of k, K, m, M, g, G.
	ErrUnit
	// ErrTrailing is anything after the unit, white space included.
	ErrTrailing
	// ErrRange is a well-formed string for more than [math.MaxInt64] bytes.
	ErrRange
)

// ErrZeroLimit is a limit written in a scaler config that comes out as zero.
// Docker reads zero as no limit at all: see [ResolveSpawnLimits]. ParseMemory
// never reports it. "0.0001k" is 0 bytes to ParseMemory, as to the
// orchestrator.
const ErrZeroLimit Reason = ErrRange + 1

// Error describes the reason in a few words. A Reason other than the Err
// constants reads "invalid memory string".
func (r Reason) Error() string {
	switch r {
	case ErrEmpty:
		return "empty string"
	case ErrNumber:
		return "no decimal number at the start (want digits, optionally '.' and more digits)"
	case ErrUnit:
		return "no unit k, m or g after the number"
	case ErrTrailing:
		return "text after the unit"
	case ErrRange:
		return "more bytes than an int64 holds"
	case ErrZeroLimit:
		return "comes out as zero, which Docker reads as no limit"
	}
	return "invalid memory string"
}
