package scalerconfig

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// checkByItem checks that loadByItem, when it reads src, gives the Config
// that reading the whole file gives, positions included, by each of the
// readings (scanReadings). It reports whether loadByItem read it by the
// newest rules.
func checkByItem(t testing.TB, src []byte) bool {
	t.Helper()
	newest := false
	for i, opts := range scanReadings() {
		read := readingOf(opts)
		got, _, ok, _ := loadByItem(files{}, "s.yaml", src, "", read, groupBytes, nil)
		want, err := scan(files{fsys: fstest.MapFS{"s.yaml": {Data: src}}}, "s.yaml", "", yamljs.Parse, false, opts, nil)
		want = unstamped(want)
		if ok {
			require.NoError(t, err, "read by item, refused whole")
			require.Equal(t, want, got)
		}
		// Groups of one item, and of a few: every item ends a group.
		for _, group := range []int{1, 300} {
			small, _, smallOK, _ := loadByItem(files{}, "s.yaml", src, "", read, group, nil)
			if smallOK {
				require.NoError(t, err, "read by item in groups of %d bytes, refused whole", group)
				require.Equal(t, want, small, "groups of %d bytes", group)
			}
		}
		newest = newest || i == 0 && ok
	}
	return newest
}

// scanReadings are the readings the by-item tests compare with the whole
// file's: the newest rules, first, then on a Windows host, then 0.12.0's.
func scanReadings() []ScanOptions {
	return []ScanOptions{{}, {Host: Platform{OS: "windows"}}, {Rules: Rules012}}
}

// byItemConfig is a config of n label sets in a few scalers, written in
// the styles a scaler config is written in.
func byItemConfig(n int) []byte {
	var b strings.Builder
	b.WriteString("# scalers\nversion: 1\nmachinePools:\n  - name: big\n    cap: {maxCpu: 8}\nscalers:\n")
	for i := range n {
		switch i % 50 {
		case 0:
			fmt.Fprintf(&b, "  - name: \"pool-%d\"   # comment\n    type: container\n    maxAgents: 4\n    machinePool: big\n    labelSets:\n", i)
		case 25:
			fmt.Fprintf(&b, "\n  # a bare-metal pool\n  - {name: bm-%d, type: bare-metal, maxAgents: 2,\n     labelSets: [{labels: [gpu], binaryPath: /opt/kici}]}\n", i)
			fmt.Fprintf(&b, "  - name: c-%d\n    type: container\n    maxAgents: 1\n    labelSets:\n", i)
		}
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "      - labels: [Docker, 'l%d']\n        image: 'reg/kici-agent:0.20.%d'\n", i, i%9)
		case 1:
			fmt.Fprintf(&b, "      - labels:\n          - \" X%d \"\n        image: >-\n          reg/kici-agent:latest\n        imagePullPolicy: Always\n", i)
		default:
			fmt.Fprintf(&b, "      - {labels: [l%d], image: reg/kici-agent@sha256:%064d, resources: {limits: {cpus: 2, memory: 1g}}}\n", i, i)
		}
	}
	b.WriteString("firecracker:\n  cidr: 10.1.0.0/24\n")
	return []byte(b.String())
}

func TestLoadByItem(t *testing.T) {
	t.Parallel()
	read := 0
	for _, c := range readLoadCases(t) {
		if checkByItem(t, []byte(c.Files[c.Main])) {
			read++
		}
	}
	t.Logf("%d of the generator's main files read by item", read)
	assert.Positive(t, read)
	require.True(t, checkByItem(t, byItemConfig(400)))
}

// TestLoadByItemRefuses checks that loadByItem leaves to the whole file
// what only the whole file can say.
func TestLoadByItemRefuses(t *testing.T) {
	t.Parallel()
	for name, src := range map[string]string{
		"an issue":                "version: 1\nscalers:\n  - name: a\n    type: container\n    maxAgents: 0\n    labelSets: [{labels: [x], image: i}]\n",
		"a YAML error in an item": "version: 1\nscalers:\n  - name: a\n    name: b\n",
		"a YAML error outside":    "version: 1\nversion: 1\nscalers:\n  - name: a\n",
		"an unknown machinePool":  "version: 1\nscalers:\n  - {name: a, type: container, maxAgents: 1, machinePool: p, labelSets: [{labels: [x], image: i}]}\n",
		"scalers not a list":      "version: 1\nscalers: 1\n",
		"no scalers":              "version: 1\n",
		"scalers a set":           "version: 1\nscalers: !!set {a}\n",
		"a YAML error, not plain": "version: 1\nscalers: []\nscalers: []\n",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, _, ok, _ := loadByItem(files{}, "s.yaml", []byte(src), "", reading{}, groupBytes, nil)
			assert.False(t, ok)
			got, err := Load(fstest.MapFS{"s.yaml": {Data: []byte(src)}}, "s.yaml", "")
			want, werr := load(fstest.MapFS{"s.yaml": {Data: []byte(src)}}, "s.yaml", "", yamljs.Parse, false)
			assert.Equal(t, werr, err)
			assert.Equal(t, want, got)
		})
	}
}

