package zod

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// value parses src as the YAML reader does; "~undefined" is undefined.
func value(t *testing.T, src string) *yamljs.Node {
	t.Helper()
	if src == "~undefined" {
		return nil
	}
	n, err := yamljs.Parse([]byte(src))
	require.NoError(t, err, src)
	return n
}

// show writes a value of the output as JSON does, undefined as
// "undefined", for the tests to compare.
func show(n *yamljs.Node) string {
	if n == nil {
		return "undefined"
	}
	switch n.Kind {
	case yamljs.Null:
		return "null"
	case yamljs.Bool:
		return strconv.FormatBool(n.Bool)
	case yamljs.Number:
		return strconv.FormatFloat(n.Num, 'g', -1, 64)
	case yamljs.String:
		return strconv.Quote(n.Str)
	case yamljs.Seq:
		items := make([]string, len(n.Items))
		for i, it := range n.Items {
			items[i] = show(it)
		}
		return "[" + strings.Join(items, ",") + "]"
	case yamljs.Map:
		pairs := make([]string, len(n.Pairs))
		for i, p := range n.Pairs {
			pairs[i] = p.Key + ":" + show(p.Value)
		}
		return "{" + strings.Join(pairs, ",") + "}"
	}
	return n.Kind.String()
}

// issues writes each issue as "path: code: message".
func issues(list []*Issue) []string {
	var out []string
	for _, iss := range list {
		var path []string
		for _, s := range iss.Path() {
			if s.Index >= 0 {
				path = append(path, "["+strconv.Itoa(s.Index)+"]")
			} else {
				path = append(path, "."+s.Key)
			}
		}
		out = append(out, strings.Join(path, "")+": "+iss.Code+": "+iss.Message)
	}
	return out
}

// schemaCase is a schema run on a value, and what zod gives: the output
// (when it has no issue) and the issues.
type schemaCase struct {
	name   string
	schema *Schema
	in     string // YAML; "~undefined" for undefined
	out    string // show of the output; "" when there are issues
	issues []string
}

func runCases(t *testing.T, tests []schemaCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Payload{Value: value(t, tt.in)}
			tt.schema.Run(&p)
			assert.Equal(t, tt.issues, issues(p.Issues))
			if tt.issues == nil {
				assert.Equal(t, tt.out, show(p.Value))
				assert.True(t, p.Clean())
			}
		})
	}
}

