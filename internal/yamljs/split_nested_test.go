package yamljs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nested is inner as the one item of a list, "outer": its first line after
// the item's "- ", its other lines four columns further in.
func nested(inner string) []byte {
	lines := strings.SplitAfter(inner, "\n")
	var b strings.Builder
	b.WriteString("outer:\n  - " + lines[0])
	for _, l := range lines[1:] {
		if l != "" && l != "\n" {
			b.WriteString("    ")
		}
		b.WriteString(l)
	}
	return []byte(b.String())
}

// checkNestedSplit checks that when SplitNestedItems splits the list key
// holds in the one item of src's outer list, the item without its list's
// lines and each of the list's items, parsed on their own, read as the
// item does, positions included: every one, when each part parses. It
// reports whether the item was split.
func checkNestedSplit(t testing.TB, src []byte, key string) bool {
	t.Helper()
	outer, ok := SplitItems(src, "outer")
	if !ok || len(outer.Items) != 1 {
		return false
	}
	from, end := outer.Items[0], outer.End.off()
	items, ok := SplitNestedItems(src, from, end, key)
	if !ok {
		return false
	}
	require.NotEmpty(t, items.Items)
	require.Equal(t, items.Start, items.Items[0])
	whole, wholeErr := ParseRange(src, from, end)
	rest, err := ParseRangeWithout(src, from, end, items.Start, items.End)
	if err != nil {
		return true // read whole: any outcome is the item's
	}
	parts, ok := parseParts(t, src, items)
	if !ok {
		return true
	}
	require.NoError(t, wholeErr, "every part parses, the item does not")
	require.Len(t, whole.Items, 1)
	require.Len(t, rest.Items, 1)
	w, r := whole.Items[0], rest.Items[0]
	require.Equal(t, w.Pos, r.Pos)
	samePairs(t, w, r, key, parts)
	return true
}

func TestSplitNestedItems(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		src   string
		items int // 0: not split
	}{
		{"a scaler", "outer:\n  - name: a\n    type: container\n    labelSets:\n      - labels: [x]\n        image: i\n      - labels: [y]\n    maxAgents: 1\n", 2},
		{"the first key", "outer:\n  - labelSets:\n      - a\n      - b\n    name: x\n", 2},
		{"list at the key's column", "outer:\n  - name: a\n    labelSets:\n    - a\n    - b\n    c: 1\n", 2},
		{"wider lead", "outer:\n  -   name: a\n      labelSets:\n        - a\n", 1},
		{"compact outer list", "outer:\n- name: a\n  labelSets:\n  - a\n", 1},
		{"comments and blank lines", "outer:\n  - name: a # n\n    # c\n    labelSets: # l\n\n      - a\n  # c\n      - b\n\n    c: 1\n", 2},
		{"no key", "outer:\n  - name: a\n    other:\n      - a\n", 0},
		{"key not a list", "outer:\n  - labelSets: [a]\n", 0},
		{"key twice", "outer:\n  - labelSets:\n      - a\n    labelSets:\n      - b\n", 0},
		{"nothing after the dash", "outer:\n  -\n    labelSets:\n      - a\n", 0},
		{"a tab after the dash", "outer:\n  -\tlabelSets:\n      - a\n", 0},
		{"a list less indented than the key", "outer:\n  - name: a\n    labelSets:\n   - a\n", 0},
		{"a line less indented than the mapping", "outer:\n  - name: a\n    labelSets:\n      - a\n   b: 1\n", 0},
		{"a sequence in the item", "outer:\n  - - labelSets:\n      - a\n", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			src := []byte(c.src)
			outer, ok := SplitItems(src, "outer")
			require.True(t, ok)
			items, ok := SplitNestedItems(src, outer.Items[0], outer.End.off(), "labelSets")
			if c.items == 0 {
				assert.False(t, ok)
				return
			}
			require.True(t, ok)
			assert.Len(t, items.Items, c.items)
			assert.True(t, checkNestedSplit(t, src, "labelSets"))
		})
	}
}

func TestSplitNestedItemsPositions(t *testing.T) {
	t.Parallel()
	src := []byte("v: 1\nouter:\n  - name: a\n    labelSets:\n      - x\n      - y: 1\n    w: 2\n")
	outer, ok := SplitItems(src, "outer")
	require.True(t, ok)
	items, ok := SplitNestedItems(src, outer.Items[0], outer.End.off(), "labelSets")
	require.True(t, ok)
	assert.Equal(t, Items{
		Start: Pos{Offset: 39, Line: 5, Column: 1},
		End:   Pos{Offset: 62, Line: 7, Column: 1},
		Items: []Pos{{Offset: 39, Line: 5, Column: 1}, {Offset: 49, Line: 6, Column: 1}},
	}, items)
	rest, err := ParseRangeWithout(src, outer.Items[0], outer.End.off(), items.Start, items.End)
	require.NoError(t, err)
	w := rest.Items[0].Pairs[2]
	assert.Equal(t, "w", w.Key)
	assert.Equal(t, Pos{Offset: 66, Line: 7, Column: 5}, w.KeyPos)
	assert.Equal(t, Pos{Offset: 69, Line: 7, Column: 8}, w.Value.Pos)
	// The item's own anchors, tags and the like keep it whole, as they
	// keep SplitItems from splitting a text.
	src = []byte("outer:\n  - labelSets:\n      - &a a\n      - *a\n")
	_, ok = SplitNestedItems(src, Pos{Offset: 7, Line: 2, Column: 1}, len(src), "labelSets")
	assert.False(t, ok)
}

// TestSplitNestedItemsParts holds the parts to the whole item for every
// text of the split tests, each made the mapping of an item.
func TestSplitNestedItemsParts(t *testing.T) {
	t.Parallel()
	split := 0
	texts := append([]string(nil), partsSplitTexts...)
	for _, c := range splitCases {
		texts = append(texts, c.src)
	}
	for _, src := range texts {
		if checkNestedSplit(t, nested(src), "scalers") {
			split++
		}
	}
	t.Logf("%d of %d texts split", split, len(texts))
	assert.Greater(t, split, len(texts)/4)
}

func FuzzSplitNestedItemsParts(f *testing.F) {
	for _, src := range partsSplitTexts {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, inner []byte) {
		checkNestedSplit(t, nested(string(inner)), "scalers")
	})
}
