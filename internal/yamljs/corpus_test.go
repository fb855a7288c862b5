package yamljs

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corpusCase is one entry of testdata/corpus.json, which testdata/gen
// writes from the npm package yaml itself.
type corpusCase struct {
	Name   string          `json:"name"`
	Src    *string         `json:"src"`
	B64    string          `json:"b64"`
	Value  json.RawMessage `json:"value"`
	Throws *struct {
		Name    string `json:"name"`
		Message string `json:"message"`
		Code    string `json:"code"`
	} `json:"throws"`
	Errors []struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		P       []int  `json:"p"`
		E       []int  `json:"e"`
	} `json:"errors"`
}

func (c corpusCase) bytes(t testing.TB) []byte {
	if c.Src != nil {
		return []byte(*c.Src)
	}
	b, err := base64.StdEncoding.DecodeString(c.B64)
	require.NoError(t, err)
	return b
}

// corpusFile is the corpus TestCorpus reads; gen.js --random writes larger
// ones to compare with.
var corpusFile = flag.String("corpus", "testdata/corpus.json", "the corpus file TestCorpus compares with")

func loadCorpus(t testing.TB) []corpusCase {
	raw, err := os.ReadFile(*corpusFile)
	require.NoError(t, err)
	var c struct {
		Yaml  string       `json:"yaml"`
		Cases []corpusCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &c))
	require.Equal(t, "2.9.1", c.Yaml)
	return c.Cases
}

// encode writes a Node tree as testdata/gen/gen.js writes parse()'s value.
type encoder struct{ ids map[*Node]int }

func posJSON(p Pos) []any { return []any{p.Offset, p.Line, p.Column} }

var styleNames = map[Style]string{Plain: "plain", SingleQuoted: "single", DoubleQuoted: "double", Literal: "literal", Folded: "folded"}

func (e *encoder) enc(n *Node) map[string]any {
	switch n.Kind {
	case Seq, Map, Set, OrderedMap, Bytes, Date:
		if id, ok := e.ids[n]; ok {
			return map[string]any{"t": "ref", "id": id}
		}
		e.ids[n] = len(e.ids) + 1
	}
	out := map[string]any{"p": posJSON(n.Pos), "e": posJSON(n.End)}
	scalar := func(t string, v any) map[string]any {
		out["t"], out["s"] = t, styleNames[n.Style]
		if v != nil {
			out["v"] = v
		}
		return out
	}
	switch n.Kind {
	case Null:
		return scalar("null", nil)
	case Undefined:
		return scalar("undefined", nil)
	case Bool:
		return scalar("bool", n.Bool)
	case Number:
		s := NumberString(n.Num)
		if n.Num == 0 && 1/n.Num < 0 {
			s = "-0"
		}
		return scalar("num", s)
	case String:
		if !utf8.ValidString(n.Str) {
			out["w"] = hex.EncodeToString([]byte(n.Str))
			return scalar("str", jsonText(n.Str))
		}
		return scalar("str", n.Str)
	case Symbol:
		return scalar("symbol", n.Str)
	case Bytes:
		return scalar("bytes", base64.StdEncoding.EncodeToString([]byte(n.Str)))
	case Date:
		return scalar("date", NumberString(n.Num))
	case Seq, Set:
		items := []any{}
		for _, it := range n.Items {
			items = append(items, e.enc(it))
		}
		out["t"], out["id"], out["items"] = map[Kind]string{Seq: "seq", Set: "set"}[n.Kind], e.ids[n], items
		return out
	case OrderedMap:
		pairs := []any{}
		for _, p := range n.Pairs {
			pairs = append(pairs, []any{e.enc(p.KeyNode), e.enc(p.Value)})
		}
		out["t"], out["id"], out["pairs"] = "omap", e.ids[n], pairs
		return out
	}
	pairs := []any{}
	for _, p := range n.Pairs {
		pairs = append(pairs, []any{jsonText(p.Key), posJSON(p.KeyPos), e.enc(p.Value)})
	}
	out["t"], out["id"], out["pairs"] = "map", e.ids[n], pairs
	return out
}

// jsonText is a string as gen.js's JSON gives it to Go: each lone
// surrogate, which this package writes in WTF-8, is one U+FFFD.
func jsonText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if i+2 < len(s) && s[i] == 0xed && s[i+1] >= 0xa0 && s[i+1] <= 0xbf {
			b.WriteRune(utf8.RuneError)
			i += 3
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		i += n
	}
	return b.String()
}

// normalize makes a value compare as JSON does.
func normalize(t testing.TB, v any) any {
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(raw, &out))
	return out
}

func TestCorpus(t *testing.T) {
	for _, c := range loadCorpus(t) {
		t.Run(c.Name, func(t *testing.T) {
			src := c.bytes(t)
			got, err := Parse(src)
			if c.Throws != nil {
				var se *SyntaxError
				require.True(t, errors.As(err, &se), "parse() throws %s: %q; Parse returned %v", c.Throws.Name, c.Throws.Message, err)
				assertProblems(t, c, se)
				return
			}
			require.NoError(t, err)
			var want any
			require.NoError(t, json.Unmarshal(c.Value, &want))
			assert.Equal(t, want, normalize(t, (&encoder{ids: map[*Node]int{}}).enc(got)))
		})
	}
}

func assertProblems(t *testing.T, c corpusCase, se *SyntaxError) {
	if len(c.Errors) == 0 || c.Errors[0].Code != string(ErrResourceExhaustion) {
		assert.Equal(t, jsonText(c.Throws.Message), jsonText(se.Thrown), "the message parse() throws")
	}
	if len(c.Errors) == 0 {
		// A ReferenceError or Error from building the value: no code or
		// position in yaml.
		require.Len(t, se.Problems, 1)
		assert.Equal(t, c.Throws.Message, se.Problems[0].Message)
		return
	}
	if c.Errors[0].Code == string(ErrResourceExhaustion) {
		assert.Equal(t, ErrResourceExhaustion, se.Problems[0].Code)
		return
	}
	want := make([]any, len(c.Errors))
	for i, e := range c.Errors {
		want[i] = map[string]any{"code": e.Code, "message": e.Message, "p": e.P, "e": e.E}
	}
	got := make([]any, len(se.Problems))
	for i, p := range se.Problems {
		got[i] = map[string]any{"code": string(p.Code), "message": jsonText(p.Message), "p": posJSON(p.Pos), "e": posJSON(p.End)}
	}
	assert.Equal(t, normalize(t, want), normalize(t, got))
}