// TestLoadByItemMainWhole checks that a main file in another form than the
// plain one, whose scalers key holds a list, is read whole and its scalers
// one at a time, as the whole config's reading reads them.
func TestLoadByItemMainWhole(t *testing.T) {
	t.Parallel()
	scaler := "{name: %s, type: container, maxAgents: 1, labelSets: [{labels: [x], image: i}]}"
	for name, src := range map[string]string{
		"an alias":     "version: 1\nscalers:\n  - &a " + fmt.Sprintf(scaler, "a") + "\nx: *a\n",
		"a flow list":  "version: 1\nscalers: [" + fmt.Sprintf(scaler, "a") + ", " + fmt.Sprintf(scaler, "b") + "]\n",
		"an empty one": "version: 1\nscalers: []\n",
		"a tag":        "version: 1\nscalers: !!seq\n  - " + fmt.Sprintf(scaler, "a") + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, _, ok, _ := loadByItem(files{}, "s.yaml", []byte(src), "", reading{}, groupBytes, nil)
			assert.True(t, ok)
			checkScan(t, fstest.MapFS{"s.yaml": {Data: []byte(src)}}, "s.yaml", "")
		})
	}
}

func FuzzLoadByItem(f *testing.F) {
	for _, c := range readLoadCases(f) {
		f.Add([]byte(c.Files[c.Main]))
	}
	f.Add(byItemConfig(60))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkByItem(t, src)
		checkScan(t, fstest.MapFS{"s.yaml": {Data: src}}, "s.yaml", "")
	})
}

// checkScan checks, by each of the readings (scanReadings), that
// Location.Scan hands over the scalers of the whole config's Config (read
// whole, not by item), in order, and returns the rest of it, or its error;
// and that Load, and Scan without each, give that Config or error.
func checkScan(t testing.TB, fsys fstest.MapFS, main, dir string) {
	t.Helper()
	for _, opts := range scanReadings() {
		checkScanBy(t, opts, fsys, main, dir)
	}
}

// checkScanBy is checkScan by the options' reading.
func checkScanBy(t testing.TB, opts ScanOptions, fsys fstest.MapFS, main, dir string) {
	t.Helper()
	want, wantErr := scan(files{fsys: fsys}, main, dir, yamljs.Parse, false, opts, nil)
	got, err := opts.Load(fsys, main, dir)
	require.Equal(t, wantErr, err)
	require.Equal(t, want, got)
	if opts == (ScanOptions{}) {
		got, err = Load(fsys, main, dir)
		require.Equal(t, wantErr, err)
		require.Equal(t, want, got)
	}
	loc := Location{Path: main, Dir: dir}
	got, err = loc.Scan(fsys, opts, nil)
	require.Equal(t, wantErr, err)
	require.Equal(t, want, got)
	var scalers []Scaler
	got, err = loc.Scan(fsys, opts, func(i int, s *Scaler) {
		require.Equal(t, len(scalers), i)
		scalers = append(scalers, *s)
	})
	require.Equal(t, wantErr, err)
	if wantErr != nil {
		require.Nil(t, got)
		return
	}
	require.Nil(t, got.Scalers)
	require.Equal(t, len(want.Scalers), len(scalers))
	if len(scalers) > 0 {
		require.Equal(t, want.Scalers, scalers)
	}
	got.Scalers = want.Scalers
	require.Equal(t, want, got)
}

