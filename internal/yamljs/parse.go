package yamljs

import (
	"bytes"
	"strings"
)

// Parse returns the JavaScript value that the npm package yaml's parse()
// returns for src, as a tree of Nodes with their positions in src. src is
// read as fs.readFile(path, 'utf-8') reads a file. When parse() throws,
// Parse returns a [*SyntaxError]. An empty document, or one of comments
// only, is a Null node.
//
// Parse and the other parses refuse a text of more than 1.5 GiB (3<<29
// bytes) with a [*SyntaxError] of [ErrTextTooLong]. No JavaScript string
// is that long, and its places would not fit the parser's int32.
func Parse(src []byte) (*Node, error) {
	if err := tooLong(src); err != nil {
		return nil, err
	}
	return parseSource(newSource(src), nil, nil)
}

// ParseInPlace is [Parse] of src read in place, not a copy: src must not
// change while a Node it returned, or a string of one, is in use. A caller
// that owns src, the bytes of a file it read, saves a copy of the file.
func ParseInPlace(src []byte) (*Node, error) {
	if err := tooLong(src); err != nil {
		return nil, err
	}
	s := readSource(src, true, make([]int32, 0, 1+bytes.Count(src, []byte("\n"))))
	return parseSource(s, nil, nil)
}

// ParseRange is Parse of src[from.Offset:end], a text of its own, with
// every position given in src. from must be where a line of src starts,
// as [SplitItems] gives it. A [SyntaxError]'s Thrown text, yaml's own
// message, counts the lines of the part.
func ParseRange(src []byte, from Pos, end int) (*Node, error) {
	if err := tooLong(src); err != nil {
		return nil, err
	}
	return parseSource(placed(newSource(src[from.Offset:end]), from), nil, nil)
}

// placed is s placed in the text it is a part of, from where it starts.
func placed(s *source, from Pos) *source {
	s.baseOffset, s.baseLine = from.off(), from.line()-1
	return s
}

// A Reader parses the parts of a text one after another, in memory it
// uses again for each part. Reading a large text part by part then
// allocates about what one part takes. The Nodes a parse returns live in
// that memory too. They are valid only until the Reader's next parse: a
// caller keeps copies of what it needs.
//
// The zero Reader is ready to use. It is not safe for concurrent use.
type Reader struct {
	ps    *parserSlabs
	cs    *composerSlabs
	lines []int32 // the line starts of the last part
}

// ParseRange is [ParseRange], in r's memory. It reads src in place, not a
// copy. src must not change while a Node it returned, or a string of one,
// is in use.
func (r *Reader) ParseRange(src []byte, from Pos, end int) (*Node, error) {
	if err := tooLong(src); err != nil {
		return nil, err
	}
	if r.ps == nil {
		r.ps, r.cs = newParserSlabs(true), newComposerSlabs(true)
	}
	r.ps.reset()
	r.cs.reset()
	s := placed(readSource(src[from.Offset:end], true, r.lines), from)
	r.lines = s.lines
	return parseSource(s, r.ps, r.cs)
}

// ParseWithout is Parse of src without its lines from `from` up to `to`,
// with every position given in src. Both are where a line starts, as
// [SplitItems] gives them. A [SyntaxError]'s Thrown text, yaml's own
// message, counts the lines of the text without them.
func ParseWithout(src []byte, from, to Pos) (*Node, error) {
	if err := tooLong(src); err != nil {
		return nil, err
	}
	text := make([]byte, 0, len(src)-(to.off()-from.off()))
	text = append(append(text, src[:from.Offset]...), src[to.Offset:]...)
	s := readSource(text, true, make([]int32, 0, 1+bytes.Count(text, []byte("\n")))) // text is this call's own
	s.cutAt, s.cutBytes, s.cutLines = from.off(), to.off()-from.off(), to.line()-from.line()
	return parseSource(s, nil, nil)
}

