package yamljs

import (
	"sort"
	"strconv"
)

// toJS converts yaml's document model to the JavaScript value parse()
// returns: aliases resolved to the same object, map keys made property
// names, with yaml's limit on alias expansion.

// maxAliasCount is yaml's default limit on alias expansion.
const maxAliasCount = 100

// anchorData is yaml's record of a converted anchored node.
type anchorData struct {
	aliasCount int
	count      int
	res        *Node
}

type converter struct {
	doc     *document
	src     *source
	anchors map[*ynode]*anchorData
	order   []*ynode // anchored nodes in the order they were converted
	targets map[*ynode]*ynode
	// onCreate is yaml's ctx.onCreate: the anchor whose value the next
	// collection created is.
	onCreate *anchorData
	slabs    *composerSlabs // the lists of the values made
}

func newConverter(doc *document, src *source, aliases bool, slabs *composerSlabs) *converter {
	cv := &converter{doc: doc, src: src, anchors: map[*ynode]*anchorData{}, slabs: slabs}
	if aliases {
		cv.targets = resolveAliases(doc.contents)
	}
	return cv
}

// resolveAliases maps every alias to the node it names: the last node
// before it, in yaml's visiting order, with that anchor.
func resolveAliases(root *ynode) map[*ynode]*ynode {
	targets := map[*ynode]*ynode{}
	last := map[string]*ynode{}
	var visit func(n *ynode)
	visit = func(n *ynode) {
		if n == nil {
			return
		}
		switch n.kind {
		case yAlias:
			targets[n] = last[n.alias]
			return
		case yScalar:
			if n.anchor != "" {
				last[n.anchor] = n
			}
			return
		}
		if n.anchor != "" {
			last[n.anchor] = n
		}
		for _, it := range n.items {
			visit(it)
		}
		for _, p := range n.pairs {
			visit(p.key)
			visit(p.value)
		}
	}
	visit(root)
	return targets
}

// jsError is an error that converting throws (a ReferenceError in yaml).
type jsError struct {
	at      *ynode
	code    Code
	message string
}

func (cv *converter) pos(off int) Pos { return cv.src.pos(off) }

func (cv *converter) place(js *Node, n *ynode) {
	js.Pos = cv.pos(n.rng.start())
	js.End = cv.pos(n.rng.valueEnd())
}

// toJS is yaml's toJS for a node.
func (cv *converter) toJS(n *ynode) (*Node, *jsError) {
	if n.kind == yAlias {
		return cv.alias(n)
	}
	if n.anchor == "" {
		return cv.value(n)
	}
	data := &anchorData{count: 1}
	cv.anchors[n] = data
	cv.order = append(cv.order, n)
	cv.onCreate = data
	res, err := cv.value(n)
	if err != nil {
		return nil, err
	}
	if cv.onCreate != nil {
		cv.onCreate.res = res
		cv.onCreate = nil
	}
	return res, nil
}

// created is yaml's ctx.onCreate(res), called by a collection as soon as it
// exists, so that aliases inside it to its own anchor find it.
func (cv *converter) created(res *Node) {
	if cv.onCreate != nil {
		cv.onCreate.res = res
		cv.onCreate = nil
	}
}

func (cv *converter) value(n *ynode) (*Node, *jsError) {
	switch n.kind {
	case yScalar:
		return cv.scalar(n), nil
	case ySeq:
		switch n.coll {
		case collOMap:
			return cv.omap(n)
		case collPairs:
			return cv.pairsSeq(n)
		}
		return cv.seq(n)
	}
	if n.coll == collSet {
		return cv.set(n)
	}
	return cv.object(n)
}

func (cv *converter) scalar(n *ynode) *Node {
	if !n.is(converted) {
		n.set(converted)
		cv.place(&n.Node, n)
	}
	return &n.Node
}

