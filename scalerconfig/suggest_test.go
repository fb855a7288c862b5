package scalerconfig

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// problemsOf loads the files, the first the main file, by the rules r,
// and returns the problems' lines as Problem.String writes them.
func problemsOf(t *testing.T, r Rules, files map[string]string, dir string) []string {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	_, err := ScanOptions{Rules: r}.Load(fsys, "s.yaml", dir)
	var e *Error
	require.True(t, errors.As(err, &e), "%v", err)
	var lines []string
	for _, p := range e.Problems {
		lines = append(lines, p.String())
	}
	return lines
}

const suggestHead = "version: 1\nscalers:\n  - name: local\n    type: container\n"

// TestDidYouMean loads configs with misspelt keys: the problem of an
// unknown key names the key it is close to, and the problem of the key its
// mapping then lacks names the unknown key; the orchestrator's message
// stays whole before the suggestion.
func TestDidYouMean(t *testing.T) {
	t.Parallel()
	labelSets := "    labelSets: [{labels: [x], image: i}]\n"
	tests := []struct {
		name  string
		rules Rules
		files map[string]string
		dir   string
		want  []string
	}{
		{"a misspelt required key", Rules016, map[string]string{"s.yaml": suggestHead + "    maxAgnets: 2\n" + labelSets}, "", []string{
			`s.yaml:3:5: scalers[0].maxAgents: Invalid input: expected number, received undefined; did you mean "maxAgents" for "maxAgnets"?`,
			`s.yaml:5:5: scalers[0]: Unrecognized key: "maxAgnets"; did you mean "maxAgents"?`,
		}},
		{"a key equal but for case", Rules016, map[string]string{"s.yaml": suggestHead + "    maxagents: 2\n" + labelSets}, "", []string{
			`s.yaml:3:5: scalers[0].maxAgents: Invalid input: expected number, received undefined; did you mean "maxAgents" for "maxagents"?`,
			`s.yaml:5:5: scalers[0]: Unrecognized key: "maxagents"; did you mean "maxAgents"?`,
		}},
		{"an optional key the orchestrator's rule asks for", Rules016, map[string]string{"s.yaml": suggestHead + "    maxAgents: 2\n    labelSets:\n      - labels: [x]\n        imagee: i\n"}, "", []string{
			`s.yaml:8:9: scalers[0].labelSets[0]: Unrecognized key: "imagee"; did you mean "image"?`,
			`s.yaml:7:9: scalers[0].labelSets[0].image: Container scaler "local" label set [0] requires an 'image' field; did you mean "image" for "imagee"?`,
		}},
		{"a key the top level drops, and the one it lacks", Rules016, map[string]string{"s.yaml": "version: 1\nscaler: []\n"}, "", []string{
			`s.yaml:1:1: scalers: Invalid input: expected array, received undefined; did you mean "scalers" for "scaler"?`,
		}},
		{"several unknown keys, some close", Rules016, map[string]string{"s.yaml": suggestHead + "    maxAgents: 2\n    labelSets: [{labels: [x], image: i, imagePullpolicy: Always, frob: 1, volume: [a]}]\n"}, "", []string{
			`s.yaml:6:41: scalers[0].labelSets[0]: Unrecognized keys: "imagePullpolicy", "frob", "volume"; did you mean "imagePullPolicy" for "imagePullpolicy", "volumes" for "volume"?`,
		}},
		{"no key close enough", Rules016, map[string]string{"s.yaml": suggestHead + "    maxAgents: 2\n" + labelSets + "    platform: {os: linux, arch: x64, libc: musl}\n"}, "", []string{
			`s.yaml:7:38: scalers[0].platform: Unrecognized key: "libc"`,
		}},
		{"a short key: one edit is too many", Rules016, map[string]string{"s.yaml": suggestHead + "    maxAgents: 2\n" + labelSets + "    platform: {os: linux, arch: x64, xs: 1}\n"}, "", []string{
			`s.yaml:7:38: scalers[0].platform: Unrecognized key: "xs"`,
		}},
		// By 0.12.0's rules the resources block is a union of two forms: a
		// key close to one a form allows, in that form, names it.
		{"in a form of the resources union: nested", Rules012, map[string]string{"s.yaml": suggestHead + "    maxAgents: 2\n    labelSets: [{labels: [x], image: i, resources: {limits: {cpu: 2}}}]\n"}, "", []string{
			`s.yaml:6:52: scalers[0].labelSets[0].resources: Invalid input; did you mean "cpus" for "cpu"?`,
		}},
		{"in a form of the resources union: flat", Rules012, map[string]string{"s.yaml": suggestHead + "    maxAgents: 2\n    labelSets: [{labels: [x], image: i, resources: {cpu: 2, memroy: 1g}}]\n"}, "", []string{
			`s.yaml:6:52: scalers[0].labelSets[0].resources: Invalid input; did you mean "cpus" for "cpu", "memory" for "memroy"?`,
		}},
		// From 0.16.0 it is the nested form alone.
		{"in the nested resources", Rules016, map[string]string{"s.yaml": suggestHead + "    maxAgents: 2\n    labelSets: [{labels: [x], image: i, resources: {limits: {cpu: 2}}}]\n"}, "", []string{
			`s.yaml:6:62: scalers[0].labelSets[0].resources.limits: Unrecognized key: "cpu"; did you mean "cpus"?`,
		}},
		{"in the nested resources, a key of its own", Rules016, map[string]string{"s.yaml": suggestHead + "    maxAgents: 2\n    labelSets: [{labels: [x], image: i, resources: {limit: {cpus: 2}}}]\n"}, "", []string{
			`s.yaml:6:53: scalers[0].labelSets[0].resources: Unrecognized key: "limit"; did you mean "limits"?`,
		}},
		{"in a drop-in", Rules016, map[string]string{"s.yaml": "version: 1\nscalers: []\n", "d/a.yaml": "scalers:\n  - {name: b, type: container, maxAgents: 1, lableSets: [{labels: [x], image: i}]}\n"}, "d", []string{
			`d/a.yaml:2:5: scalers[0].labelSets: Invalid input: expected array, received undefined; did you mean "labelSets" for "lableSets"?`,
			`d/a.yaml:2:46: scalers[0]: Unrecognized key: "lableSets"; did you mean "labelSets"?`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, problemsOf(t, tt.rules, tt.files, tt.dir))
		})
	}
}

