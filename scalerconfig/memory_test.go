package scalerconfig

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/hostconfig"
)

// TestMemoryBytes compares a resource cap's maxMemory with what node makes
// of it through the orchestrator's parseMemoryString (config.ts at
// 0b46a9a5a27836be8b5af7a5e0c806592d3b5d6d), beside hostconfig.ParseMemory,
// which reads the same grammar exactly and into an int64.
func TestMemoryBytes(t *testing.T) {
	t.Parallel()
	const refused = -1
	for _, tc := range []struct {
		in    string
		node  float64 // what node answers
		exact int64   // ParseMemory's bytes, or refused
	}{
		{"512m", 536870912, 536870912},
		{"1.5g", 1610612736, 1610612736},
		{"0.5K", 512, 512},
		{"256 M", 268435456, 268435456},
		{"1\u3000k", 1024, 1024},
		{"1\ufeffk", 1024, 1024},
		{"0.0001k", 0, 0},
		{"0k", 0, 0},
		// parseFloat rounds the number first: 2 × 1024.
		{"1.9999999999999999999k", 2048, 2047},
		// Beyond int64: node's number, which ParseMemory refuses.
		{"8589934592g", 9223372036854775808, refused},
		{"99999999999999999999g", 1.073741824e+29, refused},
		{strings.Repeat("9", 400) + "k", math.Inf(1), refused},
	} {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			got, err := memoryBytes(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.node, got)
			exact, err := hostconfig.ParseMemory(tc.in)
			if tc.exact == refused {
				assert.ErrorIs(t, err, hostconfig.ErrRange)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.exact, exact)
		})
	}
	for _, in := range []string{"", "1", ".5g", "5.g", "1kb", "1k ", " 1k", "1e3k", "1\u0085k", "1\u212a"} {
		_, err := memoryBytes(in)
		assert.EqualError(t, err, `Invalid memory format: "`+in+`". Expected format like "512m", "2g", or "1024k".`)
	}
}

// FuzzMemoryBytes holds the two readings of the one grammar together: they
// refuse the same strings but those ParseMemory finds too large, and they
// agree within a byte (the float64 rounding of a long fraction) below 2^53.
func FuzzMemoryBytes(f *testing.F) {
	for _, s := range []string{"512m", "1.5 g", "1.9999999999999999999k", "8589934591.999999999g", "8589934592g", "5.g", "1\u3000k", "9007199254740993k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := memoryBytes(s)
		exact, xerr := hostconfig.ParseMemory(s)
		switch {
		case errors.Is(xerr, hostconfig.ErrRange):
			require.NoError(t, err, "%q", s)
			assert.GreaterOrEqual(t, got, float64(1<<63), "%q", s)
		case xerr != nil:
			assert.Error(t, err, "%q", s)
		default:
			require.NoError(t, err, "%q", s)
			if got < 1<<53 {
				assert.InDelta(t, float64(exact), got, 1, "%q", s)
			}
		}
	})
}
