package jsstr

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestToNumber compares with node 20's Number(s), written as JavaScript's
// String(Number(s)); "-0" for negative zero.
func TestToNumber(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string
	}{
		{"", "0"},
		{" ", "0"},
		{"0", "0"},
		{"-0", "-0"},
		{"+5", "5"},
		{" 12 ", "12"},
		{"\u00a012\ufeff", "12"},
		{"\u008512", "NaN"},
		{"1.", "1"},
		{".5", "0.5"},
		{".", "NaN"},
		{"+.5e1", "5"},
		{"1e", "NaN"},
		{"1e+", "NaN"},
		{"1E-2", "0.01"},
		{"1e1000", "Infinity"},
		{"-1e1000", "-Infinity"},
		{"Infinity", "Infinity"},
		{"-Infinity", "-Infinity"},
		{"+Infinity", "Infinity"},
		{"infinity", "NaN"},
		{"inf", "NaN"},
		{"NaN", "NaN"},
		{"0x10", "16"},
		{"0X1f", "31"},
		{"-0x10", "NaN"},
		{"0x", "NaN"},
		{"0xg", "NaN"},
		{"0o17", "15"},
		{"0b101", "5"},
		{"0b2", "NaN"},
		{"1_000", "NaN"},
		{"0x1_0", "NaN"},
		{"00012", "12"},
		{"1,2", "NaN"},
		{"abc", "NaN"},
		{"0x1p3", "NaN"},
		{"12abc", "NaN"},
		{"0.1", "0.1"},
		{"9007199254740993", "9007199254740992"},
		{"0x20000000000001", "9007199254740992"},
		{"--1", "NaN"},
		{"+-1", "NaN"},
		{"1 2", "NaN"},
		{"5.", "5"},
		{"-.5", "-0.5"},
		{"0.0.1", "NaN"},
		{"+1", "1"},
		{"1.5e+3", "1500"},
		{"1e3", "1000"},
		{"+0x1", "NaN"},
		{" 0b1 ", "1"},
		{"\u180e1", "NaN"},
	} {
		t.Run(strconv.Quote(tc.in), func(t *testing.T) {
			t.Parallel()
			got := ToNumber(tc.in)
			switch {
			case tc.want == "NaN":
				assert.True(t, math.IsNaN(got), "got %v", got)
			case tc.want == "-0":
				assert.True(t, got == 0 && math.Signbit(got), "got %v", got)
			default:
				want, err := strconv.ParseFloat(tc.want, 64) // reads "Infinity" too
				require.NoError(t, err)
				assert.Equal(t, want, got)
				assert.False(t, math.Signbit(got) && got == 0)
			}
		})
	}
}
