package yamljs

import "strings"

// The lexer splits the text into lexical tokens, each a slice of the text or
// one of the control tokens below, and hands each to the parser as it goes.
// It is a state machine over the whole text, as yaml's Lexer is when given
// the whole input at once; every decision it takes looks at ASCII bytes only,
// so it reads UTF-8 bytes exactly as yaml reads UTF-16 code units.

// The control tokens. They are also what a one-byte slice of the text with
// that byte reads as, as in yaml.
const (
	ctlDocument = "\x02" // a document starts with the next token
	ctlFlowEnd  = "\x18" // a flow collection ended early (an error)
	ctlScalar   = "\x1f" // the next token is a scalar's source
	bom         = "\ufeff"
)

// lexState is the lexer's next state. yaml's scalar states are entered
// from these, never returned to: with the whole text at hand, a scalar is
// always read to its end.
type lexState uint8

const (
	lexStream lexState = iota
	lexLineStart
	lexBlockStart
	lexDoc
	lexFlow
)

type lexer struct {
	src  string
	pos  int
	emit func(at int, s string) // at -1 for a control token

	blockScalarIndent int  // explicit indentation indicator less one, or -1
	blockScalarKeep   bool // the block scalar's header has "+"
	flowKey           bool // ":" may follow at once in a flow collection
	flowLevel         int
	indentNext        int // least indent of the lines that continue a scalar
	indentValue       int // indent of the current line
	lineEnd           int // cached position of the next '\n', or -1
	halted            bool
}

func newLexer(src string, emit func(int, string)) *lexer {
	return &lexer{src: src, emit: emit, blockScalarIndent: -1, lineEnd: -2}
}

// run lexes the whole text, or up to where halt is called.
func (l *lexer) run() {
	next := lexStream
	for l.pos < len(l.src) && !l.halted {
		next = l.step(next)
	}
}

// halt stops run once the step under way ends: the tokens it lexes up to
// then are still handed out.
func (l *lexer) halt() { l.halted = true }

func (l *lexer) step(s lexState) lexState {
	switch s {
	case lexStream:
		return l.parseStream()
	case lexLineStart:
		return l.parseLineStart()
	case lexBlockStart:
		return l.parseBlockStart()
	case lexDoc:
		return l.parseDocument()
	default:
		return l.parseFlowCollection()
	}
}

// ch returns the byte at i, or -1 past the end.
func (l *lexer) ch(i int) int {
	if i >= 0 && i < len(l.src) {
		return int(l.src[i])
	}
	return -1
}

// unitAfter is JavaScript's charAt(1): the UTF-16 code unit after the one
// at pos. The character at pos may take several bytes, and a character
// beyond U+FFFF takes two code units, the second of which is not empty.
func (l *lexer) unitAfter() int {
	n := charLen(l.src, l.pos)
	if n == 4 {
		return 0xdc00
	}
	return l.ch(l.pos + n)
}

func isEmpty(c int) bool {
	return c == -1 || c == ' ' || c == '\n' || c == '\r' || c == '\t'
}

func isFlowIndicator(c int) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}

func isNotAnchorChar(c int) bool {
	return c == -1 || c == ' ' || c == '\n' || c == '\r' || c == '\t' || isFlowIndicator(c)
}

func isHexDigit(c int) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isTagChar(c int) bool {
	if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		return true
	}
	return c >= 0 && strings.IndexByte("-#;/?:@&=+$_.!~*'()", byte(c)) >= 0
}

func (l *lexer) atLineEnd() bool {
	i := l.pos
	c := l.ch(i)
	for c == ' ' || c == '\t' {
		i++
		c = l.ch(i)
	}
	if c == -1 || c == '#' || c == '\n' {
		return true
	}
	return c == '\r' && l.ch(i+1) == '\n'
}

// continueScalar returns where a scalar continues on the line starting at
// offset, or -1 when that line ends it.
func (l *lexer) continueScalar(offset int) int {
	c := l.ch(offset)
	if l.indentNext > 0 {
		indent := 0
		for c == ' ' {
			indent++
			c = l.ch(indent + offset)
		}
		if c == '\r' && l.ch(indent+offset+1) == '\n' {
			return offset + indent + 1
		}
		if c == '\n' || indent >= l.indentNext {
			return offset + indent
		}
		return -1
	}
	if (c == '-' || c == '.') && l.isDocMarker(offset) {
		return -1
	}
	return offset
}

