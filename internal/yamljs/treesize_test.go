package yamljs

import (
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// TestDenseFlowListTree: the syntax tree of a one-line flow list of
// one-character scalars, the densest shape node reads (issue 20: 7,999,999
// of them in 16 MB), takes at most 185 bytes an entry to build, where it
// took 208: an item's "," alone gets a token slot of its own (a ","
// followed by white space one more), and a scalar's node is 48 bytes, its
// source its length in the text rather than a string.
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
	assert.Less(t, dense, 185.0)
	assert.Less(t, spaced, 200.0)
	assert.Less(t, dense, spaced-15, "a dense item's \",\" has a slot of its own")
	assert.Equal(t, uintptr(48), unsafe.Sizeof(cst{}), "a syntax tree node")
}
