//go:build unix

package bench

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
// kici-preflight's memory: a main file, and for drop-ins a folder beside
// it, written into dir.
type memoryShape struct {
	name string
	// nodeFails is set where node's yaml runs out of node's default heap
	// (bench/README.md has the runs): kici-preflight must refuse the file,
	// and node is not run.
	nodeFails bool
	write     func(dir string) (main, dropins string, err error)
	// refusal, when set, is what kici-preflight must print of the file,
	// with exit status 1: node is run, and fails on it too.
	refusal *regexp.Regexp
}

// memoryShapes are the three shapes of issue 20, point 6, two of dense
// collections of tiny entries, the most entries a byte, below the count
// node fails at, and issue 33's (issue33Shapes):
//   - flowlist: a 50 MB one-line flow list (25,000,000 entries), on which
//     node's yaml runs out of heap;
//   - dropins: 100,000 small drop-ins (15 MB);
//   - bigscaler: one scaler of 600,000 label sets (42 MB);
//   - denseflow: a one-line flow list of 4,000,000 one-character scalars
//     (8 MB);
//   - denseblock: a block list of 5,000,000 empty items ("-\n", 10 MB).
func memoryShapes() []memoryShape {
	return append([]memoryShape{
		{"flowlist", true, func(dir string) (string, string, error) {
			return writeShape(dir, "flow.yaml", "["+strings.Repeat("a,", 25_000_000-1)+"a]\n")
		}, nil},
		{"dropins", false, writeDropins, nil},
		{"bigscaler", false, func(dir string) (string, string, error) {
			return writeShape(dir, "big.yaml", bigScaler(600_000))
		}, nil},
		{"denseflow", false, func(dir string) (string, string, error) {
			return writeShape(dir, "denseflow.yaml", "["+strings.Repeat("a,", 4_000_000-1)+"a]\n")
		}, nil},
		{"denseblock", false, func(dir string) (string, string, error) {
			return writeShape(dir, "denseblock.yaml", strings.Repeat("-\n", 5_000_000))
		}, nil},
	}, issue33Shapes()...)
}

// writeShape writes src to dir/name and returns its path.
func writeShape(dir, name, src string) (string, string, error) {
	file := filepath.Join(dir, name)
	return file, "", os.WriteFile(file, []byte(src), 0o644)
}

// bigScaler is one container scaler of n label sets.
func bigScaler(n int) string {
	var b strings.Builder
	b.WriteString("version: 1\nscalers:\n  - name: big\n    type: container\n    maxAgents: 4\n    labelSets:\n")
	for i := range n {
		fmt.Fprintf(&b, "      - labels: [Docker, l%d]\n        image: reg/kici-agent:0.20.%d\n", i, i%7)
	}
	return b.String()
}

// writeDropins writes a main file without scalers and 100,000 drop-ins of
// one scaler each.
func writeDropins(dir string) (string, string, error) {
	main, sub := filepath.Join(dir, "scalers.yaml"), filepath.Join(dir, "scalers.d")
	if err := os.Mkdir(sub, 0o755); err != nil {
		return "", "", err
	}
	for i := range 100_000 {
		text := fmt.Sprintf("scalers:\n  - name: pool-%d\n    type: container\n    maxAgents: 4\n    labelSets:\n      - labels: [Docker, l%d]\n        image: reg/kici-agent:0.20.%d\n", i, i, i%7)
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("d%06d.yaml", i)), []byte(text), 0o644); err != nil {
			return "", "", err
		}
	}
	return main, sub, os.WriteFile(main, []byte("version: 1\nscalers: []\n"), 0o644)
}

// preflightRun is one run of kici-preflight on a config: its peak resident
// memory, its wall time, its exit status and what it printed.
type preflightRun struct {
	peak int64
	wall time.Duration
	exit int
	out  string
}

// refused is whether the program refused the file as one node cannot
// parse (exit status 2, naming node's heap).
func (r preflightRun) refused() bool { return r.exit == 2 }

