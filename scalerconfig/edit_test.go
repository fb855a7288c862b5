package scalerconfig

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kicikit/kicikit/internal/yamljs"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadBytes loads one file's bytes as the main config file.
func loadBytes(t *testing.T, src []byte) *Config {
	t.Helper()
	cfg, err := Load(fstest.MapFS{"scalers.yaml": {Data: src}}, "scalers.yaml", "")
	require.NoError(t, err)
	return cfg
}

// edit is the ImageEdit that sets label set j of scaler i to image.
func edit(cfg *Config, i, j int, image string) ImageEdit {
	ls := cfg.Scalers[i].LabelSets[j]
	return ImageEdit{Pos: ls.ImagePos, End: ls.ImageEnd, Image: image}
}

// configJSON is the config as the orchestrator holds it, without positions.
func configJSON(t *testing.T, cfg *Config) string {
	t.Helper()
	b, err := json.Marshal(cfg)
	require.NoError(t, err)
	return string(b)
}

// TestEditImagesFleet edits a file full of comments, anchors and quoted
// values, with CRLF line ends and a BOM: the bytes are the expected file's,
// and the file loads to the same config with only those images changed.
func TestEditImagesFleet(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("testdata/edit/fleet.yaml")
	require.NoError(t, err)
	want, err := os.ReadFile("testdata/edit/fleet.want.yaml")
	require.NoError(t, err)
	cfg := loadBytes(t, src)
	const pin = "quay.io/kici-dev/kici-agent:0.20.0"
	edits := []ImageEdit{edit(cfg, 0, 3, pin), edit(cfg, 0, 0, pin), edit(cfg, 0, 1, pin), edit(cfg, 0, 2, pin), edit(cfg, 0, 0, pin)}

	got, reps, err := EditImages(src, edits)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
	var texts []string
	for _, r := range reps {
		texts = append(texts, r.Text)
		assert.Equal(t, pin, r.Image)
	}
	assert.Equal(t, []string{`"` + pin + `"`, `'` + pin + `'`, pin, pin}, texts, "in file order, each in its quotes, the repeated edit once")

	edited := loadBytes(t, got)
	for _, e := range [][2]int{{0, 0}, {0, 1}, {0, 2}, {0, 3}} {
		cfg.Scalers[e[0]].LabelSets[e[1]].Image = pin
	}
	assert.Equal(t, configJSON(t, cfg), configJSON(t, edited))
}

func TestEditImagesRefused(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("testdata/edit/fleet.yaml")
	require.NoError(t, err)
	cfg := loadBytes(t, src)
	const pin = "quay.io/kici-dev/kici-agent:0.20.0"
	stale := edit(cfg, 0, 0, pin)
	stale.Pos.Offset++
	tests := []struct {
		name  string
		edits []ImageEdit
		want  error
	}{
		{name: "an alias", edits: []ImageEdit{edit(cfg, 1, 0, pin)}, want: ErrAliased},
		{name: "both uses of an alias", edits: []ImageEdit{edit(cfg, 1, 0, pin), edit(cfg, 1, 1, pin)}, want: ErrAliased},
		{name: "a block scalar", edits: []ImageEdit{edit(cfg, 1, 2, pin)}, want: ErrBlockScalar},
		{name: "a stale position", edits: []ImageEdit{stale}, want: ErrNoImageValue},
		{name: "two images for one value", edits: []ImageEdit{edit(cfg, 0, 0, pin), edit(cfg, 0, 0, pin+"-1")}, want: ErrConflict},
		{name: "plain, would read as a comment", edits: []ImageEdit{edit(cfg, 0, 3, "kici-agent #1")}, want: ErrStyle},
		{name: "plain, would read as a mapping", edits: []ImageEdit{edit(cfg, 0, 3, "kici-agent: 1")}, want: ErrStyle},
		{name: "plain, would read as a number", edits: []ImageEdit{edit(cfg, 0, 3, "017")}, want: ErrStyle},
		{name: "plain, an indicator first", edits: []ImageEdit{edit(cfg, 0, 3, "*agent")}, want: ErrStyle},
		{name: "plain, empty", edits: []ImageEdit{edit(cfg, 0, 3, "")}, want: ErrStyle},
		{name: "single quotes, a line break", edits: []ImageEdit{edit(cfg, 0, 1, "a\nb")}, want: ErrStyle},
		{name: "double quotes, not UTF-8", edits: []ImageEdit{edit(cfg, 0, 0, "a\xffb")}, want: ErrStyle},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, reps, err := EditImages(src, tt.edits)
			assert.ErrorIs(t, err, tt.want)
			assert.Nil(t, got)
			assert.Nil(t, reps)
			var ee *EditError
			require.ErrorAs(t, err, &ee)
			assert.True(t, strings.HasPrefix(err.Error(), "scalerconfig.EditImages(\""), err.Error())
		})
	}
}

