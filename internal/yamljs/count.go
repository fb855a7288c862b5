package yamljs

import "unsafe"

// CountEntries returns a lower bound of the collection entries yaml's
// parser makes of src, and of those in flow collections. It reads src
// with yaml's own lexer and no more:
//
//   - each "-" indicator at a line's start, or after another indicator,
//     starts a block sequence item;
//   - each ":" indicator ends the key of a pair;
//   - a flow collection holds at least as many entries as it has ","
//     separators or ":" indicators. flow counts the separators alone: a
//     ":" can end a key of the same entry.
//
// It allocates little, whatever the text. So a reader can tell a text too
// large for yaml's memory (node's heap) before it reads the text. The
// lexer's decisions look at ASCII bytes only. Bytes that are not UTF-8
// count as the U+FFFD node reads them as.
func CountEntries(src []byte) (entries, flow int) {
	c := counter{item: true}
	newLexer(unsafe.String(unsafe.SliceData(src), len(src)), c.token).run()
	for len(c.flows) > 0 {
		c.close()
	}
	return c.entries, c.flow
}

// counter counts entries from the lexer's tokens.
type counter struct {
	entries    int
	flow       int          // the "," separators of flow collections: entries counted in entries too
	scalarNext bool         // the next token is a scalar's source
	blockNext  bool         // that scalar is a block scalar's body, which ends its lines
	flows      []flowCounts // the open flow collections, innermost last, up to MaxDepth
	deeper     int          // the open flow collections past MaxDepth, left uncounted
	// item is whether a "-" here starts an item: at a line's start, or
	// after an indicator that starts a value ("-", "?", ":") and spaces.
	// After a scalar, yaml's parser keeps a "-" in the scalar's end
	// (`? "x"'y' - -` is {x: null}), and so does the count.
	item bool
}

// flowCounts are the separators and indicators of an open flow collection.
type flowCounts struct{ commas, colons int }

func (c *counter) token(at int, s string) {
	if at < 0 {
		c.scalarNext = s == ctlScalar
		return
	}
	if c.scalarNext {
		c.scalarNext, c.item, c.blockNext = false, c.blockNext, false
		return
	}
	t := tokenTypeOf(s)
	c.itemAfter(t)
	switch t {
	case tFlowMapStart, tFlowSeqStart:
		if len(c.flows) == MaxDepth {
			c.deeper++
		} else {
			c.flows = append(c.flows, flowCounts{})
		}
	case tFlowMapEnd, tFlowSeqEnd:
		if c.deeper > 0 {
			c.deeper--
		} else if len(c.flows) > 0 {
			c.close()
		}
	case tComma:
		if len(c.flows) > 0 && c.deeper == 0 {
			c.flows[len(c.flows)-1].commas++
		}
	case tMapValueInd:
		switch {
		case len(c.flows) == 0:
			c.entries++
		case c.deeper == 0:
			c.flows[len(c.flows)-1].colons++
		}
	case tSeqItemInd:
		if len(c.flows) == 0 && c.item {
			c.entries++
		}
	}
}

// itemAfter sets c.item for the token after one of type t.
func (c *counter) itemAfter(t tokType) {
	switch t {
	case tNewline, tExplicitKeyInd, tMapValueInd:
		c.item = true
	case tSpace, tComment, tSeqItemInd:
	case tBlockScalarHeader:
		c.blockNext, c.item = true, false
	default:
		c.item = false
	}
}

// close counts the entries of the innermost flow collection.
func (c *counter) close() {
	f := c.flows[len(c.flows)-1]
	c.flows = c.flows[:len(c.flows)-1]
	c.entries += max(f.commas, f.colons)
	c.flow += f.commas
}
