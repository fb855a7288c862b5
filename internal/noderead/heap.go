package noderead

import (
	"bytes"
	"strconv"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// MaxEntries is the fewest entries of collections (items of lists, pairs
// of mappings) a config file holds when node 20 runs out of heap parsing
// it with yaml 2.9.1: its heap is then full of the syntax tree and the
// document yaml builds, and node stops with "FATAL ERROR: Reached heap
// limit Allocation failed - JavaScript heap out of memory". The
// orchestrator does not load such a file.
//
// How it was measured: node v20.20.2 with its default heap, whose limit
// (heap_size_limit) is 4,144 MiB on a machine of 16 GB or more and less on
// a smaller one, parsing a block list of empty items ("-\n" a line, the
// entry that costs yaml the least memory of those measured: flow lists of
// one-character scalars, block lists of scalars, empty flow lists, lines
// of comments cost more), read 7,000,000 items (14 MB, 4.2 GB of memory)
// and failed on 8,000,000. A file is counted with yaml's own lexer
// ([yamljs.CountEntries], a lower bound of the entries yaml's parser
// makes), only when it has MaxEntries bytes or more that can be the
// indicators its entries are counted at ("-", ":", ","): a file with
// MaxEntries entries or more fails in node under any default heap.
const MaxEntries = 8_000_000

// MaxFlowEntries is the fewest entries of flow collections ([a, b],
// {a: b}) a config file holds when node 20 runs out of heap parsing it
// with yaml 2.9.1, as for [MaxEntries]: an entry of a flow collection
// costs yaml more than an empty block item, and a file of them fails
// before it has MaxEntries.
//
// How it was measured: node v20.20.2 with its default heap of 4,144 MiB,
// parsing a one-line flow list of one-character scalars ([a,a,...], the
// flow entry that costs yaml the least memory: a flow map's pairs, nested
// collections, tags and quoted scalars cost more; aliases past a hundred
// fail yaml's alias count either way), read 4,000,000 entries (8 MB, 3.6
// GB) and failed on 5,000,000 (10 MB, 65 s, 4.4 GB resident), on
// 6,000,000, 6,500,000 and 7,000,000. The limit is a margin past the
// first failure: a file of 6,000,000 entries of flow collections or more
// fails in node under any default heap. The entries are counted as for
// MaxEntries: the "," separators of flow collections, no more than their
// entries.
//
// A file of both kinds is refused when its entries of flow collections
// are a share of MaxFlowEntries and its others a share of MaxEntries
// that add up to one or more (5,000,000 entries of block lists and
// 2,250,000 of flow lists: 5/8 + 2.25/6): as an entry of each kind costs
// node at least that share of its heap, such a file fills it too.
const MaxFlowEntries = 6_000_000

// nodeHeapError is what node prints when its heap is full.
const nodeHeapError = "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory"

// CheckEntries refuses b, the bytes of the config file name, with a
// [HeapLimit] Error when they hold too many entries for node's heap:
// MaxEntries or more, MaxFlowEntries of flow collections or more, or as
// many of both as fill it.
func CheckEntries(name string, b []byte) error {
	const fewest = min(MaxEntries, MaxFlowEntries)
	if len(b) < fewest || indicators(b) < fewest {
		return nil
	}
	if n, flow := yamljs.CountEntries(b); fillsHeap(n, flow) {
		return &Error{Path: name, Size: int64(len(b)), Entries: n, FlowEntries: flow, Kind: HeapLimit, NodeError: nodeHeapError}
	}
	return nil
}

// fillsHeap reports whether n entries, flow of them in flow collections,
// fill node's heap: (n-flow)/MaxEntries + flow/MaxFlowEntries >= 1.
func fillsHeap(n, flow int) bool {
	return int64(n-flow)*MaxFlowEntries+int64(flow)*MaxEntries >= int64(MaxEntries)*MaxFlowEntries
}

// indicators counts the bytes of b that can be the indicators
// yamljs.CountEntries counts entries at ("-", ":" and ","): a bound of its
// count from above, found in a few fast passes, so that a long file of
// fewer (the 100,000 label sets of bench/, 8 MB, have 600,000) is not
// lexed twice.
func indicators(b []byte) int {
	return bytes.Count(b, []byte("-")) + bytes.Count(b, []byte(":")) + bytes.Count(b, []byte(","))
}

// heapLimitWhy says why node fails on a file of at least n entries, flow
// of them in flow collections.
func heapLimitWhy(n, flow int) string {
	return ", at least " + strconv.Itoa(n) + " entries of lists and mappings, " + strconv.Itoa(flow) +
		" of them in flow collections (node's yaml runs out of node's default heap from " + strconv.Itoa(MaxEntries) +
		" entries, " + strconv.Itoa(MaxFlowEntries) + " in flow collections, or as many of both as fill it)"
}
