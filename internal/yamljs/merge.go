package yamljs

import (
	"strconv"
	"strings"
)

// The conversions of the collections yaml's extra tags make, and of merge
// keys.

const tagMerge = "tag:yaml.org,2002:merge"

// isMergeKey reports whether a key merges maps: one that the merge tag
// resolved (a Symbol), or a plain "<<" where the schema has merge keys.
func (cv *converter) isMergeKey(key *ynode) bool {
	if key.kind != yScalar {
		return false
	}
	if key.Kind == Symbol {
		return true
	}
	return cv.doc.schema.merge && key.Style == Plain && key.Kind == String && key.Str == "<<"
}

// merge is yaml's addMergeToJSMap into a plain object: each map the value
// names adds the properties the object lacks.
func (cv *converter) merge(b *propBuilder, p ypair) *jsError {
	var entries jsEntries
	if err := cv.mergeEntries(&entries, p); err != nil {
		return err
	}
	for _, e := range entries {
		if e.key.Kind == Symbol {
			continue // a symbol property, which Object.keys leaves out
		}
		if name := propertyKey(e.key); !b.has(name) {
			b.set(name, e.keyPos, e.value, nil)
		}
	}
	return nil
}

// mergeSources returns the maps a merge key's value names: the value, or
// each item of a sequence, aliases resolved.
func (cv *converter) mergeSources(p ypair) ([]*ynode, *jsError) {
	value := p.value
	src, err := cv.resolveValue(value)
	if err != nil {
		return nil, err
	}
	list := []*ynode{src}
	if src != nil && src.kind == ySeq {
		list = src.items
	}
	out := make([]*ynode, 0, len(list))
	for _, it := range list {
		m, err := cv.resolveValue(it)
		if err != nil {
			return nil, err
		}
		if m == nil || m.kind != yMap {
			at := value
			if at == nil {
				at = p.key
			}
			return nil, &jsError{at: at, code: ErrMergeSource, message: "Merge sources must be maps or map aliases"}
		}
		out = append(out, m)
	}
	return out, nil
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

// mapEntries is yaml's YAMLMap.toJSON into a JavaScript Map, which a merge
// reads its sources into: keys stay values.
func (cv *converter) mapEntries(n *ynode) ([]jsEntry, *jsError) {
	var entries jsEntries
	for _, p := range n.pairs {
		if cv.isMergeKey(p.key) {
			if err := cv.mergeEntries(&entries, p); err != nil {
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
		if i := entries.find(k); i >= 0 {
			entries[i].value = v
		} else {
			entries = append(entries, jsEntry{key: k, keyPos: cv.pos(p.key.rng[0]), value: v})
		}
	}
	return entries, nil
}

// jsEntries are the entries of a JavaScript Map, in insertion order.
type jsEntries []jsEntry

// find returns the index of the entry for key k, -1 for none.
func (es jsEntries) find(k *Node) int {
	for i := range es {
		if sameValueZero(es[i].key, k) {
			return i
		}
	}
	return -1
}

// mergeEntries adds the entries of the maps a merge pair names that the
// Map lacks.
func (cv *converter) mergeEntries(entries *jsEntries, p ypair) *jsError {
	sources, err := cv.mergeSources(p)
	if err != nil {
		return err
	}
	for _, src := range sources {
		sub, err := cv.mapEntries(src)
		if err != nil {
			return err
		}
		for _, e := range sub {
			if entries.find(e.key) < 0 {
				*entries = append(*entries, e)
			}
		}
	}
	return nil
}

// sameValueZero is JavaScript's SameValueZero, by which a Map finds keys:
// primitives by value (NaN equal to itself), objects by identity.
func sameValueZero(a, b *Node) bool {
	if a == b {
		return true
	}
	va := scalarValue{kind: a.Kind, b: a.Bool, num: a.Num, str: a.Str}
	vb := scalarValue{kind: b.Kind, b: b.Bool, num: b.Num, str: b.Str}
	return sameValueZeroScalar(va, vb)
}

// propertyKey is JavaScript's ToPropertyKey of a value that is not a
// symbol: String() of it.
func propertyKey(n *Node) string {
	return jsString(n, map[*Node]bool{})
}

// jsString is String(value) in JavaScript.
func jsString(n *Node, seen map[*Node]bool) string {
	switch n.Kind {
	case Null:
		return "null"
	case Bool:
		return strconv.FormatBool(n.Bool)
	case Number:
		return NumberString(n.Num)
	case String:
		return n.Str
	case Symbol:
		return "Symbol(" + n.Str + ")"
	case Seq:
		// Array.prototype.join: null items are empty, a cycle is empty.
		if seen[n] {
			return ""
		}
		seen[n] = true
		parts := make([]string, len(n.Items))
		for i, it := range n.Items {
			if it.Kind != Null {
				parts[i] = jsString(it, seen)
			}
		}
		delete(seen, n)
		return strings.Join(parts, ",")
	case Bytes:
		return bufferString(n.Str)
	case Date:
		return dateString(n.Num)
	case Set:
		return "[object Set]"
	case OrderedMap:
		return "[object Map]"
	}
	return "[object Object]"
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
	for _, p := range n.pairs {
		if cv.isMergeKey(p.key) {
			// Merging into a Set adds each source's keys.
			if err := cv.mergeIntoSet(js, p); err != nil {
				return nil, err
			}
			continue
		}
		k, err := cv.toJS(p.key)
		if err != nil {
			return nil, err
		}
		addToSet(js, k)
	}
	return js, nil
}

func addToSet(set, k *Node) {
	for _, m := range set.Items {
		if sameValueZero(m, k) {
			return
		}
	}
	set.Items = append(set.Items, k)
}

func (cv *converter) mergeIntoSet(set *Node, p ypair) *jsError {
	var entries jsEntries
	if err := cv.mergeEntries(&entries, p); err != nil {
		return err
	}
	for _, e := range entries {
		addToSet(set, e.key)
	}
	return nil
}

// omap is yaml's YAMLOMap.toJSON: a JavaScript Map of the pairs.
func (cv *converter) omap(n *ynode) (*Node, *jsError) {
	js := cv.fresh(n, OrderedMap)
	cv.created(js)
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
		for _, e := range js.Pairs {
			if sameValueZero(e.KeyNode, k) {
				return nil, &jsError{at: p.key, code: ErrOMapDuplicate, message: "Ordered maps must not include duplicate keys"}
			}
		}
		if v == nil {
			at := cv.pos(p.key.rng[1])
			v = &Node{Kind: Null, Pos: at, End: at}
		}
		js.Pairs = append(js.Pairs, Pair{Key: propertyKey(k), KeyPos: cv.pos(p.key.rng[0]), Value: v, KeyNode: k})
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
		obj.Pos, obj.End = cv.pos(p.key.rng[0]), cv.pos(end.rng[1])
		b := newPropBuilder(1)
		if err := cv.addPair(b, p); err != nil {
			return nil, err
		}
		obj.Pairs = b.finish()
		js.Items = append(js.Items, obj)
	}
	return js, nil
}
