package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/moby/moby/api/types/container"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// update rewrites each sample's NAME.stdout, NAME.refused or NAME.stderr
// from what the program prints: go test ./examples/spawnconfig -update,
// then review the diff.
var update = flag.Bool("update", false, "rewrite testdata/*.stdout, *.refused and *.stderr from what the program prints")

// outcomes are the files a sample's output goes to, by exit status.
var outcomes = map[int]string{0: ".stdout", 1: ".refused", 2: ".stderr"}

// TestSamples runs the program on every testdata/NAME.args (one argument per
// line) and checks what it prints against NAME.stdout (exit 0, nothing on
// stderr), NAME.refused (exit 1, its stdout, one line) or NAME.stderr (exit
// 2, nothing on stdout, one line). It runs from the repository's root, as
// .ci/examples and the README run the program, so that the paths in the
// samples and in what it prints are the same.
func TestSamples(t *testing.T) {
	argFiles, err := filepath.Glob(filepath.Join("testdata", "*.args"))
	require.NoError(t, err)
	require.NotEmpty(t, argFiles)
	for _, argFile := range argFiles {
		argFile, err := filepath.Abs(argFile)
		require.NoError(t, err)
		name := strings.TrimSuffix(argFile, ".args")
		t.Run(filepath.Base(name), func(t *testing.T) {
			t.Chdir(filepath.Join("..", ".."))
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
			var found []int
			for c, ext := range outcomes {
				if _, err := os.Stat(name + ext); err == nil {
					found = append(found, c)
				}
			}
			require.Len(t, found, 1, "want exactly one of %s.stdout, .refused and .stderr", name)
			want, err := os.ReadFile(name + outcomes[found[0]])
			require.NoError(t, err)
			assert.Equal(t, found[0], code)
			switch code {
			case 0:
				assert.Equal(t, string(want), stdout.String())
				assert.Empty(t, stderr.String())
				checkCreateBody(t, stdout.Bytes())
			case 1:
				assert.Equal(t, string(want), stdout.String())
				assert.True(t, strings.HasPrefix(stdout.String(), "refused ("), stdout.String())
				assert.Equal(t, 1, strings.Count(stdout.String(), "\n"))
				assert.Empty(t, stderr.String())
			default:
				assert.Equal(t, string(want), stderr.String())
				assert.Equal(t, 1, strings.Count(stderr.String(), "\n"))
				assert.Empty(t, stdout.String())
			}
		})
	}
}

// checkCreateBody: the printed create body decodes into the Engine API's
// own types, with what every agent container has.
func checkCreateBody(t *testing.T, out []byte) {
	t.Helper()
	var decoded struct {
		Route  route
		Pull   pull
		Create struct {
			container.Config
			HostConfig container.HostConfig
		}
	}
	require.NoError(t, json.Unmarshal(out, &decoded))
	assert.Equal(t, "true", decoded.Create.Labels["kici-managed"])
	assert.Equal(t, decoded.Route.Scaler, decoded.Create.Labels["kici-scaler-name"])
	assert.Equal(t, agentspawn.NormalizeLabelSet(decoded.Route.Labels), decoded.Create.Labels["kici-labels"])
	assert.Equal(t, decoded.Pull.Image, decoded.Create.Image)
	require.NotNil(t, decoded.Create.HostConfig.PidsLimit)
	assert.Equal(t, int64(4096), *decoded.Create.HostConfig.PidsLimit)
}

// writeSample writes the output of a sample run to the file of its exit
// status, and removes the others.
func writeSample(t *testing.T, name string, code int, stdout, stderr []byte) {
	t.Helper()
	out := stdout
	if code == 2 {
		out = stderr
	}
	for c, ext := range outcomes {
		if c == code {
			require.NoError(t, os.WriteFile(name+ext, out, 0o644))
		} else if err := os.Remove(name + ext); err != nil && !errors.Is(err, fs.ErrNotExist) {
			require.NoError(t, err)
		}
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 0, run([]string{"-h"}, &stdout, &stderr))
	assert.True(t, strings.HasPrefix(stdout.String(), usage+"\n"), stdout.String())
	for _, f := range []string{"-config", "-dir", "-runs-on", "-exclude"} {
		assert.Contains(t, stdout.String(), f)
	}
	assert.Empty(t, stderr.String())
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteError(t *testing.T) {
	t.Parallel()
	args := []string{"-config", filepath.Join("testdata", "scalers.yaml"), "-runs-on", "linux"}
	var stderr bytes.Buffer
	assert.Equal(t, 1, run(args, failingWriter{}, &stderr))
	assert.Equal(t, "spawnconfig: disk full\n", stderr.String())

	stderr.Reset()
	assert.Equal(t, 1, run([]string{"-config", filepath.Join("testdata", "scalers.yaml"), "-runs-on", "windows"}, failingWriter{}, &stderr), "a refusal")
	assert.Equal(t, "spawnconfig: disk full\n", stderr.String())
}

// TestAbsolutePaths: a config named by an absolute path loads through the
// root of its volume, and routes as the relative one does.
func TestAbsolutePaths(t *testing.T) {
	t.Parallel()
	file, err := filepath.Abs(filepath.Join("testdata", "scalers.yaml"))
	require.NoError(t, err)
	dir, err := filepath.Abs(filepath.Join("testdata", "scalers.d"))
	require.NoError(t, err)
	var abs, rel, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"-config", file, "-dir", dir, "-runs-on", "gpu"}, &abs, &stderr), stderr.String())
	require.Equal(t, 0, run([]string{"-config", "testdata/scalers.yaml", "-dir", "testdata/scalers.d", "-runs-on", "gpu"}, &rel, &stderr), stderr.String())
	assert.Equal(t, rel.String(), abs.String())
}
