//go:build unix

package bench

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kicikit/kicikit/scalerconfig"
)

// loadOnlyEnv, when set to a config file, makes the test binary load that
// file with scalerconfig.Load and exit: the baseline process the linter's
// runs are measured beside.
const loadOnlyEnv = "KICIKIT_BENCH_LOAD_ONLY"

// peakEnv, when set, makes the test binary run the command its arguments
// name and write that process's peak resident memory and CPU time on its
// standard error (see measured). The process is started from this small
// one because Linux reports as a child's peak the peak of the process that
// started it, when that is higher: the benchmark's own process, which holds
// the configs, would hide the program's.
const peakEnv = "KICIKIT_BENCH_PEAK"

func TestMain(m *testing.M) {
	if os.Getenv(peakEnv) != "" {
		os.Exit(measure(os.Args[1:]))
	}
	if file := os.Getenv(loadOnlyEnv); file != "" {
		if _, err := scalerconfig.Load(os.DirFS(filepath.Dir(file)), filepath.Base(file), ""); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// measure runs argv and writes its peak resident memory in bytes and its
// CPU time (user and system) in nanoseconds, as the last line of standard
// error.
func measure(argv []string) int {
	cmd := exec.Command(argv[0], argv[1:]...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, peakEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	code := 0
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		if cmd.ProcessState == nil {
			return 2
		}
		code = cmd.ProcessState.ExitCode()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal()) // as a shell gives it
		}
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	fmt.Fprintf(os.Stderr, "\npeak %d cpu %d\n", cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss*1024, cpu.Nanoseconds())
	return code
}

// measured runs cmd through measure and returns its peak resident memory
// in bytes and its CPU time; cmd's standard output, when set, gets the
// program's. When cmd ran but failed, they come with an error that holds
// its standard error.
func measured(self string, cmd *exec.Cmd) (int64, time.Duration, error) {
	m := exec.Command(self, cmd.Args...)
	m.Env = append(cmd.Env, peakEnv+"=1")
	if cmd.Env == nil {
		m.Env = append(os.Environ(), peakEnv+"=1")
	}
	var stderr bytes.Buffer
	m.Stdout, m.Stderr = cmd.Stdout, &stderr
	if m.Stdout == nil {
		m.Stdout = io.Discard
	}
	runErr := m.Run()
	peak, cpu, err := peakOf(stderr.Bytes())
	if err != nil {
		return 0, 0, fmt.Errorf("%v: %v", runErr, err)
	}
	if runErr != nil {
		return peak, cpu, fmt.Errorf("%w: %s", runErr, stderr.Bytes())
	}
	return peak, cpu, nil
}

// peakOf reads the peak resident memory and the CPU time that measure
// writes as the last line of stderr.
func peakOf(stderr []byte) (peak int64, cpu time.Duration, err error) {
	lines := strings.Split(strings.TrimSpace(string(stderr)), "\n")
	var ns int64
	if _, err := fmt.Sscanf(lines[len(lines)-1], "peak %d cpu %d", &peak, &ns); err != nil {
		return 0, 0, fmt.Errorf("%q: %v", stderr, err)
	}
	return peak, time.Duration(ns), nil
}

// buildPreflight builds cmd/kici-preflight into tb's temporary folder and
// returns its path.
func buildPreflight(tb testing.TB) string {
	prog := filepath.Join(tb.TempDir(), "kici-preflight")
	if out, err := exec.Command("go", "build", "-o", prog, "github.com/kicikit/kicikit/cmd/kici-preflight").CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return prog
}

// lintFile is a configFile whose label sets are one in ten on latest (a
// moving-tag finding, with a pin), one in ten pinned to an older release
// (older-pin, with a pin), the others on the target: about 75 bytes a label
// set.
func lintFile(n int) []byte {
	return configFile(n, func(i int) string {
		switch i % 10 {
		case 3:
			return "latest"
		case 7:
			return "0.19.2"
		}
		return "0.20.0"
	}, false)
}

// procImpl is one of the processes BenchmarkAgentImageCheck compares: its
// name (load, text, json, sarif) and a function that builds a fresh command
// for one run.
type procImpl struct {
	name string
	cmd  func() *exec.Cmd
}

// BenchmarkAgentImageCheck runs the kici-preflight program on configs of
// 1,000 and 100,000 label sets, as a process, with -format text, json and
// sarif, beside a process that only loads the same file with
// scalerconfig.Load (load). There is one sub-benchmark per size
// (labelsets=N), and each op runs the four processes in turn, starting
// from the next impl at each op (load, text, json, sarif; then text, json,
// sarif, load; ...), so that the load of other processes on a shared
// machine, which drifts over minutes, falls on the four alike and leaves
// their ratios alone. For each impl it reports, per op (one run of that
// process): the wall time per label set (<impl>-ns/labelset, the process
// started through measure), the process's CPU time, user and system, per
// label set (<impl>-cpu-ns/labelset: what the goal compares, since on a
// shared machine the wall time of one process swings with the others'
// load), the highest peak resident memory of its runs (<impl>-peak-MB) and
// that peak over the config's size (<impl>-peak/input). The goals (issue
// 11): each format within 2x of load, linear in the size, and a peak at
// most 10x the input.
func BenchmarkAgentImageCheck(b *testing.B) {
	dir := b.TempDir()
	prog := buildPreflight(b)
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1000, 100000} {
		file := filepath.Join(dir, fmt.Sprintf("scalers-%d.yaml", n))
		src := lintFile(n)
		if err := os.WriteFile(file, src, 0o644); err != nil {
			b.Fatal(err)
		}
		lint := func(format string) *exec.Cmd {
			return exec.Command(prog, "-config", file, "-target", "0.20.0", "-format", format, "-quiet")
		}
		impls := []procImpl{
			{"load", func() *exec.Cmd {
				c := exec.Command(self)
				c.Env = append(os.Environ(), loadOnlyEnv+"="+file)
				return c
			}},
			{"text", func() *exec.Cmd { return lint("text") }},
			{"json", func() *exec.Cmd { return lint("json") }},
			{"sarif", func() *exec.Cmd { return lint("sarif") }},
		}
		checkFindings(b, lint("json"), n)
		// first outlives the sub-benchmark's calls, so that the rotation
		// goes on from one -count sample to the next even at -benchtime 1x.
		first := 0
		b.Run(fmt.Sprintf("labelsets=%d", n), func(b *testing.B) {
			runInterleaved(b, self, impls, &first, n, len(src))
		})
	}
}

