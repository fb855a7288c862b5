// Command npmplan prints what an npm-source upgrade of a KiCI service would
// do: where the service's package is installed, and the exact npm command
// that installs the new version there, or why the upgrade refuses to
// self-install.
//
// Usage:
//
//	npmplan [-windows] [-component NAME] [-version V] [-npm-cli present|absent|probe] [-running PATH] [--] NODE [ARG...]
//
// NODE [ARG...] is the service's launch command, as its unit file or service
// definition has it: the node executable and its arguments, the entry script
// among them. -windows reads it with Windows path rules. -component is the
// KiCI component the service runs (default orchestrator). -version is the
// version to install; without it the plan refuses, as the orchestrator does.
// -running names the program the upgrading tool runs under, which a
// not-global refusal mentions (default: this program).
//
// Whether npm-cli.js exists beside the service's node decides how npm runs.
// By default npmplan assumes it does (-npm-cli present), so that its output
// is the same on every machine; -npm-cli absent assumes it does not (on
// Windows, npm then runs through npm.cmd and cmd.exe), and -npm-cli probe
// looks on this machine's disk.
//
// It prints the resolution, then the plan: the command, the program it
// starts and the environment entries it changes ($PATH or %Path% standing
// for the caller's own), or the refusal. A value that holds a control
// character (a newline, an escape sequence), is not valid UTF-8 or starts
// with a double quote prints as a Go quoted string, so that what the
// launch command holds can never add lines to the output or drive a
// terminal. It exits 0 with a command, 1 when
// the upgrade refuses (or no safe command exists), and 2, with a one-line
// message on stderr, for a usage error.
//
// testdata holds sample launch commands (NAME.args, one argument per line)
// with what the program prints for each: NAME.stdout when it exits 0,
// NAME.refused (its stdout) when it exits 1, NAME.stderr when it exits 2.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kicikit/kicikit/npmtarget"
)

const usage = `usage: npmplan [-windows] [-component NAME] [-version V] [-npm-cli present|absent|probe] [-running PATH] [--] NODE [ARG...]`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "npmplan: %s (run with -h for usage)\n", show(fmt.Sprintf(format, a...)))
		return 2
	}

	fs := flag.NewFlagSet("npmplan", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported below, on one line
	windows := fs.Bool("windows", false, "read the launch command with Windows path rules")
	component := fs.String("component", "orchestrator", "the KiCI component the service runs")
	version := fs.String("version", "", "the version to install")
	npmCli := fs.String("npm-cli", "present", "whether npm-cli.js exists beside the service's node: present, absent, or probe this machine's disk")
	running := fs.String("running", "", "the program the upgrading tool runs under (default: this program)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, usage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return 0
		}
		return fail("%v", err)
	}
	if fs.NArg() == 0 {
		return fail("no launch command: give the service's node and its arguments")
	}
	opts := npmtarget.Options{Windows: *windows}
	switch *npmCli {
	case "present":
		opts.Exists = func(string) bool { return true }
	case "absent":
		opts.Exists = func(string) bool { return false }
	case "probe":
		// nil: Resolve asks this machine's file system.
	default:
		return fail("-npm-cli: %q is not present, absent or probe", *npmCli)
	}
	if *running == "" {
		if exe, err := os.Executable(); err == nil {
			*running = exe
		} else {
			*running = os.Args[0]
		}
	}

	spec := npmtarget.LaunchSpec{ExecPath: fs.Arg(0), Args: fs.Args()[1:]}
	switch r := npmtarget.Resolve(spec, *component, opts).(type) {
	case npmtarget.Resolved:
		printTarget(stdout, r.Target)
	case npmtarget.NotGlobal:
		fmt.Fprintf(stdout, "resolution: not global: %s\n", show(r.Entry))
	case npmtarget.Unsafe:
		fmt.Fprintf(stdout, "resolution: unsafe: %s\n", show(r.Err.Error()))
	case npmtarget.NoEntry:
		fmt.Fprintf(stdout, "resolution: no entry script of %q in a node_modules folder\n", *component)
	}

	plan := npmtarget.PlanUpgrade(npmtarget.PlanUpgradeInput{
		Spec: &spec, Component: *component, Version: *version, Options: opts, RunningExecPath: *running,
	})
	switch p := plan.(type) {
	case npmtarget.SelfInstall:
		cmd, err := p.Command()
		if err != nil {
			fmt.Fprintf(stdout, "refused: %s\n", show(err.Error()))
			return 1
		}
		fmt.Fprintf(stdout, "plan:       install %s\n", show(p.Target.OwningPackage+"@"+p.Version))
		fmt.Fprintf(stdout, "command:    %s\n", showLine(cmd.String()))
		fmt.Fprintf(stdout, "program:    %s\n", show(cmd.Path))
		callerPath := "PATH=$PATH"
		if p.Target.Windows {
			callerPath = "Path=%Path%"
		}
		for _, kv := range cmd.Env([]string{callerPath}) {
			fmt.Fprintf(stdout, "env:        %s\n", show(kv))
		}
		return 0
	case npmtarget.Refusal:
		fmt.Fprintf(stdout, "refused (%s): %s\n", refusalCode(p.Reason), show(p.Message))
	}
	return 1
}

// refusalCode is the short code npmplan prints for why the upgrade refuses.
func refusalCode(r npmtarget.Reason) string {
	switch r {
	case npmtarget.ErrNoVersion:
		return "no-version"
	case npmtarget.ErrVersion:
		return "bad-version"
	case npmtarget.ErrNotGlobal:
		return "not-global"
	case npmtarget.ErrNoGlobalPackage:
		return "no-global-package"
	}
	return "unsafe-target"
}

// printTarget prints where the package is and how npm runs there.
func printTarget(w io.Writer, t npmtarget.Target) {
	platform, prefixVia := "posix", "--prefix argument"
	if t.Windows {
		platform = "Windows"
	}
	if t.PrefixViaEnv() {
		prefixVia = "npm_config_prefix in the environment"
	}
	npm := []string{show(t.Invocation.Cmd)}
	for _, a := range t.Invocation.PreArgs {
		npm = append(npm, show(a))
	}
	fmt.Fprintf(w, "resolution: %s in %s (%s)\n", show(t.OwningPackage), show(t.GlobalPrefix), platform)
	fmt.Fprintf(w, "  node:     %s\n", show(t.NodeExecPath))
	fmt.Fprintf(w, "  npm:      %s\n", strings.Join(npm, " "))
	fmt.Fprintf(w, "  prefix:   %s\n", prefixVia)
}

// show returns s as it is, or quoted as Go quotes strings when s starts
// with a double quote or showLine would quote it, so that a printed value is
// always one line that a reader cannot mistake.
func show(s string) string {
	if strings.HasPrefix(s, `"`) {
		return strconv.Quote(s)
	}
	return showLine(s)
}

// showLine returns s as it is, or quoted as Go quotes strings when s holds a
// control character (C0, DEL, C1, or the line and paragraph separators
// U+2028 and U+2029) or is not valid UTF-8. A command line, whose quotes are
// its own syntax, prints through showLine.
func showLine(s string) string {
	if !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
	}) >= 0 {
		return strconv.Quote(s)
	}
	return s
}
