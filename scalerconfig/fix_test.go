package scalerconfig

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// problemsBy016 loads src, one file, by the newest rules and returns the
// problems (none when it loads).
func problemsBy016(t *testing.T, src string) []Problem {
	t.Helper()
	_, err := Load(fstest.MapFS{"s.yaml": {Data: []byte(src)}}, "s.yaml", "")
	if err == nil {
		return nil
	}
	var e *Error
	require.ErrorAs(t, err, &e)
	return e.Problems
}

// fixesOf are the problems' fixes, each once.
func fixesOf(problems []Problem) []Fix {
	var out []Fix
	for _, p := range problems {
		if p.Fix != nil && (len(out) == 0 || out[len(out)-1] != *p.Fix) {
			out = append(out, *p.Fix)
		}
	}
	return out
}

// fixAll fixes src as often as a load by the newest rules has fixes: a
// scaler's platform labels show once its resources block is nested.
func fixAll(t *testing.T, src string) string {
	t.Helper()
	for range 3 {
		fixes := fixesOf(problemsBy016(t, src))
		if fixes == nil {
			return src
		}
		out, reps, err := ApplyFixes([]byte(src), fixes)
		require.NoError(t, err)
		require.NotEmpty(t, reps)
		src = string(out)
	}
	return src
}

// TestApplyFixes fixes configs an older release loads into the configs
// 0.16.0 loads: only the fixed values change, the layout and comments
// stay, and the limits and platforms read as before.
func TestApplyFixes(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, src, want string }{
		{"flow blocks, CRLF and comments",
			"version: 1\r\ndefaults:\r\n  resources: {cpus: 1, memory: 1g}  # d\r\nscalers:\r\n  - name: c\r\n    type: container\r\n    maxAgents: 1\r\n    labelSets:\r\n      - {labels: [x], image: i, resources: {memory: '512m'}}\r\n",
			"version: 1\r\ndefaults:\r\n  resources: {limits: {cpus: 1, memory: 1g}}  # d\r\nscalers:\r\n  - name: c\r\n    type: container\r\n    maxAgents: 1\r\n    labelSets:\r\n      - {labels: [x], image: i, resources: {limits: {memory: '512m'}}}\r\n"},
		{"a block mapping, its empty line and comments kept",
			"version: 1\nscalers:\n  - name: c\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [x]\n        resources:\n          # before\n          cpus: 2   # two\n\n          memory: >-\n            4g\n        image: i\n",
			"version: 1\nscalers:\n  - name: c\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [x]\n        resources:\n          # before\n          limits:\n            cpus: 2   # two\n\n            memory: >-\n              4g\n        image: i\n"},
		{"a container scaler's platform, after its resources",
			"version: 1\nscalers:\n  - name: arm\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [linux, ARM64]\n        image: i\n        resources: {cpus: 2}\n      - labels: [arm64, big]\n        image: i\n",
			"version: 1\nscalers:\n  - name: arm\n    type: container\n    maxAgents: 1\n    platform: {os: linux, arch: arm64}\n    labelSets:\n      - labels: [linux, ARM64]\n        image: i\n        resources: {limits: {cpus: 2}}\n      - labels: [arm64, big]\n        image: i\n"},
		{"a flow scaler, a bare-metal one naming its os and arch",
			"version: 1\nscalers:\n  - {name: mac, type: bare-metal, maxAgents: 1, labelSets: [{labels: [macos, arm64], binaryPath: /x}]}\n",
			"version: 1\nscalers:\n  - {name: mac, type: bare-metal, maxAgents: 1, platform: {os: macos, arch: arm64}, labelSets: [{labels: [macos, arm64], binaryPath: /x}]}\n"},
		{"labelSets first on its line: before the next key",
			"version: 1\nscalers:\n  - labelSets:\n      - labels: [windows, x64]\n        binaryPath: /x\n    name: w\n    type: bare-metal\n    maxAgents: 1\n",
			"version: 1\nscalers:\n  - labelSets:\n      - labels: [windows, x64]\n        binaryPath: /x\n    platform: {os: windows, arch: x64}\n    name: w\n    type: bare-metal\n    maxAgents: 1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := fixAll(t, tt.src)
			assert.Equal(t, tt.want, got)
			assert.Empty(t, problemsBy016(t, got), "0.16.0 loads it")
			old, err := ScanOptions{Rules: Rules012}.Load(fstest.MapFS{"s.yaml": {Data: []byte(tt.src)}}, "s.yaml", "")
			require.NoError(t, err)
			fixed, err := Load(fstest.MapFS{"s.yaml": {Data: []byte(got)}}, "s.yaml", "")
			require.NoError(t, err)
			for i, s := range old.Scalers {
				for j, ls := range s.LabelSets {
					if ls.Resources != nil {
						assert.Equal(t, ls.Resources.Limits, fixed.Scalers[i].LabelSets[j].Resources.Limits)
					}
					assert.Equal(t, ls.Labels, fixed.Scalers[i].LabelSets[j].Labels)
				}
			}
		})
	}
}

