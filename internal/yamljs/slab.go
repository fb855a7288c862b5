package yamljs

import "unsafe"

// slab hands out values of T from chunks: a large text has millions of
// syntax tree nodes, tokens and items, and an allocation each would
// dominate the time it takes to read.
//
// A slab that keeps its chunks (a Reader's) hands them out again after
// reset, so that reading text after text allocates about once. One that
// does not (Parse's) lets a full chunk go, so that what was taken from it
// is collected as soon as nothing points at it.
type slab[T any] struct {
	cur    []T   // the chunk being handed out, up to its last value taken
	chunks [][]T // with keep: every chunk made, in the order made
	next   int   // with keep: the index in chunks of the chunk after cur
	keep   bool
	most   int // the capacity of the largest chunk
}

// take returns n zeroed values of one chunk: n small beside the chunks
// (a list of a few slots, or a collection's list of its items), since the
// room left in a chunk too small for n is wasted.
func (s *slab[T]) take(n int) []T {
	k := len(s.cur)
	if k+n > cap(s.cur) {
		s.advance(n)
		k = 0
	}
	s.cur = s.cur[:k+n]
	v := s.cur[k : k+n : k+n]
	clear(v) // a kept chunk holds what the last text left there
	return v
}

// advance moves to the next chunk with room for n values: a kept one, or
// a new one twice the size of the last, from 16 up to most.
func (s *slab[T]) advance(n int) {
	for s.keep && s.next < len(s.chunks) {
		c := s.chunks[s.next]
		s.next++
		if cap(c) >= n {
			s.cur = c[:0]
			return
		}
	}
	s.cur = make([]T, 0, max(nextChunk(cap(s.cur), s.most), n))
	if s.keep {
		s.chunks = append(s.chunks, s.cur)
		s.next = len(s.chunks)
	}
}

// grow returns list with room for at least one more value: list itself
// when it has room, else its values copied to twice its capacity, in a
// chunk when that is small (the slots it leaves are not used again until
// a kept chunk is reset), else in an array of its own.
func (s *slab[T]) grow(list []T) []T {
	if len(list) < cap(list) {
		return list
	}
	n := max(2*cap(list), 3)
	if n > s.most/8 {
		return append(make([]T, 0, n), list...)
	}
	grown := s.take(n)[:len(list)]
	copy(grown, list)
	return grown
}

// reset makes a slab that keeps its chunks hand them out again, from the
// first; what was taken before must no longer be used.
func (s *slab[T]) reset() { s.cur, s.next = nil, 0 }

// nextChunk is the capacity of the chunk after one of capacity had: from
// 16 up, doubling up to most, so that a short text allocates little.
func nextChunk(had, most int) int { return min(max(2*had, 16), most) }

// The capacity of the largest chunk of each slab.
const (
	chunk     = 512
	listChunk = 4 * chunk // for lists of two to four slots
)

// pageFill is a capacity of n values of T, raised to fill the memory the
// runtime gives a chunk of n: an object over 32 KiB takes whole 8 KiB
// pages, so that 512 syntax tree items of 72 bytes (36 KiB) take 40 KiB,
// where 568 fit.
func pageFill[T any](n int) int {
	const largeObject, page = 32 << 10, 8 << 10
	size := int(unsafe.Sizeof(*new(T)))
	if n*size <= largeObject {
		return n // a size class of the runtime's, which fits it closely
	}
	return (n*size + page - 1) / page * page / size
}

// parserSlabs are the parser's slabs.
type parserSlabs struct {
	toks     slab[token]
	items    slab[cstItem]
	itemPtrs slab[*cstItem]
	nodes    slab[cst]
	exts     slab[cstExt]
	lines    []int32 // the memory of the parser's lines
}

func newParserSlabs(keep bool) *parserSlabs {
	return &parserSlabs{
		toks:     slab[token]{keep: keep, most: listChunk},
		items:    slab[cstItem]{keep: keep, most: pageFill[cstItem](chunk)},
		itemPtrs: slab[*cstItem]{keep: keep, most: listChunk},
		nodes:    slab[cst]{keep: keep, most: pageFill[cst](chunk)},
		exts:     slab[cstExt]{keep: keep, most: pageFill[cstExt](chunk)},
	}
}

func (ps *parserSlabs) reset() {
	ps.toks.reset()
	ps.items.reset()
	ps.itemPtrs.reset()
	ps.nodes.reset()
	ps.exts.reset()
}

// composerSlabs are the composer's and the converter's slabs: the
// document model, which the returned Nodes live in, and the lists of both.
type composerSlabs struct {
	nodes   slab[ynode]
	exts    slab[yext]
	pairs   slab[ypair]
	items   slab[*ynode]
	jsPairs slab[Pair]
	jsItems slab[*Node]
}

func newComposerSlabs(keep bool) *composerSlabs {
	return &composerSlabs{
		nodes:   slab[ynode]{keep: keep, most: pageFill[ynode](chunk)},
		exts:    slab[yext]{keep: keep, most: pageFill[yext](chunk)},
		pairs:   slab[ypair]{keep: keep, most: listChunk},
		items:   slab[*ynode]{keep: keep, most: listChunk},
		jsPairs: slab[Pair]{keep: keep, most: pageFill[Pair](chunk)},
		jsItems: slab[*Node]{keep: keep, most: listChunk},
	}
}

func (cs *composerSlabs) reset() {
	cs.nodes.reset()
	cs.exts.reset()
	cs.pairs.reset()
	cs.items.reset()
	cs.jsPairs.reset()
	cs.jsItems.reset()
}

// list returns an empty list with room for n values: in a chunk when n is
// small, else in an array of its own.
func list[T any](s *slab[T], n int) []T {
	if n > s.most/8 {
		return make([]T, 0, n)
	}
	return s.take(n)[:0]
}
