package enginetest_test

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kicikit/kicikit/internal/enginetest"
)

func TestMain(m *testing.M) { os.Exit(enginetest.Main(m)) }

// TestMainSaysWhy runs testdata/skipping, a package of engine tests, as
// the README runs the tests: go test without -v shows no output of a
// passing package, but Main's line is there, before its "ok".
func TestMainSaysWhy(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Main reaches go test's output through /proc, on Linux only")
	}
	t.Parallel()
	const (
		pkg = "github.com/kicikit/kicikit/internal/enginetest/testdata/skipping"
		how = "; start one with `bash .ci/engine start DIR` and run the tests with `bash .ci/engine exec DIR go test ...` " +
			"(KICIKIT_REQUIRE_ENGINE=1 makes this a failure)\n"
	)
	tests := []struct {
		name string
		env  []string // beside an environment without an Engine
		args []string
		want string // a regular expression of the whole output
	}{
		{"no DOCKER_HOST", nil, nil,
			`^skipping: 3 engine tests skipped: no Docker Engine: DOCKER_HOST is not set` + regexp.QuoteMeta(how) + `ok  \t` + pkg + `\t[0-9.]+s\n$`},
		{"no Engine at DOCKER_HOST", []string{"DOCKER_HOST=unix:///nonexistent.sock"}, nil,
			`^skipping: 3 engine tests skipped: no Docker Engine answers at DOCKER_HOST=unix:///nonexistent.sock: [^\n]*` + regexp.QuoteMeta(how) + `ok  \t` + pkg + `\t[0-9.]+s\n$`},
		{"-v", nil, []string{"-v"},
			`(?s)^=== RUN   TestOne\n.*\nPASS\nskipping: 3 engine tests skipped: no Docker Engine: DOCKER_HOST is not set` + regexp.QuoteMeta(how) + `ok  \t` + pkg + `\t[0-9.]+s\n$`},
		{"required", []string{enginetest.RequireEnv + "=1"}, nil,
			`(?s)^--- FAIL: TestOne .*\nFAIL\t` + pkg + `\t[0-9.]+s\nFAIL\n$`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"test", "-count=1"}, tt.args...)
			cmd := exec.Command("go", append(args, "./testdata/skipping")...)
			cmd.Env = append(withoutEngine(os.Environ()), tt.env...)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			_ = cmd.Run()
			assert.Regexp(t, tt.want, out.String())
			assert.LessOrEqual(t, strings.Count(out.String(), "engine tests skipped"), 1, "one line")
		})
	}
}

// withoutEngine is environ without what names an Engine, or requires one.
func withoutEngine(environ []string) []string {
	var out []string
	for _, e := range environ {
		name, _, _ := strings.Cut(e, "=")
		if name != "DOCKER_HOST" && name != "KICIKIT_NETNS" && name != enginetest.RequireEnv {
			out = append(out, e)
		}
	}
	return out
}
