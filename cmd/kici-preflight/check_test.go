package main

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/kicikit/kicikit/preflight"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckOrder: the findings of -format json are preflight.Check's, in
// Check's order, finding for finding, on a config with findings of every
// kind, of the defaults and of label sets with both image and resource
// findings.
func TestCheckOrder(t *testing.T) {
	t.Chdir("../..")
	const config = td + "order.yaml"
	type finding struct {
		Code          string
		ScalerIndex   int
		LabelSetIndex int
		Message       string
		Line, Column  int
	}
	loc := scalerconfig.Location{Path: config}
	cfg, err := loc.Load(os.DirFS("."))
	require.NoError(t, err)
	var want []finding
	codes := map[string]bool{}
	for _, f := range preflight.Check(preflight.Input{Config: cfg, Location: loc, TargetVersion: "0.20.0"}) {
		pos, _ := preflight.ValuePos(f)
		s := f.LabelSet()
		want = append(want, finding{f.Code(), s.ScalerIndex, s.LabelSetIndex, f.Message(), pos.Line, pos.Column})
		codes[f.Code()] = true
	}
	for _, k := range preflight.Kinds() {
		require.True(t, codes[k.Code], "the config has no %s finding", k.Code)
	}

	var stdout, stderr bytes.Buffer
	require.Equal(t, exitFailure, run([]string{"-config", config, "-target", "0.20.0", "-format", "json"}, nil, &stdout, &stderr), stderr.String())
	var out struct{ Findings []finding }
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &out))
	assert.Equal(t, want, out.Findings)
}
