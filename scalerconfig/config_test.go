package scalerconfig

import (
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/internal/yamljs"
	"github.com/kicikit/kicikit/internal/zod"
)

// TestMarshalLikeTheOrchestrator checks that json.Marshal of every config
// that loads reads as the orchestrator's JSON.stringify of it, key for key.
func TestMarshalLikeTheOrchestrator(t *testing.T) {
	t.Parallel()
	n := 0
	for _, c := range readLoadCases(t) {
		if c.Want.Config == nil {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			got, err := load(c.fsOf(), c.Main, c.Dir, c.jsonParser(t), false)
			require.NoError(t, err)
			raw, err := json.Marshal(got)
			require.NoError(t, err)
			var gotJSON, wantJSON any
			require.NoError(t, json.Unmarshal(raw, &gotJSON))
			require.NoError(t, json.Unmarshal(c.Want.Config, &wantJSON))
			if c.Name == "resources memory empty" {
				// hostconfig.ResourceSpec omits an empty memory, which the
				// orchestrator keeps as "" and reads as no memory limit.
				assert.NotEqual(t, wantJSON, gotJSON)
				assert.Contains(t, string(c.Want.Config), `"memory": ""`)
				return
			}
			assert.Equal(t, wantJSON, gotJSON)
			assert.NotContains(t, string(raw), ":-0", "JSON.stringify writes -0 as 0")
			// And back: the JSON decodes to the same Config.
			var again Config
			require.NoError(t, json.Unmarshal(raw, &again))
			clearPositions(got)
			assert.Equal(t, got, &again)
		})
		n++
	}
	assert.Greater(t, n, 40)
}

func ptr[T any](v T) *T { return &v }

// TestLiteralMeansDefaults: a Config written as a literal, with its
// defaulted fields empty, is what Load makes of the same file.
func TestLiteralMeansDefaults(t *testing.T) {
	t.Parallel()
	literal := Config{Scalers: []Scaler{{
		Name: "local", Type: TypeContainer, MaxAgents: 2,
		LabelSets: []LabelSet{{Labels: []string{"docker", "linux"}, Image: "ghcr.io/kici-dev/kici-agent:0.20.0"}},
	}}}
	for _, c := range readLoadCases(t) {
		if c.Name != "minimal" {
			continue
		}
		loaded, err := load(c.fsOf(), c.Main, c.Dir, c.jsonParser(t), false)
		require.NoError(t, err)
		clearPositions(loaded)
		assert.Equal(t, *loaded, literal.WithDefaults())
		a, err := json.Marshal(literal)
		require.NoError(t, err)
		b, err := json.Marshal(loaded)
		require.NoError(t, err)
		assert.JSONEq(t, string(b), string(a))
		assert.Nil(t, literal.Scalers[0].NetworkIsolation, "WithDefaults copies, it does not modify")
		return
	}
	require.Fail(t, "no minimal case")
}

func TestWithDefaultsKeepsValues(t *testing.T) {
	t.Parallel()
	s := Scaler{
		MaxConcurrentSpawns: 3, Runtime: RuntimePodman, NetworkIsolation: ptr(false), MandatoryLabels: []string{"gpu"},
		ChrootBaseDir: ptr(""), VcpuCount: 4, MemSizeMib: 64, ClaimTTLSeconds: 1, AgentTokenTTLSeconds: 2,
		WarmPool:  &WarmPool{Enabled: true, IdleTimeoutSeconds: ptr(0.0)},
		LabelSets: []LabelSet{{Labels: []string{"x"}, ImagePullPolicy: PullNever}},
	}
	assert.Equal(t, s, s.WithDefaults())
	f := Config{Version: 1, GlobalMaxAgents: 7, Scalers: []Scaler{}, Firecracker: &FirecrackerNetwork{CIDR: ptr("")}}
	got := f.WithDefaults()
	assert.Equal(t, ptr(""), got.Firecracker.CIDR)
	assert.Equal(t, ptr("kici-br0"), got.Firecracker.BridgeName)
	assert.Equal(t, ptr(true), got.Firecracker.AutoProvisionHost)
	assert.Equal(t, int64(7), got.GlobalMaxAgents)
	assert.Equal(t, []string{}, LabelSet{}.WithDefaults().Labels)
	assert.Equal(t, ptr(300.0), Scaler{WarmPool: &WarmPool{}}.WithDefaults().WarmPool.IdleTimeoutSeconds)
}

