//go:build unix

package bench

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// issue33Shapes are issue 33's, each measured beside node reading the same
// file:
//   - deepflow: 50 MB of "[", never closed, the issue's file (it took
//     kici-preflight 57 s and 16 GB; node runs out of heap);
//   - deepflowmap, deepblock, deepmap: 10 MB of "{a: ", of "- " and of
//     "? ", flow maps, block sequences and block maps nested on one line;
//   - deepindent: block maps nested by indentation, twice yamljs.MaxDepth
//     of them, closed by a value: a file node reads to its end and
//     refuses, its stack run out;
//   - wideflow, wideflowpairs: a flow list of 1,000,000 quoted strings of
//     37 characters (43 MB), and one of 1,000,000 pairs, each a map of its
//     own (20 MB). A flow map of as many pairs is not measured: node's yaml
//     checks each key against every key before it, and had not read
//     1,000,000 in 16 minutes (kici-preflight reads it in 13 s, 770 MB);
//   - longplain, longquoted, longblock: a config whose one more key holds
//     a 50 MB plain scalar, a double-quoted one with escapes, a literal
//     block scalar of 80-byte lines.
//
// The deep ones are refused at the opening of their level past
// yamljs.MaxDepth, with exit status 1 and that position.
func issue33Shapes() []memoryShape {
	d := yamljs.MaxDepth + 1
	deep := func(name, text string, line, col int) memoryShape {
		at := regexp.MustCompile(fmt.Sprintf(`(?m)^[^\n]*%s\.yaml:%d:%d: error: Maximum call stack size exceeded \[invalid-config\]$`, name, line, col))
		return memoryShape{name: name, refusal: at, write: func(dir string) (string, string, error) {
			return writeShape(dir, name+".yaml", text)
		}}
	}
	text := func(name, text string) memoryShape {
		return memoryShape{name: name, write: func(dir string) (string, string, error) {
			return writeShape(dir, name+".yaml", text)
		}}
	}
	return []memoryShape{
		deep("deepflow", strings.Repeat("[", 50_000_000), 1, d),
		deep("deepflowmap", strings.Repeat("{a: ", 2_500_000), 1, 4*d-3),
		deep("deepblock", strings.Repeat("- ", 5_000_000), 1, 2*d-1),
		deep("deepmap", strings.Repeat("? ", 5_000_000), 1, 2*d-1),
		deep("deepindent", indentedMaps(2*d), d, d),
		text("wideflow", wideFlowList(1_000_000)),
		text("wideflowpairs", wideFlowPairs(1_000_000)),
		text("longplain", "version: 1\nscalers: []\nx: "+strings.Repeat("a", 50_000_000)+"\n"),
		text("longquoted", "version: 1\nscalers: []\nx: \""+strings.Repeat(`abc\tdef\n`, 5_000_000)+"\"\n"),
		text("longblock", "version: 1\nscalers: []\nx: |\n"+strings.Repeat("  "+strings.Repeat("b", 77)+"\n", 625_000)),
	}
}

// indentedMaps is n block maps nested by indentation, one key a line, the
// last key's value v.
func indentedMaps(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strings.Repeat(" ", i) + "k:")
	}
	return b.String() + " v\n"
}

// wideFlowList is a one-line flow list of n quoted strings.
func wideFlowList(n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"item-%07d-abcdefghijklmnopqrstuvwxyz"`, i)
	}
	return b.String() + "]\n"
}

// wideFlowPairs is a one-line flow list of n pairs, each a map of one pair.
func wideFlowPairs(n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "k%07d: v%07d", i, i)
	}
	return b.String() + "]\n"
}

// TestDeepNestingRefused is BenchmarkMemory's check on two small deep
// nestings, 20 KB of "[" and block maps nested by indentation one past
// yamljs.MaxDepth deep: kici-preflight refuses each at its opening past
// yamljs.MaxDepth, with exit status 1, as node fails on it, and peaks
// below node reading it.
func TestDeepNestingRefused(t *testing.T) {
	prog := buildPreflight(t)
	self, err := os.Executable()
	require.NoError(t, err)
	d := yamljs.MaxDepth + 1
	refusal := func(name string, line, col int) *regexp.Regexp {
		return regexp.MustCompile(fmt.Sprintf(`%s\.yaml:%d:%d: error: Maximum call stack size exceeded`, name, line, col))
	}
	for _, s := range []struct {
		name, text string
		at         *regexp.Regexp
	}{
		{"open", strings.Repeat("[", 20_000), refusal("open", 1, d)},
		{"indented", indentedMaps(d), refusal("indented", d, d)},
	} {
		main, _, err := writeShape(t.TempDir(), s.name+".yaml", s.text)
		require.NoError(t, err)
		node := nodeRunOf(t, self, main, "")
		r := runPreflight(t, self, prog, main, "")
		t.Logf("%s: kici-preflight peaks at %d kB in %v, node at %d kB in %v (exit status %d)", s.name, r.peak/1000, r.wall, node.peak/1000, node.wall, node.exit)
		require.NoError(t, memoryShape{name: s.name, refusal: s.at}.check(r, node))
		assert.LessOrEqual(t, r.peak, node.peak)
	}
}
