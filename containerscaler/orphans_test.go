package containerscaler

import (
	"testing"

	"github.com/moby/moby/api/types/container"
	"github.com/stretchr/testify/assert"
)

func TestOrphans(t *testing.T) {
	t.Parallel()
	c := func(id, agent string, state container.ContainerState) container.Summary {
		s := container.Summary{ID: id, State: state, Labels: map[string]string{"kici-managed": "true"}}
		if agent != "" {
			s.Labels["kici-agent-id"] = agent
		}
		return s
	}
	items := []container.Summary{
		c("tracked-running", "a1", container.StateRunning),
		c("tracked-exited", "a2", container.StateExited),
		c("registered-running", "a3", container.StateRunning),
		c("unregistered-running", "a4", container.StateRunning),
		c("registered-exited", "a3", container.StateExited),
		c("no-agent-running", "", container.StateRunning),
		c("no-agent-created", "", container.StateCreated),
		c("untracked-dead", "a5", container.StateDead),
	}
	tracked := func(id string) bool { return id == "a1" || id == "a2" }
	registered := func(id string) bool { return id == "a3" }
	var ids []string
	for _, c := range orphans(items, tracked, registered) {
		ids = append(ids, c.ID)
	}
	assert.Equal(t, []string{"unregistered-running", "registered-exited", "no-agent-created", "untracked-dead"}, ids)
	assert.Empty(t, orphans(nil, tracked, registered))
}
