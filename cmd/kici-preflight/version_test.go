package main

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestVersion: -version, and the tool's version in the JSON and SARIF
// outputs, come from the build information, as `go version -m` shows it.
func TestVersion(t *testing.T) {
	t.Parallel()
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "-buildmode", Value: "exe"}, {Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	tests := []struct {
		name         string
		info         *debug.BuildInfo
		ok           bool
		want, semver string
	}{
		{"go install @v0.1.0", &debug.BuildInfo{Main: debug.Module{Path: "github.com/kicikit/kicikit", Version: "v0.1.0"}}, true, "v0.1.0", "0.1.0"},
		{"go install @latest, a prerelease", &debug.BuildInfo{Main: debug.Module{Version: "v0.2.0-rc.1"}}, true, "v0.2.0-rc.1", "0.2.0-rc.1"},
		{"go build in a checkout (Go 1.24's pseudo-version)", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201145200-c6ea06b05ad7+dirty"}, Settings: vcs("c6ea06b05ad74d677a91245e1c94b70d45b0e15f", "true")}, true,
			"v0.0.0-20261201145200-c6ea06b05ad7+dirty", "0.0.0-20261201145200-c6ea06b05ad7+dirty"},
		{"(devel) with a clean revision", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("c6ea06b05ad74d677a91245e1c94b70d45b0e15f", "false")}, true,
			"(devel) revision c6ea06b05ad74d677a91245e1c94b70d45b0e15f", ""},
		{"(devel) with a modified checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("c6ea06b05ad74d677a91245e1c94b70d45b0e15f", "true")}, true,
			"(devel) revision c6ea06b05ad74d677a91245e1c94b70d45b0e15f (modified)", ""},
		{"go run, go test, -buildvcs=false", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "(devel)", ""},
		{"no module version at all", &debug.BuildInfo{}, true, "(devel)", ""},
		{"no build information", nil, false, "(devel)", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := versionOf(tt.info, tt.ok)
			assert.Equal(t, tt.want, v.String())
			assert.Equal(t, tt.semver, v.semantic())
		})
	}
}
