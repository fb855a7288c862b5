package hostconfig

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kicikit/kicikit/internal/jsstr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseMemory(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want int64
	}{
		{"512m", "512m", 536870912},
		{"1.5g", "1.5g", 1610612736},
		{"1k", "1k", 1024},
		{"upper K", "1K", 1024},
		{"upper M", "2M", 2 << 20},
		{"upper G", "3G", 3 << 30},
		{"zero", "0k", 0},
		{"zero with fraction", "0.0g", 0},
		{"fraction floors", "0.0001k", 0},
		{"fraction of a byte floors", "1.0009k", 1024},
		{"half a k", "0.5k", 512},
		{"exact 1/1024 of a k", "0.0009765625k", 1},
		{"just under 1/1024 of a k", "0.0009765624999999999999999k", 0},
		{"long fraction stays exact", "1.9999999999999999999k", 2047},
		{"thousand digits of 9s", "0." + strings.Repeat("9", 1000) + "g", 1<<30 - 1},
		{"leading zeros", "0000000000000000000000000000001k", 1024},
		{"trailing zeros", "1.5000000000000000000000000000g", 1610612736},
		{"space before unit", "512 m", 536870912},
		{"tab and newline before unit", "512\t\n\v\f\rm", 536870912},
		{"no-break space", "512\u00a0m", 536870912},
		{"ogham space", "1\u1680k", 1024},
		{"en quad", "1\u2000k", 1024},
		{"hair space", "1\u200ak", 1024},
		{"line separator", "1\u2028k", 1024},
		{"paragraph separator", "1\u2029k", 1024},
		{"narrow no-break space", "1\u202fk", 1024},
		{"medium mathematical space", "1\u205fk", 1024},
		{"ideographic space", "1\u3000k", 1024},
		{"byte order mark (JavaScript white space)", "1\ufeffk", 1024},
		{"many spaces", "1" + strings.Repeat(" ", 100) + "k", 1024},
		{"largest k", "9007199254740991k", math.MaxInt64 - 1023},
		{"largest k with fraction", "9007199254740991.999999999999k", math.MaxInt64},
		{"largest m", "8796093022207m", math.MaxInt64 - (1<<20 - 1)},
		{"largest g", "8589934591g", math.MaxInt64 - (1<<30 - 1)},
		{"largest g with fraction", "8589934591.99999999999999999999g", math.MaxInt64},
		{"2^53 bytes", "8388608g", 1 << 53},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseMemory(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseMemoryErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want Reason
	}{
		{"empty", "", ErrEmpty},
		{"unit only", "k", ErrNumber},
		{"space before the number", " 1k", ErrNumber},
		{"BOM before the number", "\ufeff1k", ErrNumber},
		{"plus sign", "+1k", ErrNumber},
		{"minus sign", "-1k", ErrNumber},
		{"leading dot", ".5g", ErrNumber},
		{"dot without fraction digits", "5.g", ErrNumber},
		{"dot at the end", "5.", ErrNumber},
		{"Arabic-Indic digit", "\u0663k", ErrNumber},
		{"fullwidth digit", "\uff11k", ErrNumber},
		{"no unit", "1024", ErrUnit},
		{"space but no unit", "1024 ", ErrUnit},
		{"bytes unit", "1b", ErrUnit},
		{"terabytes unit", "1t", ErrUnit},
		{"exponent", "1e3k", ErrUnit},
		{"second dot", "1.2.3g", ErrUnit},
		{"comma decimal", "1,5g", ErrUnit},
		{"underscore separator", "1_000k", ErrUnit},
		{"Kelvin sign is not k", "1\u212a", ErrUnit},
		{"next line is not JavaScript white space", "1\u0085k", ErrUnit},
		{"Mongolian vowel separator is not white space", "1\u180ek", ErrUnit},
		{"zero width space is not white space", "1\u200bk", ErrUnit},
		{"invalid UTF-8 before the unit", "1\xffk", ErrUnit},
		{"NUL before the unit", "1\x00k", ErrUnit},
		{"two units", "1kk", ErrTrailing},
		{"kb", "512mb", ErrTrailing},
		{"Ki", "512Mi", ErrTrailing},
		{"space after the unit", "1k ", ErrTrailing},
		{"newline after the unit", "1k\n", ErrTrailing},
		{"k beyond int64", "9007199254740992k", ErrRange},
		{"m beyond int64", "8796093022208m", ErrRange},
		{"g beyond int64 (RAMInBytes wraps this to MinInt64)", "8589934592g", ErrRange},
		{"huge integer part", strings.Repeat("9", 400) + "k", ErrRange},
		{"huge integer part with fraction", "99999999999999999999.5g", ErrRange},
		{"syntax is checked before range", "99999999999999999999x", ErrUnit},
		{"trailing is checked before range", "99999999999999999999gb", ErrTrailing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseMemory(tt.in)
			assert.Equal(t, int64(0), got)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, &ParseError{Input: tt.in, Reason: tt.want}, pe)
			assert.ErrorIs(t, err, tt.want)
		})
	}
}

