package scalerconfig

import (
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// This file is a small interpreter of the zod 4 constructs the orchestrator's
// schema uses, with zod's rules for which issues a value gets and in what
// order: a schema parses its value, then runs its checks; an issue either
// lets later checks run ("continue") or aborts them; an object reports its
// shape's issues in shape order, then its unrecognized keys; a pipe stops at
// any issue but an unrecognized key. The values are *yamljs.Node trees: the
// input as parse() returned it, the output as zod returns it (new objects and
// arrays, defaults filled, transforms applied), with nil for undefined.
//
// A schema also says what it is (its kind, its parts, the rules of its
// checks), for a reader of the schema rather than of a value: the tests
// that hold the Go types and their docs to it, and a JSON Schema made from
// it.

// cont is an issue's "continue": whether the checks after it still run.
type cont int8

const (
	contUnset cont = iota // aborts; the issues of a type or a union
	contTrue              // lets the checks run: ranges, lengths, refinements, unknown keys
	contFalse             // aborts even the checks that run on an aborted value: int's type issue
)

// opt is a schema's optionality on the way in and out (zod's optin, optout).
type opt uint8

const (
	optNone opt = iota
	optOptional
	optDefaulted
)

// seg is one step of an issue's path: an object key, or an array index
// when index >= 0.
type seg struct {
	key   string
	index int
}

// issue is one zod issue.
type issue struct {
	code    string
	rpath   []seg // the path, leaf first: parents append as the issue bubbles up
	message string
	cont    cont
	keys    []string   // unrecognized_keys: the keys, in the object's order
	at      int        // 1 + the index of the array item the issue is about, for its position; 0 for none
	options [][]*issue // invalid_union: each option's issues
	typeErr bool       // a JavaScript TypeError, which zod does not catch
}

// payload is what a schema reads and writes: zod's { value, issues }.
// (zod's payload also has an "aborted" flag, which a pipe sets when it
// stops; only a union's option or a check on the pipe itself would read it,
// and this schema has neither.)
type payload struct {
	value  *yamljs.Node // nil is undefined
	issues []*issue
	out    *outputs // where the output's values are made (outputs.go); nil: each on its own
	// limit, when positive, is how many issues p keeps: past it, an issue
	// is counted in dropped, not kept, but a TypeError, which ends the
	// validation, is always kept. As each payload keeps the first limit
	// issues of its own and its parts' in order, the root keeps the first
	// limit of the whole validation's: a config of millions of problems
	// is told by its first ones and a count, in bounded memory.
	limit   int
	dropped dropped
}

// dropped counts the issues a payload did not keep, and what the checks
// read of them: how many abort (zod's util.aborted), how many abort
// explicitly, and how many are not of unknown keys (which a pipe reads).
type dropped struct{ n, aborting, explicit, other int }

func (d *dropped) add(e dropped) {
	d.n += e.n
	d.aborting += e.aborting
	d.explicit += e.explicit
	d.other += e.other
}

// child is a payload for a part of p's value, with p's output and limit,
// its issues in the emptied list reuse.
func (p *payload) child(v *yamljs.Node, reuse []*issue) payload {
	return payload{value: v, issues: reuse[:0], out: p.out, limit: p.limit}
}

// keep appends iss to p's issues and reports true, or counts it past p's
// limit.
func (p *payload) keep(iss *issue) bool {
	if p.limit <= 0 || len(p.issues) < p.limit || iss.typeErr {
		p.issues = append(p.issues, iss)
		return true
	}
	p.dropped.n++
	if iss.cont != contTrue {
		p.dropped.aborting++
	}
	if iss.cont == contFalse {
		p.dropped.explicit++
	}
	if iss.code != "unrecognized_keys" {
		p.dropped.other++
	}
	return false
}

// addIssue appends iss, placed at the value's path plus rel.
func (p *payload) addIssue(iss *issue, rel ...seg) {
	if !p.keep(iss) {
		return
	}
	for i := len(rel) - 1; i >= 0; i-- {
		iss.rpath = append(iss.rpath, rel[i])
	}
}

// clean reports whether p has no issue, kept or dropped.
func (p *payload) clean() bool { return len(p.issues) == 0 && p.dropped.n == 0 }

// mark is how many issues a payload has kept, and how many it has
// dropped that abort: where abortedSince starts.
type mark struct{ kept, aborting int }

func (p *payload) mark() mark { return mark{len(p.issues), p.dropped.aborting} }

// abortedSince reports whether p is aborted by an issue it got since m
// (the zero mark: any issue), as zod's util.aborted does.
func (p *payload) abortedSince(m mark) bool {
	if p.dropped.aborting > m.aborting {
		return true
	}
	for _, iss := range p.issues[m.kept:] {
		if iss.cont != contTrue {
			return true
		}
	}
	return false
}

// explicitlyAborted reports whether an issue of p forbids even the checks
// that run on an aborted value.
func (p *payload) explicitlyAborted() bool {
	if p.dropped.explicit > 0 {
		return true
	}
	for _, iss := range p.issues {
		if iss.cont == contFalse {
			return true
		}
	}
	return false
}

// prefix moves the issues of r, a child's payload, into p, under key s.
func (p *payload) prefix(s seg, r *payload) {
	for _, iss := range r.issues {
		if p.keep(iss) {
			iss.rpath = append(iss.rpath, s)
		}
	}
	p.dropped.add(r.dropped)
}

// check is a check or refinement. A check with when runs unless an issue
// explicitly aborts, and only when when says so (zod's length checks); one
// without runs only on a value no issue aborts.
type check struct {
	when func(*payload) bool
	fn   func(*payload)
	// rule names what the check requires, for a reader of the schema:
	// "int", "positive" (> limit), "nonnegative" (>= limit), "max"
	// (<= limit), "nonempty" (a length >= 1); or the refinement of the
	// orchestrator's own: "reserved" (no label starts with "kici:" once
	// lower-cased), "scaler" (its type's keys, typeRules, and its label
	// sets' gates), "hostAccess" (each entry parses), "pools" (machine pool
	// references resolve, pool names are unique).
	rule  string
	limit float64
}

// schema is one zod schema: its parse, then its checks.
type schema struct {
	parse         func(*payload)
	checks        []check
	optin, optout opt

	// What the schema is. kind is zod's name of its construct: "string",
	// "number", "boolean", "literal", "enum", "array", "object", "record",
	// "union", "optional", "default" or "pipe".
	kind  string
	inner *schema // the element of an array, a record's values; what an optional, a default or a pipe wraps
	// transform names a pipe's transform: "canonical" (labels), "roles",
	// "flat" (the flat resources form), "memory" (a cap's maxMemory read
	// as bytes: it must be a memory string).
	transform string
	shape     []field      // an object's keys, in order
	strict    bool         // an object refuses unknown keys
	options   []*schema    // a union's
	values    []string     // an enum's, in order; a literal's, as text
	def       *yamljs.Node // a default's value
	goType    reflect.Type // the Go type an object of the tables decodes to; nil for the others
}

// run is zod's $ZodType run: parse, then the checks.
func (s *schema) run(p *payload) {
	s.parse(p)
	if len(s.checks) == 0 {
		return
	}
	aborted := p.abortedSince(mark{})
	for _, ch := range s.checks {
		if ch.when != nil {
			if p.explicitlyAborted() || !ch.when(p) {
				continue
			}
		} else if aborted {
			continue
		}
		m := p.mark()
		ch.fn(p)
		if !aborted {
			aborted = p.abortedSince(m)
		}
	}
}

// with returns s with more checks.
func (s *schema) with(checks ...check) *schema {
	c := *s
	c.checks = append(append([]check(nil), s.checks...), checks...)
	return &c
}

func invalidType(expected string, n *yamljs.Node) *issue {
	return &issue{code: "invalid_type", message: "Invalid input: expected " + expected + ", received " + typeName(n)}
}

// kindOf is a schema that accepts one kind of value as it is.
func kindOf(k yamljs.Kind, expected string) *schema {
	return &schema{kind: expected, parse: func(p *payload) {
		if p.value == nil || p.value.Kind != k {
			p.addIssue(invalidType(expected, p.value))
		}
	}}
}

func str() *schema     { return kindOf(yamljs.String, "string") }
func boolean() *schema { return kindOf(yamljs.Bool, "boolean") }

// num is z.number(): any finite number.
func num() *schema {
	return &schema{kind: "number", parse: func(p *payload) {
		if v := p.value; v == nil || v.Kind != yamljs.Number || math.IsNaN(v.Num) || math.IsInf(v.Num, 0) {
			p.addIssue(invalidType("number", v))
		}
	}}
}

// literal1 is z.literal(1).
func literal1() *schema {
	return &schema{kind: "literal", values: []string{"1"}, parse: func(p *payload) {
		if v := p.value; v == nil || v.Kind != yamljs.Number || v.Num != 1 {
			p.addIssue(&issue{code: "invalid_value", message: "Invalid input: expected 1"})
		}
	}}
}

// enum is z.enum(values).
func enum(values ...string) *schema {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = `"` + v + `"`
	}
	message := "Invalid option: expected one of " + strings.Join(quoted, "|")
	return &schema{kind: "enum", values: values, parse: func(p *payload) {
		if v := p.value; v != nil && v.Kind == yamljs.String {
			for _, want := range values {
				if v.Str == want {
					return
				}
			}
		}
		p.addIssue(&issue{code: "invalid_value", message: message})
	}}
}

