// Command spawnconfig shows agentspawn's API at work. It routes a job to a
// label set of a scaler config, as the orchestrator's scaler manager does
// (agentspawn.Route). Then it plans the agent container that the container
// scaler creates for it (agentspawn.Plan).
//
//	spawnconfig -config FILE [-dir DIR] -runs-on L,... [-exclude L,...]
//
// It prints the route, the pull to make first and the body of the Docker
// Engine API's POST /containers/create, as JSON. It exits 1 when no label
// set serves the job or the backend refuses the spawn, and 2 for a usage
// error or a config that does not load. testdata holds sample flag sets
// (NAME.args) with what the program prints for each.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/scalerconfig"
)

const usage = `usage: spawnconfig -config FILE [-dir DIR] -runs-on L,... [-exclude L,...]`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the program: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	var config, dir, runsOn, exclude string
	fs := flag.NewFlagSet("spawnconfig", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported on one line
	fs.StringVar(&config, "config", "", "the scaler config file")
	fs.StringVar(&dir, "dir", "", "its drop-in folder")
	fs.StringVar(&runsOn, "runs-on", "", "the job's runs-on labels, comma-separated")
	fs.StringVar(&exclude, "exclude", "", "the job's excluded labels, comma-separated")
	err, msg := fs.Parse(args), ""
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprintln(stdout, usage)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return 0
	case err != nil:
		msg = fmt.Sprintf("%v (run with -h for usage)", err)
	case fs.NArg() > 0:
		msg = fmt.Sprintf("unexpected argument %q (run with -h for usage)", fs.Arg(0))
	case config == "":
		msg = "-config: no scaler config given (run with -h for usage)"
	case runsOn == "":
		msg = "-runs-on: no labels given (run with -h for usage)"
	}
	var cfg *scalerconfig.Config
	if msg == "" {
		if cfg, err = load(config, dir); err != nil {
			msg = loadProblem(err)
		}
	}
	if msg != "" { // a usage error, or a config that does not load
		fmt.Fprintf(stderr, "spawnconfig: %s\n", msg)
		return 2
	}
	var excluded []string
	if exclude != "" {
		excluded = strings.Split(exclude, ",")
	}
	out, err := spawn(cfg, strings.Split(runsOn, ","), excluded)
	var refusal *agentspawn.Error
	status := 1
	switch {
	case errors.As(err, &refusal): // the backend's refusal
		_, err = fmt.Fprintf(stdout, "refused (%v): %v\n", refusal.Reason, refusal)
	case err != nil: // the route's
		_, err = fmt.Fprintf(stdout, "refused (no backend): %v\n", err)
	default:
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		status, err = 0, enc.Encode(out)
	}
	if err != nil {
		fmt.Fprintf(stderr, "spawnconfig: %v\n", err)
		return 1
	}
	return status
}

// spawn routes the job and plans its spawn.
func spawn(cfg *scalerconfig.Config, runsOn, exclude []string) (*output, error) {
	// No Host: the orchestrator's own platform is unknown here.
	m, ok := agentspawn.Route(agentspawn.RouteInput{Config: cfg, RunsOn: runsOn, Exclude: exclude})
	if !ok {
		msg := "No scaler backend matches requested labels [" + strings.Join(runsOn, ", ") + "]"
		if len(exclude) > 0 {
			msg += " excluding [" + strings.Join(exclude, ", ") + "]"
		}
		return nil, errors.New(msg)
	}
	s := &cfg.Scalers[m.ScalerIndex]
	labelSet := s.LabelSets[m.LabelSetIndex].Labels
	sp, err := agentspawn.Plan(request(cfg, s, labelSet))
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(sp) // the create body, exactly the keys the orchestrator sends
	return &output{route{"runs-on", s.Name, sp.ScalerIndex, sp.LabelSetIndex, labelSet}, pullOf(sp.Pull), body}, err
}

// request is the spawn the scaler manager asks of the backend. What the
// orchestrator learns only at spawn time takes fixed values here.
func request(cfg *scalerconfig.Config, s *scalerconfig.Scaler, labelSet []string) agentspawn.Request {
	req := agentspawn.Request{
		Config: cfg, Scaler: s.Name, LabelSet: labelSet, AgentID: "scaler-container-1",
		OrchestratorURL: "ws://127.0.0.1:4000/ws", SocketPath: "/var/run/docker.sock",
		PlatformTaints: agentspawn.PlatformTaints(s, scalerconfig.Platform{}),
	}
	if s.OrchestratorURL != nil && *s.OrchestratorURL != "" {
		req.OrchestratorURL = *s.OrchestratorURL
	}
	switch {
	case s.Host != nil && *s.Host != "":
		req.SocketPath = "" // a remote runtime: no local socket to share
	case s.SocketPath != nil && *s.SocketPath != "":
		req.SocketPath = *s.SocketPath
	}
	return req
}

// load loads the scaler config through the working directory, or through
// the root of the paths' volume when a path is absolute or goes up.
func load(file, dir string) (*scalerconfig.Config, error) {
	root := "."
	if !filepath.IsLocal(file) || dir != "" && !filepath.IsLocal(dir) {
		var err error
		if file, err = filepath.Abs(file); err == nil && dir != "" {
			dir, err = filepath.Abs(dir)
		}
		if err != nil {
			return nil, err
		}
		root = filepath.VolumeName(file) + string(filepath.Separator)
	}
	return scalerconfig.Location{Path: file, Dir: dir, Windows: filepath.Separator == '\\'}.Load(os.DirFS(root))
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

// output is what the program prints.
type output struct {
	Route  route           `json:"route"`
	Pull   pull            `json:"pull"`
	Create json.RawMessage `json:"create"`
}

type route struct {
	From          string   `json:"from"` // how the job was routed: by its runs-on labels
	Scaler        string   `json:"scaler"`
	ScalerIndex   int      `json:"scalerIndex"`
	LabelSetIndex int      `json:"labelSetIndex"`
	Labels        []string `json:"labels"`
}

type pull struct {
	Policy string `json:"policy"` // Never, IfNotPresent or Always
	Image  string `json:"image"`
}

// pullOf is the pull as printed: a type switch over the sealed
// agentspawn.Pull.
func pullOf(p agentspawn.Pull) pull {
	switch p := p.(type) {
	case agentspawn.NoPull:
		return pull{Policy: "Never", Image: p.Image}
	case agentspawn.PullIfMissing:
		return pull{Policy: "IfNotPresent", Image: p.Image}
	case agentspawn.PullAlways:
		return pull{Policy: "Always", Image: p.Image}
	}
	panic(fmt.Sprintf("spawnconfig: unexpected pull %T", p))
}
