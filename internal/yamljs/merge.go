package yamljs

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The conversions of the collections yaml's extra tags make, and of merge
// keys: yaml's addMergeToJSMap and mergeValue (schema/yaml-1.1/merge.js),
// YAMLSet's and YAMLOMap's toJSON.

const tagMerge = "tag:yaml.org,2002:merge"

// isMergeKey reports whether a key merges maps: one that the merge tag
// resolved (a Symbol, which has yaml's addToJSMap), or a plain "<<" where
// the schema has merge keys by default.
func (cv *converter) isMergeKey(key *ynode) bool {
	if key.kind != yScalar {
		return false
	}
	if key.Kind == Symbol {
		return true
	}
	return cv.doc.schema.merge && key.Style == Plain && key.Kind == String && key.Str == "<<"
}

// mergeTarget is what a merge adds to: a plain object (obj), a JavaScript
// Map (m) or a Set (set), the three kinds of map yaml's mergeValue knows.
type mergeTarget struct {
	obj *mergedProps
	m   *jsMap
	set *jsSet
	at  *ynode // the merge key, where a TypeError is placed
}

// mergedProps are the properties a merge gives a plain object, in the
// order it defines them, each defined unless the object has it by then.
// They are collected, then defined (mergeInto), so that the object's own
// builder stays on the stack where no merge is made: nothing yaml does
// while it merges reads what the object holds.
type mergedProps []Pair

// mergeInto defines the merged properties the object lacks.
func (ps mergedProps) mergeInto(b *propBuilder) {
	b.grow(len(ps))
	for _, p := range ps {
		if !b.has(p.Key) {
			b.set(p.Key, p.KeyPos, p.Value, nil)
		}
	}
}

// add is mergeValue's step for one entry of a source: a Map or an object
// gets the key unless it has it, a Set gets the key.
func (t mergeTarget) add(key *Node, keyPos Pos, value *Node) *jsError {
	switch {
	case t.m != nil:
		if !t.m.has(key) {
			t.m.set(key, keyPos, value)
		}
	case t.set != nil:
		t.set.add(key)
	case key.Kind == Symbol:
		// A symbol property, which Object.keys leaves out.
	default:
		name, ok := propertyKey(key)
		if !ok {
			return &jsError{at: t.at, code: ErrTypeError, message: "Cannot convert a Symbol value to a string"}
		}
		*t.obj = append(*t.obj, Pair{Key: name, KeyPos: keyPos, Value: value})
	}
	return nil
}

// addMerge is yaml's addMergeToJSMap: the maps a merge pair's value names
// (the value, or each item of a sequence, aliases resolved) merged in
// turn, each one converted when its turn comes.
func (cv *converter) addMerge(t mergeTarget, p ypair) *jsError {
	t.at = p.key
	source, err := cv.resolveValue(p.value)
	if err != nil {
		return err
	}
	if source == nil || source.kind != ySeq {
		return cv.mergeValue(t, source, p)
	}
	if source.coll == collOMap || source.coll == collPairs {
		// Their items are pairs, which are no maps.
		if len(source.pairs) > 0 {
			return mergeSourceError(source)
		}
		return nil
	}
	for _, it := range source.items {
		if err := cv.mergeValue(t, it, p); err != nil {
			return err
		}
	}
	return nil
}

func mergeSourceError(at *ynode) *jsError {
	return &jsError{at: at, code: ErrMergeSource, message: "Merge sources must be maps or map aliases"}
}

// mergeValue is yaml's mergeValue: the source read into a JavaScript Map,
// as its toJSON(null, ctx, Map) reads it, and each entry added to the
// target. A !!set's toJSON makes a Set all the same, whose members are
// read as [key, value] pairs.
func (cv *converter) mergeValue(t mergeTarget, value *ynode, p ypair) *jsError {
	source, err := cv.resolveValue(value)
	if err != nil {
		return err
	}
	if source == nil || source.kind != yMap {
		at := value
		if at == nil {
			at = p.key
		}
		return mergeSourceError(at)
	}
	if source.coll == collSet {
		return cv.mergeSet(t, source)
	}
	src, err := cv.mapEntries(source)
	if err != nil {
		return err
	}
	if t.obj != nil {
		*t.obj = slices.Grow(*t.obj, len(src.entries))
	}
	for _, e := range src.entries {
		if err := t.add(e.key, e.keyPos, e.value); err != nil {
			return err
		}
	}
	return nil
}

