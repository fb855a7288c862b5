package hostconfig

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResolveSpawnLimits(t *testing.T) {
	t.Parallel()
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
		{"resources memory of one byte", Limits{}, &Resources{Limits: &ResourceSpec{Memory: "0.0009765625k"}}, Limits{MemBytes: 1}},
		{"resources cpus rounding to one nano", Limits{}, &Resources{Limits: &ResourceSpec{CPUs: 5e-10}}, Limits{CPUs: 5e-10}},
		{"effective cpus rounding to zero are the scaler manager's, returned whole", Limits{CPUs: 1e-12}, &Resources{Limits: &ResourceSpec{CPUs: 1}}, Limits{CPUs: 1e-12}},
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
			t.Parallel()
			got, err := ResolveSpawnLimits(tt.effective, tt.res)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestResolveSpawnLimitsKeepsEffectiveNaN(t *testing.T) {
	t.Parallel()
	// NaN cpus beside a set memory is returned whole, as the orchestrator
	// returns its effectiveLimits object; Build then sets no cpu limit.
	got, err := ResolveSpawnLimits(Limits{CPUs: math.NaN(), MemBytes: 1024}, nil)
	require.NoError(t, err)
	assert.True(t, math.IsNaN(got.CPUs))
	assert.Equal(t, int64(1024), got.MemBytes)
	assert.Equal(t, int64(0), Build(Input{Limits: got}).NanoCPUs)
}

func TestResolveSpawnLimitsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		limits ResourceSpec
		field  string
		reason Reason
		msg    string
	}{
		{"bad unit", ResourceSpec{CPUs: 2, Memory: "2x"}, "memory", ErrUnit,
			`hostconfig.ResolveSpawnLimits: limits.memory "2x": no unit k, m or g after the number`},
		{"kubernetes suffix", ResourceSpec{CPUs: 2, Memory: "512Mi"}, "memory", ErrTrailing,
			`hostconfig.ResolveSpawnLimits: limits.memory "512Mi": text after the unit`},
		{"no number", ResourceSpec{Memory: "g"}, "memory", ErrNumber,
			`hostconfig.ResolveSpawnLimits: limits.memory "g": no decimal number at the start (want digits, optionally '.' and more digits)`},
		{"too large", ResourceSpec{Memory: "8589934592g"}, "memory", ErrRange,
			`hostconfig.ResolveSpawnLimits: limits.memory "8589934592g": more bytes than an int64 holds`},
		{"memory of zero", ResourceSpec{CPUs: 2, Memory: "0k"}, "memory", ErrZeroLimit,
			`hostconfig.ResolveSpawnLimits: limits.memory "0k": comes out as zero, which Docker reads as no limit`},
		{"memory below a byte", ResourceSpec{CPUs: 2, Memory: "0.0001k"}, "memory", ErrZeroLimit,
			`hostconfig.ResolveSpawnLimits: limits.memory "0.0001k": comes out as zero, which Docker reads as no limit`},
		{"memory just below a byte", ResourceSpec{Memory: "0.0009765624999999999999999k"}, "memory", ErrZeroLimit,
			`hostconfig.ResolveSpawnLimits: limits.memory "0.0009765624999999999999999k": comes out as zero, which Docker reads as no limit`},
		{"cpus rounding to zero", ResourceSpec{CPUs: 1e-12, Memory: "1g"}, "cpus", ErrZeroLimit,
			`hostconfig.ResolveSpawnLimits: limits.cpus 1e-12: comes out as zero, which Docker reads as no limit`},
		{"cpus just below half a nano", ResourceSpec{CPUs: 4.9999999999999994e-10}, "cpus", ErrZeroLimit,
			`hostconfig.ResolveSpawnLimits: limits.cpus 4.999999999999999e-10: comes out as zero, which Docker reads as no limit`},
		{"smallest positive cpus", ResourceSpec{CPUs: math.SmallestNonzeroFloat64}, "cpus", ErrZeroLimit,
			`hostconfig.ResolveSpawnLimits: limits.cpus 5e-324: comes out as zero, which Docker reads as no limit`},
		{"memory is checked first", ResourceSpec{CPUs: 1e-12, Memory: "0k"}, "memory", ErrZeroLimit,
			`hostconfig.ResolveSpawnLimits: limits.memory "0k": comes out as zero, which Docker reads as no limit`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			spec := tt.limits
			got, err := ResolveSpawnLimits(Limits{}, &Resources{Limits: &spec})
			assert.Equal(t, Limits{}, got)
			var le *LimitError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, tt.field, le.Field)
			assert.ErrorIs(t, err, tt.reason)
			assert.EqualError(t, err, tt.msg)
			if tt.field == "memory" {
				assert.Equal(t, spec.Memory, le.Memory)
			} else {
				assert.Equal(t, spec.CPUs, le.CPUs)
			}
			var pe *ParseError
			if tt.reason == ErrZeroLimit {
				assert.False(t, errors.As(err, &pe), "a zero limit is no parse error")
				return
			}
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, &ParseError{Input: spec.Memory, Reason: tt.reason}, pe)
		})
	}
}

// TestResolveSpawnLimitsZeroStaysWithParseMemory checks that the refusal of
// a zero limit is ResolveSpawnLimits' alone: ParseMemory still reads the
// orchestrator's value, 0.
func TestResolveSpawnLimitsZeroStaysWithParseMemory(t *testing.T) {
	t.Parallel()
	n, err := ParseMemory("0.0001k")
	require.NoError(t, err)
	assert.Equal(t, int64(0), n)
}

