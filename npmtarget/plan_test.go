package npmtarget

import (
	"testing"

	"github.com/kicikit/kicikit/internal/errtext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlanUpgrade(t *testing.T) {
	t.Parallel()
	global := &LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{"/usr/lib/node_modules" + orchestratorEntry}}
	local := &LaunchSpec{ExecPath: "/opt/node/bin/node", Args: []string{"/srv/app/node_modules" + orchestratorEntry}}
	custom := &LaunchSpec{ExecPath: "/opt/kici/bin/node", Args: []string{"/opt/kici" + orchestratorEntry}}
	noCli := Options{Exists: func(string) bool { return false }}
	const alternatives = "Use an archive upgrade (--from <archive> / --url <url> + --version), or pre-install the package and re-run with --restart-only."
	noGlobal := Refusal{
		Reason:  ErrNoGlobalPackage,
		Message: "npm-source upgrade cannot self-install: the unit's launch target is a custom --binary install or a non-node_modules path, so there is no global package to update. " + alternatives,
	}
	for _, tc := range []struct {
		name string
		in   PlanUpgradeInput
		want Plan
	}{
		{
			name: "no version",
			in:   PlanUpgradeInput{Spec: global, Component: "orchestrator", Options: noCli},
			want: Refusal{
				Reason:  ErrNoVersion,
				Message: "self-driving upgrade requires --version <target> (the version to install). Pass --restart-only to restart the already-installed package without installing.",
			},
		},
		{
			name: "no version, whatever the launch command",
			in:   PlanUpgradeInput{Spec: custom, Component: "orchestrator"},
			want: Refusal{
				Reason:  ErrNoVersion,
				Message: "self-driving upgrade requires --version <target> (the version to install). Pass --restart-only to restart the already-installed package without installing.",
			},
		},
		{
			name: "not global",
			in:   PlanUpgradeInput{Spec: local, Component: "orchestrator", Version: "0.20.0", Options: noCli, RunningExecPath: "/usr/local/bin/node"},
			want: Refusal{
				Reason: ErrNotGlobal,
				Message: "npm-source upgrade cannot self-install: the unit's launch target /srv/app/node_modules/@kici-dev/orchestrator/dist/server.js is not inside a global npm install, " +
					"so the unit's npm has no global prefix that holds it. The unit runs /opt/node/bin/node; this kici-admin runs /usr/local/bin/node. " + alternatives,
			},
		},
		{
			name: "no entry",
			in:   PlanUpgradeInput{Spec: custom, Component: "orchestrator", Version: "0.20.0", Options: noCli},
			want: noGlobal,
		},
		{
			name: "no launch command",
			in:   PlanUpgradeInput{Component: "orchestrator", Version: "0.20.0", Options: noCli},
			want: noGlobal,
		},
		{
			name: "a drive-relative node, beyond the orchestrator",
			in: PlanUpgradeInput{Spec: &LaunchSpec{ExecPath: "C:node.exe", Args: []string{`C:\npm\node_modules` + winEntry}},
				Component: "orchestrator", Version: "0.20.0", Options: Options{Windows: true, Exists: func(string) bool { return false }}},
			want: Refusal{
				Reason: ErrUnsafeTarget,
				Message: `npm-source upgrade cannot self-install: the unit's launch target C:\npm\node_modules\@kici-dev\orchestrator\dist\server.js is a global install ` +
					`that npm cannot be run for safely: NodeExecPath "C:node.exe": the service's node is not an absolute path, so npm would run from the working directory: give its absolute path. ` + alternatives,
				Err: &FieldError{Func: "Resolve", Field: "NodeExecPath", Value: "C:node.exe", Reason: ErrRelativeNode},
			},
		},
		{
			name: "self-install",
			in:   PlanUpgradeInput{Spec: global, Component: "orchestrator", Version: "0.20.0", Options: noCli},
			want: SelfInstall{Target: posixNpm, Version: "0.20.0"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, PlanUpgrade(tc.in))
		})
	}

	t.Run("a refusal never asks the disk", func(t *testing.T) {
		t.Parallel()
		opts := Options{Exists: func(string) bool { assert.Fail(t, "Exists asked"); return false }}
		PlanUpgrade(PlanUpgradeInput{Spec: global, Component: "orchestrator", Options: opts})
		PlanUpgrade(PlanUpgradeInput{Spec: local, Component: "orchestrator", Version: "1", Options: opts})
	})
}

