package yamljs

import (
	"strconv"
	"strings"
)

// The parser builds yaml's concrete syntax tree from the lexer's tokens: a
// stack of the constructions being built, each closed ("popped") into its
// parent when a token shows that it has ended. Every source byte stays in
// the tree, so the composer can place every node and every error.

// tokType is the type of a token or of a syntax tree node.
type tokType uint8

const (
	tNone tokType = iota
	tBOM
	tDocMode
	tFlowErrorEnd
	tScalar
	tDocStart
	tDocEnd
	tNewline
	tSeqItemInd
	tExplicitKeyInd
	tMapValueInd
	tFlowMapStart
	tFlowMapEnd
	tFlowSeqStart
	tFlowSeqEnd
	tComma
	tSpace
	tComment
	tDirectiveLine
	tAlias
	tAnchor
	tTag
	tSingleQuoted
	tDoubleQuoted
	tBlockScalarHeader
	// Syntax tree nodes.
	tBlockScalar
	tBlockMap
	tBlockSeq
	tFlowCollection
	tDocument
	tDirective
	tError
)

// String returns the name yaml gives the type, which its messages show.
func (t tokType) String() string {
	switch t {
	case tBOM:
		return "byte-order-mark"
	case tDocMode:
		return "doc-mode"
	case tFlowErrorEnd:
		return "flow-error-end"
	case tScalar:
		return "scalar"
	case tDocStart:
		return "doc-start"
	case tDocEnd:
		return "doc-end"
	case tNewline:
		return "newline"
	case tSeqItemInd:
		return "seq-item-ind"
	case tExplicitKeyInd:
		return "explicit-key-ind"
	case tMapValueInd:
		return "map-value-ind"
	case tFlowMapStart:
		return "flow-map-start"
	case tFlowMapEnd:
		return "flow-map-end"
	case tFlowSeqStart:
		return "flow-seq-start"
	case tFlowSeqEnd:
		return "flow-seq-end"
	}
	return t.nodeName()
}

// nodeName is String for the token types that do not start a line of
// yaml's syntax and for syntax tree nodes.
func (t tokType) nodeName() string {
	switch t {
	case tComma:
		return "comma"
	case tSpace:
		return "space"
	case tComment:
		return "comment"
	case tDirectiveLine:
		return "directive-line"
	case tAlias:
		return "alias"
	case tAnchor:
		return "anchor"
	case tTag:
		return "tag"
	case tSingleQuoted:
		return "single-quoted-scalar"
	case tDoubleQuoted:
		return "double-quoted-scalar"
	case tBlockScalarHeader:
		return "block-scalar-header"
	case tBlockScalar:
		return "block-scalar"
	case tBlockMap:
		return "block-map"
	case tBlockSeq:
		return "block-seq"
	case tFlowCollection:
		return "flow-collection"
	case tDocument:
		return "document"
	case tDirective:
		return "directive"
	case tError:
		return "error"
	}
	return ""
}

// tokenTypeOf is the type of a lexical token, tNone for none: one of the
// fixed tokens, else by its first byte.
func tokenTypeOf(s string) tokType {
	switch len(s) {
	case 0:
		return tNewline
	case 1:
		if t := oneByteToken(s[0]); t != tNone {
			return t
		}
	case 2:
		if s == "\r\n" {
			return tNewline
		}
	case 3:
		switch s {
		case bom:
			return tBOM
		case "---":
			return tDocStart
		case "...":
			return tDocEnd
		}
	}
	return tokenTypeByFirst(s[0])
}

// oneByteToken is the type of the fixed token of one byte c, tNone when c
// is none.
func oneByteToken(c byte) tokType {
	switch c {
	case ctlDocument[0]:
		return tDocMode
	case ctlFlowEnd[0]:
		return tFlowErrorEnd
	case ctlScalar[0]:
		return tScalar
	case '\n':
		return tNewline
	case '-':
		return tSeqItemInd
	case '?':
		return tExplicitKeyInd
	case ':':
		return tMapValueInd
	case '{':
		return tFlowMapStart
	case '}':
		return tFlowMapEnd
	case '[':
		return tFlowSeqStart
	case ']':
		return tFlowSeqEnd
	case ',':
		return tComma
	}
	return tNone
}

// tokenTypeByFirst is the type of a token that is none of the fixed ones,
// by its first byte.
func tokenTypeByFirst(c byte) tokType {
	switch c {
	case ' ', '\t':
		return tSpace
	case '#':
		return tComment
	case '%':
		return tDirectiveLine
	case '*':
		return tAlias
	case '&':
		return tAnchor
	case '!':
		return tTag
	case '\'':
		return tSingleQuoted
	case '"':
		return tDoubleQuoted
	case '|', '>':
		return tBlockScalarHeader
	}
	return tNone
}

// token is a source token: one lexical token with its place.
//
// Its places are int32, which keeps the dense token lists of a large text
// at half the memory: the parser reads no text of more than maxTextBytes
// (every parse refuses one first, tooLong), so every offset, indent and
// length fits, and so does every place the composer works out from them.
type token struct {
	typ      tokType
	off, ind int32 // its offset in the text, and the indent of its line
	at, n    int32 // its source is text[at:at+n]; at -1 for a control token
}

