package hostconfig

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/moby/moby/api/types/container"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ptr[T any](v T) *T { return &v }

func TestBuild(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   Input
		want container.HostConfig
	}{
		{
			name: "empty input: only the process limit",
			in:   Input{},
			want: container.HostConfig{Resources: container.Resources{PidsLimit: ptr[int64](4096)}},
		},
		{
			name: "empty but non-nil slices stay unset",
			in:   Input{Binds: []string{}, ExtraHosts: []string{}, SupplementaryGroups: []int{}},
			want: container.HostConfig{Resources: container.Resources{PidsLimit: ptr[int64](4096)}},
		},
		{
			name: "everything set",
			in: Input{
				Limits:              Limits{CPUs: 1.5, MemBytes: 2 << 30},
				Binds:               []string{"/var/run/docker.sock:/var/run/docker.sock", "cache:/cache:ro"},
				ExtraHosts:          []string{"registry.local:10.0.0.5"},
				SupplementaryGroups: []int{1990, 0, -5},
			},
			want: container.HostConfig{
				Binds:      []string{"/var/run/docker.sock:/var/run/docker.sock", "cache:/cache:ro"},
				ExtraHosts: []string{"registry.local:10.0.0.5"},
				GroupAdd:   []string{"1990", "0", "-5"},
				Resources: container.Resources{
					Memory:    2 << 30,
					NanoCPUs:  1_500_000_000,
					PidsLimit: ptr[int64](4096),
				},
			},
		},
		{
			name: "memory only",
			in:   Input{Limits: Limits{MemBytes: 1}},
			want: container.HostConfig{Resources: container.Resources{Memory: 1, PidsLimit: ptr[int64](4096)}},
		},
		{
			name: "cpus only",
			in:   Input{Limits: Limits{CPUs: 0.25}},
			want: container.HostConfig{Resources: container.Resources{NanoCPUs: 250_000_000, PidsLimit: ptr[int64](4096)}},
		},
		{
			name: "negative limits are no limits",
			in:   Input{Limits: Limits{CPUs: -1, MemBytes: -1}},
			want: container.HostConfig{Resources: container.Resources{PidsLimit: ptr[int64](4096)}},
		},
		{
			name: "NaN cpus is not positive",
			in:   Input{Limits: Limits{CPUs: math.NaN()}},
			want: container.HostConfig{Resources: container.Resources{PidsLimit: ptr[int64](4096)}},
		},
		{
			name: "-Inf cpus is not positive",
			in:   Input{Limits: Limits{CPUs: math.Inf(-1)}},
			want: container.HostConfig{Resources: container.Resources{PidsLimit: ptr[int64](4096)}},
		},
		{
			name: "+Inf cpus clamps to MaxInt64",
			in:   Input{Limits: Limits{CPUs: math.Inf(1)}},
			want: container.HostConfig{Resources: container.Resources{NanoCPUs: math.MaxInt64, PidsLimit: ptr[int64](4096)}},
		},
		{
			name: "only extra hosts",
			in:   Input{ExtraHosts: []string{"a:1.2.3.4"}},
			want: container.HostConfig{ExtraHosts: []string{"a:1.2.3.4"}, Resources: container.Resources{PidsLimit: ptr[int64](4096)}},
		},
		{
			name: "max memory",
			in:   Input{Limits: Limits{MemBytes: math.MaxInt64}},
			want: container.HostConfig{Resources: container.Resources{Memory: math.MaxInt64, PidsLimit: ptr[int64](4096)}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Build(tt.in)
			assert.Equal(t, tt.want, got)
			assert.False(t, got.AutoRemove)
		})
	}
}