// fresh returns the Node a collection converts to: its own the first time,
// a new one after, as JavaScript makes a new object each time.
func (cv *converter) fresh(n *ynode, kind Kind) *Node {
	js := &n.Node
	if n.is(converted) {
		js = &Node{}
	}
	n.set(converted)
	js.Kind = kind
	cv.place(js, n)
	return js
}

func (cv *converter) seq(n *ynode) (*Node, *jsError) {
	js := cv.fresh(n, Seq)
	js.Items = list(&cv.slabs.jsItems, len(n.items))
	cv.created(js)
	for _, it := range n.items {
		v, err := cv.toJS(it)
		if err != nil {
			return nil, err
		}
		js.Items = append(js.Items, v)
	}
	return js, nil
}

// alias is yaml's Alias.toJSON: the converted node it names, counted
// against the alias limit.
func (cv *converter) alias(n *ynode) (*Node, *jsError) {
	found, err := cv.resolve(n)
	if err != nil {
		return nil, err
	}
	if found == nil {
		return nil, &jsError{at: n, code: ErrUnresolvedAlias,
			message: "Unresolved alias (the anchor must be set before the alias): " + n.alias}
	}
	return cv.anchors[found].res, nil
}

// resolve is yaml's Alias.resolve with a context: the node an alias names,
// converted, its alias count raised.
func (cv *converter) resolve(n *ynode) (*ynode, *jsError) {
	found := cv.targets[n]
	if found == nil {
		return nil, nil
	}
	data := cv.anchors[found]
	if data == nil {
		if _, err := cv.toJS(found); err != nil {
			return nil, err
		}
		data = cv.anchors[found]
	}
	data.count++
	if data.aliasCount == 0 {
		data.aliasCount = cv.aliasCount(found, map[*ynode]bool{})
	}
	if data.count*data.aliasCount > maxAliasCount {
		return nil, &jsError{at: n, code: ErrAliasCount,
			message: "Excessive alias count indicates a resource exhaustion attack"}
	}
	return found, nil
}

// aliasCount is yaml's getAliasCount: how many values expanding n makes,
// counting each alias inside it as its anchor's expansions so far.
func (cv *converter) aliasCount(n *ynode, onPath map[*ynode]bool) int {
	if n == nil {
		return 1
	}
	switch n.kind {
	case yAlias:
		src := cv.targets[n]
		if src == nil {
			return 0
		}
		if a := cv.anchors[src]; a != nil {
			return a.count * a.aliasCount
		}
		return 0
	case yScalar:
		return 1
	}
	count := 0
	for _, it := range n.items {
		count = max(count, cv.aliasCount(it, onPath))
	}
	for _, p := range n.pairs {
		count = max(count, cv.aliasCount(p.key, onPath), cv.aliasCount(p.value, onPath))
	}
	return count
}

// object is yaml's YAMLMap.toJSON into a plain object.
func (cv *converter) object(n *ynode) (*Node, *jsError) {
	js := cv.fresh(n, Map)
	cv.created(js)
	b := propBuilder{pairs: list(&cv.slabs.jsPairs, len(n.pairs))}
	for _, p := range n.pairs {
		if err := cv.addPair(&b, p); err != nil {
			return nil, err
		}
	}
	js.Pairs = b.finish()
	return js, nil
}

// addPair is yaml's addPairToJSMap for a plain object.
func (cv *converter) addPair(b *propBuilder, p ypair) *jsError {
	if cv.isMergeKey(p.key) {
		merged := &mergedProps{}
		if err := cv.addMerge(mergeTarget{obj: merged}, p); err != nil {
			return err
		}
		merged.mergeInto(b)
		return nil
	}
	jsKey, err := cv.toJS(p.key)
	if err != nil {
		return err
	}
	name, err := cv.stringifyKey(p.key, jsKey)
	if err != nil {
		return err
	}
	val, err := cv.pairValue(p)
	if err != nil {
		return err
	}
	b.set(name, cv.pos(p.key.rng.start()), val, nil)
	return nil
}