// maxTextBytes is the longest text the parser reads, 1.5 GiB: its places
// fit in an int32 with 512 MiB to spare. No JavaScript string is longer:
// the loaders refuse a text of more than 2^29 − 24 UTF-16 code units, as
// node does, and a code unit is at most 3 bytes of UTF-8 (an invalid byte,
// one unit, is the 3 bytes of U+FFFD in the text).
const maxTextBytes = 3 << 29

// tooLong refuses a text longer than maxTextBytes, as every parse does
// before it reads a byte: a [*SyntaxError] of [ErrTextTooLong], whose
// Thrown is what node throws when it would make such a string.
func tooLong(src []byte) error {
	if len(src) <= maxTextBytes {
		return nil
	}
	msg := "a text of " + strconv.Itoa(len(src)) + " bytes is longer than any JavaScript string"
	at := Pos{Line: 1, Column: 1}
	return &SyntaxError{Problems: []Problem{{Pos: at, End: at, Code: ErrTextTooLong, Message: msg}},
		Thrown: "Cannot create a string longer than 0x1fffffe8 characters"}
}

// newToken is a token of type typ at offset with the line's indent, whose
// source is text[at:at+n] (at -1 for a control token).
func newToken(typ tokType, offset, indent, at, n int) token {
	return token{typ: typ, off: int32(offset), ind: int32(indent), at: int32(at), n: int32(n)}
}

func (t token) offset() int { return int(t.off) }
func (t token) indent() int { return int(t.ind) }
func (t token) size() int   { return int(t.n) }              // its source's length
func (t token) end() int    { return int(t.off) + int(t.n) } // where it ends in the text

// src returns a token's source: its slice of the text, or a control
// token's string.
func (t token) src(text string) string {
	if t.at >= 0 {
		return text[t.at : t.at+t.n]
	}
	switch t.typ {
	case tDocMode:
		return ctlDocument
	case tFlowErrorEnd:
		return ctlFlowEnd
	}
	return ctlScalar
}

// cst is a node of the syntax tree: a flow scalar or alias (type, place,
// source and the tokens that end it), or a larger construction whose parts
// are in x.
//
// Its places are int32, as a token's are (see token).
type cst struct {
	typ      tokType
	off, ind int32 // its offset in the text, and its indent
	// n is its source's length: the source is text[off:off+n], or where
	// x.at says; a control token's is negative (ctlDocumentN and the
	// others), as its string is not in the text. A string here would make
	// a cst 64 bytes, not 48: a one-line flow list of one-character scalars
	// has one an entry.
	n   int32
	end []token // nil: none yet
	x   *cstExt
}

// The n of a syntax tree node whose source is a control token's string.
const (
	ctlDocumentN int32 = -1 - iota
	ctlFlowEndN
	ctlScalarN
)

// setSource makes source c's, found at the text's offset at (-1 for a
// control token). at is c's offset but for a block scalar's body and for a
// node after a control character written in the text ("\x02", "\x18",
// "\x1f"), which yaml's offsets do not count: c's extension then says
// where, made for it when c has none.
func (c *cst) setSource(at int, source string) {
	switch {
	case at >= 0:
		c.n = int32(len(source))
		if int32(at) != c.off {
			if c.x == nil {
				c.x = &cstExt{}
			}
			c.x.at = int32(at) + 1
		}
	case source == ctlDocument:
		c.n = ctlDocumentN
	case source == ctlFlowEnd:
		c.n = ctlFlowEndN
	default:
		c.n = ctlScalarN
	}
}

// srcAt is where c's source is in the text, -1 for a control token's.
func (c *cst) srcAt() int {
	switch {
	case c.n < 0:
		return -1
	case c.x != nil && c.x.at != 0:
		return int(c.x.at) - 1
	}
	return int(c.off)
}

// src returns c's source: its slice of text, or a control token's string.
func (c *cst) src(text string) string {
	if at := c.srcAt(); at >= 0 {
		return text[at : at+int(c.n)]
	}
	switch c.n {
	case ctlDocumentN:
		return ctlDocument
	case ctlFlowEndN:
		return ctlFlowEnd
	}
	return ctlScalar
}

// srcLen is the length of c's source; a control token's string is a byte.
func (c *cst) srcLen() int {
	if c.n < 0 {
		return 1
	}
	return int(c.n)
}

// cstExt holds the parts of a collection, block scalar, document or error.
// A collection's items are here, not in cst, as most nodes are scalars:
// this keeps a cst at 48 bytes, not 72. at, an int32, fills the padding
// after fcStart.
type cstExt struct {
	items    []*cstItem // a collection's
	message  string     // an error's
	start    []token    // a document's
	fcStart  token      // a flow collection's opening bracket
	at       int32      // 1 + where the source is in the text when not at the node's offset (setSource); 0: at it
	value    *cst       // a document's
	props    []token    // a block scalar's header and the tokens after it
	propMsgs []string   // the messages of the error tokens in props, in order
}

// cstItem is an entry of a collection. A nil slice is an absent part; an
// empty one is present (yaml tells the two apart).
type cstItem struct {
	start       []token
	key         *cst
	sep         []token
	value       *cst
	explicitKey bool
}

func (c *cst) offset() int { return int(c.off) }
func (c *cst) indent() int { return int(c.ind) }