// ParseRangeWithout is [ParseRange] of src[from.Offset:end] without its
// lines from cutFrom up to cutTo. Both are where a line starts within the
// range, as [SplitNestedItems] gives them. Every position is given in
// src. It parses an item of a sequence without the item's own items.
func ParseRangeWithout(src []byte, from Pos, end int, cutFrom, cutTo Pos) (*Node, error) {
	if err := tooLong(src); err != nil {
		return nil, err
	}
	text := make([]byte, 0, end-from.off()-(cutTo.off()-cutFrom.off()))
	text = append(append(text, src[from.Offset:cutFrom.Offset]...), src[cutTo.Offset:end]...)
	s := readSource(text, true, make([]int32, 0, 1+bytes.Count(text, []byte("\n")))) // text is this call's own
	s.cutAt, s.cutBytes, s.cutLines = cutFrom.off()-from.off(), cutTo.off()-cutFrom.off(), cutTo.line()-cutFrom.line()
	return parseSource(placed(s, from), nil, nil)
}

// parseSource parses s with the slabs given (nil: slabs of its own).
func parseSource(s *source, ps *parserSlabs, cs *composerSlabs) (*Node, error) {
	if cs == nil {
		cs = newComposerSlabs(false)
	}
	doc, aliases, lines := compose(s, ps, cs)
	if len(doc.errors) > 0 {
		e := s.syntaxError(doc.errors)
		e.Thrown = prettyMessage(s.text, lines, doc.errors[0])
		return nil, e
	}
	if doc.contents == nil {
		at := s.pos(0)
		return &Node{Kind: Null, Pos: at, End: at}, nil
	}
	cv := newConverter(doc, s, aliases, cs)
	js, err := cv.toJS(doc.contents)
	if err != nil {
		p := Problem{Code: err.code, Message: err.message}
		if err.at != nil {
			p.Pos, p.End = s.pos(err.at.rng.start()), s.pos(err.at.rng.valueEnd())
		}
		return nil, &SyntaxError{Problems: []Problem{p}, Thrown: err.message}
	}
	return js, nil
}

// compose reads the text to its first document; a second one is an error
// of the first, as parse() makes it. It reports whether the text holds an
// alias, and returns the line starts yaml's line counter learnt of.
func compose(s *source, ps *parserSlabs, cs *composerSlabs) (*document, bool, []int32) {
	var first *document
	comp := newComposer(s.text, func(d *document) bool {
		if first == nil {
			first = d
			return true
		}
		first.errors = append(first.errors, problem{start: d.rng.start(), end: d.rng.valueEnd(), code: string(ErrMultipleDocs),
			message: "Source contains multiple documents; please use YAML.parseAllDocuments()"})
		return false
	}, cs)
	if ps == nil {
		ps = newParserSlabs(false)
	}
	// The parser learns of a line start of the text at most once, as s
	// counts them: room for them all spares the copies of a growing list.
	if cap(ps.lines) < len(s.lines) {
		ps.lines = make([]int32, 0, len(s.lines))
	}
	p := newParser(s.text, comp.next, ps)
	lx := newLexer(s.text, p.next)
	p.halt = lx.halt
	lx.run()
	comp.tooDeep = p.tooDeep
	p.end()
	comp.end(len(s.text))
	if p.tooDeep != nil {
		p.lines = stoppedAt(s.text, p.lines, p.offset)
		if first != nil {
			first.errors = upToTooDeep(first.errors)
		}
	}
	p.slabs.lines = p.lines // kept for the next text when the slabs are
	return first, comp.sawAlias, p.lines
}

// stoppedAt completes the line starts of a parse stopped at offset with
// the start of the line after it, which ends the line of the problem
// reported there.
func stoppedAt(text string, lines []int32, offset int) []int32 {
	if i := strings.IndexByte(text[min(offset, len(text)):], '\n'); i >= 0 {
		lines = append(lines, int32(offset+i+1))
	}
	return lines
}

// upToTooDeep are the problems up to the refusal of a parse stopped at a
// collection nested too deep: those after it are of the text's end where
// the parse stopped, not of the text.
func upToTooDeep(errs []problem) []problem {
	for i, e := range errs {
		if e.tooDeep {
			return errs[:i+1]
		}
	}
	return errs
}

func (s *source) syntaxError(probs []problem) *SyntaxError {
	e := &SyntaxError{Problems: make([]Problem, len(probs))}
	for i, p := range probs {
		end := min(p.end, len(s.text))
		e.Problems[i] = Problem{Pos: s.pos(p.start), End: s.pos(max(end, p.start)), Code: Code(p.code), Message: p.message}
	}
	return e
}
