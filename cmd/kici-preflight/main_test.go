package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/kicikit/kicikit/cmd/kici-preflight/internal/sarif"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

const td = "cmd/kici-preflight/testdata/"

// sample is the sample config a newcomer runs the program on first.
const sample = "cmd/kici-preflight/sample/"

// The README's command, run from the module's root as a newcomer runs it.
var readme = []string{"-config", sample + "scalers.yaml", "-dir", sample + "scalers.d", "-target", "0.20.0"}

func with(args ...string) []string { return append(append([]string(nil), readme...), args...) }

// TestRun runs the program on the configs in testdata; what it prints on
// standard output and standard error is in testdata/golden/NAME.stdout and
// NAME.stderr (go test ./cmd/kici-preflight ./scalerconfig -update
// rewrites them, and the JSON Schema files with them), with the module root's
// absolute path written <root>.
func TestRun(t *testing.T) {
	t.Chdir("../..")
	root, err := os.Getwd()
	require.NoError(t, err)
	abs := func(p string) string { return filepath.Join(root, p) }
	t.Setenv("GITHUB_WORKSPACE", "") // as outside a workflow, unless a case sets it
	tests := []struct {
		name      string
		args      []string
		stdin     string
		status    int
		osText    bool   // the output holds an error text or a path join of the operating system's
		workspace string // GITHUB_WORKSPACE
	}{
		{name: "readme", args: readme},
		{name: "json", args: with("-format", "json")},
		{name: "sarif", args: with("-format", "sarif")},
		{name: "github", args: with("-format", "github")},
		{name: "github-absolute", args: []string{"-config", abs(sample + "scalers.yaml"), "-dir", abs(sample + "scalers.d"), "-target", "0.20.0", "-format", "github"}, osText: true},
		{name: "github-workspace", args: with("-format", "github"), workspace: abs("cmd/kici-preflight")},
		{name: "github-outside-workspace", args: with("-format", "github"), workspace: abs(td), osText: true},
		{name: "diff", args: with("-diff")},
		{name: "strict", args: with("-strict"), status: 1},
		{name: "threshold-warning", args: with("-failure-threshold", "warning"), status: 1},
		{name: "quiet", args: with("-quiet")},
		{name: "ignore-flag", args: with("-ignore", "moving-tag", "-ignore", "floating-tag")},
		{name: "no-target", args: []string{"-config", sample + "scalers.yaml"}},
		{name: "clean-strict", args: []string{"-config", td + "clean.yaml", "-target", "v0.20.0", "-strict"}},
		{name: "clean-json", args: []string{"-config", td + "clean.yaml", "-format", "json"}},
		{name: "env-file", args: []string{"-env-file", sample + "orchestrator.env", "-workdir", sample, "-target", "0.20.0"}, osText: true},
		{name: "env-file-no-config", args: []string{"-env-file", td + "noconfig.env", "-format", "json"}},
		{name: "stdin", args: []string{"-config", "-", "-dir", sample + "scalers.d", "-target", "0.20.0"}, stdin: mustRead(t, sample+"scalers.yaml")},
		{name: "stdin-diff", args: []string{"-config", "-", "-target", "0.20.0", "-diff"}, stdin: mustRead(t, sample+"scalers.yaml")},
		{name: "ignore-comments", args: []string{"-config", td + "ignore.yaml", "-target", "0.20.0"}},
		{name: "control-characters", args: []string{"-config", td + "control.yaml"}},
		{name: "control-characters-github", args: []string{"-config", td + "control.yaml", "-format", "github"}},
		{name: "control-characters-json", args: []string{"-config", td + "control.yaml", "-format", "json"}},
		{name: "control-characters-sarif", args: []string{"-config", td + "control.yaml", "-format", "sarif", "-target", "0.20.0"}},
		{name: "control-characters-diff", args: []string{"-config", td + "raw-controls.yaml", "-target", "0.20.0", "-diff"}},
		{name: "every-code", args: []string{"-config", td + "every-code.yaml", "-target", "0.20.0"}, status: 1},
		{name: "every-code-diff", args: []string{"-config", td + "every-code.yaml", "-target", "0.20.0", "-diff"}, status: 1},
		{name: "bad-config", args: []string{"-config", td + "bad.yaml"}, status: 1},
		{name: "bad-config-sarif", args: []string{"-config", td + "bad.yaml", "-format", "sarif"}, status: 1},
		{name: "bad-config-json", args: []string{"-config", td + "bad.yaml", "-format", "json"}, status: 1},
		{name: "bad-config-threshold-none", args: []string{"-config", td + "bad.yaml", "-failure-threshold", "none"}},
		{name: "bad-yaml", args: []string{"-config", td + "bad-yaml.yaml"}, status: 1},
		{name: "typos", args: []string{"-config", td + "typos.yaml"}, status: 1},
		{name: "spawn", args: []string{"-config", td + "spawn.yaml", "-target", "0.20.0"}, status: 1},
		{name: "spawn-json", args: []string{"-config", td + "spawn.yaml", "-format", "json"}, status: 1},
		{name: "spawn-sarif", args: []string{"-config", td + "spawn.yaml", "-format", "sarif"}, status: 1},
		{name: "spawn-github", args: []string{"-config", td + "spawn.yaml", "-format", "github"}, status: 1},
		{name: "spawn-ignore", args: []string{"-config", td + "spawn.yaml", "-ignore", "invalid-memory", "-ignore", "invalid-limit", "-ignore", "moving-tag"}},
		{name: "typos-json", args: []string{"-config", td + "typos.yaml", "-format", "json"}, status: 1},
		{name: "unreadable", args: []string{"-config", td + "missing.yaml"}, status: 2, osText: true},
		{name: "unreadable-sarif", args: []string{"-config", td + "missing.yaml", "-format", "sarif"}, status: 2, osText: true},
		{name: "unreadable-json", args: []string{"-config", td + "missing.yaml", "-format", "json"}, status: 2, osText: true},
		{name: "unreadable-dir", args: []string{"-config", td + "clean.yaml", "-dir", td + "missing.d"}, status: 2, osText: true},
		{name: "unreadable-env-file", args: []string{"-env-file", td + "missing.env"}, status: 2, osText: true},
		{name: "version", args: []string{"-version"}},
		// A config an older release loads, read as each target reads it.
		{name: "flat", args: []string{"-config", td + "flat.yaml", "-target", "0.20.0"}, status: 1},
		{name: "flat-no-target", args: []string{"-config", td + "flat.yaml"}, status: 1},
		{name: "flat-0.15.0", args: []string{"-config", td + "flat.yaml", "-target", "0.15.0"}},
		{name: "flat-diff", args: []string{"-config", td + "flat.yaml", "-target", "0.20.0", "-diff"}, status: 1},
		{name: "flat-sarif", args: []string{"-config", td + "flat.yaml", "-target", "0.20.0", "-format", "sarif"}, status: 1},
		{name: "flat-json", args: []string{"-config", td + "flat.yaml", "-target", "0.20.0", "-format", "json"}, status: 1},
		{name: "mixed", args: []string{"-config", td + "mixed.yaml", "-target", "0.20.0"}, status: 1},
		{name: "mixed-0.15.0", args: []string{"-config", td + "mixed.yaml", "-target", "0.15.0"}, status: 1},
		{name: "platforms", args: []string{"-config", td + "platforms.yaml", "-target", "0.20.0"}, status: 1},
		{name: "platforms-diff", args: []string{"-config", td + "platforms.yaml", "-target", "0.20.0", "-diff"}, status: 1},
		{name: "platforms-0.15.0", args: []string{"-config", td + "platforms.yaml", "-target", "0.15.0"}},
		{name: "fix-pin-diff", args: []string{"-config", td + "fix-pin.yaml", "-target", "0.20.0", "-diff"}, status: 1},
		{name: "aliased-diff", args: []string{"-config", td + "aliased.yaml", "-target", "0.20.0", "-diff"}, status: 1},
		{name: "aliased-below-diff", args: []string{"-config", td + "aliased-below.yaml", "-target", "0.20.0", "-diff"}, status: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.workspace != "" {
				t.Setenv("GITHUB_WORKSPACE", tt.workspace)
			}
			var stdout, stderr bytes.Buffer
			status := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			assert.Equal(t, tt.status, status, "stderr: %s", stderr.String())
			if tt.osText && runtime.GOOS == "windows" {
				return // the golden output holds Unix's error text or path join
			}
			golden(t, tt.name+".stdout", bytes.ReplaceAll(stdout.Bytes(), []byte(root), []byte("<root>")))
			golden(t, tt.name+".stderr", bytes.ReplaceAll(stderr.Bytes(), []byte(root), []byte("<root>")))
		})
	}
}