// TestTypes runs the schemas of one kind of value on values of every
// kind: zod's invalid_type and invalid_value messages, with JavaScript's
// name of what they received.
func TestTypes(t *testing.T) {
	t.Parallel()
	runCases(t, []schemaCase{
		{name: "string", schema: Str(), in: "a", out: `"a"`},
		{name: "string of a number", schema: Str(), in: "1", issues: []string{": invalid_type: Invalid input: expected string, received number"}},
		{name: "string of undefined", schema: Str(), in: "~undefined", issues: []string{": invalid_type: Invalid input: expected string, received undefined"}},
		{name: "string of null", schema: Str(), in: "null", issues: []string{": invalid_type: Invalid input: expected string, received null"}},
		{name: "boolean", schema: Boolean(), in: "true", out: "true"},
		{name: "boolean of a string", schema: Boolean(), in: "yes", issues: []string{": invalid_type: Invalid input: expected boolean, received string"}},
		{name: "number", schema: Num(), in: "1.5", out: "1.5"},
		{name: "number of NaN", schema: Num(), in: ".nan", issues: []string{": invalid_type: Invalid input: expected number, received NaN"}},
		{name: "number of Infinity", schema: Num(), in: ".inf", issues: []string{": invalid_type: Invalid input: expected number, received Infinity"}},
		{name: "number of -Infinity", schema: Num(), in: "-.inf", issues: []string{": invalid_type: Invalid input: expected number, received -Infinity"}},
		{name: "number of a Date", schema: Num(), in: "!!timestamp 2024-01-02", issues: []string{": invalid_type: Invalid input: expected number, received Date"}},
		{name: "number of a Buffer", schema: Num(), in: "!!binary aGk=", issues: []string{": invalid_type: Invalid input: expected number, received Buffer"}},
		{name: "number of a Set", schema: Num(), in: "!!set {a}", issues: []string{": invalid_type: Invalid input: expected number, received Set"}},
		{name: "number of a Map", schema: Num(), in: "!!omap [a: 1]", issues: []string{": invalid_type: Invalid input: expected number, received Map"}},
		{name: "number of a Symbol", schema: Num(), in: "!!merge <<", issues: []string{": invalid_type: Invalid input: expected number, received symbol"}},
		{name: "number of an array", schema: Num(), in: "[1]", issues: []string{": invalid_type: Invalid input: expected number, received array"}},
		{name: "number of an object", schema: Num(), in: "{a: 1}", issues: []string{": invalid_type: Invalid input: expected number, received object"}},
		{name: "literal 1", schema: Literal1(), in: "1", out: "1"},
		{name: "literal 1 of 2", schema: Literal1(), in: "2", issues: []string{": invalid_value: Invalid input: expected 1"}},
		{name: "literal 1 of a string", schema: Literal1(), in: "'1'", issues: []string{": invalid_value: Invalid input: expected 1"}},
		{name: "enum", schema: Enum("a", "b"), in: "b", out: `"b"`},
		{name: "enum of another", schema: Enum("a", "b"), in: "c", issues: []string{`: invalid_value: Invalid option: expected one of "a"|"b"`}},
		{name: "enum of a number", schema: EnumOf([]string{"a"}), in: "1", issues: []string{`: invalid_value: Invalid option: expected one of "a"`}},
	})
}

// TestNumberChecks runs .int(), .positive(), .nonnegative() and .max():
// a fraction aborts the checks after it; a range issue lets them run.
func TestNumberChecks(t *testing.T) {
	t.Parallel()
	posInt := Num().With(IsInt(), Positive())
	runCases(t, []schemaCase{
		{name: "a positive int", schema: posInt, in: "3", out: "3"},
		{name: "a fraction stops the checks", schema: posInt, in: "-1.5", issues: []string{": invalid_type: Invalid input: expected int, received number"}},
		{name: "zero", schema: posInt, in: "0", issues: []string{": too_small: Too small: expected number to be >0"}},
		{name: "past the safe integers", schema: posInt, in: "9007199254740992", issues: []string{": too_big: Too big: expected int to be <=9007199254740991"}},
		{name: "below the safe integers", schema: Num().With(IsInt(), Positive()), in: "-9007199254740992",
			issues: []string{": too_small: Too small: expected int to be >=-9007199254740991", ": too_small: Too small: expected number to be >0"}},
		{name: "a type issue runs no check", schema: posInt, in: "'3'", issues: []string{": invalid_type: Invalid input: expected number, received string"}},
		{name: "nonnegative", schema: Num().With(Nonnegative()), in: "-1", issues: []string{": too_small: Too small: expected number to be >=0"}},
		{name: "at most", schema: Num().With(Positive(), AtMost(256)), in: "256.5", issues: []string{": too_big: Too big: expected number to be <=256"}},
		{name: "at most, and positive", schema: Num().With(Positive(), AtMost(256)), in: "-0.5", issues: []string{": too_small: Too small: expected number to be >0"}},
	})
}

