package npmtarget

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// realNpmEnv is the variable that turns TestRealNpm on; .ci/run sets it.
const realNpmEnv = "KICIKIT_REAL_NPM"

// TestRealNpm runs the upgrade against the real npm, end to end and
// offline: it packs two versions of a throwaway @kici-dev/orchestrator into
// local tarballs, installs the first globally into a temporary prefix laid
// out as a real global install, resolves the launch command a service would
// have, and runs the install of the second through Target.Command and
// ExecCmd in an environment whose npm_config_prefix points elsewhere. The
// second version must land at the entry script, and nothing elsewhere.
//
// The install names the tarball's path, through Target.Command, the lower
// level that passes npm arguments as given; PlanUpgrade, the upgrade path,
// refuses a path as a version, and the test checks that too.
func TestRealNpm(t *testing.T) {
	if os.Getenv(realNpmEnv) == "" {
		t.Skip("runs the real npm; set " + realNpmEnv + "=1 to run it, as .ci/run does: " + realNpmEnv + "=1 go test -run TestRealNpm ./npmtarget")
	}
	if runtime.GOOS == "windows" {
		t.Skip("lays out a posix global install; the Windows routes have TestWindowsNpmCmdRoute and TestWindowsDirectRoute")
	}
	start := time.Now()
	npm, err := exec.LookPath("npm")
	require.NoError(t, err, "npm must be on PATH when %s is set", realNpmEnv)
	node, err := exec.LookPath("node")
	require.NoError(t, err)
	node, err = filepath.EvalSymlinks(node)
	require.NoError(t, err)

	tmp := t.TempDir()
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + filepath.Join(tmp, "home"),
		"npm_config_cache=" + filepath.Join(tmp, "cache"),
		"npm_config_userconfig=" + filepath.Join(tmp, "npmrc"),
		"npm_config_offline=true",
		"npm_config_audit=false",
		"npm_config_fund=false",
		"npm_config_update_notifier=false",
	}
	tarballs := filepath.Join(tmp, "tarballs")
	v1 := packOrchestrator(t, npm, env, tmp, tarballs, "0.1.0")
	v2 := packOrchestrator(t, npm, env, tmp, tarballs, "0.2.0")

	prefix := filepath.Join(tmp, "prefix")
	runNpm(t, exec.Command(npm, "install", "-g", "--prefix="+prefix, v1), env, tmp)
	pkgDir := filepath.Join(prefix, "lib", "node_modules", "@kici-dev", "orchestrator")
	require.Equal(t, "0.1.0", installedVersion(t, pkgDir))

	spec := LaunchSpec{ExecPath: node, Args: []string{filepath.Join(pkgDir, "dist", "server.js")}}
	r := Resolve(spec, "orchestrator", Options{})
	require.IsType(t, Resolved{}, r)
	target := r.(Resolved).Target
	assert.Equal(t, prefix, target.GlobalPrefix)
	assert.Equal(t, "@kici-dev/orchestrator", target.OwningPackage)

	refusal := PlanUpgrade(PlanUpgradeInput{Spec: &spec, Component: "orchestrator", Version: v2, Options: Options{}})
	require.IsType(t, Refusal{}, refusal, "the upgrade path refuses a path as a version")
	assert.Equal(t, ErrVersion, refusal.(Refusal).Reason)

	c, err := target.Command("install", "-g", v2)
	require.NoError(t, err)
	other := filepath.Join(tmp, "other-prefix")
	runNpm(t, c.ExecCmd(append(env, "npm_config_prefix="+other)), nil, tmp)

	assert.Equal(t, "0.2.0", installedVersion(t, pkgDir))
	server, err := os.ReadFile(spec.Args[0])
	require.NoError(t, err)
	assert.Equal(t, "module.exports = \"0.2.0\";\n", string(server))
	_, err = os.Stat(other)
	assert.True(t, os.IsNotExist(err), "nothing is written to the environment's npm_config_prefix: %v", err)
	assert.Less(t, time.Since(start), 60*time.Second)
}

// packOrchestrator writes a throwaway @kici-dev/orchestrator at version
// into a folder of tmp, packs it into out with npm pack and returns the
// tarball's path.
func packOrchestrator(t *testing.T, npm string, env []string, tmp, out, version string) string {
	t.Helper()
	src := filepath.Join(tmp, "src-"+version)
	require.NoError(t, os.MkdirAll(filepath.Join(src, "dist"), 0o755))
	require.NoError(t, os.MkdirAll(out, 0o755))
	manifest, err := json.Marshal(map[string]any{"name": "@kici-dev/orchestrator", "version": version, "files": []string{"dist"}})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(src, "package.json"), manifest, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(src, "dist", "server.js"), []byte("module.exports = \""+version+"\";\n"), 0o644))
	runNpm(t, exec.Command(npm, "pack", "--pack-destination", out), env, src)
	tarball := filepath.Join(out, "kici-dev-orchestrator-"+version+".tgz")
	require.FileExists(t, tarball)
	return tarball
}

// runNpm runs cmd in dir, with env unless it is nil (cmd has its own), and
// fails the test with npm's output if it fails or takes over 45 seconds.
func runNpm(t *testing.T, cmd *exec.Cmd, env []string, dir string) {
	t.Helper()
	if env != nil {
		cmd.Env = env
	}
	var out bytes.Buffer
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &out
	require.NoError(t, cmd.Start(), "%s", cmd)
	timer := time.AfterFunc(45*time.Second, func() { _ = cmd.Process.Kill() })
	defer timer.Stop()
	require.NoError(t, cmd.Wait(), "%s:\n%s", cmd, out.String())
}

// installedVersion returns the version in dir's package.json.
func installedVersion(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	require.NoError(t, err)
	var manifest struct{ Version string }
	require.NoError(t, json.Unmarshal(b, &manifest))
	return manifest.Version
}
