package enginetest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSkipLine(t *testing.T) {
	t.Parallel()
	var s skipCounts
	assert.Equal(t, "", s.line("containerscaler"), "no skip, no line")
	s.add("no Docker Engine")
	assert.Equal(t, "containerscaler: 1 engine test skipped: no Docker Engine\n", s.line("containerscaler"))
	s.add("a network namespace needs root")
	s.add("a network namespace needs root")
	assert.Equal(t, "containerscaler: 3 engine tests skipped: a network namespace needs root (1 of them for other reasons: go test -v says which)\n",
		s.line("containerscaler"), "the reason most tests skipped for")
	s.add("no Docker Engine")
	s.add("no registry")
	s.add("no registry")
	assert.Equal(t, "containerscaler: 6 engine tests skipped: no Docker Engine (4 of them for other reasons: go test -v says which)\n",
		s.line("containerscaler"), "of equals, the first")
}

func TestPackageName(t *testing.T) {
	t.Parallel()
	for binary, want := range map[string]string{
		"/tmp/go-build1/b001/containerscaler.test": "containerscaler",
		"runagent.test.exe":                        "runagent",
		"./enginetest.test":                        "enginetest",
		"custom":                                   "custom",
	} {
		assert.Equal(t, want, packageName(binary), binary)
	}
}