// enumOf is z.enum of Go constants.
func enumOf[T ~string](values []T) *schema {
	s := make([]string, len(values))
	for i, v := range values {
		s[i] = string(v)
	}
	return enum(s...)
}

// The number checks; each issue lets later checks run.
const maxSafeInt = 1<<53 - 1

func bound(code, origin, relation string, limit float64) *issue {
	word := "Too small"
	if code == "too_big" {
		word = "Too big"
	}
	return &issue{code: code, cont: contTrue,
		message: word + ": expected " + origin + " to be " + relation + strconv.FormatFloat(limit, 'f', -1, 64)}
}

// isInt is .int(): a safe integer.
func isInt() check {
	return check{rule: "int", fn: func(p *payload) {
		v := p.value.Num
		switch {
		case v != math.Trunc(v):
			p.addIssue(&issue{code: "invalid_type", cont: contFalse, message: "Invalid input: expected int, received number"})
		case v > maxSafeInt:
			p.addIssue(bound("too_big", "int", "<=", maxSafeInt))
		case v < -maxSafeInt:
			p.addIssue(bound("too_small", "int", ">=", -maxSafeInt))
		}
	}}
}

// positive is .positive(), nonnegative .nonnegative(), atMost .max(n).
func positive() check {
	return check{rule: "positive", fn: func(p *payload) {
		if !(p.value.Num > 0) {
			p.addIssue(bound("too_small", "number", ">", 0))
		}
	}}
}

