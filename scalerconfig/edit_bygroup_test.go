package scalerconfig

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sameEdits holds EditImages reading src by groups of items (of the size
// it uses, of one item, and of a few hundred bytes) to EditImages reading
// src whole: the same bytes, replacements and error, down to each
// EditError and its order. It reports whether EditImages reads src by
// groups.
func sameEdits(t testing.TB, src []byte, edits []ImageEdit) bool {
	t.Helper()
	wantOut, wantReps, wantErr := editImages(src, slices.Clone(edits), 0)
	for _, size := range []int{groupBytes, 1, 300} {
		out, reps, err := editImages(src, slices.Clone(edits), size)
		require.Equal(t, wantErr, err, "group size %d", size)
		if err != nil {
			require.Equal(t, wantErr.Error(), err.Error())
		}
		require.Equal(t, wantOut == nil, out == nil, "group size %d", size)
		require.Equal(t, string(wantOut), string(out), "group size %d", size)
		require.Equal(t, wantReps, reps, "group size %d", size)
	}
	if len(edits) == 0 || mayReadOtherwise(src) {
		return false
	}
	_, ok := indexByGroup(src, edits, groupBytes)
	return ok
}

// everyImage is an edit of every label set's image that Load placed, to
// image(i) for the i-th.
func everyImage(cfg *Config, image func(i int) string) []ImageEdit {
	var edits []ImageEdit
	for i, s := range cfg.Scalers {
		for j := range s.LabelSets {
			if s.LabelSets[j].ImagePos.IsValid() {
				edits = append(edits, edit(cfg, i, j, image(len(edits))))
			}
		}
	}
	return edits
}

// plainFleet is testdata/edit/fleet.yaml without its BOM, anchors and
// aliases: a file EditImages reads by groups.
func plainFleet(t testing.TB) []byte {
	src, err := os.ReadFile("testdata/edit/fleet.yaml")
	require.NoError(t, err)
	s := strings.TrimPrefix(string(src), "\uFEFF")
	s = strings.NewReplacer("&res ", "", "*res", "{limits: {cpus: 2}}", "&agent ", "", "*agent", "quay.io/kici-dev/kici-agent:0.17.0").Replace(s)
	return []byte(s)
}

// TestEditImagesByGroupExisting runs the other edit tests' files and edits
// both ways.
func TestEditImagesByGroupExisting(t *testing.T) {
	t.Parallel()
	fleet, err := os.ReadFile("testdata/edit/fleet.yaml")
	require.NoError(t, err)
	const pin = "quay.io/kici-dev/kici-agent:0.20.0"
	images := []string{pin, "kici-agent #1", "kici-agent: 1", "017", "*agent", "", "a\nb", "a\xffb", "it's", "a\tb", "a\"b\\c\td\u0085e\u2028f\x01é"}
	byGroup := 0
	for _, src := range [][]byte{fleet, plainFleet(t)} {
		cfg := loadBytes(t, src)
		for _, image := range images {
			edits := everyImage(cfg, func(int) string { return image })
			if sameEdits(t, src, edits) {
				byGroup++
			}
			stale := edits[0]
			stale.Pos.Offset++
			sameEdits(t, src, []ImageEdit{edits[3], edits[0], stale, edits[0], edits[1]})
			sameEdits(t, src, []ImageEdit{edits[2], edits[0], {Pos: edits[0].Pos, End: edits[0].End, Image: image + "-1"}})
		}
	}
	assert.Equal(t, len(images), byGroup, "the plain fleet is read by groups")
	head := "version: 1\nscalers:\n  - name: s\n    type: container\n    maxAgents: 1\n    labelSets:\n"
	for _, body := range []string{
		"      - labels: [a]\n        image: \"x\" # after\n",
		"      - labels: [a]\n        image: 'x' # after\n",
		"      - labels: [a]\n        image: x # after\n",
		"      - {labels: [a], image: x} # after\n",
		"      - labels: [a]\n        image: \"a\n          b\" # after\n",
		"      - labels: [a]\n        env: {A: &i kici-agent:1}\n        image: *i\n",
		"      - &ls {labels: [a], image: kici-agent:1}\n      - *ls\n",
		"      - labels: [a]\n        env: {&i kici-agent:1: x}\n        image: *i\n",
	} {
		src := []byte(head + body)
		cfg := loadBytes(t, src)
		for _, image := range images {
			sameEdits(t, src, everyImage(cfg, func(int) string { return image }))
		}
	}
	sameEdits(t, []byte("not: [yaml"), []ImageEdit{{Image: "x"}})
}

// TestEditImagesByGroupLoadCases sets every image of each load case's
// main file that loads.
func TestEditImagesByGroupLoadCases(t *testing.T) {
	t.Parallel()
	byGroup := 0
	for _, c := range readLoadCases(t) {
		src := []byte(c.Files[c.Main])
		cfg, err := Load(fstest.MapFS{"s.yaml": {Data: src}}, "s.yaml", "")
		if err != nil {
			sameEdits(t, src, []ImageEdit{{Pos: Pos{Offset: len(src) / 2}, End: Pos{Offset: len(src)/2 + 3}, Image: "x"}})
			continue
		}
		for _, image := range []string{"reg/kici-agent:1", "017", "it's"} {
			if sameEdits(t, src, everyImage(cfg, func(int) string { return image })) {
				byGroup++
			}
		}
	}
	assert.NotZero(t, byGroup)
}

// editConfig is a config of n label sets, ten a scaler, with images in
// every style: plain, plain after extra spaces, 'single', "double", in a
// flow label set, a block scalar in every hundredth; comments between
// items, and root keys before and after the scalers list.
func editConfig(n int) []byte {
	var b strings.Builder
	b.WriteString("# scalers\nversion: 1\nmachinePools:\n  - name: big\n    cap: {maxCpu: 8}\nscalers:\n")
	for i := range n {
		if i%10 == 0 {
			fmt.Fprintf(&b, "  # scaler %d\n  - name: \"pool-%d\"   # comment\n    type: container\n    maxAgents: 4\n    machinePool: big\n    labelSets:\n", i/10, i/10)
		}
		switch {
		case i%100 == 5:
			fmt.Fprintf(&b, "      - labels: [b%d]\n        image: >-\n          reg/kici-agent:0.%d\n", i, i)
		case i%5 == 0:
			fmt.Fprintf(&b, "      - labels: [Docker, l%d]\n        image: reg/kici-agent:0.20.%d   # plain\n", i, i%7)
		case i%5 == 1:
			fmt.Fprintf(&b, "      # single\n      - labels: ['s%d']\n        image: 'reg/kici-agent:0.20.%d'\n        imagePullPolicy: Always\n", i, i%7)
		case i%5 == 2:
			fmt.Fprintf(&b, "      - labels:\n          - \"d%d\"\n        image: \"reg/kici-agent:0.20.%d\"\n", i, i%7)
		case i%5 == 3:
			fmt.Fprintf(&b, "      - {labels: [f%d], image: reg/kici-agent:0.20.%d}\n", i, i%7)
		default:
			fmt.Fprintf(&b, "\n      - labels: [p%d]\n        image:    reg/kici-agent:0.20.%d\n", i, i%7)
		}
	}
	b.WriteString("firecracker:\n  cidr: 10.1.0.0/24\n")
	return []byte(b.String())
}

// TestEditImagesByGroupGenerated edits a config of several groups in every
// way an edit can go right or wrong, and breaks it where no edit is.
func TestEditImagesByGroupGenerated(t *testing.T) {
	t.Parallel()
	src := editConfig(700)
	cfg := loadBytes(t, src)
	all := everyImage(cfg, func(i int) string { return fmt.Sprintf("reg/kici-agent:1.%d", i) })
	require.Len(t, all, 700)
	var unblocked, fifth, twice []ImageEdit
	for i, e := range all {
		if i%100 != 5 {
			unblocked = append(unblocked, e)
		}
		if i%5 == 0 && i%100 != 5 {
			fifth = append(fifth, e)
		}
	}
	for i := range unblocked {
		twice = append(twice, unblocked[(i*37)%len(unblocked)], unblocked[i])
	}
	spanning := all[99]
	spanning.End = all[100].End
	stale := all[301]
	stale.Pos.Offset++
	pool := strings.Index(string(src), "name: big") + len("name: ")
	cidr := strings.Index(string(src), "10.1.0.0/24")
	outside := []ImageEdit{
		{Pos: Pos{Offset: pool}, End: Pos{Offset: pool + 3}, Image: "small"},
		{Pos: Pos{Offset: cidr}, End: Pos{Offset: cidr + 11}, Image: "10.2.0.0/24"},
	}
	tests := []struct {
		name  string
		edits []ImageEdit
		err   error
	}{
		{name: "every image but the block scalars", edits: unblocked},
		{name: "every fifth", edits: fifth},
		{name: "each edit twice, out of order", edits: twice},
		{name: "a block scalar", edits: all, err: ErrBlockScalar},
		{name: "two images for one value", edits: append(slices.Clone(fifth), ImageEdit{Pos: fifth[7].Pos, End: fifth[7].End, Image: "x"}), err: ErrConflict},
		{name: "an edit over two values", edits: append(slices.Clone(fifth), spanning, all[100]), err: ErrNoImageValue},
		{name: "a stale position", edits: append(slices.Clone(fifth), stale), err: ErrNoImageValue},
		{name: "positions past the file", edits: append(slices.Clone(fifth), ImageEdit{Pos: Pos{Offset: len(src) + 4}, End: Pos{Offset: len(src) + 9}}, ImageEdit{Pos: Pos{Offset: -1}}), err: ErrNoImageValue},
		{name: "values outside the list", edits: append(slices.Clone(outside), fifth...)},
		{name: "a style that cannot hold the image", edits: append(slices.Clone(fifth), ImageEdit{Pos: all[4].Pos, End: all[4].End, Image: "017"}), err: ErrStyle},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := EditImages(src, tt.edits)
			assert.ErrorIs(t, err, tt.err)
			assert.True(t, sameEdits(t, src, tt.edits), "read by groups")
		})
	}
	t.Run("a YAML error where no edit is", func(t *testing.T) {
		t.Parallel()
		at := strings.Index(string(src), "  - name: \"pool-50\"")
		broken := string(src[:at]) + "  - {a: 1, a: 2}\n" + string(src[at:])
		_, _, err := EditImages([]byte(broken), fifth[:3])
		require.Error(t, err)
		sameEdits(t, []byte(broken), fifth[:3])
		_, _, err = EditImages(append(slices.Clone(src), "version: 2\n"...), fifth[:3])
		require.Error(t, err)
		sameEdits(t, append(slices.Clone(src), "version: 2\n"...), fifth[:3])
	})
}

