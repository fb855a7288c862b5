package scalerconfig

import (
	"bytes"
	"encoding/json"
	"flag"
	"go/ast"
	goparser "go/parser"
	"go/token"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/yamljs"
	"github.com/kicikit/kicikit/internal/zod"
)

// The JSON Schema (draft 2020-12) of the scaler config, for editors: made
// here from the schema Load validates with (configSchema), its tables and
// the Go field docs, and committed as the files below, which kici-preflight
// embeds and prints with -schema. TestJSONSchemaFiles fails when they are
// stale; go test ./cmd/kici-preflight ./scalerconfig -update rewrites
// them, with the command's golden files. TestJSONSchemaHoldsToLoad holds
// them to Load.

var update = flag.Bool("update", false, "rewrite the JSON Schema files under ../cmd/kici-preflight from the schema")

const (
	schemaDir     = "../cmd/kici-preflight/"
	schemaName    = "scaler-config.schema.json"
	dropInName    = "scaler-config-dropin.schema.json"
	schemaBaseURL = "https://raw.githubusercontent.com/kicikit/kicikit/main/cmd/kici-preflight/"
	draft2020     = "https://json-schema.org/draft/2020-12/schema"
)

// memoryPattern is the orchestrator's memory grammar (parseMemoryString's
// regular expression) as a pattern both ECMA-262 and RE2 read alike: its
// \s written out as the characters JavaScript's \s matches.
const memoryPattern = "^[0-9]+(\\.[0-9]+)?[\t-\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*[kmgKMG]$"

// reservedPattern is what a label starting with "kici:" once lower-cased
// as JavaScript lower-cases it starts with: only K, k and the Kelvin sign
// lower-case to k, only I and i to i (İ becomes i and a combining dot), C
// and c to c (node, over every code point).
const reservedPattern = "^[Kk\u212a][Ii][Cc][Ii]:"

// jobj is a JSON object whose keys keep their order.
type jobj []jkv

type jkv struct {
	k string
	v any
}

// set sets key k to v, in place when k is there, else at the end.
func (o *jobj) set(k string, v any) {
	for i := range *o {
		if (*o)[i].k == k {
			(*o)[i].v = v
			return
		}
	}
	*o = append(*o, jkv{k, v})
}

// get returns the value of k, or nil.
func (o jobj) get(k string) any {
	for _, kv := range o {
		if kv.k == k {
			return kv.v
		}
	}
	return nil
}

func (o jobj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		for _, v := range []any{kv.k, kv.v} {
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(v); err != nil {
				return nil, err
			}
			b.Truncate(b.Len() - 1) // the encoder's line end
			if v == kv.k {
				b.WriteByte(':')
			}
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// schemaGen makes the JSON Schema of a schema, its objects as $defs named
// for their Go types, described by the Go docs.
type schemaGen struct {
	t      *testing.T
	fields map[string]string // "Type.Field": the field's doc
	types  map[string]string // "Type": the type's doc
	defs   jobj
	memory map[*zod.Schema]bool // the objects whose maxMemory a pipe reads as a memory string
}

func newSchemaGen(t *testing.T) *schemaGen {
	g := &schemaGen{t: t, fields: map[string]string{}, types: map[string]string{}, memory: map[*zod.Schema]bool{}}
	for _, file := range []string{"config.go", "../hostconfig/spawn.go"} {
		for k, v := range fieldDocs(t, file) {
			g.fields[k] = v
		}
		for k, v := range typeDocs(t, file) {
			g.types[k] = v
		}
	}
	return g
}

// typeDocs returns the doc comment of each type of the file, its lines
// joined by spaces.
func typeDocs(t *testing.T, file string) map[string]string {
	f, err := goparser.ParseFile(token.NewFileSet(), file, nil, goparser.ParseComments)
	require.NoError(t, err)
	docs := map[string]string{}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := gd.Doc.Text()
				if ts.Doc != nil {
					doc = ts.Doc.Text()
				}
				docs[ts.Name.Name] = strings.Join(strings.Fields(doc), " ")
			}
		}
	}
	return docs
}

