package main

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMemoryBound runs the program with a memory bound on the sample config,
// given three ways, and on a config of 5 MiB: it counts the bytes of every
// file it read (the config, its drop-in, the env file, standard input),
// each once, and the runtime's memory limit is then 1 GiB plus 20 times
// the bytes read, less at most memoryStep of them.
func TestMemoryBound(t *testing.T) {
	t.Chdir("../..")
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	size := func(names ...string) int64 {
		n := int64(0)
		for _, name := range names {
			fi, err := os.Stat(name)
			require.NoError(t, err)
			n += fi.Size()
		}
		return n
	}
	config, dropIn, env := sample+"scalers.yaml", sample+"scalers.d/10-mirror.yaml", sample+"orchestrator.env"
	main, err := os.ReadFile(config)
	require.NoError(t, err)
	// A config the read by groups gives up on, for the problem of its
	// second scaler, once it has read the drop-in: the whole read reads the
	// drop-in again, which counts once.
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(bad, append(main, "  - name: bad\n    type: container\n    maxAgents: many\n"...), 0o644))
	large := filepath.Join(t.TempDir(), "scalers.yaml")
	require.NoError(t, os.WriteFile(large, append(main, strings.Repeat("# a comment of 32 bytes in all.\n", 5<<15)...), 0o644))
	tests := []struct {
		name   string
		args   []string
		stdin  io.Reader
		read   int64
		status int
	}{
		{"config and dir", readme, nil, size(config, dropIn), 0},
		{"env file", []string{"-env-file", env, "-workdir", sample}, nil, size(env, config, dropIn), 0},
		{"standard input", []string{"-config", "-", "-dir", sample + "scalers.d"}, bytes.NewReader(main), size(config, dropIn), 0},
		{"5 MiB", []string{"-config", large}, nil, size(large), 0},
		{"read again", []string{"-config", bad, "-dir", sample + "scalers.d"}, nil, size(bad, dropIn), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debug.SetMemoryLimit(math.MaxInt64)
			var stdout, stderr strings.Builder
			m := &memoryBound{}
			require.Equal(t, tt.status, runHooked(tt.args, tt.stdin, &stdout, &stderr, hooks{memory: m}), stderr.String())
			assert.Equal(t, tt.read, m.read, "bytes read")
			limit := debug.SetMemoryLimit(-1)
			assert.LessOrEqual(t, limit, boundOf(tt.read), "the limit")
			assert.Greater(t, limit, boundOf(tt.read-memoryStep), "the limit")
		})
	}

	debug.SetMemoryLimit(math.MaxInt64)
	require.Equal(t, 0, run(readme, nil, io.Discard, io.Discard))
	assert.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1), "run sets no limit")
}

// TestMemoryBoundSteps sets the limit on the first read and then once a
// memoryStep bytes.
func TestMemoryBoundSteps(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	m := &memoryBound{}
	m.add(64)
	assert.Equal(t, boundOf(64), debug.SetMemoryLimit(-1), "the first read")
	for range memoryStep/64 - 1 {
		m.add(64)
	}
	assert.Equal(t, boundOf(64), debug.SetMemoryLimit(-1), "a step less 64 bytes on")
	m.add(64)
	assert.Equal(t, boundOf(memoryStep+64), debug.SetMemoryLimit(-1), "a step on")
	m.add(0)
	m.add(-1)
	assert.Equal(t, int64(memoryStep+64), m.read, "nothing read")
}

// TestMemoryBoundFor leaves a GOMEMLIMIT the environment sets to the
// runtime, which has read it: the nil bound sets no limit.
func TestMemoryBoundFor(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	debug.SetMemoryLimit(math.MaxInt64)
	none := memoryBoundFor(func(k string) string { return map[string]string{"GOMEMLIMIT": "2GiB"}[k] })
	assert.Nil(t, none)
	none.add(1 << 20)
	assert.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1), "the nil bound set a limit")

	bound := memoryBoundFor(func(string) string { return "" })
	require.NotNil(t, bound)
	bound.add(1 << 20)
	assert.Equal(t, boundOf(1<<20), debug.SetMemoryLimit(-1))
}

// TestMemoryBoundLimit saturates where 20 times the bytes read would
// overflow the limit the runtime takes.
func TestMemoryBoundLimit(t *testing.T) {
	assert.Equal(t, int64(1<<30+200<<20), boundOf(10<<20))
	assert.Equal(t, int64(math.MaxInt64), boundOf(math.MaxInt64/20))
	most := int64((math.MaxInt64 - memoryBase) / memoryPerByte)
	assert.Equal(t, memoryBase+memoryPerByte*most, boundOf(most), "the largest that does not saturate")
	assert.Equal(t, int64(math.MaxInt64), boundOf(most+1))
}
