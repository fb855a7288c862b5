package enginetest_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/mount"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/enginetest"
)

// ref returns a reference no other test uses.
func ref(repo string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return repo + ":" + hex.EncodeToString(b[:])
}

// run creates and starts a container, removed when t ends.
func run(t *testing.T, c *client.Client, cfg *container.Config, hc *container.HostConfig) string {
	t.Helper()
	ctx := context.Background()
	created, err := c.ContainerCreate(ctx, client.ContainerCreateOptions{Config: cfg, HostConfig: hc})
	require.NoError(t, err)
	t.Cleanup(func() {
		_, err := c.ContainerRemove(context.Background(), created.ID, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
		assert.NoError(t, err)
	})
	_, err = c.ContainerStart(ctx, created.ID, client.ContainerStartOptions{})
	require.NoError(t, err)
	return created.ID
}

// exitCode waits for container id to stop and returns its exit code.
func exitCode(t *testing.T, c *client.Client, id string) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w := c.ContainerWait(ctx, id, client.ContainerWaitOptions{Condition: container.WaitConditionNotRunning})
	select {
	case r := <-w.Result:
		return r.StatusCode
	case err := <-w.Error:
		require.NoError(t, err)
	}
	return -1
}

func TestEngineNegotiates(t *testing.T) {
	t.Parallel()
	c := enginetest.Engine(t)
	ping, err := c.Ping(context.Background(), client.PingOptions{})
	require.NoError(t, err)
	assert.Equal(t, ping.APIVersion, c.ClientVersion())
}

func TestAgentImage(t *testing.T) {
	t.Parallel()
	c := enginetest.Engine(t)
	image := ref("enginetest-agent")
	enginetest.AgentImage(t, c, image, map[string]string{"kici.runtime.init": "tini", "a.b": "x y"})
	img, err := c.ImageInspect(context.Background(), image)
	require.NoError(t, err)
	assert.Equal(t, []string{enginetest.AgentNode, enginetest.AgentScript}, img.Config.Cmd)
	assert.Equal(t, map[string]string{"kici.runtime.init": "tini", "a.b": "x y"}, img.Config.Labels)

	pids := int64(4096)
	id := run(t, c, &container.Config{Image: image, Hostname: "agent", Env: []string{"KICI_AGENT_ID=a1", "B=two words"}},
		&container.HostConfig{
			GroupAdd:   []string{"1990"},
			ExtraHosts: []string{"kici-host:192.0.2.1"},
			Resources:  container.Resources{PidsLimit: &pids, Memory: 512 << 20, CPUQuota: 150000, CPUPeriod: 100000},
		})
	got := enginetest.ReadAgent(t, c, id)
	assert.Equal(t, []string{enginetest.AgentNode, enginetest.AgentScript}, got.Argv)
	assert.Equal(t, []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOSTNAME=agent", "KICI_AGENT_ID=a1", "B=two words", "HOME=/root"}, got.Env)
	assert.Equal(t, enginetest.AgentReport{
		Argv: got.Argv, Env: got.Env, IPs: got.IPs,
		UID: "0", GID: "0", Groups: "0 1990",
		Cgroup: got.Cgroup, PidsMax: "4096", MemoryMax: strconv.Itoa(512 << 20), CPUQuota: "150000", CPUPeriod: "100000",
		Hosts: []string{"192.0.2.1 kici-host"}, PID1: "self", Ready: true,
	}, got)
	require.Len(t, got.IPs, 1)
	assert.True(t, strings.HasPrefix(got.IPs[0], "172.17."), got.IPs[0])

	timeout := 10
	_, err = c.ContainerStop(context.Background(), id, client.ContainerStopOptions{Timeout: &timeout})
	require.NoError(t, err)
	assert.Equal(t, int64(0), exitCode(t, c, id), "the agent exits 0 on SIGTERM")
}

func TestAgentUnderTiniAndCrashing(t *testing.T) {
	t.Parallel()
	c := enginetest.Engine(t)
	image := ref("enginetest-agent")
	enginetest.AgentImage(t, c, image, nil)
	tests := []struct {
		name     string
		cmd, env []string
		wantPID1 string
		wantExit int64 // -1: still running
	}{
		{"tini", []string{enginetest.AgentTini, "-s", "--", enginetest.AgentNode, enginetest.AgentScript}, nil, "tini", -1},
		{"crash", nil, []string{"KICI_FAKE_EXIT=3"}, "self", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := run(t, c, &container.Config{Image: image, Cmd: tt.cmd, Env: tt.env}, nil)
			got := enginetest.ReadAgent(t, c, id)
			assert.Equal(t, tt.wantPID1, got.PID1)
			assert.True(t, got.Ready)
			if tt.wantExit >= 0 {
				assert.Equal(t, tt.wantExit, exitCode(t, c, id))
			}
		})
	}
}

// populate is the orchestrator's runtime copy: what the runtime volume of
// a job image is filled with.
const populate = "set -e; cp -a /opt/kici/. /kici-runtime-out/; test -x /kici-runtime-out/node/bin/node; " +
	"test -f /kici-runtime-out/app/packages/agent/dist/server.js; touch /kici-runtime-out/.kici-runtime-complete"