// TestProblemHints: the hint and the fix of each refusal of Rules016, and
// none where the config leaves the choice open.
func TestProblemHints(t *testing.T) {
	t.Parallel()
	scaler := func(typ, extra string, sets ...string) string {
		src := "version: 1\nscalers:\n  - name: s\n    type: " + typ + "\n    maxAgents: 1\n" + extra + "    labelSets:\n"
		for _, labels := range sets {
			src += "      - {labels: [" + labels + "], image: i, binaryPath: /x}\n"
		}
		return src
	}
	tests := []struct {
		name, src, hint string
		fix             *Platform
	}{
		{"flat", scaler("container", "", "x") + "defaults: {resources: {cpus: 0.5, memory: \"1 g\"}}\n", `nest them: resources: {limits: {cpus: 0.5, memory: 1 g}}`, nil},
		{"flat, quoted", "version: 1\ndefaults: {resources: {memory: \"a: b\", cpus: 1e21}}\nscalers: []\n", `nest them: resources: {limits: {memory: "a: b", cpus: 1e+21}}`, nil},
		{"flat, not a scalar", "version: 1\ndefaults: {resources: {memory: [1]}}\nscalers: []\n", `nest them: resources: {limits: {memory: …}}`, nil},
		{"flat beside limits", "version: 1\ndefaults: {resources: {cpus: 1, limits: {}}}\nscalers: []\n", "move cpus and memory into limits, or requests, beside which they stand here", nil},
		{"one platform", scaler("container", "", "linux, arm64", "ARM64"), "declare platform: {os: linux, arch: arm64} on this scaler, the platform its label sets name", &Platform{OS: "linux", Arch: "arm64"}},
		{"windows, x64 named", scaler("bare-metal", "", "windows, x64", "windows, amd64, big"), "declare platform: {os: windows, arch: x64} on this scaler, the platform its label sets name", &Platform{OS: "windows", Arch: "x64"}},
		{"macos, no arch", scaler("bare-metal", "", "macos, xcode"), "declare platform: {os: macos, arch: x64 or arm64} on this scaler; its labels leave the choice to you", nil},
		{"arm64 on bare metal, no os", scaler("bare-metal", "", "arm64"), "declare platform: {os: linux, macos or windows, arch: arm64} on this scaler; its labels leave the choice to you", nil},
		{"a synonym", scaler("container", "", "win32, x64"), "declare platform: {os: windows, arch: x64} on this scaler; its labels leave the choice to you", nil},
		{"two oses", scaler("container", "", "windows, macos, arm64"), "declare platform: {os: linux, macos or windows, arch: arm64} on this scaler; its labels leave the choice to you", nil},
		{"32-bit arm", scaler("container", "", "arm"), `"arm" names 32-bit ARM, which platform cannot declare: its arch is x64 or arm64`, nil},
		{"different platforms", scaler("container", "", "linux", "linux, arm64", "linux", "macos", "windows", "arm64", "aarch64"),
			"its label sets name different platforms (labelSets[0]: none, labelSets[1]: arm64, labelSets[2]: none, labelSets[3]: macos, …): give each platform a scaler of its own, with its platform: {os, arch}", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			problems := problemsBy016(t, tt.src)
			require.NotEmpty(t, problems)
			p := problems[0]
			assert.Equal(t, tt.hint, p.Hint)
			switch {
			case strings.HasPrefix(tt.hint, "nest them"):
				require.NotNil(t, p.Fix)
				assert.Nil(t, p.Fix.Platform)
				assert.Equal(t, Pos{File: p.File, Line: p.Line, Column: p.Column, Offset: p.Fix.Pos.Offset}, p.Fix.Pos, "at the block")
			case tt.fix != nil:
				require.NotNil(t, p.Fix)
				assert.Equal(t, tt.fix, p.Fix.Platform)
				assert.Equal(t, "s.yaml:3:5", p.Fix.Pos.String(), "at the scaler")
			default:
				assert.Nil(t, p.Fix)
			}
			assert.NotContains(t, p.String(), tt.hint, "String is the orchestrator's message")
		})
	}
	assert.Empty(t, problemsBy016(t, scaler("container", "    mandatoryLabels: [gpu]\n", "linux"))[0].Hint, "only the new refusals have one")
}

