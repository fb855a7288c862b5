package yamljs

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// composeScalar reads a scalar token and resolves it with its tag, or by
// the schema's tests when it is plain and untagged.
func (c *composer) composeScalar(ctx *composeCtx, tok *cst, tagTok *token) *ynode {
	var (
		value   string
		style   Style
		comment string
		rng     span
	)
	if tok.typ == tBlockScalar {
		value, style, comment, rng = c.resolveBlockScalar(ctx, tok)
	} else {
		value, style, comment, rng = c.resolveFlowScalar(tok)
	}
	tag, tagName := c.scalarTag(ctx, tok, value, tagTok)
	n := c.newNode(yScalar)
	n.rng, n.Style = rng, style
	if comment != "" || tag.format != "" {
		n.ext().comment, n.format = comment, tag.format
	}
	v, minFrac, err := tag.resolve(value)
	if err != "" {
		if tagTok != nil {
			c.errTok(*tagTok, "TAG_RESOLVE_FAILED", err)
		} else {
			c.err(tok.offset(), tok.offset()+tok.srcLen(), "TAG_RESOLVE_FAILED", err)
		}
		v = scalarValue{kind: String, str: value}
	}
	n.setVal(v)
	if v.kind != String && value != "" {
		c.setSource(n, value)
	}
	if minFrac != 0 {
		n.ext().minFrac = minFrac
	}
	if tagName != "" {
		n.ext().tag = tagName
	}
	return n
}

// setSource records a scalar's source text. A scalar with nothing else in
// its yext yet shares one with the others of that source ("- 1" a million
// times, each 176 bytes of yext of its own): ext() copies it before a
// write, as it copies the shared empty one.
func (c *composer) setSource(n *ynode, source string) {
	if n.yext != c.noExt {
		n.ext().source = source
		return
	}
	e := c.sources[source]
	if e == nil {
		e = &yext{source: source}
		if c.sources == nil {
			c.sources = map[string]*yext{}
		}
		if len(c.sources) < maxSources {
			c.sources[source] = e
		}
	}
	n.yext = e
}

// maxSources is how many sources a composer keeps a shared yext of.
const maxSources = 1024

// scalarTag returns the tag a scalar resolves with and the name of the tag
// it has ("" for none, or one that does not resolve): its named tag, or
// for a plain scalar the schema's test, else !!str.
func (c *composer) scalarTag(ctx *composeCtx, tok *cst, value string, tagTok *token) (*tagDef, string) {
	tagName, tagOK := "", false
	if tagTok != nil {
		tagName, tagOK = ctx.doc.directive.tagName(c.src(*tagTok), func(msg string) {
			c.errTok(*tagTok, "TAG_RESOLVE_FAILED", msg)
		})
	}
	sch := ctx.doc.schema
	switch {
	case tagOK && tagName != "":
		return c.scalarTagByName(sch, value, tagName, *tagTok), tagName
	case tok.typ == tScalar:
		return sch.tagByTest(value, ctx.atKey), ""
	}
	return sch.str, ""
}

// scalarTagByName is yaml's findScalarTagByName.
func (c *composer) scalarTagByName(sch *schema, value, tagName string, tagTok token) *tagDef {
	if tagName == "!" {
		return sch.str // the non-specific tag
	}
	var withTest []*tagDef
	for _, t := range sch.tags {
		if t.collection == "" && t.tag == tagName {
			if t.def != defFalse && t.test != nil { // yaml's `tag.default && tag.test`: "key" too
				withTest = append(withTest, t)
			} else {
				return t
			}
		}
	}
	for _, t := range withTest {
		if t.test(value) {
			return t
		}
	}
	if kt := sch.knownTags[tagName]; kt != nil && kt.collection == "" {
		sch.use(kt)
		return kt
	}
	if tagName == tagStr {
		c.errTok(tagTok, "TAG_RESOLVE_FAILED", "Unresolved tag: "+tagName)
	} else {
		c.warnTok(tagTok, "TAG_RESOLVE_FAILED", "Unresolved tag: "+tagName)
	}
	return sch.str
}