// runInterleaved is the loop of one BenchmarkAgentImageCheck sample: each
// op runs every impl once through measured, starting from impls[*first]
// and moving *first on by one, then it reports each impl's metrics per op
// (see BenchmarkAgentImageCheck) for n label sets in a file of size bytes.
func runInterleaved(b *testing.B, self string, impls []procImpl, first *int, n, size int) {
	peak := make([]int64, len(impls))
	cpu := make([]time.Duration, len(impls))
	wall := make([]time.Duration, len(impls))
	for b.Loop() {
		for k := range impls {
			i := (*first + k) % len(impls)
			start := time.Now()
			p, c, err := measured(self, impls[i].cmd())
			if err != nil {
				b.Fatalf("%s: %v", impls[i].name, err)
			}
			wall[i] += time.Since(start)
			peak[i] = max(peak[i], p)
			cpu[i] += c
		}
		*first = (*first + 1) % len(impls)
	}
	perOp := float64(b.N) * float64(n)
	for i, impl := range impls {
		b.ReportMetric(float64(wall[i].Nanoseconds())/perOp, impl.name+"-ns/labelset")
		b.ReportMetric(float64(cpu[i].Nanoseconds())/perOp, impl.name+"-cpu-ns/labelset")
		b.ReportMetric(float64(peak[i])/1e6, impl.name+"-peak-MB")
		b.ReportMetric(float64(peak[i])/float64(size), impl.name+"-peak/input")
	}
}

// checkFindings checks that the program reports what the config holds:
// one finding in five label sets, before any is timed.
func checkFindings(b *testing.B, cmd *exec.Cmd, n int) {
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		b.Fatal(err)
	}
	want := fmt.Sprintf(`"summary": {"errors":0,"warnings":%d,"ignored":0,"pinned":0,"agentImages":%d,"otherImages":0}`, n/5, n)
	if !bytes.Contains(out.Bytes(), []byte(want)) {
		b.Fatalf("the JSON output does not end in %s", want)
	}
}