// FuzzEditImagesByGroup holds EditImages reading by groups to reading the
// whole file, on any bytes: with every image a config that loads places
// set to one image, and one edit at any place.
func FuzzEditImagesByGroup(f *testing.F) {
	fleet, err := os.ReadFile("testdata/edit/fleet.yaml")
	require.NoError(f, err)
	seeds := [][]byte{fleet, plainFleet(f), editConfig(30)}
	for _, c := range readLoadCases(f) {
		seeds = append(seeds, []byte(c.Files[c.Main]))
	}
	for i, src := range seeds {
		f.Add(src, []string{"reg/kici-agent:1", "017", "it's", "a\nb"}[i%4], uint32(i*97), uint8(i))
	}
	f.Fuzz(func(t *testing.T, src []byte, image string, at uint32, span uint8) {
		var edits []ImageEdit
		if cfg, err := Load(fstest.MapFS{"s.yaml": {Data: src}}, "s.yaml", ""); err == nil {
			edits = everyImage(cfg, func(int) string { return image })
		}
		if at != 0 {
			off := int(at % uint32(len(src)+1))
			edits = append(edits, ImageEdit{Pos: Pos{Offset: off}, End: Pos{Offset: off + int(span%32)}, Image: image})
		}
		if span%4 == 1 && len(edits) > 0 {
			edits = append(edits, ImageEdit{Pos: edits[0].Pos, End: edits[0].End, Image: image + "x"})
		}
		sameEdits(t, src, edits)
	})
}

