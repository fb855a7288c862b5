package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWrite pins the sample and a file full of comments, anchors and
// quoted values with CRLF line ends: only the image values change, each
// file keeps its mode, no temporary file is left, and a second check finds
// no pin to make.
func TestWrite(t *testing.T) {
	pkg, err := os.Getwd()
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "scalers.d"), 0o755))
	type file struct{ from, want string }
	files := map[string]file{
		"scalers.yaml":             {"sample/scalers.yaml", "testdata/golden/pinned-scalers.yaml"},
		"scalers.d/10-mirror.yaml": {"sample/scalers.d/10-mirror.yaml", "testdata/golden/pinned-10-mirror.yaml"},
		"fleet.yaml":               {"../../scalerconfig/testdata/edit/fleet.yaml", "../../scalerconfig/testdata/edit/fleet.want.yaml"},
	}
	for name, f := range files {
		copyFile(t, f.from, filepath.Join(dir, name))
		require.NoError(t, os.Chmod(filepath.Join(dir, name), 0o640))
	}
	t.Chdir(dir)
	sampleArgs := []string{"-config", "scalers.yaml", "-dir", "scalers.d", "-target", "0.20.0"}
	fleet := []string{"-config", "fleet.yaml", "-target", "0.20.0"}
	tests := []struct {
		name           string
		args           []string
		status         int
		stdout, stderr string
	}{
		{name: "sample", args: append(sampleArgs, "-write"), stderr: "kici-preflight: 0 errors, 0 warnings, 0 ignored; 5 agent images checked, 1 image skipped (not a KiCI agent image); target 0.20.0; 3 images pinned in 2 files\n"},
		{name: "sample again", args: append(sampleArgs, "-diff"), stderr: "kici-preflight: 0 errors, 0 warnings, 0 ignored; 5 agent images checked, 1 image skipped (not a KiCI agent image); target 0.20.0; 0 images to pin in 0 files\n"},
		{
			name: "fleet", args: append(fleet, "-write", "-quiet", "-format", "github"),
			stdout: "::warning file=fleet.yaml,line=5,col=17,endLine=5,endColumn=51,title=kici-preflight older-pin::container scaler \"aliases\", label set [shared-a]: image quay.io/kici-dev/kici-agent:0.17.0 is older than the upgrade target 0.20.0, so the container agents keep running 0.17.0. In fleet.yaml, set \"image: quay.io/kici-dev/kici-agent:0.20.0\" on this label set. [older-pin]\n" +
				"::warning file=fleet.yaml,line=5,col=17,endLine=5,endColumn=51,title=kici-preflight older-pin::container scaler \"aliases\", label set [shared-b]: image quay.io/kici-dev/kici-agent:0.17.0 is older than the upgrade target 0.20.0, so the container agents keep running 0.17.0. In fleet.yaml, set \"image: quay.io/kici-dev/kici-agent:0.20.0\" on this label set. [older-pin]\n" +
				"::warning file=fleet.yaml,line=39,col=16,endLine=41,endColumn=1,title=kici-preflight older-pin::container scaler \"aliases\", label set [block]: image quay.io/kici-dev/kici-agent:0.18.0 is older than the upgrade target 0.20.0, so the container agents keep running 0.18.0. In fleet.yaml, set \"image: quay.io/kici-dev/kici-agent:0.20.0\" on this label set. [older-pin]\n",
			stderr: "kici-preflight: fleet.yaml:5:17: not pinned: the image is reached through a YAML alias: rewriting the anchor would change its other uses\n" +
				"kici-preflight: fleet.yaml:39:16: not pinned: the image is a block scalar (| or >): edit it by hand\n",
		},
		{
			name: "fleet again", args: append(fleet, "-diff", "-quiet"),
			stderr: "kici-preflight: fleet.yaml:5:17: not pinned: the image is reached through a YAML alias: rewriting the anchor would change its other uses\n" +
				"kici-preflight: fleet.yaml:39:16: not pinned: the image is a block scalar (| or >): edit it by hand\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			assert.Equal(t, tt.status, run(tt.args, nil, &stdout, &stderr))
			assert.Equal(t, tt.stdout, stdout.String())
			assert.Equal(t, tt.stderr, stderr.String())
		})
	}

	for name, f := range files {
		got, err := os.ReadFile(name)
		require.NoError(t, err)
		old, err := os.ReadFile(filepath.Join(pkg, f.from))
		require.NoError(t, err)
		onlyImages(t, old, got)
		wantFile := filepath.Join(pkg, f.want)
		if *update && strings.HasPrefix(f.want, "testdata/golden/") {
			require.NoError(t, os.WriteFile(wantFile, got, 0o644))
		}
		want, err := os.ReadFile(wantFile)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), name)
		info, err := os.Stat(name)
		require.NoError(t, err)
		if runtime.GOOS != "windows" { // which has no mode but read-only
			assert.Equal(t, os.FileMode(0o640), info.Mode().Perm(), name)
		}
	}
	left, err := filepath.Glob(filepath.Join(dir, "*", ".*kici-preflight*"))
	require.NoError(t, err)
	more, err := filepath.Glob(filepath.Join(dir, ".*kici-preflight*"))
	require.NoError(t, err)
	assert.Empty(t, append(left, more...), "temporary files left")
}

