package scalerconfig

import (
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/internal/jsstr"
)

// Rules names the rules a read of the config follows: those of the
// orchestrator's config.ts at one commit of kici-dev/kici-public, and so
// of the releases that read a config as that commit does. It is the one
// switch of the rules: [ScanOptions].Rules sets it for a read, and
// [Config].Rules says which rules the read followed.
// [github.com/kicikit/kicikit/agentspawn.Route] follows them too.
//
// The zero Rules are the newest, [Rules016]. A value other than the three
// below reads as Rules016 too.
type Rules uint8

// The rules, newest first. [RulesFor] gives those of a release.
const (
	// Rules016 are config.ts at 84ac3cd (0.16.0). 0.17.0 changes none of
	// the config's files, and 0.20.0's seed none of their code: 0.16.0 to
	// 0.20.0 read a config alike. The orchestrator refuses three things
	// that the older rules load:
	//
	//   - a resources block (of a label set, or the defaults) that is a
	//     mapping with a cpus or memory key, even beside requests or
	//     limits: cpus and memory belong under limits;
	//   - in a scaler without platform, a label whose canonical form is
	//     windows, win32, macos, darwin, arm64, aarch64 or arm;
	//   - on a Windows host (ScanOptions.Host), a bare-metal binaryPath
	//     batch file (.cmd, .bat) that cmd.exe would read as syntax, as
	//     Rules014 does.
	//
	// A label set's gate is the scaler's mandatoryLabels and its
	// platform's taints, the same for each of its label sets: no plain
	// label taints a label set. A resource spec's keys are checked cpus
	// first.
	Rules016 Rules = iota
	// Rules014 are config.ts at b9d436e (0.14.0) and 221047e (0.15.0):
	// Rules012, and on a Windows host the batch-file binaryPath refused.
	Rules014
	// Rules012 are config.ts at 0b46a9a (0.12.0), for 0.12.0 and 0.13.x.
	// A flat resources block {cpus, memory} is read as both requests and
	// limits. A plain platform label loads, and taints its own label set:
	// the label set's gate holds it. A Windows host refuses nothing more.
	Rules012
)

// String returns the release that introduced the rules and their commit:
// "0.16.0 (84ac3cd)".
func (r Rules) String() string {
	switch r {
	case Rules016:
		return "0.16.0 (84ac3cd)"
	case Rules014:
		return "0.14.0 (b9d436e)"
	case Rules012:
		return "0.12.0 (0b46a9a)"
	}
	return "Rules(" + strconv.Itoa(int(r)) + ")"
}

// RulesFor returns the rules the orchestrator release reads a config by:
// [Rules016] for 0.16.0 and later, [Rules014] for 0.14.0 to 0.15.x, and
// [Rules012] for anything older. (The older v0.1.x line reads a config by
// rules of its own, which the package doc sets out; Rules012 is the
// nearest.)
//
// release is read as an upgrade's target is: trimmed of white space, one
// leading "v" dropped, a "-suffix" ignored, then MAJOR.MINOR.PATCH in
// ASCII digits, as [github.com/kicikit/kicikit/agentversion.ParseTarget]
// reads it. RulesFor reports false, with Rules016, for anything else: ""
// included.
func RulesFor(release string) (Rules, bool) {
	v, ok := releaseOf(release)
	switch {
	case !ok:
		return Rules016, false
	case v[0] > 0 || v[1] >= 16:
		return Rules016, true
	case v[1] >= 14:
		return Rules014, true
	}
	return Rules012, true
}

// releaseOf reads a release as RulesFor does: its major and minor parts,
// and whether it is one.
func releaseOf(s string) ([2]uint64, bool) {
	s = strings.TrimPrefix(jsstr.Trim(s), "v")
	if i := strings.IndexByte(s, '-'); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return [2]uint64{}, false
	}
	var v [3]uint64
	for i, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return [2]uint64{}, false
		}
		n, err := strconv.ParseUint(p, 10, 64)
		if err != nil {
			return [2]uint64{}, false
		}
		v[i] = n
	}
	return [2]uint64{v[0], v[1]}, true
}

// reading is how a load reads the config: the rules, and whether the
// orchestrator's host is Windows (the batch-file rule of Rules014 and
// Rules016 reads it).
type reading struct {
	rules   Rules
	windows bool
}

// readingOf is the reading the options ask for.
func readingOf(o ScanOptions) reading {
	r := o.Rules
	if r > Rules012 {
		r = Rules016
	}
	return reading{rules: r, windows: configOS(o.Host.OS) == "windows"}
}

// configOS is an OS in the config's words, Node's darwin and win32
// read as macos and windows.
func configOS(os string) string {
	switch os {
	case "darwin":
		return "macos"
	case "win32":
		return "windows"
	}
	return os
}

// newest reports whether the rules are Rules016's.
func (r reading) newest() bool { return r.rules == Rules016 }

// batchRule reports whether a bare-metal binaryPath batch file cmd.exe
// would read as syntax is refused: on a Windows host, from Rules014 on.
func (r reading) batchRule() bool { return r.windows && r.rules != Rules012 }