// TestNonEmpty runs .min(1), which reads the length of any value that
// has one, even of the wrong type, as JavaScript reads it.
func TestNonEmpty(t *testing.T) {
	t.Parallel()
	list := Array(Str()).With(NonEmpty())
	tooSmall := ": too_small: Too small: expected unknown to be >=1"
	notList := ": invalid_type: Invalid input: expected array, received object"
	runCases(t, []schemaCase{
		{name: "a string", schema: Str().With(NonEmpty()), in: "a", out: `"a"`},
		{name: "an empty string", schema: Str().With(NonEmpty()), in: "''", issues: []string{": too_small: Too small: expected string to have >=1 characters"}},
		{name: "an empty list", schema: list, in: "[]", issues: []string{": too_small: Too small: expected array to have >=1 items"}},
		{name: "a list", schema: list, in: "[a]", out: `["a"]`},
		{name: "a number has no length", schema: list, in: "1", issues: []string{": invalid_type: Invalid input: expected array, received number"}},
		{name: "a string in a list's place", schema: list, in: "''", issues: []string{": invalid_type: Invalid input: expected array, received string",
			": too_small: Too small: expected string to have >=1 characters"}},
		{name: "an empty Buffer", schema: list, in: "!!binary ''", issues: []string{": invalid_type: Invalid input: expected array, received Buffer", tooSmall}},
		{name: "a Buffer", schema: list, in: "!!binary aGk=", issues: []string{": invalid_type: Invalid input: expected array, received Buffer"}},
		{name: "length 0", schema: list, in: "{length: 0}", issues: []string{notList, tooSmall}},
		{name: "length 1", schema: list, in: "{length: 1}", issues: []string{notList}},
		{name: "length null", schema: list, in: "{length: null}", issues: []string{notList, tooSmall}},
		{name: "length true", schema: list, in: "{length: true}", issues: []string{notList}},
		{name: "length false", schema: list, in: "{length: false}", issues: []string{notList, tooSmall}},
		{name: "length of a string", schema: list, in: "{length: ' 2 '}", issues: []string{notList}},
		{name: "length of a word", schema: list, in: "{length: x}", issues: []string{notList, tooSmall}},
		{name: "length of a Date", schema: list, in: "{length: !!timestamp 2024-01-02}", issues: []string{notList}},
		{name: "length of a Buffer", schema: list, in: "{length: !!binary MQ==}", issues: []string{notList}},
		{name: "length of an empty list", schema: list, in: "{length: []}", issues: []string{notList, tooSmall}},
		{name: "length of a list of one", schema: list, in: "{length: ['3']}", issues: []string{notList}},
		{name: "length of a list of null", schema: list, in: "{length: [null]}", issues: []string{notList, tooSmall}},
		{name: "length of a list of true", schema: list, in: "{length: [true]}", issues: []string{notList, tooSmall}},
		{name: "length of a list of two", schema: list, in: "{length: [1, 2]}", issues: []string{notList, tooSmall}},
		{name: "length of a Set", schema: list, in: "{length: !!set {a}}", issues: []string{notList, tooSmall}},
		{name: "length of an object", schema: list, in: "{length: {a: 1}}", issues: []string{notList, tooSmall}},
		{name: "length of a Symbol", schema: list, in: "{length: !!merge <<}", issues: []string{notList, ": TypeError: Cannot convert a Symbol value to a number"}},
		{name: "length with its own toString", schema: list, in: "{length: {toString: 1}}", issues: []string{notList, ": TypeError: Cannot convert object to primitive value"}},
		{name: "length of a list of a Symbol", schema: list, in: "{length: [!!merge <<]}", issues: []string{notList, ": TypeError: Cannot convert a Symbol value to a string"}},
		{name: "length of a list with a toString", schema: list, in: "{length: [{toString: 1}]}", issues: []string{notList, ": TypeError: Cannot convert object to primitive value"}},
		{name: "a fraction aborts explicitly", schema: Num().With(IsInt(), NonEmpty()), in: "1.5", issues: []string{": invalid_type: Invalid input: expected int, received number"}},
	})
}

