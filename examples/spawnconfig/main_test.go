package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/moby/moby/api/types/container"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// update rewrites each sample's NAME.stdout or NAME.stderr from what the
// program prints: go test ./examples/spawnconfig -update, then review the
// diff.
var update = flag.Bool("update", false, "rewrite testdata/*.stdout and *.stderr from what the program prints")

// TestSamples runs the program on every testdata/NAME.args (one argument per
// line) and checks what it prints against NAME.stdout (exit 0, nothing on
// stderr) or NAME.stderr (exit 2, nothing on stdout, one line).
func TestSamples(t *testing.T) {
	argFiles, err := filepath.Glob(filepath.Join("testdata", "*.args"))
	require.NoError(t, err)
	require.NotEmpty(t, argFiles)
	for _, argFile := range argFiles {
		name := strings.TrimSuffix(argFile, ".args")
		t.Run(filepath.Base(name), func(t *testing.T) {
			raw, err := os.ReadFile(argFile)
			require.NoError(t, err)
			var args []string
			if s := strings.TrimSuffix(string(raw), "\n"); s != "" {
				args = strings.Split(s, "\n")
			}

			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			if *update {
				writeSample(t, name, code, stdout.Bytes(), stderr.Bytes())
			}

			wantOut, outErr := os.ReadFile(name + ".stdout")
			wantErr, errErr := os.ReadFile(name + ".stderr")
			require.True(t, (outErr == nil) != (errErr == nil), "want exactly one of %s.stdout and %s.stderr", name, name)
			if outErr == nil {
				assert.Equal(t, 0, code)
				assert.Equal(t, string(wantOut), stdout.String())
				assert.Empty(t, stderr.String())
				var decoded struct {
					Env        []string
					HostConfig map[string]any
				}
				require.NoError(t, json.Unmarshal(stdout.Bytes(), &decoded))
				assert.NotNil(t, decoded.Env)
				assert.Equal(t, float64(4096), decoded.HostConfig["PidsLimit"])
			} else {
				assert.Equal(t, 2, code)
				assert.Equal(t, string(wantErr), stderr.String())
				assert.Equal(t, 1, strings.Count(stderr.String(), "\n"))
				assert.Empty(t, stdout.String())
			}
		})
	}
}

// writeSample writes the output of a sample run to NAME.stdout (exit 0) or
// NAME.stderr, and removes the other.
func writeSample(t *testing.T, name string, code int, stdout, stderr []byte) {
	t.Helper()
	keep, drop, out := name+".stdout", name+".stderr", stdout
	if code != 0 {
		keep, drop, out = drop, keep, stderr
	}
	require.NoError(t, os.WriteFile(keep, out, 0o644))
	if err := os.Remove(drop); err != nil && !errors.Is(err, fs.ErrNotExist) {
		require.NoError(t, err)
	}
}

// TestNonDefaultKeepsWhatIsSet checks that the HostConfig the program
// prints, defaults left out, decodes into the HostConfig Build returned.
func TestNonDefaultKeepsWhatIsSet(t *testing.T) {
	hc := hostconfig.Build(hostconfig.Input{
		Limits:              hostconfig.Limits{CPUs: math.Inf(1), MemBytes: math.MaxInt64},
		Binds:               []string{"/a:/a"},
		ExtraHosts:          []string{"h:10.0.0.1"},
		SupplementaryGroups: []int{0, hostconfig.SudoGroupGID},
	})
	hc.LogConfig.Type = "json-file" // a set member of a nested object
	members, err := nonDefault(hc)
	require.NoError(t, err)
	out, err := json.Marshal(members)
	require.NoError(t, err)
	var back container.HostConfig
	require.NoError(t, json.Unmarshal(out, &back))
	assert.Equal(t, hc, back)
	assert.NotContains(t, members, "AutoRemove")
	assert.NotContains(t, members, "ConsoleSize")
	assert.Contains(t, members, "LogConfig")
}

func TestHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 0, run([]string{"-h"}, &stdout, &stderr))
	assert.True(t, strings.HasPrefix(stdout.String(), usage+"\n"), stdout.String())
	assert.Contains(t, stdout.String(), "-job-image")
	assert.Empty(t, stderr.String())
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteError(t *testing.T) {
	var stderr bytes.Buffer
	assert.Equal(t, 1, run(nil, failingWriter{}, &stderr))
	assert.Equal(t, "spawnconfig: disk full\n", stderr.String())
}