func (c *composer) resolveFlowScalar(tok *cst) (string, Style, string, span) {
	var value string
	var style Style
	switch tok.typ {
	case tScalar:
		style = Plain
		value = c.plainValue(tok)
	case tSingleQuoted:
		style = SingleQuoted
		value = c.singleQuotedValue(tok)
	default:
		style = DoubleQuoted
		value = c.doubleQuotedValue(tok)
	}
	valueEnd := tok.offset() + tok.srcLen()
	comment, end := c.resolveEnd(tok.end, valueEnd, true)
	return value, style, comment, newSpan(tok.offset(), valueEnd, end)
}

func (c *composer) plainValue(tok *cst) string {
	src := tok.src(c.text)
	bad := ""
	if src != "" {
		switch src[0] {
		case '\t':
			bad = "a tab character"
		case ',':
			bad = "flow indicator character ,"
		case '%':
			bad = "directive indicator character %"
		case '|', '>':
			bad = "block scalar indicator " + src[:1]
		case '@', '`':
			bad = "reserved character " + src[:1]
		}
	}
	if bad != "" {
		c.errAt(tok.offset(), "BAD_SCALAR_START", "Plain value cannot start with "+bad)
	}
	return unfoldLines(src)
}

func (c *composer) singleQuotedValue(tok *cst) string {
	src := tok.src(c.text)
	if len(src) == 1 || src[len(src)-1] != '\'' {
		c.errAt(tok.offset()+len(src), "MISSING_CHAR", "Missing closing 'quote")
	}
	inner := ""
	if len(src) >= 2 {
		inner = src[1 : len(src)-1]
	}
	v := unfoldLines(inner)
	if strings.Contains(v, "''") {
		v = strings.ReplaceAll(v, "''", "'")
	}
	return v
}

// unfoldLines folds the lines of a plain or single-quoted scalar: each line
// trimmed of white space, a single line break read as a space, n > 1 as n-1
// line breaks.
func unfoldLines(src string) string {
	first := strings.IndexByte(src, '\n')
	if first == -1 {
		return src
	}
	var b strings.Builder
	b.Grow(len(src))
	line := strings.TrimSuffix(src[:first], "\r")
	b.WriteString(strings.TrimRight(line, " \t"))
	sep := " "
	pos := first + 1
	for {
		nl := strings.IndexByte(src[pos:], '\n')
		if nl == -1 {
			break
		}
		lm := strings.Trim(strings.TrimSuffix(src[pos:pos+nl], "\r"), " \t")
		if lm == "" {
			if sep == "\n" {
				b.WriteString(sep)
			} else {
				sep = "\n"
			}
		} else {
			b.WriteString(sep)
			b.WriteString(lm)
			sep = " "
		}
		pos += nl + 1
	}
	b.WriteString(sep)
	b.WriteString(strings.TrimLeft(src[pos:], " \t"))
	return b.String()
}

// doubleQuotedValue reads a double-quoted scalar. Its escapes give UTF-16
// code units, as in JavaScript: "\ud83d\ude00" is one character, a lone
// surrogate stays one, written as WTF-8.
//
//kicikit:long yaml's doubleQuotedValue: one pass over the code units whose cases share the cursor
func (c *composer) doubleQuotedValue(tok *cst) string {
	src := tok.src(c.text)
	u := toUnits(src)
	res := make([]uint16, 0, len(u))
	for i := 1; i < len(u)-1; i++ {
		ch := u[i]
		switch {
		case ch == '\r' && u[i+1] == '\n':
			continue
		case ch == '\n':
			fold, off := foldNewline(u, i)
			res = append(res, fold...)
			i = off
		case ch == '\\':
			i++
			next := u[i]
			if cc, ok := escapeCode(next); ok {
				res = append(res, cc...)
			} else if next == '\n' {
				// An escaped line break is dropped, and the next line trimmed.
				for i+1 < len(u) && (u[i+1] == ' ' || u[i+1] == '\t') {
					i++
				}
			} else if next == '\r' && i+1 < len(u) && u[i+1] == '\n' {
				i++
				for i+1 < len(u) && (u[i+1] == ' ' || u[i+1] == '\t') {
					i++
				}
			} else if next == 'x' || next == 'u' || next == 'U' {
				n := map[uint16]int{'x': 2, 'u': 4, 'U': 8}[next]
				res = append(res, c.parseCharCode(tok, u, i+1, n)...)
				i += n
			} else {
				raw := u[i-1 : min(i+1, len(u))]
				c.errAt(tok.offset()+unitsByteLen(u[:i-1]), "BAD_DQ_ESCAPE", "Invalid escape sequence "+fromUnits(raw))
				res = append(res, raw...)
			}
		case ch == ' ' || ch == '\t':
			// White space before a line break is trimmed.
			wsStart := i
			for i+1 < len(u) && (u[i+1] == ' ' || u[i+1] == '\t') {
				i++
			}
			if next := at16(u, i+1); next != '\n' && !(next == '\r' && at16(u, i+2) == '\n') {
				res = append(res, u[wsStart:i+1]...)
			}
		default:
			res = append(res, ch)
		}
	}
	if len(src) == 1 || src[len(src)-1] != '"' {
		c.errAt(tok.offset()+len(src), "MISSING_CHAR", "Missing closing \"quote")
	}
	return fromUnits(res)
}

