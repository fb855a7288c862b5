package zod

import "github.com/kicikit/kicikit/internal/yamljs"

// Outputs is where a schema makes the values of its output (objects,
// arrays, labels made canonical) when a [Payload] carries one. It hands
// them out of chunks it keeps, which Reset lets it use again. A caller
// that copies what it keeps of one output before the next (scalerconfig's
// read by groups) makes no garbage. A nil *Outputs makes each value on its
// own, for an output that is kept.
type Outputs struct {
	nodes chunks[yamljs.Node]
	pairs chunks[yamljs.Pair]
	items chunks[*yamljs.Node]
}

// Node returns a copy of v.
func (o *Outputs) Node(v yamljs.Node) *yamljs.Node {
	var n *yamljs.Node
	if o == nil {
		n = new(yamljs.Node) // not &v, which would make every v escape
	} else {
		n = &o.nodes.take(1)[0]
	}
	*n = v
	return n
}

// pairList returns a copy of pairs, nil for none.
func (o *Outputs) pairList(pairs []yamljs.Pair) []yamljs.Pair {
	if o == nil || len(pairs) == 0 {
		return append([]yamljs.Pair(nil), pairs...)
	}
	out := o.pairs.take(len(pairs))
	copy(out, pairs)
	return out
}

// itemList returns a list of n nil items.
func (o *Outputs) itemList(n int) []*yamljs.Node {
	if o == nil {
		return make([]*yamljs.Node, n)
	}
	return o.items.take(n)
}

// Reset makes o hand out its values again. What it handed out must no
// longer be used.
func (o *Outputs) Reset() {
	o.nodes.reset()
	o.pairs.reset()
	o.items.reset()
}

// chunks hands out values of T from chunks that it keeps.
type chunks[T any] struct {
	all  [][]T // every chunk, in the order made
	next int   // the index in all of the chunk after cur
	cur  []T   // the chunk being handed out, up to its last value taken
}

// outputChunk is the size of a chunk: a scaler's output is a few hundred
// values, a large one a few chunks.
const outputChunk = 1024

// take returns n zeroed values of one chunk (of their own, when n is larger
// than a chunk).
func (c *chunks[T]) take(n int) []T {
	if n > outputChunk/4 {
		return make([]T, n)
	}
	for len(c.cur)+n > cap(c.cur) {
		if c.next == len(c.all) {
			c.all = append(c.all, make([]T, 0, outputChunk))
		}
		c.cur = c.all[c.next][:0]
		c.next++
	}
	k := len(c.cur)
	c.cur = c.cur[:k+n]
	v := c.cur[k : k+n : k+n]
	clear(v)
	return v
}

// reset makes the chunks hand out their values again, from the first.
func (c *chunks[T]) reset() { c.cur, c.next = nil, 0 }