// TestLoadByItemDropIns reads configs with drop-ins by item and whole:
// drop-ins that add scalers, that add none, that are not in the plain
// form (read whole, each on its own), that do not parse, and a folder that
// holds no drop-in.
func TestLoadByItemDropIns(t *testing.T) {
	t.Parallel()
	main := byItemConfig(300)
	scaler := "scalers:\n  - name: %s\n    type: container\n    maxAgents: 1\n    labelSets: [{labels: [x], image: 'kici-agent:0.20.0'}]\n"
	byItem := map[string]bool{"two drop-ins": true, "no scalers": true, "not a drop-in": true, "empty folder": true,
		"sorted as JavaScript": true, "flow list": true, "alias": true}
	for name, drops := range map[string]map[string]string{
		"two drop-ins":         {"10-a.yaml": fmt.Sprintf(scaler, "a"), "20-b.yml": "# b\n" + fmt.Sprintf(scaler, "b") + "other: 1\n"},
		"no scalers":           {"10-a.yaml": "other: 1\n", "20-b.yaml": "", "30-c.yaml": "scalers: []\n", "40-d.yaml": "- a list\n"},
		"not a drop-in":        {"10-a.txt": "scalers: [1]\n", "20-b.yaml": fmt.Sprintf(scaler, "b")},
		"flow list":            {"10-a.yaml": "scalers: [{name: f, type: container, maxAgents: 1, labelSets: [{labels: [x], image: i}]}]\n"},
		"alias":                {"10-a.yaml": "x: &a 1\n" + fmt.Sprintf(scaler, "a")},
		"YAML error":           {"10-a.yaml": fmt.Sprintf(scaler, "a") + "other: 1\nother: 2\n"},
		"YAML error, no list":  {"10-a.yaml": "a: 1\na: 2\n"},
		"issue":                {"10-a.yaml": "scalers:\n  - name: bad\n"},
		"machinePool unknown":  {"10-a.yaml": "scalers:\n  - {name: p, type: container, maxAgents: 1, machinePool: nowhere, labelSets: [{labels: [x], image: i}]}\n"},
		"empty folder":         {},
		"sorted as JavaScript": {"\U0001F600.yaml": fmt.Sprintf(scaler, "emoji"), "\uE000.yaml": fmt.Sprintf(scaler, "private"), "B.yaml": fmt.Sprintf(scaler, "B"), "a.yaml": fmt.Sprintf(scaler, "a")},
		"a folder named .yaml": {"x.yaml/inside": ""},
		"name not UTF-8":       {"\xff.yaml": fmt.Sprintf(scaler, "a")},
	} {
		// The main file in the plain form, and with no scalers of its own
		// in a flow list, as a config of drop-ins often has.
		for _, main := range [][]byte{main, []byte("version: 1\nscalers: []\n")} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				fsys := fstest.MapFS{"etc/s.yaml": {Data: main}, "etc/s.d": {Mode: fs.ModeDir | 0o755}}
				for n, text := range drops {
					fsys["etc/s.d/"+n] = &fstest.MapFile{Data: []byte(text)}
				}
				checkScan(t, fsys, "etc/s.yaml", "etc/s.d")
				_, _, ok, _ := loadByItem(files{fsys: fsys}, "etc/s.yaml", main, "etc/s.d", reading{}, groupBytes, nil)
				assert.Equal(t, byItem[name], ok, "read by item")
			})
		}
	}
}

func FuzzLoadByItemDropIn(f *testing.F) {
	for _, c := range readLoadCases(f) {
		for name, text := range c.Files {
			if name != c.Main && c.Dir != "" {
				f.Add([]byte(c.Files[c.Main]), []byte(text))
			}
		}
	}
	f.Add(byItemConfig(60), []byte("scalers:\n- {name: d, type: container, maxAgents: 1, labelSets: [{labels: [x], image: i}]}\n"))
	f.Fuzz(func(t *testing.T, main, drop []byte) {
		checkScan(t, fstest.MapFS{"s.yaml": {Data: main}, "d/a.yaml": {Data: drop}}, "s.yaml", "d")
	})
}