func at16(u []uint16, i int) int {
	if i < len(u) {
		return int(u[i])
	}
	return -1
}

// foldNewline folds the line break at u[i] and the blank lines after it
// into a space, or n-1 line breaks for n, and returns where it ended.
func foldNewline(u []uint16, i int) ([]uint16, int) {
	var fold []uint16
	for {
		ch := at16(u, i+1)
		if ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r' {
			break
		}
		if ch == '\r' && at16(u, i+2) != '\n' {
			break
		}
		if ch == '\n' {
			fold = append(fold, '\n')
		}
		i++
	}
	if fold == nil {
		fold = []uint16{' '}
	}
	return fold, i
}

func escapeCode(ch uint16) ([]uint16, bool) {
	var r rune
	switch ch {
	case '0':
		r = 0
	case 'a':
		r = 7
	case 'b':
		r = '\b'
	case 'e':
		r = 0x1b
	case 'f':
		r = '\f'
	case 'n':
		r = '\n'
	case 'r':
		r = '\r'
	case 't', '\t':
		r = '\t'
	case 'v':
		r = '\v'
	case 'N':
		r = 0x85
	case '_':
		r = 0xa0
	case 'L':
		r = 0x2028
	case 'P':
		r = 0x2029
	case ' ', '"', '/', '\\':
		r = rune(ch)
	default:
		return nil, false
	}
	return []uint16{uint16(r)}, true
}

// parseCharCode reads the n hex digits of an escape at u[off:].
func (c *composer) parseCharCode(tok *cst, u []uint16, off, n int) []uint16 {
	end := min(off+n, len(u))
	cc := u[off:end]
	code := rune(-1)
	if len(cc) == n {
		code = 0
		for _, d := range cc {
			v := hexVal(d)
			if v < 0 {
				code = -1
				break
			}
			code = code*16 + rune(v)
		}
	}
	if code >= 0 && code <= 0x10ffff {
		if code >= 0x10000 {
			r1, r2 := utf16.EncodeRune(code)
			return []uint16{uint16(r1), uint16(r2)}
		}
		return []uint16{uint16(code)}
	}
	raw := u[off-2 : min(off+n, len(u))]
	c.errAt(tok.offset()+unitsByteLen(u[:off-2]), "BAD_DQ_ESCAPE", "Invalid escape sequence "+fromUnits(raw))
	return raw
}

func hexVal(d uint16) int {
	switch {
	case d >= '0' && d <= '9':
		return int(d - '0')
	case d >= 'a' && d <= 'f':
		return int(d-'a') + 10
	case d >= 'A' && d <= 'F':
		return int(d-'A') + 10
	}
	return -1
}

// toUnits returns s as UTF-16 code units; s is valid UTF-8.
func toUnits(s string) []uint16 {
	u := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			u = append(u, uint16(s[i]))
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 && i+2 < len(s) && s[i] == 0xed && s[i+1] >= 0xa0 && s[i+1] <= 0xbf {
			// A lone surrogate, which a \u escape leaves in WTF-8.
			u = append(u, uint16(0xd000|rune(s[i+1]&0x3f)<<6|rune(s[i+2]&0x3f)))
			i += 3
			continue
		}
		u = utf16.AppendRune(u, r)
		i += size
	}
	return u
}

