package scalerconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/yamljs"
	"github.com/kicikit/kicikit/internal/zod"
)

// loadCase is one case of testdata/load.json, which testdata/gen/gen.mjs
// writes by loading the case's files with the npm yaml parser and zod, as
// the orchestrator does: by the rules of 0.16.0 (Want), and of 0.14.0 and
// 0.12.0 where they differ (wantBy), on the case's host.
type loadCase struct {
	Name   string            `json:"name"`
	Note   string            `json:"note"`
	Host   string            `json:"host"` // the orchestrator's process.platform: linux or win32
	Files  map[string]string `json:"files"`
	Dirs   []string          `json:"dirs"`
	Main   string            `json:"main"`
	Dir    string            `json:"dir"`
	Parsed map[string]struct {
		Value json.RawMessage `json:"value"`
		Error string          `json:"error"`
	} `json:"parsed"`
	Want    loadWant  `json:"want"`
	Want014 *loadWant `json:"want014"`
	Want012 *loadWant `json:"want012"`
}

// loadWant is what loading a case gives: the config, or the problems, or
// an error outside zod.
type loadWant struct {
	Config json.RawMessage `json:"config"`
	Issues []wantIssue     `json:"issues"`
	Error  *struct {
		Name, Code, Message string
	} `json:"error"`
}

// everyRules are the rules a case is loaded by.
func everyRules() []Rules { return []Rules{Rules016, Rules014, Rules012} }

// wantBy is what loading the case by r gives: Want014 is written only
// where it differs from Want012, and Want012 where it differs from Want.
func (c loadCase) wantBy(r Rules) loadWant {
	switch {
	case r == Rules014 && c.Want014 != nil:
		return *c.Want014
	case r != Rules016 && c.Want012 != nil:
		return *c.Want012
	}
	return c.Want
}

// options are the options of a load of the case by r: its host.
func (c loadCase) options(r Rules) ScanOptions {
	o := ScanOptions{Rules: r}
	if c.Host == "win32" {
		o.Host = Platform{OS: "windows"}
	}
	return o
}

