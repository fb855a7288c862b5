package yamljs

import (
	"strings"

	"github.com/kicikit/kicikit/internal/jsstr"
)

// nextTok is what follows a run of properties: a token or a syntax tree
// node, or nothing (ok false).
type nextTok struct {
	ok     bool
	typ    tokType
	offset int
	size   int // its source's length
}

func nextOf(c *cst) nextTok {
	if c == nil {
		return nextTok{}
	}
	return nextTok{ok: true, typ: c.typ, offset: c.offset(), size: c.srcLen()}
}

func (c *composer) nextOfTokens(list []token) nextTok {
	if len(list) == 0 {
		return nextTok{}
	}
	t := list[0]
	return nextTok{ok: true, typ: t.typ, offset: t.offset(), size: t.size()}
}

// keyNext is yaml's `key ?? sep?.[0]`.
func (c *composer) keyNext(key *cst, sep []token) nextTok {
	if key != nil {
		return nextOf(key)
	}
	return c.nextOfTokens(sep)
}

// propsCtx is what resolveProps needs to know about where the tokens are.
type propsCtx struct {
	flow           string // "flow map", "flow sequence", or "" in a block
	indicator      tokType
	next           nextTok
	offset         int
	parentIndent   int
	startOnNewline bool
}

// props are the properties of a node (anchor, tag, comments) and what else
// yaml learns from the tokens before it.
type props struct {
	comma            *token
	found            *token // the indicator
	spaceBefore      bool
	comment          string
	hasNewline       bool
	anchor           *token
	tag              *token
	newlineAfterProp *token
	end              int
	start            int
}

