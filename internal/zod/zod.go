// Package zod is a small interpreter of the zod 4 constructs the
// orchestrator's schema uses. It follows zod's rules for which issues a
// value gets, and in what order:
//
//   - a schema parses its value, then runs its checks;
//   - an issue either lets later checks run ("continue") or aborts them;
//   - an object reports its shape's issues in shape order, then its
//     unrecognized keys;
//   - a pipe stops at any issue but an unrecognized key.
//
// The values are *yamljs.Node trees. The input is what yaml's parse()
// returned. The output is what zod returns: new objects and arrays,
// defaults filled, transforms applied, nil for undefined.
//
// A [Schema] also says what it is: its kind, its parts, the rules of its
// checks. scalerconfig's tests read that to hold its Go types to the
// schema, and to make a JSON Schema of it.
package zod

import (
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// Check is a check or a refinement of a schema.
type Check struct {
	// When, when not nil, makes a check that runs unless an issue aborts
	// explicitly, and only when When says so: zod's length checks. A check
	// without When runs only on a value that no issue aborts.
	When func(*Payload) bool
	Fn   func(*Payload) // the check: it adds its issues to the payload
	// Rule names what the check requires, for a reader of the schema:
	// "int", "positive" (> Limit), "nonnegative" (>= Limit), "max"
	// (<= Limit), "nonempty" (a length >= 1). Or it names one of the
	// orchestrator's own refinements: "reserved", "scaler",
	// "hostAccess", "pools".
	Rule  string
	Limit float64 // the bound that Rule names
}

// Schema is one zod schema: its parse, then its checks.
type Schema struct {
	Parse         func(*Payload) // reads p.Value, writes the output and the issues
	Checks        []Check        // run after Parse, in order
	OptIn, OptOut Opt            // zod's optin and optout

	// Kind is zod's name of the construct: "string", "number",
	// "boolean", "literal", "enum", "array", "object", "record",
	// "union", "optional", "default" or "pipe".
	Kind  string
	Inner *Schema // the element of an array, a record's values; what an optional, a default or a pipe wraps
	// Transform names a pipe's transform: "canonical" (labels), "roles",
	// "flat" (the flat resources form), "memory" (a cap's maxMemory read
	// as bytes).
	Transform string
	Shape     []Field      // an object's keys, in order
	Strict    bool         // an object refuses unknown keys
	Options   []*Schema    // a union's
	Values    []string     // an enum's, in order; a literal's, as text
	Def       *yamljs.Node // a default's value
	GoType    reflect.Type // the Go type an object of the tables decodes to; nil for the others
}

// Run is zod's $ZodType run: parse, then the checks.
func (s *Schema) Run(p *Payload) {
	s.Parse(p)
	if len(s.Checks) == 0 {
		return
	}
	aborted := p.abortedSince(mark{})
	for _, ch := range s.Checks {
		if ch.When != nil {
			if p.explicitlyAborted() || !ch.When(p) {
				continue
			}
		} else if aborted {
			continue
		}
		m := p.mark()
		ch.Fn(p)
		if !aborted {
			aborted = p.abortedSince(m)
		}
	}
}

// With returns s with more checks.
func (s *Schema) With(checks ...Check) *Schema {
	c := *s
	c.Checks = append(append([]Check(nil), s.Checks...), checks...)
	return &c
}

func invalidType(expected string, n *yamljs.Node) *Issue {
	return &Issue{Code: "invalid_type", Message: "Invalid input: expected " + expected + ", received " + TypeName(n)}
}

// kindOf is a schema that accepts one kind of value as it is.
func kindOf(k yamljs.Kind, expected string) *Schema {
	return &Schema{Kind: expected, Parse: func(p *Payload) {
		if p.Value == nil || p.Value.Kind != k {
			p.AddIssue(invalidType(expected, p.Value))
		}
	}}
}

// Str is z.string().
func Str() *Schema { return kindOf(yamljs.String, "string") }

// Boolean is z.boolean().
func Boolean() *Schema { return kindOf(yamljs.Bool, "boolean") }

// Num is z.number(): any finite number.
func Num() *Schema {
	return &Schema{Kind: "number", Parse: func(p *Payload) {
		if v := p.Value; v == nil || v.Kind != yamljs.Number || math.IsNaN(v.Num) || math.IsInf(v.Num, 0) {
			p.AddIssue(invalidType("number", v))
		}
	}}
}

// Literal1 is z.literal(1).
func Literal1() *Schema {
	return &Schema{Kind: "literal", Values: []string{"1"}, Parse: func(p *Payload) {
		if v := p.Value; v == nil || v.Kind != yamljs.Number || v.Num != 1 {
			p.AddIssue(&Issue{Code: "invalid_value", Message: "Invalid input: expected 1"})
		}
	}}
}

// Enum is z.enum(values).
func Enum(values ...string) *Schema {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = `"` + v + `"`
	}
	message := "Invalid option: expected one of " + strings.Join(quoted, "|")
	return &Schema{Kind: "enum", Values: values, Parse: func(p *Payload) {
		if v := p.Value; v != nil && v.Kind == yamljs.String {
			for _, want := range values {
				if v.Str == want {
					return
				}
			}
		}
		p.AddIssue(&Issue{Code: "invalid_value", Message: message})
	}}
}

