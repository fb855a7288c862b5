package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kicikit/kicikit/agentversion"
	"github.com/kicikit/kicikit/preflight"
)

// options are the command line, checked.
type options struct {
	envFile, workdir string
	config, dir      string
	target           string // as given; "" for none
	format           string // text, json, sarif or github
	threshold        string // error, warning or none
	ignore           []string
	quiet, version   bool
	schema           bool // print the config's JSON Schema
	diff, write      bool
	windows          bool // read the env file's paths with Windows rules
}

var errHelp = errors.New("help")

// once is a string flag that may be given once: a second -dir is a
// mistake, not a correction.
type once struct {
	name       string
	value      *string
	set, twice bool
}

func (o *once) String() string { return "" }

func (o *once) Set(v string) error {
	if o.set {
		o.twice = true
		return errors.New("given twice")
	}
	o.set, *o.value = true, v
	return nil
}

// list is a flag that may be repeated.
type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(v string) error { *l = append(*l, v); return nil }

// codes are every finding code, in the order of rules.
var codes = codesOf(rules)

func codesOf(rules []preflight.Kind) []string {
	var out []string
	for _, r := range rules {
		out = append(out, r.Code)
	}
	return out
}

func parseFlags(args []string) (options, error) {
	o := options{format: "text", threshold: "error"}
	fs := flag.NewFlagSet("kici-preflight", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // run prints one line, not flag's own
	fs.Usage = func() {}
	var single []*once
	for _, f := range []struct {
		name string
		v    *string
	}{
		{"env-file", &o.envFile}, {"workdir", &o.workdir}, {"config", &o.config}, {"dir", &o.dir},
		{"target", &o.target}, {"format", &o.format}, {"failure-threshold", &o.threshold},
	} {
		v := &once{name: f.name, value: f.v}
		single = append(single, v)
		fs.Var(v, f.name, "")
	}
	fs.Var((*list)(&o.ignore), "ignore", "")
	strict := fs.Bool("strict", false, "")
	fs.BoolVar(&o.quiet, "quiet", false, "")
	fs.BoolVar(&o.version, "version", false, "")
	fs.BoolVar(&o.schema, "schema", false, "")
	fs.BoolVar(&o.diff, "diff", false, "")
	fs.BoolVar(&o.write, "write", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, errHelp
		}
		for _, v := range single {
			if v.twice {
				return o, fmt.Errorf("-%s given twice: give it once", v.name)
			}
		}
		return o, err
	}
	if *strict {
		if fs.Lookup("failure-threshold").Value.(*once).set && o.threshold != "warning" {
			return o, errors.New("-strict is -failure-threshold warning: give one of them")
		}
		o.threshold = "warning"
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.version || o.schema {
		return o, nil
	}
	return o, o.validate()
}

func (o options) validate() error {
	switch {
	case o.envFile == "" && o.config == "":
		return errors.New("give -env-file (the service's env file) or -config (the scaler config)")
	case o.envFile != "" && o.config != "":
		return errors.New("give -env-file or -config, not both")
	case o.workdir != "" && o.envFile == "":
		return errors.New("-workdir goes with -env-file")
	case o.dir != "" && o.config == "":
		return errors.New("-dir goes with -config; with -env-file, the env file names the folder")
	case !slices.Contains([]string{"text", "json", "sarif", "github"}, o.format):
		return fmt.Errorf("-format %q is not text, json, sarif or github", o.format)
	case !slices.Contains([]string{"error", "warning", "none"}, o.threshold):
		return fmt.Errorf("-failure-threshold %q is not error, warning or none", o.threshold)
	case o.diff && o.write:
		return errors.New("give -diff or -write, not both")
	case o.write && o.config == "-":
		return errors.New("-write cannot rewrite standard input: use -diff")
	case (o.diff || o.write) && o.target == "":
		return errors.New("nothing to pin without -target: the pins name the release you upgrade to")
	}
	for _, c := range o.ignore {
		if !slices.Contains(codes, c) {
			return fmt.Errorf("-ignore %q is not a finding code (%s)", c, strings.Join(codes, ", "))
		}
	}
	// Read the target as the orchestrator does, but refuse one it would
	// silently ignore: a mistyped target must not turn the older-pin check
	// off. Only no -target, or an empty one, is no target.
	if _, _, err := agentversion.ParseTarget(o.target); err != nil && o.target != "" {
		return fmt.Errorf("-target %q is not a release version (MAJOR.MINOR.PATCH)", o.target)
	}
	return nil
}

// help is what -h prints: the usage, the flags, the checks, one line each
// from rules, how to ignore a finding, and the exit statuses.
func help() string {
	var b strings.Builder
	b.WriteString(helpHead + "The checks, one code each (severity):\n")
	for _, r := range rules {
		b.WriteString(wrap(fmt.Sprintf("  %-14s (%s)", r.Code, r.Severity), r.Summary, 79, 17))
	}
	b.WriteString(helpTail)
	return b.String()
}

// wrap is head, then the words of text, in lines of at most width bytes
// where the words allow; each line after the first is indented by indent
// spaces.
func wrap(head, text string, width, indent int) string {
	var b strings.Builder
	line := head
	for _, word := range strings.Fields(text) {
		if len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line = strings.Repeat(" ", indent-1)
		}
		line += " " + word
	}
	return b.String() + line + "\n"
}

