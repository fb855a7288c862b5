// Command kici-preflight checks a KiCI scaler config before an orchestrator
// upgrade: it reports every container label set whose agent image the
// upgrade would leave on an old release, as `kici-admin orchestrator upgrade`
// warns, the problems the orchestrator does not look for, and everything
// for which the orchestrator would refuse to load the config. It can pin
// the images itself.
//
// Usage:
//
//	kici-preflight -env-file FILE [-workdir DIR] [flags]
//	kici-preflight -config FILE|- [-dir DIR] [flags]
//
// Run it with -h for the flags, the checks, their codes and the exit
// statuses. The repository's action.yml runs it in a GitHub workflow, and
// its .pre-commit-hooks.yaml as a pre-commit hook (README.md shows both).
//
// It keeps its memory within 1 GiB plus 20 times the bytes of the files it
// reads where what it holds at once allows: as it reads them, it sets the
// Go runtime's soft memory limit to that bound (debug.SetMemoryLimit),
// unless the environment sets GOMEMLIMIT. A file the orchestrator could
// not load either, for the memory node would need, is refused before it is
// parsed (internal/noderead.MaxEntries and MaxFlowEntries), and of a config the
// orchestrator refuses it lists the first 100,000 problems and counts the
// others (scalerconfig.ScanOptions.MaxProblems).
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
)

func main() {
	if os.Getenv("GOGC") == "" {
		// What the program keeps (the findings, the files' bytes) is
		// small beside what reading the config allocates and drops, a
		// group of scalers at a time: collecting when the heap has grown
		// by half the kept data, not all of it, keeps the peak near it at
		// little cost (bench/README.md, "kici-preflight as a process").
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(runHooked(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, hooks{memory: memoryBoundFor(os.Getenv)}))
}

// gcPercent is the program's GOGC, unless the environment sets one.
const gcPercent = 50

// The exit statuses, as hadolint's.
const (
	exitOK      = 0 // nothing reaches the failure threshold
	exitFailure = 1 // something does
	exitError   = 2 // a usage error, or a file that cannot be read or written
)

// run is the whole program, minus the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runHooked(args, stdin, stdout, stderr, hooks{})
}

// hooks are what run is given beside its arguments and streams.
type hooks struct {
	// beforeRename, a test's, when not nil: -write calls it once it has
	// written the new files beside the old ones and before it checks the
	// old ones for changes and renames the new ones over them.
	beforeRename func()
	// memory, the process's (main's), when not nil: the bytes read, which
	// set the runtime's memory limit.
	memory *memoryBound
}

// runHooked is run with its hooks.
func runHooked(args []string, stdin io.Reader, stdout, stderr io.Writer, h hooks) int {
	out := bufio.NewWriterSize(stdout, 64<<10)
	defer out.Flush()
	o, err := parseFlags(args)
	switch {
	case errors.Is(err, errHelp):
		fmt.Fprint(out, help)
		return exitOK
	case err != nil:
		fmt.Fprintln(stderr, "kici-preflight:", err, "(-h for usage)")
		return exitError
	case o.version:
		fmt.Fprintln(out, "kici-preflight", readVersion())
		return exitOK
	case o.schema:
		out.Write(schemaJSON)
		return exitOK
	}
	o.windows = runtime.GOOS == "windows"
	c := &check{opts: o, stdin: stdin, out: out, version: readVersion(), annotationRoot: annotationRoot(), beforeRename: h.beforeRename, memory: h.memory}
	status, err := c.run()
	if err := out.Flush(); err != nil && status != exitError {
		fmt.Fprintln(stderr, "kici-preflight:", escape(err.Error()))
		return exitError
	}
	if err != nil {
		fmt.Fprintln(stderr, "kici-preflight:", escape(err.Error()))
	}
	if c.pins != nil {
		for _, line := range c.pins.refused {
			fmt.Fprintln(stderr, "kici-preflight:", line)
		}
	}
	if c.summary != "" && !o.quiet {
		fmt.Fprintln(stderr, "kici-preflight:", c.summary)
	}
	return status
}

// annotationRoot is the folder GitHub annotations name files relative to:
// GITHUB_WORKSPACE, the folder a workflow checks the repository out to,
// else the working folder; "" when neither is known.
func annotationRoot() string {
	root := os.Getenv("GITHUB_WORKSPACE")
	if root == "" {
		root, _ = os.Getwd()
	}
	if root != "" {
		root, _ = filepath.Abs(root)
	}
	return root
}

// escape writes the control characters of config text as Go escapes, so
// that a scaler name or an image with a line break or a terminal escape
// cannot forge output lines.
func escape(s string) string { return escapeControls(s, false) }

// escapeControls is escape, keeping tabs as they are when keepTab is set:
// what -diff does with the lines of a file. It writes a C0 or C1 control
// character, and each byte of invalid UTF-8, as \xNN, and a line or
// paragraph separator as \uNNNN.
func escapeControls(s string, keepTab bool) string {
	clean := true
	for _, r := range s {
		if isControl(r) && !(keepTab && r == '\t') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case keepTab && r == '\t':
			b.WriteByte('\t')
		case r == '\uFFFD' && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case isControl(r) && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case isControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isControl reports whether r is a C0 or C1 control character, DEL, or a
// line or paragraph separator.
func isControl(r rune) bool {
	return r < 0x20 || 0x7F <= r && r < 0xA0 || r == 0x2028 || r == 0x2029 || r == '\uFFFD'
}
