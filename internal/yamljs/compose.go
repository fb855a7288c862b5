package yamljs

import (
	"strings"
	"unicode/utf8"

	"github.com/kicikit/kicikit/internal/jsstr"
)

// The composer turns yaml's syntax tree into its document model (ynode):
// scalars resolved by the schema's tags, collections, aliases, with every
// problem yaml reports.

type ykind uint8

const (
	yScalar ykind = iota
	yMap
	ySeq
	yAlias
)

// collKind is the class a tag gives a collection.
type collKind uint8

const (
	collPlain collKind = iota
	collSet            // !!set: a map read as a JavaScript Set
	collOMap           // !!omap: a seq of pairs read as a JavaScript Map
	collPairs          // !!pairs: a seq of pairs read as one-key objects
)

// ynode is a node of yaml's document model. It embeds the Node it
// converts to, so that a scalar's value is built once; its rarer parts
// (properties, children, comments) are in yext.
//
// A large text has millions of them: the fields after Node take 24 bytes
// (a ynode is 128), which one more byte beside kind, coll and flags would
// make 32.
type ynode struct {
	Node // a scalar's value and style; the JavaScript value once converted
	*yext
	rng   span
	kind  ykind
	coll  collKind
	flags nodeFlags
}

// nodeFlags are a ynode's yes-or-no facts, a bit each.
type nodeFlags uint8

const (
	spaceBefore nodeFlags = 1 << iota // a blank line before it, which a stringified key shows
	converted                         // Node was handed out: converting again makes a new one
	ownExt                            // yext is this node's own, not the shared empty one
)

func (n *ynode) is(f nodeFlags) bool { return n.flags&f != 0 }
func (n *ynode) set(f nodeFlags)     { n.flags |= f }

// span is where a node is in the text: where it starts, where its value
// ends, and where the node ends (its trailing comment included). Its
// places are int32, as a token's are (see token).
type span [3]int32

func newSpan(start, valueEnd, end int) span {
	return span{int32(start), int32(valueEnd), int32(end)}
}

func (s span) start() int      { return int(s[0]) }
func (s span) valueEnd() int   { return int(s[1]) }
func (s span) end() int        { return int(s[2]) }
func (s *span) setEnd(end int) { s[2] = int32(end) }

// yext holds what most scalars lack.
type yext struct {
	anchor  string
	tag     string // the resolved tag, "" when none
	source  string // a scalar's text before its tag resolved it, when its value is no string
	format  string // "HEX", "OCT", "EXP", "BIN", "TIME" or ""
	minFrac int    // a float's fraction digits, when its source ends in 0
	items   []*ynode
	pairs   []ypair // a map's, or a sequence's read as pairs
	alias   string  // an alias's anchor name
	// Comments, which a collection used as a key shows.
	comment       string
	commentBefore string
}

// ext returns n's own yext, for writing.
func (n *ynode) ext() *yext {
	if !n.is(ownExt) {
		e := *n.yext
		n.yext = &e
		n.set(ownExt)
	}
	return n.yext
}

// text is a scalar's source text (its value before tag resolution).
func (n *ynode) text() string {
	if n.Kind == String {
		return n.Str
	}
	return n.source
}

// val is a scalar's value.
func (n *ynode) val() scalarValue {
	return scalarValue{kind: n.Kind, b: n.Bool, num: n.Num, str: n.Str}
}

func (n *ynode) setVal(v scalarValue) {
	n.Kind, n.Bool, n.Num, n.Str = v.kind, v.b, v.num, v.str
}

// ypair is an entry of a map; value nil is JavaScript's null (`? a`).
type ypair struct {
	key, value *ynode
}

// scalarValue is the JavaScript value of a scalar.
type scalarValue struct {
	kind Kind
	b    bool
	num  float64
	str  string // a string's, a Buffer's bytes, a Symbol's description
}

// problem is one error or warning yaml reports, at text offsets.
type problem struct {
	start, end int
	code       string
	message    string
	oneUnit    bool // yaml's extent is one code unit, which end rounds up to a character
	tooDeep    bool // the refusal of the collection where the parse stopped
}

// document is one composed document.
type document struct {
	contents  *ynode
	rng       span
	errors    []problem
	directive *directives
	docStart  bool
	schema    *schema
}

