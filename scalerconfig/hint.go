package scalerconfig

import (
	"slices"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// Hints: what a Problem of Rules016's refusals tells beyond the
// orchestrator's message, where the config shows how to write what it asks
// for (Problem.Hint), and the Fix when the config leaves no choice.

// problemNote is what a rule tells its Problem (the Note): a hint,
// and the node a Fix changes (nil for none), with the platform to declare
// there (nil: nest the resources block).
type problemNote struct {
	hint     string
	fixAt    *yamljs.Node
	platform *Platform
}

// flatNote is the note of a refused flat resources block v.
func flatNote(v *yamljs.Node) *problemNote {
	var entries []string
	for _, p := range v.Pairs {
		if p.Key != "cpus" && p.Key != "memory" {
			return &problemNote{hint: "move cpus and memory into limits, or requests, beside which they stand here"}
		}
		entries = append(entries, p.Key+": "+flowValue(p.Value))
	}
	return &problemNote{hint: "nest them: resources: {limits: {" + strings.Join(entries, ", ") + "}}", fixAt: v}
}

// flowValue is a scalar value as a flow mapping writes it: a number as
// JavaScript does, a string plain or double-quoted; another value is "…".
func flowValue(v *yamljs.Node) string {
	switch v.Kind {
	case yamljs.Number:
		return yamljs.NumberString(v.Num)
	case yamljs.String:
		if s, err := plain(v.Str); err == nil {
			return s
		}
		if s, err := doubleQuoted(v.Str); err == nil {
			return s
		}
	}
	return "…"
}

// platformNote is the note of a plain platform label of the scaler s, a
// scaler of type typ without platform: the platform to declare, and the
// Fix that declares it when the label sets leave no choice. That is when
// each label set holds the same plain platform labels, all of them taints
// of a platform (windows, macos, arm64), so that each set's gate stays
// what it was; and its os and arch are named (linux or x64 by a label of
// each set, or linux for a container or firecracker scaler).
func platformNote(s *yamljs.Node, typ ScalerType) *problemNote {
	sets := itemsOf(s, "labelSets")
	plains := make([][]string, len(sets))
	for i, ls := range sets {
		plains[i] = plainLabels(itemsOf(ls, "labels"))
	}
	for i := range plains {
		if !slices.Equal(plains[i], plains[0]) {
			return &problemNote{hint: "its label sets name different platforms (" + describeSets(plains) +
				"): give each platform a scaler of its own, with its platform: {os, arch}"}
		}
	}
	if slices.Contains(plains[0], "arm") {
		return &problemNote{hint: `"arm" names 32-bit ARM, which platform cannot declare: its arch is x64 or arm64`}
	}
	os, arch := namedPlatform(sets, plains[0], typ)
	hint := "declare platform: {os: " + orWords(os, "linux, macos or windows") + ", arch: " + orWords(arch, "x64 or arm64") + "} on this scaler"
	if os == "" || arch == "" || slices.ContainsFunc(plains[0], func(l string) bool { return !slices.Contains([]string{"windows", "macos", "arm64"}, l) }) {
		return &problemNote{hint: hint + "; its labels leave the choice to you"}
	}
	return &problemNote{hint: hint + ", the platform its label sets name", fixAt: s, platform: &Platform{OS: os, Arch: arch}}
}

// itemsOf are the items of the list at key of the mapping m, or none.
func itemsOf(m *yamljs.Node, key string) []*yamljs.Node {
	if n := lookupMap(m, key); n != nil {
		return n.Items
	}
	return nil
}

// plainLabels are the plain platform labels among labels, canonical,
// sorted, each once.
func plainLabels(labels []*yamljs.Node) []string {
	var out []string
	for _, l := range labels {
		if c := canonical(l.Str); IsPlatformLabel(c) && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// describeSets names the plain platform labels of each label set that
// differs from the one before it, at most four: "labelSets[0]: macos,
// labelSets[1]: none".
func describeSets(plains [][]string) string {
	var parts []string
	for i, p := range plains {
		if i > 0 && slices.Equal(p, plains[i-1]) {
			continue
		}
		if len(parts) == 4 {
			return strings.Join(parts, ", ") + ", …"
		}
		words := strings.Join(p, " ")
		if words == "" {
			words = "none"
		}
		parts = append(parts, "labelSets["+strconv.Itoa(i)+"]: "+words)
	}
	return strings.Join(parts, ", ")
}

// namedPlatform is the os and arch the label sets name, "" for one they
// leave open: plain is the plain platform labels each set holds.
func namedPlatform(sets []*yamljs.Node, plain []string, typ ScalerType) (os, arch string) {
	switch {
	case slices.Contains(plain, "windows") || slices.Contains(plain, "win32"):
		os = "windows"
	case slices.Contains(plain, "macos") || slices.Contains(plain, "darwin"):
		os = "macos"
	case typ == TypeContainer || typ == TypeFirecracker || everySetHas(sets, "linux"):
		os = "linux"
	}
	switch {
	case slices.Contains(plain, "arm64") || slices.Contains(plain, "aarch64"):
		arch = "arm64"
	case everySetHas(sets, "x64", "amd64"):
		arch = "x64"
	}
	if os == "windows" && (slices.Contains(plain, "macos") || slices.Contains(plain, "darwin")) {
		os = "" // both: no one os
	}
	return os, arch
}

// everySetHas reports whether each label set has one of labels.
func everySetHas(sets []*yamljs.Node, labels ...string) bool {
	for _, ls := range sets {
		if !slices.ContainsFunc(itemsOf(ls, "labels"), func(l *yamljs.Node) bool { return slices.Contains(labels, canonical(l.Str)) }) {
			return false
		}
	}
	return true
}

// orWords is w, or the words for an open choice when w is "".
func orWords(w, choice string) string {
	if w == "" {
		return choice
	}
	return w
}
