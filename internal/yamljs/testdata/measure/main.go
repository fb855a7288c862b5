// Command measure counts, for each Go YAML library, the corpus cases
// (../corpus.json, what the npm package yaml 2.9.1 returns or throws) it
// reads differently: accepting what yaml refuses, refusing what yaml
// accepts, or reading another value. It is a module of its own so that
// kicikit does not depend on the libraries it measures.
//
//	go run . ../corpus.json      # the counts
//	go run . ../corpus.json v    # and every case that differs
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	goccy "github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	pb "github.com/pb33f/go-yaml"
	v3 "go.yaml.in/yaml/v3"
)

type corpus struct {
	Cases []struct {
		Name   string          `json:"name"`
		Src    *string         `json:"src"`
		B64    string          `json:"b64"`
		Throws json.RawMessage `json:"throws"`
		Value  map[string]any  `json:"value"`
	} `json:"cases"`
}

// canonical value: a string form.
func jsNum(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0 && math.Signbit(f):
		return "-0"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func normNum(s string) string {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if s == "NaN" || s == "Infinity" || s == "-Infinity" {
			return s
		}
		return s
	}
	return jsNum(f)
}

func isIndex(k string) (uint64, bool) {
	if k == "" || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(k, 10, 64)
	if err != nil || n >= 4294967295 {
		return 0, false
	}
	return n, true
}

type kv struct {
	k string
	v string
}

func canonMap(pairs []kv) string {
	// JS own-key order: indices first ascending, then insertion; duplicates: later value, first position.
	idx := map[string]int{}
	var out []kv
	for _, p := range pairs {
		if i, ok := idx[p.k]; ok {
			out[i].v = p.v
			continue
		}
		idx[p.k] = len(out)
		out = append(out, p)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, aok := isIndex(out[i].k)
		b, bok := isIndex(out[j].k)
		if aok && bok {
			return a < b
		}
		return aok && !bok
	})
	var b strings.Builder
	b.WriteString("{")
	for _, p := range out {
		b.WriteString(strconv.Quote(p.k) + ":" + p.v + ",")
	}
	b.WriteString("}")
	return b.String()
}