// fromUnits returns UTF-16 code units as UTF-8, a lone surrogate as its
// WTF-8 bytes.
func fromUnits(u []uint16) string {
	b := make([]byte, 0, len(u))
	for i := 0; i < len(u); i++ {
		r := rune(u[i])
		if utf16.IsSurrogate(r) && r < 0xdc00 && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] < 0xe000 {
			r = utf16.DecodeRune(r, rune(u[i+1]))
			i++
		}
		b = appendWTF8(b, r)
	}
	return string(b)
}

// appendWTF8 appends r as UTF-8, a surrogate as the three bytes UTF-8 would
// give it.
func appendWTF8(b []byte, r rune) []byte {
	if r >= 0xd800 && r < 0xe000 {
		return append(b, 0xe0|byte(r>>12), 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
	}
	return utf8.AppendRune(b, r)
}

// unitsByteLen is the length in bytes of the text the code units came from.
func unitsByteLen(u []uint16) int {
	return len(fromUnits(u))
}

// blockHeader is a block scalar's header.
type blockHeader struct {
	mode    byte // '|' or '>'
	indent  int
	chomp   byte // '-', '+' or 0
	comment string
	length  int
}

//kicikit:long yaml's resolveBlockScalar: the indentation search, the folding and the chomping are one pass over the lines
func (c *composer) resolveBlockScalar(ctx *composeCtx, tok *cst) (string, Style, string, span) {
	start := tok.offset()
	h := c.blockScalarHeader(tok)
	style := Literal
	if h.mode == '>' {
		style = Folded
	}
	src := tok.src(c.text)
	lines := splitBlockLines(src)
	chompStart := len(lines)
	for i := len(lines) - 1; i >= 0; i-- {
		if content := lines[i].content(src); content == "" || content == "\r" {
			chompStart = i
		} else {
			break
		}
	}
	if chompStart == 0 {
		value := ""
		if h.chomp == '+' && len(lines) > 0 {
			value = strings.Repeat("\n", max(1, len(lines)-1))
		}
		end := start + h.length + tok.srcLen()
		return value, style, h.comment, newSpan(start, end, end)
	}
	trimIndent := tok.indent() + h.indent
	offset := tok.offset() + h.length
	contentStart := 0
	for i := 0; i < chompStart; i++ {
		indent, content := lines[i].indent(src), lines[i].content(src)
		if content == "" || content == "\r" {
			if h.indent == 0 && len(indent) > trimIndent {
				trimIndent = len(indent)
			}
		} else {
			if len(indent) < trimIndent {
				c.errAt(offset+len(indent), "MISSING_CHAR", "Block scalars with more-indented leading empty lines must use an explicit indentation indicator")
			}
			if h.indent == 0 {
				trimIndent = len(indent)
			}
			contentStart = i
			if trimIndent == 0 && !ctx.atRoot {
				c.errAt(offset, "BAD_INDENT", "Block scalar values in collections must be indented")
			}
			break
		}
		offset += len(indent) + len(content) + 1
	}
	// Trailing more-indented empty lines are content.
	for i := len(lines) - 1; i >= chompStart; i-- {
		if len(lines[i].indent(src)) > trimIndent {
			chompStart = i + 1
		}
	}
	var b strings.Builder
	b.Grow(len(src) + 1) // room for the value, seldom longer than its source
	sep := ""
	prevMoreIndented := false
	for i := 0; i < contentStart; i++ {
		b.WriteString(sliceFrom(lines[i].indent(src), trimIndent))
		b.WriteByte('\n')
	}
	for i := contentStart; i < chompStart; i++ {
		indent, content := lines[i].indent(src), lines[i].content(src)
		offset += len(indent) + len(content) + 1
		crlf := strings.HasSuffix(content, "\r")
		if crlf {
			content = content[:len(content)-1]
		}
		if content != "" && len(indent) < trimIndent {
			what := "first line"
			if h.indent != 0 {
				what = "explicit indentation indicator"
			}
			back := 1
			if crlf {
				back = 2
			}
			c.errAt(offset-len(content)-back, "BAD_INDENT", "Block scalar lines must not be less indented than their "+what)
			indent = ""
		}
		switch {
		case style == Literal:
			b.WriteString(sep)
			b.WriteString(sliceFrom(indent, trimIndent))
			b.WriteString(content)
			sep = "\n"
		case len(indent) > trimIndent || strings.HasPrefix(content, "\t"):
			// More-indented lines of a folded scalar are kept as they are.
			if sep == " " {
				sep = "\n"
			} else if !prevMoreIndented && sep == "\n" {
				sep = "\n\n"
			}
			b.WriteString(sep)
			b.WriteString(sliceFrom(indent, trimIndent))
			b.WriteString(content)
			sep = "\n"
			prevMoreIndented = true
		case content == "":
			if sep == "\n" {
				b.WriteByte('\n')
			} else {
				sep = "\n"
			}
		default:
			b.WriteString(sep)
			b.WriteString(content)
			sep = " "
			prevMoreIndented = false
		}
	}
	switch h.chomp {
	case '-':
	case '+':
		for i := chompStart; i < len(lines); i++ {
			b.WriteByte('\n')
			b.WriteString(sliceFrom(lines[i].indent(src), trimIndent))
		}
		if s := b.String(); !strings.HasSuffix(s, "\n") {
			b.WriteByte('\n')
		}
	default:
		b.WriteByte('\n')
	}
	end := start + h.length + tok.srcLen()
	value := b.String()
	if len(value) < b.Cap()/2 { // much less than its room: lines indented deep
		value = strings.Clone(value)
	}
	return value, style, h.comment, newSpan(start, end, end)
}

// sliceFrom is JavaScript's s.slice(n).
func sliceFrom(s string, n int) string {
	if n >= len(s) {
		return ""
	}
	return s[n:]
}

func (c *composer) blockScalarHeader(tok *cst) blockHeader {
	props := tok.x.props
	src := c.src(props[0])
	h := blockHeader{mode: src[0], length: len(src)}
	if bad := h.indicators(src); bad != -1 {
		c.errAt(tok.offset()+bad, "UNEXPECTED_TOKEN", "Block scalar header includes extra characters: "+src)
	}
	hasSpace := false
	msgs := tok.x.propMsgs
	for _, t := range props[1:] {
		switch t.typ {
		case tSpace:
			hasSpace = true
			h.length += t.size()
		case tNewline:
			h.length += t.size()
		case tComment:
			if !hasSpace {
				c.errTok(t, "MISSING_CHAR", "Comments must be separated from other tokens by white space characters")
			}
			h.length += t.size()
			h.comment = c.src(t)[1:]
		case tError:
			c.errTok(t, "UNEXPECTED_TOKEN", msgs[0])
			msgs = msgs[1:]
			h.length += t.size()
		default:
			c.errTok(t, "UNEXPECTED_TOKEN", "Unexpected token in block scalar header: "+t.typ.String())
			h.length += t.size()
		}
	}
	return h
}

// indicators reads a header's chomping and indentation indicators and
// returns the index of its first other character, -1 for none.
func (h *blockHeader) indicators(src string) int {
	bad := -1
	for i := 1; i < len(src); i++ {
		ch := src[i]
		if h.chomp == 0 && (ch == '-' || ch == '+') {
			h.chomp = ch
		} else if n := int(ch) - '0'; h.indent == 0 && n >= 1 && n <= 9 {
			h.indent = n
		} else if bad == -1 {
			bad = i
		}
	}
	return bad
}

// blockLine is a line of a block scalar's source: where it starts, where
// its leading spaces end, and where it ends, before its line break. A line
// is 12 bytes, where two strings would take 32: a block scalar of short
// lines has about one a two bytes.
type blockLine struct{ at, sp, end int32 }

func (l blockLine) indent(src string) string  { return src[l.at:l.sp] }
func (l blockLine) content(src string) string { return src[l.sp:l.end] }

// splitBlockLines splits a block scalar's source into lines, each with its
// leading spaces apart. src is a text's, whose offsets fit an int32.
func splitBlockLines(src string) []blockLine {
	if src == "" {
		return nil
	}
	lines := make([]blockLine, 0, 1+strings.Count(src, "\n"))
	for at := 0; ; {
		end := len(src)
		if nl := strings.IndexByte(src[at:], '\n'); nl >= 0 {
			end = at + nl
		}
		sp := at
		for sp < end && src[sp] == ' ' {
			sp++
		}
		lines = append(lines, blockLine{int32(at), int32(sp), int32(end)})
		if end == len(src) {
			return lines
		}
		at = end + 1
	}
}