// onlyImages checks that new differs from old in image lines only: the
// same lines, and each line that differs is an image's in both.
func onlyImages(t *testing.T, old, new []byte) {
	t.Helper()
	a, b := bytes.Split(old, []byte("\n")), bytes.Split(new, []byte("\n"))
	require.Equal(t, len(a), len(b))
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			assert.True(t, bytes.Contains(a[i], []byte("image: ")) && bytes.Contains(b[i], []byte("image: ")), "line %d: %q became %q", i+1, a[i], b[i])
		}
	}
}

// TestWriteSymlink: a config reached through a symbolic link is rewritten
// where it is, and the link stays a link.
func TestWriteSymlink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyFile(t, "sample/scalers.yaml", filepath.Join(dir, "real.yaml"))
	link := filepath.Join(dir, "scalers.yaml")
	require.NoError(t, os.Symlink("real.yaml", link))
	var stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"-config", link, "-target", "0.20.0", "-write", "-quiet"}, nil, &bytes.Buffer{}, &stderr), stderr.String())
	info, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, info.Mode().Type())
	got, err := os.ReadFile(filepath.Join(dir, "real.yaml"))
	require.NoError(t, err)
	assert.NotContains(t, string(got), "kici-agent:latest")
	assert.Contains(t, string(got), "kici-agent:0.20.0")
}

// TestWriteAllOrNone: when one file cannot be written (here the name of its
// temporary file is too long for the file system), no file is: the other's
// pins are not made either, and no temporary file is left.
func TestWriteAllOrNone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	long := strings.Repeat("d", 250) + ".yaml" // 255 bytes: the most a name may have
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "scalers.d"), 0o755))
	copyFile(t, "sample/scalers.yaml", filepath.Join(dir, "scalers.yaml"))
	copyFile(t, "sample/scalers.d/10-mirror.yaml", filepath.Join(dir, "scalers.d", long))
	var stdout, stderr bytes.Buffer
	status := run([]string{"-config", filepath.Join(dir, "scalers.yaml"), "-dir", filepath.Join(dir, "scalers.d"), "-target", "0.20.0", "-write"}, nil, &stdout, &stderr)
	assert.Equal(t, 2, status)
	assert.Empty(t, stdout.String())
	assert.Contains(t, stderr.String(), filepath.Join(dir, "scalers.d"), "the error names the file that cannot be written")
	for from, to := range map[string]string{"sample/scalers.yaml": "scalers.yaml", "sample/scalers.d/10-mirror.yaml": filepath.Join("scalers.d", long)} {
		want, err := os.ReadFile(from)
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(dir, to))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), to)
	}
	for _, sub := range []string{".", "scalers.d"} {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		require.NoError(t, err)
		for _, e := range entries {
			assert.NotContains(t, e.Name(), "kici-preflight", "a temporary file left")
		}
	}
}

