package noderead

import (
	"bytes"
	"strconv"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// How the limits were measured: node v20.20.2 with its default heap,
// whose limit (heap_size_limit) is 4,144 MiB on a machine of 16 GB or more
// and less on a smaller one.
//
// A block list of empty items ("-\n" a line) is the entry that costs
// yaml the least memory of those measured: flow lists of one-character
// scalars, block lists of scalars, empty flow lists and lines of comments
// cost more. node read 7,000,000 items (14 MB, 4.2 GB of memory) and
// failed on 8,000,000.
//
// A one-line flow list of one-character scalars ([a,a,...]) is the flow
// entry that costs yaml the least: a flow map's pairs, nested
// collections, tags and quoted scalars cost more, and aliases past a
// hundred fail yaml's alias count either way. node read 4,000,000 entries
// (8 MB, 3.6 GB) and failed on 5,000,000 (10 MB, 65 s, 4.4 GB resident),
// 6,000,000, 6,500,000 and 7,000,000. MaxFlowEntries is a margin past the
// first failure.
//
// An entry of each kind costs node at least its share of the heap, so a
// file whose shares add up to one fills it too: 5,000,000 entries of
// block lists and 2,250,000 of flow lists (5/8 + 2.25/6).

// MaxEntries is the fewest collection entries (list items, mapping pairs)
// on which node 20 runs out of heap parsing a config file with yaml
// 2.9.1. Its heap is then full of yaml's syntax tree and document. node
// stops with "FATAL ERROR: Reached heap limit Allocation failed -
// JavaScript heap out of memory". The orchestrator then starts no
// scalers. The entries are counted with yaml's own lexer
// ([yamljs.CountEntries]), a lower bound of what yaml's parser makes.
const MaxEntries = 8_000_000

// MaxFlowEntries is the fewest flow collection entries ([a, b], {a: b})
// on which node 20 runs out of heap, as for [MaxEntries]. A flow entry
// costs yaml more than an empty block item. The entries are counted at
// the "," separators, no more than there are.
const MaxFlowEntries = 6_000_000

// nodeHeapError is what node prints when its heap is full.
const nodeHeapError = "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory"

// CheckEntries refuses b, the bytes of the config file name, when they
// hold too many entries for node's heap. That is MaxEntries or more, or
// MaxFlowEntries of flow collections or more, or as many of both as fill
// it. The refusal is a [HeapLimit] Error. A file is lexed only when it
// has MaxFlowEntries bytes or more that can be entry indicators ("-",
// ":", ",").
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