// composeCtx is yaml's ctx of composition.
type composeCtx struct {
	atKey  bool
	atRoot bool
	doc    *document
}

type composer struct {
	slabs        *composerSlabs // its nodes
	sawAlias     bool
	noExt        *yext            // the shared empty yext
	sources      map[string]*yext // shared yexts of a source alone (setSource)
	text         string
	doc          *document
	atDirectives bool
	errors       []problem
	warnings     []problem
	directives   *directives
	depth        int
	tooDeep      *cst                 // the collection where the parse stopped (parser.tooDeep)
	onDoc        func(*document) bool // false: stop
	stopped      bool
}

// newComposer returns a composer of text that hands each document to
// onDoc; slabs nil is slabs of its own.
func newComposer(text string, onDoc func(*document) bool, slabs *composerSlabs) *composer {
	if slabs == nil {
		slabs = newComposerSlabs(false)
	}
	return &composer{text: text, directives: newDirectives(), onDoc: onDoc, noExt: &yext{}, slabs: slabs}
}

// newNode allocates a node, in chunks: a large file has millions.
func (c *composer) newNode(kind ykind) *ynode {
	n := &c.slabs.nodes.take(1)[0]
	n.kind, n.yext = kind, c.noExt
	return n
}

// src is a token's source.
func (c *composer) src(t token) string { return t.src(c.text) }

func (c *composer) err(start, end int, code, msg string) {
	c.errors = append(c.errors, problem{start: start, end: end, code: code, message: msg})
}

// errAt reports at one character: yaml's [off, off+1] counts a UTF-16
// code unit, so the end is after the whole character at off.
func (c *composer) errAt(off int, code, msg string) {
	c.errors = append(c.errors, problem{start: off, end: off + charLen(c.text, off), code: code, message: msg, oneUnit: true})
}

// yaml counts offsets in UTF-16 code units, this package in bytes. Where
// yaml's arithmetic on offsets lands in the middle of a character's
// surrogate pair (it adds a token's length to an offset the token does not
// start at), the offset here is two bytes into the character's four: such
// an offset is carried on as yaml carries its own, and reported as the
// character's end, where a position inside a character is placed.

// isMidPair reports whether off is in the middle of a character.
func isMidPair(text string, off int) bool {
	return off > 0 && off < len(text) && text[off]&0xc0 == 0x80
}

// advanceUnits returns the offset n UTF-16 code units after off.
func advanceUnits(text string, off, n int) int {
	if n > 0 && isMidPair(text, off) {
		off += 2
		n--
	}
	for n > 0 && off < len(text) {
		r, size := utf8.DecodeRuneInString(text[off:])
		if r >= 0x10000 && n == 1 {
			return off + 2
		}
		off += size
		n--
		if r >= 0x10000 {
			n--
		}
	}
	return off
}

// retreatUnits returns the offset n UTF-16 code units before off.
func retreatUnits(text string, off, n int) int {
	if n > 0 && isMidPair(text, off) {
		off -= 2
		n--
	}
	for n > 0 && off > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:off])
		if r >= 0x10000 && n == 1 {
			return off - 2
		}
		off -= size
		n--
		if r >= 0x10000 {
			n--
		}
	}
	return off
}

// unitsBetween counts the code units from a to b, past the text's end
// counting a unit a byte, as JavaScript counts past a string's end.
func unitsBetween(text string, a, b int) int {
	extra := 0
	if b > len(text) {
		extra, b = b-len(text), len(text)
	}
	if a > b {
		return extra - (a - b)
	}
	if isMidPair(text, a) {
		a += 2
		extra++
	}
	if isMidPair(text, b) {
		b -= 2
		extra++
	}
	if a > b { // both in the middle of one character
		return 0
	}
	return jsstr.UTF16Len(text[a:b]) + extra
}

// charLen is the length in bytes of the character at off, 1 past the end.
func charLen(text string, off int) int {
	if off < 0 || off >= len(text) || text[off] < utf8.RuneSelf {
		return 1
	}
	_, n := utf8.DecodeRuneInString(text[off:])
	return n
}

func (c *composer) errTok(t token, code, msg string) {
	c.err(t.offset(), t.end(), code, msg)
}

