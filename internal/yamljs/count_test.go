package yamljs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cstEntries counts the entries of the collections of the syntax tree
// yaml's parser makes of src, and those of its flow collections: what
// CountEntries bounds from below.
func cstEntries(src []byte) (n, flow int) {
	var walk func(c *cst)
	walk = func(c *cst) {
		if c == nil {
			return
		}
		switch c.typ {
		case tBlockMap, tBlockSeq:
			n += len(c.x.items)
		case tFlowCollection:
			n += len(c.x.items)
			flow += len(c.x.items)
		}
		if c.x == nil {
			return
		}
		for _, it := range c.x.items {
			walk(it.key)
			walk(it.value)
		}
		walk(c.x.value)
	}
	p := newParser(newSource(src).text, walk, nil)
	newLexer(p.text, p.next).run()
	p.end()
	return n, flow
}

func TestCountEntries(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		src        string
		want, flow int
	}{
		{"", 0, 0},
		{"a\n", 0, 0},
		{"[a, b, c]\n", 2, 2}, // a flow list: at least its separators
		{"[a, b, c,]\n", 3, 3},
		{"{a: 1, b, c: [x, y]}\n", 3, 3},
		{"{a: 1 b: 2}\n", 2, 0}, // a ":" need not end an entry: only "," count as flow ones
		{"- a\n- b\n-\n", 3, 0},
		{"a: 1\nb:\n  - x\n  - y: z\n", 5, 0},
		{"? a\n: b\n", 1, 0},
		{"# - a: [b, c]\n", 0, 0},
		{"'- a: b, c'\n", 0, 0},
		{"\"[a, b]\"\n", 0, 0},
		{"|\n  - a: [b, c]\n", 0, 0},
		{"a: b-c:d\n", 1, 0},
		{"[[[a, b]]]\n", 1, 1},
		{"[a, b, c\n", 2, 2}, // an unclosed list counts too
		{"--- [a, b]\n--- [b, c, d]\n", 3, 3},
		{"- [a, b]\n- {c: d, e: f}\n", 5, 2},
	} {
		t.Run(c.src, func(t *testing.T) {
			t.Parallel()
			n, flow := CountEntries([]byte(c.src))
			assert.Equal(t, c.want, n, "%q", c.src)
			assert.Equal(t, c.flow, flow, "%q: in flow collections", c.src)
			treeN, treeFlow := cstEntries([]byte(c.src))
			assert.LessOrEqual(t, n, treeN, "%q", c.src)
			assert.LessOrEqual(t, flow, treeFlow, "%q", c.src)
		})
	}
}

// TestCountEntriesLowerBound: on every corpus text that yaml reads without
// an error, the entries counted are at most those of the syntax tree
// yaml's parser makes, so that a reader refusing a text for its count
// never refuses one smaller than the count says. (A text with an error
// can count more: an entry the parser reads as an error; the orchestrator
// does not load such a text either way.)
func TestCountEntriesLowerBound(t *testing.T) {
	srcs := [][]byte{}
	add := func(src []byte) {
		if _, err := Parse(src); err == nil {
			srcs = append(srcs, src)
		}
	}
	for _, c := range loadCorpus(t) {
		add(c.bytes(t))
	}
	for i, c := range loadRandomCorpus(t) {
		if !raceDetector || i%4 == 0 {
			add(c.src)
		}
	}
	least := 20_000 // of the 62,563 corpus texts, those without an error
	if raceDetector {
		least /= 4 // a fourth of the random corpus
	}
	assert.Greater(t, len(srcs), least, "texts without an error")
	over := 0
	for _, src := range srcs {
		got, flow := CountEntries(src)
		tree, treeFlow := cstEntries(src)
		if got > tree || flow > treeFlow {
			over++
			if over <= 5 {
				assert.LessOrEqual(t, got, tree, "%q: the entries counted, against the tree's", src)
				assert.LessOrEqual(t, flow, treeFlow, "%q: those in flow collections, against the tree's", src)
			}
		}
	}
	assert.Zero(t, over, "texts counted above their tree, of %d", len(srcs))
}

// TestCountEntriesIndicatorsInAnEnd: indicators that yaml's parser keeps
// in a scalar's end, after the value of an explicit key on its line, make
// no entries; yaml reads each text without an error.
func TestCountEntriesIndicatorsInAnEnd(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"version: 1\n? \"x\"'y' - - - -\n",
		"? a - - -\n",
		"- a - - b\n",
	} {
		_, err := Parse([]byte(src))
		require.NoError(t, err, "%q", src)
		n, _ := CountEntries([]byte(src))
		tree, _ := cstEntries([]byte(src))
		assert.LessOrEqual(t, n, tree, "%q", src)
	}
	// Items after a block scalar's body still count.
	n, _ := CountEntries([]byte("- |\n  x\n- y\n- z\n"))
	assert.Equal(t, 3, n)
}
