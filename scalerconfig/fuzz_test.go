package scalerconfig

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// FuzzLoad loads any bytes as a main file and a drop-in: Load never
// panics, every problem lies inside its file, and a config that loads
// marshals to JSON (which is YAML) that loads to the same config.
func FuzzLoad(f *testing.F) {
	for _, c := range readLoadCases(f) {
		var drop string
		for name, text := range c.Files {
			if name != c.Main {
				drop = text
			}
		}
		f.Add([]byte(c.Files[c.Main]), []byte(drop))
	}
	f.Fuzz(func(t *testing.T, main, drop []byte) {
		fsys := fstest.MapFS{"s.yaml": {Data: main}, "d/a.yaml": {Data: drop}}
		cfg, err := Load(fsys, "s.yaml", "d")
		if err != nil {
			var e *Error
			require.ErrorAs(t, err, &e)
			require.NotEmpty(t, e.Problems)
			for _, p := range e.Problems {
				src := map[string][]byte{"s.yaml": main, "d/a.yaml": drop}[p.File]
				require.NotNil(t, src, p.File)
				assertInside(t, src, p.Line, p.Column)
			}
			// A limit keeps the first problems and counts the others.
			k := 1 + len(main)%3
			_, err := scan(files{fsys: fsys}, "s.yaml", "d", yamljs.Parse, true, ScanOptions{MaxProblems: k}, nil)
			var limited *Error
			require.ErrorAs(t, err, &limited)
			kept := min(k, len(e.Problems))
			assert.Equal(t, e.Problems[:kept], limited.Problems)
			assert.Equal(t, len(e.Problems)-kept, limited.Omitted)
			return
		}
		for _, s := range cfg.Scalers {
			for _, ls := range s.LabelSets {
				if ls.ImagePos.IsValid() {
					src := map[string][]byte{"s.yaml": main, "d/a.yaml": drop}[ls.ImagePos.File]
					assert.LessOrEqual(t, ls.ImagePos.Offset, ls.ImageEnd.Offset)
					assert.LessOrEqual(t, ls.ImageEnd.Offset, len(src))
				}
			}
		}
		if !roundTrips(cfg) {
			return
		}
		raw, err := json.Marshal(cfg)
		require.NoError(t, err)
		again, err := Load(fstest.MapFS{"c.json": {Data: raw}}, "c.json", "")
		require.NoError(t, err, "%s", raw)
		clearPositions(cfg)
		clearPositions(again)
		assert.Equal(t, cfg, again)
	})
}

// assertInside checks that line:column is a place of src: a line it has,
// and a column of that line or just past its end.
func assertInside(t *testing.T, src []byte, line, column int) {
	t.Helper()
	lines := bytes.Split(src, []byte("\n"))
	require.GreaterOrEqual(t, line, 1)
	require.LessOrEqual(t, line, len(lines))
	require.GreaterOrEqual(t, column, 1)
	require.LessOrEqual(t, column, len(lines[line-1])+1)
}

// roundTrips reports whether cfg's JSON is a config that loads as cfg: the
// orchestrator writes a resource cap as {maxCpu, maxMemoryBytes}, which its
// schema does not read, trimming can turn a label into a reserved one, and
// yaml refuses a flow mapping key over 1024 characters.
func roundTrips(cfg *Config) bool {
	if cfg.GlobalResourceCap != nil || cfg.MachinePools != nil {
		return false
	}
	for _, s := range cfg.Scalers {
		if s.ResourceCap != nil || anyReserved(s.MandatoryLabels) {
			return false
		}
		for _, ls := range s.LabelSets {
			if anyReserved(ls.Labels) {
				return false
			}
			for _, v := range ls.Env {
				if len(v.Name) > 1000 {
					return false
				}
			}
		}
	}
	return true
}

func anyReserved(labels []string) bool {
	for _, l := range labels {
		if strings.HasPrefix(l, "kici:") {
			return true
		}
	}
	return false
}

// TestLoad runs every case of testdata/load.json through Load, with the
// YAML reader, by each of the rules, and compares the config or the
// problems, their files, lines and columns included, with the
// orchestrator's.
func TestLoad(t *testing.T) {
	t.Parallel()
	for _, c := range readLoadCases(t) {
		for _, r := range everyRules() {
			t.Run(r.String()+"/"+c.Name, func(t *testing.T) {
				t.Parallel()
				got, err := c.options(r).Load(c.fsOf(), c.Main, c.Dir)
				checkLoad(t, c, r, got, err, true)
			})
		}
	}
}

// TestPositions checks where Load says each scaler, label set and image is,
// in the main file and in a drop-in: src[ImagePos.Offset:ImageEnd.Offset]
// is the image's source text, quotes included.
func TestPositions(t *testing.T) {
	t.Parallel()
	main := "version: 1\nmachinePools: [{name: p, cap: {}}]\nscalers:\n  - name: a\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [x]\n        image: \"ghcr.io/kici-dev/kici-agent:0.20.0\"\n      - {labels: [y], image: 'alpine:3'}\n"
	drop := "# a drop-in\nscalers:\n- name: b\n  type: container\n  maxAgents: 1\n  labelSets:\n  - labels: [z]\n    image: busybox   # plain\n"
	cfg, err := Load(fstest.MapFS{"etc/s.yaml": {Data: []byte(main)}, "etc/s.d/b.yml": {Data: []byte(drop)}}, "etc/s.yaml", "etc/s.d")
	require.NoError(t, err)
	src := map[string]string{"etc/s.yaml": main, "etc/s.d/b.yml": drop}
	assert.Equal(t, "etc/s.yaml:1:1", cfg.Pos.String())
	assert.Equal(t, "etc/s.yaml:2:16", cfg.MachinePools[0].Pos.String())
	for _, tc := range []struct {
		scaler, set       int
		scalerPos, setPos string
		image             string
	}{
		{0, 0, "etc/s.yaml:4:5", "etc/s.yaml:8:9", `"ghcr.io/kici-dev/kici-agent:0.20.0"`},
		{0, 1, "etc/s.yaml:4:5", "etc/s.yaml:10:9", `'alpine:3'`},
		{1, 0, "etc/s.d/b.yml:3:3", "etc/s.d/b.yml:7:5", `busybox`},
	} {
		t.Run(tc.setPos, func(t *testing.T) {
			t.Parallel()
			s := cfg.Scalers[tc.scaler]
			ls := s.LabelSets[tc.set]
			assert.Equal(t, tc.scalerPos, s.Pos.String())
			assert.Equal(t, tc.setPos, ls.Pos.String())
			assert.Equal(t, ls.Pos.File, ls.ImagePos.File)
			assert.Equal(t, tc.image, src[ls.ImagePos.File][ls.ImagePos.Offset:ls.ImageEnd.Offset])
		})
	}
}
