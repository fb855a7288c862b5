package containerscaler

import (
	"context"
	"strings"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/client"
)

// remove removes a container, its anonymous volumes with it; one already
// gone, or being removed, is no error.
func (b *Backend) remove(ctx context.Context, id string) error {
	_, err := b.engine.ContainerRemove(ctx, id, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
	if err != nil && !cerrdefs.IsNotFound(err) && !cerrdefs.IsConflict(err) {
		return step("remove container "+shortID(id), err)
	}
	return nil
}

// engineFor returns the Engine client of a backend and the local runtime
// socket its containerSocket label sets bind ("" for none), as the
// orchestrator's create resolves them: Options.Engine when set; else the
// scaler's host, a remote Engine with no local socket; else its
// socketPath; else the first socket the probe finds.
//
// A remote host keeps its port (tcp://builder:2376 dials 2376); the
// orchestrator's client drops it and dials port 80.
func engineFor(o Options, s *scalerconfig.Scaler) (client.APIClient, string, error) {
	host, socket := deref(s.Host), deref(s.SocketPath)
	if host != "" {
		socket = ""
	}
	if o.Engine != nil {
		if o.SocketPath != "" {
			socket = o.SocketPath
		}
		return o.Engine, socket, nil
	}
	if host != "" {
		c, err := client.New(client.WithHost(host))
		return c, "", err
	}
	if socket == "" {
		socket = probeSocket(s.Runtime.Effective(), o.Environ)
		if socket == "" {
			return nil, "", &Error{Reason: ErrNoRuntime, Scaler: s.Name}
		}
	}
	c, err := client.New(client.WithHost("unix://" + socket))
	return c, socket, err
}

// probeSocket returns the first runtime socket this process may read and
// write, in the orchestrator's order (detectRuntime): Docker's, then
// rootful Podman's, then rootless Podman's under $XDG_RUNTIME_DIR of
// environ; a runtime other than auto keeps only its own. "" when none is.
func probeSocket(runtime scalerconfig.Runtime, environ []string) string {
	type probe struct {
		path    string
		runtime scalerconfig.Runtime
	}
	probes := []probe{
		{"/var/run/docker.sock", scalerconfig.RuntimeDocker},
		{"/run/podman/podman.sock", scalerconfig.RuntimePodman},
	}
	if xdg := lookupEnv(environ, "XDG_RUNTIME_DIR"); xdg != "" {
		probes = append(probes, probe{xdg + "/podman/podman.sock", scalerconfig.RuntimePodman})
	}
	for _, p := range probes {
		if (runtime == scalerconfig.RuntimeAuto || runtime == p.runtime) && accessible(p.path) {
			return p.path
		}
	}
	return ""
}

// lookupEnv is the value of name in environ, as os.Environ gives it; the
// first entry wins, as os.Getenv reads it.
func lookupEnv(environ []string, name string) string {
	for _, e := range environ {
		if k, v, ok := strings.Cut(e, "="); ok && k == name {
			return v
		}
	}
	return ""
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
