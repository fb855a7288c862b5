// Package enginetest runs tests against a real Docker Engine and registry.
//
// The Engine, its two registries and the network namespace they share come
// from .ci/engine, which says how to run tests inside that namespace:
//
//	bash .ci/engine start /tmp/kh
//	bash .ci/engine exec /tmp/kh go test -race ./containerscaler/...
//	bash .ci/engine stop /tmp/kh
//
// Its environment names them: DOCKER_HOST, KICIKIT_NETNS, KICIKIT_REGISTRY,
// KICIKIT_REGISTRY_USER, KICIKIT_REGISTRY_PASSWORD, KICIKIT_OPEN_REGISTRY.
// Without them a test skips and says why. With KICIKIT_REQUIRE_ENGINE=1 it
// fails instead.
//
// The package builds its images from a root filesystem, never from a
// registry: Debian's busybox-static, tini-static, and the fake agent of
// ./fakeagent. [Faults] injects faults between a client and the Engine;
// [LateAnswers] delays the Engine's answers past what they report.
//
// # An attacker in a container
//
// The fake agent sends, by docker exec, what an attacker inside an agent
// could with Docker's default capabilities: [Spoof] has it write crafted
// [Packet] frames through a packet socket (any source address or MAC,
// UDP, a TCP SYN, ICMP, another IP protocol, IPv6 where the container has
// none, ARP, a router advertisement, an 802.1Q tag). In the Engine's
// namespace, where tests run, an [Oracle] counts which of them passed the
// host's filtering: its own chains, after every filter, count each
// packet's mark at the input and forward hooks. [Forwarding] routes
// private and metadata addresses out, so that the forward hook sees them.
// [Neighbour] and [FDBPort] tell whether ARP or a frame's source took the
// host's neighbour entry or the bridge's port of an address or MAC;
// [ListenIn] whether a datagram reached another container.
package enginetest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/client"
)

// RequireEnv is the variable that makes a missing Engine fail a test.
// Its value must be "1".
const RequireEnv = "KICIKIT_REQUIRE_ENGINE"

// howTo says how to give the tests an Engine.
const howTo = "start one with `bash .ci/engine start DIR` and run the tests with " +
	"`bash .ci/engine exec DIR go test ...` (" + RequireEnv + "=1 makes this a failure)"

// skipOrFail skips t, or fails it when RequireEnv is set. [Main] counts
// the tests it skips.
func skipOrFail(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("enginetest: "+format, args...)
		return
	}
	reason := fmt.Sprintf(format, args...)
	t.Cleanup(func() {
		if t.Skipped() { // not a TB that only records the skip
			skipped.add(reason)
		}
	})
	t.Skipf("enginetest: %s", reason)
}

// Engine returns a client of the Engine at DOCKER_HOST, pinged.
// It skips t when no Engine answers.
func Engine(t testing.TB) *client.Client {
	t.Helper()
	return EngineWith(t, nil)
}

// EngineWith is [Engine] with the client's transport wrapped by wrap.
// The transport dials DOCKER_HOST without TLS. A nil wrap is [Engine].
// The ping goes through wrap too. Attach streams do not: the client dials
// them itself.
func EngineWith(t testing.TB, wrap func(http.RoundTripper) http.RoundTripper) *client.Client {
	t.Helper()
	host := os.Getenv(client.EnvOverrideHost)
	if host == "" {
		skipOrFail(t, "no Docker Engine: %s is not set; %s", client.EnvOverrideHost, howTo)
		return nil
	}
	opts := []client.Opt{client.FromEnv}
	if wrap != nil {
		base, err := dialer(host)
		if err != nil {
			t.Fatalf("enginetest: %v", err)
			return nil
		}
		hc := &http.Client{Transport: wrap(base), CheckRedirect: client.CheckRedirect}
		opts = append(opts, client.WithHTTPClient(hc))
	}
	c, err := client.New(opts...)
	if err != nil {
		t.Fatalf("enginetest: a client of %s=%s: %v", client.EnvOverrideHost, host, err)
		return nil
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Ping(ctx, client.PingOptions{NegotiateAPIVersion: true}); err != nil {
		skipOrFail(t, "no Docker Engine answers at %s=%s: %v; %s", client.EnvOverrideHost, host, err, howTo)
		return nil
	}
	return c
}

// dialer returns a transport to the Engine at host, a unix:// or tcp:// URL.
func dialer(host string) (*http.Transport, error) {
	u, err := client.ParseHostURL(host)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "unix" && u.Scheme != "tcp" {
		return nil, fmt.Errorf("%s=%s: a wrapped transport dials unix:// or tcp:// only", client.EnvOverrideHost, host)
	}
	network, addr := u.Scheme, u.Host
	return &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		},
		MaxIdleConns:    6,
		IdleConnTimeout: 30 * time.Second,
	}, nil
}

// EngineDir returns the folder of the Engine at DOCKER_HOST when
// .ci/engine started it: DOCKER_HOST is unix://DIR/docker.sock, and DIR
// holds what start wrote. It is the DIR that `bash .ci/engine exec DIR`
// takes. It skips t for any other Engine.
func EngineDir(t testing.TB) string {
	t.Helper()
	host := os.Getenv(client.EnvOverrideHost)
	path, unix := strings.CutPrefix(host, "unix://")
	dir, sock := strings.CutSuffix(path, "/docker.sock")
	if !unix || !sock {
		skipOrFail(t, "%s=%s is not the socket of an Engine .ci/engine started; %s", client.EnvOverrideHost, host, howTo)
		return ""
	}
	for _, f := range []string{".kicikit-engine", "env"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			skipOrFail(t, "%s=%s is not the socket of an Engine .ci/engine started: %v; %s", client.EnvOverrideHost, host, err, howTo)
			return ""
		}
	}
	return dir
}
