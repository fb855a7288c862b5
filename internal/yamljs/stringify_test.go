package yamljs

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The stringifier's helpers on inputs a parsed document rarely reaches;
// the expected values are what yaml 2.9.1's own helpers return (node).

func TestFoldFlowLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text, indent  string
		quoted        bool
		indentAtStart int
		want          string
	}{
		{"\"ab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\t\"", "  ", true, 10, "\"ab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\t\\\n  ab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\tab\\t\""},
		{"\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx  yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\"", "  ", true, -1, "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx  yyyy\\\n  yyyyyyyyyyyyyyyyyyyyyyyyyy\""},
		{"\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\u1234yyyyyyyyyy\"", "", true, -1, "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\\n\\u1234yyyyyyyyyy\""},
		{"word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word ", "    ", false, 75, "\n    word word word word word word word word word word word word word word word\n    word word word word word word word word word word word word word word word "},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "  ", false, -1, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
		{"\"\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\"", "", true, -1, "\"\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\\n\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\x41\\\n\\x41\""},
		{"\"\\U0001F600\\U0001F600\\U0001F600\\U0001F600\\U0001F600\\U0001F600\\U0001F600\\U0001F600\\U0001F600\\U0001F600\\U0001F600\\U0001F600\"", "", true, -1, "\"\\U0001F600\\U0001F600\\U0001F600\\U0001F600\\U0001F600\\U0001F600\\U0001F600\\\n\\U0001F600\\U0001F600\\U0001F600\\U0001F600\\U0001F600\""},
	}
	for _, tt := range tests {
		t.Run(tt.text[:min(20, len(tt.text))], func(t *testing.T) {
			t.Parallel()
			ctx := &strCtx{indentAtStart: tt.indentAtStart, hasIndentAtStart: tt.indentAtStart >= 0}
			mode := foldFlow
			if tt.quoted {
				mode = foldQuoted
			}
			assert.Equal(t, tt.want, foldFlowLines(tt.text, tt.indent, mode, ctx))
		})
	}
}

func TestComments(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, comment, indented, line, lineAfterNewline, lineAfterSpace string
	}{
		{"a\nb", "#a\n#b", "  #a\n  #b", "\n  #a\n  #b", "  #a\n  #b", "\n  #a\n  #b"},
		{" ", "#", "  #", " #", "  #", "#"},
		{"x\n \n", "#x\n#\n", "  #x\n  #\n", "\n  #x\n  #\n", "  #x\n  #\n", "\n  #x\n  #\n"},
		{"\n\n", "\n\n", "\n", "\n\n", "\n", "\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			cs := commentString(tt.in)
			assert.Equal(t, tt.comment, cs)
			assert.Equal(t, tt.indented, indentComment(cs, "  "))
			assert.Equal(t, tt.line, lineComment("s", "  ", cs))
			assert.Equal(t, tt.lineAfterNewline, lineComment("s\n", "  ", cs))
			assert.Equal(t, tt.lineAfterSpace, lineComment("s ", "  ", cs))
		})
	}
}

func TestPlainSafe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want bool
	}{
		{"", true}, {"a", true}, {"a b", true}, {"a:b", true}, {"-a", true}, {"?a", true},
		{" a", false}, {"#a", false}, {"&a", false}, {"*a", false}, {"!a", false}, {"|a", false}, {">a", false},
		{"'a", false}, {"\"a", false}, {"%a", false}, {"@a", false}, {"`a", false}, {",a", false}, {"[a", false},
		{"-", false}, {"?", false}, {"- a", false}, {"?\ta", false}, {"a: b", false}, {"a:\tb", false},
		{"a\n b", false}, {"a \nb", false}, {"a #b", false}, {"a\t#b", false}, {"a\n#b", false},
		{"a ", false}, {"a:", false}, {"a\t", false}, {"a\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, plainSafe(tt.in))
		})
	}
}

func TestStringHelpers(t *testing.T) {
	t.Parallel()
	assert.True(t, needsDoubleQuotes("a\x01"))
	assert.True(t, needsDoubleQuotes("a\u0085"))
	assert.True(t, needsDoubleQuotes("a\xed\xa0\x80"))
	assert.False(t, needsDoubleQuotes("a\tb\n\ufffd"))
	assert.True(t, containsDocumentMarker("a\n--- b"))
	assert.True(t, containsDocumentMarker("%a"))
	assert.True(t, containsDocumentMarker("x\n..."))
	assert.False(t, containsDocumentMarker("a -- b"))
	assert.True(t, spaceAroundNewline("a \nb"))
	assert.True(t, spaceAroundNewline("a\n\tb"))
	assert.False(t, spaceAroundNewline("a\nb"))

	root := &strCtx{}
	assert.Equal(t, `"a\nb"`, quotedString("a\nb", root))
	assert.Equal(t, `'say "hi"'`, quotedString(`say "hi"`, root))
	assert.Equal(t, `"it's"`, quotedString("it's", root))
	assert.Equal(t, `"x\n--- y"`, doubleQuotedString("x\n--- y", &strCtx{implicitKey: true}))
	assert.Equal(t, "'--- a\n\n  b'", singleQuotedString("--- a\nb", root))
}

