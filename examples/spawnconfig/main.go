// Command spawnconfig prints the agent container the KiCI orchestrator's
// container scaler would create for a job: the label set that serves the
// job, what to pull first, and the body of the Docker Engine API's
// POST /containers/create, from a scaler config and the facts the
// orchestrator learns at spawn time.
//
// Usage:
//
//	spawnconfig -config FILE [-dir DIR] (-runs-on L,... [-exclude L,...] | -label-set L,... [-scaler NAME])
//	            [-agent-id ID] [-orchestrator-url URL] [-socket PATH] [-token T] [-environ KEY=V]...
//	            [-bound-job-id ID] [-run-id ID] [-active N] [-cpus N] [-memory SIZE]
//	            [-host-os OS] [-host-arch ARCH]
//	            [-job-image IMAGE [-job-agent-image-id ID] [-job-init ARG]... [-job-auth-user U -job-auth-server S]]
//
// -config and -dir name the scaler config and its drop-in folder. The job
// is routed by its labels, -runs-on and -exclude (comma-separated), as the
// scaler manager routes it; or -label-set names the label set directly, on
// -scaler (default: the first container scaler that declares it).
//
// The rest are what the orchestrator knows when it spawns: -agent-id
// (default scaler-container-1); -orchestrator-url, the orchestrator's
// KICI_ORCHESTRATOR_URL, which the scaler's own orchestratorUrl overrides
// (default ws://127.0.0.1:4000/ws); -socket, the runtime socket it found
// (default: the scaler's socketPath, "" for a scaler with a remote host,
// else /var/run/docker.sock); -token, the agent's token; -environ, the
// orchestrator's environment entries (repeatable), of which the
// KICI_AGENT_ENV_ ones reach the agent; -bound-job-id and -run-id; -active,
// the agents the scaler runs now; -cpus and -memory, the limits the scaler
// manager resolved for the job (SIZE as 512m or 1.5g); -host-os and
// -host-arch, the orchestrator's own platform (linux, macos, windows; x64,
// arm64), which a bare-metal scaler without a platform takes as its own.
// -job-image runs the job in its own image, the runtime volume named from
// -job-agent-image-id (the agent image's inspected id) and -job-init before
// the agent's command; -job-auth-user and -job-auth-server are the
// registry credentials it is pulled with (the password is not taken).
//
// It prints one JSON object, indented: "route" (the scaler and label set),
// "pull" (what to do about the image first) and "create" (the request
// body, exactly the keys the orchestrator sends). It exits 0 on success;
// 1 when no label set serves the job or the backend refuses the spawn,
// printing "refused (REASON): MESSAGE" with the orchestrator's message, or
// when it cannot write its output; and 2, with a one-line message on
// stderr, for a usage error or a config that does not load.
//
// testdata holds a sample config and flag sets (NAME.args, one argument per
// line) with what the program prints for each: NAME.stdout when it exits
// 0, NAME.refused (its stdout) when it exits 1, NAME.stderr when it exits
// 2. `go test ./examples/spawnconfig -update` rewrites them from what the
// program prints.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/api/types/registry"
)

const usage = `usage: spawnconfig -config FILE [-dir DIR] (-runs-on L,... [-exclude L,...] | -label-set L,... [-scaler NAME]) [flags]`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// list is a flag that may repeat, collecting its values in order.
type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(v string) error { *l = append(*l, v); return nil }

// options are the parsed flags.
type options struct {
	config, dir, runsOn, exclude, labelSet, scaler string
	agentID, url, token, boundJob, runID           string
	socket                                         *string // nil: the scaler's
	environ, jobInit                               list
	active                                         int
	cpus                                           float64
	memory, hostOS, hostArch                       string
	jobImage                                       *string // nil: no job image
	jobAgentID, authUser, authServer               string
}

