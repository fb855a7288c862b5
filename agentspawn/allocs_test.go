package agentspawn

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlanAllocs: Plan allocates the container's own memory and little
// more: one string holds every environment entry, kici-labels and the
// binds it makes, whatever their number.
func TestPlanAllocs(t *testing.T) {
	r := fullRequest()
	_, err := Plan(r)
	require.NoError(t, err)
	pool := testing.AllocsPerRun(100, func() { _, _ = Plan(r) })
	r.Job = &JobImage{Image: "node:20", AgentImageID: "sha256:abc", Init: []string{"init"}}
	job := testing.AllocsPerRun(100, func() { _, _ = Plan(r) })
	// The pool image's: "Docker" lower-cased (1), the composed strings and
	// their list (2), the labels map, what Apply and Build make (the extra
	// entry, groups, binds, extra hosts, GroupAdd and its "1990",
	// PidsLimit), the network (3), the pull.
	// Go 1.24's maps take one more for six entries, and the race
	// detector one more.
	maps := float64(raceAllocs)
	if strings.HasPrefix(runtime.Version(), "go1.24") {
		maps++
	}
	assert.LessOrEqual(t, pool, 16.0+maps)
	// A job's image: the volume's name and the command, but no groups.
	assert.LessOrEqual(t, job, 15.0+maps)

	// Many environment entries cost no allocation each: the buffer and
	// the list of where the strings end grow by doubling.
	grown := func(n int) float64 {
		r := fullRequest()
		ls := &r.Config.Scalers[1].LabelSets[1]
		for i := range n {
			ls.Env = append(ls.Env, scalerconfig.EnvVar{Name: "V" + strconv.Itoa(i), Value: "x"})
			r.Environ = append(r.Environ, "KICI_AGENT_ENV_F"+strconv.Itoa(i)+"=y")
		}
		return testing.AllocsPerRun(20, func() { _, _ = Plan(r) })
	}
	few, many := grown(40), grown(4000)
	assert.Less(t, few, pool+12)
	// Doubling two lists from 1,024 bytes and 24 ends: about 2 log2(8,000).
	assert.Less(t, many, few+30, "%v allocations for 8,000 more entries", many-few)
}

// TestAgentLabelsAllocs: the list, and each label the scaler adds; a long
// label set makes its set once.
func TestAgentLabelsAllocs(t *testing.T) {
	short := make([]string, scanned-5) // with the 4 the scaler adds: scanned-1 labels
	for i := range short {
		short[i] = "l" + strconv.Itoa(i)
	}
	n := testing.AllocsPerRun(100, func() { AgentLabels(short, "container", "c", nil, nil) })
	assert.Equal(t, 5.0, n, "the list and the 4 labels the scaler adds")
	at := append(short, "x") // scanned labels: the set is made
	m := testing.AllocsPerRun(100, func() { AgentLabels(at, "container", "c", nil, nil) })
	assert.Greater(t, m, n+1)
	long := make([]string, 1000)
	for i := range long {
		long[i] = "l" + strconv.Itoa(i)
	}
	l := testing.AllocsPerRun(10, func() { AgentLabels(long, "container", "c", nil, nil) })
	assert.Less(t, l, 60.0, "the set grows a few times, not once a label")
}
