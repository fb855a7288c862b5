//go:build unix

package bench

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// mergeText is issue 20's merge case: a %YAML 1.1 document of one map of
// keys keys ("base: &b"), merged into maps maps ("m0:" on, each
// "<<: *b"). At 10,000 keys and 99 maps (the most aliases yaml allows of
// one anchor) it is 139 KB; yamljs took 36 s on it while each merged key
// was looked up among the others.
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

// BenchmarkMerge reads mergeText(10000, 99) with yamljs.Parse
// (impl=yamljs) and with npm yaml in node (impl=npmyaml). The goal (issue
// 20): yamljs at most npm yaml's time, in ns/merge (one merge of the
// 10,000 keys into one map).
func BenchmarkMerge(b *testing.B) {
	const keys, maps = 10000, 99
	src := mergeText(keys, maps)
	n, err := yamljs.Parse(src)
	if err != nil {
		b.Fatal(err)
	}
	if got := len(n.Pairs[maps].Value.Pairs); got != keys {
		b.Fatalf("the last map has %d keys, want %d", got, keys)
	}
	b.Run("impl=yamljs", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := yamljs.Parse(src); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/maps, "ns/merge")
	})
	file := writeTemp(b, "merge.yaml", src)
	b.Run("impl=npmyaml", func(b *testing.B) { benchNode(b, file, maps, "ns/merge") })
}

// memoryShape is one of issue 20's inputs whose shape, not size, drove
// kici-preflight's memory: a file (or a folder of drop-ins beside a main
// file) written into dir, with its size in bytes.
type memoryShape struct {
	name  string
	write func(dir string) (args []string, size int64, err error)
}

// memoryShapes are the three shapes of issue 20, point 6, and two of dense
// collections of tiny entries, the most entries a byte, below the count
// node fails at (internal/noderead.MaxEntries and MaxFlowEntries), which node
// loads:
//   - flowlist: a 50 MB one-line flow list (25,000,000 entries), which
//     peaked at 11.3 GB; node's yaml runs out of heap on it, and the file
//     is refused as the orchestrator fails;
//   - dropins: 100,000 small drop-ins (13 MB), which peaked at 1.5-1.7 GB;
//   - bigscaler: one scaler of 600,000 label sets (45 MB), which peaked at
//     2.6-4 GB;
//   - denseflow: a one-line flow list of 4,000,000 one-character scalars
//     (8 MB), which node loads in 3.6 GB;
//   - denseblock: a block list of 5,000,000 empty items ("-\n", 10 MB).
func memoryShapes() []memoryShape {
	return []memoryShape{
		{"flowlist", func(dir string) ([]string, int64, error) {
			src := "[" + strings.Repeat("a,", 25_000_000-1) + "a]\n"
			file := filepath.Join(dir, "flow.yaml")
			return []string{"-config", file}, int64(len(src)), os.WriteFile(file, []byte(src), 0o644)
		}},
		{"dropins", func(dir string) ([]string, int64, error) {
			main, sub := filepath.Join(dir, "scalers.yaml"), filepath.Join(dir, "scalers.d")
			size := int64(0)
			if err := os.Mkdir(sub, 0o755); err != nil {
				return nil, 0, err
			}
			for i := range 100_000 {
				text := fmt.Sprintf("scalers:\n  - name: pool-%d\n    type: container\n    maxAgents: 4\n    labelSets:\n      - labels: [Docker, l%d]\n        image: reg/kici-agent:0.20.%d\n", i, i, i%7)
				size += int64(len(text))
				if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("d%06d.yaml", i)), []byte(text), 0o644); err != nil {
					return nil, 0, err
				}
			}
			return []string{"-config", main, "-dir", sub}, size, os.WriteFile(main, []byte("version: 1\nscalers: []\n"), 0o644)
		}},
		{"bigscaler", func(dir string) ([]string, int64, error) {
			var b strings.Builder
			b.WriteString("version: 1\nscalers:\n  - name: big\n    type: container\n    maxAgents: 4\n    labelSets:\n")
			for i := range 600_000 {
				fmt.Fprintf(&b, "      - labels: [Docker, l%d]\n        image: reg/kici-agent:0.20.%d\n", i, i%7)
			}
			file := filepath.Join(dir, "big.yaml")
			return []string{"-config", file}, int64(b.Len()), os.WriteFile(file, []byte(b.String()), 0o644)
		}},
		{"denseflow", func(dir string) ([]string, int64, error) {
			src := "[" + strings.Repeat("a,", 4_000_000-1) + "a]\n"
			file := filepath.Join(dir, "denseflow.yaml")
			return []string{"-config", file}, int64(len(src)), os.WriteFile(file, []byte(src), 0o644)
		}},
		{"denseblock", func(dir string) ([]string, int64, error) {
			src := strings.Repeat("-\n", 5_000_000)
			file := filepath.Join(dir, "denseblock.yaml")
			return []string{"-config", file}, int64(len(src)), os.WriteFile(file, []byte(src), 0o644)
		}},
	}
}

// invalidConfig reports whether err is the program's exit status 1, for a
// file it read that is no scaler config: the dense shapes are lists.
func invalidConfig(err error) bool {
	var exit *exec.ExitError
	return errors.As(err, &exit) && exit.ExitCode() == 1
}

// BenchmarkMemoryShapes runs kici-preflight, as a process, on each of
// memoryShapes (written once, before the samples), and reports
// its peak resident memory (peak-MB), the bound issue 20 sets, 1 GiB plus
// 20 times the input (bound-MB), the peak over that bound (peak/bound),
// the input's size (input-MB), the CPU time (cpu-ms) and whether the
// program refused the input (refused: 1 for the flow list, which node
// cannot load either). Goal: peak/bound at most 1 for each shape.
func BenchmarkMemoryShapes(b *testing.B) {
	prog := buildPreflight(b)
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range memoryShapes() {
		dir := b.TempDir()
		args, size, err := s.write(dir)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("shape="+s.name, func(b *testing.B) {
			var peak int64
			var cpu float64
			refused := 0.0
			for b.Loop() {
				cmd := exec.Command(prog, append(args, "-quiet")...)
				p, c, err := measured(self, cmd)
				if err != nil && !(strings.HasPrefix(s.name, "dense") && invalidConfig(err)) {
					if !strings.Contains(err.Error(), "runs out of node's default heap") {
						b.Fatal(err)
					}
					refused = 1
				}
				peak, cpu = max(peak, p), cpu+float64(c.Milliseconds())
			}
			bound := float64(1<<30) + 20*float64(size)
			b.ReportMetric(float64(peak)/1e6, "peak-MB")
			b.ReportMetric(bound/1e6, "bound-MB")
			b.ReportMetric(float64(peak)/bound, "peak/bound")
			b.ReportMetric(float64(size)/1e6, "input-MB")
			b.ReportMetric(cpu/float64(b.N), "cpu-ms")
			b.ReportMetric(refused, "refused")
		})
	}
}