// errCst reports at a syntax tree node: its source's extent, or one
// character for a collection, which has no source.
func (c *composer) errCst(n *cst, code, msg string) {
	switch n.typ {
	case tBlockMap, tBlockSeq, tFlowCollection, tDocument:
		c.errAt(n.offset(), code, msg)
	case tBlockScalar:
		// yaml adds the length of the content to the header's offset.
		c.err(n.offset(), advanceUnits(c.text, n.offset(), jsstr.UTF16Len(n.src(c.text))), code, msg)
	default:
		c.err(n.offset(), n.offset()+n.srcLen(), code, msg)
	}
}

func (c *composer) warnAt(off int, code, msg string) {
	c.warnings = append(c.warnings, problem{start: off, end: off + charLen(c.text, off), code: code, message: msg})
}

func (c *composer) warnTok(t token, code, msg string) {
	c.warnings = append(c.warnings, problem{start: t.offset(), end: t.end(), code: code, message: msg})
}

// next advances the composer by one top-level syntax tree node.
func (c *composer) next(tok *cst) {
	if c.stopped {
		return
	}
	switch tok.typ {
	case tDirective:
		c.directive(tok)
	case tDocument:
		doc := c.composeDoc(tok)
		if c.atDirectives && !doc.docStart {
			c.errCst(tok, "MISSING_CHAR", "Missing directives-end/doc-start indicator line")
		}
		c.decorate(doc, false)
		if c.doc != nil && !c.emit(c.doc) {
			return
		}
		c.doc = doc
		c.atDirectives = false
	case tBOM, tSpace, tComment, tNewline:
	case tError:
		c.parseError(tok)
	case tDocEnd:
		if c.doc == nil {
			c.err(tok.offset(), tok.offset()+tok.srcLen(), "UNEXPECTED_TOKEN", "Unexpected doc-end without preceding document")
			return
		}
		_, end := c.resolveEnd(tok.end, tok.offset()+tok.srcLen(), true)
		c.decorate(c.doc, true)
		c.doc.rng.setEnd(end)
	default:
		c.errCst(tok, "UNEXPECTED_TOKEN", "Unsupported token "+tok.typ.String())
	}
}

// directive reads a directive line into the stream's directives.
func (c *composer) directive(tok *cst) {
	end := tok.offset() + tok.srcLen()
	c.directives.add(tok.src(c.text), func(off int, msg string, warning bool) {
		p := problem{start: tok.offset() + off, end: end, code: "BAD_DIRECTIVE", message: msg}
		if warning {
			c.warnings = append(c.warnings, p)
		} else {
			c.errors = append(c.errors, p)
		}
	})
	c.atDirectives = true
}

// parseError reports an error the parser found between documents, with
// the current document's errors when there is one.
func (c *composer) parseError(tok *cst) {
	msg, src := tok.message(), tok.src(c.text)
	if src != "" {
		msg += ": " + jsonQuote(src)
	}
	// yaml's end is offset + source.length in code units: past the next
	// character for a flow-error-end, whose "\x18" is not in the text.
	e := problem{start: tok.offset(), end: advanceUnits(c.text, tok.offset(), jsstr.UTF16Len(src)), code: "UNEXPECTED_TOKEN", message: msg}
	if c.atDirectives || c.doc == nil {
		c.errors = append(c.errors, e)
	} else {
		c.doc.errors = append(c.doc.errors, e)
	}
}

func (c *composer) emit(doc *document) bool {
	if !c.onDoc(doc) {
		c.stopped = true
	}
	return !c.stopped
}

// decorate moves the errors collected so far to doc.
func (c *composer) decorate(doc *document, afterDoc bool) {
	if afterDoc {
		doc.errors = append(doc.errors, c.errors...)
	} else {
		doc.errors = c.errors
	}
	c.errors = nil
	c.warnings = nil
}

// end yields the last document, or an empty one when there was none.
func (c *composer) end(endOffset int) {
	if c.stopped {
		return
	}
	if c.doc != nil {
		c.decorate(c.doc, true)
		c.emit(c.doc)
		c.doc = nil
		return
	}
	d := c.directives.atDocument()
	doc := &document{directive: d, schema: schemaFor(d)}
	if c.atDirectives {
		c.errAt(endOffset, "MISSING_CHAR", "Missing directives-end indicator line")
	}
	doc.rng = newSpan(0, endOffset, endOffset)
	c.decorate(doc, false)
	c.emit(doc)
}