func TestLayoutsAgainstTheRuntimeCopy(t *testing.T) {
	t.Parallel()
	c := enginetest.Engine(t)
	tests := []struct {
		name     string
		layout   enginetest.Layout
		wantExit int64
	}{
		{"agent", enginetest.Agent, 0},
		{"broken agent", enginetest.BrokenAgent, 1},
		{"job", enginetest.Job, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			image := ref("enginetest-layout")
			enginetest.BuildImage(t, c, image, enginetest.ImageSpec{Layout: tt.layout})
			id := run(t, c, &container.Config{Image: image, Cmd: []string{"sh", "-c", populate}},
				&container.HostConfig{Mounts: []mount.Mount{{Type: mount.TypeVolume, Target: "/kici-runtime-out"}}})
			assert.Equal(t, tt.wantExit, exitCode(t, c, id))
		})
	}
}

func TestJobImage(t *testing.T) {
	t.Parallel()
	c := enginetest.Engine(t)
	image := ref("enginetest-job")
	enginetest.BuildImage(t, c, image, enginetest.ImageSpec{Layout: enginetest.Job, Env: []string{"JOB=1"}, Labels: map[string]string{"job": "yes"}})
	img, err := c.ImageInspect(context.Background(), image)
	require.NoError(t, err)
	assert.Equal(t, []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "JOB=1"}, img.Config.Env)
	assert.Equal(t, map[string]string{"job": "yes"}, img.Config.Labels)

	id := run(t, c, &container.Config{Image: image}, nil)
	require.Eventually(t, func() bool {
		out, err := enginetest.Logs(context.Background(), c, id)
		return err == nil && out == enginetest.JobMessage+"\n"
	}, 10*time.Second, 50*time.Millisecond)
	timeout := 10
	start := time.Now()
	_, err = c.ContainerStop(context.Background(), id, client.ContainerStopOptions{Timeout: &timeout})
	require.NoError(t, err)
	assert.Equal(t, int64(0), exitCode(t, c, id), "the job's command exits 0 on SIGTERM")
	assert.Less(t, time.Since(start), 5*time.Second)
}

func TestProbesFromTheAgent(t *testing.T) {
	t.Parallel()
	c := enginetest.Engine(t)
	enginetest.InEngineNetns(t)
	// The default network's gateway, on docker0 in the Engine's namespace.
	docker0, err := net.InterfaceByName("docker0")
	require.NoError(t, err)
	addrs, err := docker0.Addrs()
	require.NoError(t, err)
	require.NotEmpty(t, addrs)
	gateway := addrs[0].(*net.IPNet).IP.String()

	open, err := net.Listen("tcp", net.JoinHostPort(gateway, "0"))
	require.NoError(t, err)
	defer open.Close()
	closed, err := net.Listen("tcp", net.JoinHostPort(gateway, "0"))
	require.NoError(t, err)
	require.NoError(t, closed.Close())

	image := ref("enginetest-agent")
	enginetest.AgentImage(t, c, image, nil)
	probes := "tcp:" + open.Addr().String() + ",tcp:" + closed.Addr().String()
	id := run(t, c, &container.Config{Image: image, Env: []string{"KICI_PROBE=" + probes}}, nil)
	got := enginetest.ReadAgent(t, c, id)
	assert.Equal(t, map[string]string{"tcp:" + open.Addr().String(): "ok", "tcp:" + closed.Addr().String(): "refused"}, got.Probes)
}

func TestParseAgent(t *testing.T) {
	tests := []struct {
		name, out string
		want      enginetest.AgentReport
	}{
		{"empty", "", enginetest.AgentReport{}},
		{"quoted", "argv \"/a b\"\nenv \"X=1\\n2\"\nenv \"Y=\"\n", enginetest.AgentReport{Argv: []string{"/a b"}, Env: []string{"X=1\n2", "Y="}}},
		{"fields", "uid 1000\ngroups\ngroups 0 1990\npid1 other /bin/sh\nready\n", enginetest.AgentReport{UID: "1000", Groups: "0 1990", PID1: "other /bin/sh", Ready: true}},
		{"lists", "ip 10.0.0.2/8\nip 172.30.0.2/16\nhost 1.2.3.4 a b\n", enginetest.AgentReport{IPs: []string{"10.0.0.2/8", "172.30.0.2/16"}, Hosts: []string{"1.2.3.4 a b"}}},
		{"probes", "probe tcp:1.2.3.4:5 timeout\nprobe tcp:1.2.3.4:6 ok\n", enginetest.AgentReport{Probes: map[string]string{"tcp:1.2.3.4:5": "timeout", "tcp:1.2.3.4:6": "ok"}}},
		{"other lines", "Error: something\nreadying\n", enginetest.AgentReport{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, enginetest.ParseAgent(tt.out))
		})
	}
}