func (c *cst) lastItem() *cstItem {
	if c.x == nil || len(c.x.items) == 0 {
		return nil
	}
	return c.x.items[len(c.x.items)-1]
}

// pushItem appends it. When the list moves to a larger array, the old one
// is cleared: its first slots are in a chunk of item lists, and a pointer
// left there would keep alive, chunk by chunk, the syntax tree the
// composer lets go as it reads it.
func (p *parser) pushItem(c *cst, it *cstItem) {
	old := c.x.items
	c.x.items = append(p.slabs.itemPtrs.grow(c.x.items), it)
	if cap(old) != cap(c.x.items) {
		clear(old)
	}
}

// dropLastItem removes the last item, clearing its slot for the same
// reason.
func (c *cst) dropLastItem() {
	c.x.items[len(c.x.items)-1] = nil
	c.x.items = c.x.items[:len(c.x.items)-1]
}

func includesToken(list []token, t tokType) bool {
	for i := range list {
		if list[i].typ == t {
			return true
		}
	}
	return false
}

func findNonEmptyIndex(list []token) int {
	for i := range list {
		switch list[i].typ {
		case tSpace, tComment, tNewline:
		default:
			return i
		}
	}
	return -1
}

func isFlowToken(c *cst) bool {
	if c == nil {
		return false
	}
	switch c.typ {
	case tAlias, tScalar, tSingleQuoted, tDoubleQuoted, tFlowCollection:
		return true
	}
	return false
}

// prevProps returns the token list a new block value's properties are in.
func prevProps(parent *cst) *[]token {
	switch parent.typ {
	case tDocument:
		return &parent.x.start
	case tBlockMap:
		it := parent.lastItem()
		if it.sep != nil {
			return &it.sep
		}
		return &it.start
	case tBlockSeq:
		return &parent.lastItem().start
	}
	return new([]token)
}

// firstKeyStartProps cuts from prev, and returns, the properties at its end
// that belong to a key starting now.
func firstKeyStartProps(prev *[]token) []token {
	p := *prev
	if len(p) == 0 {
		return []token{}
	}
	i := len(p) - 1
loop:
	for ; i >= 0; i-- {
		switch p[i].typ {
		case tDocStart, tExplicitKeyInd, tMapValueInd, tSeqItemInd, tNewline:
			break loop
		}
	}
	i++
	for i < len(p) && p[i].typ == tSpace {
		i++
	}
	out := append([]token{}, p[i:]...)
	*prev = p[:i:i]
	return out
}

// fixFlowSeqItems turns the keys of a flow sequence's items that have no
// ":" into values.
func fixFlowSeqItems(fc *cst) {
	if fc.x.fcStart.typ != tFlowSeqStart {
		return
	}
	for _, it := range fc.x.items {
		if it.sep == nil || it.value != nil || includesToken(it.start, tExplicitKeyInd) || includesToken(it.sep, tMapValueInd) {
			continue
		}
		if it.key != nil {
			it.value = it.key
		}
		it.key = nil
		if isFlowToken(it.value) {
			if it.value.end != nil {
				it.value.end = append(it.value.end, it.sep...)
			} else {
				it.value.end = it.sep
			}
		} else {
			it.start = append(it.start, it.sep...)
		}
		it.sep = nil
	}
}

type parser struct {
	atNewLine bool // white space and indicators are indentation
	atScalar  bool // the next token is a scalar's source
	indent    int
	offset    int
	onKeyLine bool // on the line of a block map's key
	stack     []*cst
	source    string
	at        int // where source is in text, -1 for a control token
	text      string
	typ       tokType
	out       func(*cst)
	// lines are the line starts yaml's line counter learns of, which place
	// the excerpt of its error messages: not every line break of the text
	// (one inside a token that yaml reads as an error is not among them).
	// They are text offsets, which fit an int32 (see newParser).
	lines []int32
	slabs *parserSlabs // its tokens, items and nodes
	// tooDeep is the collection whose opening nested more than MaxDepth
	// collections, once one has: the parse stops there (see checkDepth).
	tooDeep *cst
	halt    func() // stops the tokens coming: the lexer's halt, or nil
}

// newParser returns a parser of text that hands out each top-level token;
// slabs nil is slabs of its own.
//
// Its caller has refused a text longer than maxTextBytes (tooLong): a
// longer one is a bug here, not an input, and panics.
func newParser(text string, out func(*cst), slabs *parserSlabs) *parser {
	if len(text) > maxTextBytes {
		panic("yamljs: newParser of a text no parse reads")
	}
	if slabs == nil {
		slabs = newParserSlabs(false)
	}
	return &parser{atNewLine: true, out: out, text: text, lines: append(slabs.lines[:0], 0), slabs: slabs}
}

// push appends t to a token list, as yaml pushes a token, growing the list
// in the parser's chunks.
func (p *parser) push(list []token, t token) []token {
	return append(p.slabs.toks.grow(list), t)
}

// one returns a token list holding t, with room for one more: most lists
// stay at one or two tokens (a flow item's ",", a block item's "-" and line
// break, a pair's ":" and space). Room for two more cost the dense lists a
// third of their syntax tree: 3 tokens for the "," of each item of
// [a,a,...], where 1 is used.
func (p *parser) one(t token) []token {
	s := p.slabs.toks.take(2)[:1]
	s[0] = t
	return s
}

