package yamljs

import (
	"bytes"
	"encoding/base64"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The properties every Parse has, checked over the corpus and by FuzzParse.

// checkPositions checks that every position Parse gives lies inside src
// and that its line and column are those of its offset.
func checkPositions(t testing.TB, src []byte, n *Node, err error) {
	lines := []int{0}
	for i, c := range src {
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	// Each position is checked first and handed to testify only when it
	// is wrong: this runs for every node of the corpora.
	at := func(what string, p Pos) {
		if p.Offset < 0 || p.off() > len(src) {
			require.Failf(t, "a position outside the text", "%s offset %d outside [0, %d]", what, p.Offset, len(src))
		}
		line := sort.SearchInts(lines, p.off()+1)
		col := p.off() - lines[line-1] + 1
		if p.line() != line || int(p.Column) != col {
			require.Equal(t, [2]int{line, col}, [2]int{p.line(), int(p.Column)}, "%s at offset %d: line and column", what, p.Offset)
		}
	}
	var se *SyntaxError
	if errors.As(err, &se) {
		for _, p := range se.Problems {
			at("problem "+p.Message, p.Pos)
			at("problem end "+p.Message, p.End)
			require.GreaterOrEqual(t, p.End.Offset, p.Pos.Offset, "problem %q ends before it starts", p.Message)
		}
		return
	}
	require.NoError(t, err)
	walk(n, func(n *Node) {
		at("node", n.Pos)
		at("node end", n.End)
		if n.End.Offset < n.Pos.Offset {
			require.GreaterOrEqual(t, n.End.Offset, n.Pos.Offset, "node at %d ends before it starts", n.Pos.Offset)
		}
		for _, p := range n.Pairs {
			at("key "+strconv.Quote(p.Key), p.KeyPos)
		}
	})
}

// walk visits every node once, aliases and cycles included.
func walk(n *Node, f func(*Node)) {
	seen := map[*Node]bool{}
	var visit func(*Node)
	visit = func(n *Node) {
		if seen[n] {
			return
		}
		seen[n] = true
		f(n)
		for _, it := range n.Items {
			visit(it)
		}
		for _, p := range n.Pairs {
			if p.KeyNode != nil {
				visit(p.KeyNode)
			}
			visit(p.Value)
		}
	}
	visit(n)
}

// emit writes a value as YAML in flow style, or false when it cannot
// (a cycle, or too large).
type emitter struct {
	b       strings.Builder
	onStack map[*Node]bool
}

func emitYAML(n *Node) (string, bool) {
	e := &emitter{onStack: map[*Node]bool{}}
	ok := e.emit(n)
	return e.b.String(), ok && e.b.Len() < 1<<20
}

func quoteYAML(s string) string {
	return jsonString(s) // JSON's double quotes are YAML's
}

func (e *emitter) emit(n *Node) bool {
	if e.onStack[n] || e.b.Len() > 1<<20 {
		return false
	}
	e.onStack[n] = true
	defer delete(e.onStack, n)
	switch n.Kind {
	case Null:
		e.b.WriteString("null")
	case Undefined:
		return false // YAML has no undefined
	case Bool:
		e.b.WriteString(strconv.FormatBool(n.Bool))
	case Number:
		e.b.WriteString(emitNumber(n.Num))
	case String:
		e.b.WriteString(quoteYAML(n.Str))
	case Symbol:
		e.b.WriteString("!!merge <<")
	case Bytes:
		e.b.WriteString("!!binary " + quoteYAML(base64.StdEncoding.EncodeToString([]byte(n.Str))))
	case Date:
		e.b.WriteString("!!timestamp " + time.UnixMilli(int64(n.Num)).UTC().Format("2006-01-02T15:04:05.000Z"))
	case Seq, Set:
		if n.Kind == Set {
			e.b.WriteString("!!set ")
		}
		return e.list(n)
	case OrderedMap:
		e.b.WriteString("!!omap [")
		for i, p := range n.Pairs {
			if i > 0 {
				e.b.WriteString(", ")
			}
			e.b.WriteString("? ")
			if !e.emit(p.KeyNode) {
				return false
			}
			e.b.WriteString(" : ")
			if !e.emit(p.Value) {
				return false
			}
		}
		e.b.WriteString("]")
	default:
		e.b.WriteString("{")
		for i, p := range n.Pairs {
			if i > 0 {
				e.b.WriteString(", ")
			}
			e.b.WriteString(quoteYAML(p.Key) + ": ")
			if !e.emit(p.Value) {
				return false
			}
		}
		e.b.WriteString("}")
	}
	return true
}

func (e *emitter) list(n *Node) bool {
	open, close := "[", "]"
	if n.Kind == Set {
		open, close = "{", "}"
	}
	e.b.WriteString(open)
	for i, it := range n.Items {
		if i > 0 {
			e.b.WriteString(", ")
		}
		if n.Kind == Set {
			e.b.WriteString("? ")
		}
		if !e.emit(it) {
			return false
		}
	}
	e.b.WriteString(close)
	return true
}

func emitNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return ".nan"
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	case f == 0 && math.Signbit(f):
		return "-0"
	}
	s := NumberString(f)
	if strings.ContainsAny(s, "e") && !strings.Contains(s, ".") {
		// 1e+21 is a string to yaml's core schema: write it with a dot.
		m, x, _ := strings.Cut(s, "e")
		s = m + ".0e" + x
	}
	return s
}

