package noderead

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckEntries refuses a file of as many entries as node's heap does
// not hold, counted with yaml's lexer: from MaxFlowEntries entries of flow
// collections, MaxEntries entries in all, or as many of both as fill the
// heap; and passes a file of one entry fewer, and long files of few.
func TestCheckEntries(t *testing.T) {
	t.Parallel()
	var fe *Error
	flow := []byte("[" + strings.Repeat("a,", MaxFlowEntries) + "a]\n")
	err := CheckEntries("s.yaml", flow)
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, HeapLimit, fe.Kind)
	assert.Equal(t, []int{MaxFlowEntries, MaxFlowEntries}, []int{fe.Entries, fe.FlowEntries})
	assert.Equal(t, int64(len(flow)), fe.Size)
	// One entry fewer is not refused by its count (the parse would take
	// gigabytes, so only the count is asked).
	assert.NoError(t, CheckEntries("s.yaml", []byte("["+strings.Repeat("a,", MaxFlowEntries-1)+"a]\n")))
	// Nor is a block list of one item fewer than MaxEntries; one more
	// entry makes the count.
	block := strings.Repeat("-\n", MaxEntries-1)
	assert.NoError(t, CheckEntries("s.yaml", []byte(block)))
	err = CheckEntries("s.yaml", []byte(block+"-\n"))
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, MaxEntries, fe.Entries)
	assert.Zero(t, fe.FlowEntries)
	assert.Equal(t, `"s.yaml": 16000000 bytes, at least 8000000 entries of lists and mappings, 0 of them in flow `+
		`collections (node's yaml runs out of node's default heap from 8000000 entries, 6000000 in flow collections, or `+
		`as many of both as fill it): node fails with FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap `+
		`out of memory`, err.Error())
	// Both kinds: 5,000,000 block items and 2,250,000 entries of a flow
	// list fill the heap (5/8 + 2.25/6 = 1), one flow entry fewer does not.
	mixed := func(flow int) []byte {
		return []byte(strings.Repeat("-\n", 5_000_000-1) + "- [" + strings.Repeat("a,", flow) + "a]\n")
	}
	err = CheckEntries("s.yaml", mixed(2_250_000))
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, []int{7_250_000, 2_250_000}, []int{fe.Entries, fe.FlowEntries})
	assert.NoError(t, CheckEntries("s.yaml", mixed(2_250_000-1)))
	// Long files of few entries pass: one of few indicators without being
	// lexed, one whose indicators are in a comment and a quoted scalar
	// after its count.
	assert.NoError(t, CheckEntries("s.yaml", []byte("a: "+strings.Repeat("x", MaxEntries)+"\n")))
	assert.NoError(t, CheckEntries("s.yaml", []byte("# "+strings.Repeat("- :", MaxEntries/3)+"\na: '"+strings.Repeat(",", MaxEntries/2)+"'\n")))
	// Nor does a file of "-" that yaml keeps in a scalar's end, as it
	// does after an explicit key's scalar on its line: 16 MB that node 20
	// loads (1.4 GB, 22 s), which a count of every "-" refused.
	tail := "version: 1\n? \"x\"'y'" + strings.Repeat(" -", MaxEntries+100_000) + "\n"
	assert.NoError(t, CheckEntries("s.yaml", []byte(tail)))
}