// EnumOf is z.enum of Go constants.
func EnumOf[T ~string](values []T) *Schema {
	s := make([]string, len(values))
	for i, v := range values {
		s[i] = string(v)
	}
	return Enum(s...)
}

// The number checks; each issue lets later checks run.
const maxSafeInt = 1<<53 - 1

func bound(code, origin, relation string, limit float64) *Issue {
	word := "Too small"
	if code == "too_big" {
		word = "Too big"
	}
	return &Issue{Code: code, Cont: ContTrue,
		Message: word + ": expected " + origin + " to be " + relation + strconv.FormatFloat(limit, 'f', -1, 64)}
}

// IsInt is .int(): a safe integer.
func IsInt() Check {
	return Check{Rule: "int", Fn: func(p *Payload) {
		v := p.Value.Num
		switch {
		case v != math.Trunc(v):
			p.AddIssue(&Issue{Code: "invalid_type", Cont: ContFalse, Message: "Invalid input: expected int, received number"})
		case v > maxSafeInt:
			p.AddIssue(bound("too_big", "int", "<=", maxSafeInt))
		case v < -maxSafeInt:
			p.AddIssue(bound("too_small", "int", ">=", -maxSafeInt))
		}
	}}
}

// Positive is .positive().
func Positive() Check {
	return Check{Rule: "positive", Fn: func(p *Payload) {
		if !(p.Value.Num > 0) {
			p.AddIssue(bound("too_small", "number", ">", 0))
		}
	}}
}

// Nonnegative is .nonnegative().
func Nonnegative() Check {
	return Check{Rule: "nonnegative", Fn: func(p *Payload) {
		if !(p.Value.Num >= 0) {
			p.AddIssue(bound("too_small", "number", ">=", 0))
		}
	}}
}

// AtMost is .max(n).
func AtMost(n float64) Check {
	return Check{Rule: "max", Limit: n, Fn: func(p *Payload) {
		if !(p.Value.Num <= n) {
			p.AddIssue(bound("too_big", "number", "<=", n))
		}
	}}
}

// NonEmpty is .min(1) of a string or an array. Like zod's, it runs on any
// value with a length, even one of the wrong type. It reads that length
// as JavaScript does: a string's in UTF-16 units, an array's, or an
// object's "length" property compared with >=.
func NonEmpty() Check {
	return Check{Rule: "nonempty", Limit: 1, When: hasLength, Fn: minLength1}
}

func hasLength(p *Payload) bool {
	v := p.Value
	return v != nil && (v.Kind == yamljs.String || v.Kind == yamljs.Seq || v.Kind == yamljs.Bytes ||
		v.Kind == yamljs.Map && Lookup(v, "length") != nil)
}

func minLength1(p *Payload) {
	v := p.Value
	switch v.Kind {
	case yamljs.String:
		if v.Str == "" {
			p.AddIssue(&Issue{Code: "too_small", Cont: ContTrue, Message: "Too small: expected string to have >=1 characters"})
		}
	case yamljs.Seq:
		if len(v.Items) == 0 {
			p.AddIssue(&Issue{Code: "too_small", Cont: ContTrue, Message: "Too small: expected array to have >=1 items"})
		}
	case yamljs.Bytes:
		if v.Str == "" {
			p.AddIssue(&Issue{Code: "too_small", Cont: ContTrue, Message: "Too small: expected unknown to be >=1"})
		}
	default:
		n, err := toNumber(Lookup(v, "length"))
		if err != "" {
			p.AddIssue(&Issue{Code: "TypeError", TypeErr: true, Message: err})
		} else if !(n >= 1) {
			p.AddIssue(&Issue{Code: "too_small", Cont: ContTrue, Message: "Too small: expected unknown to be >=1"})
		}
	}
}