func nonnegative() check {
	return check{rule: "nonnegative", fn: func(p *payload) {
		if !(p.value.Num >= 0) {
			p.addIssue(bound("too_small", "number", ">=", 0))
		}
	}}
}

func atMost(n float64) check {
	return check{rule: "max", limit: n, fn: func(p *payload) {
		if !(p.value.Num <= n) {
			p.addIssue(bound("too_big", "number", "<=", n))
		}
	}}
}

// nonEmpty is .min(1) of a string or an array. Like zod's, it runs on any
// value with a length, even one of the wrong type, and reads that length as
// JavaScript does: a string's in UTF-16 units, an array's, or an object's
// "length" property compared with >=.
func nonEmpty() check {
	return check{rule: "nonempty", limit: 1, when: hasLength, fn: minLength1}
}

func hasLength(p *payload) bool {
	v := p.value
	return v != nil && (v.Kind == yamljs.String || v.Kind == yamljs.Seq || v.Kind == yamljs.Bytes ||
		v.Kind == yamljs.Map && lookup(v, "length") != nil)
}

func minLength1(p *payload) {
	v := p.value
	switch v.Kind {
	case yamljs.String:
		if v.Str == "" {
			p.addIssue(&issue{code: "too_small", cont: contTrue, message: "Too small: expected string to have >=1 characters"})
		}
	case yamljs.Seq:
		if len(v.Items) == 0 {
			p.addIssue(&issue{code: "too_small", cont: contTrue, message: "Too small: expected array to have >=1 items"})
		}
	case yamljs.Bytes:
		if v.Str == "" {
			p.addIssue(&issue{code: "too_small", cont: contTrue, message: "Too small: expected unknown to be >=1"})
		}
	default:
		n, err := toNumber(lookup(v, "length"))
		if err != "" {
			p.addIssue(&issue{code: "TypeError", typeErr: true, message: err})
		} else if !(n >= 1) {
			p.addIssue(&issue{code: "too_small", cont: contTrue, message: "Too small: expected unknown to be >=1"})
		}
	}
}