func TestJSValues(t *testing.T) {
	t.Parallel()
	nan := scalarValue{kind: Number, num: math.NaN()}
	assert.True(t, sameValueZeroScalar(nan, nan))
	assert.True(t, sameValueZeroScalar(scalarValue{kind: Null}, scalarValue{kind: Null}))
	assert.False(t, sameValueZeroScalar(scalarValue{kind: Bool, b: true}, scalarValue{kind: Bool}))
	assert.False(t, sameValueZeroScalar(scalarValue{kind: Bytes}, scalarValue{kind: Bytes}))
	assert.True(t, sameValueZero(&Node{Kind: Null}, &Node{Kind: Null}))
	assert.True(t, sameValueZero(&Node{Kind: Bool, Bool: true}, &Node{Kind: Bool, Bool: true}))
	assert.False(t, sameValueZero(&Node{Kind: Seq}, &Node{Kind: Seq}))

	key := func(n *Node) string {
		s, ok := propertyKey(n)
		require.True(t, ok)
		return s
	}
	cyc := &Node{Kind: Seq}
	cyc.Items = []*Node{{Kind: Number, Num: 1}, {Kind: Null}, cyc, {Kind: Map}, {Kind: Set}, {Kind: OrderedMap}, {Kind: Undefined}, {Kind: Symbol, Str: "<<"}}
	assert.Equal(t, "Symbol(<<)", key(cyc.Items[7]))
	_, ok := propertyKey(cyc)
	assert.False(t, ok, "join throws on a Symbol")
	cyc.Items = cyc.Items[:7]
	assert.Equal(t, "1,,,[object Object],[object Set],[object Map],", key(cyc))
	assert.Equal(t, "Fri Dec 14 2001 00:00:00 GMT+0000 (Coordinated Universal Time)", key(&Node{Kind: Date, Num: 1008288000000}))
	assert.Equal(t, "hi\ufffd", key(&Node{Kind: Bytes, Str: "hi\xff"}))

	for v, want := range map[scalarValue]bool{
		{kind: Null}: false, {kind: Number}: false, {kind: Number, num: 2}: true, {kind: String}: false,
		{kind: String, str: "0"}: true, {kind: Date}: true, {kind: Bool, b: true}: true,
	} {
		assert.Equal(t, want, jsTruthy(v), "%+v", v)
	}
	for v, want := range map[scalarValue]float64{
		{kind: Bool, b: true}: 1, {kind: Bool}: 0, {kind: Null}: 0, {kind: Date, num: 5}: 5, {kind: String, str: " 2 "}: 2,
	} {
		assert.Equal(t, want, numberOf(v), "%+v", v)
	}
	assert.True(t, math.IsNaN(numberOf(scalarValue{kind: Symbol})))
}

// TestUnitArithmetic holds the offset arithmetic in UTF-16 code units to
// JavaScript's indices into the same text: advancing, retreating and
// counting from any index, one between the two code units of a character
// included (the byte offset two into its four).
func TestUnitArithmetic(t *testing.T) {
	t.Parallel()
	text := "a😀é\u4e2d😀😀x\n𝄞"
	// byteOf[u] is the offset of code unit u.
	var byteOf []int
	for i, r := range text {
		byteOf = append(byteOf, i)
		if r >= 0x10000 {
			byteOf = append(byteOf, i+2)
		}
	}
	byteOf = append(byteOf, len(text))
	units := len(byteOf) - 1
	for u := 0; u <= units; u++ {
		for n := 0; u+n <= units; n++ {
			assert.Equal(t, byteOf[u+n], advanceUnits(text, byteOf[u], n), "advance %d from %d", n, u)
			assert.Equal(t, byteOf[u], retreatUnits(text, byteOf[u+n], n), "retreat %d from %d", n, u+n)
			assert.Equal(t, n, unitsBetween(text, byteOf[u], byteOf[u+n]), "units from %d to %d", u, u+n)
		}
	}
	assert.Equal(t, len(text), advanceUnits(text, 0, units+5), "past the end")
	assert.Equal(t, 4, unitsBetween(text, len(text)-4, len(text)+2), "past the end a unit a byte")
	s := newSource([]byte(text))
	assert.Equal(t, s.pos(5), s.pos(3), "inside a character is at its end")
}
