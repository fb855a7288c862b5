package scalerconfig

import (
	"bytes"
	"strconv"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// MaxEntries is the fewest entries of collections (items of lists, pairs
// of mappings) a config file holds when node 20 runs out of heap parsing
// it with yaml 2.9.1: its heap is then full of the syntax tree and the
// document yaml builds of the file before it returns a value, and node
// stops with "FATAL ERROR: Reached heap limit Allocation failed -
// JavaScript heap out of memory". The orchestrator does not load such a
// file, and [Load], [Scan] and the others refuse it with [ErrHeapLimit]
// before they parse it.
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

// nodeHeapError is what node prints when its heap is full.
const nodeHeapError = "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory"

// checkEntries refuses the bytes b of the file named name, as the read
// names it, when they hold MaxEntries entries or more.
func checkEntries(name string, b []byte) error {
	if len(b) < MaxEntries || indicators(b) < MaxEntries {
		return nil
	}
	if n := yamljs.CountEntries(b); n >= MaxEntries {
		return &FileError{Path: name, Size: int64(len(b)), Entries: n, Reason: ErrHeapLimit, NodeError: nodeHeapError}
	}
	return nil
}

// indicators counts the bytes of b that can be the indicators
// yamljs.CountEntries counts entries at ("-", ":" and ","): a bound of its
// count from above, found in a few fast passes, so that a long file of
// fewer (the 100,000 label sets of bench/, 8 MB, have 600,000) is not
// lexed twice.
func indicators(b []byte) int {
	return bytes.Count(b, []byte("-")) + bytes.Count(b, []byte(":")) + bytes.Count(b, []byte(","))
}

// heapLimitWhy says why node fails on a file of at least n entries.
func heapLimitWhy(n int) string {
	return ", at least " + strconv.Itoa(n) + " entries of lists and mappings (node's yaml runs out of node's default heap from " +
		strconv.Itoa(MaxEntries) + " on)"
}