// TestSpawnResources feeds hostconfig.ResolveSpawnLimits from a loaded
// config: a label set's resources, else the defaults.
func TestSpawnResources(t *testing.T) {
	t.Parallel()
	defaults := &hostconfig.Resources{Limits: &hostconfig.ResourceSpec{CPUs: 1, Memory: "1g"}}
	own := &hostconfig.Resources{Limits: &hostconfig.ResourceSpec{CPUs: 2, Memory: "4g"}}
	empty := &hostconfig.Resources{}
	for _, tc := range []struct {
		name string
		cfg  Config
		ls   LabelSet
		want *hostconfig.Resources
	}{
		{"own", Config{Defaults: &Defaults{Resources: defaults}}, LabelSet{Resources: own}, own},
		{"defaults", Config{Defaults: &Defaults{Resources: defaults}}, LabelSet{}, defaults},
		{"an empty block is the label set's", Config{Defaults: &Defaults{Resources: defaults}}, LabelSet{Resources: empty}, empty},
		{"defaults without resources", Config{Defaults: &Defaults{}}, LabelSet{}, nil},
		{"none", Config{}, LabelSet{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Same(t, tc.want, tc.cfg.SpawnResources(tc.ls))
		})
	}
	limits, err := hostconfig.ResolveSpawnLimits(hostconfig.Limits{}, (&Config{}).SpawnResources(LabelSet{Resources: own}))
	require.NoError(t, err)
	assert.Equal(t, hostconfig.Limits{CPUs: 2, MemBytes: 4 << 30}, limits)
}

func TestResourceCapJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		cap  ResourceCap
		want string
	}{
		{"empty", ResourceCap{}, `{}`},
		{"cpu", ResourceCap{MaxCPU: 1.5}, `{"maxCpu":1.5}`},
		{"zero bytes", ResourceCap{MaxMemoryBytes: ptr(0.0)}, `{"maxMemoryBytes":0}`},
		{"both", ResourceCap{MaxCPU: 2, MaxMemoryBytes: ptr(1024.0)}, `{"maxCpu":2,"maxMemoryBytes":1024}`},
		{"infinite", ResourceCap{MaxMemoryBytes: ptr(math.Inf(1))}, `{"maxMemoryBytes":null}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := json.Marshal(tc.cap)
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got))
		})
	}
}

func TestEnvJSON(t *testing.T) {
	t.Parallel()
	env := Env{{"2", "two"}, {"B", `"q"`}, {"A", "a"}}
	raw, err := json.Marshal(env)
	require.NoError(t, err)
	assert.Equal(t, `{"2":"two","B":"\"q\"","A":"a"}`, string(raw))
	var back Env
	require.NoError(t, json.Unmarshal(raw, &back))
	assert.Equal(t, env, back)
	v, ok := back.Lookup("B")
	assert.True(t, ok)
	assert.Equal(t, `"q"`, v)
	_, ok = back.Lookup("C")
	assert.False(t, ok)
	for _, bad := range []string{`[]`, `{"A":1}`, `{`, `{"A":"a",}`} {
		assert.Error(t, json.Unmarshal([]byte(bad), &back), bad)
	}
}

// TestMemoryBeyondFloat: a maxMemory too long for a float64 is +Inf bytes,
// as parseFloat reads it, and its JSON is null.
func TestMemoryBeyondFloat(t *testing.T) {
	t.Parallel()
	node := &yamljs.Node{Kind: yamljs.Map, Pairs: []yamljs.Pair{
		{Key: "version", Value: &yamljs.Node{Kind: yamljs.Number, Num: 1}},
		{Key: "globalResourceCap", Value: &yamljs.Node{Kind: yamljs.Map, Pairs: []yamljs.Pair{
			{Key: "maxMemory", Value: &yamljs.Node{Kind: yamljs.String, Str: strings.Repeat("9", 400) + "k"}},
		}}},
		{Key: "scalers", Value: &yamljs.Node{Kind: yamljs.Seq}},
	}}
	cfg, err := load(fstest.MapFS{"s.yaml": {}}, "s.yaml", "", func([]byte) (*yamljs.Node, error) { return node, nil }, false)
	require.NoError(t, err)
	assert.Equal(t, math.Inf(1), *cfg.GlobalResourceCap.MaxMemoryBytes)
	raw, err := json.Marshal(cfg)
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"globalResourceCap":{"maxMemoryBytes":null}`)
}

func TestErrorText(t *testing.T) {
	t.Parallel()
	e := &Error{Problems: []Problem{
		{File: "s.yaml", Line: 3, Column: 5, Path: "scalers[0].type", Message: "Invalid option"},
		{File: "d/a.yaml", Line: 1, Column: 1, Message: "Invalid input: expected object, received null"},
		{File: "s.yaml", Message: "Source contains multiple documents"},
	}}
	assert.Equal(t, "scalerconfig.Load: 3 problems\n"+
		"s.yaml:3:5: scalers[0].type: Invalid option\n"+
		"d/a.yaml:1:1: Invalid input: expected object, received null\n"+
		"s.yaml: Source contains multiple documents", e.Error())
	assert.Equal(t, "scalerconfig.Load: 1 problem\ns.yaml:3:5: scalers[0].type: Invalid option", (&Error{Problems: e.Problems[:1]}).Error())
	var target *Error
	assert.True(t, errors.As(error(e), &target))
}

func TestPathString(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		path []zod.Seg
		want string
	}{
		{nil, ""},
		{[]zod.Seg{zod.Key("scalers"), {Index: 0}, zod.Key("labelSets"), {Index: 1}, zod.Key("image")}, "scalers[0].labelSets[1].image"},
		{[]zod.Seg{zod.Key("env"), zod.Key("A.B")}, `env["A.B"]`},
		{[]zod.Seg{zod.Key("env"), zod.Key("_x$1")}, "env._x$1"},
		{[]zod.Seg{zod.Key("e"), zod.Key("a\"\\\n\t\x01é")}, `e["a\"\\\n\t\u0001é"]`},
		{[]zod.Seg{zod.Key("e"), zod.Key("\b\f\r")}, `e["\b\f\r"]`},
		{[]zod.Seg{{Index: 2}}, "[2]"},
		{[]zod.Seg{zod.Key("azAZ09_$"), zod.Key("a b")}, `azAZ09_$["a b"]`},
		{[]zod.Seg{zod.Key("e"), zod.Key("`"), zod.Key("{"), zod.Key("@"), zod.Key("["), zod.Key("/"), zod.Key(":")}, "e[\"`\"][\"{\"][\"@\"][\"[\"][\"/\"][\":\"]"},
		{[]zod.Seg{zod.Key("e"), zod.Key("\x1f\x7f")}, `e["\u001f` + "\x7f" + `"]`},
		// A lone surrogate (a key written "\ud800", which the YAML reader
		// holds in WTF-8) as JSON.stringify escapes it.
		{[]zod.Seg{zod.Key("env"), zod.Key("a\xed\xa0\x80")}, `env["a\ud800"]`},
	} {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, pathString(tc.path))
		})
	}
}

// TestUnionReasons: by 0.12.0's rules, "Invalid input" comes with why each
// form failed.
func TestUnionReasons(t *testing.T) {
	t.Parallel()
	for _, c := range readLoadCases(t) {
		if c.Name != "flat cpus too big" {
			continue
		}
		_, err := scan(files{fsys: c.fsOf()}, c.Main, c.Dir, c.jsonParser(t), false, ScanOptions{Rules: Rules012}, nil)
		var e *Error
		require.ErrorAs(t, err, &e)
		require.Len(t, e.Problems, 1)
		assert.Equal(t, "Invalid input", e.Problems[0].Message)
		assert.Equal(t, []string{
			`nested form: Unrecognized key: "cpus"`,
			"flat form: cpus: Too big: expected number to be <=256",
		}, e.Problems[0].Reasons)
		// From 0.16.0 there is no union: the flat key is refused.
		_, err = load(c.fsOf(), c.Main, c.Dir, c.jsonParser(t), false)
		require.ErrorAs(t, err, &e)
		require.Len(t, e.Problems, 1)
		assert.Equal(t, flatResourcesMessage, e.Problems[0].Message)
		assert.Empty(t, e.Problems[0].Reasons)
		return
	}
	require.Fail(t, "no case")
}