func mustRead(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name) // after t.Chdir to the module root
	require.NoError(t, err)
	return string(b)
}

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join(td, "golden", name)
	if *update {
		require.NoError(t, os.WriteFile(file, got, 0o644))
		return
	}
	want, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
}

// TestUsage: each usage error is one line on standard error, exit 2, and
// nothing on standard output.
func TestUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no config", []string{"-target", "0.20.0"}, "give -env-file (the service's env file) or -config (the scaler config)"},
		{"both", []string{"-config", "a", "-env-file", "b"}, "give -env-file or -config, not both"},
		{"-dir twice", []string{"-config", "a", "-dir", "b", "-dir", "c"}, "-dir given twice: give it once"},
		{"-config twice", []string{"-config", "a", "-config", "b"}, "-config given twice"},
		{"-workdir alone", []string{"-config", "a", "-workdir", "b"}, "-workdir goes with -env-file"},
		{"-dir with -env-file", []string{"-env-file", "a", "-dir", "b"}, "-dir goes with -config"},
		{"bad format", []string{"-config", "a", "-format", "xml"}, `-format "xml" is not text, json, sarif or github`},
		{"bad threshold", []string{"-config", "a", "-failure-threshold", "info"}, `-failure-threshold "info" is not error, warning or none`},
		{"-strict and another threshold", []string{"-config", "a", "-strict", "-failure-threshold", "none"}, "-strict is -failure-threshold warning: give one of them"},
		{"unknown flag", []string{"-config", "a", "-x"}, "flag provided but not defined: -x"},
		{"stray argument", []string{"-config", "a", "extra"}, `unexpected argument "extra"`},
		{"bad target", []string{"-config", "a", "-target", "0.20"}, `-target "0.20" is not a release version`},
		{"target with U+0085", []string{"-config", "a", "-target", "\u00850.20.0"}, `-target "\u00850.20.0" is not a release version`},
		{"a v alone", []string{"-config", "a", "-target", "v"}, `-target "v" is not a release version`},
		{"-diff without target", []string{"-config", "a", "-diff"}, "nothing to pin without -target"},
		{"-write without target", []string{"-config", "a", "-write"}, "nothing to pin without -target"},
		{"-diff and -write", []string{"-config", "a", "-diff", "-write", "-target", "0.20.0"}, "give -diff or -write, not both"},
		{"-write on standard input", []string{"-config", "-", "-write", "-target", "0.20.0"}, "-write cannot rewrite standard input"},
		{"unknown code", []string{"-config", "a", "-ignore", "latest"}, `-ignore "latest" is not a finding code (moving-tag, older-pin, never-pull, floating-tag, invalid-image, invalid-memory, invalid-limit, invalid-config)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			assert.Equal(t, 2, run(tt.args, strings.NewReader(""), &stdout, &stderr))
			assert.Empty(t, stdout.String())
			assert.Contains(t, stderr.String(), tt.want)
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line: %q", stderr.String())
			assert.True(t, strings.HasPrefix(stderr.String(), "kici-preflight: "))
			assert.True(t, strings.HasSuffix(stderr.String(), " (-h for usage)\n"))
		})
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 0, run([]string{"-h"}, strings.NewReader(""), &stdout, &stderr))
	for _, want := range append([]string{"-env-file", "-failure-threshold", "-strict", "-ignore", "-diff", "-write", "-version", "-schema",
		"kici-preflight:ignore=", "Exit status:", "  0  ", "  1  ", "  2  "}, codes...) {
		assert.Contains(t, stdout.String(), want)
	}
	assert.Empty(t, stderr.String())
}

// TestAnnotationFile: -format github names a file relative to the
// workspace (or the working folder) when it lies inside it, with slashes,
// and by its absolute path otherwise.
func TestAnnotationFile(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the paths below are Unix paths")
	}
	wd, err := os.Getwd()
	require.NoError(t, err)
	tests := []struct{ file, root, want string }{
		{"/work/repo/kici/scalers.yaml", "/work/repo", "kici/scalers.yaml"},
		{"/work/repo/kici/../kici/scalers.d/a b.yaml", "/work/repo/", "kici/scalers.d/a b.yaml"},
		{"/work/repo-other/scalers.yaml", "/work/repo", "/work/repo-other/scalers.yaml"},
		{"/etc/kici/scalers.yaml", "/work/repo", "/etc/kici/scalers.yaml"},
		{"/work/repo", "/work/repo", "/work/repo"},
		{"sample/scalers.yaml", wd, "sample/scalers.yaml"},
		{"./sample/../sample/scalers.yaml", wd, "sample/scalers.yaml"},
		{"sample/scalers.yaml", filepath.Join(wd, "sample"), "scalers.yaml"},
		{"../scalers.yaml", wd, filepath.Join(filepath.Dir(wd), "scalers.yaml")},
		{"sample/scalers.yaml", "", filepath.Join(wd, "sample/scalers.yaml")},
		{stdinName, "/work/repo", stdinName},
	}
	for _, tt := range tests {
		t.Run(tt.file+" in "+tt.root, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, annotationFile(tt.file, tt.root))
		})
	}
}

// TestSARIFPlaces checks what a SARIF consumer relies on: every result
// names a rule that exists, at its index, and points at the image value in
// the file that declares it, columns in UTF-16 code units, with its pin.
func TestSARIFPlaces(t *testing.T) {
	t.Chdir("../..")
	var stdout bytes.Buffer
	require.Equal(t, 0, run(with("-format", "sarif"), nil, &stdout, &bytes.Buffer{}))
	var log sarif.Log
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &log))
	run := log.Runs[0]
	type at struct {
		rule, uri           string
		line, col, end      int
		inserted            string
		deletedCol, delEnds int
	}
	var got []at
	for _, r := range run.Results {
		require.Less(t, r.RuleIndex, len(run.Tool.Driver.Rules))
		assert.Equal(t, r.RuleID, run.Tool.Driver.Rules[r.RuleIndex].ID)
		loc := r.Locations[0].PhysicalLocation
		assert.Equal(t, sarif.SrcRoot, loc.ArtifactLocation.URIBaseID)
		require.Len(t, r.Fixes, 1)
		rep := r.Fixes[0].ArtifactChanges[0].Replacements[0]
		got = append(got, at{r.RuleID, loc.ArtifactLocation.URI, loc.Region.StartLine, loc.Region.StartColumn, loc.Region.EndColumn,
			rep.InsertedContent.Text, rep.DeletedRegion.StartColumn, rep.DeletedRegion.EndColumn})
	}
	assert.Equal(t, []at{
		{"moving-tag", sample + "scalers.yaml", 11, 16, 50, "quay.io/kici-dev/kici-agent:0.20.0", 16, 50},
		{"older-pin", sample + "scalers.yaml", 18, 16, 50, "quay.io/kici-dev/kici-agent:0.20.0", 16, 50},
		{"floating-tag", sample + "scalers.d/10-mirror.yaml", 9, 16, 61, "registry.internal:5000/kici/kici-agent:0.20.0", 16, 61},
	}, got)
}

func TestEscape(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want, keepTab string }{
		{"plain é", "plain é", "plain é"},
		{"a\nb\r\tc", `a\x0ab\x0d\x09c`, "a\\x0ab\\x0d\tc"},
		{"\x1b[31m\u0085\u2028", `\x1b[31m\x85\u2028`, `\x1b[31m\x85\u2028`},
		{"\u009b2J \u0080 \u009f \u00a0", `\x9b2J \x80 \x9f ` + "\u00a0", `\x9b2J \x80 \x9f ` + "\u00a0"},
		{"bad \xff byte, \x9b alone", `bad \xff byte, \x9b alone`, `bad \xff byte, \x9b alone`},
		{"a real \ufffd, told from a bad byte", `a real \ufffd, told from a bad byte`, `a real \ufffd, told from a bad byte`},
		{"\t\t", `\x09\x09`, "\t\t"},
	}
	for _, tt := range tests {
		t.Run(strconv.Quote(tt.in), func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, escape(tt.in))
			assert.Equal(t, tt.keepTab, escapeControls(tt.in, true), "tabs kept")
		})
	}
}

// TestEscapeC1: the JSON and SARIF outputs write U+0080 to U+009F as
// \u00XX, as encoding/json writes the C0 controls, and change nothing else.
func TestEscapeC1(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"C1 controls", "\u0080\u0085\u009b2J\u009f", `"\u0080\u0085\u009b2J\u009f"`},
		{"C0 controls, as encoding/json writes them", "\x1b[31m\n", `"\u001b[31m\n"`},
		{"what is not a C1 control stays", "\u00a0é\u00c2Ā€" + "<&>", "\"\u00a0é\u00c2Ā€<&>\""},
		{"in keys and nested values", map[string][]string{"k\u0085": {"v\u0090"}}, `{"k\u0085":["v\u0090"]}`},
		{"nothing to escape", []int{1, 2}, `[1,2]`},
	}
	e := newEncoder("", "")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := e.encode(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			var back any
			require.NoError(t, json.Unmarshal(got, &back), "still JSON")
		})
	}
}

// TestDiffLine: -diff writes a line with its control characters escaped
// but tabs, and its line end as it is.
func TestDiffLine(t *testing.T) {
	t.Parallel()
	tests := []struct{ line, want string }{
		{"  image: a:latest\n", "+  image: a:latest\n"},
		{"\tkey: v # \x1b[2J\n", "+\tkey: v # \\x1b[2J\n"},
		{"# \u009b2J \u2028 \r\n", "+# \\x9b2J \\u2028 \r\n"},
		{"a\rb\r\n", "+a\\x0db\r\n"},
		{"last, no line end", "+last, no line end\n\\ No newline at end of file\n"},
		{"last with a CR\r", "+last with a CR\\x0d\n\\ No newline at end of file\n"},
	}
	for _, tt := range tests {
		t.Run(strconv.Quote(tt.line), func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			w := bufio.NewWriter(&b)
			writeLine(w, '+', []byte(tt.line))
			require.NoError(t, w.Flush())
			assert.Equal(t, tt.want, b.String())
		})
	}
}

// TestProblemsListed: a config of more problems than maxListed (a scalers
// list of scalars, a problem each) lists the first maxListed, in order,
// and counts the others among the errors, in the summary line and in the
// JSON output's summary; ignored, they count as ignored.
func TestProblemsListed(t *testing.T) {
	t.Parallel()
	const extra = 3
	n := maxListed + extra
	config := filepath.Join(t.TempDir(), "scalers.yaml")
	require.NoError(t, os.WriteFile(config, []byte("version: 1\nscalers: ["+strings.Repeat("a,", n-1)+"a]\n"), 0o644))

	var stdout, stderr bytes.Buffer
	require.Equal(t, exitFailure, run([]string{"-config", config}, nil, &stdout, &stderr))
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	require.Len(t, lines, maxListed)
	assert.Equal(t, config+":2:11: error: scalers[0]: Invalid input: expected object, received string [invalid-config]", lines[0])
	assert.Equal(t, fmt.Sprintf("%s:2:%d: error: scalers[%d]: Invalid input: expected object, received string [invalid-config]", config, 11+2*(maxListed-1), maxListed-1), lines[maxListed-1])
	assert.Equal(t, fmt.Sprintf("kici-preflight: %d errors, 0 warnings, 0 ignored; %d problems not listed (the first %d are); no -target: only what holds for any release\n", n, extra, maxListed), stderr.String())

	stdout.Reset()
	stderr.Reset()
	require.Equal(t, exitFailure, run([]string{"-config", config, "-format", "json"}, nil, &stdout, &stderr))
	var out struct {
		Findings []json.RawMessage
		Summary  struct{ Errors, Unlisted int }
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &out))
	assert.Len(t, out.Findings, maxListed)
	assert.Equal(t, n, out.Summary.Errors)
	assert.Equal(t, extra, out.Summary.Unlisted)

	stdout.Reset()
	stderr.Reset()
	require.Equal(t, exitOK, run([]string{"-config", config, "-ignore", "invalid-config"}, nil, &stdout, &stderr))
	assert.Empty(t, stdout.String())
	assert.Equal(t, fmt.Sprintf("kici-preflight: 0 errors, 0 warnings, %d ignored; no -target: only what holds for any release\n", n), stderr.String())
}
