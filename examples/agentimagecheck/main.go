// Command agentimagecheck checks a KiCI scaler config before an orchestrator
// upgrade: it reports every container label set whose agent image the
// upgrade would leave on an old release, as `kici-admin orchestrator upgrade`
// warns, and the problems the orchestrator does not look for.
//
// Usage:
//
//	agentimagecheck -config scalers.yaml [-dir scalers.d] [-target 0.20.0] [-format text|json|sarif] [-strict]
//
// It reads the config, then every *.yaml and *.yml file in -dir in name
// order, and appends their scalers, as the orchestrator loads them. Without
// -target it reports only what holds for any release (moving tags), as the
// orchestrator does when the target is unknown.
//
// The text format prints one "Warning: " line per finding, as the
// orchestrator does; json prints the findings as they marshal; sarif prints
// a SARIF 2.1.0 log with one rule per finding code.
//
// Exit status: 0 when the check ran (with or without findings), 1 when there
// are findings and -strict is set, 2 for a usage or input error.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kicikit/kicikit/agentversion"
	"github.com/kicikit/kicikit/imageref"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = "usage: agentimagecheck -config scalers.yaml [-dir scalers.d] [-target 0.20.0] [-format text|json|sarif] [-strict]"

// usageError is a mistake in the command line.
func usageError(msg string) error { return errors.New(msg + " (-h for usage)") }

// run is the whole program, minus the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	status, err := check(args, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "agentimagecheck:", err)
	}
	return status
}

func check(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("agentimagecheck", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // run prints one line, not flag's own
	fs.Usage = func() {}
	config := fs.String("config", "", "the scaler config `file` (YAML)")
	dir := fs.String("dir", "", "the scalers.d `folder` whose *.yaml and *.yml files add scalers")
	target := fs.String("target", "", "the `version` the upgrade installs")
	format := fs.String("format", "text", "the output `format`: text, json or sarif")
	strict := fs.Bool("strict", false, "exit 1 when there are findings")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, usage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return 0, nil
		}
		return 2, usageError(strings.TrimSpace(err.Error()))
	}
	switch {
	case fs.NArg() > 0:
		return 2, usageError(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	case *config == "":
		return 2, usageError("-config is required")
	case *format != "text" && *format != "json" && *format != "sarif":
		return 2, usageError(fmt.Sprintf("-format %q is not text, json or sarif", *format))
	}
	// Read the target as the orchestrator does, but refuse one it would
	// silently ignore: a mistyped target must not turn the older-pin check
	// off. Only no -target, or an empty one, is no target.
	if _, _, err := agentversion.ParseTarget(*target); err != nil && *target != "" {
		return 2, usageError(fmt.Sprintf("-target %q is not a release version (MAJOR.MINOR.PATCH)", *target))
	}

	cfg, err := loadConfig(*config, *dir)
	if err != nil {
		return 2, err
	}
	findings := imageref.CheckAgentImages(imageref.CheckInput{
		Config:           cfg,
		TargetVersion:    *target,
		ScalerConfigPath: *config,
		ScalerConfigDir:  *dir,
	})

	switch *format {
	case "json":
		if findings == nil {
			findings = []imageref.Finding{}
		}
		err = writeJSON(stdout, findings)
	case "sarif":
		err = writeJSON(stdout, sarifLog(findings))
	default:
		for _, f := range findings {
			if _, err = fmt.Fprintln(stdout, "Warning: "+f.Message()); err != nil {
				break
			}
		}
	}
	if err != nil {
		return 2, err
	}
	if *strict && len(findings) > 0 {
		return 1, nil
	}
	return 0, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
