package npmtarget

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// npmSpecTables is testdata/npmspec/npmspec.json: what npm-package-arg
// makes of "@kici-dev/orchestrator@<spec>" and "<name>@0.20.0", read as on
// posix and as on Windows, and what validate-npm-package-name says of each
// name. testdata/npmspec/gen.mjs makes it.
type npmSpecTables struct {
	Packages map[string]string `json:"packages"`
	Versions []struct {
		Spec    string `json:"spec"`
		Posix   string `json:"posix"`
		Windows string `json:"windows"`
		Name    string `json:"name"`
	} `json:"versions"`
	Names []struct {
		Name                string  `json:"name"`
		ValidForOldPackages bool    `json:"validForOldPackages"`
		Posix               string  `json:"posix"`
		Windows             string  `json:"windows"`
		Read                *string `json:"read"`
	} `json:"names"`
}

func loadNpmSpec(t *testing.T) npmSpecTables {
	t.Helper()
	b, err := os.ReadFile("testdata/npmspec/npmspec.json")
	require.NoError(t, err)
	var v npmSpecTables
	require.NoError(t, json.Unmarshal(b, &v))
	require.Equal(t, "14.0.0", v.Packages["npm-package-arg"])
	require.Equal(t, "8.0.0", v.Packages["validate-npm-package-name"])
	require.NotEmpty(t, v.Versions)
	require.NotEmpty(t, v.Names)
	return v
}

// TestVersionRuleAgainstNpm checks isVersionOrTag against npm-package-arg:
// every version it accepts, npm reads as a version or a dist-tag of the
// package, on posix and on Windows alike.
func TestVersionRuleAgainstNpm(t *testing.T) {
	t.Parallel()
	accepted := 0
	for _, row := range loadNpmSpec(t).Versions {
		if !isVersionOrTag(row.Spec) {
			continue
		}
		accepted++
		ok := (row.Posix == "version" || row.Posix == "tag") && row.Windows == row.Posix && row.Name == "@kici-dev/orchestrator"
		assert.True(t, ok, "accepted %q, which npm reads as %s (posix) and %s (Windows)", row.Spec, row.Posix, row.Windows)
	}
	assert.Greater(t, accepted, 100)
}

// TestVersionRule lists versions an upgrade is given, with the verdict.
func TestVersionRule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		v    string
		want bool
	}{
		{"a release", "0.20.0", true},
		{"a pre-release", "0.21.0-rc.1", true},
		{"a build", "1.2.3+build.5", true},
		{"pre-release and build", "1.0.0-x-y-z.--+a.b", true},
		{"a leading v", "v0.20.0", true},
		{"the largest safe major", "9007199254740991.0.0", true},
		{"dist-tag latest", "latest", true},
		{"dist-tag next", "next", true},
		{"dist-tag with a digit and a dash", "v1-lts", true},
		{"dist-tag with dots and underscores", "beta.2_x", true},
		{"dist-tag v", "v", true},
		{"an alias installs another package", "npm:left-pad@1.3.0", false},
		{"an absolute folder runs its scripts", "/opt/evil", false},
		{"a relative folder", "../x", false},
		{"a file: spec", "file:../x", false},
		{"a Windows folder", `C:\x`, false},
		{"a tarball", "x.tgz", false},
		{"a tarball, upper case", "latest.TAR.GZ", false},
		{"a URL", "https://example.com/x.tgz", false},
		{"a git repository", "git+ssh://git@github.com/u/r.git", false},
		{"a GitHub shortcut", "user/repo", false},
		{"a caret range", "^1.2.3", false},
		{"a tilde range", "~1.2.3", false},
		{"a star", "*", false},
		{"an x-range", "x", false},
		{"a partial version", "1.2", false},
		{"a major alone", "1", false},
		{"a v and a major", "v1", false},
		{"a v and an x", "vx", false},
		{"an x-range with a pre-release", "v1.x.2-a", false},
		{"a comparator", ">=1.2.3", false},
		{"a union", "1||2", false},
		{"a leading option dash", "-g", false},
		{"a leading dot", ".tag", false},
		{"a loose version with =", "=1.2.3", false},
		{"a loose version with leading zeros", "01.2.3", false},
		{"a loose pre-release without -", "v1.2.3beta", false},
		{"white space around a version", " 1.2.3", false},
		{"a major beyond 2^53-1", "9007199254740992.0.0", false},
		{"an empty pre-release", "1.2.3-", false},
		{"an empty build", "1.2.3+", false},
		{"a pre-release with a leading zero", "1.2.3-01", false},
		{"a tag npm would refuse", "tag%20", false},
		{"a tag with a cmd.exe operator", "next&calc", false},
		{"a newline", "latest\n", false},
		{"longer than node-semver reads", "t" + strings.Repeat("x", maxSpecLen), false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, isVersionOrTag(tt.v))
		})
	}
}

// TestPackageRuleAgainstNpm checks isPackageName against
// validate-npm-package-name and npm-package-arg: it accepts exactly the
// names valid for old packages that npm reads back as themselves.
func TestPackageRuleAgainstNpm(t *testing.T) {
	t.Parallel()
	for _, row := range loadNpmSpec(t).Names {
		readBack := row.Read != nil && *row.Read == row.Name && row.Posix == "version" && row.Windows == "version"
		assert.Equal(t, row.ValidForOldPackages && readBack, isPackageName(row.Name), "%q: valid %v, npm reads %s/%s", row.Name, row.ValidForOldPackages, row.Posix, row.Windows)
	}
}

