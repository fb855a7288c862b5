package hostconfig

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

func TestResolveSpawnLimits(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name      string
		effective Limits
		res       *Resources
		want      Limits
	}{
		{"nothing set anywhere", Limits{}, nil, Limits{}},
		{"no limits block", Limits{}, &Resources{}, Limits{}},
		{"requests are never read", Limits{}, &Resources{Requests: &ResourceSpec{CPUs: 2, Memory: "1g"}}, Limits{}},
		{"resources limits", Limits{}, &Resources{Limits: &ResourceSpec{CPUs: 1.5, Memory: "512m"}}, Limits{CPUs: 1.5, MemBytes: 512 << 20}},
		{"resources cpus only", Limits{}, &Resources{Limits: &ResourceSpec{CPUs: 2}}, Limits{CPUs: 2}},
		{"resources memory only", Limits{}, &Resources{Limits: &ResourceSpec{Memory: "1g"}}, Limits{MemBytes: 1 << 30}},
		{"resources memory of zero bytes", Limits{}, &Resources{Limits: &ResourceSpec{Memory: "0k"}}, Limits{}},
		{"resources negative cpus is set (JavaScript truthiness)", Limits{}, &Resources{Limits: &ResourceSpec{CPUs: -1}}, Limits{CPUs: -1}},
		{"resources NaN cpus is not set", Limits{}, &Resources{Limits: &ResourceSpec{CPUs: nan, Memory: "1k"}}, Limits{MemBytes: 1024}},
		{"effective wins whole", Limits{CPUs: 4, MemBytes: 8 << 30}, &Resources{Limits: &ResourceSpec{CPUs: 1, Memory: "1g"}}, Limits{CPUs: 4, MemBytes: 8 << 30}},
		{"effective cpus alone wins whole", Limits{CPUs: 4}, &Resources{Limits: &ResourceSpec{CPUs: 1, Memory: "1g"}}, Limits{CPUs: 4}},
		{"effective memory alone wins whole", Limits{MemBytes: 1}, &Resources{Limits: &ResourceSpec{CPUs: 1, Memory: "1g"}}, Limits{MemBytes: 1}},
		{"effective negative cpus wins (JavaScript truthiness)", Limits{CPUs: -1}, &Resources{Limits: &ResourceSpec{CPUs: 1}}, Limits{CPUs: -1}},
		{"effective negative memory wins", Limits{MemBytes: -1}, &Resources{Limits: &ResourceSpec{CPUs: 1}}, Limits{MemBytes: -1}},
		{"effective winning skips a bad memory string", Limits{CPUs: 1}, &Resources{Limits: &ResourceSpec{Memory: "oops"}}, Limits{CPUs: 1}},
		{"effective NaN cpus alone is not set", Limits{CPUs: nan}, &Resources{Limits: &ResourceSpec{CPUs: 3}}, Limits{CPUs: 3}},
		{"effective with no resources", Limits{CPUs: 0.5}, nil, Limits{CPUs: 0.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ResolveSpawnLimits(tt.effective, tt.res)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestResolveSpawnLimitsKeepsEffectiveNaN(t *testing.T) {
	// NaN cpus beside a set memory is returned whole, as the orchestrator
	// returns its effectiveLimits object; Build then sets no cpu limit.
	got, err := ResolveSpawnLimits(Limits{CPUs: math.NaN(), MemBytes: 1024}, nil)
	require.NoError(t, err)
	assert.True(t, math.IsNaN(got.CPUs))
	assert.Equal(t, int64(1024), got.MemBytes)
	assert.Equal(t, int64(0), Build(Input{Limits: got}).NanoCPUs)
}

func TestResolveSpawnLimitsErrors(t *testing.T) {
	tests := []struct {
		name   string
		memory string
		reason Reason
	}{
		{"bad unit", "2x", ErrUnit},
		{"kubernetes suffix", "512Mi", ErrTrailing},
		{"no number", "g", ErrNumber},
		{"too large", "8589934592g", ErrRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ResolveSpawnLimits(Limits{}, &Resources{Limits: &ResourceSpec{CPUs: 2, Memory: tt.memory}})
			assert.Equal(t, Limits{}, got)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tt.memory, pe.Input)
			assert.Equal(t, tt.reason, pe.Reason)
			assert.ErrorIs(t, err, tt.reason)
			assert.Equal(t, "resources.limits.memory: "+pe.Error(), err.Error())
		})
	}
}

func TestSpawnAdditions(t *testing.T) {
	tests := []struct {
		name         string
		jobContainer bool
		want         Additions
	}{
		{"pool image: single job and sudo group", false, Additions{Env: []string{"KICI_SCALER_SINGLE_JOB=1"}, SupplementaryGroups: []int{1990}}},
		{"job image: nothing", true, Additions{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, SpawnAdditions(tt.jobContainer))
		})
	}
}

func TestSpawnAdditionsFresh(t *testing.T) {
	first := SpawnAdditions(false)
	first.Env[0] = "CHANGED=1"
	first.SupplementaryGroups[0] = 0
	second := SpawnAdditions(false)
	assert.Equal(t, []string{SingleJobEnv}, second.Env)
	assert.Equal(t, []int{SudoGroupGID}, second.SupplementaryGroups)
}

func TestSpawnAdditionsIntoBuild(t *testing.T) {
	tests := []struct {
		name         string
		jobContainer bool
		wantGroupAdd []string
	}{
		{"pool image", false, []string{"1990"}},
		{"job image", true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			add := SpawnAdditions(tt.jobContainer)
			hc := Build(Input{SupplementaryGroups: add.SupplementaryGroups})
			assert.Equal(t, tt.wantGroupAdd, hc.GroupAdd)
		})
	}
}

// TestResourcesUnmarshal checks that a scaler config's resources block, in
// YAML or JSON, reads into Resources by its own field names and resolves.
func TestResourcesUnmarshal(t *testing.T) {
	const yamlBlock = "requests:\n  cpus: 0.5\n  memory: 256m\nlimits:\n  cpus: 2\n  memory: 1.5g\n"
	const jsonBlock = `{"requests":{"cpus":0.5,"memory":"256m"},"limits":{"cpus":2,"memory":"1.5g"}}`
	want := Resources{
		Requests: &ResourceSpec{CPUs: 0.5, Memory: "256m"},
		Limits:   &ResourceSpec{CPUs: 2, Memory: "1.5g"},
	}

	var fromYAML, fromJSON Resources
	require.NoError(t, yaml.Unmarshal([]byte(yamlBlock), &fromYAML))
	require.NoError(t, json.Unmarshal([]byte(jsonBlock), &fromJSON))
	assert.Equal(t, want, fromYAML)
	assert.Equal(t, want, fromJSON)

	got, err := ResolveSpawnLimits(Limits{}, &fromYAML)
	require.NoError(t, err)
	assert.Equal(t, Limits{CPUs: 2, MemBytes: 1610612736}, got)
}