// TestObject reads an object's shape in order, drops or refuses the keys
// it does not know, and fills its defaults.
func TestObject(t *testing.T) {
	t.Parallel()
	shape := []Field{
		{Key: "a", Schema: Str()},
		{Key: "b", Schema: Optional(Num())},
		{Key: "c", Schema: WithDefault(Boolean(), &yamljs.Node{Kind: yamljs.Bool, Bool: true})},
		{Key: "d", Schema: Optional(Num().With(Positive()))},
	}
	strip, strict := Object(false, shape...), Object(true, shape...)
	runCases(t, []schemaCase{
		{name: "the shape's keys", schema: strict, in: "{c: false, b: 2, a: x, d: 1}", out: `{a:"x",b:2,c:false,d:1}`},
		{name: "defaults filled", schema: strip, in: "{a: x}", out: `{a:"x",c:true}`},
		{name: "unknown keys dropped", schema: strip, in: "{a: x, z: 1}", out: `{a:"x",c:true}`},
		{name: "an unknown key refused", schema: strict, in: "{a: x, z: 1}", issues: []string{`: unrecognized_keys: Unrecognized key: "z"`}},
		{name: "unknown keys refused, after the shape's issues", schema: strict, in: "{z: 1, b: x, y: 2}", issues: []string{
			".a: invalid_type: Invalid input: expected string, received undefined",
			".b: invalid_type: Invalid input: expected number, received string",
			`: unrecognized_keys: Unrecognized keys: "z", "y"`,
		}},
		{name: "an optional key's checks", schema: strict, in: "{a: x, d: 0}", issues: []string{".d: too_small: Too small: expected number to be >0"}},
		{name: "a default's value checked", schema: strict, in: "{a: x, c: 1}", issues: []string{".c: invalid_type: Invalid input: expected boolean, received number"}},
		{name: "a list", schema: strip, in: "[a]", issues: []string{": invalid_type: Invalid input: expected object, received array"}},
		{name: "undefined", schema: strip, in: "~undefined", issues: []string{": invalid_type: Invalid input: expected object, received undefined"}},
		{name: "a Date has no properties", schema: strip, in: "!!timestamp 2024-01-02", issues: []string{".a: invalid_type: Invalid input: expected string, received undefined"}},
		{name: "a Buffer's properties are its bytes", schema: Object(true, Field{Key: "0", Schema: Num()}), in: "!!binary aGk=",
			issues: []string{`: unrecognized_keys: Unrecognized key: "1"`}},
	})
}

// TestUndefinedValue: a key whose value is yaml's undefined is absent.
func TestUndefinedValue(t *testing.T) {
	t.Parallel()
	in := &yamljs.Node{Kind: yamljs.Map, Pairs: []yamljs.Pair{{Key: "a", Value: &yamljs.Node{Kind: yamljs.Undefined}}}}
	p := Payload{Value: in}
	Object(true, Field{Key: "a", Schema: Optional(Str())}).Run(&p)
	assert.Empty(t, p.Issues)
	assert.Equal(t, "{}", show(p.Value))
	assert.Nil(t, JSValue(in.Pairs[0].Value))
	assert.Equal(t, "undefined", TypeName(nil))
}

// TestArrayAndRecord reads each item of an array and each value of a
// record, the issues under their index or key.
func TestArrayAndRecord(t *testing.T) {
	t.Parallel()
	runCases(t, []schemaCase{
		{name: "an array", schema: Array(Num()), in: "[1, 2]", out: "[1,2]"},
		{name: "an array's items", schema: Array(Num()), in: "[a, 2, b]", issues: []string{
			"[0]: invalid_type: Invalid input: expected number, received string",
			"[2]: invalid_type: Invalid input: expected number, received string",
		}},
		{name: "a record", schema: Record(), in: "{A: x, __proto__: y, B: z}", out: `{A:"x",B:"z"}`},
		{name: "a record's values", schema: Record(), in: "{A: 1, B: x}", issues: []string{".A: invalid_type: Invalid input: expected string, received number"}},
		{name: "a record of a list", schema: Record(), in: "[a]", issues: []string{": invalid_type: Invalid input: expected record, received array"}},
	})
}

