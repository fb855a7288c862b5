package yamljs

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKindString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind Kind
		want string
	}{
		{Null, "null"}, {Bool, "bool"}, {Number, "number"}, {String, "string"}, {Seq, "array"}, {Map, "object"},
		{Bytes, "Buffer"}, {Date, "Date"}, {Set, "Set"}, {OrderedMap, "Map"}, {Symbol, "symbol"}, {Kind(99), "Kind(99)"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.kind.String())
		})
	}
}

func TestSyntaxError(t *testing.T) {
	t.Parallel()
	_, err := Parse([]byte("a: 1\na: 2\n\tb: [\n"))
	var se *SyntaxError
	require.True(t, errors.As(err, &se))
	assert.Equal(t, "yamljs.Parse: 2:1: Map keys must be unique (and 2 more)", err.Error())
	assert.ErrorIs(t, err, ErrDuplicateKey)
	assert.ErrorIs(t, err, ErrTabAsIndent)
	assert.NotErrorIs(t, err, ErrMultipleDocs)
	assert.Equal(t, "2:1: Map keys must be unique", se.Problems[0].String())
	assert.Equal(t, "DUPLICATE_KEY", ErrDuplicateKey.Error())

	_, err = Parse([]byte("a: *x\n"))
	assert.Equal(t, "yamljs.Parse: 1:4: Unresolved alias (the anchor must be set before the alias): x", err.Error())
	assert.ErrorIs(t, err, ErrUnresolvedAlias)
}

func TestNumberString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   float64
		want string
	}{
		{0.1, "0.1"}, {1e21, "1e+21"}, {1e-7, "1e-7"}, {123456789012345680000, "123456789012345680000"},
		{5e-324, "5e-324"}, {math.MaxFloat64, "1.7976931348623157e+308"}, {-1.5e-7, "-1.5e-7"}, {100, "100"},
		{0.000001, "0.000001"}, {1234.5678, "1234.5678"}, {math.Copysign(0, -1), "0"}, {math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, NumberString(tt.in))
		})
	}
	exp := map[float64]string{0.1: "1e-1", 100: "1e+2", 1234.5678: "1.2345678e+3", -1.5e-7: "-1.5e-7", 0: "0e+0"}
	for f, want := range exp {
		assert.Equal(t, want, toExponential(f))
	}
}

// TestJSNumber pins Number() of strings, as node computes it.
func TestJSNumber(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	tests := []struct {
		in   string
		want float64
	}{
		{"", 0}, {" ", 0}, {"1", 1}, {" 1.5 ", 1.5}, {"0x10", 16}, {"0X1f", 31}, {"0o17", 15}, {"0b101", 5},
		{"0b2", nan}, {"1e3", 1000}, {".5", 0.5}, {"5.", 5}, {"+.5", 0.5}, {"-.5", -0.5}, {"1e", nan},
		{"abc", nan}, {"Infinity", math.Inf(1)}, {"-Infinity", math.Inf(-1)}, {"+Infinity", math.Inf(1)},
		{"infinity", nan}, {"1_0", nan}, {"0x", nan}, {"\u00a01\u00a0", 1}, {"-0x10", nan}, {"1.5e+3", 1500},
		{"+1", 1}, {"--1", nan}, {"0.0.1", nan}, {".", nan},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got := jsNumber(tt.in)
			if math.IsNaN(tt.want) {
				assert.True(t, math.IsNaN(got), "got %v", got)
				return
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseFloatPrefix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want float64
	}{
		{"1.5e3x", 1500}, {"1.e2", 100}, {"-Infinityx", math.Inf(-1)}, {"+Infinity", math.Inf(1)}, {"1e+", 1},
		{"7.", 7}, {" .5", 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, parseFloatPrefix(tt.in))
		})
	}
	assert.True(t, math.IsNaN(parseFloatPrefix(".e5")))
}