// TestApplyFixesRefuses: a fix where no such value starts, of a value an
// alias reaches, or of a block that is not flat alone; a file that does not
// parse; and the same fix twice, made once.
func TestApplyFixesRefuses(t *testing.T) {
	t.Parallel()
	src := "version: 1\nx: &r {cpus: 1}\ndefaults:\n  resources: {cpus: 1, limits: {}}\nscalers:\n  - name: s\n    type: container\n    maxAgents: 1\n    platform: {os: linux, arch: x64}\n" +
		"    labelSets:\n      - {labels: [x], image: i, resources: *r}\n      - {labels: [y], image: i, resources: {memory: 1g}}\n"
	at := func(line, col int) Pos { return Pos{Line: line, Column: col} }
	linux := &Platform{OS: "linux", Arch: "x64"}
	for _, tt := range []struct {
		name string
		fix  Fix
		why  Reason
	}{
		{"no value there", Fix{Pos: at(1, 1)}, ErrNoFix},
		{"reached through an alias", Fix{Pos: at(2, 7)}, ErrFixAliased},
		{"beside limits", Fix{Pos: at(4, 14)}, ErrNoFix},
		{"a scaler with a platform", Fix{Pos: at(6, 5), Platform: linux}, ErrNoFix},
		{"a platform for a block", Fix{Pos: at(12, 44), Platform: linux}, ErrNoFix},
		{"a nest for a scaler", Fix{Pos: at(6, 5)}, ErrNoFix},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			good := Fix{Pos: at(12, 44)}
			out, reps, err := ApplyFixes([]byte(src), []Fix{good, tt.fix})
			assert.Nil(t, out)
			assert.Nil(t, reps)
			var fe *FixError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tt.fix, fe.Fix)
			assert.ErrorIs(t, err, tt.why)
			assert.Contains(t, err.Error(), "scalerconfig.ApplyFixes: at ")
		})
	}
	out, reps, err := ApplyFixes([]byte(src), []Fix{{Pos: at(12, 44)}, {Pos: at(12, 44)}})
	require.NoError(t, err)
	assert.Len(t, reps, 1, "the same fix twice")
	assert.Contains(t, string(out), "resources: {limits: {memory: 1g}}}")
	assert.Equal(t, "s.yaml", func() string {
		_, reps, _ := ApplyFixes([]byte(src), []Fix{{Pos: Pos{File: "s.yaml", Line: 12, Column: 44}}})
		return reps[0].Pos.File
	}())

	_, _, err = ApplyFixes([]byte("a: [\n"), []Fix{{Pos: at(1, 1)}})
	var fe *FixError
	require.ErrorAs(t, err, &fe)
	var serr *yamljs.SyntaxError
	assert.ErrorAs(t, err, &serr)
	out, reps, err = ApplyFixes([]byte(src), nil)
	assert.Equal(t, src, string(out))
	assert.Nil(t, reps)
	assert.NoError(t, err)
}

