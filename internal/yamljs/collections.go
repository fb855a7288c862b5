package yamljs

import (
	"math"
	"strings"
)

const (
	tagMap = "tag:yaml.org,2002:map"
	tagSeq = "tag:yaml.org,2002:seq"
	tagStr = "tag:yaml.org,2002:str"
)

// composeCollection composes a block map, block sequence or flow
// collection, then applies its tag.
//
//kicikit:long yaml's composeCollection: the tag checks and their fallbacks read as one decision
func (c *composer) composeCollection(ctx *composeCtx, tok *cst, p props) *ynode {
	tagTok := p.tag
	tagName, tagOK := "", false
	if tagTok != nil {
		tagName, tagOK = ctx.doc.directive.tagName(c.src(*tagTok), func(msg string) {
			c.errTok(*tagTok, "TAG_RESOLVE_FAILED", msg)
		})
	}
	if tok.typ == tBlockSeq {
		lastProp := p.anchor
		if lastProp == nil || (tagTok != nil && tagTok.offset() > lastProp.offset()) {
			lastProp = tagTok
		}
		if lastProp != nil && (p.newlineAfterProp == nil || p.newlineAfterProp.offset() < lastProp.offset()) {
			c.errTok(*lastProp, "MISSING_CHAR", "Missing newline after block sequence props")
		}
	}
	expType := "seq"
	if tok.typ == tBlockMap || (tok.typ == tFlowCollection && c.src(tok.x.fcStart) == "{") {
		expType = "map"
	}
	if tagTok == nil || !tagOK || tagName == "!" || (tagName == tagMap && expType == "map") || (tagName == tagSeq && expType == "seq") {
		return c.resolveCollection(ctx, tok, tagName, tagOK, nil)
	}
	tag := ctx.doc.schema.collectionTag(tagName, expType)
	if tag == nil {
		if kt := ctx.doc.schema.knownTags[tagName]; kt != nil {
			if kt.collection == expType {
				ctx.doc.schema.use(kt)
				tag = kt
			} else {
				want := kt.collection
				if want == "" {
					want = "scalar"
				}
				c.warnTok(*tagTok, "BAD_COLLECTION_TYPE", kt.tag+" used for "+expType+" collection, but expects "+want)
			}
		} else {
			c.warnTok(*tagTok, "TAG_RESOLVE_FAILED", "Unresolved tag: "+tagName)
		}
		if tag == nil {
			return c.resolveCollection(ctx, tok, tagName, tagOK, nil)
		}
	}
	coll := c.resolveCollection(ctx, tok, tagName, tagOK, tag)
	if tag.resolveColl != nil {
		tag.resolveColl(coll, func(msg string) { c.errTok(*tagTok, "TAG_RESOLVE_FAILED", msg) })
	}
	coll.ext().tag = tagName
	return coll
}

func (c *composer) resolveCollection(ctx *composeCtx, tok *cst, tagName string, tagOK bool, tag *tagDef) *ynode {
	var coll *ynode
	switch tok.typ {
	case tBlockMap:
		coll = c.resolveBlockMap(ctx, tok, tag)
	case tBlockSeq:
		coll = c.resolveBlockSeq(ctx, tok, tag)
	default:
		coll = c.resolveFlowCollection(ctx, tok, tag)
	}
	// A tag naming the node's own class, or "!", gives that class's tag.
	own := tagMap
	if coll.kind == ySeq {
		own = tagSeq
	}
	if tag != nil && tag.collClass != collPlain {
		own = tag.tag
	}
	switch {
	case tagOK && (tagName == "!" || tagName == own):
		coll.ext().tag = own
	case tagOK && tagName != "":
		coll.ext().tag = tagName
	}
	return coll
}

func (c *composer) newCollection(kind ykind, tag *tagDef) *ynode {
	n := c.newNode(kind)
	n.yext = &c.slabs.exts.take(1)[0]
	n.set(ownExt)
	if tag != nil {
		n.coll = tag.collClass
	}
	return n
}

