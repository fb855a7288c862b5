package enginetest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// skipCounts count the tests that skipped for want of an Engine, by
// reason.
type skipCounts struct {
	mu    sync.Mutex
	n     map[string]int
	order []string // the reasons, in the order they first came
}

// skipped are the skips of this test binary, for [Main]. With hostFiles,
// it is one of the package's two variables.
var skipped = &skipCounts{}

// add counts one test that skips for reason.
func (s *skipCounts) add(reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == nil {
		s.n = map[string]int{}
	}
	if s.n[reason] == 0 {
		s.order = append(s.order, reason)
	}
	s.n[reason]++
}

// Main runs the tests of m and returns the code for os.Exit. The TestMain
// of a package with engine tests is
//
//	func TestMain(m *testing.M) { os.Exit(enginetest.Main(m)) }
//
// When tests skipped for want of an Engine (without [RequireEnv]), Main
// then says so in one line: how many, why, and how to start an Engine.
//
//	containerscaler: 52 engine tests skipped: no Docker Engine: DOCKER_HOST is not set; start one with ...
//
// go test shows what a passing package printed only with -v, or when it
// runs in the package's folder. So the line goes to this binary's standard
// output with -v, or when it is a terminal. Otherwise it goes where go
// test writes its "ok" lines: go test's own standard output, when it is a
// terminal or a pipe (reached through /proc, on Linux), else the terminal
// (/dev/tty). Failing both, it goes to standard output. A run that go test
// takes from its cache runs no test and prints nothing: -count=1 runs them.
func Main(m *testing.M) int {
	code := m.Run()
	if line := skipped.line(packageName(os.Args[0])); line != "" {
		w, done := sayTo()
		fmt.Fprint(w, line)
		done()
	}
	return code
}

// line is Main's line for the skips counted, "" when there are none. It
// gives the reason most tests skipped for (the first, of equals), and how
// many skipped for others.
func (s *skipCounts) line(pkg string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	total, top := 0, ""
	for _, r := range s.order {
		total += s.n[r]
		if s.n[r] > s.n[top] {
			top = r
		}
	}
	if total == 0 {
		return ""
	}
	line := pkg + ": " + count(total, "engine test") + " skipped: " + top
	if others := total - s.n[top]; others > 0 {
		line += " (" + strconv.Itoa(others) + " of them for other reasons: go test -v says which)"
	}
	return line + "\n"
}

// count is n and what, plural unless n is 1.
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// packageName is the package a test binary tests, as go test names the
// binary: containerscaler.test for containerscaler.
func packageName(binary string) string {
	name := strings.TrimSuffix(filepath.Base(binary), ".exe")
	return strings.TrimSuffix(name, ".test")
}

// sayTo returns where Main's line goes, as Main says, and a function that
// closes it when it was opened.
func sayTo() (*os.File, func()) {
	if testing.Verbose() || isTerminal(os.Stdout) {
		return os.Stdout, func() {}
	}
	f, ownStdout := goStdout()
	if ownStdout {
		return os.Stdout, func() {}
	}
	if f == nil {
		f, _ = os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	}
	if f == nil {
		return os.Stdout, func() {}
	}
	return f, func() { _ = f.Close() }
}

// goStdout opens the standard output of go test, this binary's parent,
// when it is a terminal or a pipe; nil when it cannot. ownStdout reports
// that it is this binary's own standard output already, as go test gives
// it to a package it runs in its folder.
func goStdout() (f *os.File, ownStdout bool) {
	ppid := os.Getppid()
	comm, err := os.ReadFile("/proc/" + strconv.Itoa(ppid) + "/comm")
	if err != nil || strings.TrimSpace(string(comm)) != "go" {
		return nil, false
	}
	name := "/proc/" + strconv.Itoa(ppid) + "/fd/1"
	info, err := os.Stat(name)
	if err != nil {
		return nil, false
	}
	if own, err := os.Stdout.Stat(); err == nil && os.SameFile(own, info) {
		return nil, true
	}
	// Not a file: go test's next write, at its own offset, would overwrite
	// a line written at the end.
	if info.Mode()&(fs.ModeNamedPipe|fs.ModeCharDevice) == 0 {
		return nil, false
	}
	f, _ = os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	return f, false
}

// isTerminal reports whether f is a character device, as a terminal is.
func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&fs.ModeCharDevice != 0
}