// mergeSet merges a Set's members, each destructured as a [key, value]
// pair.
func (cv *converter) mergeSet(t mergeTarget, source *ynode) *jsError {
	set, err := cv.set(source)
	if err != nil {
		return err
	}
	for _, m := range set.Items {
		key, value, ok := destructurePair(m)
		if !ok {
			// V8's message for `const [key, value] of srcMap` in yaml's
			// merge.js.
			return &jsError{at: t.at, code: ErrTypeError, message: ".for is not iterable"}
		}
		if err := t.add(key, m.Pos, value); err != nil {
			return err
		}
	}
	return nil
}

// destructurePair is JavaScript's `const [key, value] = v`: the first two
// values v's iterator gives (undefined past its end), or false when v is
// not iterable. A value made here is placed where v is.
func destructurePair(v *Node) (key, value *Node, ok bool) {
	made := func(n Node) *Node {
		n.Pos, n.End = v.Pos, v.End
		return &n
	}
	undefined := made(Node{Kind: Undefined})
	two := func(items []*Node) (*Node, *Node) {
		k, val := undefined, undefined
		if len(items) > 0 {
			k = items[0]
		}
		if len(items) > 1 {
			val = items[1]
		}
		return k, val
	}
	switch v.Kind {
	case String:
		var cps []*Node
		for s := v.Str; s != "" && len(cps) < 2; s = s[codePointLen(s):] {
			cps = append(cps, made(Node{Kind: String, Str: s[:codePointLen(s)]}))
		}
		key, value = two(cps)
	case Seq, Set:
		key, value = two(v.Items)
	case Bytes:
		var bs []*Node
		for i := 0; i < len(v.Str) && i < 2; i++ {
			bs = append(bs, made(Node{Kind: Number, Num: float64(v.Str[i])}))
		}
		key, value = two(bs)
	case OrderedMap:
		var es []*Node
		for i := 0; i < len(v.Pairs) && i < 2; i++ {
			es = append(es, made(Node{Kind: Seq, Items: []*Node{v.Pairs[i].KeyNode, v.Pairs[i].Value}}))
		}
		key, value = two(es)
	default:
		return nil, nil, false
	}
	return key, value, true
}

// codePointLen is the length in bytes of the code point s starts with, a
// lone surrogate's three WTF-8 bytes included.
func codePointLen(s string) int {
	if len(s) >= 3 && s[0] == 0xed && s[1] >= 0xa0 && s[1] <= 0xbf {
		return 3
	}
	_, n := utf8.DecodeRuneInString(s)
	return n
}

func (cv *converter) resolveValue(n *ynode) (*ynode, *jsError) {
	if n != nil && n.kind == yAlias {
		return cv.resolve(n)
	}
	return n, nil
}

// jsEntry is an entry of a JavaScript Map: a key value and its value.
type jsEntry struct {
	key    *Node
	keyPos Pos
	value  *Node
}

// jsMap is a JavaScript Map: entries in insertion order, found by
// SameValueZero of their keys, through an index once there are more than
// a few (so that a merge of a large map is linear in its size).
type jsMap struct {
	entries []jsEntry
	index   map[valueKey]int
}

// find returns the index of key k's entry, -1 for none.
func (m *jsMap) find(k valueKey) int {
	if m.index != nil {
		return lookup(m.index, k)
	}
	for i := range m.entries {
		if keyOfValue(m.entries[i].key) == k {
			return i
		}
	}
	if len(m.entries) >= propScan {
		m.index = buildIndex(len(m.entries), cap(m.entries), func(i int) valueKey { return keyOfValue(m.entries[i].key) })
	}
	return -1
}

