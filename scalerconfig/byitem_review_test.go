package scalerconfig

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// reviewScaler is a valid scaler in block style at the list's column
// (indent is the column of its "-").
func reviewScaler(indent, name string) string {
	return indent + "- name: " + name + "\n" +
		indent + "  type: container\n" +
		indent + "  maxAgents: 1\n" +
		indent + "  labelSets:\n" +
		indent + "    - labels: [x]\n" +
		indent + "      image: reg/i:1\n"
}

// reviewByItemTexts are configs that the by-item path reads, built to make
// it disagree with the whole file's: the scalers key first or last, other
// root keys around it, keys the root strips, pools defined after the list
// or missing, block scalars at the end of an item, comments and blank
// lines between items, line endings.
var reviewByItemTexts = []string{
	// scalers first, pools after
	"scalers:\n" + reviewScaler("  ", "a") + "  - {name: b, type: container, maxAgents: 1, machinePool: p, labelSets: [{labels: [y], image: i}]}\n" +
		"machinePools:\n  - name: p\n    cap: {maxCpu: 2}\nversion: 1\n",
	// scalers last, compact form, no final line break
	"version: 1\nglobalMaxAgents: 3\nscalers:\n" + reviewScaler("", "a") + "- {name: b, type: container, maxAgents: 1, labelSets: [{labels: [y], image: i}]}",
	// unknown root keys around the list (stripped), a merge key written
	// plainly (no merge in YAML 1.2)
	"x-extra: 1\n<<: {version: 2}\nversion: 1\nscalers:\n" + reviewScaler("  ", "a") + "zzz:\n  - 1\n",
	// a machinePool no pool defines: refused both ways
	"version: 1\nscalers:\n  - {name: b, type: container, maxAgents: 1, machinePool: p, labelSets: [{labels: [y], image: i}]}\n",
	// a machinePool defined twice: refused both ways
	"version: 1\nmachinePools:\n  - {name: p, cap: {}}\n  - {name: p, cap: {}}\nscalers:\n" + reviewScaler("  ", "a"),
	// an item that is an empty "-"
	"version: 1\nscalers:\n" + reviewScaler("  ", "a") + "  -\n" + reviewScaler("  ", "c"),
	// an image in a keep block scalar at the end of the last item, then
	// blank lines and a comment at column 1
	"version: 1\nscalers:\n  - name: a\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [x]\n        image: |+\n          reg/i:1\n\n\n# end\nfirecracker: {}\n",
	// indentation indicators
	"version: 1\nscalers:\n  - name: a\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [x]\n        image: |2\n           reg/i:1\n  - name: b\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [x]\n        image: >-1\n         reg/i:2\n",
	// comments at column 1 and blank lines with spaces between items
	"version: 1\nscalers:   # the list\n   \n# one\n" + reviewScaler("  ", "a") + "  \n# two\n\n" + reviewScaler("  ", "b") + "# after\n\nfirecracker:\n  cidr: 10.2.0.0/24\n",
	// CRLF
	"version: 1\r\nscalers:\r\n  - name: a\r\n    type: container\r\n    maxAgents: 1\r\n    labelSets:\r\n      - labels: [x]\r\n        image: reg/i:1\r\nfirecracker: {}\r\n",
	// a "scalers" key written quoted after the list: YAML refuses both
	"version: 1\nscalers:\n" + reviewScaler("  ", "a") + "\"scalers\": []\n",
	// a root key written twice around the list
	"version: 1\nscalers:\n" + reviewScaler("  ", "a") + "version: 1\n",
	// a plain multi-line name continuing in the item
	"version: 1\nscalers:\n- name: a\n   b\n  type: container\n  maxAgents: 1\n  labelSets: [{labels: [x], image: 'reg/%i:1'}]\n",
	// an explicit key inside an item
	"version: 1\nscalers:\n  - ? name\n    : a\n    type: container\n    maxAgents: 1\n    labelSets: [{labels: [x], image: \"reg/i:1\"}]\n",
	// roles, env and defaults read from the root
	"version: 1\ndefaults:\n  resources: {cpus: 1}\nscalers:\n  - name: a\n    type: container\n    maxAgents: 1\n    roles: [all]\n    labelSets:\n      - labels: [' X ']\n        image: i\n        env: {A: b, __proto__: c}\n",
	// a scaler whose name is not a string: refused both ways
	"version: 1\nscalers:\n  - {name: 1, type: container, maxAgents: 1, labelSets: [{labels: [y], image: i}]}\n",
	// a version after the list that the schema refuses
	"scalers:\n" + reviewScaler("  ", "a") + "version: 2\n",
	// the document ends with "..."
	"version: 1\nscalers:\n" + reviewScaler("  ", "a") + "...\n",
	// a NUL byte in a value
	"version: 1\nscalers:\n  - name: \"a\\0\"\n    type: container\n    maxAgents: 1\n    labelSets: [{labels: [x], image: \"i\x00\"}]\n",
}