// lead returns the token list of a flow item's first token t, its ",": with
// room for one more when white space follows it, which would be the
// list's next token; else with room for t alone, for the dense lists of
// [a,a,...], whose scalars are their items' keys, not in the list.
func (p *parser) lead(t token) []token {
	if e := t.end(); e < len(p.text) {
		if c := p.text[e]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			s := p.slabs.toks.take(1)
			s[0] = t
			return s
		}
	}
	return p.one(t)
}

func (p *parser) item(it cstItem) *cstItem {
	v := p.slabs.items.take(1)
	v[0] = it
	return &v[0]
}

// newCst allocates a syntax tree node with parts (cstExt).
func (p *parser) newCst(c cst) *cst {
	n := p.node()
	*n = c
	n.x = &p.slabs.exts.take(1)[0]
	return n
}

// blockColl allocates a block collection with its first item.
func (p *parser) blockColl(typ tokType, offset, indent int, first cstItem) *cst {
	c := p.newCst(cst{typ: typ, off: int32(offset), ind: int32(indent)})
	c.x.items = p.slabs.itemPtrs.take(4)[:1]
	c.x.items[0] = p.item(first)
	return c
}

// off32 and ind32 are the parser's offset and indent, in the int32 of a
// syntax tree node.
func (p *parser) off32() int32 { return int32(p.offset) }
func (p *parser) ind32() int32 { return int32(p.indent) }

func (p *parser) node() *cst { return &p.slabs.nodes.take(1)[0] }

// sourced gives c the current token's source and returns it.
func (p *parser) sourced(c *cst) *cst {
	c.setSource(p.at, p.source)
	return c
}

// next advances the parser by one lexical token: source, found at the
// text's offset at (-1 for a control token).
func (p *parser) next(at int, source string) {
	if p.tooDeep != nil {
		return
	}
	p.source, p.at = source, at
	if p.atScalar {
		p.atScalar = false
		p.step()
		p.checkDepth()
		p.offset += len(source)
		return
	}
	t := tokenTypeOf(source)
	switch t {
	case tNone:
		p.popError(newToken(tError, p.offset, 0, p.at, len(source)), "Not a YAML token: "+source)
		p.offset += len(source)
		return
	case tScalar:
		p.atNewLine = false
		p.atScalar = true
		p.typ = tScalar
		return
	}
	p.typ = t
	p.step()
	p.checkDepth()
	p.past(t, len(source))
}

// past moves the parser past the token of type t it stepped on, n bytes
// long: its line, indent and offset.
func (p *parser) past(t tokType, n int) {
	switch t {
	case tNewline:
		p.atNewLine = true
		p.indent = 0
		p.lines = append(p.lines, int32(p.offset+n))
	case tSpace:
		if p.atNewLine && p.source[0] == ' ' {
			p.indent += n
		}
	case tExplicitKeyInd, tMapValueInd, tSeqItemInd:
		if p.atNewLine {
			p.indent += n
		}
	case tDocMode, tFlowErrorEnd:
		return
	default:
		p.atNewLine = false
	}
	p.offset += n
}

// checkDepth stops the parse at the opening of a collection nested in
// MaxDepth others, which the composer refuses (composeNode). The stack of
// open constructions, which would grow with the nesting, grows no further:
// what follows the opening is not read, and end closes what is open as
// the text's end would. Each step opens at most one construction, and all
// those open are collections but a document at the bottom of the stack and
// a scalar on its top.
func (p *parser) checkDepth() {
	n := len(p.stack)
	if n <= MaxDepth+1 {
		return
	}
	first, colls := 0, n
	if !isCollection(p.stack[0]) {
		first, colls = 1, colls-1
	}
	if !isCollection(p.stack[n-1]) {
		colls--
	}
	if colls > MaxDepth {
		p.tooDeep = p.stack[first+MaxDepth]
		if p.halt != nil {
			p.halt()
		}
	}
}

// isCollection reports whether c is a block or flow collection.
func isCollection(c *cst) bool {
	return c.typ == tBlockMap || c.typ == tBlockSeq || c.typ == tFlowCollection
}

// end closes everything still open at the end of the text.
func (p *parser) end() {
	for len(p.stack) > 0 {
		p.pop()
	}
}

func (p *parser) sourceToken() token {
	return newToken(p.typ, p.offset, p.indent, p.at, len(p.source))
}

func (p *parser) peek(n int) *cst {
	if len(p.stack) < n {
		return nil
	}
	return p.stack[len(p.stack)-n]
}

func (p *parser) step() {
	top := p.peek(1)
	if p.typ == tDocEnd && (top == nil || top.typ != tDocEnd) {
		for len(p.stack) > 0 {
			p.pop()
		}
		p.stack = append(p.stack, p.sourced(&cst{typ: tDocEnd, off: p.off32()}))
		return
	}
	if top == nil {
		p.stream()
		return
	}
	switch top.typ {
	case tDocument:
		p.document(top)
	case tAlias, tScalar, tSingleQuoted, tDoubleQuoted:
		p.scalar(top)
	case tBlockScalar:
		p.blockScalar(top)
	case tBlockMap:
		p.blockMap(top)
	case tBlockSeq:
		p.blockSequence(top)
	case tFlowCollection:
		p.flowCollection(top)
	case tDocEnd:
		p.documentEnd(top)
	}
}

