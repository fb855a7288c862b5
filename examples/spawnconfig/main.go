// Command spawnconfig prints what the KiCI container scaler creates an agent
// container with, for given limits, binds and image: the environment entries
// the scaler adds for the container's image and the HostConfig of the Engine
// API's POST /containers/create.
//
// Usage:
//
//	spawnconfig [-cpus N] [-memory SIZE] [-bind SRC:DST[:MODE]]... [-extra-host HOST:IP]... [-job-image IMAGE]
//
// -cpus and -memory are the label set's resources.limits (SIZE as the
// scaler config writes it: 512m, 1.5g); -bind and -extra-host may repeat;
// -job-image names the image a job asked to run in, and when it is given the
// agent starts from that image instead of the pool's own. Only whether
// -job-image is given changes the output.
//
// It prints one JSON object, indented: "Env", the entries to append to the
// container's environment, and "HostConfig", the members of the HostConfig
// JSON that are not the Engine's defaults (null, false, 0, ""). It exits 0
// on success; 2, with a one-line message on stderr, for a usage or input
// error, a limit the scaler would not apply among them; and 1 when it
// cannot write its output.
//
// testdata holds sample flag sets (NAME.args, one argument per line) with
// what the program prints for each: NAME.stdout when it exits 0, NAME.stderr
// when it exits 2. `go test ./examples/spawnconfig -update` rewrites them
// from what the program prints.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/kicikit/kicikit/hostconfig"
)

const usage = `usage: spawnconfig [-cpus N] [-memory SIZE] [-bind SRC:DST[:MODE]]... [-extra-host HOST:IP]... [-job-image IMAGE]`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// list is a flag that may repeat, collecting its values in order.
type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(v string) error { *l = append(*l, v); return nil }

func run(args []string, stdout, stderr io.Writer) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "spawnconfig: "+format+"\n", a...)
		return 2
	}

	fs := flag.NewFlagSet("spawnconfig", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported below, on one line
	cpus := fs.Float64("cpus", 0, "CPU limit, 1.5 for one and a half; 0 for none")
	memory := fs.String("memory", "", "memory limit such as 512m or 1.5g; empty for none")
	var binds, hosts list
	fs.Var(&binds, "bind", "volume binding SRC:DST[:MODE] (repeatable)")
	fs.Var(&hosts, "extra-host", "extra /etc/hosts entry HOST:IP (repeatable)")
	jobImage := fs.String("job-image", "", "the job's own image, when the job runs in one")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, usage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return 0
		}
		return fail("%v (run with -h for usage)", err)
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q (run with -h for usage)", fs.Arg(0))
	}
	jobContainer := false
	fs.Visit(func(f *flag.Flag) { jobContainer = jobContainer || f.Name == "job-image" })
	if jobContainer && *jobImage == "" {
		return fail("-job-image: empty image name")
	}
	if math.IsNaN(*cpus) || math.IsInf(*cpus, 0) || *cpus < 0 {
		return fail("-cpus %v: want a finite number of CPUs, 0 or more", *cpus)
	}

	// The flags play the label set's resources.limits; no effective limits
	// come from a scaler manager here.
	res := &hostconfig.Resources{Limits: &hostconfig.ResourceSpec{CPUs: *cpus, Memory: *memory}}
	limits, err := hostconfig.ResolveSpawnLimits(hostconfig.Limits{}, res)
	if err != nil {
		return fail("%s", limitProblem(err))
	}

	origin := hostconfig.PoolImage
	if jobContainer {
		origin = hostconfig.JobImage
	}
	env, in := hostconfig.SpawnAdditions(origin).Apply([]string{}, hostconfig.Input{
		Limits:     limits,
		Binds:      binds,
		ExtraHosts: hosts,
	})
	hc, err := nonDefault(hostconfig.Build(in))
	if err != nil {
		fmt.Fprintf(stderr, "spawnconfig: %v\n", err)
		return 1
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(struct {
		Env        []string
		HostConfig map[string]any
	}{env, hc}); err != nil {
		fmt.Fprintf(stderr, "spawnconfig: %v\n", err)
		return 1
	}
	return 0
}

// limitProblem says which flag holds a limit ResolveSpawnLimits refused,
// and why, in the flag's terms.
func limitProblem(err error) string {
	var le *hostconfig.LimitError
	if !errors.As(err, &le) {
		return err.Error()
	}
	reason := le.Err
	var pe *hostconfig.ParseError
	if errors.As(reason, &pe) {
		reason = pe.Reason // the flag and its value say the rest
	}
	if le.Field == "memory" {
		return fmt.Sprintf("-memory %q: %v", le.Memory, reason)
	}
	return fmt.Sprintf("-%s %v: %v", le.Field, le.CPUs, reason)
}

// nonDefault returns the members of v's JSON object whose values are not
// the Engine's defaults: null, false, 0, "", or an array or object of
// nothing else. Numbers stay as written, so no int64 is rounded.
func nonDefault(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var members map[string]any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&members); err != nil {
		return nil, err
	}
	maps.DeleteFunc(members, func(_ string, v any) bool { return isZero(v) })
	return members, nil
}

func isZero(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case string:
		return v == ""
	case json.Number:
		f, err := v.Float64()
		return err == nil && f == 0
	case []any:
		return !slices.ContainsFunc(v, func(e any) bool { return !isZero(e) })
	case map[string]any:
		for _, e := range v {
			if !isZero(e) {
				return false
			}
		}
		return true
	}
	return false
}