// TestWriteRefusesChangedFile: a file changed between the check's read and
// -write's rename is left as the change left it, and so is every other
// file: nothing is written, and the error names the file and what differs.
func TestWriteRefusesChangedFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(t *testing.T, file string)
		what   string
	}{
		{"appended to", func(t *testing.T, file string) {
			f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = f.WriteString("# an operator's edit\n")
			require.NoError(t, err)
			require.NoError(t, f.Close())
		}, "(its size or modification time differs)"},
		{"the same size and modification time, other bytes", func(t *testing.T, file string) {
			info, err := os.Stat(file)
			require.NoError(t, err)
			b, err := os.ReadFile(file)
			require.NoError(t, err)
			b = bytes.Replace(b, []byte("# A KiCI"), []byte("# a KiCI"), 1)
			require.NoError(t, os.WriteFile(file, b, 0o640))
			require.NoError(t, os.Chtimes(file, info.ModTime(), info.ModTime()))
		}, sameSizeAndTime()},
	}
	if runtime.GOOS != "windows" { // where a mode is only read-only or not, and a file has no inode
		tests = append(tests, []struct {
			name   string
			change func(t *testing.T, file string)
			what   string
		}{
			{"its mode changed", func(t *testing.T, file string) { require.NoError(t, os.Chmod(file, 0o600)) }, "(its mode, owner or group differs)"},
			{"replaced by a copy", func(t *testing.T, file string) {
				copyFile(t, file, file+".new")
				require.NoError(t, os.Rename(file+".new", file))
			}, "(it is another file now: its device or inode differs)"},
		}...)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "scalers.d"), 0o755))
			main, dropIn := filepath.Join(dir, "scalers.yaml"), filepath.Join(dir, "scalers.d", "10-mirror.yaml")
			copyFile(t, "sample/scalers.yaml", main)
			copyFile(t, "sample/scalers.d/10-mirror.yaml", dropIn)
			require.NoError(t, os.Chmod(main, 0o640))
			var changed []byte
			hook := func() {
				tt.change(t, main)
				var err error
				changed, err = os.ReadFile(main)
				require.NoError(t, err)
			}
			var stdout, stderr bytes.Buffer
			args := []string{"-config", main, "-dir", filepath.Join(dir, "scalers.d"), "-target", "0.20.0", "-write"}
			assert.Equal(t, 2, runHooked(args, nil, &stdout, &stderr, hook))
			assert.Empty(t, stdout.String())
			assert.Equal(t, "kici-preflight: nothing written: "+main+" changed since it was read "+tt.what+": check it again\n", stderr.String())
			got, err := os.ReadFile(main)
			require.NoError(t, err)
			assert.Equal(t, string(changed), string(got), "the change is kept")
			want, err := os.ReadFile("sample/scalers.d/10-mirror.yaml")
			require.NoError(t, err)
			got, err = os.ReadFile(dropIn)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got), "the other file is not pinned either")
			assertNoTemporaryFiles(t, dir)
		})
	}
}

// sameSizeAndTime is what -write says of a file whose bytes changed under
// the same size and modification time: on Linux, that its change time
// differs, which it reads first; elsewhere, that its bytes do.
func sameSizeAndTime() string {
	if runtime.GOOS == "linux" {
		return "(its change time differs: its mode, owner, links or extended attributes changed)"
	}
	return "(its bytes differ)"
}

// assertNoTemporaryFiles checks that no file -write writes beside the ones
// it replaces is left in dir or its folders.
func assertNoTemporaryFiles(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		assert.NotContains(t, d.Name(), ".kici-preflight-", "a temporary file left")
		return err
	}))
}