// sameValue compares two values, not positions; NaN equals NaN.
func sameValue(a, b *Node, seen map[[2]*Node]bool) bool {
	if seen[[2]*Node{a, b}] {
		return true
	}
	seen[[2]*Node{a, b}] = true
	if a.Kind != b.Kind || a.Bool != b.Bool || a.Str != b.Str ||
		len(a.Items) != len(b.Items) || len(a.Pairs) != len(b.Pairs) {
		return false
	}
	if a.Num != b.Num && !(a.Num != a.Num && b.Num != b.Num) || math.Signbit(a.Num) != math.Signbit(b.Num) {
		return false
	}
	for i := range a.Items {
		if !sameValue(a.Items[i], b.Items[i], seen) {
			return false
		}
	}
	for i := range a.Pairs {
		pa, pb := a.Pairs[i], b.Pairs[i]
		if pa.Key != pb.Key || !sameValue(pa.Value, pb.Value, seen) {
			return false
		}
		if (pa.KeyNode == nil) != (pb.KeyNode == nil) || (pa.KeyNode != nil && !sameValue(pa.KeyNode, pb.KeyNode, seen)) {
			return false
		}
	}
	return true
}

// checkRoundTrip checks that the value written as YAML reads back the same.
func checkRoundTrip(t testing.TB, n *Node) {
	text, ok := emitYAML(n)
	if !ok {
		return
	}
	back, err := Parse([]byte(text))
	require.NoError(t, err, "re-reading %q", text)
	assert.True(t, sameValue(n, back, map[[2]*Node]bool{}), "%q reads back differently", text)
}

// checkRewrite replaces the source text of string values, one at a time,
// with a double-quoted string, and checks that the file then reads as the
// same value with that string changed: the extents are exact.
func checkRewrite(t testing.TB, src []byte, n *Node, limit int) {
	var offsets []int
	seen := map[int]bool{}
	walk(n, func(v *Node) {
		if v.Kind == String && !seen[v.Pos.off()] && rewritable(src, v) {
			seen[v.Pos.off()] = true
			offsets = append(offsets, v.Pos.off())
		}
	})
	sort.Ints(offsets)
	if len(offsets) > limit {
		offsets = offsets[:limit]
	}
	for _, off := range offsets {
		var target *Node
		walk(n, func(v *Node) {
			if v.Kind == String && v.Pos.off() == off && target == nil {
				target = v
			}
		})
		old := src[target.Pos.Offset:target.End.Offset]
		repl, value := replacement(target.Style, old)
		edited := append(append(append([]byte{}, src[:target.Pos.Offset]...), repl...), src[target.End.Offset:]...)
		got, err := Parse(edited)
		require.NoError(t, err, "after rewriting %q in %q", old, src)
		want := rewritten(n, off, value)
		assert.True(t, sameValue(want, got, map[[2]*Node]bool{}), "rewriting %q at %d in %q", old, off, src)
	}
}

// replacement is the text that rewrites a scalar of a style, and the value
// it reads as. A quoted scalar keeps its quotes where they were: yaml
// looks for the quote that closes an earlier scalar across lines, and a
// scalar cut short by the next line's indentation reads differently when
// that quote goes.
func replacement(style Style, old []byte) (string, string) {
	switch style {
	case Plain:
		return "rewritten", "rewritten"
	case SingleQuoted:
		return "'rewritten ✓'", "rewritten ✓"
	}
	repl := `"rewritten ✓"`
	if len(old) > 0 && old[len(old)-1] == '\n' && (style == Literal || style == Folded) {
		repl += "\n"
	}
	return repl, "rewritten ✓"
}