// array is z.array(elem).
func array(elem *schema) *schema {
	return &schema{kind: "array", inner: elem, parse: func(p *payload) {
		in := p.value
		if in == nil || in.Kind != yamljs.Seq {
			p.addIssue(invalidType("array", in))
			return
		}
		out := p.out.node(yamljs.Node{Kind: yamljs.Seq, Pos: in.Pos, End: in.End, Items: p.out.itemList(len(in.Items))})
		r := new(payload) // one for every item: its issues move to p
		for i, item := range in.Items {
			*r = p.child(item, r.issues)
			elem.run(r)
			p.prefix(seg{index: i}, r)
			out.Items[i] = r.value
		}
		p.value = out
	}}
}

// jsValue is v as a schema reads a property's value: nil, as for a key
// that is absent, for yaml's undefined (a merge of a set member gives one:
// `<<: *s` with s `!!set {? [binaryPath]}` sets binaryPath to undefined),
// which an optional or a defaulted field takes as absent.
func jsValue(v *yamljs.Node) *yamljs.Node {
	if v != nil && v.Kind == yamljs.Undefined {
		return nil
	}
	return v
}

// maxShape is the most fields an object's shape has (a scaler has 30).
const maxShape = 40

// field is one key of an object's shape.
type field struct {
	key string
	s   *schema
}