// TestVerifyFixes: the read-back refuses edited bytes that read as more
// than the fixes, or do not parse.
func TestVerifyFixes(t *testing.T) {
	t.Parallel()
	old, err := yamljs.Parse([]byte("a: {cpus: 1}\nb: &x [1]\nc: *x\ns: {name: n, labelSets: []}\n"))
	require.NoError(t, err)
	block, scaler := old.Pairs[0].Value, old.Pairs[3].Value
	p := &Platform{OS: "linux", Arch: "arm64"}
	done := func() map[*yamljs.Node]*Platform { return map[*yamljs.Node]*Platform{block: nil, scaler: p} }
	assert.NoError(t, verifyFixes(old, []byte("a: {limits: {cpus: 1}}\nb: &x [1]\nc: *x\ns: {name: n, platform: {os: linux, arch: arm64}, labelSets: []}\n"), done()))
	for _, edited := range []string{
		"a: {cpus: 1}\nb: &x [1]\nc: *x\ns: {name: n, platform: {os: linux, arch: arm64}, labelSets: []}\n",
		"a: {limits: {cpus: 2}}\nb: &x [1]\nc: *x\ns: {name: n, platform: {os: linux, arch: arm64}, labelSets: []}\n",
		"a: {limits: {cpus: 1}}\nb: &x [1]\nc: [2]\ns: {name: n, platform: {os: linux, arch: arm64}, labelSets: []}\n",
		"a: {limits: {cpus: 1}}\nb: &x [1]\nc: *x\ns: {name: n, labelSets: []}\n",
		"a: {limits: {cpus: 1}}\nb: &x [1]\nc: *x\ns: {name: n, platform: {os: linux, arch: x64}, labelSets: []}\n",
		"a: {limits: {cpus: 1}}\nb: &x [1]\nc: *x\ns: {name: m, platform: {os: linux, arch: arm64}, labelSets: []}\n",
		"a: {limits: {cpus: 1}}\nb: &x [1]\nc: *x\ns: [1]\n",
		"a: [\n",
	} {
		assert.ErrorIs(t, verifyFixes(old, []byte(edited), done()), ErrFixChanged, "%q", edited)
	}
	assert.True(t, errors.Is(ErrFixChanged, ErrFixChanged))
	assert.Equal(t, "the fix would change more than it fixes", ErrFixChanged.Error())
	assert.Equal(t, "no flat resources block, or scaler without platform, to fix at this position", ErrNoFix.Error())
}

// FuzzApplyFixes: ApplyFixes never panics, and the fixes of a file's
// problems, when it makes them, leave a file no problem of which has a
// Fix, and that 0.12.0's rules read as they read the old one, but for the
// requests a nested block no longer mirrors.
func FuzzApplyFixes(f *testing.F) {
	for _, c := range readLoadCases(f) {
		f.Add([]byte(c.Files[c.Main]))
	}
	f.Add([]byte("version: 1\ndefaults:\n  resources:\n    cpus: 1\nscalers:\n  - {name: a, type: container, maxAgents: 1, labelSets: [{labels: [arm64], image: i}]}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fsys := fstest.MapFS{"s.yaml": {Data: src}}
		_, err := Load(fsys, "s.yaml", "")
		var e *Error
		if !errors.As(err, &e) {
			return
		}
		fixes := fixesOf(e.Problems)
		out, _, err := ApplyFixes(src, fixes)
		if err != nil || fixes == nil {
			return
		}
		nested := map[string]bool{}
		for _, p := range e.Problems {
			if p.Fix != nil && p.Fix.Platform == nil {
				nested[p.Path] = true
			}
		}
		_, err = Load(fstest.MapFS{"s.yaml": {Data: out}}, "s.yaml", "")
		if errors.As(err, &e) {
			for _, p := range e.Problems {
				require.False(t, nested[p.Path] && p.Message == flatResourcesMessage, "a nested block is refused again: %s", p)
			}
		}
		before, errBefore := ScanOptions{Rules: Rules012}.Load(fsys, "s.yaml", "")
		after, errAfter := ScanOptions{Rules: Rules012}.Load(fstest.MapFS{"s.yaml": {Data: out}}, "s.yaml", "")
		require.Equal(t, errBefore == nil, errAfter == nil, "%v / %v", errBefore, errAfter)
		if errBefore == nil {
			require.Equal(t, len(before.Scalers), len(after.Scalers))
			for i := range before.Scalers {
				for j, ls := range before.Scalers[i].LabelSets {
					if ls.Resources != nil {
						require.Equal(t, ls.Resources.Limits, after.Scalers[i].LabelSets[j].Resources.Limits)
					}
				}
			}
		}
	})
}
