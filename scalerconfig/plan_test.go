package scalerconfig

import (
	"errors"
	"math"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadedEdits loads src and returns an edit of every image Load placed in
// it, made by LabelSet.ImageEdit, each to the next of images in turn, and
// whether src loaded.
func loadedEdits(src []byte, images []string) ([]ImageEdit, bool) {
	cfg, err := Load(fstest.MapFS{"s.yaml": {Data: src}}, "s.yaml", "")
	if err != nil {
		return nil, false
	}
	var edits []ImageEdit
	for _, s := range cfg.Scalers {
		for _, ls := range s.LabelSets {
			if e, ok := ls.ImageEdit(images[len(edits)%len(images)]); ok {
				edits = append(edits, e)
			}
		}
	}
	return edits, true
}

// literal is edits as literals: the same positions and images, with nothing
// that tells where they come from, so that they are planned by reading the
// file.
func literal(edits []ImageEdit) []ImageEdit {
	out := make([]ImageEdit, len(edits))
	for i, e := range edits {
		out[i] = ImageEdit{Pos: e.Pos, End: e.End, Image: e.Image}
	}
	return out
}

// newImages are images each style holds, or not: a quote, a line break,
// a plain scalar's indicators, white space, a number.
var newImages = []string{"reg/kici-agent:0.20.0", "it's", "a \"b\"", "with: colon", "#x", " lead", "tail ", "line\nbreak", "tab\t", "0.5", "true", "é:1", ""}

// checkPlanLoaded checks that the edits of the images Load placed get the
// same replacements and refusals from EditImages and EditImages as the
// same edits written as literals, which read the file.
func checkPlanLoaded(t testing.TB, src []byte) bool {
	t.Helper()
	for shift := range 3 {
		edits, ok := loadedEdits(src, newImages[shift:])
		if !ok {
			return false
		}
		checkSamePlan(t, src, edits)
		// An edit twice, and two images for one value.
		if len(edits) > 1 {
			other := edits[1]
			other.Image = "other:1"
			checkSamePlan(t, src, append(edits, edits[0], other))
		}
	}
	return true
}

func checkSamePlan(t testing.TB, src []byte, edits []ImageEdit) {
	t.Helper()
	_, want, wantErr := EditImages(src, literal(edits))
	_, got, err := EditImages(src, edits)
	require.Equal(t, errText(wantErr), errText(err))
	require.Equal(t, want, got)
	wantOut, want, wantErr := EditImages(src, literal(edits))
	gotOut, got, err := EditImages(src, edits)
	require.Equal(t, errText(wantErr), errText(err))
	require.Equal(t, want, got)
	require.Equal(t, wantOut, gotOut)
	for _, r := range []Reason{ErrNoImageValue, ErrBlockScalar, ErrAliased, ErrStyle, ErrConflict, ErrChanged} {
		require.Equal(t, errors.Is(wantErr, r), errors.Is(err, r), "errors.Is(%v)", r)
	}
}

// errText is err's text, "" for nil: an error of an edit names its image
// and position, which is all a literal edit and a loaded one share.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestPlanLoadedEdits(t *testing.T) {
	t.Parallel()
	for _, c := range readLoadCases(t) {
		checkPlanLoaded(t, []byte(c.Files[c.Main]))
	}
	require.True(t, checkPlanLoaded(t, editConfig(300)))
	require.True(t, checkPlanLoaded(t, byItemConfig(300)))
	// A file with an alias, a tag or a directive: always read.
	require.True(t, checkPlanLoaded(t, []byte("version: 1\nscalers:\n  - &s {name: a, type: container, maxAgents: 1, labelSets: [{labels: [x], image: i}]}\nx: *s\n")))
	// No edits: nothing to replace.
	_, none, err := EditImages(editConfig(20), nil)
	require.NoError(t, err)
	require.Nil(t, none)
}

