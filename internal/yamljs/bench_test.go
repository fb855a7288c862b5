package yamljs

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
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

// BenchmarkParse reads the big config with Parse and, beside it, with
// go.yaml.in/yaml/v3 into its Node tree, at 1,000 and 100,000 label sets;
// ns/labelset is the time per label set.
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
		b.Run("yamlv3/"+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				var node yaml.Node
				if err := yaml.Unmarshal(src, &node); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/labelset")
		})
	}
}
