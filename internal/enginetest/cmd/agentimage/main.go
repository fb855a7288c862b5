// Command agentimage puts a stand-in KiCI agent image into the Docker
// Engine at DOCKER_HOST, built as the engine tests build theirs: busybox,
// tini and the fake agent of internal/enginetest/fakeagent, laid out in
// /opt/kici as the agent image lays it out. The fake agent prints what it
// sees in its container, then waits for SIGTERM; it dials no orchestrator.
//
// It is how examples/runagent gets an agent on an Engine that cannot pull
// the real one, such as .ci/engine's, which has no route out:
//
//	bash .ci/engine exec DIR go run ./internal/enginetest/cmd/agentimage quay.io/kici-dev/kici-agent:0.20.0
//
// It tags the image with each reference given, over any image there, and
// prints each reference with the image's id. It runs from the module's
// folder: it builds the fake agent with go. It needs Debian's
// busybox-static and tini (/bin/busybox, /usr/bin/tini-static). It exits 2
// for a usage error, 1 when the Engine refuses the image.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/moby/moby/client"
)

const usage = `usage: agentimage IMAGE...

Puts a stand-in KiCI agent image, tagged IMAGE, into the Docker Engine at
DOCKER_HOST (else the default socket), as the engine tests build theirs.`

// label marks the images agentimage makes.
const label = "kicikit.stand-in"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the program: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("agentimage", flag.ContinueOnError)
	flags.SetOutput(io.Discard) // errors are reported on one line
	err := flags.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprintln(stdout, usage)
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "agentimage: %v (run with -h for usage)\n", err)
		return 2
	case flags.NArg() == 0:
		fmt.Fprintln(stderr, "agentimage: no image given (run with -h for usage)")
		return 2
	}
	if err := put(flags.Args(), stdout); err != nil {
		fmt.Fprintf(stderr, "agentimage: %v\n", err)
		return 1
	}
	return 0
}

// put imports the stand-in into the Engine, tagged with each of refs.
func put(refs []string, stdout io.Writer) error {
	c, err := client.New(client.FromEnv)
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	spec := enginetest.ImageSpec{Layout: enginetest.Agent, Labels: map[string]string{label: "fakeagent"}}
	for _, ref := range refs {
		id, err := enginetest.Import(ctx, c, ref, spec)
		if err != nil {
			return fmt.Errorf("the Engine at %s: %w", c.DaemonHost(), err)
		}
		fmt.Fprintf(stdout, "%s: %s, a stand-in agent image (fakeagent)\n", ref, id)
	}
	return nil
}
