package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/kicikit/kicikit/cmd/kici-preflight/internal/sarif"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// schemas compiles the SARIF 2.1.0 schemas of testdata (see
// testdata/SARIF-SCHEMA.md), with format assertions on, so that a uri that
// is not a URI reference fails.
func schemas(t *testing.T) []*jsonschema.Schema {
	t.Helper()
	var out []*jsonschema.Schema
	for _, name := range []string{"sarif-schema-2.1.0.json", "sarif-schema-2.1.0-rtm.5.json"} {
		f, err := os.Open(filepath.Join("testdata", name))
		require.NoError(t, err)
		doc, err := jsonschema.UnmarshalJSON(f)
		f.Close()
		require.NoError(t, err)
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		require.NoError(t, c.AddResource(name, doc))
		s, err := c.Compile(name)
		require.NoError(t, err)
		out = append(out, s)
	}
	return out
}

func validate(t *testing.T, schemas []*jsonschema.Schema, sarif []byte) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(sarif))
	require.NoError(t, err)
	for _, s := range schemas {
		assert.NoError(t, s.Validate(doc), "%s", s.Location)
	}
}

// TestSARIFSchema validates the SARIF of the golden runs, and of the sample
// at paths with a space, "#" and "%", absolute and relative.
func TestSARIFSchema(t *testing.T) {
	ss := schemas(t)
	for _, name := range []string{"sarif", "bad-config-sarif", "unreadable-sarif", "control-characters-sarif"} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata/golden", name+".stdout"))
			require.NoError(t, err)
			validate(t, ss, b)
		})
	}
	dir := filepath.Join(t.TempDir(), "sp ace#1")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "scalers.d"), 0o755))
	copyFile(t, "sample/scalers.yaml", filepath.Join(dir, "scal%ers.yaml"))
	copyFile(t, "sample/scalers.d/10-mirror.yaml", filepath.Join(dir, "scalers.d", "10 mir#ror.yaml"))
	abs := sarifOf(t, "-config", filepath.Join(dir, "scal%ers.yaml"), "-dir", filepath.Join(dir, "scalers.d"), "-target", "0.20.0")
	validate(t, ss, abs)
	root := "file://" + filepath.ToSlash(strings.ReplaceAll(filepath.Dir(dir), " ", "%20"))
	if runtime.GOOS == "windows" {
		root = "file:///" + root[len("file://"):] // file:///C:/...
	}
	assert.Contains(t, string(abs), `"uri": "`+root+`/sp%20ace%231/scal%25ers.yaml"`)
	assert.Contains(t, string(abs), `/sp%20ace%231/scalers.d/10%20mir%23ror.yaml"`)

	t.Chdir(filepath.Dir(dir))
	rel := sarifOf(t, "-config", "sp ace#1/scal%ers.yaml", "-target", "0.20.0")
	validate(t, ss, rel)
	assert.Contains(t, string(rel), `"uri": "sp%20ace%231/scal%25ers.yaml",`)
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, b, 0o644))
}

func sarifOf(t *testing.T, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(append(args, "-format", "sarif"), nil, &stdout, &stderr), stderr.String())
	return stdout.Bytes()
}

// TestSARIFLimit: a run keeps at most the results GitHub keeps, errors
// first, and says how many it left out.
func TestSARIFLimit(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("version: 1\nscalers:\n  - name: many\n    type: container\n    maxAgents: 1\n    labelSets:\n")
	const n = maxSARIFResults + 10
	for i := range n {
		image := "kici-agent:latest"
		if i == n-1 {
			image = "kici-agent:latest@sha256:abc" // invalid: an error, and the last
		}
		fmt.Fprintf(&b, "      - labels: [l%d]\n        image: %s\n", i, image)
	}
	file := filepath.Join(t.TempDir(), "scalers.yaml")
	require.NoError(t, os.WriteFile(file, []byte(b.String()), 0o644))
	var stdout, stderr bytes.Buffer
	require.Equal(t, 1, run([]string{"-config", file, "-format", "sarif"}, nil, &stdout, &stderr))
	var log sarif.Log
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &log))
	results := log.Runs[0].Results
	require.Len(t, results, maxSARIFResults)
	assert.Equal(t, "moving-tag", results[0].RuleID)
	assert.Equal(t, "invalid-image", results[len(results)-1].RuleID, "the error kept, in config order")
	notes := log.Runs[0].Invocations[0].Notifications
	require.Len(t, notes, 1)
	assert.Equal(t, "warning", notes[0].Level)
	assert.Equal(t, "10 of 5010 results left out: GitHub code scanning keeps 5000 results of a run; the errors are kept first", notes[0].Message.Text)
	assert.Contains(t, stderr.String(), "; 10 results left out of the SARIF log (GitHub code scanning keeps 5000 a run)")

	// Written result by result, the log is what one encoding of it writes.
	var whole bytes.Buffer
	enc := json.NewEncoder(&whole)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(log))
	assert.Equal(t, whole.String(), stdout.String())
}