// object is z.object(shape), or with strict z.object(shape).strict(). A
// stripping object drops the keys it does not know; a strict one reports
// them, after the shape's issues, in one issue that lets the checks run.
func object(strict bool, shape ...field) *schema {
	index := make(map[string]int, len(shape))
	for i, f := range shape {
		index[f.key] = i
	}
	return &schema{kind: "object", shape: shape, strict: strict, parse: func(p *payload) {
		in := p.value
		if in == nil || !isObject(in) {
			p.addIssue(invalidType("object", in))
			return
		}
		var vals [maxShape]*yamljs.Node
		var unknown []string
		for _, pair := range properties(in) {
			if i, ok := index[pair.Key]; ok {
				vals[i] = jsValue(pair.Value)
			} else if strict {
				unknown = append(unknown, pair.Key)
			}
		}
		var pairs [maxShape]yamljs.Pair
		n := 0
		r := new(payload) // one for every field: its issues move to p
		for i, f := range shape {
			*r = p.child(vals[i], r.issues)
			if v := property(p, r, f); v != nil {
				pairs[n] = yamljs.Pair{Key: f.key, Value: v}
				n++
			}
		}
		if unknown != nil {
			p.addIssue(&issue{code: "unrecognized_keys", cont: contTrue, keys: unknown, message: unrecognized(unknown)})
		}
		p.value = p.out.node(yamljs.Node{Kind: yamljs.Map, Pos: in.Pos, End: in.End, Pairs: p.out.pairList(pairs[:n])})
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
func property(p, r *payload, f field) *yamljs.Node {
	present := r.value != nil
	if !present && len(f.s.checks) == 0 {
		// What an optional's or a default's run would give, without it:
		// most keys of a label set are absent.
		switch f.s.kind {
		case "optional":
			return nil
		case "default":
			return f.s.def
		}
	}
	f.s.run(r)
	p.prefix(seg{key: f.key, index: -1}, r)
	if present || f.s.optin != optNone {
		return r.value
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

// record is z.record(z.string(), z.string()): every own key but __proto__,
// each value a string.
func record() *schema {
	return &schema{kind: "record", inner: str(), parse: func(p *payload) {
		in := p.value
		if in == nil || in.Kind != yamljs.Map {
			p.addIssue(invalidType("record", in))
			return
		}
		out := &yamljs.Node{Kind: yamljs.Map, Pos: in.Pos, End: in.End, Pairs: make([]yamljs.Pair, 0, len(in.Pairs))}
		for _, pair := range in.Pairs {
			if pair.Key == "__proto__" {
				continue
			}
			if v := pair.Value; v.Kind != yamljs.String {
				p.addIssue(invalidType("string", v), seg{key: pair.Key, index: -1})
			}
			out.Pairs = append(out.Pairs, pair)
		}
		p.value = out
	}}
}

// union is z.union(options): the first option without issues; else the one
// option that did not abort, issues and all; else "Invalid input".
func union(options ...*schema) *schema {
	return &schema{kind: "union", options: options, parse: func(p *payload) {
		results := make([]payload, len(options))
		for i, o := range options {
			results[i] = p.child(p.value, nil)
			o.run(&results[i])
			if results[i].clean() {
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
		iss := &issue{code: "invalid_union", message: "Invalid input"}
		for i := range results {
			iss.options = append(iss.options, results[i].issues)
		}
		p.addIssue(iss)
	}}
}

// optional is inner.optional(): undefined passes as it is.
func optional(inner *schema) *schema {
	return &schema{kind: "optional", inner: inner, optin: optOptional, optout: optOptional, parse: func(p *payload) {
		if p.value != nil {
			inner.run(p)
		}
	}}
}

// withDefault is inner.default(v): undefined becomes v, unchecked. Every
// config gets the same v: no value is ever modified once made.
func withDefault(inner *schema, v *yamljs.Node) *schema {
	return &schema{kind: "default", inner: inner, def: v, optin: optDefaulted, parse: func(p *payload) {
		if p.value == nil {
			p.value = v
			return
		}
		inner.run(p)
	}}
}

// pipe is in.transform(fn): fn runs on in's output unless in had an issue
// other than an unrecognized key. name says what fn does (schema.transform).
func pipe(in *schema, name string, fn func(*payload)) *schema {
	return &schema{kind: "pipe", inner: in, transform: name, optin: in.optin, parse: func(p *payload) {
		in.run(p)
		if p.dropped.other > 0 {
			return
		}
		for _, iss := range p.issues {
			if iss.code != "unrecognized_keys" {
				return
			}
		}
		fn(p)
	}}
}

// refine is .refine(ok, {message}): one issue, at the value, when ok is
// false; it lets later checks run.
func refine(ok func(*yamljs.Node) bool, message string) check {
	return check{fn: func(p *payload) {
		if !ok(p.value) {
			p.addIssue(&issue{code: "custom", cont: contTrue, message: message})
		}
	}}
}

// named returns c with the rule name of an orchestrator's refinement.
func (c check) named(rule string) check {
	c.rule = rule
	return c
}

// custom returns the issue a superRefine's ctx.addIssue adds.
func custom(message string) *issue {
	return &issue{code: "custom", cont: contTrue, message: message}
}
