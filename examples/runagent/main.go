// Command runagent runs the agent of one job on a Docker Engine, as the
// KiCI orchestrator's container scaler would: it routes the job on a
// scaler config, spawns the agent, prints the scaler that serves it, its
// container and address, and destroys it on interrupt (SIGINT or SIGTERM).
//
// Usage:
//
//	runagent -config FILE [-dir DIR] [-runs-on L,...] [-orchestrator URL] [-id ID] [-nft COMMAND]
//
// The Engine is the one the orchestrator dials for the scaler: its host:
// (a remote Engine), else its socketPath:. For a scaler that names
// neither, it is DOCKER_HOST's, else the default socket. The agent dials
// the scaler's orchestratorUrl when it names one, else -orchestrator.
//
// Under network isolation, the scaler's default, nft writes the agent's
// rules in this process's network namespace: -nft "sudo -n nft" for a
// user without NET_ADMIN. An agent image the Engine cannot pull is named,
// with what to do: on an Engine with no route out, such as .ci/engine's,
// internal/enginetest/cmd/agentimage puts a stand-in there.
//
// It exits 2 for a usage error or a config that does not load, and 1 when
// no label set serves the job or the spawn fails.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/containerscaler"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/client"
)

const usage = `usage: runagent -config FILE [-dir DIR] [-runs-on L,...] [-orchestrator URL] [-id ID] [-nft COMMAND]`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	status := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(status)
}

// options are the flags.
type options struct {
	config, dir, runsOn, url, id, nft string
}

// run is the program: it spawns the agent and destroys it when ctx ends.
// It returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, status := parse(args, stdout, stderr)
	if status >= 0 {
		return status
	}
	cfg, err := load(o.config, o.dir)
	if err != nil {
		fmt.Fprintf(stderr, "runagent: %s\n", loadProblem(err))
		return 2
	}
	if err := runAgent(ctx, cfg, o, stdout); err != nil {
		fmt.Fprintf(stderr, "runagent: %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
		return 1
	}
	return 0
}

// parse reads the flags. Its status is -1 to go on, else the exit status:
// 0 for -h, 2 for a usage error, which it reports on one line.
func parse(args []string, stdout, stderr io.Writer) (options, int) {
	var o options
	flags := flag.NewFlagSet("runagent", flag.ContinueOnError)
	flags.SetOutput(io.Discard) // errors are reported on one line
	flags.StringVar(&o.config, "config", "", "the scaler config `file`")
	flags.StringVar(&o.dir, "dir", "", "its drop-in `folder`")
	flags.StringVar(&o.runsOn, "runs-on", "linux", "the job's runs-on `labels`, comma-separated")
	flags.StringVar(&o.url, "orchestrator", "ws://172.30.0.1:4000/ws", "the `URL` the agent dials, unless the scaler names its orchestratorUrl")
	flags.StringVar(&o.id, "id", "scaler-container-example", "the agent's `id`")
	flags.StringVar(&o.nft, "nft", "nft", "the `command` that runs nft")
	err, msg := flags.Parse(args), ""
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprintln(stdout, usage)
		flags.SetOutput(stdout)
		flags.PrintDefaults()
		return o, 0
	case err != nil:
		msg = err.Error()
	case flags.NArg() > 0:
		msg = fmt.Sprintf("unexpected argument %q", flags.Arg(0))
	case o.config == "":
		msg = "-config: no scaler config given"
	default:
		return o, -1
	}
	fmt.Fprintf(stderr, "runagent: %s (run with -h for usage)\n", msg)
	return o, 2
}

// runAgent routes the job, spawns its agent and prints it, then destroys
// it once ctx ends.
func runAgent(ctx context.Context, cfg *scalerconfig.Config, o options, out io.Writer) error {
	runsOn := strings.Split(o.runsOn, ",")
	m, ok := agentspawn.Route(agentspawn.RouteInput{Config: cfg, RunsOn: runsOn})
	if !ok { // the orchestrator's words
		return errors.New("No scaler backend matches requested labels [" + strings.Join(runsOn, ", ") + "]")
	}
	scaler := &cfg.Scalers[m.ScalerIndex]
	engine, socket, err := engineOf(scaler)
	if err != nil {
		return err
	}
	defer engine.Close()
	backend, err := containerscaler.New(ctx, containerscaler.Options{
		Config: cfg, Scaler: scaler.Name, Engine: engine, SocketPath: socket,
		Environ: os.Environ(), NftCommand: strings.Fields(o.nft),
	})
	if err != nil {
		return err
	}
	url := o.url
	if scaler.OrchestratorURL != nil && *scaler.OrchestratorURL != "" {
		url = *scaler.OrchestratorURL
	}
	ls := &scaler.LabelSets[m.LabelSetIndex]
	agent, err := backend.Spawn(ctx, containerscaler.Request{LabelSet: ls.Labels, AgentID: o.id, OrchestratorURL: url})
	if err != nil {
		return imageProblem(ctx, engine, ls.Image, err)
	}
	addr := "address " + agent.IP.String()
	if !agent.IP.IsValid() {
		addr = "no address (no network isolation)"
	}
	fmt.Fprintf(out, "agent %s of scaler %q: container %.12s, %s, on %s\n", agent.ID, scaler.Name, agent.ContainerID, addr, engine.DaemonHost())
	<-ctx.Done()
	return backend.Destroy(context.WithoutCancel(ctx), agent.ID)
}

// engineOf returns a client of the Engine the orchestrator dials for
// scaler s, and the local socket a containerSocket label set binds: its
// host (none), else its socketPath, else DOCKER_HOST's (the default socket
// when unset), as a socket when it is one.
func engineOf(s *scalerconfig.Scaler) (*client.Client, string, error) {
	if s.Host != nil && *s.Host != "" {
		c, err := client.New(client.WithHost(*s.Host))
		return c, "", err
	}
	if s.SocketPath != nil && *s.SocketPath != "" {
		c, err := client.New(client.WithHost("unix://" + *s.SocketPath))
		return c, *s.SocketPath, err
	}
	c, err := client.New(client.FromEnv)
	if err != nil {
		return nil, "", err
	}
	socket, _ := strings.CutPrefix(c.DaemonHost(), "unix://")
	if socket == c.DaemonHost() {
		socket = ""
	}
	return c, socket, nil
}

// imageProblem is err, a failed spawn, said better when the agent image is
// not on the Engine: its pull failed, or its pull policy is Never.
func imageProblem(ctx context.Context, c client.APIClient, image string, err error) error {
	_, ierr := c.ImageInspect(context.WithoutCancel(ctx), image)
	if ctx.Err() != nil || !cerrdefs.IsNotFound(ierr) {
		return err
	}
	return fmt.Errorf("the agent image %q is not on the Engine at %s (%w). Pull it where the Engine reaches its registry; "+
		"on an Engine with no route out, such as .ci/engine's, put a stand-in there: go run ./internal/enginetest/cmd/agentimage %s",
		image, c.DaemonHost(), err, image)
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
