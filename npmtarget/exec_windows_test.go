//go:build windows

package npmtarget

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeNodeEnv names the file the test binary, started as node.exe, writes
// its arguments to instead of running the tests (TestWindowsDirectRoute).
const fakeNodeEnv = "NPMTARGET_FAKE_NODE_RECORD"

func TestMain(m *testing.M) {
	if record := os.Getenv(fakeNodeEnv); record != "" {
		b, err := json.Marshal(os.Args[1:])
		if err == nil {
			err = os.WriteFile(record, b, 0o644)
		}
		if err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// nodeFolder makes a folder whose name holds spaces and parentheses, as
// C:\Program Files (x86)\nodejs does, and returns it with the global prefix
// and the entry script of a service whose node is in it.
func nodeFolder(t *testing.T) (dir, prefix, entry string) {
	t.Helper()
	root := t.TempDir()
	dir = filepath.Join(root, "Program Files (x86)", "node js")
	prefix = filepath.Join(root, "npm prefix")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir, prefix, prefix + `\node_modules\@kici-dev\orchestrator\dist\server.js`
}

// npmCmdRecorder is a batch file that writes %*, each of %1 to %9, and the
// variables npm.cmd reads to %NPMTARGET_RECORD%, one per line. Redirections
// come first, so that an argument ending in a digit is never read as a
// handle number.
const npmCmdRecorder = "@echo off\r\n" +
	">>\"%NPMTARGET_RECORD%\" echo(ALL=%*\r\n" +
	">>\"%NPMTARGET_RECORD%\" echo(1=%1\r\n" +
	">>\"%NPMTARGET_RECORD%\" echo(2=%2\r\n" +
	">>\"%NPMTARGET_RECORD%\" echo(3=%3\r\n" +
	">>\"%NPMTARGET_RECORD%\" echo(4=%4\r\n" +
	">>\"%NPMTARGET_RECORD%\" echo(5=%5\r\n" +
	">>\"%NPMTARGET_RECORD%\" echo(6=%6\r\n" +
	">>\"%NPMTARGET_RECORD%\" echo(7=%7\r\n" +
	">>\"%NPMTARGET_RECORD%\" echo(8=%8\r\n" +
	">>\"%NPMTARGET_RECORD%\" echo(9=%9\r\n" +
	">>\"%NPMTARGET_RECORD%\" echo(PREFIX=%npm_config_prefix%\r\n" +
	">>\"%NPMTARGET_RECORD%\" echo(NODEFAULT=%NoDefaultCurrentDirectoryInExePath%\r\n" +
	">>\"%NPMTARGET_RECORD%\" echo(INHERITED=%NPM_PREFIX_NPM_CLI_JS%\r\n"

// TestWindowsNpmCmdRoute really starts the npm.cmd route: cmd.exe runs a
// batch file named npm.cmd in a folder whose name holds spaces and
// parentheses, with every argument the cmd.exe tables accept, and the batch
// file must receive exactly those; every argument they refuse is refused
// before anything starts, and no command an injection would run has run.
func TestWindowsNpmCmdRoute(t *testing.T) {
	dir, prefix, entry := nodeFolder(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "npm.cmd"), []byte(npmCmdRecorder), 0o644))
	spec := LaunchSpec{ExecPath: filepath.Join(dir, "node.exe"), Args: []string{entry}}
	r := Resolve(spec, "orchestrator", Options{Windows: true, Exists: func(string) bool { return false }})
	require.IsType(t, Resolved{}, r)
	target := r.(Resolved).Target
	require.True(t, target.PrefixViaEnv())

	canary := filepath.Join(t.TempDir(), "canary")
	record := filepath.Join(t.TempDir(), "record.txt")
	for _, bad := range batBadBut {
		_, err := target.Command("install", bad)
		require.Error(t, err, "%q", bad)
		_, err = target.Command("install", bad+"&echo x>"+canary)
		require.Error(t, err, "%q", bad)
	}

	for n := 0; n <= len(acceptedArgs); n++ {
		args := acceptedArgs[:n]
		t.Run(strconv.Itoa(n)+" arguments", func(t *testing.T) {
			require.NoError(t, os.WriteFile(record, nil, 0o644))
			c, err := target.Command(args...)
			require.NoError(t, err)
			cmd := c.ExecCmd(append(os.Environ(), "NPMTARGET_RECORD="+record, "NPM_PREFIX_NPM_CLI_JS=C:\\evil"))
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s: %s", c.CmdLine, out)
			got, err := os.ReadFile(record)
			require.NoError(t, err)
			want := []string{"ALL=" + strings.Join(args, " ")}
			for i := 1; i <= 9; i++ {
				arg := ""
				if i <= len(args) {
					arg = args[i-1]
				}
				want = append(want, strconv.Itoa(i)+"="+arg)
			}
			// An undefined variable expands to nothing in a batch file.
			want = append(want, "PREFIX="+prefix, "NODEFAULT=1", "INHERITED=")
			assert.Equal(t, want, strings.Split(strings.TrimRight(string(got), "\r\n"), "\r\n"))
		})
	}
	_, err := os.Stat(canary)
	assert.True(t, os.IsNotExist(err), "an injected command ran: %v", err)
}

// TestWindowsDirectRoute really starts the direct route: the service's
// node.exe (this test binary, copied, which writes its arguments down) runs
// npm-cli.js with every argument, the ones cmd.exe could not take included,
// and must receive exactly them, then --prefix.
func TestWindowsDirectRoute(t *testing.T) {
	dir, prefix, entry := nodeFolder(t)
	self, err := os.Executable()
	require.NoError(t, err)
	copyFile(t, self, filepath.Join(dir, "node.exe"))
	spec := LaunchSpec{ExecPath: filepath.Join(dir, "node.exe"), Args: []string{entry}}
	r := Resolve(spec, "orchestrator", Options{Windows: true, Exists: func(string) bool { return true }})
	require.IsType(t, Resolved{}, r)
	target := r.(Resolved).Target
	require.False(t, target.PrefixViaEnv())

	args := slices.Clone(acceptedArgs)
	for _, a := range batBadBut {
		// A Windows command line is UTF-16 and ends at NUL.
		if utf8.ValidString(a) && !strings.ContainsRune(a, 0) {
			args = append(args, a)
		}
	}
	c, err := target.Command(args...)
	require.NoError(t, err)
	record := filepath.Join(t.TempDir(), "args.json")
	out, err := c.ExecCmd(append(os.Environ(), fakeNodeEnv+"="+record)).CombinedOutput()
	require.NoError(t, err, "%s", out)
	b, err := os.ReadFile(record)
	require.NoError(t, err)
	var got []string
	require.NoError(t, json.Unmarshal(b, &got))
	want := append(append(slices.Clone(target.Invocation.PreArgs), args...), "--prefix="+prefix)
	assert.Equal(t, want, got)
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	require.NoError(t, err)
	defer src.Close()
	dst, err := os.Create(to)
	require.NoError(t, err)
	_, err = io.Copy(dst, src)
	require.NoError(t, err)
	require.NoError(t, dst.Close())
}
