package containerscaler

import (
	"context"
	"strconv"
	"strings"

	"github.com/moby/moby/api/pkg/stdcopy"
	"github.com/moby/moby/client"
)

// maxOutput bounds what is kept of a container's last lines.
const maxOutput = 64 << 10

// output returns the last lines a container printed, standard output and
// error in the order it wrote them; "" when it printed nothing or its logs
// cannot be read.
func (b *Backend) output(ctx context.Context, id string, lines int) string {
	logs, err := b.engine.ContainerLogs(ctx, id, client.ContainerLogsOptions{
		ShowStdout: true, ShowStderr: true, Tail: strconv.Itoa(lines),
	})
	if err != nil {
		return ""
	}
	defer logs.Close()
	buf := tailBuffer{max: maxOutput}
	_, _ = stdcopy.StdCopy(&buf, &buf, logs)
	return strings.TrimSpace(string(buf.b))
}