// isDocMarker reports whether "---" or "..." and white space or the end
// start at i.
func (l *lexer) isDocMarker(i int) bool {
	if !strings.HasPrefix(l.src[i:], "---") && !strings.HasPrefix(l.src[i:], "...") {
		return false
	}
	return isEmpty(l.ch(i + 3))
}

// getLine returns the rest of the current line, without its line break.
func (l *lexer) getLine() string {
	end := l.lineEnd
	if end == -2 || (end != -1 && end < l.pos) {
		end = strings.IndexByte(l.src[l.pos:], '\n')
		if end >= 0 {
			end += l.pos
		}
		l.lineEnd = end
	}
	if end == -1 {
		return l.src[l.pos:]
	}
	if end > 0 && l.src[end-1] == '\r' {
		end--
	}
	if end < l.pos { // as JavaScript's substring, which swaps its ends
		return l.src[end:l.pos]
	}
	return l.src[l.pos:end]
}

func (l *lexer) parseStream() lexState {
	line := l.getLine()
	if strings.HasPrefix(line, bom) {
		l.pushCount(len(bom))
		line = line[len(bom):]
	}
	if strings.HasPrefix(line, "%") {
		dirEnd := len(line)
		for cs := strings.IndexByte(line, '#'); cs != -1; {
			if c := line[cs-1]; c == ' ' || c == '\t' {
				dirEnd = cs - 1
				break
			}
			next := strings.IndexByte(line[cs+1:], '#')
			if next == -1 {
				break
			}
			cs += 1 + next
		}
		for dirEnd > 0 && (line[dirEnd-1] == ' ' || line[dirEnd-1] == '\t') {
			dirEnd--
		}
		n := l.pushCount(dirEnd) + l.pushSpaces(true)
		l.pushCount(len(line) - n) // a comment
		// yaml leaves the line break to the next round.
		return lexStream
	}
	if l.atLineEnd() {
		sp := l.pushSpaces(true)
		l.pushCount(len(line) - sp)
		l.pushNewline()
		return lexStream
	}
	l.emit(-1, ctlDocument)
	return l.parseLineStart()
}

func (l *lexer) parseLineStart() lexState {
	c := l.ch(l.pos)
	if (c == '-' || c == '.') && l.isDocMarker(l.pos) {
		s := l.src[l.pos : l.pos+3]
		l.pushCount(3)
		l.indentValue = 0
		l.indentNext = 0
		if s == "---" {
			return lexDoc
		}
		return lexStream
	}
	l.indentValue = l.pushSpaces(false)
	if l.indentNext > l.indentValue && !isEmpty(l.unitAfter()) {
		l.indentNext = l.indentValue
	}
	return l.parseBlockStart()
}

func (l *lexer) parseBlockStart() lexState {
	c0, c1 := l.ch(l.pos), l.ch(l.pos+1)
	if (c0 == '-' || c0 == '?' || c0 == ':') && isEmpty(c1) {
		n := l.pushCount(1) + l.pushSpaces(true)
		l.indentNext = l.indentValue + 1
		l.indentValue += n
		return lexBlockStart
	}
	return lexDoc
}

func (l *lexer) parseDocument() lexState {
	l.pushSpaces(true)
	line := l.getLine()
	n := l.pushIndicators()
	c := -1
	if n < len(line) {
		c = int(line[n])
	}
	switch c {
	case '#':
		l.pushCount(len(line) - n)
		fallthrough
	case -1:
		l.pushNewline()
		return l.parseLineStart()
	case '{', '[':
		l.pushCount(1)
		l.flowKey = false
		l.flowLevel = 1
		return lexFlow
	case '}', ']':
		l.pushCount(1) // an error
		return lexDoc
	case '*':
		l.pushUntil(isNotAnchorChar)
		return lexDoc
	case '"', '\'':
		return l.parseQuotedScalar()
	case '|', '>':
		n += l.parseBlockScalarHeader()
		n += l.pushSpaces(true)
		l.pushCount(len(line) - n)
		l.pushNewline()
		return l.parseBlockScalar()
	default:
		return l.parsePlainScalar()
	}
}