func (m *jsMap) has(k *Node) bool { return m.find(keyOfValue(k)) >= 0 }

// set is Map.prototype.set: a new key is added at the end, an old one
// keeps its place and takes the value.
func (m *jsMap) set(k *Node, keyPos Pos, v *Node) {
	vk := keyOfValue(k)
	if i := m.find(vk); i >= 0 {
		m.entries[i].value = v
		return
	}
	if m.index != nil {
		m.index[vk] = len(m.entries)
	}
	m.entries = append(m.entries, jsEntry{key: k, keyPos: keyPos, value: v})
}

// jsSet is a JavaScript Set: members in insertion order, found by
// SameValueZero.
type jsSet struct {
	node  *Node // the Set, whose Items are the members
	index map[valueKey]struct{}
}

// add is Set.prototype.add; a -0 is stored as +0.
func (s *jsSet) add(k *Node) {
	vk := keyOfValue(k)
	if _, ok := s.index[vk]; ok {
		return
	}
	if s.index == nil {
		s.index = map[valueKey]struct{}{}
	}
	s.index[vk] = struct{}{}
	s.node.Items = append(s.node.Items, positiveZero(k))
}

// positiveZero is k, or a copy of k holding +0 when k is -0: a Map's
// keys and a Set's members hold -0 as +0.
func positiveZero(k *Node) *Node {
	if k.Kind == Number && k.Num == 0 && math.Signbit(k.Num) {
		c := *k
		c.Num = 0
		return &c
	}
	return k
}

// valueKey is what SameValueZero compares: a primitive by its value (NaN
// equal to itself, -0 to +0), an object or a Symbol by its identity.
type valueKey struct {
	kind Kind
	b    bool
	num  float64
	str  string
	obj  *Node
}

func keyOfValue(n *Node) valueKey {
	switch n.Kind {
	case Null, Undefined:
		return valueKey{kind: n.Kind}
	case Bool:
		return valueKey{kind: Bool, b: n.Bool}
	case Number:
		switch {
		case math.IsNaN(n.Num):
			return valueKey{kind: Number, b: true}
		case n.Num == 0:
			return valueKey{kind: Number}
		}
		return valueKey{kind: Number, num: n.Num}
	case String:
		return valueKey{kind: String, str: n.Str}
	}
	return valueKey{kind: n.Kind, obj: n}
}

// mapEntries is yaml's YAMLMap.toJSON into a JavaScript Map, which a merge
// reads its sources into: keys stay values.
func (cv *converter) mapEntries(n *ynode) (*jsMap, *jsError) {
	m := &jsMap{entries: make([]jsEntry, 0, len(n.pairs))}
	for _, p := range n.pairs {
		if cv.isMergeKey(p.key) {
			if err := cv.addMerge(mergeTarget{m: m}, p); err != nil {
				return nil, err
			}
			continue
		}
		k, err := cv.toJS(p.key)
		if err != nil {
			return nil, err
		}
		v, err := cv.pairValue(p)
		if err != nil {
			return nil, err
		}
		m.set(positiveZero(k), cv.pos(p.key.rng.start()), v)
	}
	return m, nil
}

// sameValueZero is JavaScript's SameValueZero, by which a Map finds keys:
// primitives by value (NaN equal to itself), objects by identity.
func sameValueZero(a, b *Node) bool {
	return keyOfValue(a) == keyOfValue(b)
}

// propertyKey is JavaScript's ToPropertyKey of a value that is not a
// symbol: String() of it. It is false where that throws: an array holding
// a Symbol, which join cannot write.
func propertyKey(n *Node) (string, bool) {
	return jsString(n, map[*Node]bool{})
}