// TestEditImagesQuoting writes images that need escaping in each style,
// and reads them back.
func TestEditImagesQuoting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, value, image, want string
	}{
		{name: "double quotes escaped", value: `"x"`, image: "a\"b\\c\td\u0085e\u2028f\x01é", want: `"a\"b\\c\td\u0085e\u2028f\u0001é"`},
		{name: "single quote doubled", value: `'x'`, image: "it's", want: `'it''s'`},
		{name: "single quotes keep a tab", value: `'x'`, image: "a\tb", want: "'a\tb'"},
		{name: "plain with a colon", value: `x`, image: "reg:5000/kici-agent:0.20.0", want: "reg:5000/kici-agent:0.20.0"},
		{name: "plain in a flow mapping", value: `{x: 1}`, image: "kici-agent:0.20.0", want: "kici-agent:0.20.0"},
		{name: "a multi-line value", value: "\"a\n          b\"", image: "kici-agent", want: `"kici-agent"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			head := "version: 1\nscalers:\n  - name: s\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [a]\n        image: "
			src := []byte(head + tt.value + " # after\n")
			if strings.HasPrefix(tt.value, "{") {
				src = []byte(strings.Replace(head, "      - labels: [a]\n        image: ", "      - {labels: [a], image: x}", 1) + " # after\n")
			}
			cfg := loadBytes(t, src)
			got, reps, err := EditImages(src, []ImageEdit{edit(cfg, 0, 0, tt.image)})
			require.NoError(t, err)
			require.Len(t, reps, 1)
			assert.Equal(t, tt.want, reps[0].Text)
			assert.Equal(t, string(src[:reps[0].Pos.Offset])+tt.want+string(src[reps[0].End.Offset:]), string(got))
			assert.Equal(t, tt.image, loadBytes(t, got).Scalers[0].LabelSets[0].Image)
		})
	}
}

// TestEditImagesOtherPlaces: a value that is more than one label set's
// image is refused, however it is shared.
func TestEditImagesOtherPlaces(t *testing.T) {
	t.Parallel()
	head := "version: 1\nscalers:\n  - name: s\n    type: container\n    maxAgents: 1\n    labelSets:\n"
	tests := []struct {
		name, body string
		want       error
	}{
		{name: "the anchor is another field's value", body: "      - labels: [a]\n        env: {A: &i kici-agent:1}\n        image: *i\n", want: ErrAliased},
		{name: "the label set is an alias", body: "      - &ls {labels: [a], image: kici-agent:1}\n      - *ls\n", want: ErrAliased},
		{name: "the anchor is a key", body: "      - labels: [a]\n        env: {&i kici-agent:1: x}\n        image: *i\n", want: ErrChanged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := []byte(head + tt.body)
			cfg := loadBytes(t, src)
			_, _, err := EditImages(src, []ImageEdit{edit(cfg, 0, 0, "kici-agent:2")})
			assert.ErrorIs(t, err, tt.want)
		})
	}
}

// TestEditImagesEveryRefusal: each refused edit is named, and none is made.
func TestEditImagesEveryRefusal(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("testdata/edit/fleet.yaml")
	require.NoError(t, err)
	cfg := loadBytes(t, src)
	const pin = "quay.io/kici-dev/kici-agent:0.20.0"
	_, _, err = EditImages(src, []ImageEdit{edit(cfg, 1, 2, pin), edit(cfg, 0, 0, pin), edit(cfg, 1, 0, pin)})
	joined, ok := err.(interface{ Unwrap() []error })
	require.True(t, ok, "%T", err)
	var reasons []error
	for _, e := range joined.Unwrap() {
		var ee *EditError
		require.ErrorAs(t, e, &ee)
		reasons = append(reasons, ee.Err)
	}
	assert.Equal(t, []error{ErrAliased, ErrBlockScalar}, reasons, "in file order")
}

func TestEditImagesNothing(t *testing.T) {
	t.Parallel()
	src := []byte("not: [yaml")
	got, reps, err := EditImages(src, nil)
	require.NoError(t, err)
	assert.Equal(t, src, got)
	assert.Empty(t, reps)
	_, _, err = EditImages(src, []ImageEdit{{Image: "x"}})
	var ee *EditError
	assert.ErrorAs(t, err, &ee)
}

// FuzzEditImages sets every image of a config that loads to one fuzzed
// image. When EditImages makes the edits, the edited bytes read back as the
// old tree with only the edited values changed, even where EditImages itself
// does not read them back (a file with no alias and no directive), and they
// load to the old config with the new images; when it refuses, it names
// each refused edit and returns nothing.
func FuzzEditImages(f *testing.F) {
	fleet, err := os.ReadFile("testdata/edit/fleet.yaml")
	require.NoError(f, err)
	images := []string{"quay.io/kici-dev/kici-agent:0.20.0", "kici-agent: 1", "it's", "a\nb", "017", "null", "x #y", "é\u2028"}
	cases := readLoadCases(f)
	for i, image := range images {
		f.Add(fleet, image)
		c := cases[i%len(cases)]
		f.Add([]byte(c.Files[c.Main]), image)
	}
	f.Fuzz(func(t *testing.T, src []byte, image string) {
		cfg, err := Load(fstest.MapFS{"s.yaml": {Data: src}}, "s.yaml", "")
		if err != nil {
			return
		}
		var edits []ImageEdit
		for i, s := range cfg.Scalers {
			for j := range s.LabelSets {
				if s.LabelSets[j].ImagePos.IsValid() {
					edits = append(edits, edit(cfg, i, j, image))
					cfg.Scalers[i].LabelSets[j].Image = image
				}
			}
		}
		got, reps, err := EditImages(src, edits)
		if err != nil {
			assert.Nil(t, got)
			assert.Nil(t, reps)
			var ee *EditError
			assert.ErrorAs(t, err, &ee)
			return
		}
		if len(edits) == 0 {
			assert.Equal(t, src, got)
			return
		}
		root, err := yamljs.Parse(src)
		require.NoError(t, err)
		_, set, err := index(root, edits, true).plan(edits)
		require.NoError(t, err)
		require.NoError(t, verify(root, got, set), "%q", got)
		edited, err := Load(fstest.MapFS{"s.yaml": {Data: got}}, "s.yaml", "")
		if image == "" {
			return // the schema refuses a label set without an image
		}
		require.NoError(t, err, "%q", got)
		assert.Equal(t, configJSON(t, cfg), configJSON(t, edited))
	})
}