// flowSpaces pushes the line breaks and white space before a flow
// collection's next token and returns the indent of its line, -1 when the
// token is on the line the previous one ended on.
func (l *lexer) flowSpaces() int {
	indent := -1
	for {
		nl := l.pushNewline()
		sp := 0
		if nl > 0 {
			sp = l.pushSpaces(false)
			l.indentValue = sp
			indent = sp
		}
		sp += l.pushSpaces(true)
		if nl+sp == 0 {
			return indent
		}
	}
}

// flowEndsEarly reports whether a flow collection's line, at indent (-1
// when it continues the previous line), is not indented enough or is a
// document marker, which ends the collection (an error).
func (l *lexer) flowEndsEarly(indent int, line string) bool {
	if (indent == -1 || indent >= l.indentNext || strings.HasPrefix(line, "#")) &&
		(indent != 0 || !(strings.HasPrefix(line, "---") || strings.HasPrefix(line, "...")) || !isEmpty(charAt(line, 3))) {
		return false
	}
	// A closing bracket at the indent of the opening one is allowed,
	// though the grammar wants it more indented.
	return indent != l.indentNext-1 || l.flowLevel != 1 ||
		!(strings.HasPrefix(line, "]") || strings.HasPrefix(line, "}"))
}

func (l *lexer) parseFlowCollection() lexState {
	indent := l.flowSpaces()
	line := l.getLine()
	if l.flowEndsEarly(indent, line) {
		l.flowLevel = 0
		l.emit(-1, ctlFlowEnd)
		return l.parseLineStart()
	}
	n := 0
	for charAt(line, n) == ',' {
		n += l.pushCount(1)
		n += l.pushSpaces(true)
		l.flowKey = false
	}
	n += l.pushIndicators()
	return l.flowToken(line, n)
}

// flowToken lexes the token at line[n] in a flow collection.
func (l *lexer) flowToken(line string, n int) lexState {
	switch charAt(line, n) {
	case -1:
		return lexFlow
	case '#':
		l.pushCount(len(line) - n)
		return lexFlow
	case '{', '[':
		l.pushCount(1)
		l.flowKey = false
		l.flowLevel++
		return lexFlow
	case '}', ']':
		l.pushCount(1)
		l.flowKey = true
		l.flowLevel--
		if l.flowLevel > 0 {
			return lexFlow
		}
		return lexDoc
	case '*':
		l.pushUntil(isNotAnchorChar)
		return lexFlow
	case '"', '\'':
		l.flowKey = true
		return l.parseQuotedScalar()
	case ':':
		next := l.ch(l.pos + 1)
		if l.flowKey || isEmpty(next) || next == ',' {
			l.flowKey = false
			l.pushCount(1)
			l.pushSpaces(true)
			return lexFlow
		}
	}
	l.flowKey = false
	return l.parsePlainScalar()
}

func charAt(s string, i int) int {
	if i < len(s) {
		return int(s[i])
	}
	return -1
}

// quoteEnd returns the index of the quote that closes the quoted scalar
// starting at pos, or -1.
func (l *lexer) quoteEnd(quote byte) int {
	end := indexFrom(l.src, quote, l.pos+1)
	if quote == '\'' {
		for end != -1 && l.ch(end+1) == '\'' {
			end = indexFrom(l.src, '\'', end+2)
		}
		return end
	}
	for end != -1 {
		n := 0
		for l.ch(end-1-n) == '\\' {
			n++
		}
		if n%2 == 0 {
			break
		}
		end = indexFrom(l.src, '"', end+1)
	}
	return end
}

func indexFrom(s string, c byte, from int) int {
	if from > len(s) {
		return -1
	}
	i := strings.IndexByte(s[from:], c)
	if i < 0 {
		return -1
	}
	return from + i
}

func (l *lexer) parseQuotedScalar() lexState {
	end := l.quoteEnd(l.src[l.pos])
	// Only the line breaks inside the quotes matter; an unclosed quote
	// has none, as substring(0, -1) is empty in JavaScript.
	qb := ""
	if end != -1 {
		qb = l.src[:end]
	}
	nl := indexFrom(qb, '\n', l.pos)
	if nl != -1 {
		for nl != -1 {
			cs := l.continueScalar(nl + 1)
			if cs == -1 {
				break
			}
			nl = indexFrom(qb, '\n', cs)
		}
		if nl != -1 {
			// An unexpected unindent ends the scalar (an error).
			end = nl - 1
			if nl > 0 && qb[nl-1] == '\r' {
				end = nl - 2
			}
		}
	}
	if end == -1 {
		end = len(l.src)
	}
	l.pushToIndex(end+1, false)
	if l.flowLevel > 0 {
		return lexFlow
	}
	return lexDoc
}

