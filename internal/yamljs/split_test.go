package yamljs

import (
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkSplit checks SplitItems on src against Parse of the whole text: a
// text that Parse refuses has a part that ParseRange or ParseWithout
// refuses, and when no part is refused, the parts' values and positions
// are those of the whole text. It reports whether src was split.
func checkSplit(t testing.TB, src []byte, key string) bool {
	t.Helper()
	items, ok := SplitItems(src, key)
	if !ok {
		return false
	}
	require.NotEmpty(t, items.Items)
	require.Equal(t, items.Start, items.Items[0])
	whole, wholeErr := Parse(src)
	rest, err := ParseWithout(src, items.Start, items.End)
	if err != nil {
		return true // read whole: any outcome is the whole text's
	}
	parts, ok := parseParts(t, src, items)
	if !ok {
		return true
	}
	require.NoError(t, wholeErr, "every part parses, the whole text does not")
	samePairs(t, whole, rest, key, parts)
	return true
}

// parseParts parses each item of items on its own, as a list of one item,
// and returns the items; false when one does not parse.
func parseParts(t testing.TB, src []byte, items Items) ([]*Node, bool) {
	parts := make([]*Node, len(items.Items))
	for i, from := range items.Items {
		end := items.End.off()
		if i+1 < len(items.Items) {
			end = items.Items[i+1].off()
		}
		part, err := ParseRange(src, from, end)
		if err != nil {
			return nil, false
		}
		require.Equal(t, Seq, part.Kind, "item %d", i)
		require.Len(t, part.Items, 1, "item %d", i)
		parts[i] = part.Items[0]
	}
	return parts, true
}

// samePairs checks that the mapping rest, read without the list at key, is
// the mapping whole but for that list, which is parts, positions included.
func samePairs(t testing.TB, whole, rest *Node, key string, parts []*Node) {
	require.Equal(t, Map, whole.Kind)
	require.Equal(t, Map, rest.Kind)
	require.Len(t, rest.Pairs, len(whole.Pairs))
	for i, p := range whole.Pairs {
		q := rest.Pairs[i]
		require.Equal(t, p.Key, q.Key)
		require.Equal(t, p.KeyPos, q.KeyPos, "key %q", p.Key)
		if p.Key != key {
			sameNode(t, p.Value, q.Value, p.Key)
			continue
		}
		require.Equal(t, Null, q.Value.Kind)
		require.Equal(t, Seq, p.Value.Kind)
		require.Len(t, p.Value.Items, len(parts))
		for j, n := range p.Value.Items {
			sameNode(t, n, parts[j], key+"["+strconv.Itoa(j)+"]")
		}
	}
}

// sameNode checks that b is a, positions included. A collection's end is
// left out: yaml ends a block collection after the comments that follow
// its last entry, which a part may end before.
func sameNode(t testing.TB, a, b *Node, path string) {
	t.Helper()
	treeCheck{t: t, seen: map[*Node]*Node{}}.same(a, b, path)
}

// splitCases are texts in the plain form, with the item count, and texts
// outside it.
var splitCases = []struct {
	name  string
	src   string
	items int // 0: not split
}{
	{"one item", "scalers:\n  - name: a\n", 1},
	{"config", "version: 1\nscalers:\n  - name: a\n    type: container\n    labelSets:\n      - labels: [x, 'y']\n        image: \"r/i:1\"\n  - name: b\n    labelSets:\n      - labels:\n          - z\nfirecracker:\n  cidr: 10.0.0.0/24\n", 2},
	{"compact", "scalers:\n- a\n- b: 1\n  c: 2\nx: 1\n", 2},
	{"comments between", "scalers: # the list\n  # first\n  - a\n# at column 1\n  - b # two\n\n\n  - c\n", 3},
	{"crlf", "scalers:\r\n  - a\r\n  - b\r\nv: 1\r\n", 2},
	{"no final break", "scalers:\n  - a\n  - b", 2},
	{"block scalar at column 1", "scalers:\n  - s: |\n      echo\n\n      - not an item\n  - b\n", 2},
	{"block scalar keeps trailing lines", "scalers:\n  - s: |+\n      x\n\n  - b\n", 2},
	{"flow over lines", "scalers:\n  - labels: [a,\n      - b]\n  - c\n", 2},
	{"flow ended early", "scalers:\n  - labels: [a,\n  - b]\n  - c\n", 0},
	{"quoted over lines", "scalers:\n  - a: \"one\n    two\"\n  - b\n", 2},
	{"nested sequences", "scalers:\n  - - a\n    - b\n  -\n    - c\n", 2},
	{"dash in a plain scalar", "scalers:\n- a\n-b: 1\n", 1},
	{"indented line ends it", "scalers:\n  - a\n  -b: 1\n", 0},
	{"key after items", "a: 1\nscalers:\n  - x\nb:\n  - y\n", 1},
	{"less indented line after", "scalers:\n    - a\n  - b\n", 0},
	{"tab after indent", "scalers:\n  \t- a\n", 0},
	{"anchor", "scalers:\n  - &a x\n  - *a\n", 0},
	{"tag", "scalers:\n  - !!str 1\n", 0},
	{"directive", "%YAML 1.2\n---\nscalers:\n  - a\n", 0},
	{"document start", "---\nscalers:\n  - a\n", 0},
	{"document end", "scalers:\n  - a\n...\n", 0},
	{"byte order mark", "\ufeffscalers:\n  - a\n", 0},
	{"flow value", "scalers: [a, b]\n", 0},
	{"value on the line", "scalers: a\n", 0},
	{"space before colon", "scalers :\n  - a\n", 0},
	{"quoted key", "\"scalers\":\n  - a\n", 0},
	{"key twice", "scalers:\n  - a\nscalers:\n  - b\n", 0},
	{"no items", "scalers:\nv: 1\n", 0},
	{"mapping first", "scalers:\n  a: 1\n", 0},
	{"indented line after", "scalers:\n    - a\n  x: 1\n", 0},
	{"explicit key", "? a\n: 1\nscalers:\n  - a\n", 0},
	{"root sequence", "- a\nscalers:\n  - b\n", 0},
	{"second document", "scalers:\n  - a\n---\nb: 1\n", 0},
	{"invalid UTF-8", "scalers:\n  - \xff\n", 0},
	{"no key", "a:\n  - b\n", 0},
}

func TestSplitItems(t *testing.T) {
	t.Parallel()
	for _, c := range splitCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			items, ok := SplitItems([]byte(c.src), "scalers")
			if c.items == 0 {
				assert.False(t, ok)
				return
			}
			require.True(t, ok)
			assert.Len(t, items.Items, c.items)
			assert.True(t, checkSplit(t, []byte(c.src), "scalers"))
		})
	}
}