func (c *composer) composeDoc(tok *cst) *document {
	d := c.directives.atDocument()
	doc := &document{directive: d, schema: schemaFor(d)}
	ctx := &composeCtx{atRoot: true, doc: doc}
	var next nextTok
	if tok.x.value != nil {
		next = nextOf(tok.x.value)
	} else {
		next = c.nextOfTokens(tok.end)
	}
	p := c.resolveProps(tok.x.start, propsCtx{indicator: tDocStart, next: next, offset: tok.offset(), startOnNewline: true})
	if p.found != nil {
		doc.docStart = true
		if v := tok.x.value; v != nil && (v.typ == tBlockMap || v.typ == tBlockSeq) && !p.hasNewline {
			c.errAt(p.end, "MISSING_CHAR", "Block collection cannot start on same line with directives-end marker")
		}
	}
	if tok.x.value != nil {
		doc.contents = c.composeNode(ctx, tok.x.value, p)
	} else {
		doc.contents = c.composeEmptyNode(ctx, p.end, tok.x.start, -1, p)
	}
	contentEnd := doc.contents.rng.end()
	_, end := c.resolveEnd(tok.end, contentEnd, false)
	doc.rng = newSpan(tok.offset(), contentEnd, end)
	return doc
}

// MaxDepth is the deepest nesting of collections this reader reads: a
// collection nested in MaxDepth others is refused where it opens, with
// yaml's RESOURCE_EXHAUSTION and JavaScript's "Maximum call stack size
// exceeded". yaml's composer recurses, a few frames a level, and reports
// the stack overflow JavaScript throws; where that comes depends on the
// size of the frames, not on the document alone: on how far V8 has
// optimised yaml's code, and on the stack parse()'s caller has used.
// testdata/gen/depth.js measured it under Node v20.20.2's default stack,
// yaml 2.9.1, on seven shapes of nesting (flow sequences and maps, block
// maps and sequences, compact and mixed ones): the first parse of a fresh
// process reads at most 785 levels (flow collections, from an ES module,
// as the orchestrator calls parse()) to 953 (block sequences, from
// CommonJS); once V8 has optimised yaml's code (200 parses of 300 levels,
// or 1,000 of 700), 1,836 to 2,122. An earlier run read 1,561 block map
// levels once warm, and one nesting more aborted node at times ("FATAL
// ERROR: RegExpCompiler Allocation failed") rather than throw.
//
// MaxDepth is a depth at which node certainly throws, not one it reaches
// in a given run: 3,000 levels, 40% past the deepest it read, and no
// shape past it parsed in any of those conditions (depth.js beyond 3000).
// Nor did any shape read more than 2,050 levels in a process that had
// first parsed each shape 3,000 times, 1,200 levels deep (depth.js
// soak), warmer than reading a config makes it. So this reader refuses no
// nesting that node read in any of these runs; it reads some that node
// refuses (786 to 3,000 levels, as node's frames fall).
//
// The parser stops at the opening past MaxDepth (parser.checkDepth): the
// memory a nesting takes stops growing there, where node builds the whole
// syntax tree before its composer overflows (50 MB of "[" take node past
// its heap, 4.7 GB, and took this reader 16 GB before the parser
// stopped there).
const MaxDepth = 3000

//kicikit:long yaml's composeNode: one case per kind of syntax tree node, then the properties every kind shares
func (c *composer) composeNode(ctx *composeCtx, tok *cst, p props) *ynode {
	var n *ynode
	switch tok.typ {
	case tAlias:
		n = c.composeAlias(tok)
		if p.anchor != nil || p.tag != nil {
			c.errCst(tok, "ALIAS_PROPS", "An alias node must not specify any properties")
		}
	case tScalar, tSingleQuoted, tDoubleQuoted, tBlockScalar:
		n = c.composeScalar(ctx, tok, p.tag)
		if p.anchor != nil {
			n.ext().anchor = c.src(*p.anchor)[1:]
		}
	case tBlockMap, tBlockSeq, tFlowCollection:
		if c.depth >= MaxDepth || tok == c.tooDeep {
			c.errCst(tok, "RESOURCE_EXHAUSTION", "Maximum call stack size exceeded")
			c.errors[len(c.errors)-1].tooDeep = tok == c.tooDeep
			break
		}
		c.depth++
		n = c.composeCollection(ctx, tok, p)
		c.depth--
		if p.anchor != nil {
			n.ext().anchor = c.src(*p.anchor)[1:]
		}
	default:
		msg := "Unsupported token (type: " + tok.typ.String() + ")"
		if tok.typ == tError {
			msg = tok.message()
		}
		c.errCst(tok, "UNEXPECTED_TOKEN", msg)
	}
	if n == nil {
		n = c.composeEmptyNode(ctx, tok.offset(), nil, -1, p)
	}
	if p.anchor != nil && n.kind != yAlias && n.anchor == "" {
		c.errTok(*p.anchor, "BAD_ALIAS", "Anchor cannot be an empty string")
	}
	if p.spaceBefore {
		n.set(spaceBefore)
	}
	if p.comment != "" {
		if tok.typ == tScalar && tok.src(c.text) == "" {
			n.ext().comment = p.comment
		} else {
			n.ext().commentBefore = p.comment
		}
	}
	return n
}