// npaVersionOrTag is an oracle for the question isVersionOrTag answers,
// written independently of it from npm-package-arg's and node-semver's own
// code and regular expressions, for strings made of letters, digits and
// "._+-": it reports what npm reads "<package>@spec" as, "version", "tag",
// "range", "file" or "error". TestNpaOracle checks it against
// npm-package-arg.
func npaVersionOrTag(spec string) string {
	const (
		num     = `(?:\d+)`
		ident   = `(?:\d+|\d*[a-zA-Z-][a-zA-Z0-9-]*)`
		pre     = `(?:-?(?:` + ident + `(?:\.` + ident + `)*))`
		build   = `(?:\+(?:[a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)*))`
		xr      = `(\d+|x|X|\*)`
		loose   = `^[v=\s]*` + num + `\.` + num + `\.` + num + pre + `?` + build + `?$`
		xrange  = `^[v=\s]*` + xr + `(?:\.` + xr + `(?:\.` + xr + pre + `?)?)?$`
		file    = `^(?:[.]|~[/]|[/\\]|[a-zA-Z]:)`
		tarball = `(?i)[.](?:tgz|tar\.gz|tar)$`
	)
	m := func(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }
	switch {
	case m(file, spec), m(tarball, spec):
		return "file"
	case len(spec) <= maxSpecLen && m(loose, spec) && mainFits(spec):
		return "version"
	}
	// A range loses its build metadata first, and an x-range whose x comes
	// before a number ("x.1", "1.x.2") is no range.
	r := regexp.MustCompile(build).ReplaceAllString(spec, "")
	isX := func(p string) bool { return p == "" || p == "x" || p == "X" || p == "*" }
	if parts := regexp.MustCompile(xrange).FindStringSubmatch(r); r == "" || parts != nil && len(r) <= maxSpecLen && mainFits(r) &&
		!(isX(parts[1]) && !isX(parts[2])) && !(isX(parts[2]) && parts[3] != "" && !isX(parts[3])) {
		return "range"
	}
	if spec == "" || strings.ContainsRune(spec, '+') {
		return "error"
	}
	return "tag"
}

// mainFits reports whether every run of digits in s up to its first "-" or
// "+" is a number node-semver takes: at most 2^53-1.
func mainFits(s string) bool {
	main, _, _ := strings.Cut(strings.SplitN(s, "+", 2)[0], "-")
	for _, run := range regexp.MustCompile(`\d+`).FindAllString(main, -1) {
		if len(strings.TrimLeft(run, "0")) > 16 || len(strings.TrimLeft(run, "0")) == 16 && strings.TrimLeft(run, "0") > "9007199254740991" {
			return false
		}
	}
	return true
}

// TestNpaOracle checks npaVersionOrTag against npm-package-arg on every
// table row made of letters, digits and "._+-".
func TestNpaOracle(t *testing.T) {
	t.Parallel()
	domain := regexp.MustCompile(`^[A-Za-z0-9._+-]+$`)
	checked := 0
	for _, row := range loadNpmSpec(t).Versions {
		if !domain.MatchString(row.Spec) {
			continue
		}
		checked++
		want := row.Posix
		switch {
		case strings.HasPrefix(want, "error:"):
			want = "error"
		case want == "directory":
			want = "file"
		}
		assert.Equal(t, want, npaVersionOrTag(row.Spec), "%q", row.Spec)
	}
	assert.Greater(t, checked, 500)
}

// FuzzVersionRule checks that every version isVersionOrTag accepts, npm
// reads as a version or a dist-tag, by the oracle that TestNpaOracle checks
// against npm itself; and that an accepted version reaches npm's arguments
// as it is, and a refused one never does.
func FuzzVersionRule(f *testing.F) {
	for _, s := range []string{"0.20.0", "v1.2.3-rc.1+b", "latest", "v1-lts", "x", "vx", "1.2", "npm:x@1", "/opt/evil", "a.tgz", "v1.2.3beta", "9007199254740992.0.0", "-g"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		ok := isVersionOrTag(v)
		if ok {
			require.Contains(t, []string{"version", "tag"}, npaVersionOrTag(v), "accepted %q", v)
		}
		in := PlanUpgradeInput{Spec: &LaunchSpec{ExecPath: "/usr/bin/node", Args: []string{"/usr/lib/node_modules" + orchestratorEntry}},
			Component: "orchestrator", Version: v, Options: Options{Exists: func(string) bool { return false }}}
		switch p := PlanUpgrade(in).(type) {
		case SelfInstall:
			require.True(t, ok, "planned %q, which isVersionOrTag refuses", v)
			c, err := p.Command()
			require.NoError(t, err, "planned %q", v)
			require.Equal(t, "@kici-dev/orchestrator@"+v, c.Args[len(c.Args)-2], "planned %q: %v", v, c.Args)
		case Refusal:
			require.False(t, ok, "refused %q: %+v", v, p)
			if v != "" {
				require.Equal(t, ErrVersion, p.Reason, "refused %q: %+v", v, p)
			}
		}
	})
}