// popError closes err, an error token, into the construction on top.
func (p *parser) popError(err token, message string) {
	c := &cst{typ: tError, off: err.off, x: &cstExt{message: message}}
	c.setSource(int(err.at), err.src(p.text))
	p.popToken(c)
}

func (p *parser) pop() {
	tok := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	p.popToken(tok)
}

//kicikit:long the one place where yaml attaches a finished construction to its parent; the cases share the trailing clean-up
func (p *parser) popToken(tok *cst) {
	if len(p.stack) == 0 {
		p.out(tok)
		return
	}
	top := p.peek(1)
	if tok.typ == tBlockScalar {
		// Block scalars use their parent's indent, not their header's.
		tok.ind = 0
		switch top.typ {
		case tBlockScalar, tBlockMap, tBlockSeq, tFlowCollection, tScalar, tSingleQuoted, tDoubleQuoted, tAlias:
			tok.ind = top.ind
		}
	} else if tok.typ == tFlowCollection && top.typ == tDocument {
		tok.ind = 0 // top-level flow collections ignore indentation
	}
	if tok.typ == tFlowCollection {
		fixFlowSeqItems(tok)
	}
	switch top.typ {
	case tDocument:
		top.x.value = tok
	case tBlockScalar:
		// An error: what a block scalar's header line holds past it.
		top.x.props = append(top.x.props, newToken(tok.typ, tok.offset(), 0, tok.srcAt(), tok.srcLen()))
		top.x.propMsgs = append(top.x.propMsgs, tok.message())
	case tBlockMap:
		it := top.lastItem()
		if it.value != nil {
			p.pushItem(top, p.item(cstItem{start: []token{}, key: tok, sep: []token{}}))
			p.onKeyLine = true
			return
		} else if it.sep != nil {
			it.value = tok
		} else {
			it.key, it.sep = tok, []token{}
			p.onKeyLine = !it.explicitKey
			return
		}
	case tBlockSeq:
		it := top.lastItem()
		if it.value != nil {
			p.pushItem(top, p.item(cstItem{start: []token{}, value: tok}))
		} else {
			it.value = tok
		}
	case tFlowCollection:
		it := top.lastItem()
		switch {
		case it == nil || it.value != nil:
			p.pushItem(top, p.item(cstItem{start: []token{}, key: tok, sep: []token{}}))
		case it.sep != nil:
			it.value = tok
		default:
			it.key, it.sep = tok, []token{}
		}
		return
	default:
		p.pop()
		p.popToken(tok)
		return
	}
	if (top.typ == tDocument || top.typ == tBlockMap || top.typ == tBlockSeq) && (tok.typ == tBlockMap || tok.typ == tBlockSeq) {
		p.moveTrailingEmpty(top, tok)
	}
}

func (c *cst) message() string {
	if c.x == nil {
		return ""
	}
	return c.x.message
}

// moveTrailingEmpty gives the comment and blank lines that end a closed
// block collection to its parent, when they are not indented into it.
func (p *parser) moveTrailingEmpty(top, tok *cst) {
	last := tok.lastItem()
	if last == nil || last.sep != nil || last.value != nil || len(last.start) == 0 || findNonEmptyIndex(last.start) != -1 {
		return
	}
	if tok.indent() != 0 {
		for _, st := range last.start {
			if st.typ == tComment && st.indent() >= tok.indent() {
				return
			}
		}
	}
	if top.typ == tDocument {
		top.end = last.start
	} else {
		p.pushItem(top, p.item(cstItem{start: last.start}))
	}
	tok.dropLastItem()
}

func (p *parser) stream() {
	switch p.typ {
	case tDirectiveLine:
		p.out(p.sourced(&cst{typ: tDirective, off: p.off32()}))
		return
	case tBOM, tSpace, tComment, tNewline:
		p.out(p.sourced(&cst{typ: p.typ, off: p.off32(), ind: p.ind32()}))
		return
	case tDocMode, tDocStart:
		doc := &cst{typ: tDocument, off: p.off32(), x: &cstExt{start: []token{}}}
		if p.typ == tDocStart {
			doc.x.start = p.push(doc.x.start, p.sourceToken())
		}
		p.stack = append(p.stack, doc)
		return
	}
	p.out(p.sourced(&cst{typ: tError, off: p.off32(),
		x: &cstExt{message: "Unexpected " + p.typ.String() + " token in YAML stream"}}))
}

func (p *parser) document(doc *cst) {
	if doc.x.value != nil {
		p.lineEnd(doc)
		return
	}
	switch p.typ {
	case tDocStart:
		if findNonEmptyIndex(doc.x.start) != -1 {
			p.pop()
			p.step()
		} else {
			doc.x.start = p.push(doc.x.start, p.sourceToken())
		}
		return
	case tAnchor, tTag, tSpace, tComment, tNewline:
		doc.x.start = p.push(doc.x.start, p.sourceToken())
		return
	}
	if bv := p.startBlockValue(doc); bv != nil {
		p.stack = append(p.stack, bv)
		return
	}
	p.out(p.sourced(&cst{typ: tError, off: p.off32(),
		x: &cstExt{message: "Unexpected " + p.typ.String() + " token in YAML document"}}))
}