// TestWriteFixes: -write on configs an orchestrator before 0.16.0 loads,
// with a target of 0.16.0 or later, makes the fixes the config leaves no
// choice about and pins the images, then a check finds nothing to refuse;
// every byte but the fixes' and pins' stays. A fix that needs a choice is
// left, with its hint; a target before 0.16.0 fixes nothing.
func TestWriteFixes(t *testing.T) {
	pkg, err := os.Getwd()
	require.NoError(t, err)
	dir := t.TempDir()
	for _, name := range []string{"flat.yaml", "platforms.yaml", "fix-pin.yaml", "aliased.yaml"} {
		copyFile(t, filepath.Join("testdata", name), filepath.Join(dir, name))
	}
	t.Chdir(dir)
	check := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		status := run(args, nil, &stdout, &stderr)
		return status, stdout.String(), stderr.String()
	}
	old, err := os.ReadFile("flat.yaml")
	require.NoError(t, err)
	status, _, stderr := check("-config", "flat.yaml", "-target", "0.15.0", "-write")
	assert.Equal(t, 0, status, stderr)
	assert.Contains(t, stderr, "0 images pinned in 0 files")
	status, _, stderr = check("-config", "flat.yaml", "-target", "0.20.0", "-write")
	assert.Equal(t, 0, status, stderr)
	assert.Equal(t, "kici-preflight: 0 errors, 0 warnings, 0 ignored; 2 agent images checked, 0 images skipped (not KiCI agent images); target 0.20.0; 0 images pinned, 3 fixes made in 1 file\n", stderr)
	got, err := os.ReadFile("flat.yaml")
	require.NoError(t, err)
	wantFile := filepath.Join(pkg, "testdata", "golden", "fixed-flat.yaml")
	if *update {
		require.NoError(t, os.WriteFile(wantFile, got, 0o644))
	}
	want, err := os.ReadFile(wantFile)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
	assert.Equal(t, strings.Count(string(old), "\n")+2, strings.Count(string(got), "\n"), "a limits line, a platform line")
	assert.Contains(t, string(got), "        resources:\n          limits:\n            cpus: 2      # per agent\n            memory: 4g\n")
	assert.Contains(t, string(got), "  resources: {limits: {cpus: 1, memory: 1g}}   # every agent without resources of its own\n")
	assert.Contains(t, string(got), "    maxAgents: 2\n    platform: {os: linux, arch: arm64}\n    labelSets:\n      - labels: [linux, ARM64]\n")
	status, stdout, stderr := check("-config", "flat.yaml", "-target", "0.20.0")
	assert.Equal(t, 0, status, stdout+stderr)
	assert.Empty(t, stdout)

	status, _, stderr = check("-config", "platforms.yaml", "-target", "0.20.0", "-write", "-quiet")
	assert.Equal(t, 1, status, stderr)
	got, err = os.ReadFile("platforms.yaml")
	require.NoError(t, err)
	want, err = os.ReadFile(filepath.Join(pkg, "testdata", "platforms.yaml"))
	require.NoError(t, err)
	assert.Equal(t, strings.Replace(string(want), "  - name: windows\n    type: bare-metal\n    maxAgents: 1\n",
		"  - name: windows\n    type: bare-metal\n    maxAgents: 1\n    platform: {os: windows, arch: x64}\n", 1), string(got), "only the scaler without a choice")
	status, stdout, _ = check("-config", "platforms.yaml", "-target", "0.20.0", "-quiet")
	assert.Equal(t, 1, status)
	assert.Equal(t, 2, strings.Count(stdout, "[invalid-config]"), stdout)
	assert.Contains(t, stdout, "its label sets name different platforms (labelSets[0]: none, labelSets[1]: arm64): give each platform a scaler of its own")
	assert.Contains(t, stdout, "declare platform: {os: macos, arch: x64 or arm64} on this scaler; its labels leave the choice to you")

	// Fixes and pins in one file, the pins found in the fixed config.
	status, _, stderr = check("-config", "fix-pin.yaml", "-target", "0.20.0", "-write")
	assert.Equal(t, 0, status, stderr)
	assert.Contains(t, stderr, "; 3 images pinned, 4 fixes made in 1 file\n")
	got, err = os.ReadFile("fix-pin.yaml")
	require.NoError(t, err)
	want, err = os.ReadFile(filepath.Join(pkg, "testdata", "fix-pin.yaml"))
	require.NoError(t, err)
	assert.Equal(t, strings.NewReplacer(
		"kici-agent:latest", "kici-agent:0.20.0", "kici-agent:0.18.0", "kici-agent:0.20.0", "kici-agent:0.19.0", "kici-agent:0.20.0",
		"          cpus: 2\n          memory: 4g\n", "          limits:\n            cpus: 2\n            memory: 4g\n",
		"{memory: 1g}", "{limits: {memory: 1g}}", "{cpus: 1}", "{limits: {cpus: 1}}",
		"    maxAgents: 1\n", "    maxAgents: 1\n    platform: {os: linux, arch: arm64}\n",
	).Replace(string(want)), string(got))
	status, stdout, stderr = check("-config", "fix-pin.yaml", "-target", "0.20.0", "-strict")
	assert.Equal(t, 0, status, stdout+stderr)

	// A fix refused is reported once, and the others are made.
	status, _, stderr = check("-config", "aliased.yaml", "-target", "0.20.0", "-write", "-quiet")
	assert.Equal(t, 1, status)
	assert.Equal(t, "kici-preflight: aliased.yaml:4:15: not fixed: the value is reached through a YAML alias: fixing the anchor would change its other uses\n", stderr)
	got, err = os.ReadFile("aliased.yaml")
	require.NoError(t, err)
	assert.Contains(t, string(got), "        resources: *flat\n      - labels: [linux, own]\n        image: quay.io/kici-dev/kici-agent:0.20.0\n        resources: {limits: {memory: 1g}}\n")
}
