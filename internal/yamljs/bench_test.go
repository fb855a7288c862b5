package yamljs

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bigConfig is a scaler config of n label sets, 100 to a scaler, about 70
// bytes each: 100,000 of them make the 7 MB config a large fleet has.
func bigConfig(n int) []byte {
	var b strings.Builder
	b.WriteString("version: 1\nglobalMaxAgents: 5000\nscalers:\n")
	for i := 0; i < n; i++ {
		if i%100 == 0 {
			fmt.Fprintf(&b, "  - name: pool-%d\n    type: container\n    labelSets:\n", i/100)
		}
		fmt.Fprintf(&b, "      - labels: [linux, x%d]\n        image: ghcr.io/k/kici-agent:0.%d\n", i, i%50)
	}
	return []byte(b.String())
}

func TestBigConfig(t *testing.T) {
	t.Parallel()
	src := bigConfig(1000)
	n, err := Parse(src)
	require.NoError(t, err)
	scalers := n.Pairs[2].Value
	require.Len(t, scalers.Items, 10)
	sets := scalers.Items[9].Pairs[2].Value
	require.Len(t, sets.Items, 100)
	last := sets.Items[99]
	image := last.Pairs[1].Value
	require.Equal(t, "ghcr.io/k/kici-agent:0.49", image.Str)
	require.Equal(t, image.Str, string(src[image.Pos.Offset:image.End.Offset]))
}

// TestSyntaxTreeLetGo checks that the syntax tree of what is composed can
// be collected while the parser and the composer still run: a large file's
// tree would otherwise live beside its whole document model, twice the
// memory at the peak. The label set looked at is in the middle of the file,
// far from the chunks the parser holds on to.
func TestSyntaxTreeLetGo(t *testing.T) {
	text := string(bigConfig(20000))
	var held weak.Pointer[cst]
	comp := newComposer(text, func(*document) bool { return true }, nil)
	p := newParser(text, func(tok *cst) {
		if tok.typ == tDocument {
			pools := tok.x.value.x.items[2].value
			sets := pools.x.items[len(pools.x.items)/2].value.x.items[2].value
			held = weak.Make(sets.x.items[50].value)
		}
		comp.next(tok)
	}, nil)
	newLexer(text, p.next).run()
	p.end()
	require.NotNil(t, comp.doc, "composed")
	runtime.GC()
	assert.Nil(t, held.Value(), "a composed label set's syntax node is still reachable")
	runtime.KeepAlive(p)
}

// BenchmarkParse reads the big config at 1,000 and 100,000 label sets;
// ns/labelset is the time per label set. bench/yamljs_test.go runs the same
// beside go.yaml.in/yaml/v3, which this module does not require.
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		src := bigConfig(n)
		b.Run("yamljs/"+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(src); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/labelset")
		})
	}
}
