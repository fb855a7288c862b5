package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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

			wantOut, outErr := os.ReadFile(name + ".stdout")
			wantErr, errErr := os.ReadFile(name + ".stderr")
			require.True(t, (outErr == nil) != (errErr == nil), "want exactly one of %s.stdout and %s.stderr", name, name)

			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
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
