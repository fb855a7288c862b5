//go:build unix

package bench

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// nodeParse reads file, and each file of the folder dropins ("" for
// none), with npm yaml 2.9.1 in a fresh node process (node/parse.mjs, its
// package installed by `npm ci` in node/), as the orchestrator reads its
// scaler config, and returns the nanoseconds the parses took, measured
// inside node, and the process's peak resident memory. It skips tb when
// node or the package is missing: bench/run installs the package first.
func nodeParse(tb testing.TB, self, file, dropins string) (parseNs, peak int64) {
	tb.Helper()
	args := nodeArgs(tb, file, dropins)
	m := exec.Command(self, args...)
	m.Env = append(os.Environ(), peakEnv+"=1")
	var stdout, stderr bytes.Buffer
	m.Stdout, m.Stderr = &stdout, &stderr
	if err := m.Run(); err != nil {
		tb.Fatalf("node: %v: %s", err, stderr.Bytes())
	}
	if _, err := fmt.Sscanf(strings.TrimSpace(stdout.String()), "parse-ns %d", &parseNs); err != nil {
		tb.Fatalf("node printed %q: %v", stdout.Bytes(), err)
	}
	peak, _, err := peakOf(stderr.Bytes())
	if err != nil {
		tb.Fatal(err)
	}
	return parseNs, peak
}

// benchNode is the impl=npmyaml sub-benchmark of file, read by npm yaml:
// each op is one fresh node process (ns/op is the process's time, node's
// start-up included). It reports the parse's own time per item (unit, over
// items) and per op (parse-ns/op), and the highest peak resident memory of
// its processes (peak-MB).
func benchNode(b *testing.B, file string, items int, unit string) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	var total, peak int64
	for b.Loop() {
		ns, p := nodeParse(b, self, file, "")
		total += ns
		peak = max(peak, p)
	}
	b.ReportMetric(float64(total)/float64(b.N), "parse-ns/op")
	b.ReportMetric(float64(total)/float64(b.N)/float64(items), unit)
	b.ReportMetric(float64(peak)/1e6, "peak-MB")
}

// writeTemp writes src to a file of b's temporary folder and returns its
// path.
func writeTemp(b *testing.B, name string, src []byte) string {
	b.Helper()
	file := filepath.Join(b.TempDir(), name)
	if err := os.WriteFile(file, src, 0o644); err != nil {
		b.Fatal(err)
	}
	return file
}

// nodeRun is a run of node on a shape (nodeRunOf).
type nodeRun struct {
	peak int64
	wall time.Duration
	exit int // 1 for what yaml throws; 128 and the signal where node is killed (134: it aborted)
}

// nodeRunOf is nodeParse of a file that node may fail on: the peak
// resident memory, wall time and exit status of node reading it.
func nodeRunOf(tb testing.TB, self, file, dropins string) nodeRun {
	tb.Helper()
	args := nodeArgs(tb, file, dropins)
	start := time.Now()
	peak, _, err := measured(self, exec.Command(args[0], args[1:]...))
	r := nodeRun{peak: peak, wall: time.Since(start)}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.exit = exit.ExitCode()
	case err != nil:
		tb.Fatal(err)
	}
	return r
}

// nodeArgs is the command line of node/parse.mjs on file and the folder
// dropins ("" for none). It skips tb when node or npm yaml is missing.
func nodeArgs(tb testing.TB, file, dropins string) []string {
	tb.Helper()
	script, err := filepath.Abs(filepath.Join("node", "parse.mjs"))
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join("node", "node_modules", "yaml")); err != nil {
		tb.Skip("npm yaml is not installed: cd bench/node && npm ci")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		tb.Skip("no node on the PATH")
	}
	args := []string{node, script, file}
	if dropins != "" {
		args = append(args, dropins)
	}
	return args
}