// docLink is a Go doc link, [Name] or [pkg.Name]: shown as its name.
var docLink = regexp.MustCompile(`\[([A-Za-z][A-Za-z0-9_.]*)\]`)

// description is a Go doc as an editor shows it on hover.
func description(doc string) string { return docLink.ReplaceAllString(doc, "$1") }

// fieldDescription is the doc of a field as the description of its key:
// without the field's name ("MaxAgents is the most agents" becomes "the
// most agents"), without what it says of a Config built as a Go literal,
// nil called unset.
func fieldDescription(field, doc string) string {
	for _, lead := range []string{field + " is ", field + " are ", field + " "} {
		if rest, ok := strings.CutPrefix(doc, lead); ok {
			doc = rest
			break
		}
	}
	var kept []string
	for _, sentence := range strings.SplitAfter(doc, ". ") {
		if !strings.Contains(sentence, "literal") {
			kept = append(kept, sentence)
		}
	}
	doc = strings.TrimSpace(strings.Join(kept, ""))
	return description(nilWord.ReplaceAllString(doc, "unset"))
}

var nilWord = regexp.MustCompile(`\bnil\b`)

// of is the JSON Schema of s.
func (g *schemaGen) of(s *zod.Schema) jobj {
	var o jobj
	switch s.Kind {
	case "string", "boolean":
		o.set("type", s.Kind)
	case "number":
		o.set("type", "number")
	case "literal":
		o.set("const", json.Number(s.Values[0]))
	case "enum":
		o = jobj{{"type", "string"}, {"enum", s.Values}}
	case "array":
		o = jobj{{"type", "array"}, {"items", g.of(s.Inner)}}
	case "object":
		return jobj{{"$ref", "#/$defs/" + g.def(s)}} // its checks are the definition's
	case "record":
		o = jobj{{"type", "object"}, {"properties", jobj{{"__proto__", jobj{}}}}, {"additionalProperties", g.of(s.Inner)}} // __proto__ is dropped, whatever it holds
	case "union":
		var options []jobj
		for _, opt := range s.Options {
			options = append(options, g.of(opt))
		}
		o.set("anyOf", options)
	case "optional":
		o = g.of(s.Inner)
	case "default":
		o = g.of(s.Inner)
		o.set("default", jsonValue(g.t, s.Def))
	case "pipe":
		if s.Transform == "memory" {
			g.memory[s.Inner] = true
		}
		o = g.of(s.Inner)
	default:
		require.Failf(g.t, "a schema kind the generator does not know", "a schema of kind %q", s.Kind)
	}
	for _, c := range s.Checks {
		g.check(&o, s, c)
	}
	return o
}

// check adds what c requires to o, the JSON Schema of s.
func (g *schemaGen) check(o *jobj, s *zod.Schema, c zod.Check) {
	const maxSafe = json.Number("9007199254740991")
	switch c.Rule {
	case "int":
		o.set("type", "integer")
		o.set("minimum", "-"+maxSafe)
		o.set("maximum", maxSafe)
	case "positive":
		*o = slicesDelete(*o, "minimum")
		o.set("exclusiveMinimum", json.Number("0"))
	case "nonnegative":
		o.set("minimum", json.Number("0"))
	case "max":
		o.set("maximum", c.Limit)
	case "nonempty":
		if s.Kind == "array" {
			o.set("minItems", 1)
		} else {
			o.set("minLength", 1)
		}
	case "reserved":
		items := o.get("items").(jobj)
		items.set("not", jobj{{"pattern", reservedPattern}})
		o.set("items", items)
	case "scaler":
		o.set("allOf", append(typeRulesSchema(), plainPlatformSchema()))
	case "hostAccess", "pools":
		// Beyond JSON Schema: see TestJSONSchemaHoldsToLoad.
	default:
		require.Failf(g.t, "a check the generator does not know", "a check of rule %q: say how JSON Schema states it, or that it cannot", c.Rule)
	}
}