func TestSplitItemsPositions(t *testing.T) {
	t.Parallel()
	src := []byte("v: 1\nscalers:\n  - a\n  - b: 1\n    c: 2\nw: 2\n")
	items, ok := SplitItems(src, "scalers")
	require.True(t, ok)
	assert.Equal(t, Items{
		Start: Pos{Offset: 14, Line: 3, Column: 1},
		End:   Pos{Offset: 38, Line: 6, Column: 1},
		Items: []Pos{{Offset: 14, Line: 3, Column: 1}, {Offset: 20, Line: 4, Column: 1}},
	}, items)
	n, err := ParseRange(src, items.Items[1], items.End.off())
	require.NoError(t, err)
	assert.Equal(t, Pos{Offset: 33, Line: 5, Column: 5}, n.Items[0].Pairs[1].KeyPos)
	rest, err := ParseWithout(src, items.Start, items.End)
	require.NoError(t, err)
	assert.Equal(t, Pos{Offset: 38, Line: 6, Column: 1}, rest.Pairs[2].KeyPos)
	assert.Equal(t, Pos{Offset: 41, Line: 6, Column: 4}, rest.Pairs[2].Value.Pos)
}

// rootKeys are the plain keys that start a line of a text and end it.
var rootKeys = regexp.MustCompile(`(?m)^([A-Za-z0-9_-]+):[ \t]*(?:#.*)?\r?$`)