func TestDecodeWHATWG(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"lone byte", "a\xffb", "a\ufffdb"},
		{"truncated three", "a\xe2\x82b", "a\ufffdb"},
		{"truncated at end", "a\xe2\x82", "a\ufffd"},
		{"surrogate", "\xed\xa0\x80", "\ufffd\ufffd\ufffd"},
		{"overlong", "\xc0\xaf", "\ufffd\ufffd"},
		{"four truncated", "\xf0\x9f\x98!", "\ufffd!"},
		{"too high", "\xf4\x90\x80\x80", "\ufffd\ufffd\ufffd\ufffd"},
		{"e0 low", "\xe0\x80\x80", "\ufffd\ufffd\ufffd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, _ := decodeWHATWG([]byte(tt.in))
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestPositionsInvalidUTF8 checks that positions count the file's bytes,
// not the text with U+FFFD in it.
func TestPositionsInvalidUTF8(t *testing.T) {
	t.Parallel()
	src := []byte("a: \xff\xfe x\nb: \"\xe2\x82\"\nc: y\n")
	n, err := Parse(src)
	require.NoError(t, err)
	require.Len(t, n.Pairs, 3)
	a := n.Pairs[0].Value
	assert.Equal(t, "\ufffd\ufffd x", a.Str)
	assert.Equal(t, "\xff\xfe x", string(src[a.Pos.Offset:a.End.Offset]))
	b := n.Pairs[1].Value
	assert.Equal(t, "\"\xe2\x82\"", string(src[b.Pos.Offset:b.End.Offset]))
	assert.Equal(t, Pos{Offset: 16, Line: 3, Column: 1}, n.Pairs[2].KeyPos)
}

// TestLongInputs reads inputs whose size a quadratic step would show: a
// long line, a map and a sequence of many entries, a long quoted string.
func TestLongInputs(t *testing.T) {
	t.Parallel()
	var keys, items strings.Builder
	keys.WriteString("{")
	for i := 0; i < 50000; i++ {
		fmt.Fprintf(&keys, "k%d: %d, ", i, i)
		fmt.Fprintf(&items, "- item %d\n", i)
	}
	keys.WriteString("}")
	tests := []struct {
		name  string
		src   string
		check func(t *testing.T, n *Node)
	}{
		{"long line", "a: " + strings.Repeat("x", 2<<20) + "\n", func(t *testing.T, n *Node) {
			assert.Equal(t, 2<<20, len(n.Pairs[0].Value.Str))
		}},
		{"many keys", keys.String(), func(t *testing.T, n *Node) {
			require.Len(t, n.Pairs, 50000)
			assert.Equal(t, "k49999", n.Pairs[49999].Key)
		}},
		{"many items", items.String(), func(t *testing.T, n *Node) {
			require.Len(t, n.Items, 50000)
			assert.Equal(t, "item 49999", n.Items[49999].Str)
		}},
		{"long quoted", `"` + strings.Repeat(`a\tb `, 200000) + `"`, func(t *testing.T, n *Node) {
			assert.Equal(t, 800000, len(n.Str)) // "a", a tab, "b", " "
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			n, err := Parse([]byte(tt.src))
			require.NoError(t, err)
			tt.check(t, n)
		})
	}
}

func TestDuplicateKeysAtScale(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := 0; i < 30000; i++ {
		fmt.Fprintf(&b, "k%d: %d\n", i, i)
	}
	b.WriteString("k17: again\n")
	_, err := Parse([]byte(b.String()))
	var se *SyntaxError
	require.True(t, errors.As(err, &se))
	assert.Equal(t, Problem{Pos: newPos(len(b.String())-11, 30001, 1),
		End: newPos(len(b.String())-10, 30001, 2), Code: ErrDuplicateKey, Message: "Map keys must be unique"}, se.Problems[0])
}

// TestTextTooLongForTokens checks that every parse refuses a text whose
// places would not fit an int32 with room to spare, with an error, before
// it reads a byte of it, and the splits do not split it; the parser itself
// takes a text of the longest length. The text is a real allocation of
// 1.5 GiB (so that the race detector's pointer checks pass) that nothing
// writes or reads: the system gives it zero pages it never backs.
func TestTextTooLongForTokens(t *testing.T) {
	// Not parallel, and src collected at its end: while src lives, the
	// collector's goal is over 3 GiB, and the parallel tests' garbage
	// would pile up to it (4 GiB more under -race).
	t.Cleanup(runtime.GC)
	src := make([]byte, maxTextBytes+1)
	start := Pos{Line: 1, Column: 1}
	for name, parse := range map[string]func() (*Node, error){
		"Parse":             func() (*Node, error) { return Parse(src) },
		"ParseInPlace":      func() (*Node, error) { return ParseInPlace(src) },
		"ParseRange":        func() (*Node, error) { return ParseRange(src, start, 1) },
		"Reader.ParseRange": func() (*Node, error) { return new(Reader).ParseRange(src, start, 1) },
		"ParseWithout":      func() (*Node, error) { return ParseWithout(src, start, start) },
		"ParseRangeWithout": func() (*Node, error) { return ParseRangeWithout(src, start, 1, start, start) },
	} {
		n, err := parse()
		assert.Nil(t, n, name)
		var se *SyntaxError
		require.True(t, errors.As(err, &se), "%s: %v", name, err)
		assert.Equal(t, []Problem{{Pos: start, End: start, Code: ErrTextTooLong,
			Message: "a text of 1610612737 bytes is longer than any JavaScript string"}}, se.Problems, name)
		assert.Equal(t, "Cannot create a string longer than 0x1fffffe8 characters", se.Thrown, name)
	}
	huge := unsafe.String(&src[0], len(src))
	assert.Panics(t, func() { newParser(huge, func(*cst) {}, nil) })
	assert.NotPanics(t, func() { newParser(huge[:maxTextBytes], func(*cst) {}, nil) })
	_, ok := SplitItems(src, "scalers")
	assert.False(t, ok)
	_, ok = SplitNestedItems(src, start, 1, "labelSets")
	assert.False(t, ok)
}

// TestPageFill checks that a chunk raised to fill its pages takes the
// pages a chunk of the count asked for takes, and no more.
func TestPageFill(t *testing.T) {
	t.Parallel()
	pages := func(bytes int) int { return (bytes + 8<<10 - 1) / (8 << 10) }
	size := int(unsafe.Sizeof(cst{}))
	n := pageFill[cst](chunk)
	assert.GreaterOrEqual(t, n, chunk)
	assert.Equal(t, pages(chunk*size), pages(n*size))
	assert.Greater(t, pages((n+1)*size), pages(chunk*size))
	assert.Equal(t, 100, pageFill[*cst](100), "a small chunk is left as asked")
}