// slicesDelete is o without its key k.
func slicesDelete(o jobj, k string) jobj {
	out := jobj{}
	for _, kv := range o {
		if kv.k != k {
			out = append(out, kv)
		}
	}
	return out
}

// def defines the object s under the name of its Go type, once, and
// returns the name.
func (g *schemaGen) def(s *zod.Schema) string {
	name := s.GoType.Name()
	if g.defs.get(name) != nil {
		return name
	}
	g.defs.set(name, jobj{}) // taken, while its keys' schemas are made
	g.defs.set(name, g.object(s))
	return name
}

// object is the JSON Schema of the object s: its keys, described by the
// docs of the fields that hold them.
func (g *schemaGen) object(s *zod.Schema) jobj {
	o := jobj{{"type", "object"}}
	if doc, _, _ := strings.Cut(g.types[s.GoType.Name()], ". "); doc != "" {
		o.set("description", description(strings.TrimSuffix(doc, ".")+"."))
	}
	names := g.fieldNames(s.GoType)
	var props jobj
	var required []string
	for _, f := range s.Shape {
		p := g.of(f.Schema)
		if g.memory[s] && f.Key == "maxMemory" {
			p.set("pattern", memoryPattern)
		}
		doc := g.fields[s.GoType.Name()+"."+names[f.Key]]
		require.NotEmpty(g.t, doc, "%s.%s has no doc", s.GoType, f.Key)
		props.set(f.Key, append(jobj{{"description", fieldDescription(names[f.Key], doc)}}, p...))
		if f.Schema.OptIn == zod.OptNone {
			required = append(required, f.Key)
		}
	}
	o.set("properties", props)
	if required != nil {
		o.set("required", required)
	}
	if s.Strict {
		o.set("additionalProperties", false)
	}
	for _, c := range s.Checks {
		g.check(&o, s, c)
	}
	return o
}

// fieldNames maps the keys of the table of typ to the Go fields that hold
// them.
func (g *schemaGen) fieldNames(typ reflect.Type) map[string]string {
	for _, tb := range goTables() {
		if tb.typ != typ {
			continue
		}
		dst, ks := tb.keys()
		names := map[string]string{}
		for _, k := range ks.list() {
			names[k.name] = fieldOf(g.t, dst, k).Name
		}
		return names
	}
	require.Failf(g.t, "a type without a table", "no table of %s", typ)
	return nil
}

// typeRulesSchema states typeRules: for a scaler of each type, the keys
// that type asks for, of the scaler or of each label set.
func typeRulesSchema() []jobj {
	var out []jobj
	rules := typeRules()
	for _, typ := range scalerTypes() {
		var scaler, set []jobj
		for _, r := range rules {
			if r.scalerType != typ {
				continue
			}
			if r.labelSet {
				set = append(set, r.jsonSchema())
			} else {
				scaler = append(scaler, r.jsonSchema())
			}
		}
		if set != nil {
			scaler = append(scaler, jobj{{"properties", jobj{{"labelSets", jobj{{"items", jobj{{"allOf", set}}}}}}}})
		}
		if scaler == nil {
			continue
		}
		out = append(out, jobj{
			{"if", jobj{{"properties", jobj{{"type", jobj{{"const", string(typ)}}}}}, {"required", []string{"type"}}}},
			{"then", jobj{{"allOf", scaler}}},
		})
	}
	return out
}

// platformLabelPattern matches a label whose canonical form (JavaScript's
// trim(), then toLowerCase()) names a platform (IsPlatformLabel): the
// words in either case (only ASCII letters lower-case to them), between
// the white space trim() removes.
const platformLabelPattern = "^" + trimmed + "(" +
	"[Ww][Ii][Nn][Dd][Oo][Ww][Ss]|[Ww][Ii][Nn]32|[Mm][Aa][Cc][Oo][Ss]|[Dd][Aa][Rr][Ww][Ii][Nn]|" +
	"[Aa][Rr][Mm](64)?|[Aa][Aa][Rr][Cc][Hh]64)" + trimmed + "$"

