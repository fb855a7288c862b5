package scalerconfig

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/noderead"
	"github.com/kicikit/kicikit/internal/yamljs"
)

// peakHeap runs f and returns the most heap its objects took while it ran
// beyond what they took before, sampled every 100µs with the collector
// run at a tenth of the heap's growth so that the heap stays near what is
// live.
func peakHeap(f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var peak atomic.Uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			peak.Store(max(peak.Load(), read()))
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Microsecond):
			}
		}
	}()
	f()
	close(stop)
	<-done
	top := max(peak.Load(), read())
	return top - min(base, top)
}

// TestHeapLimitFlowList: a one-line flow list of as many entries as node's
// heap does not hold (issue 20's 50 MB list, which peaked at 11.3 GB) is
// refused as the orchestrator fails on it, counted before it is parsed.
// The count's own cases are noderead's TestCheckEntries.
func TestHeapLimitFlowList(t *testing.T) {
	src := []byte("[" + strings.Repeat("a,", noderead.MaxFlowEntries) + "a]\n")
	fsys := fstest.MapFS{"s.yaml": {Data: src}}
	var err error
	peak := peakHeap(func() { _, err = Load(fsys, "s.yaml", "") })
	var fe *FileError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, ErrHeapLimit, fe.Reason)
	assert.Equal(t, noderead.MaxFlowEntries, fe.Entries)
	assert.Equal(t, noderead.MaxFlowEntries, fe.FlowEntries)
	assert.Equal(t, `scalerconfig.Load("s.yaml"): "s.yaml": 12000004 bytes, at least 6000000 entries of lists and mappings, `+
		`6000000 of them in flow collections (node's yaml runs out of node's default heap from 8000000 entries, 6000000 in `+
		`flow collections, or as many of both as fill it): node fails with FATAL ERROR: Reached heap limit `+
		`Allocation failed - JavaScript heap out of memory`, err.Error())
	// The file's bytes, read once; its parse would take gigabytes.
	assert.Less(t, peak, uint64(2*len(src)+8<<20), "peak heap")
	t.Logf("%d bytes refused, %d MB of heap at the peak", len(src), peak>>20)
}

// TestMemoryDropIns: many small drop-ins beside a main file of
// "scalers: []" (issue 20: 100,000 of them, 13 MB, peaked at 1.5 to 1.7
// GB) are read one at a time: the peak is the files' bytes and the
// Config, not their trees.
func TestMemoryDropIns(t *testing.T) {
	n := 10_000
	if raceDetector {
		n = 2_000
	}
	fsys := fstest.MapFS{"etc/s.yaml": {Data: []byte("version: 1\nscalers: []\n")}}
	size := 0
	for i := range n {
		text := fmt.Sprintf("scalers:\n  - name: pool-%d\n    type: container\n    maxAgents: 4\n    labelSets:\n      - labels: [Docker]\n        image: reg/kici-agent:0.20.%d\n", i, i%7)
		fsys[fmt.Sprintf("etc/s.d/%05d.yaml", i)] = &fstest.MapFile{Data: []byte(text)}
		size += len(text)
	}
	var cfg *Config
	var err error
	peak := peakHeap(func() { cfg, err = Load(fsys, "etc/s.yaml", "etc/s.d") })
	require.NoError(t, err)
	require.Len(t, cfg.Scalers, n)
	t.Logf("%d drop-ins, %d bytes: %d KB of heap at the peak, %.1f times the input", n, size, peak>>10, float64(peak)/float64(size))
	// Read whole, the drop-ins' trees took about 18 KB each.
	assert.Less(t, peak, uint64(n)*3<<10, "peak heap")
}

// TestMemoryBigScaler: one scaler of many label sets (issue 20: 600,000,
// 45 MB, peaked at 2.6 to 4 GB) is read by groups of label sets: the peak
// is the file's bytes and the Config.
func TestMemoryBigScaler(t *testing.T) {
	n := 60_000
	if raceDetector {
		n = 20_000
	}
	var b strings.Builder
	b.WriteString("version: 1\nscalers:\n  - name: big\n    type: container\n    maxAgents: 4\n    labelSets:\n")
	for i := range n {
		fmt.Fprintf(&b, "      - labels: [Docker, l%d]\n        image: reg/kici-agent:0.20.%d\n", i, i%7)
	}
	src := []byte(b.String())
	fsys := fstest.MapFS{"s.yaml": {Data: src}}
	var cfg *Config
	var err error
	peak := peakHeap(func() { cfg, err = Load(fsys, "s.yaml", "") })
	require.NoError(t, err)
	require.Len(t, cfg.Scalers[0].LabelSets, n)
	t.Logf("%d label sets, %d bytes: %d KB of heap at the peak, %.1f times the input", n, len(src), peak>>10, float64(peak)/float64(len(src)))
	// Read whole, the scaler's tree and output took about 60 times its text.
	assert.Less(t, peak, uint64(16*len(src)), "peak heap")
}

// TestHeapLongScalar: a main file of one long scalar (issue 33's long
// scalars: 50 MB) is parsed in place, from the bytes the load read: the
// peak is the file's bytes, once, not a copy more.
func TestHeapLongScalar(t *testing.T) {
	src := []byte("version: 1\nscalers: []\nx: " + strings.Repeat("a", 16<<20) + "\n")
	fsys := fstest.MapFS{"s.yaml": {Data: src}}
	var cfg *Config
	var err error
	peak := peakHeap(func() { cfg, err = Load(fsys, "s.yaml", "") })
	require.NoError(t, err) // a key the schema does not know is dropped
	assert.Empty(t, cfg.Scalers)
	assert.Less(t, peak, uint64(len(src)+len(src)/2), "peak heap")
	t.Logf("%d bytes, %d MB of heap at the peak", len(src), peak>>20)
}

// TestHeapDeepNesting: 16 MB of "[" (issue 33: 50 MB took 16 GB and 57 s)
// is refused at the opening past yamljs.MaxDepth, with yaml's message, in
// the heap of the file's bytes; a config nested yamljs.MaxDepth deep loads.
func TestHeapDeepNesting(t *testing.T) {
	src := []byte(strings.Repeat("[", 16<<20))
	fsys := fstest.MapFS{"s.yaml": {Data: src}}
	var err error
	peak := peakHeap(func() { _, err = Load(fsys, "s.yaml", "") })
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Len(t, e.Problems, 1)
	p := e.Problems[0]
	assert.Equal(t, Problem{File: "s.yaml", Line: 1, Column: yamljs.MaxDepth + 1, Code: "yaml", Message: "Maximum call stack size exceeded"},
		Problem{File: p.File, Line: p.Line, Column: p.Column, Code: p.Code, Message: p.Message})
	assert.Less(t, peak, uint64(len(src)+16<<20), "peak heap")
	t.Logf("%d bytes refused, %d MB of heap at the peak", len(src), peak>>20)

	// Under "x:", yamljs.MaxDepth-1 flow levels load; one more is refused.
	nested := func(n int) fstest.MapFS {
		return fstest.MapFS{"s.yaml": {Data: []byte("version: 1\nscalers: []\nx: " + strings.Repeat("[", n) + "v" + strings.Repeat("]", n) + "\n")}}
	}
	cfg, err := Load(nested(yamljs.MaxDepth-1), "s.yaml", "")
	require.NoError(t, err)
	assert.Empty(t, cfg.Scalers)
	_, err = Load(nested(yamljs.MaxDepth), "s.yaml", "")
	require.ErrorAs(t, err, &e)
	assert.Equal(t, []int{3, 3 + yamljs.MaxDepth}, []int{e.Problems[0].Line, e.Problems[0].Column})
}