func TestSelfInstall(t *testing.T) {
	t.Parallel()
	s := SelfInstall{Target: posixNpm, Version: "0.20.0"}
	assert.Equal(t, []string{"install", "-g", "@kici-dev/orchestrator@0.20.0"}, s.NpmArgs())
	c, err := s.Command()
	require.NoError(t, err)
	assert.Equal(t, "/usr/bin/npm install -g @kici-dev/orchestrator@0.20.0 --prefix=/usr", c.String())

}

// TestSelfInstallRefuses lists the installs SelfInstall.Command refuses
// before any command is made, as PlanUpgrade and Resolve would have.
func TestSelfInstallRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		target  Target
		version string
		want    error
	}{
		{"a version cmd.exe cannot take", winCmd, "0.20.0&calc",
			&FieldError{Func: "SelfInstall.Command", Field: "Version", Value: "0.20.0&calc", Reason: ErrVersion}},
		{"an alias", posixNpm, "npm:left-pad@1.3.0",
			&FieldError{Func: "SelfInstall.Command", Field: "Version", Value: "npm:left-pad@1.3.0", Reason: ErrVersion}},
		{"a folder", posixCli, "/opt/evil",
			&FieldError{Func: "SelfInstall.Command", Field: "Version", Value: "/opt/evil", Reason: ErrVersion}},
		{"a drive as the package", withPackage(winCli, "C:"), "0.20.0",
			&FieldError{Func: "SelfInstall.Command", Field: "OwningPackage", Value: "C:", Reason: ErrPackageName}},
		{"an option as the package", withPackage(posixCli, "-x"), "0.20.0",
			&FieldError{Func: "SelfInstall.Command", Field: "OwningPackage", Value: "-x", Reason: ErrPackageName}},
		{"a tarball as the package", withPackage(posixCli, "x.tgz"), "0.20.0",
			&FieldError{Func: "SelfInstall.Command", Field: "OwningPackage", Value: "x.tgz", Reason: ErrPackageName}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := SelfInstall{Target: tt.target, Version: tt.version}.Command()
			assert.Equal(t, tt.want, err)
			assert.Equal(t, Command{}, c)
		})
	}
}

// withPackage returns t installing pkg.
func withPackage(t Target, pkg string) Target {
	t.OwningPackage = pkg
	return t
}

// TestPlanUpgradeRefusesVersions lists versions PlanUpgrade refuses where
// the orchestrator passes them to npm install as they are.
func TestPlanUpgradeRefusesVersions(t *testing.T) {
	t.Parallel()
	global := &LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{"/usr/lib/node_modules" + orchestratorEntry}}
	tests := []struct {
		name    string
		version string
	}{
		{"an alias installs another package under the name", "npm:left-pad@1.3.0"},
		{"an absolute folder runs its install scripts", "/opt/evil"},
		{"a relative folder", "../x"},
		{"a tarball", "evil.tgz"},
		{"a git repository", "github:evil/x"},
		{"a range", "^0.20.0"},
		{"an option", "--ignore-scripts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts := Options{Exists: func(string) bool { assert.Fail(t, "Exists asked"); return false }}
			got := PlanUpgrade(PlanUpgradeInput{Spec: global, Component: "orchestrator", Version: tt.version, Options: opts})
			require.IsType(t, Refusal{}, got)
			r := got.(Refusal)
			assert.Equal(t, ErrVersion, r.Reason)
			assert.Equal(t, &FieldError{Func: "PlanUpgrade", Field: "Version", Value: tt.version, Reason: ErrVersion}, r.Err)
			assert.Equal(t, "npm-source upgrade cannot self-install: --version "+errtext.Quote(tt.version)+": "+ErrVersion.Error()+".", r.Message)
		})
	}
}