func (p *parser) scalar(scalar *cst) {
	if p.typ != tMapValueInd {
		p.lineEnd(scalar)
		return
	}
	start := firstKeyStartProps(prevProps(p.peek(2)))
	var sep []token
	if scalar.end != nil {
		sep = p.push(scalar.end, p.sourceToken())
		scalar.end = nil
	} else {
		sep = p.one(p.sourceToken())
	}
	p.onKeyLine = true
	p.stack[len(p.stack)-1] = p.blockColl(tBlockMap, scalar.offset(), scalar.indent(), cstItem{start: start, key: scalar, sep: sep})
}

func (p *parser) blockScalar(scalar *cst) {
	switch p.typ {
	case tSpace, tComment, tNewline:
		scalar.x.props = p.push(scalar.x.props, p.sourceToken())
	case tScalar:
		scalar.setSource(p.at, p.source)
		// A block scalar's source includes its last line break.
		p.atNewLine = true
		p.indent = 0
		p.newLinesIn(p.source)
		p.pop()
	default:
		p.pop()
		p.step()
	}
}

// blockMapNewline handles a line break in a block map.
func (p *parser) blockMapNewline(m *cst, it *cstItem) {
	p.onKeyLine = false
	switch {
	case it.value != nil:
		if n := len(it.value.end); n > 0 && it.value.end[n-1].typ == tComment {
			it.value.end = p.push(it.value.end, p.sourceToken())
		} else {
			p.pushItem(m, p.item(cstItem{start: p.one(p.sourceToken())}))
		}
	case it.sep != nil:
		it.sep = p.push(it.sep, p.sourceToken())
	default:
		it.start = p.push(it.start, p.sourceToken())
	}
}

// collSpace handles white space or a comment in a block collection; sep
// tells whether its items have separators (a map's do).
func (p *parser) collSpace(c *cst, it *cstItem, isMap bool) {
	switch {
	case it.value != nil:
		p.pushItem(c, p.item(cstItem{start: p.one(p.sourceToken())}))
	case isMap && it.sep != nil:
		it.sep = p.push(it.sep, p.sourceToken())
	default:
		if p.atIndentedComment(it.start, c.indent()) {
			items := c.x.items
			if len(items) >= 2 {
				prev := items[len(items)-2]
				if prev.value != nil && prev.value.end != nil {
					prev.value.end = append(prev.value.end, it.start...)
					prev.value.end = p.push(prev.value.end, p.sourceToken())
					c.dropLastItem()
					return
				}
			}
		}
		it.start = p.push(it.start, p.sourceToken())
	}
}

//kicikit:long yaml's block map step is one decision table over the token type and the map's state
func (p *parser) blockMap(m *cst) {
	it := m.lastItem()
	switch p.typ {
	case tNewline:
		p.blockMapNewline(m, it)
		return
	case tSpace, tComment:
		p.collSpace(m, it, true)
		return
	}
	if p.indent >= m.indent() {
		atMapIndent := !p.onKeyLine && p.indent == m.indent()
		atNextItem := atMapIndent && (it.sep != nil || it.explicitKey) && p.typ != tSeqItemInd
		// Empty lines not indented into an empty value go to the next item.
		start := []token{}
		if atNextItem && it.sep != nil && it.value == nil {
			start = splitEmptyLines(it, m.indent())
		}
		switch p.typ {
		case tAnchor, tTag:
			switch {
			case atNextItem || it.value != nil:
				start = p.push(start, p.sourceToken())
				p.pushItem(m, p.item(cstItem{start: start}))
				p.onKeyLine = true
			case it.sep != nil:
				it.sep = p.push(it.sep, p.sourceToken())
			default:
				it.start = p.push(it.start, p.sourceToken())
			}
			return
		case tExplicitKeyInd:
			switch {
			case it.sep == nil && !it.explicitKey:
				it.start = p.push(it.start, p.sourceToken())
				it.explicitKey = true
			case atNextItem || it.value != nil:
				start = p.push(start, p.sourceToken())
				p.pushItem(m, p.item(cstItem{start: start, explicitKey: true}))
			default:
				p.stack = append(p.stack, p.blockColl(tBlockMap, p.offset, p.indent, cstItem{start: p.one(p.sourceToken()), explicitKey: true}))
			}
			p.onKeyLine = true
			return
		case tMapValueInd:
			p.blockMapValueInd(m, it, start, atNextItem)
			p.onKeyLine = true
			return
		case tAlias, tScalar, tSingleQuoted, tDoubleQuoted:
			fs := p.flowScalar()
			switch {
			case atNextItem || it.value != nil:
				p.pushItem(m, p.item(cstItem{start: start, key: fs, sep: []token{}}))
				p.onKeyLine = true
			case it.sep != nil:
				p.stack = append(p.stack, fs)
			default:
				it.key, it.sep = fs, []token{}
				p.onKeyLine = true
			}
			return
		default:
			if bv := p.startBlockValue(m); bv != nil {
				if bv.typ == tBlockSeq {
					if !it.explicitKey && it.sep != nil && !includesToken(it.sep, tNewline) {
						p.popError(newToken(tError, p.offset, 0, p.at, len(p.source)),
							"Unexpected block-seq-ind on same line with key")
						return
					}
				} else if atMapIndent {
					p.pushItem(m, p.item(cstItem{start: start}))
				}
				p.stack = append(p.stack, bv)
				return
			}
		}
	}
	p.pop()
	p.step()
}

