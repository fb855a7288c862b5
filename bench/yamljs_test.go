package bench

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// yamljsConfig is internal/yamljs's benchmark config: n label sets, 100 to
// a scaler, about 70 bytes each.
func yamljsConfig(n int) []byte {
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

// BenchmarkYAML reads the same config with yamljs.Parse (impl=yamljs) and
// with go.yaml.in/yaml/v3 into its Node tree (impl=yamlv3), at 1,000 and
// 100,000 label sets: the measurement internal/yamljs's doc reports. It
// lives here so that the library's go.mod does not require yaml/v3.
func BenchmarkYAML(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		src := yamljsConfig(n)
		impls := []struct {
			name string
			run  func() error
		}{
			{"yamljs", func() error { _, err := yamljs.Parse(src); return err }},
			{"yamlv3", func() error { var node yaml.Node; return yaml.Unmarshal(src, &node) }},
		}
		for _, impl := range impls {
			b.Run(fmt.Sprintf("labelsets=%d/impl=%s", n, impl.name), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					if err := impl.run(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/labelset")
			})
		}
	}
}
