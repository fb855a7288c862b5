package scalerconfig

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

// richConfig is a config of n label sets, ten a container scaler, each
// with what an operator's label sets hold beside labels and an image:
// resources, volumes, an env, extra hosts on the scaler. About 330 bytes a
// label set.
func richConfig(n int) []byte {
	var b strings.Builder
	b.WriteString("version: 1\ndefaults:\n  resources: {limits: {cpus: 2, memory: 4g}}\nscalers:\n")
	for i := range n {
		if i%10 == 0 {
			fmt.Fprintf(&b, "  - name: pool-%d\n    type: container\n    maxAgents: 4\n    extraHosts: [registry.local:host-gateway]\n    labelSets:\n", i/10)
		}
		fmt.Fprintf(&b, "      - labels: [Docker, l%d]\n        image: reg/kici-agent:0.20.%d\n", i, i%7)
		b.WriteString("        resources:\n          requests: {cpus: 1, memory: 2g}\n          limits: {cpus: 2, memory: 4g}\n")
		b.WriteString("        volumes: [/var/cache/kici:/cache, /srv/data:/data:ro]\n")
		fmt.Fprintf(&b, "        env: {KICI_TRACE: \"1\", POOL: p%d}\n", i/10)
	}
	return []byte(b.String())
}

// BenchmarkLoad loads configs of 1,000 and 100,000 label sets: the
// benchmark module's shape (labels and an image, benchConfig) and one
// with resources, volumes, env and extra hosts (richConfig). It reports
// ns/labelset beside B/op and allocs/op, so that a change to what Load
// keeps shows per label set, and kept-B/labelset: the heap the returned
// Config holds once the garbage is collected.
func BenchmarkLoad(b *testing.B) {
	for _, shape := range []struct {
		name string
		make func(int) []byte
	}{{"plain", benchConfig}, {"rich", richConfig}} {
		for _, n := range []int{1000, 100000} {
			src := shape.make(n)
			fsys := fstest.MapFS{"s.yaml": {Data: src}}
			cfg, err := Load(fsys, "s.yaml", "")
			require.NoError(b, err)
			require.Equal(b, n, len(cfg.Scalers)*len(cfg.Scalers[0].LabelSets))
			b.Run(fmt.Sprintf("shape=%s/labelsets=%d", shape.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Load(fsys, "s.yaml", ""); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/labelset")
				b.ReportMetric(float64(keptBytes(b, fsys))/float64(n), "kept-B/labelset")
			})
		}
	}
}

// keptBytes is the heap a loaded Config holds: in use after a Load, with
// the Config kept and the garbage collected, over what was in use before.
func keptBytes(b *testing.B, fsys fstest.MapFS) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	cfg, err := Load(fsys, "s.yaml", "")
	require.NoError(b, err)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(cfg)
	return after.HeapAlloc - before.HeapAlloc
}