// Array is z.array(elem).
func Array(elem *Schema) *Schema {
	return &Schema{Kind: "array", Inner: elem, Parse: func(p *Payload) {
		in := p.Value
		if in == nil || in.Kind != yamljs.Seq {
			p.AddIssue(invalidType("array", in))
			return
		}
		out := p.Out.Node(yamljs.Node{Kind: yamljs.Seq, Pos: in.Pos, End: in.End, Items: p.Out.itemList(len(in.Items))})
		r := new(Payload) // one for every item: its issues move to p
		for i, item := range in.Items {
			*r = p.child(item, r.Issues)
			elem.Run(r)
			p.prefix(Seg{Index: i}, r)
			out.Items[i] = r.Value
		}
		p.Value = out
	}}
}

// JSValue is v as a schema reads a property's value. yaml's undefined
// reads as nil, as for an absent key, so an optional or a defaulted field
// takes it as absent. A merge of a set member gives one: `<<: *s` with s
// `!!set {? [binaryPath]}` sets binaryPath to undefined.
func JSValue(v *yamljs.Node) *yamljs.Node {
	if v != nil && v.Kind == yamljs.Undefined {
		return nil
	}
	return v
}

// MaxShape is the most fields an object's shape has (a scaler has 30).
const MaxShape = 40

// Field is one key of an object's shape.
type Field struct {
	Key    string  // the key
	Schema *Schema // its value's schema
}

// Object is z.object(shape), or with strict z.object(shape).strict(). A
// stripping object drops the keys it does not know; a strict one reports
// them, after the shape's issues, in one issue that lets the checks run.
func Object(strict bool, shape ...Field) *Schema {
	index := make(map[string]int, len(shape))
	for i, f := range shape {
		index[f.Key] = i
	}
	return &Schema{Kind: "object", Shape: shape, Strict: strict, Parse: func(p *Payload) {
		in := p.Value
		if in == nil || !isObject(in) {
			p.AddIssue(invalidType("object", in))
			return
		}
		var vals [MaxShape]*yamljs.Node
		var unknown []string
		for _, pair := range properties(in) {
			if i, ok := index[pair.Key]; ok {
				vals[i] = JSValue(pair.Value)
			} else if strict {
				unknown = append(unknown, pair.Key)
			}
		}
		var pairs [MaxShape]yamljs.Pair
		n := 0
		r := new(Payload) // one for every field: its issues move to p
		for i, f := range shape {
			*r = p.child(vals[i], r.Issues)
			if v := property(p, r, f); v != nil {
				pairs[n] = yamljs.Pair{Key: f.Key, Value: v}
				n++
			}
		}
		if unknown != nil {
			p.AddIssue(&Issue{Code: "unrecognized_keys", Cont: ContTrue, Keys: unknown, Message: unrecognized(unknown)})
		}
		p.Value = p.Out.Node(yamljs.Node{Kind: yamljs.Map, Pos: in.Pos, End: in.End, Pairs: p.Out.pairList(pairs[:n])})
	}}
}

// property is zod's handlePropertyResult: it runs one key's schema and puts
// its issues and value in the object's. A key absent from an optional
// field adds nothing (zod returns early for it; here its schema gives no
// issue and no value, which comes to the same); from a defaulted one, the
// default. (zod's other branches, for a required schema that accepts
// undefined and an optional one around a default, need schemas this
// config does not have.)
//
// r holds the key's input value; property returns the value the object
// gets for the key, nil for none.
func property(p, r *Payload, f Field) *yamljs.Node {
	present := r.Value != nil
	if !present && len(f.Schema.Checks) == 0 {
		// What an optional's or a default's run would give, without it:
		// most keys of a label set are absent.
		switch f.Schema.Kind {
		case "optional":
			return nil
		case "default":
			return f.Schema.Def
		}
	}
	f.Schema.Run(r)
	p.prefix(Key(f.Key), r)
	if present || f.Schema.OptIn != OptNone {
		return r.Value
	}
	return nil
}

func unrecognized(keys []string) string {
	s := "Unrecognized key"
	if len(keys) > 1 {
		s += "s"
	}
	quoted := make([]string, len(keys))
	for i, k := range keys {
		quoted[i] = `"` + k + `"`
	}
	return s + ": " + strings.Join(quoted, ", ")
}