func (l *lexer) parseBlockScalarHeader() int {
	l.blockScalarIndent = -1
	l.blockScalarKeep = false
	for i := l.pos + 1; ; i++ {
		c := l.ch(i)
		if c == '+' {
			l.blockScalarKeep = true
		} else if c > '0' && c <= '9' {
			l.blockScalarIndent = c - '0' - 1
		} else if c != '-' {
			break
		}
	}
	return l.pushUntil(func(c int) bool { return isEmpty(c) || c == '#' })
}

//kicikit:long yaml's block scalar lexing is one state of its machine; split, its shared locals would need a struct of their own
func (l *lexer) parseBlockScalar() lexState {
	nl := l.pos - 1 // -1 when the scalar starts the text
	indent := 0
	i := l.pos
loop:
	for ; i < len(l.src); i++ {
		switch l.src[i] {
		case ' ':
			indent++
		case '\n':
			nl = i
			indent = 0
		case '\r':
			if l.ch(i+1) == '\n' {
				continue
			}
			break loop
		default:
			break loop
		}
	}
	if indent >= l.indentNext {
		if l.blockScalarIndent == -1 {
			l.indentNext = indent
		} else {
			base := l.indentNext
			if base == 0 {
				base = 1
			}
			l.indentNext = l.blockScalarIndent + base
		}
		for {
			cs := l.continueScalar(nl + 1)
			if cs == -1 {
				break
			}
			nl = indexFrom(l.src, '\n', cs)
			if nl == -1 {
				break
			}
		}
		if nl == -1 {
			nl = len(l.src)
		}
	}
	// Trailing insufficiently indented tabs are invalid; yaml takes them
	// into the scalar so that composing it reports them.
	i = nl + 1
	c := l.ch(i)
	for c == ' ' {
		i++
		c = l.ch(i)
	}
	if c == '\t' {
		for c == '\t' || c == ' ' || c == '\r' || c == '\n' {
			i++
			c = l.ch(i)
		}
		nl = i - 1
	} else if !l.blockScalarKeep {
		nl = l.dropTrailingLines(nl, indent)
	}
	l.emit(-1, ctlScalar)
	l.pushToIndex(nl+1, true)
	return l.parseLineStart()
}

// dropTrailingLines moves nl back over the trailing lines that are no more
// indented than indent.
func (l *lexer) dropTrailingLines(nl, indent int) int {
	for {
		i := nl - 1
		c := l.ch(i)
		if c == '\r' {
			i--
			c = l.ch(i)
		}
		lastChar := i
		for c == ' ' {
			i--
			c = l.ch(i)
		}
		if c == '\n' && i >= l.pos && i+1+indent > lastChar {
			nl = i
		} else {
			return nl
		}
	}
}

//kicikit:long yaml's plain scalar lexing is one loop whose cases share its cursor
func (l *lexer) parsePlainScalar() lexState {
	inFlow := l.flowLevel > 0
	end := l.pos - 1
	i := l.pos - 1
	for {
		i++
		if j := l.skipPlain(i, inFlow); j > i {
			end, i = j-1, j // each byte skipped ends the scalar so far
		}
		c := l.ch(i)
		if c == -1 {
			break
		}
		if c == ':' {
			next := l.ch(i + 1)
			if isEmpty(next) || (inFlow && isFlowIndicator(next)) {
				break
			}
			end = i
		} else if isEmpty(c) {
			next := l.ch(i + 1)
			if c == '\r' {
				if next == '\n' {
					i++
					c = '\n'
					next = l.ch(i + 1)
				} else {
					end = i
				}
			}
			if next == '#' || (inFlow && isFlowIndicator(next)) {
				break
			}
			if c == '\n' {
				cs := l.continueScalar(i + 1)
				if cs == -1 {
					break
				}
				i = max(i, cs-2) // to advance, but still see a " #"
			}
		} else {
			if inFlow && isFlowIndicator(c) {
				break
			}
			end = i
		}
	}
	l.emit(-1, ctlScalar)
	l.pushToIndex(end+1, true)
	if inFlow {
		return lexFlow
	}
	return lexDoc
}

