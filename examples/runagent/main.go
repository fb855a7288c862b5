// Command runagent runs the agent of one job on the local Docker Engine, as
// the KiCI orchestrator's container scaler would: it routes the job on a
// scaler config, spawns the agent, prints its container and address, and
// destroys it on interrupt.
//
// Usage:
//
//	runagent -config scalers.yaml -runs-on linux,docker -orchestrator ws://10.0.0.2:4000/ws
//
// The Engine is DOCKER_HOST's, else the default socket. Under network
// isolation, nft must run (-nft "sudo -n nft" for a user without
// NET_ADMIN).
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

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/containerscaler"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/client"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "runagent:", err)
		os.Exit(1)
	}
}

// run spawns the agent, and destroys it when ctx ends.
func run(ctx context.Context, args []string, out io.Writer) error {
	flags := flag.NewFlagSet("runagent", flag.ContinueOnError)
	config := flags.String("config", "scalers.yaml", "the scaler config `file`")
	runsOn := flags.String("runs-on", "linux", "the job's runs-on `labels`, comma-separated")
	url := flags.String("orchestrator", "ws://172.30.0.1:4000/ws", "the `URL` the agent dials")
	id := flags.String("id", "scaler-container-example", "the agent's `id`")
	nft := flags.String("nft", "nft", "the `command` that runs nft")
	if err := flags.Parse(args); err != nil {
		return err
	}

	// Which label set serves the job: the scaler manager's choice.
	path, err := filepath.Abs(*config)
	if err != nil {
		return err
	}
	cfg, err := scalerconfig.Location{Path: path}.Load(os.DirFS("/"))
	if err != nil {
		return err
	}
	m, ok := agentspawn.Route(agentspawn.RouteInput{Config: cfg, RunsOn: strings.Split(*runsOn, ",")})
	if !ok {
		return errors.New("no label set serves runs-on " + *runsOn)
	}
	scaler := &cfg.Scalers[m.ScalerIndex]

	engine, err := client.New(client.FromEnv)
	if err != nil {
		return err
	}
	defer engine.Close()
	backend, err := containerscaler.New(ctx, containerscaler.Options{
		Config:     cfg,
		Scaler:     scaler.Name,
		Engine:     engine,
		Environ:    os.Environ(),
		NftCommand: strings.Fields(*nft),
	})
	if err != nil {
		return err
	}
	agent, err := backend.Spawn(ctx, containerscaler.Request{
		LabelSet:        scaler.LabelSets[m.LabelSetIndex].Labels,
		AgentID:         *id,
		OrchestratorURL: *url,
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "agent %s: container %.12s, address %v\n", agent.ID, agent.ContainerID, agent.IP)

	<-ctx.Done()
	return backend.Destroy(context.WithoutCancel(ctx), agent.ID)
}