// composeEmptyNode is an empty scalar (null) placed after the tokens in
// before (up to pos, -1 for all of them), or at offset.
func (c *composer) composeEmptyNode(ctx *composeCtx, offset int, before []token, pos int, p props) *ynode {
	tok := &cst{typ: tScalar, off: int32(c.emptyScalarPosition(offset, before, pos)), ind: -1}
	n := c.composeScalar(ctx, tok, p.tag)
	if p.anchor != nil {
		n.ext().anchor = c.src(*p.anchor)[1:]
		if n.anchor == "" {
			c.errTok(*p.anchor, "BAD_ALIAS", "Anchor cannot be an empty string")
		}
	}
	if p.spaceBefore {
		n.set(spaceBefore)
	}
	if p.comment != "" {
		n.ext().comment = p.comment
		n.rng.setEnd(p.end)
	}
	return n
}

// emptyScalarPosition is yaml's: offset moved back over the white space
// and comments that end before, then on over the spaces after the last
// node, by their lengths in code units.
func (c *composer) emptyScalarPosition(offset int, before []token, pos int) int {
	if before == nil {
		return offset
	}
	if pos < 0 {
		pos = len(before)
	}
	for i := pos - 1; i >= 0; i-- {
		switch t := before[i]; t.typ {
		case tSpace, tComment, tNewline:
			if offset == t.end() {
				offset = t.offset()
			} else {
				offset = retreatUnits(c.text, offset, jsstr.UTF16Len(c.src(t)))
			}
			continue
		}
		// An empty scalar is just after the last node, but yaml places it
		// after any white space, which is more useful.
		for i++; i < len(before) && before[i].typ == tSpace; i++ {
			offset = c.after(offset, before[i])
		}
		break
	}
	return offset
}

func (c *composer) composeAlias(tok *cst) *ynode {
	name := tok.src(c.text)[1:]
	if name == "" {
		c.errAt(tok.offset(), "BAD_ALIAS", "Alias cannot be an empty string")
	}
	if strings.HasSuffix(name, ":") {
		c.warnAt(tok.offset()+tok.srcLen()-1, "BAD_ALIAS", "Alias ending in : is ambiguous")
	}
	valueEnd := tok.offset() + tok.srcLen()
	comment, end := c.resolveEnd(tok.end, valueEnd, true)
	n := c.newNode(yAlias)
	c.sawAlias = true
	n.rng = newSpan(tok.offset(), valueEnd, end)
	n.ext().alias = name
	if comment != "" {
		n.comment = comment
	}
	return n
}

// containsNewline reports whether a key's tokens hold a line break. It
// walks a flow collection's items with a stack of its own: a key may nest
// far deeper than the composer will go.
func containsNewline(text string, key *cst) bool {
	stack := []*cst{key}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil {
			continue
		}
		switch n.typ {
		case tAlias, tScalar, tDoubleQuoted, tSingleQuoted:
			if strings.IndexByte(n.src(text), '\n') >= 0 || includesToken(n.end, tNewline) {
				return true
			}
		case tFlowCollection:
			for _, it := range n.x.items {
				if includesToken(it.start, tNewline) || includesToken(it.sep, tNewline) {
					return true
				}
				stack = append(stack, it.value, it.key)
			}
		default:
			return true
		}
	}
	return false
}
