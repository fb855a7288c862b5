package memstr

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSplit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in    string
		want  Memory
		fault Fault
	}{
		{"512m", Memory{"512", 20}, OK},
		{"1.5g", Memory{"1.5", 30}, OK},
		{"0.5K", Memory{"0.5", 10}, OK},
		{"0000001M", Memory{"0000001", 20}, OK},
		{"256 M", Memory{"256", 20}, OK},
		{"1\t\u3000\ufeffG", Memory{"1", 30}, OK},
		{"", Memory{}, Empty},
		{".5g", Memory{}, NoNumber},
		{"5.g", Memory{}, NoNumber},
		{"5.", Memory{}, NoNumber},
		{"-1k", Memory{}, NoNumber},
		{" 1k", Memory{}, NoNumber},
		{"k", Memory{}, NoNumber},
		{"1", Memory{}, NoUnit},
		{"1 ", Memory{}, NoUnit},
		{"1e3k", Memory{}, NoUnit},
		{"1.2.3g", Memory{}, NoUnit},
		{"1\u0085k", Memory{}, NoUnit}, // NEL is not JavaScript's white space
		{"1\u212ak", Memory{}, NoUnit}, // nor is the Kelvin sign a k
		{"1x", Memory{}, NoUnit},
		{"1kb", Memory{}, Trailing},
		{"1k ", Memory{}, Trailing},
		{"1 k\n", Memory{}, Trailing},
		{"512Mi", Memory{}, Trailing},
	} {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			got, fault := Split(tc.in)
			assert.Equal(t, tc.fault, fault)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestSplitNoAllocs(t *testing.T) {
	assert.Zero(t, testing.AllocsPerRun(100, func() { Split("1.5 g") }))
}

// FuzzSplit holds Split to the orchestrator's regular expression, with
// JavaScript's \s spelled out (Go's \s is ASCII only).
func FuzzSplit(f *testing.F) {
	const space = `[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]`
	re := regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?)` + space + `*([kmgKMG])$`)
	for _, s := range []string{"", "512m", "1.5 g", "5.g", "1kb", "1\u3000k", "1\u0085k", "\xff1k", "1" + strings.Repeat(" ", 3) + "G"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, fault := Split(s)
		sub := re.FindStringSubmatch(s)
		if sub == nil {
			assert.NotEqual(t, OK, fault, "%q", s)
			return
		}
		assert.Equal(t, OK, fault, "%q", s)
		assert.Equal(t, sub[1], m.Number)
		assert.Equal(t, map[byte]uint{'k': 10, 'm': 20, 'g': 30}[sub[2][0]|0x20], m.Shift)
	})
}
