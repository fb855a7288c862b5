package containerscaler

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestContainerName: an agent's container name is one the Engine accepts,
// whatever the agent id holds, and new each time.
func TestContainerName(t *testing.T) {
	t.Parallel()
	engineName := regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_.-]+$`)
	for id, prefix := range map[string]string{
		"a1":                     "kici-agent-a1-",
		"job/1 ü:x":              "kici-agent-job-1---x-",
		strings.Repeat("z", 100): "kici-agent-" + strings.Repeat("z", 64) + "-",
	} {
		name := containerName(id)
		assert.Regexp(t, engineName, name)
		assert.True(t, strings.HasPrefix(name, prefix), "%q: %q", id, name)
		assert.Len(t, name, len(prefix)+8, name)
		assert.NotEqual(t, name, containerName(id))
	}
}
