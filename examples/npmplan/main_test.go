package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the expected output files in testdata from what the program prints")

// TestSamples runs the program on every testdata/NAME.args (one argument per
// line) and checks what it prints against NAME.stdout (exit 0), NAME.refused
// (exit 1, on stdout) or NAME.stderr (exit 2, one line). Exactly one of the
// three must exist; with -update the test rewrites the one there is.
func TestSamples(t *testing.T) {
	t.Parallel()
	argFiles, err := filepath.Glob(filepath.Join("testdata", "*.args"))
	require.NoError(t, err)
	require.NotEmpty(t, argFiles)
	codes := map[string]int{".stdout": 0, ".refused": 1, ".stderr": 2}
	seen := map[int]bool{}
	for _, argFile := range argFiles {
		name := strings.TrimSuffix(argFile, ".args")
		t.Run(filepath.Base(name), func(t *testing.T) {
			raw, err := os.ReadFile(argFile)
			require.NoError(t, err)
			var args []string
			if s := strings.TrimSuffix(string(raw), "\n"); s != "" {
				args = strings.Split(s, "\n")
			}
			var ext string
			for e := range codes {
				if _, err := os.Stat(name + e); err == nil {
					require.Empty(t, ext, "%s has both %s and %s", name, ext, e)
					ext = e
				}
			}
			require.NotEmpty(t, ext, "want one of %s.stdout, %s.refused, %s.stderr", name, name, name)

			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			got, quiet := stdout.String(), stderr.String()
			if ext == ".stderr" {
				got, quiet = quiet, got
				assert.Equal(t, 1, strings.Count(got, "\n"), "one line on stderr")
			}
			if *update {
				require.NoError(t, os.WriteFile(name+ext, []byte(got), 0o644))
			}
			want, err := os.ReadFile(name + ext)
			require.NoError(t, err)
			assert.Equal(t, codes[ext], code)
			assert.Equal(t, string(want), got)
			assert.Empty(t, quiet)
			seen[code] = true
		})
	}
	assert.Equal(t, map[int]bool{0: true, 1: true, 2: true}, seen, "the samples cover every exit code")
}

func TestHelp(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 0, run([]string{"-h"}, &stdout, &stderr))
	assert.True(t, strings.HasPrefix(stdout.String(), usage+"\n"))
	assert.Contains(t, stdout.String(), "-npm-cli")
	assert.Empty(t, stderr.String())
}

// TestProbe checks -npm-cli probe against a node installation laid out in
// a temporary folder: the only run that looks at the disk.
func TestProbe(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	node := filepath.Join(root, "bin", "node")
	entry := filepath.Join(root, "lib", "node_modules", "@kici-dev", "orchestrator", "dist", "server.js")
	cli := filepath.Join(root, "lib", "node_modules", "npm", "bin", "npm-cli.js")
	args := []string{"-npm-cli", "probe", "-version", "0.20.0", "--", node, entry}

	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(args, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "command:    "+filepath.Join(root, "bin", "npm")+" install -g @kici-dev/orchestrator@0.20.0 --prefix="+root+"\n")

	require.NoError(t, os.MkdirAll(filepath.Dir(cli), 0o755))
	require.NoError(t, os.WriteFile(cli, nil, 0o644))
	stdout.Reset()
	require.Equal(t, 0, run(args, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "command:    "+node+" "+cli+" install -g @kici-dev/orchestrator@0.20.0 --prefix="+root+"\n")
}

// TestRunningDefault checks that a not-global refusal names this program
// when -running is not given.
func TestRunningDefault(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	require.NoError(t, err)
	var stdout, stderr bytes.Buffer
	code := run([]string{"-version", "1.0.0", "/usr/bin/node", "/srv/kici/node_modules/@kici-dev/orchestrator/dist/server.js"}, &stdout, &stderr)
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout.String(), "this kici-admin runs "+exe+". ")
}

// TestControlCharactersEscaped runs the program on launch commands whose
// paths hold a newline, a carriage return and a terminal escape sequence,
// and checks that every value prints on its line, quoted.
func TestControlCharactersEscaped(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"a newline in the node path", []string{"-version", "0.20.0", "--", "/opt/x\n/bin/node", "/usr/lib/node_modules/@kici-dev/orchestrator/dist/server.js"}, 0},
		{"an escape sequence in the prefix", []string{"-version", "0.20.0", "--", "/usr/bin/node", "/opt/\x1b[2J\r/lib/node_modules/@kici-dev/orchestrator/dist/server.js"}, 0},
		{"a newline in a not-global entry", []string{"-version", "0.20.0", "-running", "/x", "--", "/usr/bin/node", "/srv/a\nfake: line/node_modules/@kici-dev/orchestrator/dist/server.js"}, 1},
		{"a next-line character in the package", []string{"-version", "0.20.0", "--", "/usr/bin/node", "/usr/lib/node_modules/a\u0085b/node_modules/@kici-dev/orchestrator/dist/server.js"}, 1},
		{"a line separator in the version", []string{"-version", "0.20.0\u2028x", "--", "/usr/bin/node", "/usr/lib/node_modules/@kici-dev/orchestrator/dist/server.js"}, 1},
		{"a newline in a flag value", []string{"-npm-cli", "x\ny", "/usr/bin/node"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			assert.Equal(t, tt.code, run(tt.args, &stdout, &stderr))
			for _, line := range strings.SplitAfter(stdout.String()+stderr.String(), "\n") {
				if line == "" {
					continue
				}
				assert.True(t, strings.HasPrefix(line, "npmplan: ") || strings.HasPrefix(line, "  ") || strings.Contains(line, ": "), "a line of its own: %q", line)
				assert.Equal(t, -1, strings.IndexFunc(strings.TrimSuffix(line, "\n"), func(r rune) bool {
					return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
				}), "a raw control character in %q", line)
			}
		})
	}
}
