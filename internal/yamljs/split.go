package yamljs

import (
	"bytes"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Items is the block sequence a key of the root mapping holds, split into
// its items. A reader can then parse one item at a time ([ParseRange]),
// and the rest of the text without them ([ParseWithout]).
type Items struct {
	Start Pos   // the line start of the first item
	End   Pos   // the line start after the last item, or the end of the text
	Items []Pos // each item's line start; item i ends where item i+1 (or End) starts
}

// SplitItems splits the block sequence that the root mapping's key holds
// into its items. It does so only for a text in the plain form. There,
// parsing each item on its own reads it as parsing the whole text does:
//
//   - valid UTF-8 without a byte order mark, one document without
//     directives or document markers ("---", "..."), and no anchor,
//     alias or tag anywhere (each would tie one part of the text to
//     another);
//   - a root block mapping whose lines start at column 1, none of them
//     an explicit key ("? "), with key written plain, once, and its
//     value a block sequence starting on a later line ("key:", then
//     comments or blank lines at most, then "- ..." lines);
//   - after the sequence, only root mapping lines, comments and blank
//     lines; no root key is a flow collection ("[a]: 1", which yaml
//     refuses after a blank line, a line the sequence's part holds); no
//     tab indents a line; in the sequence, no block scalar with only
//     blank lines (where it ends depends on the line after it).
//
// Within the plain form, the lexer's own tokens place every item. An item
// starts at each "-" indicator at the sequence's column that begins a line
// outside any flow collection. The sequence ends at the first line that
// begins further left, or at its column with anything else. ok is false
// when the text is not in the plain form or has no such sequence. The
// text must then be read whole.
//
// Parsing the parts gives the values and positions of parsing the whole
// text, if each part parses without error. Only where a block collection
// ends differs: it takes in the comments after it, up to the part's end.
// A reader that gets an error from a part must parse the whole text for
// the error yaml reports.
func SplitItems(src []byte, key string) (items Items, ok bool) {
	if len(src) > maxTextBytes || !utf8.Valid(src) { // too long for a Pos, and for Parse
		return Items{}, false
	}
	sp := splitter{src: src, key: key}
	// The lexer reads a string; the splitter keeps none of the strings
	// it hands over, only offsets, so src can be read in place rather
	// than copied (a large config is the case this is for).
	newLexer(unsafe.String(unsafe.SliceData(src), len(src)), sp.token).run()
	if sp.failed || sp.phase < inSeq {
		return Items{}, false
	}
	if sp.phase == inSeq {
		sp.end = len(src)
	}
	return sp.positions(), true
}

// SplitNestedItems is [SplitItems] for the block mapping that one item of
// a split sequence holds. The item is src[from.Offset:end], from a line
// start such as [Items] gives to the next item's. It is "- ", then the
// mapping's first key on its line, then its other keys below at that
// key's column. key is a key of that mapping whose value is a block
// sequence. The item is read as a text of its own, in SplitItems's plain
// form, its mapping's lines in place of the root's. The positions are in
// src.
//
// Parsing the parts then gives the values and positions that parsing the
// item gives. The parts are the item without the sequence's lines
// ([ParseRangeWithout]), and the sequence's items ([ParseRange]). The
// proviso of SplitItems holds: a part that does not parse says nothing.
func SplitNestedItems(src []byte, from Pos, end int, key string) (items Items, ok bool) {
	if len(src) > maxTextBytes { // too long for a Pos, and for Parse
		return Items{}, false
	}
	text := src[from.Offset:end]
	if !utf8.Valid(text) {
		return Items{}, false
	}
	sp := splitter{src: text, key: key, lead: leadDash}
	newLexer(unsafe.String(unsafe.SliceData(text), len(text)), sp.token).run()
	if sp.failed || sp.phase < inSeq || sp.lead != leadDone {
		return Items{}, false
	}
	if sp.phase == inSeq {
		sp.end = len(text)
	}
	items = sp.positions()
	shift := func(p *Pos) { p.Offset, p.Line = p.Offset+from.Offset, p.Line+from.Line-1 }
	shift(&items.Start)
	shift(&items.End)
	for i := range items.Items {
		shift(&items.Items[i])
	}
	return items, true
}

// The splitter's phases, in the order the text goes through them.
const (
	inRoot    = iota // root mapping lines before the key
	atKey            // the rest of the key's line
	beforeSeq        // comments and blank lines before the first item
	inSeq            // the items
	afterSeq         // root mapping lines after the sequence
)

// splitter follows the lexer's tokens line by line.
type splitter struct {
	src    []byte
	key    string
	phase  int
	failed bool

	inDoc      bool // a document-start control token was seen
	scalarNext bool // the next token is a scalar's source
	blockNext  bool // the next scalar is a block scalar's lines
	flow       int  // flow collections open
	indent     int  // the current line's indent, while awaiting its content
	awaiting   bool // a line's indentation was read, its first token not yet
	colon      bool // atKey: the ":" after the key was read

	column int   // the sequence's indicator column, 0-based
	starts []int // each item's line start
	end    int   // the line start after the sequence

	// base is the column of the mapping's keys: 0 for the root mapping,
	// and for the mapping an item holds (SplitNestedItems) the column of
	// the key after the item's "-" (lead reads the "-" and the spaces
	// after it as the indentation of that key).
	base int
	lead leadState
}

// leadState is how far the splitter of an item's mapping has read the
// item's first line: its "-" and the spaces after it are indentation.
type leadState uint8

const (
	noLead    leadState = iota // the root mapping: no item line
	leadDash                   // awaiting the item's "-"
	leadSpace                  // the "-" read, awaiting the spaces after it
	leadDone                   // the first key's column is the base
)

// token reads one token of the lexer.
//
//kicikit:long one case per token class, in the lexer's order
func (sp *splitter) token(at int, s string) {
	if sp.failed {
		return
	}
	if at < 0 {
		switch s {
		case ctlDocument:
			sp.failed = sp.inDoc // a second document
			sp.inDoc = true
		case ctlScalar:
			sp.scalarNext = true
		default: // a flow collection ended early
			sp.failed = true
		}
		return
	}
	typ := tScalar
	if !sp.scalarNext {
		typ = tokenTypeOf(s)
	}
	sp.scalarNext = false
	switch typ {
	case tBOM, tDocStart, tDocEnd, tDirectiveLine, tAlias, tAnchor, tTag:
		sp.failed = true
		return
	case tBlockScalarHeader:
		sp.blockNext = true
	case tScalar:
		if sp.blockNext {
			// A block scalar's lines, which start a line but are no
			// line of the mapping or the sequence. When it has none but
			// blank ones, yaml's lexer ends it by the indent of the line
			// after them: in a part that is the part's end, in the
			// whole text the next item, so that its End may differ.
			sp.blockNext = false
			sp.failed = sp.phase == inSeq && strings.Trim(s, " \t\r\n") == ""
			return
		}
	case tSpace, tComment, tNewline:
	default:
		// Between a block scalar's header and its lines: not seen in a
		// text the lexer reads without error.
		sp.failed = sp.blockNext
	}
	if sp.phase == atKey {
		sp.keyLine(typ)
		return
	}
	lineStart := at == 0 || sp.src[at-1] == '\n'
	switch {
	case sp.flow == 0 && lineStart && typ == tSpace:
		sp.awaiting, sp.indent = true, len(s)
		sp.failed = !allSpaces(s)
	case sp.lead == leadSpace:
		// The spaces after the item's "-" indent its first key.
		sp.lead, sp.awaiting, sp.indent = leadDone, true, sp.indent+len(s)
		sp.base = sp.indent
		sp.failed = typ != tSpace || !allSpaces(s)
	case sp.flow == 0 && (lineStart || sp.awaiting):
		if !lineStart && typ == tSpace { // a tab after the indent
			sp.failed = true
			return
		}
		indent := 0
		if sp.awaiting {
			indent = sp.indent
		}
		sp.awaiting = false
		if typ != tNewline && typ != tComment {
			sp.line(at-indent, indent, typ, s)
		}
	}
	switch typ {
	case tFlowMapStart, tFlowSeqStart:
		sp.flow++
	case tFlowMapEnd, tFlowSeqEnd:
		sp.flow--
		sp.failed = sp.flow < 0
	}
}

// keyLine reads the rest of the key's line: ":", then at most a space and a
// comment before the line break.
func (sp *splitter) keyLine(typ tokType) {
	switch {
	case !sp.colon && typ == tMapValueInd:
		sp.colon = true
	case sp.colon && (typ == tSpace || typ == tComment):
	case sp.colon && typ == tNewline:
		sp.phase = beforeSeq
	default:
		sp.failed = true
	}
}

// line reads the first token of a line that holds more than a comment,
// outside any flow collection: its line start, indent and type.
func (sp *splitter) line(start, indent int, typ tokType, s string) {
	if sp.lead == leadDash {
		// The item's own "-", which the key after it follows on its line.
		sp.lead, sp.awaiting, sp.indent = leadSpace, true, indent+1
		sp.failed = typ != tSeqItemInd
		return
	}
	switch sp.phase {
	case inRoot, afterSeq:
		sp.rootLine(indent, typ, s)
	case beforeSeq:
		if typ != tSeqItemInd || indent < sp.base {
			sp.failed = true
			return
		}
		sp.column, sp.starts, sp.phase = indent, append(sp.starts, start), inSeq
	case inSeq:
		switch {
		case indent > sp.column:
		case indent == sp.column && typ == tSeqItemInd:
			sp.starts = append(sp.starts, start)
		case indent > sp.base:
			// The sequence ends at a line that no root key starts.
			sp.failed = true
		default:
			sp.end, sp.phase = start, afterSeq
			sp.rootLine(indent, typ, s)
		}
	}
}

// rootLine reads a line of the root mapping outside the sequence.
func (sp *splitter) rootLine(indent int, typ tokType, s string) {
	switch {
	case indent > sp.base: // inside a root key's value
	case indent < sp.base: // an item's line less indented than its mapping
		sp.failed = true
	case typ == tSeqItemInd || typ == tExplicitKeyInd || typ == tMapValueInd:
		sp.failed = true
	case typ == tFlowSeqStart || typ == tFlowMapStart:
		// A flow collection as a root key: after blank lines or comments
		// yaml refuses it ("Map comment with trailing content"), and the
		// lines before it may be the sequence's, which a part leaves out.
		sp.failed = true
	case typ == tScalar && s == sp.key:
		sp.failed = sp.phase != inRoot
		sp.phase = atKey
	}
}

func allSpaces(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' {
			return false
		}
	}
	return true
}

// positions turns the splitter's offsets into positions, counting the
// lines once.
func (sp *splitter) positions() Items {
	offsets := append(append([]int(nil), sp.starts...), sp.end)
	ps := make([]Pos, len(offsets))
	line, from := 1, 0
	for i, off := range offsets {
		line += bytes.Count(sp.src[from:off], []byte("\n"))
		from = off
		ps[i] = newPos(off, line, 1)
	}
	return Items{Start: ps[0], End: ps[len(ps)-1], Items: ps[:len(ps)-1]}
}
