package scalerconfig

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

// loadedEdits loads src and returns an edit of every image Load placed in
// it, each to the next of images in turn, and whether src loaded.
func loadedEdits(src []byte, images []string) ([]ImageEdit, bool) {
	cfg, err := Load(fstest.MapFS{"s.yaml": {Data: src}}, "s.yaml", "")
	if err != nil {
		return nil, false
	}
	var edits []ImageEdit
	for _, s := range cfg.Scalers {
		for _, ls := range s.LabelSets {
			if ls.ImagePos.IsValid() {
				edits = append(edits, ImageEdit{Pos: ls.ImagePos, End: ls.ImageEnd, Image: images[len(edits)%len(images)]})
			}
		}
	}
	return edits, true
}

// newImages are images each style holds, or not: a quote, a line break,
// a plain scalar's indicators, white space, a number.
var newImages = []string{"reg/kici-agent:0.20.0", "it's", "a \"b\"", "with: colon", "#x", " lead", "tail ", "line\nbreak", "tab\t", "0.5", "true", "é:1", ""}

// checkPlanLoaded checks that PlanLoadedImages gives PlanImages'
// replacements and refusals for edits of the images Load placed.
func checkPlanLoaded(t testing.TB, src []byte) bool {
	t.Helper()
	for shift := range 3 {
		edits, ok := loadedEdits(src, newImages[shift:])
		if !ok {
			return false
		}
		want, wantErr := PlanImages(src, edits)
		got, err := PlanLoadedImages(src, edits)
		require.Equal(t, wantErr, err)
		require.Equal(t, want, got)
		// An edit twice, and two images for one value.
		if len(edits) > 1 {
			edits = append(edits, edits[0], ImageEdit{Pos: edits[1].Pos, End: edits[1].End, Image: "other:1"})
			want, wantErr = PlanImages(src, edits)
			got, err = PlanLoadedImages(src, edits)
			require.Equal(t, wantErr, err)
			require.Equal(t, want, got)
		}
	}
	return true
}

func TestPlanLoadedImages(t *testing.T) {
	for _, c := range readLoadCases(t) {
		checkPlanLoaded(t, []byte(c.Files[c.Main]))
	}
	require.True(t, checkPlanLoaded(t, editConfig(300)))
	require.True(t, checkPlanLoaded(t, byItemConfig(300)))
	// A file with an alias, a tag or a directive: PlanImages itself.
	require.True(t, checkPlanLoaded(t, []byte("version: 1\nscalers:\n  - &s {name: a, type: container, maxAgents: 1, labelSets: [{labels: [x], image: i}]}\nx: *s\n")))
	// No edits: nothing to replace, as PlanImages says.
	none, err := PlanLoadedImages(editConfig(20), nil)
	require.NoError(t, err)
	require.Nil(t, none)
}

func FuzzPlanLoadedImages(f *testing.F) {
	for _, c := range readLoadCases(f) {
		f.Add([]byte(c.Files[c.Main]))
	}
	f.Add(editConfig(30))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkPlanLoaded(t, src)
	})
}
