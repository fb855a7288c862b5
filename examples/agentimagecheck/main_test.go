package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/scalerconfig"
)

var update = flag.Bool("update", false, "rewrite the testdata/want.* files")

// The README's command, run from the module's root as a newcomer runs it.
var readme = []string{
	"-config", "examples/agentimagecheck/testdata/scalers.yaml",
	"-dir", "examples/agentimagecheck/testdata/scalers.d",
	"-target", "0.20.0",
}

func TestRun(t *testing.T) {
	t.Chdir("../..")
	const td = "examples/agentimagecheck/testdata/"
	tests := []struct {
		name       string
		args       []string
		wantStatus int
		wantFile   string // the golden stdout, under testdata
		wantStdout string // the exact stdout, when there is no golden file
		wantStderr string // what the one stderr line holds
	}{
		{name: "readme", args: readme, wantFile: "want.txt"},
		{name: "json", args: append(readme, "-format", "json"), wantFile: "want.json"},
		{name: "sarif", args: append(readme, "-format", "sarif"), wantFile: "want.sarif"},
		{name: "strict with findings", args: append(readme, "-strict"), wantStatus: 1, wantFile: "want.txt"},
		{name: "clean", args: []string{"-config", td + "clean.yaml", "-target", "v0.20.0", "-strict"}},
		{name: "clean json is an empty list", args: []string{"-config", td + "clean.yaml", "-format", "json"}, wantStdout: "[]\n"},
		{
			name:       "no target: only what holds for any release",
			args:       []string{"-config", td + "scalers.yaml"},
			wantStdout: `Warning: container scaler "docker-linux", label set [linux, x64]: image quay.io/kici-dev/kici-agent:latest with imagePullPolicy IfNotPresent keeps the agent image this host already pulled, so the upgrade does not change the container agents. In examples/agentimagecheck/testdata/scalers.yaml, set image to the kici-agent release you upgrade to (quay.io/kici-dev/kici-agent:<version>) on this label set, or set "imagePullPolicy: Always" to pull latest on every spawn.` + "\n",
		},
		{name: "missing -config", args: []string{"-target", "0.20.0"}, wantStatus: 2, wantStderr: "-config is required"},
		{name: "unknown flag", args: append(readme, "-x"), wantStatus: 2, wantStderr: "flag provided but not defined: -x"},
		{name: "stray argument", args: append(readme, "extra"), wantStatus: 2, wantStderr: `unexpected argument "extra"`},
		{name: "bad format", args: append(readme, "-format", "xml"), wantStatus: 2, wantStderr: `-format "xml" is not text, json or sarif`},
		{name: "bad target", args: []string{"-config", td + "clean.yaml", "-target", "0.20"}, wantStatus: 2, wantStderr: `-target "0.20" is not a release version`},
		// The target is read as the orchestrator reads it (agentversion.ParseTarget):
		// JavaScript's trim() removes U+FEFF and keeps U+0085, Go's TrimSpace the reverse.
		{name: "target trimmed of U+FEFF", args: append([]string{"-strict", "-target", "\ufeff0.20.0"}, readme[:4]...), wantStatus: 1, wantFile: "want.txt"},
		{name: "target with U+0085 refused", args: append([]string{"-strict", "-target", "\u00850.20.0"}, readme[:4]...), wantStatus: 2, wantStderr: `-target "\u00850.20.0" is not a release version`},
		{name: "a v alone is no target", args: append([]string{"-target", "v"}, readme[:4]...), wantStatus: 2, wantStderr: `-target "v" is not a release version`},
		{name: "unreadable config", args: []string{"-config", td + "missing.yaml"}, wantStatus: 2, wantStderr: "missing.yaml: no such file or directory"},
		{name: "unreadable dir", args: []string{"-config", td + "clean.yaml", "-dir", td + "missing.d"}, wantStatus: 2, wantStderr: "missing.d: no such file or directory"},
		{name: "bad yaml names file and line", args: []string{"-config", td + "bad.yaml"}, wantStatus: 2, wantStderr: td + "bad.yaml: yaml: line 5: cannot unmarshal !!str `linux` into []string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(tt.args, &stdout, &stderr)
			assert.Equal(t, tt.wantStatus, status, "stderr: %s", stderr.String())
			switch {
			case tt.wantFile != "" && *update && tt.wantStatus == 0:
				require.NoError(t, os.WriteFile(filepath.Join(td, tt.wantFile), stdout.Bytes(), 0o644))
			case tt.wantFile != "":
				want, err := os.ReadFile(filepath.Join(td, tt.wantFile))
				require.NoError(t, err)
				assert.Equal(t, string(want), stdout.String())
			default:
				assert.Equal(t, tt.wantStdout, stdout.String())
			}
			if tt.wantStderr == "" {
				assert.Empty(t, stderr.String())
				return
			}
			assert.Contains(t, stderr.String(), tt.wantStderr)
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line: %q", stderr.String())
			assert.True(t, strings.HasPrefix(stderr.String(), "agentimagecheck: "))
		})
	}
}

func TestHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 0, run([]string{"-h"}, &stdout, &stderr))
	assert.Contains(t, stdout.String(), usage)
	assert.Contains(t, stdout.String(), "-strict")
	assert.Empty(t, stderr.String())
}