// pairValue converts a pair's value; a pair without one (`? a`) has null,
// placed where its key ends.
func (cv *converter) pairValue(p ypair) (*Node, *jsError) {
	if p.value != nil {
		return cv.toJS(p.value)
	}
	at := cv.pos(p.key.rng.valueEnd())
	return &Node{Kind: Null, Pos: at, End: at}, nil
}

// stringifyKey is yaml's stringifyKey: the property name of a key.
func (cv *converter) stringifyKey(key *ynode, jsKey *Node) (string, *jsError) {
	switch jsKey.Kind {
	case Null:
		return "", nil
	case Bool:
		return strconv.FormatBool(jsKey.Bool), nil
	case Number:
		return NumberString(jsKey.Num), nil
	case String:
		return jsKey.Str, nil
	case Symbol:
		return "Symbol(" + jsKey.Str + ")", nil
	}
	return cv.stringifyObjectKey(key, jsKey)
}

// propBuilder collects an object's properties in JavaScript's order: a
// property set again keeps its place; array indices come first, ascending.
type propBuilder struct {
	pairs   []Pair
	index   map[string]int
	indices bool // some key is an array index
}

func newPropBuilder(n int) *propBuilder {
	return &propBuilder{pairs: make([]Pair, 0, n)}
}

// propScan is how many keys a map is scanned for before it builds an
// index of them.
const propScan = 16

// lookup returns k's index in an index, -1 for none.
func lookup[K comparable](index map[K]int, k K) int {
	if i, ok := index[k]; ok {
		return i
	}
	return -1
}

// buildIndex returns an index of n keys, keyAt(i) the i-th, with room for
// at least size.
func buildIndex[K comparable](n, size int, keyAt func(int) K) map[K]int {
	index := make(map[K]int, max(2*n, size))
	for i := range n {
		index[keyAt(i)] = i
	}
	return index
}

func (b *propBuilder) find(name string) int {
	if b.index != nil {
		return lookup(b.index, name)
	}
	for i := range b.pairs {
		if b.pairs[i].Key == name {
			return i
		}
	}
	if len(b.pairs) >= propScan {
		b.index = buildIndex(len(b.pairs), 0, b.keyAt)
	}
	return -1
}

func (b *propBuilder) keyAt(i int) string { return b.pairs[i].Key }

func (b *propBuilder) has(name string) bool { return b.find(name) >= 0 }

// grow makes room for n more properties, as a merge is about to add them.
func (b *propBuilder) grow(n int) {
	if len(b.pairs)+n <= cap(b.pairs) {
		return
	}
	b.pairs = append(make([]Pair, 0, len(b.pairs)+n), b.pairs...)
	if b.index == nil && len(b.pairs)+n >= propScan {
		b.index = buildIndex(len(b.pairs), len(b.pairs)+n, b.keyAt)
	}
}

func (b *propBuilder) set(name string, keyPos Pos, v, keyNode *Node) {
	if i := b.find(name); i >= 0 {
		b.pairs[i].Value = v
		return
	}
	if b.index != nil {
		b.index[name] = len(b.pairs)
	}
	if isArrayIndex(name) {
		b.indices = true
	}
	b.pairs = append(b.pairs, Pair{Key: name, KeyPos: keyPos, Value: v, KeyNode: keyNode})
}

func (b *propBuilder) finish() []Pair {
	if b.indices {
		sort.SliceStable(b.pairs, func(i, j int) bool {
			ii, iok := arrayIndex(b.pairs[i].Key)
			ji, jok := arrayIndex(b.pairs[j].Key)
			if iok && jok {
				return ii < ji
			}
			return iok && !jok
		})
	}
	return b.pairs
}

func isArrayIndex(s string) bool {
	_, ok := arrayIndex(s)
	return ok
}

// arrayIndex reports whether s is an array index (the canonical decimal of
// an integer below 2^32-1) and which.
func arrayIndex(s string) (uint32, bool) {
	if s == "" || len(s) > 10 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + uint64(s[i]-'0')
	}
	if n >= 1<<32-1 {
		return 0, false
	}
	return uint32(n), true
}