// usageError is a problem with the flags or the input files: exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func run(args []string, stdout, stderr io.Writer) int {
	opts, err := parseFlags(args, stdout)
	if err == nil && opts == nil {
		return 0 // -h
	}
	var out *output
	if err == nil {
		out, err = spawn(opts)
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "spawnconfig: %s\n", ue.msg)
		return 2
	}
	if err != nil {
		_, werr := fmt.Fprintln(stdout, refusal(err))
		if werr != nil {
			fmt.Fprintf(stderr, "spawnconfig: %v\n", werr)
		}
		return 1
	}
	if err := out.write(stdout); err != nil {
		fmt.Fprintf(stderr, "spawnconfig: %v\n", err)
		return 1
	}
	return 0
}

func parseFlags(args []string, stdout io.Writer) (*options, error) {
	var o options
	fs := flag.NewFlagSet("spawnconfig", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported on one line
	fs.StringVar(&o.config, "config", "", "the scaler config file")
	fs.StringVar(&o.dir, "dir", "", "its drop-in folder")
	fs.StringVar(&o.runsOn, "runs-on", "", "the job's runs-on labels, comma-separated")
	fs.StringVar(&o.exclude, "exclude", "", "the job's excluded labels, comma-separated")
	fs.StringVar(&o.labelSet, "label-set", "", "the label set to spawn for, comma-separated (instead of -runs-on)")
	fs.StringVar(&o.scaler, "scaler", "", "the container scaler of -label-set (default: the first that declares it)")
	fs.StringVar(&o.agentID, "agent-id", "scaler-container-1", "the agent's id")
	fs.StringVar(&o.url, "orchestrator-url", "", "KICI_ORCHESTRATOR_URL (default ws://127.0.0.1:4000/ws); the scaler's orchestratorUrl wins")
	socket := fs.String("socket", "", "the runtime socket the backend resolved (default: the scaler's)")
	fs.StringVar(&o.token, "token", "", "the agent's token")
	fs.Var(&o.environ, "environ", "an orchestrator environment entry KEY=V (repeatable)")
	fs.StringVar(&o.boundJob, "bound-job-id", "", "the job the agent is spawned for")
	fs.StringVar(&o.runID, "run-id", "", "the job's run")
	fs.IntVar(&o.active, "active", 0, "agents the scaler runs now")
	fs.Float64Var(&o.cpus, "cpus", 0, "the CPU limit the scaler manager resolved")
	fs.StringVar(&o.memory, "memory", "", "the memory limit the scaler manager resolved, such as 2g")
	fs.StringVar(&o.hostOS, "host-os", "", "the orchestrator's OS: linux, macos, windows")
	fs.StringVar(&o.hostArch, "host-arch", "", "the orchestrator's architecture: x64, arm64")
	jobImage := fs.String("job-image", "", "the job's own image")
	fs.StringVar(&o.jobAgentID, "job-agent-image-id", "", "the inspected id of the label set's agent image")
	fs.Var(&o.jobInit, "job-init", "an argument of the agent image's init command (repeatable)")
	fs.StringVar(&o.authUser, "job-auth-user", "", "the registry user the job's image is pulled as")
	fs.StringVar(&o.authServer, "job-auth-server", "", "the registry server of -job-auth-user")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, usage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return nil, nil
		}
		return nil, &usageError{fmt.Sprintf("%v (run with -h for usage)", err)}
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "socket":
			o.socket = socket
		case "job-image":
			o.jobImage = jobImage
		}
	})
	return &o, check(&o, fs)
}

// check refuses flag sets that name no job or two.
func check(o *options, fs *flag.FlagSet) error {
	switch {
	case fs.NArg() > 0:
		return &usageError{fmt.Sprintf("unexpected argument %q (run with -h for usage)", fs.Arg(0))}
	case o.config == "":
		return &usageError{"-config: no scaler config given (run with -h for usage)"}
	case (o.runsOn == "") == (o.labelSet == ""):
		return &usageError{"give one of -runs-on and -label-set (run with -h for usage)"}
	case o.labelSet == "" && o.scaler != "":
		return &usageError{"-scaler goes with -label-set, not -runs-on"}
	case o.jobImage == nil && (o.jobAgentID != "" || len(o.jobInit) > 0 || o.authUser != "" || o.authServer != ""):
		return &usageError{"-job-agent-image-id, -job-init and -job-auth-* go with -job-image"}
	}
	return nil
}

