package main

import (
	"runtime/debug"
	"strings"

	"golang.org/x/mod/semver"
)

// buildVersion is the version the program was built as, read from its
// build information (what `go version -m` prints), never a constant: the
// module's version (v0.1.0 from `go install ...@v0.1.0`; the
// pseudo-version Go 1.24 and later stamp from the checkout a binary is
// built in), or "(devel)" followed by the VCS revision and "(modified)"
// when the build has them.
type buildVersion struct {
	module   string // the main module's version: "(devel)" when it has none
	revision string // vcs.revision; "" when the build has none
	modified bool   // vcs.modified: the checkout had changes
}

// readVersion reads the version of the running program.
func readVersion() buildVersion {
	return versionOf(debug.ReadBuildInfo())
}

// versionOf reads the version of a build from its information; ok false
// (a binary built without module support) is "(devel)".
func versionOf(bi *debug.BuildInfo, ok bool) buildVersion {
	v := buildVersion{module: "(devel)"}
	if !ok {
		return v
	}
	if bi.Main.Version != "" {
		v.module = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.revision = s.Value
		case "vcs.modified":
			v.modified = s.Value == "true"
		}
	}
	return v
}

// String is the version as -version prints it after the program's name,
// and the JSON and SARIF outputs name the tool's: the module's version;
// for "(devel)", with " revision REV" and " (modified)" when the build has
// them.
func (v buildVersion) String() string {
	if v.module != "(devel)" {
		return v.module
	}
	s := v.module
	if v.revision != "" {
		s += " revision " + v.revision
	}
	if v.modified {
		s += " (modified)"
	}
	return s
}

// semantic is the module's version as Semantic Versioning writes it,
// without the leading "v", for SARIF's semanticVersion; "" for "(devel)".
func (v buildVersion) semantic() string {
	if !semver.IsValid(v.module) {
		return ""
	}
	return strings.TrimPrefix(v.module, "v")
}
