package enginetest

import (
	"bufio"
	"context"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/api/pkg/stdcopy"
	"github.com/moby/moby/client"
)

// ListenIn opens a UDP socket on port, every address, in container id,
// which runs an [Agent] image, for d: the fake agent's, by docker exec. It
// returns once the socket is bound, a function that waits for d to end and
// returns the marks of the datagrams the socket received: what reached the
// container's own stack. It fails t when the socket cannot be opened.
func ListenIn(t testing.TB, c client.APIClient, id string, port uint16, d time.Duration) func() []uint32 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d+30*time.Second)
	exec, err := c.ExecCreate(ctx, id, client.ExecCreateOptions{AttachStdout: true, AttachStderr: true,
		Cmd: []string{AgentNode, "listen", strconv.Itoa(int(port)), strconv.FormatInt(d.Milliseconds(), 10)}})
	var res client.ExecAttachResult
	if err == nil {
		res, err = c.ExecAttach(ctx, exec.ID, client.ExecAttachOptions{})
	}
	if err != nil {
		cancel()
		t.Fatalf("enginetest: listening in %s: %v", id, err)
		return nil
	}
	r, w := io.Pipe()
	go func() {
		_, err := stdcopy.StdCopy(w, w, res.Reader)
		_ = w.CloseWithError(err)
	}()
	lines := bufio.NewScanner(r)
	if !lines.Scan() || lines.Text() != "listening" {
		res.Close()
		cancel()
		t.Fatalf("enginetest: listening in %s: %q %v", id, lines.Text(), lines.Err())
		return nil
	}
	return func() []uint32 {
		defer cancel()
		defer res.Close()
		var marks []uint32
		for lines.Scan() {
			if hex, ok := strings.CutPrefix(lines.Text(), "got "); ok {
				if m, err := strconv.ParseUint(hex, 16, 32); err == nil {
					marks = append(marks, uint32(m))
				}
			}
		}
		return marks
	}
}