// trimmed is the white space and line terminators JavaScript's trim()
// removes, any number of them.
const trimmed = "[\t-\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*"

// plainPlatformSchema states Rules016's refusal of a plain platform label
// in a scaler without platform.
func plainPlatformSchema() jobj {
	labels := jobj{{"items", jobj{{"not", jobj{{"pattern", platformLabelPattern}}}}}}
	set := jobj{{"properties", jobj{{"labels", labels}}}}
	sets := jobj{{"items", set}}
	return jobj{
		{"if", jobj{{"not", jobj{{"required", []string{"platform"}}}}}},
		{"then", jobj{{"properties", jobj{{"labelSets", sets}}}}},
	}
}

// jsonSchema states one rule: one of its keys set, as its need says.
func (r typeRule) jsonSchema() jobj {
	var options []jobj
	for _, k := range r.keys {
		if k == "" {
			continue
		}
		o := jobj{{"required", []string{k}}}
		switch r.need {
		case needTruthy:
			o.set("properties", jobj{{k, jobj{{"minLength", 1}}}})
		case needNonEmpty:
			o.set("properties", jobj{{k, jobj{{"minItems", 1}}}})
		}
		options = append(options, o)
	}
	if len(options) == 1 {
		return options[0]
	}
	return jobj{{"anyOf", options}}
}

// jsonValue is a default's value as JSON.
func jsonValue(t *testing.T, n *yamljs.Node) any {
	switch n.Kind {
	case yamljs.Bool:
		return n.Bool
	case yamljs.Number:
		return n.Num
	case yamljs.String:
		return n.Str
	case yamljs.Seq:
		require.Empty(t, n.Items)
		return []any{}
	}
	require.Failf(t, "a default the generator cannot write", "a default of kind %v", n.Kind)
	return nil
}

// jsonSchemas are the two files: the main file's schema, and a drop-in's,
// which refers to the scaler of the main one.
func jsonSchemas(t *testing.T) (main, dropIn []byte) {
	g := newSchemaGen(t)
	root := g.object(configSchema(reading{}))
	// The drop-in merge: a main file may leave scalers out, or null, when
	// its drop-ins add them.
	props := root.get("properties").(jobj)
	scalers := props.get("scalers").(jobj)
	scalers.set("type", []string{"array", "null"})
	props.set("scalers", scalers)
	var required []string
	for _, k := range root.get("required").([]string) {
		if k != "scalers" {
			required = append(required, k)
		}
	}
	root.set("required", required)
	head := jobj{
		{"$schema", draft2020},
		{"$id", schemaBaseURL + schemaName},
		{"title", "KiCI scaler config"},
		{"description", "The KiCI orchestrator's scaler config (KICI_SCALER_CONFIG_PATH), as the orchestrator 0.16.0 and later load it " +
			"(config.ts at 84ac3cd, which 0.20.0 keeps): resources nest cpus and memory under requests or limits, and a scaler whose " +
			"labels name a platform declares it (platform: {os, arch}). Generated by kicikit from the schema its scalerconfig package " +
			"validates with; what JSON Schema cannot say (the drop-in merge, gate labels' reachability, machine pool references, " +
			"duplicate pool names, hostAccess and firecracker extraHosts entries, a Windows host's batch-file binaryPath) " +
			"and what fails only when an agent spawns (a memory string the orchestrator cannot read), kici-preflight checks."},
	}
	main = indentJSON(t, append(append(head, slicesDelete(root, "description")...), jkv{"$defs", g.defs}))
	drop := jobj{
		{"$schema", draft2020},
		{"$id", schemaBaseURL + dropInName},
		{"title", "KiCI scaler config drop-in (scalers.d)"},
		{"description", "A file of the scaler config's drop-in folder (KICI_SCALER_CONFIG_DIR), *.yaml or *.yml: the orchestrator appends the entries of its scalers list to the main file's and ignores its other keys."},
		{"properties", jobj{{"scalers", jobj{
			{"description", "Scalers appended to the main file's, each as the main file's scalers hold them. A scalers that is not a list adds nothing."},
			{"items", jobj{{"$ref", schemaName + "#/$defs/Scaler"}}},
		}}}},
	}
	return main, indentJSON(t, drop)
}