//kicikit:long yaml's resolveBlockMap: each entry's key properties, key, value properties and value, with the checks between them
func (c *composer) resolveBlockMap(ctx *composeCtx, bm *cst, tag *tagDef) *ynode {
	m := c.newCollection(yMap, tag)
	m.pairs = list(&c.slabs.pairs, len(bm.x.items))
	ctx.atRoot = false
	offset := bm.offset()
	commentEnd := -1
	var keys keySet
	for i, it := range bm.x.items {
		bm.x.items[i] = nil // composed once: let the syntax tree go as it is read
		keyProps := c.resolveProps(it.start, propsCtx{indicator: tExplicitKeyInd, next: c.keyNext(it.key, it.sep),
			offset: offset, parentIndent: bm.indent(), startOnNewline: true})
		implicitKey := keyProps.found == nil
		if implicitKey {
			if it.key != nil {
				if it.key.typ == tBlockSeq {
					c.errAt(offset, "BLOCK_AS_IMPLICIT_KEY", "A block sequence may not be used as an implicit map key")
				} else if hasIndent(it.key) && it.key.indent() != bm.indent() {
					c.errAt(offset, "BAD_INDENT", "All mapping items must start at the same column")
				}
			}
			if keyProps.anchor == nil && keyProps.tag == nil && it.sep == nil {
				commentEnd = keyProps.end
				if keyProps.comment != "" {
					m.comment = joinComment(m.comment, keyProps.comment)
				}
				continue
			}
			if keyProps.newlineAfterProp != nil || containsNewline(c.text, it.key) {
				if it.key != nil {
					c.errCst(it.key, "MULTILINE_IMPLICIT_KEY", "Implicit keys need to be on a single line")
				} else {
					c.errTok(it.start[len(it.start)-1], "MULTILINE_IMPLICIT_KEY", "Implicit keys need to be on a single line")
				}
			}
		} else if keyProps.found.indent() != bm.indent() {
			c.errAt(offset, "BAD_INDENT", "All mapping items must start at the same column")
		}
		ctx.atKey = true
		keyStart := keyProps.end
		var keyNode *ynode
		if it.key != nil {
			keyNode = c.composeNode(ctx, it.key, keyProps)
		} else {
			keyNode = c.composeEmptyNode(ctx, keyStart, it.start, -1, keyProps)
		}
		ctx.atKey = false
		if keys.includes(m.pairs, keyNode) {
			c.errAt(keyStart, "DUPLICATE_KEY", "Map keys must be unique")
		}
		valueProps := c.resolveProps(it.sep, propsCtx{indicator: tMapValueInd, next: nextOf(it.value),
			offset: keyNode.rng.end(), parentIndent: bm.indent(), startOnNewline: it.key == nil || it.key.typ == tBlockScalar})
		offset = valueProps.end
		if valueProps.found == nil {
			// A key without a value.
			if implicitKey {
				c.err(keyNode.rng.start(), keyNode.rng.valueEnd(), "MISSING_CHAR", "Implicit map keys need to be followed by map values")
			}
			if valueProps.comment != "" {
				keyNode.ext().comment = joinComment(keyNode.comment, valueProps.comment)
			}
			m.pairs = append(m.pairs, ypair{key: keyNode})
			keys.add(keyNode)
			continue
		}
		if implicitKey {
			if it.value != nil && it.value.typ == tBlockMap && !valueProps.hasNewline {
				c.errAt(offset, "BLOCK_AS_IMPLICIT_KEY", "Nested mappings are not allowed in compact mappings")
			}
			if c.longerThan(keyProps.start, valueProps.found.offset(), 1024) {
				c.err(keyNode.rng.start(), keyNode.rng.valueEnd(), "KEY_OVER_1024_CHARS", "The : indicator must be at most 1024 chars after the start of an implicit block mapping key")
			}
		}
		var valueNode *ynode
		if it.value != nil {
			valueNode = c.composeNode(ctx, it.value, valueProps)
		} else {
			valueNode = c.composeEmptyNode(ctx, offset, it.sep, -1, valueProps)
		}
		offset = valueNode.rng.end()
		m.pairs = append(m.pairs, ypair{key: keyNode, value: valueNode})
		keys.add(keyNode)
	}
	if commentEnd != -1 && commentEnd < offset {
		c.errAt(commentEnd, "IMPOSSIBLE", "Map comment with trailing content")
	}
	end := offset
	if commentEnd != -1 {
		end = commentEnd
	}
	m.rng = newSpan(bm.offset(), offset, end)
	return m
}

// hasIndent reports whether yaml's token has an indent: every syntax tree
// node but a document and an error.
func hasIndent(t *cst) bool {
	return t.typ != tDocument && t.typ != tError && t.typ != tDocEnd
}