// TestDidYouMeanInErrorText: Error's lines carry the suggestion too, cut
// like the rest of the line when the file's key is long.
func TestDidYouMeanInErrorText(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"s.yaml": {Data: []byte(suggestHead + "    maxAgnets: 2\n    labelSets: [{labels: [x], image: i}]\n")}}
	_, err := Load(fsys, "s.yaml", "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "\ns.yaml:5:5: scalers[0]: Unrecognized key: \"maxAgnets\"; did you mean \"maxAgents\"?")

	long := strings.Repeat("x", 100000)
	fsys = fstest.MapFS{"s.yaml": {Data: []byte(suggestHead + "    maxAgents: 2\n    labelSets: [{labels: [x], image: i}]\n    " + long + ": 1\n")}}
	_, err = Load(fsys, "s.yaml", "")
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Empty(t, e.Problems[0].Suggestions, "a key far longer than any allowed one")
}

// TestSuggestionsOfLoadCases: across the load cases, every suggestion
// pairs a key the file writes with one its object allows, and only
// problems of unknown or missing keys, or of a union whose forms found
// unknown keys, have one.
func TestSuggestionsOfLoadCases(t *testing.T) {
	t.Parallel()
	n := 0
	for _, c := range readLoadCases(t) {
		_, err := Load(c.fsOf(), c.Main, c.Dir)
		var e *Error
		if !errors.As(err, &e) {
			continue
		}
		for _, p := range e.Problems {
			for _, s := range p.Suggestions {
				n++
				assert.NotEqual(t, s.Key, s.Meant, "%s: %s", c.Name, p)
				assert.Contains(t, strings.Join(c.filesText(), "\n"), s.Key, "%s: %s", c.Name, p)
				assert.True(t, p.Code == "unrecognized_keys" || p.Code == "invalid_union" || strings.HasSuffix(p.Path, s.Meant), "%s: %s", c.Name, p)
			}
		}
	}
	assert.GreaterOrEqual(t, n, 5, "the load cases' typos have suggestions")
}

func (c loadCase) filesText() []string {
	var out []string
	for _, text := range c.Files {
		out = append(out, text)
	}
	return out
}

func TestEditDistance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want int
	}{
		{"maxagnets", "maxagents", 1}, // two neighbours swapped
		{"imagee", "image", 1},
		{"image", "image", 0},
		{"cpu", "cpus", 1},
		{"gpu", "cpus", 2},
		{"ca", "abc", 3}, // the optimal string alignment distance, not Damerau's 2
		{"labels", "lables", 1},
		{"memory", "memroy", 1},
		{"a", "abcd", 3},
		{"", "ab", 2},
		{"é", "e", 1}, // in runes, not bytes
		{strings.Repeat("a", 50), strings.Repeat("b", 50), 3},
	}
	for _, tt := range tests {
		t.Run(tt.a+" "+tt.b, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, editDistance(tt.a, tt.b), "%q %q", tt.a, tt.b)
			assert.Equal(t, tt.want, editDistance(tt.b, tt.a), "%q %q", tt.b, tt.a)
		})
	}
}