// TestUnion takes the first option without issues, else the one option
// that did not abort, else "Invalid input" with every option's issues.
func TestUnion(t *testing.T) {
	t.Parallel()
	u := Union(Object(true, Field{Key: "a", Schema: Str()}), Object(true, Field{Key: "b", Schema: Num().With(Positive())}))
	runCases(t, []schemaCase{
		{name: "the first option", schema: u, in: "{a: x}", out: `{a:"x"}`},
		{name: "the second option", schema: u, in: "{b: 1}", out: "{b:1}"},
		{name: "the one option that did not abort", schema: u, in: "{a: x, c: 1}", issues: []string{`: unrecognized_keys: Unrecognized key: "c"`}},
		{name: "a range issue does not abort", schema: u, in: "{b: 0}", issues: []string{".b: too_small: Too small: expected number to be >0"}},
		{name: "none", schema: u, in: "{c: 1}", issues: []string{": invalid_union: Invalid input"}},
	})
	p := Payload{Value: value(t, "{c: 1}")}
	u.Run(&p)
	require.Len(t, p.Issues, 1)
	require.Len(t, p.Issues[0].Options, 2)
	assert.Equal(t, []string{".a: invalid_type: Invalid input: expected string, received undefined", `: unrecognized_keys: Unrecognized key: "c"`}, issues(p.Issues[0].Options[0]))
	assert.Equal(t, []string{".b: invalid_type: Invalid input: expected number, received undefined", `: unrecognized_keys: Unrecognized key: "c"`}, issues(p.Issues[0].Options[1]))
}

// TestPipe runs the transform on a value whose only issues are unknown
// keys, and not on another.
func TestPipe(t *testing.T) {
	t.Parallel()
	upper := func(p *Payload) {
		if p.Value != nil { // a transform runs on undefined too
			p.Value = &yamljs.Node{Kind: yamljs.String, Str: strings.ToUpper(p.Value.Str)}
		}
	}
	keys := func(p *Payload) { p.Value = &yamljs.Node{Kind: yamljs.Number, Num: float64(len(p.Value.Pairs))} }
	runCases(t, []schemaCase{
		{name: "a value", schema: Pipe(Str(), "upper", upper), in: "abc", out: `"ABC"`},
		{name: "an optional value left out", schema: Pipe(Optional(Str()), "upper", upper), in: "~undefined", out: "undefined"},
		{name: "a wrong value", schema: Pipe(Str(), "upper", upper), in: "1", issues: []string{": invalid_type: Invalid input: expected string, received number"}},
		{name: "unknown keys alone", schema: Pipe(Object(true), "keys", keys), in: "{a: 1}", issues: []string{`: unrecognized_keys: Unrecognized key: "a"`}},
	})
	p := Payload{Value: value(t, "{a: 1}")}
	Pipe(Object(true), "keys", keys).Run(&p)
	assert.Equal(t, "0", show(p.Value), "transformed: the object's output has no key")
	assert.Equal(t, OptOptional, Pipe(Optional(Str()), "upper", upper).OptIn)
}

// TestPreprocess runs the preprocess before its schema, and not the schema
// after an issue of its own; that issue aborts the checks around it, as
// zod's does (ctx.addIssue in a transform leaves continue unset).
func TestPreprocess(t *testing.T) {
	t.Parallel()
	refuseA := func(p *Payload) {
		if p.Value != nil && p.Value.Kind == yamljs.Map && Lookup(p.Value, "a") != nil {
			p.AddIssue(&Issue{Code: "custom", Message: "no a"})
		}
	}
	obj := Preprocess("no-a", refuseA, Object(true, Field{Key: "b", Schema: Optional(Num())}))
	assert.Equal(t, "pipe", obj.Kind)
	assert.Equal(t, "object", obj.Inner.Kind)
	around := Object(false, Field{Key: "r", Schema: obj}).With(Check{Fn: func(p *Payload) { p.AddIssue(Custom("checked")) }})
	runCases(t, []schemaCase{
		{name: "passes on to the schema", schema: obj, in: "{b: 1}", out: "{b:1}"},
		{name: "the schema's own issues", schema: obj, in: "{b: x, c: 1}", issues: []string{".b: invalid_type: Invalid input: expected number, received string", `: unrecognized_keys: Unrecognized key: "c"`}},
		{name: "its issue, and nothing of the schema's", schema: obj, in: "{a: 1, b: x}", issues: []string{": custom: no a"}},
		{name: "a value it lets through", schema: obj, in: "x", issues: []string{": invalid_type: Invalid input: expected object, received string"}},
		{name: "its issue aborts the checks around it", schema: around, in: "{r: {a: 1}}", issues: []string{".r: custom: no a"}},
		{name: "an unknown key does not", schema: around, in: "{r: {c: 1}}", issues: []string{`.r: unrecognized_keys: Unrecognized key: "c"`, ": custom: checked"}},
	})
	p := Payload{Value: value(t, "{a: 1}"), Limit: 1}
	p.Issues = append(p.Issues, Custom("kept"))
	obj.Run(&p)
	assert.Equal(t, 1, p.Dropped(), "an issue past the limit is counted")
	assert.Len(t, p.Issues, 1, "and stops the schema all the same")
}