// Record is z.record(z.string(), z.string()): every own key but __proto__,
// each value a string.
func Record() *Schema {
	return &Schema{Kind: "record", Inner: Str(), Parse: func(p *Payload) {
		in := p.Value
		if in == nil || in.Kind != yamljs.Map {
			p.AddIssue(invalidType("record", in))
			return
		}
		out := &yamljs.Node{Kind: yamljs.Map, Pos: in.Pos, End: in.End, Pairs: make([]yamljs.Pair, 0, len(in.Pairs))}
		for _, pair := range in.Pairs {
			if pair.Key == "__proto__" {
				continue
			}
			if v := pair.Value; v.Kind != yamljs.String {
				p.AddIssue(invalidType("string", v), Key(pair.Key))
			}
			out.Pairs = append(out.Pairs, pair)
		}
		p.Value = out
	}}
}

// Union is z.union(options): the first option without issues; else the one
// option that did not abort, issues and all; else "Invalid input".
func Union(options ...*Schema) *Schema {
	return &Schema{Kind: "union", Options: options, Parse: func(p *Payload) {
		results := make([]Payload, len(options))
		for i, o := range options {
			results[i] = p.child(p.Value, nil)
			o.Run(&results[i])
			if results[i].Clean() {
				*p = results[i]
				return
			}
		}
		var live []int
		for i := range results {
			if !results[i].abortedSince(mark{}) {
				live = append(live, i)
			}
		}
		if len(live) == 1 {
			*p = results[live[0]]
			return
		}
		iss := &Issue{Code: "invalid_union", Message: "Invalid input"}
		for i := range results {
			iss.Options = append(iss.Options, results[i].Issues)
		}
		p.AddIssue(iss)
	}}
}

// Optional is inner.optional(): undefined passes as it is.
func Optional(inner *Schema) *Schema {
	return &Schema{Kind: "optional", Inner: inner, OptIn: OptOptional, OptOut: OptOptional, Parse: func(p *Payload) {
		if p.Value != nil {
			inner.Run(p)
		}
	}}
}

// WithDefault is inner.default(v): undefined becomes v, unchecked. Every
// config gets the same v: no value is ever modified once made.
func WithDefault(inner *Schema, v *yamljs.Node) *Schema {
	return &Schema{Kind: "default", Inner: inner, Def: v, OptIn: OptDefaulted, Parse: func(p *Payload) {
		if p.Value == nil {
			p.Value = v
			return
		}
		inner.Run(p)
	}}
}

// Pipe is in.transform(fn): fn runs on in's output unless in had an issue
// other than an unrecognized key. name says what fn does (schema.transform).
func Pipe(in *Schema, name string, fn func(*Payload)) *Schema {
	return &Schema{Kind: "pipe", Inner: in, Transform: name, OptIn: in.OptIn, Parse: func(p *Payload) {
		in.Run(p)
		if p.dropped.other > 0 {
			return
		}
		for _, iss := range p.Issues {
			if iss.Code != "unrecognized_keys" {
				return
			}
		}
		fn(p)
	}}
}

// Preprocess is z.preprocess(fn, out): fn reads the value first, and out
// runs on what fn leaves unless fn added an issue (zod's pipe stops there).
// An issue fn adds aborts, as one a transform's ctx.addIssue adds: the
// checks of the objects around the value do not run. name says what fn
// does (schema.transform). Like a pipe's, its Inner is out.
func Preprocess(name string, fn func(*Payload), out *Schema) *Schema {
	return &Schema{Kind: "pipe", Inner: out, Transform: name, Parse: func(p *Payload) {
		m := p.mark()
		fn(p)
		if len(p.Issues) > m.kept || p.dropped.aborting > m.aborting {
			return
		}
		out.Run(p)
	}}
}

// Refine is .refine(ok, {message}): one issue, at the value, when ok is
// false; it lets later checks run.
func Refine(ok func(*yamljs.Node) bool, message string) Check {
	return Check{Fn: func(p *Payload) {
		if !ok(p.Value) {
			p.AddIssue(&Issue{Code: "custom", Cont: ContTrue, Message: message})
		}
	}}
}

// Named returns c with the rule name of an orchestrator's refinement.
func (c Check) Named(rule string) Check {
	c.Rule = rule
	return c
}

// Custom returns the issue a superRefine's ctx.addIssue adds.
func Custom(message string) *Issue {
	return &Issue{Code: "custom", Cont: ContTrue, Message: message}
}