// splitEmptyLines cuts from it.sep, and returns, the tokens after its
// second line break when nothing but blank lines and comments that are not
// indented into the map come after the value indicator.
func splitEmptyLines(it *cstItem, indent int) []token {
	var nl []int
	for i, st := range it.sep {
		switch st.typ {
		case tNewline:
			nl = append(nl, i)
		case tSpace:
		case tComment:
			if st.indent() > indent {
				nl = nl[:0]
			}
		default:
			nl = nl[:0]
		}
	}
	if len(nl) >= 2 {
		out := append([]token{}, it.sep[nl[1]:]...)
		it.sep = it.sep[:nl[1]:nl[1]]
		return out
	}
	return []token{}
}

func (p *parser) newImplicitNullKeyMap(start []token) *cst {
	return p.blockColl(tBlockMap, p.offset, p.indent, cstItem{start: start, sep: p.one(p.sourceToken())})
}

//kicikit:long yaml's handling of ":" in a block map: one case per state of the entry it ends
func (p *parser) blockMapValueInd(m *cst, it *cstItem, start []token, atNextItem bool) {
	if it.explicitKey {
		switch {
		case it.sep == nil:
			if includesToken(it.start, tNewline) {
				it.key, it.sep = nil, p.one(p.sourceToken())
			} else {
				st := firstKeyStartProps(&it.start)
				p.stack = append(p.stack, p.newImplicitNullKeyMap(st))
			}
		case it.value != nil:
			p.pushItem(m, p.item(cstItem{start: []token{}, sep: p.one(p.sourceToken())}))
		case includesToken(it.sep, tMapValueInd):
			p.stack = append(p.stack, p.newImplicitNullKeyMap(start))
		case isFlowToken(it.key) && !includesToken(it.sep, tNewline):
			st := firstKeyStartProps(&it.start)
			key, sep := it.key, p.push(it.sep, p.sourceToken())
			it.key, it.sep = nil, nil
			p.stack = append(p.stack, p.blockColl(tBlockMap, p.offset, p.indent, cstItem{start: st, key: key, sep: sep}))
		case len(start) > 0:
			// Not at the next item after all.
			sep := make([]token, 0, len(it.sep)+len(start)+1)
			sep = append(append(append(sep, it.sep...), start...), p.sourceToken())
			it.sep = sep
		default:
			it.sep = p.push(it.sep, p.sourceToken())
		}
		return
	}
	switch {
	case it.sep == nil:
		it.key, it.sep = nil, p.one(p.sourceToken())
	case it.value != nil || atNextItem:
		p.pushItem(m, p.item(cstItem{start: start, sep: p.one(p.sourceToken())}))
	case includesToken(it.sep, tMapValueInd):
		p.stack = append(p.stack, p.newImplicitNullKeyMap([]token{}))
	default:
		it.sep = p.push(it.sep, p.sourceToken())
	}
}

func (p *parser) blockSequence(seq *cst) {
	it := seq.lastItem()
	switch p.typ {
	case tNewline:
		if it.value != nil {
			if n := len(it.value.end); n > 0 && it.value.end[n-1].typ == tComment {
				it.value.end = p.push(it.value.end, p.sourceToken())
			} else {
				p.pushItem(seq, p.item(cstItem{start: p.one(p.sourceToken())}))
			}
		} else {
			it.start = p.push(it.start, p.sourceToken())
		}
		return
	case tSpace, tComment:
		p.collSpace(seq, it, false)
		return
	case tAnchor, tTag:
		if it.value == nil && p.indent > seq.indent() {
			it.start = p.push(it.start, p.sourceToken())
			return
		}
	case tSeqItemInd:
		if p.indent == seq.indent() {
			if it.value != nil || includesToken(it.start, tSeqItemInd) {
				p.pushItem(seq, p.item(cstItem{start: p.one(p.sourceToken())}))
			} else {
				it.start = p.push(it.start, p.sourceToken())
			}
			return
		}
	}
	if p.indent > seq.indent() {
		if bv := p.startBlockValue(seq); bv != nil {
			p.stack = append(p.stack, bv)
			return
		}
	}
	p.pop()
	p.step()
}

func (p *parser) flowCollection(fc *cst) {
	it := fc.lastItem()
	switch {
	case p.typ == tFlowErrorEnd:
		for {
			p.pop()
			top := p.peek(1)
			if top == nil || top.typ != tFlowCollection {
				return
			}
		}
	case len(fc.end) == 0:
		p.flowCollectionItem(fc, it)
	default:
		parent := p.peek(2)
		if parent.typ == tBlockMap &&
			((p.typ == tMapValueInd && parent.indent() == fc.indent()) ||
				(p.typ == tNewline && parent.lastItem().sep == nil)) {
			p.pop()
			p.step()
		} else if p.typ == tMapValueInd && parent.typ != tFlowCollection {
			start := firstKeyStartProps(prevProps(parent))
			fixFlowSeqItems(fc)
			sep := append([]token{}, fc.end[1:]...)
			fc.end = fc.end[:1:1]
			sep = p.push(sep, p.sourceToken())
			p.onKeyLine = true
			p.stack[len(p.stack)-1] = p.blockColl(tBlockMap, fc.offset(), fc.indent(), cstItem{start: start, key: fc, sep: sep})
		} else {
			p.lineEnd(fc)
		}
	}
}

