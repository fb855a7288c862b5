package yamljs

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mergeText is a %YAML 1.1 document of one map of keys keys, merged into
// maps maps: "base: &b" and "m0:" to "m<maps-1>:", each "<<: *b". At
// 10,000 keys and 99 maps (the most aliases yaml allows of one anchor) it
// is 139 KB, which took 36 s to read while each merged key was looked up
// among the others one by one.
func mergeText(keys, maps int) []byte {
	var b strings.Builder
	b.WriteString("%YAML 1.1\n---\nbase: &b\n")
	for i := range keys {
		fmt.Fprintf(&b, "  k%d: %d\n", i, i)
	}
	for i := range maps {
		fmt.Fprintf(&b, "m%d:\n  <<: *b\n", i)
	}
	return []byte(b.String())
}

// parseMerge reads mergeText(keys, maps) and checks that every map has
// every key, in order, with its value and the place of its key in base.
func parseMerge(t *testing.T, keys, maps int) time.Duration {
	src := mergeText(keys, maps)
	start := time.Now()
	n, err := Parse(src)
	took := time.Since(start)
	require.NoError(t, err)
	require.Len(t, n.Pairs, maps+1)
	base := n.Pairs[0].Value
	for _, p := range n.Pairs[1:] {
		require.Len(t, p.Value.Pairs, keys, p.Key)
		for i, q := range p.Value.Pairs {
			// Compared first, testify only on a mismatch: the test is timed.
			if q.Key != "k"+strconv.Itoa(i) || q.Value.Num != float64(i) || q.KeyPos != base.Pairs[i].KeyPos {
				require.Equal(t, []any{"k" + strconv.Itoa(i), float64(i), base.Pairs[i].KeyPos}, []any{q.Key, q.Value.Num, q.KeyPos}, "%s: pair %d: key, value, key's place", p.Key, i)
			}
		}
	}
	return took
}

// TestMergeLinear checks that merging is linear in the size of what is
// merged: reading 99 merges of a map eight times the size takes less than
// 24 times as long (6.5 as measured; a merge that looked each key up among
// the others, as one did, takes 64), the best of three reads each, so that
// the machine's other work counts little. Under the race detector the
// figures are the detector's (its cost grows with the heap: 14 times, and
// 3 times from 1,000 keys to 2,000, as measured), so only the reading is
// checked there; the coverage run of .ci/run checks the time.
func TestMergeLinear(t *testing.T) {
	if raceDetector {
		parseMerge(t, 500, 99)
		t.Skip("the race detector's cost is not the merge's: timed without it")
	}
	best := func(keys int) time.Duration {
		d := parseMerge(t, keys, 99)
		for range 2 {
			d = min(d, parseMerge(t, keys, 99))
		}
		return d
	}
	small, large := best(500), best(4000)
	assert.Less(t, large, 24*small, "4,000 keys took %v, 500 keys %v", large, small)
}

// BenchmarkMerge reads the 10,000-key map merged into 99 maps.
func BenchmarkMerge(b *testing.B) {
	src := mergeText(10000, 99)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}