func TestLimitErrorLongInput(t *testing.T) {
	huge := strings.Repeat("1", 10<<20) + "x"
	res := &Resources{Limits: &ResourceSpec{Memory: huge}}
	_, err := ResolveSpawnLimits(Limits{}, res)
	assert.EqualError(t, err, `hostconfig.ResolveSpawnLimits: limits.memory "`+strings.Repeat("1", 64)+`"... (10485761 bytes): no unit k, m or g after the number`)
	assert.Less(t, heapBytes(func() {
		_, err := ResolveSpawnLimits(Limits{}, res)
		_ = err.Error()
	}), uint64(4096))
}

func TestSpawnAdditions(t *testing.T) {
	t.Parallel()
	base := Input{Limits: Limits{CPUs: 1}, Binds: []string{"/a:/a"}, SupplementaryGroups: []int{5}}
	tests := []struct {
		name       string
		origin     Origin
		env        []string
		wantEnv    []string
		wantGroups []int
	}{
		{"pool image: single job and sudo group", PoolImage, []string{"A=1"}, []string{"A=1", SingleJobEnv}, []int{5, SudoGroupGID}},
		{"pool image, no environment yet", PoolImage, nil, []string{SingleJobEnv}, []int{5, SudoGroupGID}},
		{"job image: nothing", JobImage, []string{"A=1"}, []string{"A=1"}, []int{5}},
		{"zero origin: nothing", 0, []string{"A=1"}, []string{"A=1"}, []int{5}},
		{"unknown origin: nothing", Origin(9), nil, nil, []int{5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env, in := SpawnAdditions(tt.origin).Apply(tt.env, base)
			assert.Equal(t, tt.wantEnv, env)
			assert.Equal(t, tt.wantGroups, in.SupplementaryGroups)
			assert.Equal(t, base.Limits, in.Limits)
			assert.Equal(t, base.Binds, in.Binds)
		})
	}
}

// TestSingleJobRuleIsWhole checks that the single-job rule cannot be half
// applied: Additions hands out no half as a field, and what Apply gives has
// the environment entry exactly when it has the sudo group, which Build then
// passes on. (A caller of the old SpawnAdditions(bool) could take its
// SupplementaryGroups field alone, as the README's snippet did.)
func TestSingleJobRuleIsWhole(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeOf(Additions{})
	for i := range typ.NumField() {
		assert.False(t, typ.Field(i).IsExported(), "Additions.%s hands out a half of the rule", typ.Field(i).Name)
	}
	for _, origin := range []Origin{0, PoolImage, JobImage, 3} {
		t.Run(origin.String(), func(t *testing.T) {
			t.Parallel()
			env, in := SpawnAdditions(origin).Apply([]string{"PATH=/bin"}, Input{})
			hc := Build(in)
			hasEnv := slices.Contains(env, SingleJobEnv)
			assert.Equal(t, hasEnv, slices.Contains(hc.GroupAdd, "1990"))
			assert.Equal(t, origin == PoolImage, hasEnv)
		})
	}
}

// TestApplyWritesNothingOfTheCaller checks that Apply appends to new
// arrays, even when the caller's slices have room to spare, and that two
// results share nothing.
func TestApplyWritesNothingOfTheCaller(t *testing.T) {
	t.Parallel()
	env := make([]string, 1, 8)
	env[0] = "A=1"
	groups := make([]int, 1, 8)
	groups[0] = 5
	add := SpawnAdditions(PoolImage)
	env1, in1 := add.Apply(env, Input{SupplementaryGroups: groups})
	env2, in2 := add.Apply(env, Input{SupplementaryGroups: groups})
	assert.Equal(t, []string{"A=1", ""}, env[:2], "the caller's spare capacity is untouched")
	assert.Equal(t, []int{5, 0}, groups[:2])
	env1[0], in1.SupplementaryGroups[0] = "CHANGED=1", 0
	assert.Equal(t, []string{"A=1", SingleJobEnv}, env2)
	assert.Equal(t, []int{5, SudoGroupGID}, in2.SupplementaryGroups)
	assert.Equal(t, "A=1", env[0])

	jobEnv, jobIn := SpawnAdditions(JobImage).Apply(env, Input{SupplementaryGroups: groups})
	jobEnv[0], jobIn.SupplementaryGroups[0] = "CHANGED=1", 0
	assert.Equal(t, "A=1", env[0], "an Apply that adds nothing still copies")
	assert.Equal(t, 5, groups[0])
}

func TestOriginString(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "pool image", PoolImage.String())
	assert.Equal(t, "job image", JobImage.String())
	assert.Equal(t, "Origin(0)", Origin(0).String())
}

// TestResourcesUnmarshal checks that a scaler config's resources block, in
// JSON, reads into Resources by its own field names and resolves. (A YAML
// config is read by package scalerconfig, whose tests cover the block.)
func TestResourcesUnmarshal(t *testing.T) {
	t.Parallel()
	const jsonBlock = `{"requests":{"cpus":0.5,"memory":"256m"},"limits":{"cpus":2,"memory":"1.5g"}}`
	want := Resources{
		Requests: &ResourceSpec{CPUs: 0.5, Memory: "256m"},
		Limits:   &ResourceSpec{CPUs: 2, Memory: "1.5g"},
	}

	var fromJSON Resources
	require.NoError(t, json.Unmarshal([]byte(jsonBlock), &fromJSON))
	assert.Equal(t, want, fromJSON)

	got, err := ResolveSpawnLimits(Limits{}, &fromJSON)
	require.NoError(t, err)
	assert.Equal(t, Limits{CPUs: 2, MemBytes: 1610612736}, got)
}