// TestSplitItemsCorpus splits every corpus text at each key it could be
// split at, and compares the parts with the whole.
func TestSplitItemsCorpus(t *testing.T) {
	split := 0
	for _, c := range loadCorpus(t) {
		src := c.bytes(t)
		for _, m := range rootKeys.FindAllSubmatch(src, -1) {
			if checkSplit(t, src, string(m[1])) {
				split++
			}
		}
	}
	t.Logf("%d corpus texts split", split)
	assert.Positive(t, split)
}

func FuzzSplitItems(f *testing.F) {
	for _, c := range splitCases {
		f.Add([]byte(c.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkSplit(t, src, "scalers")
	})
}

// TestReader parses every corpus text with one Reader, one after another
// (a large one first, so that its chunks are used again), and checks each
// against Parse: what an earlier text left in the Reader's chunks must not
// show through.
func TestReader(t *testing.T) {
	var r Reader
	big := bigConfig(2000)
	n, err := r.ParseRange(big, Pos{Line: 1, Column: 1}, len(big))
	require.NoError(t, err)
	require.Equal(t, Map, n.Kind)
	for _, c := range loadCorpus(t) {
		src := c.bytes(t)
		got, gotErr := r.ParseRange(src, Pos{Line: 1, Column: 1}, len(src))
		want, wantErr := Parse(src)
		require.Equal(t, wantErr, gotErr, c.Name)
		if wantErr == nil {
			sameGraph(t, want, got, map[*Node]*Node{}, c.Name)
		}
	}
}

// sameGraph checks that b is a, positions and every end included, where a
// may reach a node twice (an alias) or reach itself: b reaches the same
// node there.
func sameGraph(t testing.TB, a, b *Node, seen map[*Node]*Node, path string) {
	t.Helper()
	treeCheck{t: t, ends: true, seen: seen}.same(a, b, path)
}

// treeCheck compares two trees of Nodes.
type treeCheck struct {
	t    testing.TB
	ends bool            // compare where collections end too
	seen map[*Node]*Node // the node of b each node of a was found to be
}

func (c treeCheck) same(a, b *Node, path string) {
	t := c.t
	t.Helper()
	if m, ok := c.seen[a]; ok {
		require.True(t, m == b, "%s: an alias in one tree is not in the other", path)
		return
	}
	c.seen[a] = b
	require.Equal(t, a.Kind, b.Kind, path)
	require.Equal(t, a.Style, b.Style, path)
	require.Equal(t, a.Bool, b.Bool, path)
	require.True(t, a.Num == b.Num || math.IsNaN(a.Num) && math.IsNaN(b.Num), "%s: %v, %v", path, a.Num, b.Num)
	require.Equal(t, a.Str, b.Str, path)
	require.Equal(t, a.Pos, b.Pos, path)
	if c.ends || len(a.Items) == 0 && len(a.Pairs) == 0 {
		require.Equal(t, a.End, b.End, path)
	}
	require.Len(t, b.Items, len(a.Items), path)
	for i := range a.Items {
		c.same(a.Items[i], b.Items[i], path+"["+strconv.Itoa(i)+"]")
	}
	require.Len(t, b.Pairs, len(a.Pairs), path)
	for i, p := range a.Pairs {
		q := b.Pairs[i]
		require.Equal(t, p.Key, q.Key, path)
		require.Equal(t, p.KeyPos, q.KeyPos, path+"."+p.Key)
		c.same(p.Value, q.Value, path+"."+p.Key)
		require.Equal(t, p.KeyNode == nil, q.KeyNode == nil, path)
		if p.KeyNode != nil {
			c.same(p.KeyNode, q.KeyNode, path+"."+p.Key+" (key)")
		}
	}
}