func indentJSON(t *testing.T, o jobj) []byte {
	raw, err := json.Marshal(o)
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, json.Indent(&b, raw, "", "  "))
	b.WriteByte('\n')
	return b.Bytes()
}

// TestJSONSchemaFiles: the committed schemas are what the schema makes
// now (-update rewrites them).
func TestJSONSchemaFiles(t *testing.T) {
	main, dropIn := jsonSchemas(t)
	for name, want := range map[string][]byte{schemaName: main, dropInName: dropIn} {
		if *update {
			require.NoError(t, os.WriteFile(schemaDir+name, want, 0o644))
			continue
		}
		got, err := os.ReadFile(schemaDir + name)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), "%s is stale: go test ./cmd/kici-preflight ./scalerconfig -update", name)
	}
}

// TestJSONSchemaPatterns holds the schema's patterns to the rules they
// state: memoryPattern to the memory grammar Load reads a cap's maxMemory
// with, over every white space and unit around a number;
// platformLabelPattern to IsPlatformLabel of a canonical label, over the
// code points of the basic plane's first part around and in each word;
// and reservedPattern to the reserved-label rule, over the code points at
// each of the prefix's places.
func TestJSONSchemaPatterns(t *testing.T) {
	t.Parallel()
	memory := regexp.MustCompile(memoryPattern)
	inputs := []string{"512m", "1.5g", "2G", "1024k", "0k", "", "m", "1", "1.m", ".5m", "1.5.5m", "-1m", "+1m", "1mb", "1 m ", " 1m", "1e3m", "１m", "1m\n"}
	for r := rune(0); r <= 0x3100; r++ {
		inputs = append(inputs, "1"+string(r)+"m", "1"+string(r)+string(r)+"g", "1"+string(r))
	}
	inputs = append(inputs, "1\ufeffk", "1\u0085k", "1\u2028\u2029M")
	for _, in := range inputs {
		_, err := memoryBytes(in)
		assert.Equal(t, err == nil, memory.MatchString(in), "%q", in)
	}
	platform := regexp.MustCompile(platformLabelPattern)
	for _, word := range []string{"windows", "win32", "macos", "darwin", "arm64", "aarch64", "arm"} {
		for r := rune(0); r <= 0x3100; r++ {
			labels := []string{string(r) + word, word + string(r), string(r) + string(r) + word + string(r)}
			for i := range len(word) {
				labels = append(labels, word[:i]+string(r)+word[i+1:], word[:i]+string(r)+word[i:])
			}
			for _, l := range labels {
				if want := IsPlatformLabel(canonical(l)); want != platform.MatchString(l) {
					assert.Equal(t, want, platform.MatchString(l), "%q: a platform label, and the pattern's answer", l)
				}
			}
		}
	}
	notReserved := regexp.MustCompile(reservedPattern)
	// Every code point of the basic plane, and a sample of the others
	// (none of which lower-cases to ASCII, as node says of them all).
	for r := rune(0); r <= 0x10FFFF; r++ {
		if 0xD800 <= r && r <= 0xDFFF || r > 0xFFFF && r%97 != 0 {
			continue
		}
		for i := range 5 {
			label := []rune("kici:x")
			label[i] = r
			// Compared first: testify on 300,000 labels is slow.
			if s := string(label); reserved(s) != notReserved.MatchString(s) {
				assert.Equal(t, reserved(s), notReserved.MatchString(s), "%q: reserved, and the pattern's answer", s)
			}
		}
	}
}