// TestSARIF checks the log's shape a SARIF consumer relies on: every result
// names a rule that exists, at its index, and points at the line of the
// label set's image in the file that declares it.
func TestSARIF(t *testing.T) {
	t.Chdir("../..")
	var stdout bytes.Buffer
	require.Equal(t, 0, run(append(readme, "-format", "sarif"), &stdout, &bytes.Buffer{}))
	var log sarif
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &log))
	assert.Equal(t, "2.1.0", log.Version)
	require.Len(t, log.Runs, 1)
	run := log.Runs[0]
	ids := map[string]bool{}
	for _, r := range run.Tool.Driver.Rules {
		assert.False(t, ids[r.ID], "rule %s listed twice", r.ID)
		ids[r.ID] = true
	}
	type at struct {
		rule, file string
		line       int
	}
	var got []at
	for _, r := range run.Results {
		require.Less(t, r.RuleIndex, len(run.Tool.Driver.Rules))
		assert.Equal(t, r.RuleID, run.Tool.Driver.Rules[r.RuleIndex].ID)
		loc := r.Locations[0].PhysicalLocation
		require.NotNil(t, loc.Region)
		got = append(got, at{r.RuleID, loc.ArtifactLocation.URI, loc.Region.StartLine})
	}
	const td = "examples/agentimagecheck/testdata/"
	assert.Equal(t, []at{
		{"moving-tag", td + "scalers.yaml", 10},
		{"older-pin", td + "scalers.yaml", 17},
		{"floating-tag", td + "scalers.d/10-mirror.yaml", 8},
	}, got)
}

// TestLocate checks that findings find their label set when scalers share a
// name and label sets repeat, and when one label set has two findings.
func TestLocate(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "scalers.yaml")
	require.NoError(t, os.WriteFile(config, []byte(`scalers:
  - name: a
    type: container
    labelSets:
      - labels: [x]
        image: quay.io/kici-dev/kici-agent:0.20.0
      - labels: [x]
        image: quay.io/kici-dev/kici-agent:0.19.0
  - name: a
    type: container
    labelSets:
      - labels: [x]
        image: quay.io/kici-dev/kici-agent:0.19.0
        imagePullPolicy: Never
      - labels: [x]
        image: quay.io/kici-dev/kici-agent:0.19.0
`), 0o644))
	cfg, err := loadConfig(config, "")
	require.NoError(t, err)
	var stdout bytes.Buffer
	require.Equal(t, 0, run([]string{"-config", config, "-target", "0.20.0", "-format", "sarif"}, &stdout, &bytes.Buffer{}))
	var log sarif
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &log))
	var lines []int
	for _, r := range log.Runs[0].Results {
		lines = append(lines, r.Locations[0].PhysicalLocation.Region.StartLine)
	}
	assert.Equal(t, []int{8, 13, 13, 16}, lines, "older-pin; older-pin and never-pull; older-pin")
	type declared struct{ scaler, labelSet, image int }
	var got []declared
	for _, s := range cfg.Scalers {
		for _, ls := range s.LabelSets {
			assert.Equal(t, config, ls.ImagePos.File)
			got = append(got, declared{s.Pos.Line, ls.Pos.Line, ls.ImagePos.Line})
		}
	}
	assert.Equal(t, []declared{{2, 5, 6}, {2, 7, 8}, {9, 12, 13}, {9, 15, 16}}, got)
}

// TestPositions checks the byte positions the loader gives a label set and
// its image, in every style of scalar, after multi-byte characters.
func TestPositions(t *testing.T) {
	// A comment of multi-byte characters ending in CRLF comes first.
	data := []byte("# été\r\n" + `scalers:
  - name: d
    type: container
    labelSets:
      - labels: [été]
        image: "quay.io/kici-dev/kici-agent:0.19.0"
      - {labels: [été], image: 'kici''agent:1'}
      - labels: [x]
        image:   kici-agent # plain
      - labels: [x]
        image: |
          kici-agent
`)
	file := filepath.Join(t.TempDir(), "scalers.yaml")
	require.NoError(t, os.WriteFile(file, data, 0o644))
	cfg, err := loadConfig(file, "")
	require.NoError(t, err)
	require.Len(t, cfg.Scalers, 1)
	var texts []string
	for _, ls := range cfg.Scalers[0].LabelSets {
		for _, p := range []scalerconfig.Pos{ls.Pos, ls.ImagePos, ls.ImageEnd} {
			if !p.IsValid() {
				continue
			}
			lineStart := bytes.LastIndexByte(data[:p.Offset], '\n') + 1
			assert.Equal(t, p.Offset-lineStart+1, p.Column, "column of %v", p)
			assert.Equal(t, 1+bytes.Count(data[:p.Offset], []byte("\n")), p.Line, "line of %v", p)
		}
		text := ""
		if ls.ImageEnd.IsValid() {
			text = string(data[ls.ImagePos.Offset:ls.ImageEnd.Offset])
		}
		texts = append(texts, string(data[ls.Pos.Offset:ls.Pos.Offset+7])+" "+text)
	}
	assert.Equal(t, []string{
		`labels: "quay.io/kici-dev/kici-agent:0.19.0"`,
		`{labels 'kici''agent:1'`, // a flow mapping starts at its brace
		`labels: kici-agent`,
		`labels: `, // a block scalar has no end here
	}, texts)
}
