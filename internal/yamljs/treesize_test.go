package yamljs

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDenseFlowListTree: the syntax tree of a one-line flow list of
// one-character scalars, the densest shape node reads (issue 20: 7,999,999
// of them in 16 MB), takes at most 195 bytes an entry to build, where a
// list of two token slots for each item's "," took 208: an item's ","
// alone gets a slot of its own, a "," followed by white space one more.
func TestDenseFlowListTree(t *testing.T) {
	const n = 100_000
	perEntry := func(text string) float64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var top *cst
		p := newParser(text, func(c *cst) { top = c }, nil)
		newLexer(text, p.next).run()
		p.end()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(top)
		return float64(after.TotalAlloc-before.TotalAlloc) / n
	}
	dense := perEntry("[" + strings.Repeat("a,", n-1) + "a]\n")
	spaced := perEntry("[" + strings.Repeat("a, ", n-1) + "a]\n")
	t.Logf("[a,a,...]: %.1f bytes an entry; [a, a, ...]: %.1f", dense, spaced)
	assert.Less(t, dense, 195.0)
	assert.Less(t, spaced, 210.0)
	assert.Less(t, dense, spaced-15, "a dense item's \",\" has a slot of its own")
}