type wantIssue struct {
	Path    []any  `json:"path"`
	Message string `json:"message"`
	Code    string `json:"code"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
}

func readLoadCases(t testing.TB) []loadCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/load.json")
	require.NoError(t, err)
	var cases []loadCase
	require.NoError(t, json.Unmarshal(raw, &cases))
	require.NotEmpty(t, cases)
	return cases
}

// fsOf is the case's files as an fs.FS.
func (c loadCase) fsOf() fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, text := range c.Files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	for _, d := range c.Dirs {
		fsys[d] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
	}
	return fsys
}

// jsonParser answers for each file what the npm yaml parser made of it, as
// the generator recorded it: a parser for the tests that do not need
// positions.
func (c loadCase) jsonParser(t testing.TB) parser {
	byText := map[string]*yamljs.Node{}
	errs := map[string]string{}
	for name, p := range c.Parsed {
		if p.Error != "" {
			errs[c.Files[name]] = p.Error
			continue
		}
		n, err := nodeOf(json.NewDecoder(bytes.NewReader(p.Value)))
		require.NoError(t, err, name)
		byText[c.Files[name]] = n
	}
	return func(src []byte) (*yamljs.Node, error) {
		if e, ok := errs[string(src)]; ok {
			return nil, errors.New(e)
		}
		n, ok := byText[string(src)]
		if !ok {
			return nil, errors.New("no parse recorded for this file")
		}
		return n, nil
	}
}

// nodeOf decodes a value the generator wrote, keeping object key order;
// {"\u0000num": "NaN"} is a number JSON cannot write.
func nodeOf(d *json.Decoder) (*yamljs.Node, error) {
	d.UseNumber()
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case nil:
		return &yamljs.Node{Kind: yamljs.Null}, nil
	case bool:
		return &yamljs.Node{Kind: yamljs.Bool, Bool: t}, nil
	case json.Number:
		f, err := t.Float64()
		return &yamljs.Node{Kind: yamljs.Number, Num: f}, err
	case string:
		return &yamljs.Node{Kind: yamljs.String, Str: t}, nil
	case json.Delim:
		if t == '[' {
			n := &yamljs.Node{Kind: yamljs.Seq, Items: []*yamljs.Node{}}
			for d.More() {
				it, err := nodeOf(d)
				if err != nil {
					return nil, err
				}
				n.Items = append(n.Items, it)
			}
			_, err := d.Token()
			return n, err
		}
		return mapOf(d)
	}
	return nil, errors.New("unexpected token")
}

func mapOf(d *json.Decoder) (*yamljs.Node, error) {
	n := &yamljs.Node{Kind: yamljs.Map, Pairs: []yamljs.Pair{}}
	for d.More() {
		k, err := d.Token()
		if err != nil {
			return nil, err
		}
		v, err := nodeOf(d)
		if err != nil {
			return nil, err
		}
		if tagged := taggedNode(k.(string), v); tagged != nil {
			_, err := d.Token()
			return tagged, err
		}
		n.Pairs = append(n.Pairs, yamljs.Pair{Key: k.(string), Value: v})
	}
	_, err := d.Token()
	return n, err
}

// taggedNode is the value the generator wrote as {"\u0000tag": v}: a
// number JSON cannot write, a Date, a Buffer, a Set, a Map, a Symbol or
// undefined.
func taggedNode(tag string, v *yamljs.Node) *yamljs.Node {
	switch tag {
	case "\u0000num":
		f := map[string]float64{"NaN": math.NaN(), "Infinity": math.Inf(1), "-Infinity": math.Inf(-1), "-0": math.Copysign(0, -1)}[v.Str]
		return &yamljs.Node{Kind: yamljs.Number, Num: f}
	case "\u0000date":
		return &yamljs.Node{Kind: yamljs.Date, Num: v.Num}
	case "\u0000bytes":
		var b []byte
		for _, it := range v.Items {
			b = append(b, byte(it.Num))
		}
		return &yamljs.Node{Kind: yamljs.Bytes, Str: string(b)}
	case "\u0000set":
		return &yamljs.Node{Kind: yamljs.Set, Items: v.Items}
	case "\u0000map":
		n := &yamljs.Node{Kind: yamljs.OrderedMap}
		for _, kv := range v.Items {
			n.Pairs = append(n.Pairs, yamljs.Pair{KeyNode: kv.Items[0], Value: kv.Items[1]})
		}
		return n
	case "\u0000symbol":
		return &yamljs.Node{Kind: yamljs.Symbol, Str: v.Str}
	case "\u0000undefined":
		return &yamljs.Node{Kind: yamljs.Undefined}
	}
	return nil
}

// zodPath writes a JSON path array as pathString writes a path.
func zodPath(path []any) string {
	segs := make([]zod.Seg, len(path))
	for i, s := range path {
		if f, ok := s.(float64); ok {
			segs[i] = zod.Seg{Index: int(f)}
		} else {
			segs[i] = zod.Key(s.(string))
		}
	}
	return pathString(segs)
}

// clearPositions zeroes every Pos of c, for comparing with a config that
// has none.
func clearPositions(c *Config) {
	c.Pos, c.at = Pos{}, nil
	for i := range c.MachinePools {
		c.MachinePools[i].Pos, c.MachinePools[i].at = Pos{}, nil
	}
	for i := range c.Scalers {
		s := &c.Scalers[i]
		s.Pos, s.at = Pos{}, nil
		for j := range s.LabelSets {
			ls := &s.LabelSets[j]
			ls.Pos, ls.ImagePos, ls.ImageEnd = Pos{}, Pos{}, Pos{}
			ls.loaded, ls.at = fileSum{}, nil
		}
	}
}

// unstamped is c without what Load records of the files it read for
// LabelSet.ImageEdit, as loadByItem, called alone, returns it.
func unstamped(c *Config) *Config {
	if c == nil {
		return nil
	}
	out := *c
	out.Scalers = slices.Clone(c.Scalers)
	for i := range out.Scalers {
		s := &out.Scalers[i]
		s.LabelSets = slices.Clone(s.LabelSets)
		for j := range s.LabelSets {
			s.LabelSets[j].loaded = fileSum{}
		}
	}
	return &out
}

// wantConfig decodes the orchestrator's parsed config into a Config, every
// JSON field known.
func wantConfig(t testing.TB, raw json.RawMessage) *Config {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	var c Config
	require.NoError(t, d.Decode(&c))
	return &c
}

// checkLoad compares what load returned with what the orchestrator does
// by the rules r.
func checkLoad(t *testing.T, c loadCase, r Rules, got *Config, err error, positions bool) {
	t.Helper()
	switch w := c.wantBy(r); {
	case w.Config != nil:
		require.NoError(t, err)
		want := wantConfig(t, w.Config)
		want.Rules = r
		clearPositions(got) // TestPositions checks them
		assert.Equal(t, want, got)
	case w.Issues != nil:
		var e *Error
		require.ErrorAs(t, err, &e)
		want := make([]Problem, len(w.Issues))
		for i, iss := range w.Issues {
			want[i] = Problem{Path: zodPath(iss.Path), Message: iss.Message, Code: iss.Code}
			if positions {
				want[i].File, want[i].Line, want[i].Column = iss.File, iss.Line, iss.Col
			}
		}
		gotProblems := make([]Problem, len(e.Problems))
		for i, p := range e.Problems {
			gotProblems[i] = Problem{Path: p.Path, Message: p.Message, Code: p.Code}
			if positions {
				gotProblems[i].File, gotProblems[i].Line, gotProblems[i].Column = p.File, p.Line, p.Column
			}
		}
		if c.Name == "binary as a label set" {
			// node's for...in over a Buffer also lists the enumerable
			// methods of Buffer.prototype, which Load leaves out.
			require.Len(t, gotProblems, 2)
			assert.True(t, strings.HasPrefix(want[1].Message, gotProblems[1].Message[:len(gotProblems[1].Message)]+", "), want[1].Message)
			want[1].Message = gotProblems[1].Message
		}
		assert.Equal(t, want, gotProblems)
	default:
		checkLoadError(t, w.Error.Name, w.Error.Code, err)
	}
}

// checkLoadError checks a load that the orchestrator fails outside zod.
func checkLoadError(t *testing.T, name, code string, err error) {
	t.Helper()
	var e *Error
	switch {
	case name == "YAMLParseError" || name == "ReferenceError":
		require.ErrorAs(t, err, &e)
		require.Len(t, e.Problems, 1)
		assert.Equal(t, "yaml", e.Problems[0].Code)
	case name == "TypeError":
		require.ErrorAs(t, err, &e)
		require.Len(t, e.Problems, 1)
		assert.Equal(t, "TypeError", e.Problems[0].Code)
	case code == "ENOENT":
		assert.ErrorIs(t, err, fs.ErrNotExist)
		assert.False(t, errors.As(err, &e))
	default:
		require.Error(t, err)
		assert.False(t, errors.As(err, &e), "a read error is not a config problem")
	}
}

// TestLoadValues runs every case of testdata/load.json through load with
// the values the npm yaml parser gave, by each of the rules, and compares
// the config or the problems (their paths, messages and codes) with the
// orchestrator's.
func TestLoadValues(t *testing.T) {
	t.Parallel()
	for _, c := range readLoadCases(t) {
		for _, r := range everyRules() {
			t.Run(r.String()+"/"+c.Name, func(t *testing.T) {
				t.Parallel()
				got, err := scan(files{fsys: c.fsOf()}, c.Main, c.Dir, c.jsonParser(t), false, c.options(r), nil)
				checkLoad(t, c, r, got, err, false)
			})
		}
	}
}