// The bytes below 128 that a plain scalar's loop looks at: in a block,
// ':' and white space (bits of plainStops, by byte); in a flow collection
// the flow indicators too (flowStops, by byte less 64, and ',').
const (
	plainStops = 1<<':' | 1<<' ' | 1<<'\t' | 1<<'\n' | 1<<'\r'
	flowStops  = 1<<('['-64) | 1<<(']'-64) | 1<<('{'-64) | 1<<('}'-64)
)

// skipPlain returns the index of the first byte from i on that the plain
// scalar's loop looks at, every byte before it being one that just
// extends the scalar: not ':', white space or, in a flow collection, a
// flow indicator.
func (l *lexer) skipPlain(i int, inFlow bool) int {
	stops0, stops1 := uint64(plainStops), uint64(0)
	if inFlow {
		stops0, stops1 = plainStops|1<<',', flowStops
	}
	for ; i < len(l.src); i++ {
		switch c := l.src[i]; {
		case c < 64:
			if stops0>>c&1 != 0 {
				return i
			}
		case c < 128:
			if stops1>>(c-64)&1 != 0 {
				return i
			}
		}
	}
	return i
}

func (l *lexer) pushCount(n int) int {
	if n > 0 {
		if l.pos+n > len(l.src) {
			n = len(l.src) - l.pos
		}
		l.emit(l.pos, l.src[l.pos:l.pos+n])
		l.pos += n
		return n
	}
	return 0
}

func (l *lexer) pushToIndex(i int, allowEmpty bool) int {
	if i > len(l.src) {
		i = len(l.src)
	}
	if i > l.pos {
		s := l.src[l.pos:i]
		l.emit(l.pos, s)
		l.pos = i
		return len(s)
	}
	if allowEmpty {
		l.emit(l.pos, "")
	}
	return 0
}

func (l *lexer) pushIndicators() int {
	n := 0
	for {
		switch l.ch(l.pos) {
		case '!':
			n += l.pushTag()
			n += l.pushSpaces(true)
			continue
		case '&':
			n += l.pushUntil(isNotAnchorChar)
			n += l.pushSpaces(true)
			continue
		case '-', '?', ':':
			if k := l.pushIndicator(); k > 0 {
				n += k
				continue
			}
		}
		return n
	}
}

// pushIndicator pushes a "-", "?" or ":" that white space (or, in a flow
// collection, a flow indicator) follows, and the white space after it; 0
// when the character is not one.
func (l *lexer) pushIndicator() int {
	inFlow := l.flowLevel > 0
	c1 := l.ch(l.pos + 1)
	if !isEmpty(c1) && !(inFlow && isFlowIndicator(c1)) {
		return 0
	}
	if !inFlow {
		l.indentNext = l.indentValue + 1
	} else if l.flowKey {
		l.flowKey = false
	}
	return l.pushCount(1) + l.pushSpaces(true)
}

func (l *lexer) pushTag() int {
	if l.ch(l.pos+1) == '<' {
		i := l.pos + 2
		c := l.ch(i)
		for !isEmpty(c) && c != '>' {
			i++
			c = l.ch(i)
		}
		if c == '>' {
			i++
		}
		return l.pushToIndex(i, false)
	}
	i := l.pos + 1
	for c := l.ch(i); c != -1; c = l.ch(i) {
		if isTagChar(c) {
			i++
		} else if c == '%' && isHexDigit(l.ch(i+1)) && isHexDigit(l.ch(i+2)) {
			i += 3
		} else {
			break
		}
	}
	return l.pushToIndex(i, false)
}

func (l *lexer) pushNewline() int {
	switch {
	case l.ch(l.pos) == '\n':
		return l.pushCount(1)
	case l.ch(l.pos) == '\r' && l.ch(l.pos+1) == '\n':
		return l.pushCount(2)
	}
	return 0
}

func (l *lexer) pushSpaces(allowTabs bool) int {
	i := l.pos
	for i < len(l.src) && (l.src[i] == ' ' || (allowTabs && l.src[i] == '\t')) {
		i++
	}
	n := i - l.pos
	if n > 0 {
		l.emit(l.pos, l.src[l.pos:i])
		l.pos = i
	}
	return n
}

func (l *lexer) pushUntil(test func(int) bool) int {
	i := l.pos
	for !test(l.ch(i)) {
		i++
	}
	return l.pushToIndex(i, false)
}
