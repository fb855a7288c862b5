package yamljs

import (
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nesting is a shape of nested collections, as testdata/gen/depth.js
// writes them for node: its text of n levels, closed or not, and where
// the last of the n levels opens.
type nesting struct {
	name string
	text func(n int, closed bool) string
	at   func(n int) (line, col int)
}

// lines is n lines of line(i), then " v" and a line break.
func lines(n int, line func(i int) string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line(i))
	}
	return b.String() + " v\n"
}

// nestings are the shapes depth.js measures node on.
var nestings = []nesting{
	{"flow-seq", func(n int, closed bool) string {
		return strings.Repeat("[", n) + ifClosed(closed, strings.Repeat("]", n)+"\n")
	}, func(n int) (int, int) { return 1, n }},
	{"flow-map", func(n int, closed bool) string {
		return strings.Repeat("{a: ", n) + "x" + ifClosed(closed, strings.Repeat("}", n)+"\n")
	}, func(n int) (int, int) { return 1, 4*n - 3 }},
	{"block-map", func(n int, _ bool) string {
		return lines(n, func(i int) string { return strings.Repeat(" ", i) + "k:" })
	}, func(n int) (int, int) { return n, n }},
	{"block-seq", func(n int, _ bool) string {
		return lines(n, func(i int) string { return strings.Repeat(" ", 2*i) + "-" })
	}, func(n int) (int, int) { return n, 2*n - 1 }},
	{"compact-seq", func(n int, _ bool) string {
		return strings.Repeat("- ", n) + "v\n"
	}, func(n int) (int, int) { return 1, 2*n - 1 }},
	{"block-mixed", func(n int, _ bool) string {
		return lines(n, func(i int) string { return strings.Repeat(" ", 2*i) + []string{"k:", "-"}[i%2] })
	}, func(n int) (int, int) { return n, 2*n - 1 }},
	{"block-flow", func(n int, closed bool) string {
		h := n / 2
		return strings.Repeat("- ", h) + strings.Repeat("[", n-h) + ifClosed(closed, strings.Repeat("]", n-h)+"\n")
	}, func(n int) (int, int) { return 1, n/2 + n }},
}

func ifClosed(closed bool, s string) string {
	if closed {
		return s
	}
	return ""
}

// depthOf is how many collections n's first entries nest, and the value
// at the bottom.
func depthOf(n *Node) (int, *Node) {
	d := 0
	for {
		switch {
		case n.Kind == Seq && len(n.Items) == 1:
			n = n.Items[0]
		case n.Kind == Map && len(n.Pairs) == 1:
			n = n.Pairs[0].Value
		case n.Kind == Seq || n.Kind == Map:
			return d + 1, nil
		default:
			return d, n
		}
		d++
	}
}

// TestDepth: every shape nested MaxDepth levels reads, with its content;
// one level more is refused where that level opens, closed or not, with
// yaml's code and the message of JavaScript's stack overflow.
func TestDepth(t *testing.T) {
	t.Parallel()
	for _, s := range nestings {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			n, err := Parse([]byte(s.text(MaxDepth, true)))
			require.NoError(t, err)
			d, leaf := depthOf(n)
			assert.Equal(t, MaxDepth, d)
			if leaf != nil {
				assert.Contains(t, []string{"v", "x"}, leaf.Str)
			}
			line, col := s.at(MaxDepth + 1)
			for _, closed := range []bool{true, false} {
				_, err = Parse([]byte(s.text(MaxDepth+1, closed)))
				var serr *SyntaxError
				require.ErrorAs(t, err, &serr)
				require.Len(t, serr.Problems, 1, "closed %v: %v", closed, serr.Problems)
				p := serr.Problems[0]
				assert.Equal(t, ErrResourceExhaustion, p.Code)
				assert.Equal(t, "Maximum call stack size exceeded", p.Message)
				assert.Equal(t, []int32{int32(line), int32(col)}, []int32{p.Pos.Line, p.Pos.Column}, "closed %v", closed)
				assert.True(t, strings.HasPrefix(serr.Thrown, "Maximum call stack size exceeded at line "), serr.Thrown)
			}
		})
	}
}