// joinComment joins two comments with a line break, or returns the one
// that is not empty, as each of yaml's joins does.
func joinComment(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// longerThan reports whether more than n UTF-16 code units lie between the
// offsets a and b, as yaml counts the 1024 characters of an implicit key.
func (c *composer) longerThan(a, b, n int) bool {
	if b-a <= n { // a byte is at most one code unit
		return false
	}
	if a < 0 {
		a = 0
	}
	return unitsBetween(c.text, a, b) > n
}

func (c *composer) resolveBlockSeq(ctx *composeCtx, bs *cst, tag *tagDef) *ynode {
	seq := c.newCollection(ySeq, tag)
	seq.items = list(&c.slabs.items, len(bs.x.items))
	ctx.atRoot = false
	ctx.atKey = false
	offset := bs.offset()
	commentEnd := -1
	for i, it := range bs.x.items {
		bs.x.items[i] = nil
		p := c.resolveProps(it.start, propsCtx{indicator: tSeqItemInd, next: nextOf(it.value), offset: offset,
			parentIndent: bs.indent(), startOnNewline: true})
		if p.found == nil {
			if p.anchor == nil && p.tag == nil && it.value == nil {
				commentEnd = p.end
				if p.comment != "" {
					seq.comment = p.comment
				}
				continue
			}
			if it.value != nil && it.value.typ == tBlockSeq {
				c.errAt(p.end, "BAD_INDENT", "All sequence items must start at the same column")
			} else {
				c.errAt(offset, "MISSING_CHAR", "Sequence item without - indicator")
			}
		}
		var n *ynode
		if it.value != nil {
			n = c.composeNode(ctx, it.value, p)
		} else {
			n = c.composeEmptyNode(ctx, p.end, it.start, -1, p)
		}
		offset = n.rng.end()
		seq.items = append(seq.items, n)
	}
	end := offset
	if commentEnd != -1 {
		end = commentEnd
	}
	seq.rng = newSpan(bs.offset(), offset, end)
	return seq
}

func isBlock(t *cst) bool {
	return t != nil && (t.typ == tBlockMap || t.typ == tBlockSeq)
}

//kicikit:long yaml's resolveFlowCollection: each item as a value or a pair, with the flow checks between them
func (c *composer) resolveFlowCollection(ctx *composeCtx, fc *cst, tag *tagDef) *ynode {
	isMap := c.src(fc.x.fcStart) == "{"
	fcName := "flow sequence"
	coll := c.newCollection(ySeq, tag)
	if isMap {
		fcName = "flow map"
		coll.kind = yMap
	}
	if isMap {
		coll.pairs = list(&c.slabs.pairs, len(fc.x.items))
	} else {
		coll.items = list(&c.slabs.items, len(fc.x.items))
	}
	atRoot := ctx.atRoot
	ctx.atRoot = false
	ctx.atKey = false
	offset := fc.offset() + fc.x.fcStart.size()
	var keys keySet
	nItems := len(fc.x.items)
	for i, it := range fc.x.items {
		fc.x.items[i] = nil
		p := c.resolveProps(it.start, propsCtx{flow: fcName, indicator: tExplicitKeyInd, next: c.keyNext(it.key, it.sep),
			offset: offset, parentIndent: fc.indent()})
		if p.found == nil {
			if p.anchor == nil && p.tag == nil && it.sep == nil && it.value == nil {
				if i == 0 && p.comma != nil {
					c.errTok(*p.comma, "UNEXPECTED_TOKEN", "Unexpected , in "+fcName)
				} else if i < nItems-1 {
					c.errAt(p.start, "UNEXPECTED_TOKEN", "Unexpected empty item in "+fcName)
				}
				if p.comment != "" {
					coll.comment = joinComment(coll.comment, p.comment)
				}
				offset = p.end
				continue
			}
			if !isMap && containsNewline(c.text, it.key) {
				c.errCst(it.key, "MULTILINE_IMPLICIT_KEY", "Implicit keys of flow sequence pairs need to be on a single line")
			}
		}
		if i == 0 {
			if p.comma != nil {
				c.errTok(*p.comma, "UNEXPECTED_TOKEN", "Unexpected , in "+fcName)
			}
		} else {
			if p.comma == nil {
				c.errAt(p.start, "MISSING_CHAR", "Missing , between "+fcName+" items")
			}
			if p.comment != "" {
				c.movePrevItemComment(coll, it.start, &p)
			}
		}
		if !isMap && it.sep == nil && p.found == nil {
			// A value in a sequence: no key, no ? or :.
			var v *ynode
			if it.value != nil {
				v = c.composeNode(ctx, it.value, p)
			} else {
				v = c.composeEmptyNode(ctx, p.end, it.sep, -1, p)
			}
			coll.items = append(coll.items, v)
			offset = v.rng.end()
			if isBlock(it.value) {
				c.err(v.rng.start(), v.rng.valueEnd(), "BLOCK_IN_FLOW", "Block collections are not allowed within flow collections")
			}
			continue
		}
		offset = c.flowPair(ctx, coll, it, p, fcName, isMap, &keys)
	}
	return c.closeFlowCollection(fc, coll, offset, isMap, fcName, atRoot)
}

// movePrevItemComment gives a comment on the line of the previous item to
// that item.
func (c *composer) movePrevItemComment(coll *ynode, start []token, p *props) {
	prevItemComment := ""
loop:
	for _, st := range start {
		switch st.typ {
		case tComma, tSpace:
		case tComment:
			prevItemComment = c.src(st)[1:]
			break loop
		default:
			break loop
		}
	}
	if prevItemComment == "" {
		return
	}
	var prev *ynode
	if coll.kind == yMap {
		last := coll.pairs[len(coll.pairs)-1]
		prev = last.value
		if prev == nil {
			prev = last.key
		}
	} else {
		prev = coll.items[len(coll.items)-1]
	}
	prev.ext().comment = joinComment(prev.comment, prevItemComment)
	if len(prevItemComment)+1 <= len(p.comment) {
		p.comment = p.comment[len(prevItemComment)+1:]
	} else {
		p.comment = ""
	}
}

// flowPair composes a key and value pair of a flow collection and returns
// the offset after it.
//
//kicikit:long yaml's pair handling in flow collections, checks included
func (c *composer) flowPair(ctx *composeCtx, coll *ynode, it *cstItem, p props, fcName string, isMap bool, keys *keySet) int {
	ctx.atKey = true
	keyStart := p.end
	var keyNode *ynode
	if it.key != nil {
		keyNode = c.composeNode(ctx, it.key, p)
	} else {
		keyNode = c.composeEmptyNode(ctx, keyStart, it.start, -1, p)
	}
	if isBlock(it.key) {
		c.err(keyNode.rng.start(), keyNode.rng.valueEnd(), "BLOCK_IN_FLOW", "Block collections are not allowed within flow collections")
	}
	ctx.atKey = false
	valueProps := c.resolveProps(it.sep, propsCtx{flow: fcName, indicator: tMapValueInd, next: nextOf(it.value),
		offset: keyNode.rng.end(), parentIndent: 0})
	if valueProps.found != nil {
		if !isMap && p.found == nil {
			for i := range it.sep {
				if &it.sep[i] == valueProps.found {
					break
				}
				if it.sep[i].typ == tNewline {
					c.errTok(it.sep[i], "MULTILINE_IMPLICIT_KEY", "Implicit keys of flow sequence pairs need to be on a single line")
					break
				}
			}
			if c.longerThan(p.start, valueProps.found.offset(), 1024) {
				c.errTok(*valueProps.found, "KEY_OVER_1024_CHARS", "The : indicator must be at most 1024 chars after the start of an implicit flow sequence key")
			}
		}
	} else if it.value != nil {
		if isScalarSource(it.value) && strings.HasPrefix(it.value.src(c.text), ":") {
			c.errCst(it.value, "MISSING_CHAR", "Missing space after : in "+fcName)
		} else {
			c.errAt(valueProps.start, "MISSING_CHAR", "Missing , or : between "+fcName+" items")
		}
	}
	var valueNode *ynode
	switch {
	case it.value != nil:
		valueNode = c.composeNode(ctx, it.value, valueProps)
		if isBlock(it.value) {
			c.err(valueNode.rng.start(), valueNode.rng.valueEnd(), "BLOCK_IN_FLOW", "Block collections are not allowed within flow collections")
		}
	case valueProps.found != nil:
		valueNode = c.composeEmptyNode(ctx, valueProps.end, it.sep, -1, valueProps)
	case valueProps.comment != "":
		keyNode.ext().comment = joinComment(keyNode.comment, valueProps.comment)
	}
	pair := ypair{key: keyNode, value: valueNode}
	if isMap {
		if keys.includes(coll.pairs, keyNode) {
			c.errAt(keyStart, "DUPLICATE_KEY", "Map keys must be unique")
		}
		coll.pairs = append(coll.pairs, pair)
		keys.add(keyNode)
	} else {
		m := c.newCollection(yMap, nil)
		m.pairs = []ypair{pair}
		endNode := keyNode
		if valueNode != nil {
			endNode = valueNode
		}
		m.rng = newSpan(keyNode.rng.start(), endNode.rng.valueEnd(), endNode.rng.end())
		coll.items = append(coll.items, m)
	}
	if valueNode != nil {
		return valueNode.rng.end()
	}
	return valueProps.end
}

// isScalarSource reports whether the token has a source yaml would look at
// (flow scalars, aliases, block scalars).
func isScalarSource(t *cst) bool {
	switch t.typ {
	case tAlias, tScalar, tSingleQuoted, tDoubleQuoted, tBlockScalar:
		return true
	}
	return false
}

// closeFlowCollection checks the closing bracket and reads what follows it.
func (c *composer) closeFlowCollection(fc *cst, coll *ynode, offset int, isMap bool, fcName string, atRoot bool) *ynode {
	expectedEnd := "]"
	if isMap {
		expectedEnd = "}"
	}
	var ee []token
	cePos := offset
	if len(fc.end) > 0 && c.src(fc.end[0]) == expectedEnd {
		cePos = fc.end[0].end()
		ee = fc.end[1:]
	} else {
		name := strings.ToUpper(fcName[:1]) + fcName[1:]
		if atRoot {
			c.errAt(offset, "MISSING_CHAR", name+" must end with a "+expectedEnd)
		} else {
			c.errAt(offset, "BAD_INDENT", name+" in block collection must be sufficiently indented and end with a "+expectedEnd)
		}
		if len(fc.end) > 0 {
			ee = fc.end[1:]
			if fc.end[0].size() != 1 {
				ee = fc.end
			}
		}
	}
	if len(ee) > 0 {
		comment, end := c.resolveEnd(ee, cePos, true)
		if comment != "" {
			coll.comment = joinComment(coll.comment, comment)
		}
		coll.rng = newSpan(fc.offset(), cePos, end)
	} else {
		coll.rng = newSpan(fc.offset(), cePos, cePos)
	}
	return coll
}

// keySet answers yaml's uniqueKeys check: two scalar keys collide when
// their values are === in JavaScript. Small maps are scanned; large ones
// keep a set, so that a map of many keys is not quadratic.
type keySet struct {
	seen map[scalarKey]struct{}
}

type scalarKey struct {
	kind Kind
	b    bool
	num  float64
	str  string
}

// keyOf returns the key under which JavaScript's === finds n equal to
// others, or false when n equals nothing but itself (NaN, objects,
// collections, aliases).
func keyOf(n *ynode) (scalarKey, bool) {
	if n.kind != yScalar {
		return scalarKey{}, false
	}
	v := n.val()
	switch v.kind {
	case Null:
		return scalarKey{kind: Null}, true
	case Bool:
		return scalarKey{kind: Bool, b: v.b}, true
	case Number:
		if math.IsNaN(v.num) {
			return scalarKey{}, false
		}
		num := v.num
		if num == 0 {
			num = 0 // -0 === 0
		}
		return scalarKey{kind: Number, num: num}, true
	case String:
		return scalarKey{kind: String, str: v.str}, true
	}
	return scalarKey{}, false
}

const keySetScan = 16

func (s *keySet) includes(pairs []ypair, key *ynode) bool {
	k, ok := keyOf(key)
	if len(pairs) < keySetScan {
		if !ok {
			return false
		}
		for _, p := range pairs {
			if pk, pok := keyOf(p.key); pok && pk == k {
				return true
			}
		}
		return false
	}
	if s.seen == nil {
		s.seen = make(map[scalarKey]struct{}, 2*len(pairs))
		for _, p := range pairs {
			if pk, pok := keyOf(p.key); pok {
				s.seen[pk] = struct{}{}
			}
		}
	}
	if !ok {
		return false
	}
	_, dup := s.seen[k]
	return dup
}

// add records key after includes, once the map has grown to keep a set.
func (s *keySet) add(key *ynode) {
	if s.seen == nil {
		return
	}
	if k, ok := keyOf(key); ok {
		s.seen[k] = struct{}{}
	}
}