// TestRefine adds the refinement's issue, which lets the checks run, and
// a superRefine's custom issue.
func TestRefine(t *testing.T) {
	t.Parallel()
	short := Refine(func(n *yamljs.Node) bool { return len(n.Str) < 3 }, "too long").Named("short")
	assert.Equal(t, "short", short.Rule)
	runCases(t, []schemaCase{
		{name: "passes", schema: Str().With(short), in: "ab", out: `"ab"`},
		{name: "fails, and the next check runs", schema: Str().With(short, NonEmpty()), in: "abc", issues: []string{": custom: too long"}},
		{name: "not on a wrong type", schema: Str().With(short), in: "1", issues: []string{": invalid_type: Invalid input: expected string, received number"}},
	})
	assert.Equal(t, Issue{Code: "custom", Cont: ContTrue, Message: "m"}, *Custom("m"))
}

// TestAddIssue places an issue at the value's path plus a relative one.
func TestAddIssue(t *testing.T) {
	t.Parallel()
	var p Payload
	iss := Custom("x")
	p.AddIssue(iss, Key("labelSets"), Seg{Index: 2}, Key("image"))
	assert.Equal(t, []Seg{Key("labelSets"), {Index: 2}, Key("image")}, iss.Path())
	assert.Equal(t, []Seg{Key("image"), {Index: 2}, Key("labelSets")}, iss.RPath)
	assert.False(t, p.Clean())
	assert.Zero(t, p.Dropped())
}

// TestOutputs makes an output's values in chunks kept from one value to
// the next, the same output as without them.
func TestOutputs(t *testing.T) {
	t.Parallel()
	s := Array(Object(false, Field{Key: "a", Schema: Num()}, Field{Key: "b", Schema: Str()}))
	src := "[" + strings.Repeat("{a: 1, b: x}, ", 400) + "{a: 2, b: y}]"
	want := Payload{Value: value(t, src)}
	s.Run(&want)
	var out Outputs
	for range 3 {
		out.Reset()
		got := Payload{Value: value(t, src), Out: &out}
		s.Run(&got)
		require.Empty(t, got.Issues)
		assert.Equal(t, show(want.Value), show(got.Value))
	}
	assert.Equal(t, []yamljs.Pair(nil), out.pairList(nil))
	var none *Outputs
	assert.Equal(t, yamljs.Node{Kind: yamljs.Number, Num: 1}, *none.Node(yamljs.Node{Kind: yamljs.Number, Num: 1}))
	assert.Len(t, out.items.take(outputChunk), outputChunk, "a long list gets a slice of its own")
}

// TestTypeName names every kind of value as zod's messages do.
func TestTypeName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    *yamljs.Node
		want string
	}{
		{&yamljs.Node{Kind: yamljs.Number, Num: math.NaN()}, "NaN"},
		{&yamljs.Node{Kind: yamljs.Number, Num: 2}, "number"},
		{&yamljs.Node{Kind: yamljs.OrderedMap}, "Map"},
		{&yamljs.Node{Kind: yamljs.Undefined}, "undefined"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, TypeName(tt.n))
		})
	}
}