// labels splits a comma-separated flag value.
func labels(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// load loads the scaler config, its files named as given: through the
// working directory when both paths are relative and inside it, else
// through the root of their volume, as absolute paths.
func load(file, dir string) (*scalerconfig.Config, error) {
	loc := scalerconfig.Location{Path: file, Dir: dir, Windows: filepath.Separator == '\\'}
	if filepath.IsLocal(file) && (dir == "" || filepath.IsLocal(dir)) {
		return loc.Load(os.DirFS("."))
	}
	var err error
	if loc.Path, err = filepath.Abs(file); err == nil && dir != "" {
		loc.Dir, err = filepath.Abs(dir)
	}
	if err != nil {
		return nil, err
	}
	return loc.Load(os.DirFS(filepath.VolumeName(loc.Path) + string(filepath.Separator)))
}

// output is what the program prints.
type output struct {
	Route  route           `json:"route"`
	Pull   pull            `json:"pull"`
	Create json.RawMessage `json:"create"`
}

type route struct {
	From          string   `json:"from"` // runs-on or label-set
	Scaler        string   `json:"scaler"`
	ScalerIndex   int      `json:"scalerIndex"`
	LabelSetIndex int      `json:"labelSetIndex"`
	Labels        []string `json:"labels"`
}

type pull struct {
	Policy string `json:"policy"` // Never, IfNotPresent or Always
	Image  string `json:"image"`
	Auth   *auth  `json:"auth,omitempty"`
}

type auth struct {
	Username      string `json:"username"`
	ServerAddress string `json:"serveraddress"`
}

func (o *output) write(w io.Writer) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(o); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// refused is the route's refusal: no label set serves the job.
type refused struct{ runsOn, exclude []string }

func (r *refused) Error() string {
	msg := "No scaler backend matches requested labels [" + strings.Join(r.runsOn, ", ") + "]"
	if len(r.exclude) > 0 {
		msg += " excluding [" + strings.Join(r.exclude, ", ") + "]"
	}
	return msg
}

// refusal is the line printed for a refused spawn.
func refusal(err error) string {
	var e *agentspawn.Error
	if errors.As(err, &e) {
		return "refused (" + e.Reason.Error() + "): " + e.Error()
	}
	return "refused (no backend): " + err.Error()
}

// spawn routes the job and plans its spawn.
func spawn(o *options) (*output, error) {
	cfg, err := load(o.config, o.dir)
	if err != nil {
		return nil, &usageError{loadProblem(err)}
	}
	host := scalerconfig.Platform{OS: o.hostOS, Arch: o.hostArch}
	r, err := routeOf(o, cfg, host)
	if err != nil {
		return nil, err
	}
	req, err := request(o, cfg, r, host)
	if err != nil {
		return nil, err
	}
	sp, err := agentspawn.Plan(req)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(sp)
	if err != nil {
		return nil, err
	}
	r.ScalerIndex, r.LabelSetIndex = sp.ScalerIndex, sp.LabelSetIndex
	return &output{Route: r, Pull: pullOf(sp.Pull), Create: body}, nil
}

// loadProblem is a load error on one line: the first problem of a config
// the orchestrator refuses, and how many more there are.
func loadProblem(err error) string {
	var ce *scalerconfig.Error
	if !errors.As(err, &ce) || len(ce.Problems) == 0 {
		return strings.ReplaceAll(err.Error(), "\n", " ")
	}
	msg := "the orchestrator would refuse the config: " + ce.Problems[0].String()
	if n := len(ce.Problems) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return msg
}

// routeOf is the scaler and label set the job goes to.
func routeOf(o *options, cfg *scalerconfig.Config, host scalerconfig.Platform) (route, error) {
	if o.labelSet != "" {
		return labelSetRoute(o, cfg), nil
	}
	runsOn, exclude := labels(o.runsOn), labels(o.exclude)
	m, ok := agentspawn.Route(agentspawn.RouteInput{Config: cfg, RunsOn: runsOn, Exclude: exclude, Host: host})
	if !ok {
		return route{}, &refused{runsOn, exclude}
	}
	s := &cfg.Scalers[m.ScalerIndex]
	return route{From: "runs-on", Scaler: s.Name, ScalerIndex: m.ScalerIndex, LabelSetIndex: m.LabelSetIndex,
		Labels: s.LabelSets[m.LabelSetIndex].Labels}, nil
}

// labelSetRoute is the route -label-set names: on -scaler, else on the
// first container scaler that declares it, else on the first container
// scaler (which refuses it).
func labelSetRoute(o *options, cfg *scalerconfig.Config) route {
	r := route{From: "label-set", Scaler: o.scaler, Labels: labels(o.labelSet)}
	if r.Scaler != "" {
		return r
	}
	want := agentspawn.NormalizeLabelSet(r.Labels)
	for _, s := range cfg.Scalers {
		if s.Type != scalerconfig.TypeContainer {
			continue
		}
		if r.Scaler == "" {
			r.Scaler = s.Name
		}
		for _, ls := range s.LabelSets {
			if agentspawn.NormalizeLabelSet(ls.Labels) == want {
				r.Scaler = s.Name
				return r
			}
		}
	}
	return r
}

// request is the spawn the scaler manager asks of the backend.
func request(o *options, cfg *scalerconfig.Config, r route, host scalerconfig.Platform) (agentspawn.Request, error) {
	req := agentspawn.Request{
		Config: cfg, Scaler: r.Scaler, LabelSet: r.Labels, AgentID: o.agentID, Token: o.token,
		Environ: o.environ, BoundJobID: o.boundJob, RunID: o.runID, Active: o.active,
		OrchestratorURL: "ws://127.0.0.1:4000/ws",
	}
	if o.url != "" {
		req.OrchestratorURL = o.url
	}
	var err error
	if req.Effective, err = effective(o); err != nil {
		return req, err
	}
	for i := range cfg.Scalers {
		if s := &cfg.Scalers[i]; s.Name == r.Scaler {
			req.PlatformTaints = agentspawn.PlatformTaints(s, host)
			req.SocketPath = socketOf(o, s)
			if s.OrchestratorURL != nil && *s.OrchestratorURL != "" {
				req.OrchestratorURL = *s.OrchestratorURL
			}
			break
		}
	}
	req.Job = job(o)
	return req, nil
}

// effective are the limits of -cpus and -memory.
func effective(o *options) (hostconfig.Limits, error) {
	l := hostconfig.Limits{CPUs: o.cpus}
	if o.memory == "" {
		return l, nil
	}
	n, err := hostconfig.ParseMemory(o.memory)
	if err != nil {
		return l, &usageError{"-memory: " + err.Error()}
	}
	l.MemBytes = n
	return l, nil
}

// socketOf is the runtime socket the backend resolved for s.
func socketOf(o *options, s *scalerconfig.Scaler) string {
	switch {
	case o.socket != nil:
		return *o.socket
	case s.Host != nil && *s.Host != "":
		return "" // a remote runtime: no local socket to share
	case s.SocketPath != nil && *s.SocketPath != "":
		return *s.SocketPath
	}
	return "/var/run/docker.sock"
}

// job is the job's own image, when -job-image gives one.
func job(o *options) *agentspawn.JobImage {
	if o.jobImage == nil {
		return nil
	}
	j := &agentspawn.JobImage{Image: *o.jobImage, AgentImageID: o.jobAgentID, Init: o.jobInit}
	if o.authUser != "" || o.authServer != "" {
		j.Auth = &registry.AuthConfig{Username: o.authUser, ServerAddress: o.authServer}
	}
	return j
}

// pullOf is the pull as printed.
func pullOf(p agentspawn.Pull) pull {
	switch p := p.(type) {
	case agentspawn.NoPull:
		return pull{Policy: "Never", Image: p.Image}
	case agentspawn.PullIfMissing:
		return pull{Policy: "IfNotPresent", Image: p.Image, Auth: authOf(p.Auth)}
	case agentspawn.PullAlways:
		return pull{Policy: "Always", Image: p.Image, Auth: authOf(p.Auth)}
	}
	panic(fmt.Sprintf("spawnconfig: unexpected pull %T", p))
}

func authOf(a *registry.AuthConfig) *auth {
	if a == nil {
		return nil
	}
	return &auth{Username: a.Username, ServerAddress: a.ServerAddress}
}
