package yamljs

import (
	"strings"
	"testing"
)

// TestSplitItemsGenerated builds every item of a first line and two
// more lines from a small set of fragments, at every indent up to 4 (the second and third from fewer fragments), in a
// list at column 1 and at column 3, followed by a second item and a root
// key, and holds each text's parts to the whole text (checkSplit).
func TestSplitItemsGenerated(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("about 150,000 texts")
	}
	frags := []string{"a", "a: b", "a:", "[a,", "]", "{a: 1,", "}", "|", "|1", "|2", ">-1", "|+", "- b", "? a", ": b", "# c", "", "'a", "b'", "\"a", "a #c"}
	more := []string{"a", "a: b", "]", "}", "|", "|2", "- b", ": b", "# c", "", "b'", "\"a"}
	var b strings.Builder
	split := 0
	for _, col := range []string{"", "  "} {
		for _, first := range frags {
			for _, second := range more {
				for i2 := 0; i2 <= 4; i2++ {
					for _, third := range more {
						for i3 := 0; i3 <= 4; i3++ {
							b.Reset()
							b.WriteString("k: 1\nscalers:\n")
							b.WriteString(col + "- " + first + "\n")
							b.WriteString(strings.Repeat(" ", i2) + second + "\n")
							b.WriteString(strings.Repeat(" ", i3) + third + "\n")
							b.WriteString(col + "- z\nv: 2\n")
							if checkSplitLogged(t, b.String()) {
								split++
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d texts split", split)
}

// checkSplitLogged is checkSplit that names the text it fails on.
func checkSplitLogged(t *testing.T, src string) bool {
	t.Helper()
	defer func() {
		if t.Failed() {
			t.Logf("text: %q", src)
		}
	}()
	return checkSplit(t, []byte(src), "scalers")
}