func fromCorpus(v map[string]any, ids map[float64]map[string]any, depth int) string {
	if depth > 50 {
		return "…"
	}
	switch v["t"] {
	case "null":
		return "null"
	case "bool":
		return fmt.Sprint(v["v"])
	case "num":
		return normNum(v["v"].(string))
	case "str":
		if w, ok := v["w"].(string); ok {
			return "w" + w
		}
		return strconv.Quote(v["v"].(string))
	case "ref":
		return fromCorpus(ids[v["id"].(float64)], ids, depth+1)
	case "seq", "set":
		var parts []string
		for _, it := range v["items"].([]any) {
			parts = append(parts, fromCorpus(it.(map[string]any), ids, depth+1))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case "map":
		var kvs []kv
		for _, p := range v["pairs"].([]any) {
			pp := p.([]any)
			kvs = append(kvs, kv{pp[0].(string), fromCorpus(pp[2].(map[string]any), ids, depth+1)})
		}
		return canonMap(kvs)
	default:
		return fmt.Sprintf("<%v>", v["t"])
	}
}

func collectIDs(v any, ids map[float64]map[string]any) {
	switch x := v.(type) {
	case map[string]any:
		if id, ok := x["id"].(float64); ok {
			ids[id] = x
		}
		for _, c := range x {
			collectIDs(c, ids)
		}
	case []any:
		for _, c := range x {
			collectIDs(c, ids)
		}
	}
}

// --- yaml v3 / pb33f (same Node shape) ---

type v3node struct {
	kind         string
	tag, value   string
	content      []*v3node
	alias        *v3node
	line, column int
	decodeFloat  func() (float64, error)
	decodeInt    func() (float64, error)
}

func fromV3(n *v3.Node) *v3node {
	seen := map[*v3.Node]*v3node{}
	var conv func(n *v3.Node) *v3node
	conv = func(n *v3.Node) *v3node {
		if r, ok := seen[n]; ok {
			return r
		}
		r := &v3node{tag: n.ShortTag(), value: n.Value, line: n.Line, column: n.Column}
		seen[n] = r
		switch n.Kind {
		case v3.DocumentNode:
			r.kind = "doc"
		case v3.MappingNode:
			r.kind = "map"
		case v3.SequenceNode:
			r.kind = "seq"
		case v3.ScalarNode:
			r.kind = "scalar"
		case v3.AliasNode:
			r.kind = "alias"
			r.alias = conv(n.Alias)
		}
		nn := n
		r.decodeFloat = func() (float64, error) { var f float64; err := nn.Decode(&f); return f, err }
		r.decodeInt = func() (float64, error) {
			var i int64
			err := nn.Decode(&i)
			if err != nil {
				var u uint64
				if e2 := nn.Decode(&u); e2 == nil {
					return float64(u), nil
				}
				var f float64
				e3 := nn.Decode(&f)
				return f, e3
			}
			return float64(i), nil
		}
		for _, c := range n.Content {
			r.content = append(r.content, conv(c))
		}
		return r
	}
	return conv(n)
}

func fromPB(n *pb.Node) *v3node {
	seen := map[*pb.Node]*v3node{}
	var conv func(n *pb.Node) *v3node
	conv = func(n *pb.Node) *v3node {
		if r, ok := seen[n]; ok {
			return r
		}
		r := &v3node{tag: n.ShortTag(), value: n.Value, line: n.Line, column: n.Column}
		seen[n] = r
		switch n.Kind {
		case pb.DocumentNode:
			r.kind = "doc"
		case pb.MappingNode:
			r.kind = "map"
		case pb.SequenceNode:
			r.kind = "seq"
		case pb.ScalarNode:
			r.kind = "scalar"
		case pb.AliasNode:
			r.kind = "alias"
			r.alias = conv(n.Alias)
		}
		nn := n
		r.decodeFloat = func() (float64, error) { var f float64; err := nn.Decode(&f); return f, err }
		r.decodeInt = func() (float64, error) {
			var i int64
			err := nn.Decode(&i)
			if err != nil {
				var f float64
				e3 := nn.Decode(&f)
				return f, e3
			}
			return float64(i), nil
		}
		for _, c := range n.Content {
			r.content = append(r.content, conv(c))
		}
		return r
	}
	return conv(n)
}

func canonV3(n *v3node, depth int) (string, error) {
	if depth > 50 {
		return "…", nil
	}
	switch n.kind {
	case "doc":
		if len(n.content) == 0 {
			return "null", nil
		}
		return canonV3(n.content[0], depth)
	case "alias":
		return canonV3(n.alias, depth+1)
	case "seq":
		var parts []string
		for _, c := range n.content {
			s, err := canonV3(c, depth+1)
			if err != nil {
				return "", err
			}
			parts = append(parts, s)
		}
		return "[" + strings.Join(parts, ",") + "]", nil
	case "map":
		var kvs []kv
		for i := 0; i+1 < len(n.content); i += 2 {
			k, v := n.content[i], n.content[i+1]
			for k.kind == "alias" {
				k = k.alias
			}
			ks := ""
			if k.kind == "scalar" {
				s, err := canonV3(k, depth+1)
				if err != nil {
					return "", err
				}
				ks = keyString(s)
			} else {
				ks = "<collection key>"
			}
			vs, err := canonV3(v, depth+1)
			if err != nil {
				return "", err
			}
			kvs = append(kvs, kv{ks, vs})
		}
		return canonMap(kvs), nil
	}
	switch n.tag {
	case "!!null":
		return "null", nil
	case "!!bool":
		return strconv.FormatBool(n.value == "true" || n.value == "True" || n.value == "TRUE" || n.value == "yes" || n.value == "on"), nil
	case "!!int":
		f, err := n.decodeInt()
		if err != nil {
			return "", err
		}
		return jsNum(f), nil
	case "!!float":
		f, err := n.decodeFloat()
		if err != nil {
			return "", err
		}
		return jsNum(f), nil
	}
	return strconv.Quote(n.value), nil
}

// keyString: the property name of a canonical scalar, as String() makes it.
func keyString(s string) string {
	if s == "null" {
		return ""
	}
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}

func runV3(src []byte) (string, error) {
	dec := v3.NewDecoder(bytes.NewReader(src))
	var doc v3.Node
	err := dec.Decode(&doc)
	if errors.Is(err, io.EOF) {
		return "null", nil
	}
	if err != nil {
		return "", err
	}
	var second v3.Node
	if err := dec.Decode(&second); !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("second document or error: %v", err)
	}
	return canonV3(fromV3(&doc), 0)
}

func runPB(src []byte) (string, error) {
	dec := pb.NewDecoder(bytes.NewReader(src))
	var doc pb.Node
	err := dec.Decode(&doc)
	if errors.Is(err, io.EOF) {
		return "null", nil
	}
	if err != nil {
		return "", err
	}
	var second pb.Node
	if err := dec.Decode(&second); !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("second document or error: %v", err)
	}
	return canonV3(fromPB(&doc), 0)
}

// --- goccy ---

