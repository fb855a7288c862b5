package yamljs

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMatch11 holds each test of match11.go to yaml's regular expression,
// on strings made of the characters the expressions look at: every string
// of up to three of them, and random longer ones.
func TestMatch11(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern string
		match   func(string) bool
	}{
		{`^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$`, isTrue11},
		{`^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$`, isFalse11},
		{`^[-+]?0b[0-1_]+$`, isBin11},
		{`^[-+]?0[0-7_]+$`, isOct11},
		{`^[-+]?[0-9][0-9_]*$`, isInt11},
		{`^[-+]?0x[0-9a-fA-F_]+$`, isHex11},
		{`^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$`, isExp11},
		{`^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$`, isFloat11},
		{`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$`, isTimeInt11},
		{`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$`, isTimeFloat11},
	}
	inputs := match11Inputs("0159_.:-+eExbBaFyYnNsoO ", 3, 20000)
	inputs = append(inputs, "yes", "Yes", "YES", "yEs", "true", "True", "on", "On", "no", "No", "false", "off", "OFF", "Off", "0xFF_a", "0b1_0", "017", "190:20:30", "1:30.5", "1:60", "1:5", "1:005")
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			t.Parallel()
			re := regexp.MustCompile(tt.pattern)
			for _, s := range inputs {
				require.Equal(t, re.MatchString(s), tt.match(s), "%q", s)
			}
		})
	}
}

// TestMatchTimestamp holds matchTimestamp to yaml's timestamp expression,
// its groups included.
func TestMatchTimestamp(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})` +
		`(?:(?:t|T|[ \t]+)([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(\.[0-9]+)?)` +
		`(?:[ \t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?)?$`)
	inputs := []string{"2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2001-12-15 2:59:43.10",
		"2002-1-1", "2001-1-1x", "2001-12-14\t\t1:2:3Z", "2001-12-14 1:2:3 +12:30", "2001-12-14 1:2:3+30", "2001-12-14 1:2:3.",
		"2001-12-14 1:2:3 ", "2001-12-14T1:2:3.123456789Z", "20011-1-1", "2001-123-1", "2001-1-123"}
	// Timestamps with one part changed at random.
	rng := rand.New(rand.NewPCG(20, 1))
	parts := []string{"2001", "1", "12", "123", "-", ":", " ", "\t", "t", "T", "Z", "+", "-5", "+05:30", ".", ".5", "x", "0", "99", ":3"}
	for range 50000 {
		base := []string{"2001", "-", "12", "-", "14", " ", "21", ":", "59", ":", "43", ".10", " ", "-05:00"}
		base = base[:1+rng.IntN(len(base))]
		for range 1 + rng.IntN(3) {
			base[rng.IntN(len(base))] = parts[rng.IntN(len(parts))]
		}
		inputs = append(inputs, strings.Join(base, ""))
	}
	for _, s := range inputs {
		want := re.FindStringSubmatch(s)
		got := matchTimestamp(s)
		if want == nil {
			require.Nil(t, got, "%q", s)
			continue
		}
		require.Equal(t, want, got, "%q", s)
	}
	assert.NotNil(t, matchTimestamp("2001-12-14"))
}

// match11Inputs returns every string of up to n characters of alphabet,
// and count random ones of up to 12.
func match11Inputs(alphabet string, n, count int) []string {
	out := []string{""}
	level := []string{""}
	for range n {
		var next []string
		for _, s := range level {
			for i := 0; i < len(alphabet); i++ {
				next = append(next, s+alphabet[i:i+1])
			}
		}
		out = append(out, next...)
		level = next
	}
	rng := rand.New(rand.NewPCG(11, 1))
	for range count {
		b := make([]byte, 1+rng.IntN(12))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		out = append(out, string(b))
	}
	return out
}