// runPreflight runs kici-preflight (prog) on a main file and its drop-in
// folder ("" for none). A file that is no scaler config (exit status 1)
// is read, not refused.
func runPreflight(tb testing.TB, self, prog, main, dropins string) preflightRun {
	args := []string{"-config", main, "-quiet"}
	if dropins != "" {
		args = append(args, "-dir", dropins)
	}
	cmd := exec.Command(prog, args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	peak, _, err := measured(self, cmd)
	r := preflightRun{peak: peak, wall: time.Since(start), out: out.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && exit.ExitCode() == 1,
		errors.As(err, &exit) && exit.ExitCode() == 2 && strings.Contains(err.Error(), "heap"):
		r.exit = exit.ExitCode()
	default:
		tb.Fatal(err)
	}
	return r
}

// nodeRuns holds node's run on each shape, measured once a run: it moves
// little from one run to the next, and costs up to a minute.
var nodeRuns = map[string]nodeRun{}

// BenchmarkMemory runs kici-preflight, as a process, on each of
// memoryShapes (written once, before the samples), and reports its peak
// resident memory (peak-MB), node's own peak parsing the same files with
// npm yaml (node-peak-MB, measured once a run), the one over the other
// (peak/node), whether the program refused the input as one node's heap
// does not hold (refused), and, of its slowest sample, its wall time (s)
// and exit status (exit); and of node's run, its exit status (node-exit)
// and wall time (node-s). Before the samples it checks that a shape with
// a refusal gets it, and that node fails on it too. The goal:
// kici-preflight reads whatever node parses within node's own peak
// (peak/node at most 1), and refuses what node cannot parse; issue 33's
// shapes are in shapes33_test.go.
func BenchmarkMemory(b *testing.B) {
	prog := buildPreflight(b)
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range memoryShapes() {
		// Written, run by node and checked within the sub-benchmark, so
		// that -bench selects the shapes it writes and node reads.
		b.Run("shape="+s.name, func(b *testing.B) {
			main, dropins, err := s.write(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			if _, ok := nodeRuns[s.name]; !ok && !s.nodeFails {
				nodeRuns[s.name] = nodeRunOf(b, self, main, dropins)
			}
			node := nodeRuns[s.name]
			if err := s.check(runPreflight(b, self, prog, main, dropins), node); err != nil {
				b.Fatal(err)
			}
			var slowest preflightRun
			var peak int64
			for b.Loop() {
				r := runPreflight(b, self, prog, main, dropins)
				peak = max(peak, r.peak)
				if r.wall >= slowest.wall {
					slowest = r
				}
			}
			reportMemory(b, peak, slowest, node)
		})
	}
}

// reportMemory reports BenchmarkMemory's metrics of one shape.
func reportMemory(b *testing.B, peak int64, slowest preflightRun, node nodeRun) {
	b.ReportMetric(float64(peak)/1e6, "peak-MB")
	if node.peak > 0 {
		b.ReportMetric(float64(node.peak)/1e6, "node-peak-MB")
		b.ReportMetric(float64(peak)/float64(node.peak), "peak/node")
		b.ReportMetric(float64(node.exit), "node-exit")
		b.ReportMetric(node.wall.Seconds(), "node-s")
	}
	r := 0.0
	if slowest.refused() {
		r = 1
	}
	b.ReportMetric(r, "refused")
	b.ReportMetric(slowest.wall.Seconds(), "s")
	b.ReportMetric(float64(slowest.exit), "exit")
}

// check is whether run, kici-preflight's, and node's, on the shape, are
// what the shape needs: its refusal, which node fails on too; else read
// by both, or refused as node's heap where node is not run (nodeFails).
func (s memoryShape) check(run preflightRun, node nodeRun) error {
	switch {
	case s.refusal == nil && run.refused() != s.nodeFails:
		return fmt.Errorf("%s: kici-preflight refused it %v (exit status %d), node runs out of heap %v", s.name, run.refused(), run.exit, s.nodeFails)
	case s.refusal == nil && !s.nodeFails && node.exit != 0:
		return fmt.Errorf("%s: node failed on it (exit status %d)", s.name, node.exit)
	case s.refusal == nil:
		return nil
	case run.exit != 1 || !s.refusal.MatchString(run.out):
		return fmt.Errorf("%s: kici-preflight exited %d, printing %.300q; want 1 and %s", s.name, run.exit, run.out, s.refusal)
	case node.exit == 0:
		return fmt.Errorf("%s: node parsed it", s.name)
	}
	return nil
}

// TestMemoryWithinNode is BenchmarkMemory's check on a small config, 2,000
// label sets in one scaler: kici-preflight peaks below node parsing it.
func TestMemoryWithinNode(t *testing.T) {
	prog := buildPreflight(t)
	self, err := os.Executable()
	require.NoError(t, err)
	main, _, err := writeShape(t.TempDir(), "big.yaml", bigScaler(2_000))
	require.NoError(t, err)
	_, node := nodeParse(t, self, main, "")
	r := runPreflight(t, self, prog, main, "")
	t.Logf("kici-preflight peaks at %d kB, node at %d kB", r.peak/1000, node/1000)
	assert.False(t, r.refused())
	assert.Positive(t, r.peak)
	assert.LessOrEqual(t, r.peak, node)
}