// TestReserved: a label is reserved when its JavaScript lower case starts
// with "kici:", before any trimming.
func TestReserved(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		label string
		want  bool
	}{
		{"kici:x", true},
		{"KICI:os:linux", true},
		{"Kici:", true},
		{"kici", false},
		{"kic:x", false},
		{"  kici:x", false},
		{"\u212Aici:x", true},  // the Kelvin sign lower-cases to k
		{"K\u0130CI:x", false}, // İ lower-cases to i and a combining dot
		{"kicі:x", false},      // a Cyrillic і
		{"ki", false},
		{"", false},
		{"kici\uFF1A", false}, // a fullwidth colon
	} {
		t.Run(strconv.QuoteToASCII(tc.label), func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, reserved(tc.label), "%+q", tc.label)
		})
	}
}

func TestPos(t *testing.T) {
	t.Parallel()
	assert.False(t, Pos{}.IsValid())
	assert.Equal(t, "s.yaml", Pos{File: "s.yaml"}.String())
	p := Pos{File: "d/a.yaml", Line: 3, Column: 7, Offset: 40}
	assert.True(t, p.IsValid())
	assert.Equal(t, "d/a.yaml:3:7", p.String())
}

// TestDropInNameNotUTF8: node reads a file name as UTF-8, replacing what
// is not, and then cannot open the file by the name it read.
func TestDropInNameNotUTF8(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"s.yaml":        {Data: []byte("version: 1\nscalers: []\n")},
		"d/\xff.yaml":   {Data: []byte("scalers: []\n")},
		"d/a-ok.yaml":   {Data: []byte("scalers: []\n")},
		"d/\xff.txt":    {Data: []byte("not read")},
		"d/sub/x.yaml":  {Data: []byte("not read")},
		"d/z-also.yaml": {Data: []byte("scalers: []\n")},
	}
	parse := func(src []byte) (*yamljs.Node, error) {
		n := &yamljs.Node{Kind: yamljs.Map, Pairs: []yamljs.Pair{{Key: "scalers", Value: &yamljs.Node{Kind: yamljs.Seq}}}}
		if strings.HasPrefix(string(src), "version") {
			n.Pairs = append(n.Pairs, yamljs.Pair{Key: "version", Value: &yamljs.Node{Kind: yamljs.Number, Num: 1}})
		}
		return n, nil
	}
	_, err := load(fsys, "s.yaml", "d", parse, false)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Contains(t, err.Error(), `scalerconfig.Load("d/\xff.yaml")`)
}

func TestPlatformTaints(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		p    Platform
		want []string
	}{
		{Platform{OS: "linux", Arch: "x64"}, nil},
		{Platform{OS: "linux", Arch: "arm64"}, []string{"arm64"}},
		{Platform{OS: "macos", Arch: "arm64"}, []string{"macos", "arm64"}},
		{Platform{OS: "windows", Arch: "x64"}, []string{"windows"}},
	} {
		t.Run(tc.p.OS+"/"+tc.p.Arch, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, tc.p.Taints(nil), "%+v", tc.p)
			assert.Equal(t, append([]string{"x"}, tc.want...), tc.p.Taints([]string{"x"}), "appends to dst")
		})
	}
	for _, l := range []string{"windows", "win32", "macos", "darwin", "arm64", "aarch64", "arm"} {
		assert.True(t, IsPlatformLabel(l), l)
		assert.True(t, IsPlatformTaint(l), "the old name: %s", l)
	}
	for _, l := range []string{"linux", "x64", "amd64", "Windows", "gpu", "", " arm", "arm7"} {
		assert.False(t, IsPlatformLabel(l), l)
		assert.False(t, IsPlatformTaint(l), "the old name: %s", l)
	}
}