const helpHead = `kici-preflight checks a KiCI scaler config before an orchestrator upgrade.

Usage:
  kici-preflight -env-file FILE [-workdir DIR] [flags]
  kici-preflight -config FILE|- [-dir DIR] [flags]

Where the config comes from (one of):
  -env-file FILE     the service's env file: KICI_SCALER_CONFIG_PATH and
                     KICI_SCALER_CONFIG_DIR, read as the orchestrator reads them
  -workdir DIR       the service's working directory (its unit's
                     WorkingDirectory), against which a relative path in the
                     env file is read; default: the current directory
  -config FILE       the scaler config file; - reads standard input
  -dir DIR           the drop-in folder (scalers.d) whose *.yaml and *.yml
                     files add scalers, as the orchestrator loads them

What to check and how to report it:
  -target VERSION    the release the upgrade installs (0.20.0); the config is
                     read as that release reads it (see below); without it,
                     as the newest does, only what holds for any release is
                     reported, and there is nothing to pin
  -format FORMAT     text (default): file:line:col: severity: message [code]
                     json: an object with the format's version, the tool and
                     every finding with its fields
                     sarif: SARIF 2.1.0, for GitHub code scanning
                     github: GitHub Actions workflow commands (annotations),
                     each file relative to $GITHUB_WORKSPACE (else the
                     working directory) when inside it, else absolute
  -ignore CODE       do not report CODE (repeatable); counted in the summary
  -quiet             no summary line on standard error (the findings, those
                     ignored, the agent images checked and the images
                     skipped as not KiCI agent images)
  -failure-threshold error|warning|none
                     the least severity that makes the exit status 1
                     (default: error)
  -strict            the same as -failure-threshold warning
  -diff              print, as a unified diff, the pins and fixes -write would
                     make
  -write             pin every agent image that a finding names a release
                     for, and, for a target of 0.16.0 or later, make each fix
                     the config leaves no choice about (below), in place:
                     only those values change, each file atomically, all
                     files or none, each keeping its owner, group, mode and
                     extended attributes; nothing is written when a file
                     changed since it was read, or when its owner cannot be
                     kept; then report what remains
  -schema            print the JSON Schema of the scaler config's main file
                     (draft 2020-12), for an editor, and exit; README.md shows
                     how to bind scalers.yaml and scalers.d/*.yaml to it
  -version           print the version the program was built as and exit: the
                     module's version (go install ...@v0.1.0), or (devel) with
                     the VCS revision a build from a checkout records

`

const helpTail = `moving-tag and older-pin are the orchestrator's own. The image checks look
at container scalers' label sets whose image is a kici-agent image;
invalid-memory at every scaler type's, invalid-limit at container scalers'.
With -target, the first four name a pin (repository:target), which -diff
shows and -write makes. invalid-config is one finding at each problem, with
the key a misspelt key was likely meant to be (the first 100,000 problems:
the summary counts the others).

Which release refuses what (invalid-config): the config is read as the
-target release's orchestrator reads it (config.ts at 84ac3cd for 0.16.0 and
later, b9d436e for 0.14.0 and 0.15.x, 0b46a9a before), on this machine's
operating system. From 0.16.0 it refuses
  - cpus or memory written directly under resources (a flat block), even
    beside requests or limits: -write nests a block of cpus and memory alone
    under limits (a limit alone also sets the request);
  - a label naming a platform (windows, win32, macos, darwin, arm64, aarch64,
    arm) in a scaler without platform: -write declares platform: {os, arch}
    on a scaler whose label sets all name the one platform by windows, macos
    or arm64, and whose labels name its os and arch; elsewhere the finding
    says how to choose, and -write changes nothing there.
From 0.14.0, on Windows, it refuses a bare-metal binaryPath batch file whose
path cmd.exe would read as syntax. 0.15.0 and older load the first two.

Ignoring a finding in the config: a comment
  # kici-preflight:ignore=CODE[,CODE...]
ignores those codes for one label set when it stands
  - at the end of the line where the label set's image value ends, after it
    (for the image's codes):
      image: quay.io/kici-dev/kici-agent:latest  # kici-preflight:ignore=moving-tag
  - or on a line of its own among the comment lines right above the line
    where a block label set starts, no further right than that line's first
    character:
      # kici-preflight:ignore=moving-tag,never-pull
      - labels: [linux]

Exit status:
  0  nothing reached the failure threshold
  1  a finding reached it
  2  a usage error, or a file that could not be read or written
`