//kicikit:long yaml's property scan is one pass whose states (space seen, at a new line, a tab pending) every case updates
func (c *composer) resolveProps(tokens []token, pc propsCtx) props {
	var (
		p                = props{}
		atNewline        = pc.startOnNewline
		hasSpace         = pc.startOnNewline
		comment          joined // p.comment, made in linear time
		commentSep       joined
		reqSpace         bool
		tab              *token
		start            = -1
		flow             = pc.flow != ""
		tabIsIndentation = !flow && (pc.indicator != tDocStart || pc.next.typ != tFlowCollection)
	)
	for i := range tokens {
		tok := &tokens[i]
		if reqSpace {
			if tok.typ != tSpace && tok.typ != tNewline && tok.typ != tComma {
				c.errAt(tok.offset(), "MISSING_CHAR", "Tags and anchors must be separated from the next token by white space")
			}
			reqSpace = false
		}
		if tab != nil {
			if atNewline && tok.typ != tComment && tok.typ != tNewline {
				c.errTok(*tab, "TAB_AS_INDENT", "Tabs are not allowed as indentation")
			}
			tab = nil
		}
		switch tok.typ {
		case tSpace:
			// At the document level, tabs at a line start may be white
			// space rather than indentation; in a flow collection only
			// the parser handles indentation.
			if tabIsIndentation && strings.IndexByte(c.src(*tok), '\t') >= 0 {
				tab = tok
			}
			hasSpace = true
		case tComment:
			if !hasSpace {
				c.errTok(*tok, "MISSING_CHAR", "Comments must be separated from other tokens by white space characters")
			}
			if !comment.empty() {
				comment.addJoined(&commentSep)
			}
			comment.add(commentText(c.src(*tok)))
			commentSep.reset()
			atNewline = false
		case tNewline:
			if atNewline {
				if !comment.empty() {
					comment.add(c.src(*tok))
				} else if p.found == nil || pc.indicator != tSeqItemInd {
					p.spaceBefore = true
				}
			} else {
				commentSep.add(c.src(*tok))
			}
			atNewline = true
			p.hasNewline = true
			if p.anchor != nil || p.tag != nil {
				p.newlineAfterProp = tok
			}
			hasSpace = true
		case tAnchor:
			if p.anchor != nil {
				c.errTok(*tok, "MULTIPLE_ANCHORS", "A node can have at most one anchor")
			}
			if strings.HasSuffix(c.src(*tok), ":") {
				c.warnAt(tok.end()-1, "BAD_ALIAS", "Anchor ending in : is ambiguous")
			}
			p.anchor = tok
			if start == -1 {
				start = tok.offset()
			}
			atNewline, hasSpace, reqSpace = false, false, true
		case tTag:
			if p.tag != nil {
				c.errTok(*tok, "MULTIPLE_TAGS", "A node can have at most one tag")
			}
			p.tag = tok
			if start == -1 {
				start = tok.offset()
			}
			atNewline, hasSpace, reqSpace = false, false, true
		case pc.indicator:
			if p.anchor != nil || p.tag != nil {
				c.errTok(*tok, "BAD_PROP_ORDER", "Anchors and tags must be after the "+c.src(*tok)+" indicator")
			}
			if p.found != nil {
				where := pc.flow
				if where == "" {
					where = "collection"
				}
				c.errTok(*tok, "UNEXPECTED_TOKEN", "Unexpected "+c.src(*tok)+" in "+where)
			}
			p.found = tok
			atNewline = pc.indicator == tSeqItemInd || pc.indicator == tExplicitKeyInd
			hasSpace = false
		case tComma:
			if flow {
				if p.comma != nil {
					c.errTok(*tok, "UNEXPECTED_TOKEN", "Unexpected , in "+pc.flow)
				}
				p.comma = tok
				atNewline, hasSpace = false, false
				break
			}
			fallthrough
		default:
			c.errTok(*tok, "UNEXPECTED_TOKEN", "Unexpected "+tok.typ.String()+" token")
			atNewline, hasSpace = false, false
		}
	}
	p.end = pc.offset
	if n := len(tokens); n > 0 {
		p.end = tokens[n-1].end()
	}
	if reqSpace && pc.next.ok && pc.next.typ != tSpace && pc.next.typ != tNewline && pc.next.typ != tComma &&
		(pc.next.typ != tScalar || pc.next.size != 0) {
		c.errAt(pc.next.offset, "MISSING_CHAR", "Tags and anchors must be separated from the next token by white space")
	}
	if tab != nil && ((atNewline && tab.indent() <= pc.parentIndent) || pc.next.typ == tBlockMap || pc.next.typ == tBlockSeq) {
		c.errTok(*tab, "TAB_AS_INDENT", "Tabs are not allowed as indentation")
	}
	p.start = p.end
	if start != -1 {
		p.start = start
	}
	p.comment = comment.String()
	return p
}

// after is yaml's offset + tok.source.length: tok's end when tok starts at
// offset; else, as yaml counts in UTF-16 code units, that many code units
// past offset.
func (c *composer) after(offset int, tok token) int {
	if tok.offset() == offset {
		return offset + tok.size()
	}
	return advanceUnits(c.text, offset, jsstr.UTF16Len(c.src(tok)))
}

// commentText is a comment's text without its "#", or " " when empty.
func commentText(source string) string {
	if len(source) <= 1 {
		return " "
	}
	return source[1:]
}

// resolveEnd reads the tokens after a node (white space, comments, line
// breaks; anything else is an error) and returns the comment and the
// offset after them.
func (c *composer) resolveEnd(end []token, offset int, reqSpace bool) (string, int) {
	var comment, sep joined // made in linear time
	hasSpace := false
	for _, tok := range end {
		switch tok.typ {
		case tSpace:
			hasSpace = true
		case tComment:
			if reqSpace && !hasSpace {
				c.errTok(tok, "MISSING_CHAR", "Comments must be separated from other tokens by white space characters")
			}
			if !comment.empty() {
				comment.addJoined(&sep)
			}
			comment.add(commentText(c.src(tok)))
			sep.reset()
		case tNewline:
			if !comment.empty() {
				sep.add(c.src(tok))
			}
			hasSpace = true
		default:
			c.errTok(tok, "UNEXPECTED_TOKEN", "Unexpected "+tok.typ.String()+" at node end")
		}
		offset = c.after(offset, tok)
	}
	return comment.String(), offset
}
