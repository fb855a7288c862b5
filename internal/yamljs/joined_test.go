package yamljs

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJoined builds strings piece by piece as yaml's comments are built.
func TestJoined(t *testing.T) {
	t.Parallel()
	var j, sep joined
	assert.True(t, j.empty())
	assert.Equal(t, "", j.String())
	j.add("")
	assert.True(t, j.empty(), "an empty piece")
	j.add("a")
	assert.False(t, j.empty())
	assert.Equal(t, "a", j.String(), "one piece")
	sep.add("\n")
	sep.add("\r\n")
	j.addJoined(&sep)
	j.add("b")
	assert.Equal(t, "a\n\r\nb", j.String())
	sep.reset()
	assert.True(t, sep.empty(), "reset")
	j.addJoined(&sep)
	sep.add("\n")
	j.addJoined(&sep)
	assert.Equal(t, "a\n\r\nb\n", j.String())

	var k joined
	k.addJoined(&sep) // one piece, from k's
	assert.Equal(t, "\n", k.String())
	k.reset()
	k.add("x")
	assert.Equal(t, "x", k.String(), "after a reset")
}

// TestCommentsLinear reads texts of 50,000 comment lines (or blank lines
// between comments) wherever yaml collects a comment: each allocates at
// most 500 bytes a byte of text. Joining each comment's lines with +=, as
// yaml does in JavaScript, copied the whole comment at each line: 3.75 GB
// for these, and minutes for a few hundred thousand lines.
func TestCommentsLinear(t *testing.T) {
	n := 50000
	if raceDetector {
		n = 10000 // quadratic still copies 5,000 bytes a byte here, ten times the bound
	}
	lines := strings.Repeat("# c\n", n)
	indented := strings.Repeat("  # c\n", n)
	var members strings.Builder
	for i := range n {
		fmt.Fprintf(&members, "? a%d # c\n", i)
	}
	texts := map[string]string{
		"after a document":         "a: 1\n" + lines,
		"blank lines between":      "a: 1\n# x\n" + strings.Repeat("\n", n) + "# y\n",
		"in a map":                 "a:\n  b: 1\n" + indented + "c: 1\n",
		"before a value":           "a:\n" + indented + "  1\n",
		"blank lines before value": "a:\n  # c\n" + strings.Repeat("\n", n) + "  1\n",
		"in a flow list":           "[\n" + lines + "]\n",
		"after flow items":         "[\n" + strings.Repeat("a, # c\n", n) + "]\n",
		"in a sequence":            "- 1\n" + lines + "- 2\n",
		"before a document":        lines + "a: 1\n",
		"in a key":                 "? [a]\n" + indented + ": 1\n",
		"after a tag":              "a: !!str\n" + indented + "  x\n",
		"after ---":                "---\n" + lines + "a\n",
		"in a set":                 "!!set\n" + members.String(),
	}
	for name, text := range texts {
		least := uint64(math.MaxUint64)
		for range 3 {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Parse([]byte(text))
			runtime.ReadMemStats(&after)
			require.NoError(t, err, name)
			least = min(least, after.TotalAlloc-before.TotalAlloc)
		}
		perByte := float64(least) / float64(len(text))
		assert.Less(t, perByte, 500.0, "%s: bytes allocated a byte of text", name)
	}
}