// TestPlanLoadedEditsOtherBytes: edits of a label set Load read from other
// bytes (the file changed since) are checked against the bytes given, as
// literal edits are: here the image line became a comment, with every
// offset kept.
func TestPlanLoadedEditsOtherBytes(t *testing.T) {
	t.Parallel()
	src := []byte("version: 1\nscalers:\n  - name: a\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [x]\n        image: kici-agent:1\n")
	edits, ok := loadedEdits(src, []string{"kici-agent:2"})
	require.True(t, ok)
	require.Len(t, edits, 1)
	changed := []byte(string(src[:len(src)-len("image: kici-agent:1\n")]) + "#mage: kici-agent:1\n")
	require.Len(t, changed, len(src))
	_, _, err := EditImages(changed, edits)
	assert.ErrorIs(t, err, ErrNoImageValue)
	_, _, err = EditImages(changed, edits)
	assert.ErrorIs(t, err, ErrNoImageValue)
}

// TestPlanLoadedEditsMoved: an edit of a loaded label set whose Pos or
// End a caller then moves (they are exported fields) is checked against
// the bytes, as a literal edit is, not trusted as where Load found the
// value: moved onto the key "image: ", it is refused, where it replaced
// the key.
func TestPlanLoadedEditsMoved(t *testing.T) {
	t.Parallel()
	src := []byte("version: 1\nscalers:\n  - name: a\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [x]\n        image: kici-agent:1\n")
	edits, ok := loadedEdits(src, []string{"kici-agent:2"})
	require.True(t, ok)
	require.Len(t, edits, 1)
	for name, move := range map[string]func(*ImageEdit){
		"Pos":      func(e *ImageEdit) { e.Pos.Offset -= len("image: ") },
		"End":      func(e *ImageEdit) { e.End.Offset-- },
		"Pos, End": func(e *ImageEdit) { e.Pos.Offset, e.End.Offset = e.Pos.Offset-7, e.End.Offset-7 },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			moved := edits[0]
			move(&moved)
			_, want, wantErr := EditImages(src, literal([]ImageEdit{moved}))
			_, reps, err := EditImages(src, []ImageEdit{moved})
			assert.Equal(t, want, reps)
			out, _, editErr := EditImages(src, []ImageEdit{moved})
			if wantErr == nil {
				assert.NoError(t, err)
				assert.NoError(t, editErr)
				return
			}
			assert.EqualError(t, err, wantErr.Error())
			assert.EqualError(t, editErr, wantErr.Error())
			assert.Nil(t, out)
		})
	}
}

// TestPlanLoadedEditsReadNothing: planning the edits of a loaded config
// does not parse it again, which would make the syntax of every label set.
// (The bytes tell, not the count of allocations: a reading of the file
// makes its syntax in a few large chunks.)
func TestPlanLoadedEditsReadNothing(t *testing.T) {
	src := editConfig(300)
	edits, ok := loadedEdits(src, []string{"reg/kici-agent:0.20.0"})
	require.True(t, ok)
	require.Greater(t, len(edits), 100)
	fast := bytesPerRun(3, func() { _, _, _ = EditImages(src, edits) })
	read := bytesPerRun(3, func() { _, _, _ = EditImages(src, literal(edits)) })
	assert.Less(t, fast, read/4, "bytes allocated: %v from the loaded edits, %v reading the file", fast, read)
}

// bytesPerRun is the fewest bytes f allocates in one of runs runs.
func bytesPerRun(runs int, f func()) uint64 {
	least := uint64(math.MaxUint64)
	for range runs {
		before := allocated()
		f()
		least = min(least, allocated()-before)
	}
	return least
}

func TestLabelSetImageEdit(t *testing.T) {
	t.Parallel()
	_, ok := (&LabelSet{Image: "x"}).ImageEdit("y")
	assert.False(t, ok, "no position, no edit")
	ls := LabelSet{ImagePos: Pos{Line: 1, Column: 8, Offset: 7}, ImageEnd: Pos{Line: 1, Column: 9, Offset: 8}}
	e, ok := ls.ImageEdit("y")
	require.True(t, ok)
	assert.Equal(t, ImageEdit{Pos: ls.ImagePos, End: ls.ImageEnd, Image: "y"}, e, "a literal's label set: a literal edit")
}

func FuzzPlanLoadedEdits(f *testing.F) {
	for _, c := range readLoadCases(f) {
		f.Add([]byte(c.Files[c.Main]))
	}
	f.Add(editConfig(30))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkPlanLoaded(t, src)
	})
}
