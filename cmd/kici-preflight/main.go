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
// It reads a config a scaler at a time, in less memory than node takes to
// parse it. A file the orchestrator could not load either, for the memory
// node would need, is refused before it is parsed; of a config the
// orchestrator refuses, it lists the first 100,000 problems and counts the
// others.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// The exit statuses, as hadolint's.
const (
	exitOK      = 0 // nothing reaches the failure threshold
	exitFailure = 1 // something does
	exitError   = 2 // a usage error, or a file that cannot be read or written
)

// run is the whole program, minus the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runHooked(args, stdin, stdout, stderr, nil)
}

// runHooked is run with a test's hook: -write calls beforeRename, when not
// nil, once the new files wait beside the old ones, before it checks the
// old ones for changes and renames the new ones over them.
func runHooked(args []string, stdin io.Reader, stdout, stderr io.Writer, beforeRename func()) int {
	out := bufio.NewWriterSize(stdout, 64<<10)
	defer out.Flush()
	o, err := parseFlags(args)
	switch {
	case errors.Is(err, errHelp):
		fmt.Fprint(out, help())
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
	c := &check{opts: o, stdin: stdin, out: out, version: readVersion(), annotationRoot: annotationRoot(), beforeRename: beforeRename}
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

// run is one check, once the flags are read: the input, the check, the
// format.
func (c *check) run() (int, error) {
	in, err := c.locate()
	if err != nil {
		return c.fail(err)
	}
	c.in = in
	if in.noConfig != "" {
		c.summary = in.noConfig
		return exitOK, c.report()
	}
	findings, problems, err := c.scan()
	if err == nil {
		findings, problems, err = c.fix(findings, problems)
	}
	if err != nil {
		return c.fail(err)
	}
	c.collect(findings, problems)
	if err := c.pin(); err != nil {
		return exitError, err
	}
	if err := c.report(); err != nil {
		return exitError, err
	}
	return c.status(), nil
}

// fail reports a config that cannot be read: in SARIF and JSON too, so
// that an upload step shows the error instead of failing on no file.
func (c *check) fail(err error) (int, error) {
	switch c.opts.format {
	case "sarif":
		if werr := writeSARIF(c.out, c, err); werr != nil {
			return exitError, werr
		}
	case "json":
		if werr := writeJSON(c.out, c, err); werr != nil {
			return exitError, werr
		}
	}
	return exitError, err
}

// report writes the diags in the format the flags ask for, and makes the
// summary line.
func (c *check) report() error {
	var err error
	switch {
	case c.opts.diff:
		err = c.pins.writeDiff(c.out)
	case c.opts.format == "json":
		err = writeJSON(c.out, c, nil)
	case c.opts.format == "sarif":
		err = writeSARIF(c.out, c, nil)
	case c.opts.format == "github":
		err = writeGitHub(c.out, c.remaining(), c.annotationRoot)
	default:
		err = writeText(c.out, c.remaining())
	}
	if c.summary == "" {
		c.summary = c.summarize()
	}
	return err
}