// rewritable reports whether the check can rewrite a string: one with
// text (an empty value has none to replace), without a lone carriage
// return (white space to the lexer, not to the scalar, so replacing it
// joins the tokens around it), without a quote that is not its own (see
// replacement), and without an anchor on its line, whose aliases might be
// keys, which the check does not follow.
func rewritable(src []byte, v *Node) bool {
	text := string(src[v.Pos.Offset:v.End.Offset])
	if text == "" || strings.Contains(strings.ReplaceAll(text, "\r\n", ""), "\r") {
		return false
	}
	others := "'\""
	switch v.Style {
	case SingleQuoted:
		others = "\""
	case DoubleQuoted:
		others = "'"
	}
	if strings.ContainsAny(text, others) {
		return false
	}
	// An anchored string that an alias repeats changes there too, which
	// rewritten does not follow (an alias key is a Pair's Key, no node of
	// its own): in a text with an alias, a string after any anchor is left
	// alone. Its anchor can be lines before it (": &a\n A\n*a :").
	if bytes.IndexByte(src, '*') >= 0 && bytes.IndexByte(src[:v.Pos.Offset], '&') >= 0 {
		return false
	}
	// A scalar right after its tag, with no space between ("[!\f]": yaml's
	// lexer ends a tag at a byte a tag cannot hold), would join the tag
	// once rewritten ("[!rewritten]" is an empty scalar of tag !rewritten).
	if off := v.Pos.off(); off > 0 && !strings.ContainsRune(" \t\r\n[]{},:?-", rune(src[off-1])) {
		return false
	}
	// A string made of another value is placed at that value's scalar,
	// whose text it is not: a merged !!set spreads a member string into
	// its characters ("{!!merge : !!set {0A} }" reads as {"0": "A"}, the
	// "A" at "0A"). A plain scalar on one line is its own text.
	if v.Style == Plain && !strings.ContainsAny(text, "\r\n") && text != v.Str {
		return false
	}
	lineStart := strings.LastIndexByte(string(src[:v.Pos.Offset]), '\n') + 1
	return !strings.Contains(string(src[lineStart:v.Pos.Offset]), "&")
}

// rewritten copies a value with every string at offset off replaced.
func rewritten(n *Node, off int, s string) *Node {
	copies := map[*Node]*Node{}
	var cp func(*Node) *Node
	cp = func(n *Node) *Node {
		if c, ok := copies[n]; ok {
			return c
		}
		c := *n
		copies[n] = &c
		if c.Kind == String && c.Pos.off() == off {
			c.Str = s
		}
		c.Items = make([]*Node, len(n.Items))
		for i, it := range n.Items {
			c.Items[i] = cp(it)
		}
		c.Pairs = make([]Pair, len(n.Pairs))
		for i, p := range n.Pairs {
			c.Pairs[i] = p
			c.Pairs[i].Value = cp(p.Value)
			if p.KeyNode != nil {
				c.Pairs[i].KeyNode = cp(p.KeyNode)
				c.Pairs[i].Key, _ = propertyKey(c.Pairs[i].KeyNode)
			}
		}
		return &c
	}
	return cp(n)
}

func TestCorpusProperties(t *testing.T) {
	for _, c := range loadCorpus(t) {
		t.Run(c.Name, func(t *testing.T) {
			src := c.bytes(t)
			n, err := Parse(src)
			checkPositions(t, src, n, err)
			if err != nil {
				return
			}
			checkRoundTrip(t, n)
			checkRewrite(t, src, n, 50)
		})
	}
}

func FuzzParse(f *testing.F) {
	// The named cases, and a sample of the generated ones: all of them
	// would take the fuzzer's first seconds to replay.
	for i, c := range loadCorpus(f) {
		if !strings.HasPrefix(c.Name, "random ") && !strings.HasPrefix(c.Name, "structured ") || i%25 == 0 {
			f.Add(c.bytes(f))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		n, err := Parse(src)
		checkPositions(t, src, n, err)
		if err != nil {
			var se *SyntaxError
			require.True(t, errors.As(err, &se))
			require.NotEmpty(t, se.Problems)
			return
		}
		if !utf8.Valid(src) {
			return // the value holds U+FFFD where src does not
		}
		checkRoundTrip(t, n)
		checkRewrite(t, src, n, 5)
	})
}