// benchConfig is bench/scalerconfig_test.go's scalerFile: n label sets,
// ten a container scaler, a release tag on each and a pull policy on every
// tenth, about 72 bytes a label set.
func benchConfig(n int) []byte {
	var b strings.Builder
	b.WriteString("version: 1\nscalers:\n")
	for i := range n {
		if i%10 == 0 {
			fmt.Fprintf(&b, "  - name: pool-%d\n    type: container\n    maxAgents: 4\n    labelSets:\n", i/10)
		}
		fmt.Fprintf(&b, "      - labels: [Docker, l%d]\n        image: reg/kici-agent:0.20.%d\n", i, i%7)
		if i%10 == 9 {
			b.WriteString("        imagePullPolicy: Always\n")
		}
	}
	return []byte(b.String())
}

// BenchmarkEditImages pins every fifth image of a 100,000-label-set config
// (7.7 MB, 20,000 edits), reading the file whole (impl=whole, as
// EditImages did before) and by groups of items (impl=bygroup, as it
// does). Beside B/op it reports peak-MB: the most heap in use, sampled
// every millisecond, over what was in use before the first run (the file
// and the edits).
func BenchmarkEditImages(b *testing.B) {
	src := benchConfig(100000)
	cfg, err := Load(fstest.MapFS{"s.yaml": {Data: src}}, "s.yaml", "")
	require.NoError(b, err)
	all := everyImage(cfg, func(int) string { return "reg/kici-agent:0.21.0" })
	var edits []ImageEdit
	for i := 0; i < len(all); i += 5 {
		edits = append(edits, all[i])
	}
	cfg, all = nil, nil
	for _, impl := range []struct {
		name string
		size int
	}{{"whole", 0}, {"bygroup", groupBytes}} {
		b.Run("impl="+impl.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			peak := samplePeakHeap()
			for b.Loop() {
				if _, reps, err := editImages(src, edits, impl.size); err != nil || len(reps) != len(edits) {
					b.Fatal(err, len(reps))
				}
			}
			b.ReportMetric(float64(peak())/(1<<20), "peak-MB")
		})
	}
}

// samplePeakHeap collects garbage, then samples the heap in use every
// millisecond until the function it returns is called, which returns the
// most seen over what was in use at the start.
func samplePeakHeap() func() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, top := ms.HeapInuse, ms.HeapInuse
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			top = max(top, ms.HeapInuse)
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		return top - base
	}
}