// jsString is String(value) in JavaScript, false where it throws.
func jsString(n *Node, seen map[*Node]bool) (string, bool) {
	switch n.Kind {
	case Null:
		return "null", true
	case Undefined:
		return "undefined", true
	case Bool:
		return strconv.FormatBool(n.Bool), true
	case Number:
		return NumberString(n.Num), true
	case String:
		return n.Str, true
	case Symbol:
		return "Symbol(" + n.Str + ")", true
	case Seq:
		return joinString(n, seen)
	case Bytes:
		return bufferString(n.Str), true
	case Date:
		return dateString(n.Num), true
	case Set:
		return "[object Set]", true
	case OrderedMap:
		return "[object Map]", true
	}
	return "[object Object]", true
}

// joinString is Array.prototype.join: null and undefined items are empty,
// an array being joined is empty (a cycle), a Symbol throws.
func joinString(n *Node, seen map[*Node]bool) (string, bool) {
	if seen[n] {
		return "", true
	}
	seen[n] = true
	defer delete(seen, n)
	parts := make([]string, len(n.Items))
	for i, it := range n.Items {
		switch it.Kind {
		case Null, Undefined:
			continue
		case Symbol:
			return "", false
		}
		s, ok := jsString(it, seen)
		if !ok {
			return "", false
		}
		parts[i] = s
	}
	return strings.Join(parts, ","), true
}

// bufferString is Node's Buffer.prototype.toString(): the bytes decoded
// as UTF-8, each maximal invalid run one U+FFFD.
func bufferString(b string) string {
	text, _ := decodeWHATWG([]byte(b))
	return text
}

// set is yaml's YAMLSet.toJSON: a JavaScript Set of the map's keys.
func (cv *converter) set(n *ynode) (*Node, *jsError) {
	js := cv.fresh(n, Set)
	cv.created(js)
	set := &jsSet{node: js}
	for _, p := range n.pairs {
		if cv.isMergeKey(p.key) {
			// Merging into a Set adds each source's keys.
			if err := cv.addMerge(mergeTarget{set: set}, p); err != nil {
				return nil, err
			}
			continue
		}
		k, err := cv.toJS(p.key)
		if err != nil {
			return nil, err
		}
		set.add(k)
	}
	return js, nil
}

// omap is yaml's YAMLOMap.toJSON: a JavaScript Map of the pairs.
func (cv *converter) omap(n *ynode) (*Node, *jsError) {
	js := cv.fresh(n, OrderedMap)
	cv.created(js)
	seen := map[valueKey]struct{}{}
	for _, p := range n.pairs {
		k, err := cv.toJS(p.key)
		if err != nil {
			return nil, err
		}
		var v *Node
		if p.value != nil {
			if v, err = cv.toJS(p.value); err != nil {
				return nil, err
			}
		}
		vk := keyOfValue(k)
		if _, dup := seen[vk]; dup {
			return nil, &jsError{at: p.key, code: ErrOMapDuplicate, message: "Ordered maps must not include duplicate keys"}
		}
		seen[vk] = struct{}{}
		if v == nil {
			at := cv.pos(p.key.rng.valueEnd())
			v = &Node{Kind: Null, Pos: at, End: at}
		}
		k = positiveZero(k)
		name, _ := propertyKey(k)
		js.Pairs = append(js.Pairs, Pair{Key: name, KeyPos: cv.pos(p.key.rng.start()), Value: v, KeyNode: k})
	}
	return js, nil
}

// pairsSeq is a sequence of pairs (!!pairs): an array of one-key objects.
func (cv *converter) pairsSeq(n *ynode) (*Node, *jsError) {
	js := cv.fresh(n, Seq)
	cv.created(js)
	for _, p := range n.pairs {
		obj := &Node{Kind: Map}
		end := p.key
		if p.value != nil {
			end = p.value
		}
		obj.Pos, obj.End = cv.pos(p.key.rng.start()), cv.pos(end.rng.valueEnd())
		b := newPropBuilder(1)
		if err := cv.addPair(b, p); err != nil {
			return nil, err
		}
		obj.Pairs = b.finish()
		js.Items = append(js.Items, obj)
	}
	return js, nil
}