// TestNanoCPUs pins Math.round(cpus * 1e9) as node 20 computes it; the
// wanted values come from `node -e 'console.log(Math.round(x * 1e9))'`.
func TestNanoCPUs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cpus float64
		want int64
	}{
		{"one", 1, 1_000_000_000},
		{"one and a half", 1.5, 1_500_000_000},
		{"0.1", 0.1, 100_000_000},
		{"0.3", 0.3, 300_000_000},
		{"1.005 (product 1004999999.9999999)", 1.005, 1_005_000_000},
		{"2.675", 2.675, 2_675_000_000},
		{"one nano", 1e-9, 1},
		{"half a nano rounds up", 5e-10, 1},
		{"product 0.49999999999999994 rounds down", 4.9999999999999994e-10, 0},
		{"a half above one rounds up", 1.0000000005, 1_000_000_001},
		{"smallest positive float", math.SmallestNonzeroFloat64, 0},
		{"2^53 nanos is exact", 9007199.254740992, 9_007_199_254_740_992},
		{"largest product below 2^63", math.Nextafter(1<<63, 0) / 1e9, 9_223_372_036_854_774_784},
		{"product of 2^63 clamps", 9223372036.854775808, math.MaxInt64},
		{"1e10 cpus clamps", 1e10, math.MaxInt64},
		{"max float clamps", math.MaxFloat64, math.MaxInt64},
		{"+Inf clamps", math.Inf(1), math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, nanoCPUs(tt.cpus))
			assert.Equal(t, tt.want, Build(Input{Limits: Limits{CPUs: tt.cpus}}).NanoCPUs)
		})
	}
}

func TestBuildCopiesInput(t *testing.T) {
	t.Parallel()
	in := Input{
		Limits:              Limits{CPUs: 2, MemBytes: 1 << 30},
		Binds:               []string{"/a:/a"},
		ExtraHosts:          []string{"h:10.0.0.1"},
		SupplementaryGroups: []int{1990},
	}
	got := Build(in)
	want := Build(Input{
		Limits:              Limits{CPUs: 2, MemBytes: 1 << 30},
		Binds:               []string{"/a:/a"},
		ExtraHosts:          []string{"h:10.0.0.1"},
		SupplementaryGroups: []int{1990},
	})

	in.Limits = Limits{}
	in.Binds[0] = "/changed:/changed"
	in.ExtraHosts[0] = "changed:10.9.9.9"
	in.SupplementaryGroups[0] = 0
	assert.Equal(t, want, got)

	// A caller changing one result changes neither the next result nor
	// the constant.
	got.Binds[0] = "/mutated:/mutated"
	*got.PidsLimit = 1
	again := Build(Input{Binds: []string{"/a:/a"}})
	assert.Equal(t, []string{"/a:/a"}, again.Binds)
	require.NotNil(t, again.PidsLimit)
	assert.Equal(t, int64(PidsLimit), *again.PidsLimit)
	assert.NotSame(t, got.PidsLimit, again.PidsLimit)
}

// update rewrites the golden files in testdata from what Build returns:
// after a bump of github.com/moby/moby/api, run
//
//	go test ./hostconfig -run TestBuildJSON -update
//
// and review the diff. These files are the only copy of the Engine's whole
// HostConfig JSON in the repository; the examples print only the fields
// Build sets.
var update = flag.Bool("update", false, "rewrite testdata/*.json from what Build returns")

// TestBuildJSON pins the JSON the Docker Go client sends as the HostConfig
// of POST /containers/create, and checks that it decodes back, through the
// Engine API's own type, into the same HostConfig.
func TestBuildJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		golden string
		in     Input
	}{
		{name: "empty", golden: "hostconfig_empty.json", in: Input{}},
		{
			name:   "full",
			golden: "hostconfig_full.json",
			in: Input{
				Limits:              Limits{CPUs: 1.5, MemBytes: 2 << 30},
				Binds:               []string{"/var/run/docker.sock:/var/run/docker.sock"},
				ExtraHosts:          []string{"registry.local:10.0.0.5"},
				SupplementaryGroups: []int{SudoGroupGID},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			golden := filepath.Join("testdata", tt.golden)
			hc := Build(tt.in)
			if *update {
				out, err := json.MarshalIndent(hc, "", "  ")
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(golden, append(out, '\n'), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			got, err := json.Marshal(hc)
			require.NoError(t, err)
			var compact bytes.Buffer
			require.NoError(t, json.Compact(&compact, want))
			assert.Equal(t, compact.String(), string(got))

			var back container.HostConfig
			require.NoError(t, json.Unmarshal(want, &back))
			assert.Equal(t, hc, back)
		})
	}
}
