package jsstr

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// ToNumber returns the number JavaScript's Number(s) reads from a string
// (ECMAScript's StringToNumber). White space ([IsSpace]) around it is
// ignored, and "" is 0. These read as their value, rounded to the nearest
// float64:
//
//   - a decimal literal, with an optional sign, fraction and exponent;
//   - "Infinity", with an optional sign;
//   - an unsigned 0x, 0o or 0b integer.
//
// Anything else is NaN. So are Go's readings that JavaScript refuses:
// "inf", "1_000", "0x1p3".
func ToNumber(s string) float64 {
	s = Trim(s)
	if s == "" {
		return 0
	}
	for _, r := range [...]struct {
		prefix string
		base   int
	}{{"0x", 16}, {"0X", 16}, {"0o", 8}, {"0O", 8}, {"0b", 2}, {"0B", 2}} {
		if digits, ok := strings.CutPrefix(s, r.prefix); ok {
			return integer(digits, r.base)
		}
	}
	body := strings.TrimLeft(s[:1], "+-") + s[1:]
	switch body {
	case "Infinity":
		if s[0] == '-' {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	if !decimal(body) {
		return math.NaN()
	}
	f, _ := strconv.ParseFloat(s, 64) // overflow gives ±Inf, as in JavaScript
	return f
}

// integer is the value of digits in base, NaN when one is not a digit.
func integer(digits string, base int) float64 {
	n, ok := new(big.Int).SetString(digits, base)
	if !ok || strings.ContainsAny(digits, "_+-") {
		return math.NaN()
	}
	f, _ := new(big.Float).SetInt(n).Float64()
	return f
}

// decimal reports whether s is a StrUnsignedDecimalLiteral: digits with an
// optional fraction (one of the two not empty) and an optional exponent.
func decimal(s string) bool {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	n := i
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			n++
		}
	}
	if n == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
