package enginetest

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/api/pkg/stdcopy"
	"github.com/moby/moby/client"
)

// AgentReport is what the fake agent printed: what it saw in its container.
type AgentReport struct {
	Argv      []string          // its arguments: AgentNode and the script
	UID       string            // the real uid
	GID       string            // the real gid
	Groups    string            // the supplementary groups, space-separated: "0 1990"
	Env       []string          // NAME=value, in order
	Cgroup    string            // "v1" or "v2"
	PidsMax   string            // a number or "max"
	MemoryMax string            // bytes or "max"
	CPUQuota  string            // µs or "max"
	CPUPeriod string            // µs
	IPs       []string          // IPv4 addresses but loopback, as "172.30.0.2/16"
	Hosts     []string          // /etc/hosts lines the extra hosts added, as "172.30.0.1 name"
	PID1      string            // "self", "tini", or "other <argv0>"
	Probes    map[string]string // address (tcp:HOST:PORT) to ok, refused, timeout, unreachable or error
	Ready     bool              // it printed everything
}

// ParseAgent parses the fake agent's output; other lines are ignored.
func ParseAgent(out string) AgentReport {
	var r AgentReport
	fields := map[string]*string{"uid": &r.UID, "gid": &r.GID, "groups": &r.Groups, "cgroup": &r.Cgroup,
		"pids.max": &r.PidsMax, "memory.max": &r.MemoryMax, "cpu.quota": &r.CPUQuota,
		"cpu.period": &r.CPUPeriod, "pid1": &r.PID1}
	lists := map[string]*[]string{"argv": &r.Argv, "env": &r.Env, "ip": &r.IPs, "host": &r.Hosts}
	for _, line := range strings.Split(out, "\n") {
		key, value, _ := strings.Cut(line, " ")
		if s, err := strconv.Unquote(value); err == nil && (key == "argv" || key == "env") {
			value = s
		}
		switch {
		case fields[key] != nil:
			*fields[key] = value
		case lists[key] != nil:
			*lists[key] = append(*lists[key], value)
		case key == "probe":
			if r.Probes == nil {
				r.Probes = map[string]string{}
			}
			addr, result, _ := strings.Cut(value, " ")
			r.Probes[addr] = result
		case line == "ready":
			r.Ready = true
		}
	}
	return r
}

// ReadAgent waits until the fake agent in container id has printed
// everything, or its container stopped, and returns what it printed.
// Call it once the container started. It fails t after 30 s.
func ReadAgent(t testing.TB, c client.APIClient, id string) AgentReport {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		// Inspected first: when it has stopped, the logs read next are whole.
		info, err := c.ContainerInspect(ctx, id, client.ContainerInspectOptions{})
		var out string
		if err == nil {
			out, err = Logs(ctx, c, id)
		}
		r := ParseAgent(out)
		if err == nil && (r.Ready || !info.Container.State.Running) {
			return r
		}
		select {
		case <-ctx.Done():
			t.Fatalf("enginetest: the agent in %s did not print everything within 30 s (last error: %v):\n%s", id, err, out)
			return r
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Logs returns what container id printed so far, stdout and stderr as
// they came. The container must have no TTY.
func Logs(ctx context.Context, c client.APIClient, id string) (string, error) {
	rc, err := c.ContainerLogs(ctx, id, client.ContainerLogsOptions{ShowStdout: true, ShowStderr: true})
	if err != nil {
		return "", err
	}
	defer rc.Close()
	var out bytes.Buffer
	_, err = stdcopy.StdCopy(&out, &out, rc)
	return out.String(), err
}

// Probe runs the fake agent's probe in container id, which runs: a TCP
// connect to each address (tcp:HOST:PORT) from inside it, now. It returns
// each address's result, as AgentReport.Probes has them.
func Probe(t testing.TB, c client.APIClient, id string, addrs ...string) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	exec, err := c.ExecCreate(ctx, id, client.ExecCreateOptions{
		Cmd: append([]string{AgentNode, "probe"}, addrs...), AttachStdout: true, AttachStderr: true,
	})
	if err != nil {
		t.Fatalf("enginetest: exec in %s: %v", id, err)
		return nil
	}
	res, err := c.ExecAttach(ctx, exec.ID, client.ExecAttachOptions{})
	if err != nil {
		t.Fatalf("enginetest: exec in %s: %v", id, err)
		return nil
	}
	defer res.Close()
	var out bytes.Buffer
	if _, err := stdcopy.StdCopy(&out, &out, res.Reader); err != nil {
		t.Fatalf("enginetest: exec in %s: %v", id, err)
	}
	return ParseAgent(out.String()).Probes
}