// TestLoadByItemReview holds the by-item path, Scan and the edits by group
// to the whole file's on reviewByItemTexts.
func TestLoadByItemReview(t *testing.T) {
	read := 0
	for _, src := range reviewByItemTexts {
		if checkByItem(t, []byte(src)) {
			read++
		}
		fsys := fstest.MapFS{"s.yaml": {Data: []byte(src)}}
		checkScan(t, fsys, "s.yaml", "")
		if cfg, err := Load(fsys, "s.yaml", ""); err == nil {
			sameEdits(t, []byte(src), everyImage(cfg, func(i int) string { return "reg/pinned:" + string(rune('a'+i)) }))
		}
	}
	assert.Greater(t, read, len(reviewByItemTexts)/2, "texts read by item")
}

// emptyImageConfig is a config whose first scaler's last label set has an
// image written as an empty block scalar followed by a blank line and a
// line of one space (a bare-metal label set may have an empty image). A
// long comment makes the first scaler a group of its own (groupBytes).
func emptyImageConfig() []byte {
	return []byte("version: 1\nscalers:\n  - name: a\n    type: bare-metal\n    maxAgents: 1\n" +
		"    # " + strings.Repeat("x", groupBytes) + "\n" +
		"    labelSets:\n      - labels: [x]\n        binaryPath: /b\n        image: |\n\n \n" +
		"  - name: b\n    type: bare-metal\n    maxAgents: 1\n    labelSets: [{labels: [y], binaryPath: /b}]\n")
}

// TestLoadByItemEmptyBlockImage: the by-item path gives the image's
// ImageEnd after the line of spaces (line 13), the whole file before it
// (line 12), so Load's Config is not the whole file's; and EditImages by
// groups refuses the edit of that image with another error than reading
// whole ("the image is a block scalar" against "no string value at this
// position"). The fix is SplitItems' (TestSplitItemsEmptyBlockScalar in
// internal/yamljs).
func TestLoadByItemEmptyBlockImage(t *testing.T) {
	src := emptyImageConfig()
	checkByItem(t, src)
	cfg, err := load(fstest.MapFS{"s.yaml": {Data: src}}, "s.yaml", "", yamljs.Parse, false)
	require.NoError(t, err)
	sameEdits(t, src, everyImage(cfg, func(int) string { return "reg/i:2" }))
}

// TestLoadByItemGroupEnds ends a scaler that is a group of its own (a
// comment longer than groupBytes) with a label set's image in each style,
// then blank lines, lines of spaces or comments, then another scaler, a
// root key or the end of the file, and holds the by-item Config to the
// whole file's: where a group ends, a part's text ends, and what yaml
// reads at the end of a text must be what it reads before the next item.
// The image written as an empty block scalar is left to
// TestLoadByItemEmptyBlockImage.
func TestLoadByItemGroupEnds(t *testing.T) {
	images := []string{"reg/i:1", "\"reg/i:1\"", "'reg/i:1'", "''", "|\n          reg/i:1", ">-\n          reg/i:1",
		"|+\n          reg/i:1\n", "|2\n           reg/i:1", "reg/i:1 # c", "reg/i:1\n          :2"}
	trails := []string{"", "\n", "\n \n", "   \n", "# c\n", "    # c\n", "\n  \n\n", "\n        \n"}
	nexts := []string{"  - {name: b, type: bare-metal, maxAgents: 1, labelSets: [{labels: [y], binaryPath: /b}]}\n", "firecracker: {}\n", ""}
	pad := "    # " + strings.Repeat("x", groupBytes) + "\n"
	read := 0
	for _, image := range images {
		for _, trail := range trails {
			for _, next := range nexts {
				src := "version: 1\nscalers:\n  - name: a\n    type: bare-metal\n    maxAgents: 1\n" + pad +
					"    labelSets:\n      - labels: [x]\n        binaryPath: /b\n        image: " + image + "\n" + trail + next
				if checkByItemLogged(t, src) {
					read++
				}
			}
		}
	}
	assert.Equal(t, len(images)*len(trails)*len(nexts), read, "configs read by item")
}

// checkByItemLogged is checkByItem that names the config it fails on,
// without the padding.
func checkByItemLogged(t *testing.T, src string) bool {
	t.Helper()
	defer func() {
		if t.Failed() {
			t.Logf("config: %q", strings.Replace(src, strings.Repeat("x", groupBytes), "…", 1))
		}
	}()
	return checkByItem(t, []byte(src))
}
