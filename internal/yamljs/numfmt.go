package yamljs

import (
	"math"
	"strconv"
	"strings"
)

// NumberString returns f as JavaScript's String(f) writes it. That is the
// shortest decimal that reads back as f, in exponent form below 1e-6 and
// from 1e21 on. NaN and the infinities are "NaN", "Infinity" and
// "-Infinity". -0 is "0".
func NumberString(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	sign, digits, exp := decimal(f)
	k := len(digits)
	n := exp + 1 // the decimal point is after n digits
	var b strings.Builder
	b.WriteString(sign)
	switch {
	case k <= n && n <= 21:
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", n-k))
	case 0 < n && n <= 21:
		b.WriteString(digits[:n])
		b.WriteByte('.')
		b.WriteString(digits[n:])
	case -6 < n && n <= 0:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -n))
		b.WriteString(digits)
	default:
		b.WriteString(expForm(digits, n-1))
	}
	return b.String()
}

// decimal returns the sign of f (finite, not 0), the shortest digits that
// read back as its magnitude, and the decimal exponent of the first one.
func decimal(f float64) (string, string, int) {
	sign := ""
	if f < 0 {
		sign = "-"
		f = -f
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±xx
	e := strings.IndexByte(s, 'e')
	exp, _ := strconv.Atoi(s[e+1:])
	digits := strings.Replace(s[:e], ".", "", 1)
	return sign, digits, exp
}

// expForm writes digits as d.ddde+x, as JavaScript does.
func expForm(digits string, exp int) string {
	m := digits[:1]
	if len(digits) > 1 {
		m += "." + digits[1:]
	}
	if exp >= 0 {
		return m + "e+" + strconv.Itoa(exp)
	}
	return m + "e-" + strconv.Itoa(-exp)
}

// toExponential is JavaScript's f.toExponential() with no argument, for a
// finite f.
func toExponential(f float64) string {
	if f == 0 {
		return "0e+0"
	}
	sign, digits, exp := decimal(f)
	return sign + expForm(digits, exp)
}
