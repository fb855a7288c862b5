package preflight

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/scalerconfig"
)

func TestReplacement(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		image  string
		policy scalerconfig.PullPolicy
		target string
		want   []string // the replacement of each finding, "" for none
	}{
		{"moving tag", "quay.io/kici/kici-agent:latest", "", "0.20.0", []string{"quay.io/kici/kici-agent:0.20.0"}},
		{"moving tag, no target", "quay.io/kici/kici-agent:latest", "", "", []string{""}},
		{"no tag", "kici-agent", "", "v0.20.0", []string{"kici-agent:0.20.0"}},
		{"older pin with a digest: the digest goes", "reg:5000/kici-agent:0.19.0@" + sha256, "", "0.20.0", []string{"reg:5000/kici-agent:0.20.0"}},
		{"older pin, never pulled: both give the pin", "kici-agent:0.19.0", scalerconfig.PullNever, "0.20.0", []string{"kici-agent:0.20.0", "kici-agent:0.20.0"}},
		{"never pull, no target", "kici-agent:stable", scalerconfig.PullNever, "", []string{""}},
		{"floating tag", "kici-agent:stable", "", "0.20.0", []string{"kici-agent:0.20.0"}},
		{"the target's suffix is kept", "kici-agent:stable", "", "0.20.0-5", []string{"kici-agent:0.20.0-5"}},
		{"no tag holds the target's suffix", "kici-agent:stable", "", "0.20.0-a+b", []string{""}},
		{"invalid image", "quay.io/KiCI/kici-agent:0.19.0", "", "0.20.0", []string{"", ""}},
		{"invalid digest: the pin is valid", "kici-agent:0.19.0@sha256:abc", "", "0.20.0", []string{"kici-agent:0.20.0", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, f := range CheckAgentImages(Input{Config: one(tt.image, tt.policy), TargetVersion: tt.target}) {
				image, ok := f.Replacement()
				assert.Equal(t, ok, image != "", "%s: ok with no image, or an image with false", f.Code())
				got = append(got, image)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestFix(t *testing.T) {
	t.Parallel()
	at := scalerconfig.Pos{File: "s.yaml", Line: 3, Column: 16, Offset: 40}
	end := scalerconfig.Pos{File: "s.yaml", Line: 3, Column: 34, Offset: 58}
	site := Site{Image: "kici-agent:latest", ImagePos: at, ImageEnd: end}
	tests := []struct {
		name   string
		f      Finding
		want   scalerconfig.ImageEdit
		wantOK bool
	}{
		{"a pin", MovingTag{Site: site, Tag: "latest", Target: "0.20.0"}, scalerconfig.ImageEdit{Pos: at, End: end, Image: "kici-agent:0.20.0"}, true},
		{"no target", MovingTag{Site: site, Tag: "latest"}, scalerconfig.ImageEdit{}, false},
		{"a literal config has no position", MovingTag{Site: Site{Image: "kici-agent"}, Target: "0.20.0"}, scalerconfig.ImageEdit{}, false},
		{"no end", FloatingTag{Site: Site{Image: "kici-agent:x", ImagePos: at}, Tag: "x", Target: "0.20.0"}, scalerconfig.ImageEdit{}, false},
		{"an invalid image", InvalidImage{Site: site}, scalerconfig.ImageEdit{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := Fix(tt.f)
			assert.Equal(t, tt.wantOK, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestFixLoaded: the edits Fix makes of a loaded config's findings are the
// label sets' own (scalerconfig.LabelSet.ImageEdit), which EditImages
// plans without reading the file again, with the same replacements as
// literal edits of the same positions.
func TestFixLoaded(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\nscalers:\n  - name: docker\n    type: container\n    maxAgents: 1\n    labelSets:\n")
	for i := range 200 {
		fmt.Fprintf(&b, "      - labels: [l%d]\n        image: 'quay.io/kici-dev/kici-agent:0.19.%d'\n", i, i)
	}
	src := []byte(b.String())
	cfg, err := scalerconfig.Load(fstest.MapFS{"s.yaml": {Data: src}}, "s.yaml", "")
	require.NoError(t, err)
	var edits, literal []scalerconfig.ImageEdit
	for _, f := range CheckAgentImages(Input{Config: cfg, Location: scalerconfig.Location{Path: "s.yaml"}, TargetVersion: "0.20.0"}) {
		e, ok := Fix(f)
		require.True(t, ok)
		edits = append(edits, e)
		literal = append(literal, scalerconfig.ImageEdit{Pos: e.Pos, End: e.End, Image: e.Image})
	}
	require.Len(t, edits, 200)
	_, want, err := scalerconfig.EditImages(src, literal)
	require.NoError(t, err)
	_, got, err := scalerconfig.EditImages(src, edits)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, "'quay.io/kici-dev/kici-agent:0.20.0'", got[7].Text)
	// The bytes tell, not the count of allocations: a reading of the file
	// makes its syntax in a few large chunks.
	fast := bytesPerRun(3, func() { _, _, _ = scalerconfig.EditImages(src, edits) })
	read := bytesPerRun(3, func() { _, _, _ = scalerconfig.EditImages(src, literal) })
	assert.Less(t, fast, read/4, "bytes allocated: %v from Fix's edits, %v reading the file", fast, read)
}

// bytesPerRun is the fewest bytes f allocates in one of runs runs.
func bytesPerRun(runs int, f func()) uint64 {
	least := uint64(math.MaxUint64)
	for range runs {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}