// TestDepthStops: the parse stops at the opening that nests too deep.
// What yaml reports before it stays, in yaml's order; nothing past it is
// read, and the excerpt of the message parse() throws ends with its line.
func TestDepthStops(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", MaxDepth) // under "b:", MaxDepth+1 levels
	tests := []struct {
		name, src string
		codes     []Code
		at        Pos
	}{
		{"a key twice before", "a: 1\na: 2\nb: " + deep + "\n]\n", []Code{ErrDuplicateKey, ErrResourceExhaustion},
			Pos{Offset: 12 + MaxDepth, Line: 3, Column: 3 + MaxDepth}},
		{"a stray token after", "b: " + deep + strings.Repeat("]", MaxDepth+1) + "\n]\n", []Code{ErrResourceExhaustion},
			Pos{Offset: 2 + MaxDepth, Line: 1, Column: 3 + MaxDepth}},
		{"more lines after", "b:\n  " + deep + "\nnext: line\n", []Code{ErrResourceExhaustion},
			Pos{Offset: 4 + MaxDepth, Line: 2, Column: 2 + MaxDepth}},
		{"a second document", "a\n---\n[" + deep, []Code{ErrMultipleDocs}, Pos{Offset: 2, Line: 2, Column: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tt.src))
			var serr *SyntaxError
			require.ErrorAs(t, err, &serr)
			var codes []Code
			for _, p := range serr.Problems {
				codes = append(codes, p.Code)
			}
			assert.Equal(t, tt.codes, codes)
			assert.Equal(t, tt.at, serr.Problems[len(serr.Problems)-1].Pos)
			assert.NotContains(t, serr.Thrown, "next")
		})
	}
}

// TestDepthBounded: the parse of a text that only opens collections,
// which it refuses, allocates the text's copy and at most 4 KB a level up
// to MaxDepth (the syntax tree, and the problems yaml reports on the way:
// "- [" has three a level), not what its nesting would take: it stops at
// the opening that nests too deep, where it built a syntax tree of 320
// bytes a byte of the text (issue 33: 50 MB of "[" took 16 GB). Not
// parallel: it reads the program's allocations.
func TestDepthBounded(t *testing.T) {
	const size = 4 << 20
	for _, open := range []string{"[", "{", "- ", "? ", "{a: [", "- [", "k: "} {
		src := []byte(strings.Repeat(open, size/len(open)))
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Parse(src)
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%q: %d bytes, %d KB allocated: %v", open, len(src), alloc>>10, err)
		var serr *SyntaxError
		require.ErrorAs(t, err, &serr)
		assert.True(t, slicesContain(serr.Problems, ErrResourceExhaustion), "%q: %v", open, serr.Problems)
		assert.Less(t, alloc, uint64(len(src)+4<<10*MaxDepth), "%q", open)
	}
}

func slicesContain(ps []Problem, code Code) bool {
	for _, p := range ps {
		if p.Code == code {
			return true
		}
	}
	return false
}

// TestLongBlockScalarAllocates: a block scalar of many lines, long or
// short, costs the text's copy, its value (with room for its source) and
// about 20 bytes a line (where each starts, its indent and its end): its
// lines were two strings each, in a list that grew by doubling, and its
// value was built in a buffer that did too, 200 to 500 bytes a line in
// all. Not parallel: it reads the program's allocations.
func TestLongBlockScalarAllocates(t *testing.T) {
	for _, line := range []string{"  " + strings.Repeat("b", 77) + "\n", " a\n"} {
		n := (4 << 20) / len(line)
		src := []byte("x: |\n" + strings.Repeat(line, n))
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		v, err := Parse(src)
		runtime.ReadMemStats(&after)
		require.NoError(t, err)
		require.Len(t, v.Pairs[0].Value.Str, n*len(strings.TrimLeft(line, " ")))
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%d lines of %d bytes: %d KB allocated, %.1f bytes a line beyond the copy and the value", n, len(line), alloc>>10,
			float64(int(alloc)-len(src)-len(v.Pairs[0].Value.Str))/float64(n))
		assert.Less(t, int(alloc), len(src)+len(v.Pairs[0].Value.Str)+32*n+1<<20)
	}
}

// TestParseInPlace: ParseInPlace reads what Parse reads, from src's own
// bytes when they are UTF-8 (a string of the tree is in src), from a
// decoded copy when they are not. Not parallel: it reads the program's
// allocations.
func TestParseInPlace(t *testing.T) {
	long := strings.Repeat("a", 1<<20)
	for _, src := range []string{"x: " + long + "\n", "x: " + long + "\xff\n", "[a, {b: c}]", "a: 1\na: 2\n"} {
		want, wantErr := Parse([]byte(src))
		b := []byte(src)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got, err := ParseInPlace(b)
		runtime.ReadMemStats(&after)
		assert.Equal(t, wantErr, err)
		assert.Equal(t, want, got)
		if len(src) < 1<<20 {
			continue
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; utf8.ValidString(src) {
			assert.Less(t, alloc, uint64(len(src)/2), "no copy")
			b[3] = 'z' // the tree reads src: it must not change while the tree is in use
			assert.Equal(t, byte('z'), got.Pairs[0].Value.Str[0])
		} else {
			assert.Greater(t, alloc, uint64(len(src)), "a decoded copy")
		}
	}
}