func TestScan(t *testing.T) {
	t.Parallel()
	for _, c := range readLoadCases(t) {
		checkScan(t, c.fsOf(), c.Main, c.Dir)
	}
	big := byItemConfig(2000)
	checkScan(t, fstest.MapFS{"s.yaml": {Data: big}}, "s.yaml", "")
	// Refused after a few groups were handed over: by a scaler, by the
	// top level's check of the machinePools, and by a YAML error.
	for _, bad := range []string{
		"  - {name: bad, type: container, maxAgents: 0, labelSets: [{labels: [x], image: i}]}\n",
		"  - {name: bad, type: container, maxAgents: 1, machinePool: nowhere, labelSets: [{labels: [x], image: i}]}\n",
		"  - {name: bad, name: twice}\n",
	} {
		src := append([]byte(nil), big...)
		at := bytes.LastIndex(src, []byte("firecracker:"))
		src = append(src[:at], append([]byte(bad), src[at:]...)...)
		var handed int
		_, err := Location{Path: "s.yaml"}.Scan(fstest.MapFS{"s.yaml": {Data: src}}, ScanOptions{}, func(int, *Scaler) { handed++ })
		var e *Error
		require.ErrorAs(t, err, &e)
		assert.Greater(t, handed, 100, "scalers handed over before the refusal")
		checkScan(t, fstest.MapFS{"s.yaml": {Data: src}}, "s.yaml", "")
	}
}

// blockScaler is a valid scaler in block style at the list's column
// (indent is the column of its "-").
func blockScaler(indent, name string) string {
	return indent + "- name: " + name + "\n" +
		indent + "  type: container\n" +
		indent + "  maxAgents: 1\n" +
		indent + "  labelSets:\n" +
		indent + "    - labels: [x]\n" +
		indent + "      image: reg/i:1\n"
}

// byItemEdgeTexts are configs that the by-item path reads, built to make
// it disagree with the whole file's: the scalers key first or last, other
// root keys around it, keys the root strips, pools defined after the list
// or missing, block scalars at the end of an item, comments and blank
// lines between items, line endings.
var byItemEdgeTexts = []string{
	// scalers first, pools after
	"scalers:\n" + blockScaler("  ", "a") + "  - {name: b, type: container, maxAgents: 1, machinePool: p, labelSets: [{labels: [y], image: i}]}\n" +
		"machinePools:\n  - name: p\n    cap: {maxCpu: 2}\nversion: 1\n",
	// scalers last, compact form, no final line break
	"version: 1\nglobalMaxAgents: 3\nscalers:\n" + blockScaler("", "a") + "- {name: b, type: container, maxAgents: 1, labelSets: [{labels: [y], image: i}]}",
	// unknown root keys around the list (stripped), a merge key written
	// plainly (no merge in YAML 1.2)
	"x-extra: 1\n<<: {version: 2}\nversion: 1\nscalers:\n" + blockScaler("  ", "a") + "zzz:\n  - 1\n",
	// a machinePool no pool defines: refused both ways
	"version: 1\nscalers:\n  - {name: b, type: container, maxAgents: 1, machinePool: p, labelSets: [{labels: [y], image: i}]}\n",
	// a machinePool defined twice: refused both ways
	"version: 1\nmachinePools:\n  - {name: p, cap: {}}\n  - {name: p, cap: {}}\nscalers:\n" + blockScaler("  ", "a"),
	// an item that is an empty "-"
	"version: 1\nscalers:\n" + blockScaler("  ", "a") + "  -\n" + blockScaler("  ", "c"),
	// an image in a keep block scalar at the end of the last item, then
	// blank lines and a comment at column 1
	"version: 1\nscalers:\n  - name: a\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [x]\n        image: |+\n          reg/i:1\n\n\n# end\nfirecracker: {}\n",
	// indentation indicators
	"version: 1\nscalers:\n  - name: a\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [x]\n        image: |2\n           reg/i:1\n  - name: b\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [x]\n        image: >-1\n         reg/i:2\n",
	// comments at column 1 and blank lines with spaces between items
	"version: 1\nscalers:   # the list\n   \n# one\n" + blockScaler("  ", "a") + "  \n# two\n\n" + blockScaler("  ", "b") + "# after\n\nfirecracker:\n  cidr: 10.2.0.0/24\n",
	// CRLF
	"version: 1\r\nscalers:\r\n  - name: a\r\n    type: container\r\n    maxAgents: 1\r\n    labelSets:\r\n      - labels: [x]\r\n        image: reg/i:1\r\nfirecracker: {}\r\n",
	// a "scalers" key written quoted after the list: YAML refuses both
	"version: 1\nscalers:\n" + blockScaler("  ", "a") + "\"scalers\": []\n",
	// a root key written twice around the list
	"version: 1\nscalers:\n" + blockScaler("  ", "a") + "version: 1\n",
	// a plain multi-line name continuing in the item
	"version: 1\nscalers:\n- name: a\n   b\n  type: container\n  maxAgents: 1\n  labelSets: [{labels: [x], image: 'reg/%i:1'}]\n",
	// an explicit key inside an item
	"version: 1\nscalers:\n  - ? name\n    : a\n    type: container\n    maxAgents: 1\n    labelSets: [{labels: [x], image: \"reg/i:1\"}]\n",
	// roles, env and defaults read from the root
	"version: 1\ndefaults:\n  resources: {cpus: 1}\nscalers:\n  - name: a\n    type: container\n    maxAgents: 1\n    roles: [all]\n    labelSets:\n      - labels: [' X ']\n        image: i\n        env: {A: b, __proto__: c}\n",
	// a scaler whose name is not a string: refused both ways
	"version: 1\nscalers:\n  - {name: 1, type: container, maxAgents: 1, labelSets: [{labels: [y], image: i}]}\n",
	// a version after the list that the schema refuses
	"scalers:\n" + blockScaler("  ", "a") + "version: 2\n",
	// the document ends with "..."
	"version: 1\nscalers:\n" + blockScaler("  ", "a") + "...\n",
	// a NUL byte in a value
	"version: 1\nscalers:\n  - name: \"a\\0\"\n    type: container\n    maxAgents: 1\n    labelSets: [{labels: [x], image: \"i\x00\"}]\n",
}