// flowCollectionItem handles a token inside an open flow collection.
func (p *parser) flowCollectionItem(fc *cst, it *cstItem) {
	switch p.typ {
	case tComma, tExplicitKeyInd:
		if it == nil || it.sep != nil {
			p.pushItem(fc, p.item(cstItem{start: p.lead(p.sourceToken())}))
		} else {
			it.start = p.push(it.start, p.sourceToken())
		}
	case tMapValueInd:
		switch {
		case it == nil || it.value != nil:
			p.pushItem(fc, p.item(cstItem{start: []token{}, sep: p.one(p.sourceToken())}))
		case it.sep != nil:
			it.sep = p.push(it.sep, p.sourceToken())
		default:
			it.key, it.sep = nil, p.one(p.sourceToken())
		}
	case tSpace, tComment, tNewline, tAnchor, tTag:
		switch {
		case it == nil || it.value != nil:
			p.pushItem(fc, p.item(cstItem{start: p.one(p.sourceToken())}))
		case it.sep != nil:
			it.sep = p.push(it.sep, p.sourceToken())
		default:
			it.start = p.push(it.start, p.sourceToken())
		}
	case tAlias, tScalar, tSingleQuoted, tDoubleQuoted:
		p.flowItemScalar(fc, it)
	case tFlowMapEnd, tFlowSeqEnd:
		fc.end = p.push(fc.end, p.sourceToken())
	default:
		if bv := p.startBlockValue(fc); bv != nil {
			p.stack = append(p.stack, bv)
			return
		}
		p.pop()
		p.step()
	}
}

// flowItemScalar places a scalar or alias in an open flow collection: a
// new item's key, the current item's key, or a value to read on.
func (p *parser) flowItemScalar(fc *cst, it *cstItem) {
	fs := p.flowScalar()
	switch {
	case it == nil || it.value != nil:
		p.pushItem(fc, p.item(cstItem{start: []token{}, key: fs, sep: []token{}}))
	case it.sep != nil:
		p.stack = append(p.stack, fs)
	default:
		it.key, it.sep = fs, []token{}
	}
}

// newLinesIn records the line starts inside a scalar's source, where yaml's
// line counter learns of them.
func (p *parser) newLinesIn(source string) {
	for i := strings.IndexByte(source, '\n'); i >= 0; {
		p.lines = append(p.lines, int32(p.offset+i+1))
		next := strings.IndexByte(source[i+1:], '\n')
		if next < 0 {
			break
		}
		i += 1 + next
	}
}

func (p *parser) flowScalar() *cst {
	p.newLinesIn(p.source)
	c := p.node()
	c.typ, c.off, c.ind = p.typ, p.off32(), p.ind32()
	c.setSource(p.at, p.source)
	return c
}

func (p *parser) startBlockValue(parent *cst) *cst {
	switch p.typ {
	case tAlias, tScalar, tSingleQuoted, tDoubleQuoted:
		return p.flowScalar()
	case tBlockScalarHeader:
		c := p.newCst(cst{typ: tBlockScalar, off: p.off32(), ind: p.ind32()})
		c.x.props = p.one(p.sourceToken())
		return c
	case tFlowMapStart, tFlowSeqStart:
		c := p.newCst(cst{typ: tFlowCollection, off: p.off32(), ind: p.ind32(), end: []token{}})
		c.x.fcStart = p.sourceToken()
		return c
	case tSeqItemInd:
		return p.blockColl(tBlockSeq, p.offset, p.indent, cstItem{start: p.one(p.sourceToken())})
	case tExplicitKeyInd:
		p.onKeyLine = true
		start := firstKeyStartProps(prevProps(parent))
		start = p.push(start, p.sourceToken())
		return p.blockColl(tBlockMap, p.offset, p.indent, cstItem{start: start, explicitKey: true})
	case tMapValueInd:
		p.onKeyLine = true
		start := firstKeyStartProps(prevProps(parent))
		return p.newImplicitNullKeyMap(start)
	}
	return nil
}

func (p *parser) atIndentedComment(start []token, indent int) bool {
	if p.typ != tComment || p.indent <= indent {
		return false
	}
	for _, st := range start {
		if st.typ != tNewline && st.typ != tSpace {
			return false
		}
	}
	return true
}

func (p *parser) documentEnd(docEnd *cst) {
	if p.typ == tDocMode {
		return
	}
	docEnd.end = p.push(docEnd.end, p.sourceToken())
	if p.typ == tNewline {
		p.pop()
	}
}

func (p *parser) lineEnd(tok *cst) {
	switch p.typ {
	case tComma, tDocStart, tDocEnd, tFlowSeqEnd, tFlowMapEnd, tMapValueInd:
		p.pop()
		p.step()
		return
	case tNewline:
		p.onKeyLine = false
	}
	// Anything but white space, a comment or a line break is an error.
	if tok.end == nil {
		tok.end = p.one(p.sourceToken())
	} else {
		tok.end = p.push(tok.end, p.sourceToken())
	}
	if p.typ == tNewline {
		p.pop()
	}
}