func canonGoccy(n ast.Node, anchors map[string]ast.Node, depth int) (string, error) {
	if depth > 50 {
		return "…", nil
	}
	if n == nil {
		return "null", nil
	}
	switch x := n.(type) {
	case *ast.NullNode:
		return "null", nil
	case *ast.BoolNode:
		return strconv.FormatBool(x.Value), nil
	case *ast.IntegerNode:
		switch v := x.Value.(type) {
		case int64:
			return jsNum(float64(v)), nil
		case uint64:
			return jsNum(float64(v)), nil
		}
		return fmt.Sprint(x.Value), nil
	case *ast.FloatNode:
		return jsNum(x.Value), nil
	case *ast.InfinityNode:
		return jsNum(x.Value), nil
	case *ast.NanNode:
		return "NaN", nil
	case *ast.StringNode:
		return strconv.Quote(x.Value), nil
	case *ast.LiteralNode:
		return strconv.Quote(x.Value.Value), nil
	case *ast.AnchorNode:
		anchors[x.Name.GetToken().Value] = x.Value
		return canonGoccy(x.Value, anchors, depth+1)
	case *ast.AliasNode:
		t, ok := anchors[x.Value.GetToken().Value]
		if !ok {
			return "", fmt.Errorf("unknown alias")
		}
		return canonGoccy(t, anchors, depth+1)
	case *ast.TagNode:
		return canonGoccy(x.Value, anchors, depth+1)
	case *ast.SequenceNode:
		var parts []string
		for _, c := range x.Values {
			s, err := canonGoccy(c, anchors, depth+1)
			if err != nil {
				return "", err
			}
			parts = append(parts, s)
		}
		return "[" + strings.Join(parts, ",") + "]", nil
	case *ast.MappingNode:
		var kvs []kv
		for _, mv := range x.Values {
			k, err := canonGoccy(mv.Key, anchors, depth+1)
			if err != nil {
				return "", err
			}
			v, err := canonGoccy(mv.Value, anchors, depth+1)
			if err != nil {
				return "", err
			}
			kvs = append(kvs, kv{keyString(k), v})
		}
		return canonMap(kvs), nil
	case *ast.MappingValueNode:
		k, err := canonGoccy(x.Key, anchors, depth+1)
		if err != nil {
			return "", err
		}
		v, err := canonGoccy(x.Value, anchors, depth+1)
		if err != nil {
			return "", err
		}
		return canonMap([]kv{{keyString(k), v}}), nil
	case *ast.MappingKeyNode:
		return canonGoccy(x.Value, anchors, depth+1)
	case *ast.MergeKeyNode:
		return strconv.Quote("<<"), nil
	case *ast.CommentNode:
		return "null", nil
	case *ast.DocumentNode:
		return canonGoccy(x.Body, anchors, depth)
	}
	return "", fmt.Errorf("unhandled %T", n)
}

func runGoccy(src []byte) (string, error) {
	f, err := parser.ParseBytes(src, 0)
	if err != nil {
		return "", err
	}
	if len(f.Docs) > 1 {
		return "", fmt.Errorf("multiple documents")
	}
	// duplicate keys: the library's own check
	var v any
	if err := goccy.UnmarshalWithOptions(src, &v); err != nil {
		return "", err
	}
	if len(f.Docs) == 0 {
		return "null", nil
	}
	return canonGoccy(f.Docs[0].Body, map[string]ast.Node{}, 0)
}

func main() {
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var c corpus
	if err := json.Unmarshal(raw, &c); err != nil {
		panic(err)
	}
	libs := []struct {
		name string
		run  func([]byte) (string, error)
	}{{"go.yaml.in/yaml/v3 v3.0.6", runV3}, {"github.com/goccy/go-yaml v1.19.2", runGoccy}, {"github.com/pb33f/go-yaml v0.1.1", runPB}}
	verbose := len(os.Args) > 2
	for _, lib := range libs {
		var wrongAccept, wrongRefuse, wrongValue, panics int
		var names []string
		for _, cs := range c.Cases {
			var src []byte
			if cs.Src != nil {
				src = []byte(*cs.Src)
			} else {
				src, _ = base64.StdEncoding.DecodeString(cs.B64)
			}
			var got string
			var gerr error
			func() {
				defer func() {
					if r := recover(); r != nil {
						gerr = fmt.Errorf("panic: %v", r)
						panics++
					}
				}()
				got, gerr = lib.run(src)
			}()
			refuse := cs.Throws != nil
			switch {
			case refuse && gerr == nil:
				wrongAccept++
				names = append(names, "accepts: "+cs.Name)
			case !refuse && gerr != nil:
				wrongRefuse++
				names = append(names, "refuses: "+cs.Name+": "+gerr.Error())
			case !refuse:
				ids := map[float64]map[string]any{}
				collectIDs(cs.Value, ids)
				want := fromCorpus(cs.Value, ids, 0)
				if want != got {
					wrongValue++
					names = append(names, "value: "+cs.Name+": want "+trunc(want)+" got "+trunc(got))
				}
			}
		}
		total := wrongAccept + wrongRefuse + wrongValue
		fmt.Printf("%-34s cases %d  differ %d  (accepts what yaml refuses %d, refuses what yaml accepts %d, other value %d, panics %d)\n", lib.name, len(c.Cases), total, wrongAccept, wrongRefuse, wrongValue, panics)
		if verbose {
			for _, n := range names {
				fmt.Println("   ", n)
			}
		}
	}
}

func trunc(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}