// TestLoadByItemEdges holds the by-item path, Scan and the edits by group
// to the whole file's on byItemEdgeTexts.
func TestLoadByItemEdges(t *testing.T) {
	t.Parallel()
	read := 0
	for _, src := range byItemEdgeTexts {
		if checkByItem(t, []byte(src)) {
			read++
		}
		fsys := fstest.MapFS{"s.yaml": {Data: []byte(src)}}
		checkScan(t, fsys, "s.yaml", "")
		if cfg, err := Load(fsys, "s.yaml", ""); err == nil {
			sameEdits(t, []byte(src), everyImage(cfg, func(i int) string { return "reg/pinned:" + string(rune('a'+i)) }))
		}
	}
	assert.Greater(t, read, len(byItemEdgeTexts)/2, "texts read by item")
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
	t.Parallel()
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
	t.Parallel()
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

// TestWholeMainParsedOnce loads main files that loadByItem reads whole and
// gives up on before any check (scalers no list, no mapping, a YAML error,
// none but a drop-in's): the whole read takes loadByItem's tree or error
// for the main file rather than parse it again, parses the drop-ins, and
// says what Load says.
func TestWholeMainParsedOnce(t *testing.T) {
	t.Parallel()
	dropIn := "version: 1\nscalers:\n  - name: local\n    type: container\n    maxAgents: 2\n    labelSets:\n      - labels: [linux]\n        image: ghcr.io/kici-dev/kici-agent:0.20.0\n"
	tests := []struct {
		src, dropIn string
		parses      int // by the whole read
	}{
		{"[a, b]\n", "", 0},
		{"version: 1\nscalers: {a: 1}\n", "", 0},
		{"version: 1\nscalers: [\n", "", 0},
		{"version: 1\n", dropIn, 1},              // the drop-in's
		{"version: 1\nscalers: &s [1]\n", "", 1}, // a list: loadByItem checks it
		{"version: 1\nscalers:\n  - 1\n", "", 1}, // split: the parts' error may not be the file's
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			t.Parallel()
			fsys, dir := fstest.MapFS{"s.yaml": {Data: []byte(tt.src)}}, ""
			if tt.dropIn != "" {
				fsys["d/a.yaml"], dir = &fstest.MapFile{Data: []byte(tt.dropIn)}, "d"
			}
			parses := 0
			counted := func(b []byte) (*yamljs.Node, error) { parses++; return yamljs.Parse(b) }
			got, err := scan(files{fsys: fsys}, "s.yaml", dir, counted, true, ScanOptions{}, nil)
			want, wantErr := load(fsys, "s.yaml", dir, yamljs.Parse, false)
			assert.Equal(t, tt.parses, parses, "%q: parses of the whole read", tt.src)
			assert.Equal(t, want, got, tt.src)
			assert.Equal(t, wantErr, err, tt.src)
		})
	}
}