func TestAPIPathAndOn(t *testing.T) {
	tests := []struct {
		name, method, target string
		wantPath             string
		wantOn               bool // On("POST", "/containers/*/start")
	}{
		{"versioned", "POST", "/v1.41/containers/abc/start", "/containers/abc/start", true},
		{"unversioned", "POST", "/containers/abc/start?x=1", "/containers/abc/start", true},
		{"other method", "GET", "/v1.41/containers/abc/start", "/containers/abc/start", false},
		{"ping", "HEAD", "/_ping", "/_ping", false},
		{"version endpoint", "GET", "/version", "/version", false},
		{"volumes", "GET", "/volumes/v1.2", "/volumes/v1.2", false},
		{"deeper path", "POST", "/v1.41/containers/abc/start/x", "/containers/abc/start/x", false},
	}
	on := enginetest.On("POST", "/containers/*/start")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.target, nil)
			assert.Equal(t, tt.wantPath, enginetest.APIPath(r))
			assert.Equal(t, tt.wantOn, on(r))
		})
	}
	assert.True(t, enginetest.On("", "/_ping")(httptest.NewRequest("GET", "/_ping", nil)), "any method")
}

// recorder is a testing.TB that records a skip or a failure instead of
// ending the test.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                     {}
func (r *recorder) Cleanup(func())              {}
func (r *recorder) Skipf(f string, args ...any) { r.skipped = fmt.Sprintf(f, args...) }
func (r *recorder) Fatalf(f string, args ...any) {
	r.failed = fmt.Sprintf(f, args...)
}

func TestWithoutAnEngine(t *testing.T) {
	calls := map[string]func(testing.TB){
		"Engine":        func(t testing.TB) { assert.Nil(t, enginetest.Engine(t)) },
		"Registry":      func(t testing.TB) { assert.Zero(t, enginetest.Registry(t)) },
		"OpenRegistry":  func(t testing.TB) { assert.Zero(t, enginetest.OpenRegistry(t)) },
		"InEngineNetns": func(t testing.TB) { assert.Empty(t, enginetest.InEngineNetns(t)) },
	}
	tests := []struct {
		name, call string
		env        []string // NAME=value
		want       string   // in the skip's reason
	}{
		{"no DOCKER_HOST", "Engine", []string{"DOCKER_HOST="}, "DOCKER_HOST is not set"},
		{"no socket", "Engine", []string{"DOCKER_HOST=unix:///nonexistent/docker.sock"}, "no Docker Engine answers at DOCKER_HOST=unix:///nonexistent/docker.sock"},
		{"no registry", "Registry", []string{"KICIKIT_REGISTRY="}, "KICIKIT_REGISTRY"},
		{"registry outside the netns", "OpenRegistry", []string{"KICIKIT_OPEN_REGISTRY=127.0.0.1:5001", "KICIKIT_NETNS="}, "KICIKIT_NETNS is not set"},
		{"no netns", "InEngineNetns", []string{"KICIKIT_NETNS="}, "KICIKIT_NETNS is not set"},
		{"another netns", "InEngineNetns", []string{"KICIKIT_NETNS=kicikit-nonexistent"}, "kicikit-nonexistent"},
	}
	for _, tt := range tests {
		for _, require := range []string{"", "1"} {
			t.Run(tt.name+"/require="+require, func(t *testing.T) {
				for _, e := range tt.env {
					name, value, _ := strings.Cut(e, "=")
					t.Setenv(name, value)
				}
				t.Setenv(enginetest.RequireEnv, require)
				r := &recorder{TB: t}
				calls[tt.call](r)
				got := map[string]string{"": r.skipped, "1": r.failed}[require]
				assert.Contains(t, got, tt.want)
				assert.Contains(t, got, "bash .ci/engine start DIR")
				assert.Equal(t, "", map[string]string{"": r.failed, "1": r.skipped}[require], "a skip or a failure, not both")
			})
		}
	}
}

func TestRegistryNotAnswering(t *testing.T) {
	enginetest.InEngineNetns(t)
	t.Setenv("KICIKIT_OPEN_REGISTRY", "127.0.0.1:1")
	t.Setenv(enginetest.RequireEnv, "")
	r := &recorder{TB: t}
	assert.Zero(t, enginetest.OpenRegistry(r))
	assert.Contains(t, r.skipped, "no registry answers at 127.0.0.1:1")
}

func TestNetns(t *testing.T) {
	var name string
	t.Run("create", func(t *testing.T) {
		name = enginetest.Netns(t)
		assert.True(t, strings.HasPrefix(name, "kicikit-t-"), name)
		_, err := os.Stat("/run/netns/" + name)
		assert.NoError(t, err)

		t.Setenv("KICIKIT_NETNS", name)
		t.Setenv(enginetest.RequireEnv, "")
		r := &recorder{TB: t}
		assert.Empty(t, enginetest.InEngineNetns(r))
		assert.Contains(t, r.skipped, "this test does not run in the Engine's network namespace "+name)
	})
	if name == "" {
		t.Skip("no network namespace was made")
	}
	_, err := os.Stat("/run/netns/" + name)
	assert.True(t, os.IsNotExist(err), "deleted when its test ends: %v", err)
}

func TestInEngineNetns(t *testing.T) {
	assert.Equal(t, os.Getenv("KICIKIT_NETNS"), enginetest.InEngineNetns(t))
}