// TestParseMemorySpace checks every code point between a number and its
// unit: exactly JavaScript's white space is skipped (jsstr's tests prove
// its set against Unicode's tables and node).
func TestParseMemorySpace(t *testing.T) {
	t.Parallel()
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		if strings.ContainsRune("0123456789.kKmMgG", r) {
			continue // "10k", "1.k", "1kk": numbers and units, tested above
		}
		got, err := ParseMemory("1" + string(r) + "k")
		if jsstr.IsSpace(r) {
			require.NoError(t, err, "%U", r)
			assert.Equal(t, int64(1024), got, "%U", r)
			continue
		}
		require.ErrorIs(t, err, ErrUnit, "%U", r)
	}
}

func TestParseErrorMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"empty", &ParseError{Input: "", Reason: ErrEmpty}, `hostconfig.ParseMemory(""): empty string`},
		{"number", &ParseError{Input: "-1k", Reason: ErrNumber}, `hostconfig.ParseMemory("-1k"): no decimal number at the start (want digits, optionally '.' and more digits)`},
		{"unit", &ParseError{Input: "2x", Reason: ErrUnit}, `hostconfig.ParseMemory("2x"): no unit k, m or g after the number`},
		{"trailing", &ParseError{Input: "1kb", Reason: ErrTrailing}, `hostconfig.ParseMemory("1kb"): text after the unit`},
		{"range", &ParseError{Input: "8589934592g", Reason: ErrRange}, `hostconfig.ParseMemory("8589934592g"): more bytes than an int64 holds`},
		{"long input cut", &ParseError{Input: strings.Repeat("9", 100) + "x", Reason: ErrUnit}, `hostconfig.ParseMemory("` + strings.Repeat("9", 64) + `"... (101 bytes)): no unit k, m or g after the number`},
		{"quoted input", &ParseError{Input: "1\nk\xff", Reason: ErrUnit}, `hostconfig.ParseMemory("1\nk\xff"): no unit k, m or g after the number`},
		{"zero reason", &ParseError{Input: "x"}, `hostconfig.ParseMemory("x"): invalid memory string`},
		{"zero limit", ErrZeroLimit, `comes out as zero, which Docker reads as no limit`},
		{"unknown reason", Reason(200), `invalid memory string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.err.Error())
		})
	}
}

func TestParseErrorUnwrap(t *testing.T) {
	t.Parallel()
	_, err := ParseMemory("1t")
	wrapped := fmt.Errorf("config: %w", err)
	assert.ErrorIs(t, wrapped, ErrUnit)
	assert.NotErrorIs(t, wrapped, ErrRange)
	var pe *ParseError
	require.ErrorAs(t, wrapped, &pe)
	assert.Equal(t, "1t", pe.Input)
	assert.Equal(t, ErrUnit, errors.Unwrap(pe))
}

// TestParseMemoryLongInput checks that an error about a 10 MB input quotes
// only its start and its length, and that making and printing it costs next
// to nothing beyond the scan of the input.
func TestParseMemoryLongInput(t *testing.T) {
	huge := strings.Repeat("1", 10<<20) + "x"
	_, err := ParseMemory(huge)
	assert.EqualError(t, err, `hostconfig.ParseMemory("`+strings.Repeat("1", 64)+`"... (10485761 bytes)): no unit k, m or g after the number`)
	assert.Less(t, heapBytes(func() {
		_, err := ParseMemory(huge)
		_ = err.Error()
	}), uint64(4096))
}

// heapBytes returns how many bytes one call of f allocates, on average over
// a few calls.
func heapBytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 8 {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / 8
}

func TestParseMemoryNoAllocs(t *testing.T) {
	for _, s := range []string{"512m", "1.5g", "0." + strings.Repeat("9", 100) + "k", "1\u3000K", "8589934591g"} {
		t.Run(s[:min(len(s), 12)], func(t *testing.T) {
			var n int64
			allocs := testing.AllocsPerRun(100, func() {
				n, _ = ParseMemory(s)
			})
			assert.Equal(t, float64(0), allocs)
			assert.NotZero(t, n)
		})
	}
}
