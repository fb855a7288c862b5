package preflight

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/scalerconfig"
)

// got is a resource finding of Check as a line: code, where it is, field,
// and the scaler and label set indices.
type got struct {
	code, at, field string
	scaler, set     int
}

// resourceLines are the resource findings of src read by 0.12.0's rules,
// which read a flat resources block too; a config the newest rules read
// has the same findings by them.
func resourceLines(t *testing.T, src string) []got {
	t.Helper()
	fsys := fstest.MapFS{"s.yaml": {Data: []byte(src)}}
	cfg, err := scalerconfig.ScanOptions{Rules: scalerconfig.Rules012}.Load(fsys, "s.yaml", "")
	require.NoError(t, err)
	out := resourceLinesOf(t, cfg)
	if newest, err := scalerconfig.Load(fsys, "s.yaml", ""); err == nil {
		assert.Equal(t, out, resourceLinesOf(t, newest), "by the newest rules")
	} else {
		assert.Contains(t, err.Error(), "resources takes { requests, limits }", "only a flat block fails by the newest rules")
	}
	return out
}

// resourceLinesOf are the resource findings of cfg.
func resourceLinesOf(t *testing.T, cfg *scalerconfig.Config) []got {
	t.Helper()
	var out []got
	for _, f := range checkResources(Input{Config: cfg, Location: scalerconfig.Location{Path: "s.yaml"}}) {
		s := f.LabelSet()
		switch f := f.(type) {
		case InvalidMemory:
			out = append(out, got{f.Code(), f.At.String(), f.Field, s.ScalerIndex, s.LabelSetIndex})
		case InvalidLimit:
			out = append(out, got{f.Code(), f.At.String(), f.Field, s.ScalerIndex, s.LabelSetIndex})
		default:
			require.FailNow(t, "checkResources found another finding", "%T", f)
		}
	}
	return out
}

// checkResources is Check's resource findings, in Check's order: the
// defaults', then each label set's in config order.
func checkResources(in Input) []Finding {
	out := []Finding{}
	for _, f := range Check(in) {
		if _, ok := f.(interface{ valueAt() scalerconfig.Pos }); ok {
			out = append(out, f)
		}
	}
	return out
}

func scalerOf(typ, resources string) string {
	return "  - name: s\n    type: " + typ + "\n    maxAgents: 1\n" + typeKeys[typ] +
		"    labelSets:\n      - labels: [x]\n        image: reg/kici-agent:0.20.0\n        binaryPath: /opt/kici\n        rootfsPath: /r\n" +
		"        resources: " + resources + "\n"
}

var typeKeys = map[string]string{
	"container": "", "bare-metal": "",
	"firecracker": "    firecrackerPath: /f\n    jailerPath: /j\n    kernelPath: /k\n    uid: 1\n    gid: 1\n",
	"event":       "    provisioningTargets: [org/infra]\n",
}

// TestResources loads configs and checks every finding of their
// resources, at its value.
func TestResources(t *testing.T) {
	t.Parallel()
	head := "version: 1\nscalers:\n"
	tests := []struct {
		name string
		src  string
		want []got
	}{
		{"valid memory strings", head + scalerOf("container", "{requests: {memory: 1.5g, cpus: 0.5}, limits: {memory: '512 M', cpus: 2}}"), nil},
		{"a limit Docker's CLI would take", head + scalerOf("container", "{limits: {memory: 4GB}}"), []got{
			{"invalid-memory", "s.yaml:11:38", "resources.limits.memory", 0, 0},
		}},
		{"requests and limits, each once", head + scalerOf("container", "{requests: {memory: 4Gi}, limits: {memory: 8Gi}}"), []got{
			{"invalid-memory", "s.yaml:11:40", "resources.requests.memory", 0, 0},
			{"invalid-memory", "s.yaml:11:63", "resources.limits.memory", 0, 0},
		}},
		{"the flat form once", head + scalerOf("container", "{cpus: 1, memory: '1024'}"), []got{
			{"invalid-memory", "s.yaml:11:38", "resources.memory", 0, 0},
		}},
		{"any scaler type: bare-metal", head + scalerOf("bare-metal", "{limits: {memory: 2 gigs}}"), []got{
			{"invalid-memory", "s.yaml:11:38", "resources.limits.memory", 0, 0},
		}},
		// The scaler manager parses every memory the file writes, "" too
		// (memVal !== undefined), and parseMemoryString("") throws.
		{"any scaler type: firecracker", head + scalerOf("firecracker", "{requests: {memory: ''}}"), []got{
			{"invalid-memory", "s.yaml:16:40", "resources.requests.memory", 0, 0},
		}},
		{"an empty memory, written", head + scalerOf("container", `{limits: {memory: "", cpus: 1}}`), []got{
			{"invalid-memory", "s.yaml:11:38", "resources.limits.memory", 0, 0},
		}},
		{"an empty flat memory, once", head + scalerOf("container", "{memory: ''}"), []got{
			{"invalid-memory", "s.yaml:11:29", "resources.memory", 0, 0},
		}},
		{"an empty memory in the defaults", "version: 1\ndefaults:\n  resources:\n    requests: {memory: ''}\nscalers: []\n", []got{
			{"invalid-memory", "s.yaml:4:24", "resources.requests.memory", -1, -1},
		}},
		{"no memory is no finding", head + scalerOf("container", "{limits: {cpus: 1}, requests: {}}"), nil},
		{"any scaler type: event", head + scalerOf("event", "{requests: {memory: -1m}}"), []got{
			{"invalid-memory", "s.yaml:12:40", "resources.requests.memory", 0, 0},
		}},
		{"the defaults", "version: 1\ndefaults:\n  resources:\n    limits: {memory: 4GB, cpus: 0.0000000001}\nscalers: []\n", []got{
			{"invalid-memory", "s.yaml:4:22", "resources.limits.memory", -1, -1},
			{"invalid-limit", "s.yaml:4:33", "resources.limits.cpus", -1, -1},
		}},
		{"a zero memory limit", head + scalerOf("container", "{limits: {memory: 0.0001k}}"), []got{
			{"invalid-limit", "s.yaml:11:38", "resources.limits.memory", 0, 0},
		}},
		{"a zero flat limit", head + scalerOf("container", "{memory: 0k, cpus: 1e-10}"), []got{
			{"invalid-limit", "s.yaml:11:29", "resources.memory", 0, 0},
			{"invalid-limit", "s.yaml:11:39", "resources.cpus", 0, 0},
		}},
		{"a limit beyond an int64", head + scalerOf("container", "{limits: {memory: 9999999999g}, requests: {memory: 9999999999g}}"), []got{
			{"invalid-limit", "s.yaml:11:38", "resources.limits.memory", 0, 0},
		}},
		{"limits of other types are theirs", head + scalerOf("bare-metal", "{limits: {memory: 0k, cpus: 1e-10}}"), nil},
		{"requests are not limits", head + scalerOf("container", "{requests: {memory: 0k, cpus: 1e-10}}"), nil},
		{"in config order", head + scalerOf("container", "{limits: {memory: 1x}}") + strings.Replace(scalerOf("event", "{limits: {memory: 2y}}"), "name: s", "name: t", 1), []got{
			{"invalid-memory", "s.yaml:11:38", "resources.limits.memory", 0, 0},
			{"invalid-memory", "s.yaml:21:38", "resources.limits.memory", 1, 0},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, resourceLines(t, tt.src))
		})
	}
}

// TestResourceMessages: the messages name the label set (or the
// defaults), carry the orchestrator's own error word for word, and say
// how to fix it.
func TestResourceMessages(t *testing.T) {
	t.Parallel()
	src := "version: 1\ndefaults:\n  resources: {limits: {memory: 0k}}\nscalers:\n" + scalerOf("bare-metal", "{limits: {memory: 4GB}}") +
		strings.Replace(scalerOf("container", "{memory: 99999999999999g, cpus: 1e-12}"), "name: s", "name: c", 1)
	// The flat block loads by 0.12.0's rules.
	cfg, err := scalerconfig.ScanOptions{Rules: scalerconfig.Rules012}.Load(fstest.MapFS{"s.yaml": {Data: []byte(src)}}, "s.yaml", "")
	require.NoError(t, err)
	var messages []string
	for _, f := range checkResources(Input{Config: cfg, Location: scalerconfig.Location{Path: "/etc/kici/scalers.yaml", Dir: "/etc/kici/scalers.d"}}) {
		messages = append(messages, f.Message())
		assert.False(t, must(f.Replacement()), "no image to advise")
	}
	assert.Equal(t, []string{
		`defaults: resources.limits.memory "0k" comes out as 0 bytes, which Docker reads as no limit: the agents of every label set that has no resources of its own run without the limit the config writes. In /etc/kici/scalers.yaml, set at least "1k" in defaults.resources, or remove the limit.`,
		`bare-metal scaler "s", label set [x]: resources.limits.memory: Invalid memory format: "4GB". Expected format like "512m", "2g", or "1024k". The orchestrator loads this config and reads the memory only when it spawns an agent, so every spawn for this label set fails there, unless the job sets its own memory. In /etc/kici/scalers.yaml (or the file under /etc/kici/scalers.d that declares it), write the memory as a number and one unit k, m or g on this label set ("4g").`,
		`container scaler "c", label set [x]: resources.memory "99999999999999g" is more bytes than a container's memory limit holds (an int64), so the container runtime refuses to create the containers of this label set's agents: every spawn fails. In /etc/kici/scalers.yaml (or the file under /etc/kici/scalers.d that declares it), set a smaller limit on this label set.`,
		`container scaler "c", label set [x]: resources.cpus 1e-12 rounds to 0 NanoCPUs, which Docker reads as no limit: this label set's agents run without the limit the config writes. In /etc/kici/scalers.yaml (or the file under /etc/kici/scalers.d that declares it), set at least 0.000000001 on this label set, or remove the limit.`,
	}, messages)
}

func must(_ string, ok bool) bool { return ok }

// TestResourcesLiteral: a literal has no positions, and its requests
// and limits are two sides even when they hold the same string.
func TestResourcesLiteral(t *testing.T) {
	t.Parallel()
	res := &hostconfig.Resources{Requests: &hostconfig.ResourceSpec{Memory: "4GB"}, Limits: &hostconfig.ResourceSpec{Memory: "4GB"}}
	cfg := &scalerconfig.Config{
		Defaults: &scalerconfig.Defaults{Resources: &hostconfig.Resources{Limits: &hostconfig.ResourceSpec{CPUs: 1e-10}}},
		Scalers:  []scalerconfig.Scaler{{Name: "a", Type: scalerconfig.TypeContainer, LabelSets: []scalerconfig.LabelSet{{Labels: []string{"x"}}, {Labels: []string{"y"}, Resources: res}}}},
	}
	findings := checkResources(Input{Config: cfg})
	require.Len(t, findings, 3)
	assert.Equal(t, InvalidLimit{Site: Site{ScalerIndex: -1, LabelSetIndex: -1}, Field: "resources.limits.cpus",
		Err: &hostconfig.LimitError{Field: "cpus", CPUs: 1e-10, Err: hostconfig.ErrZeroLimit}}, findings[0])
	assert.Equal(t, []Finding{}, Check(Input{}), "no config, no finding, and not nil")
	assert.Empty(t, newChecker(Input{}).defaults(nil, nil))
	for i, field := range []string{"resources.requests.memory", "resources.limits.memory"} {
		t.Run(field, func(t *testing.T) {
			t.Parallel()
			f, ok := findings[1+i].(InvalidMemory)
			require.True(t, ok, "%T", findings[1+i])
			assert.Equal(t, field, f.Field)
			assert.Equal(t, scalerconfig.TypeContainer, f.ScalerType)
			assert.Equal(t, scalerconfig.Pos{}, f.At)
			assert.Equal(t, 1, f.LabelSetIndex)
			assert.ErrorIs(t, f.Err, hostconfig.ErrTrailing)
			assert.Equal(t, []string{"y"}, f.Labels)
		})
	}
}

// TestScanResources: Scan, reading a config one scaler at a time, gives
// Check's findings, the defaults' first though the defaults come last.
func TestScanResources(t *testing.T) {
	t.Parallel()
	src := "version: 1\ndefaults:\n  resources: {limits: {memory: 1t}}\nscalers:\n" + scalerOf("container", "{limits: {memory: 4GB}}") + scalerOf("event", "{requests: {memory: x}}")
	fsys := fstest.MapFS{"s.yaml": {Data: []byte(src)}}
	cfg, err := scalerconfig.Load(fsys, "s.yaml", "")
	require.NoError(t, err)
	in := Input{Config: cfg, Location: scalerconfig.Location{Path: "s.yaml"}}
	got, _, err := Scan(Input{Location: in.Location}, func(each func(int, *scalerconfig.Scaler)) (*scalerconfig.Config, error) {
		return scalerconfig.Location{Path: "s.yaml"}.Scan(fsys, scalerconfig.ScanOptions{}, each)
	})
	require.NoError(t, err)
	assert.Equal(t, Check(in), got)
	require.Len(t, got, 3)
	assert.Equal(t, "s.yaml:3:32", got[0].(InvalidMemory).At.String())
	assert.Equal(t, "s.yaml:3:3", got[0].LabelSet().Pos.String(), "the defaults' mapping")
	assert.Equal(t, "s.yaml", got[0].LabelSet().Where, "the main file, which declares the defaults")
	assert.Equal(t, `defaults: resources.limits.memory: Invalid memory format: "1t". Expected format like "512m", "2g", or "1024k". `+
		`The orchestrator loads this config and reads the memory only when it spawns an agent, so every spawn of a label set that sets no memory of its own fails there, unless the job sets one. `+
		`In s.yaml, write the memory as a number and one unit k, m or g in defaults.resources.`, got[0].Message())
}

// TestResourceFindingJSON: each marshals to the fields every finding has,
// then its own.
func TestResourceFindingJSON(t *testing.T) {
	t.Parallel()
	pe := &hostconfig.ParseError{Input: "4GB", Reason: hostconfig.ErrUnit}
	site := Site{Scaler: "s", Labels: []string{"x"}, Image: "i", ScalerIndex: 1, LabelSetIndex: 2, Where: "s.yaml"}
	for _, tt := range []struct {
		name string
		f    Finding
		want string
	}{
		{"invalid-memory", InvalidMemory{Site: site, ScalerType: "bare-metal", Field: "resources.limits.memory", Memory: "4GB", Err: pe},
			`{"code":"invalid-memory","scaler":"s","labels":["x"],"image":"i","message":"","scalerIndex":1,"labelSetIndex":2,"scalerType":"bare-metal","field":"resources.limits.memory","value":"4GB","error":"hostconfig.ParseMemory(\"4GB\"): no unit k, m or g after the number","where":"s.yaml"}`},
		{"invalid-limit", InvalidLimit{Site: site, ScalerType: "container", Field: "resources.cpus", Err: &hostconfig.LimitError{Field: "cpus", CPUs: 1e-10, Err: hostconfig.ErrZeroLimit}},
			`{"code":"invalid-limit","scaler":"s","labels":["x"],"image":"i","message":"","scalerIndex":1,"labelSetIndex":2,"scalerType":"container","field":"resources.cpus","value":1e-10,"error":"hostconfig.ResolveSpawnLimits: limits.cpus 1e-10: comes out as zero, which Docker reads as no limit","where":"s.yaml"}`},
		{"zero InvalidLimit", InvalidLimit{}, `{"code":"invalid-limit","scaler":"","labels":[],"image":"","message":"","scalerIndex":0,"labelSetIndex":0,"scalerType":"","field":"","value":"","error":"hostconfig.ResolveSpawnLimits: limits.memory \"\": comes out as zero, which Docker reads as no limit","where":""}`},
		{"zero InvalidMemory", InvalidMemory{}, `{"code":"invalid-memory","scaler":"","labels":[],"image":"","message":"","scalerIndex":0,"labelSetIndex":0,"scalerType":"","field":"","value":"","error":"","where":""}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			raw, err := json.Marshal(tt.f)
			require.NoError(t, err)
			var obj map[string]any
			require.NoError(t, json.Unmarshal(raw, &obj))
			assert.Equal(t, tt.f.Message(), obj["message"])
			want := strings.Replace(tt.want, `"message":""`, `"message":`+string(mustMarshal(t, tt.f.Message())), 1)
			assert.Equal(t, want, string(raw))
		})
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	return raw
}

func TestMemoryFix(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"4GB": "4g", "4Gi": "4g", "512 MiB": "512m", "2gb": "2g", "1.5GB": "1.5g", "64kB": "64k", "1KiB": "1k",
		"4G": "", "4": "", "4TB": "", "GB": "", "4 GBs": "", "4.GB": "", "-1GB": "", "": "",
	} {
		t.Run(strconv.Quote(in), func(t *testing.T) {
			t.Parallel()
			got, ok := memoryFix(in)
			assert.Equal(t, want, got)
			assert.Equal(t, want != "", ok)
		})
	}
}

// FuzzResources: on any memory strings and cpus, an invalid-memory
// finding is exactly a string the orchestrator's parser refuses, with its
// error word for word, and an invalid-limit exactly a container limit
// ResolveSpawnLimits refuses that the parser reads.
func FuzzResources(f *testing.F) {
	for _, s := range []string{"512m", "4GB", "0k", "", " 1g", "1.5 G", "99999999999999999999g", "1\u00a0m", "1\u0085m"} {
		f.Add(s, s+"x", 1e-10, true)
		f.Add(s, "1g", 2.0, false)
	}
	f.Fuzz(func(t *testing.T, request, limit string, cpus float64, container bool) {
		typ := scalerconfig.TypeBareMetal
		if container {
			typ = scalerconfig.TypeContainer
		}
		res := &hostconfig.Resources{Requests: &hostconfig.ResourceSpec{Memory: request}, Limits: &hostconfig.ResourceSpec{Memory: limit, CPUs: cpus}}
		cfg := &scalerconfig.Config{Scalers: []scalerconfig.Scaler{{Name: "n", Type: typ, LabelSets: []scalerconfig.LabelSet{{Resources: res}}}}}
		want := map[string]bool{}
		for field, s := range map[string]string{"resources.requests.memory": request, "resources.limits.memory": limit} {
			var pe *hostconfig.ParseError
			if _, err := hostconfig.ParseMemory(s); s != "" && errors.As(err, &pe) && pe.Reason != hostconfig.ErrRange {
				want["invalid-memory "+field] = true
			} else if field == "resources.limits.memory" && container {
				_, err := hostconfig.ResolveSpawnLimits(hostconfig.Limits{}, &hostconfig.Resources{Limits: &hostconfig.ResourceSpec{Memory: s}})
				want["invalid-limit "+field] = err != nil
			}
		}
		if _, err := hostconfig.ResolveSpawnLimits(hostconfig.Limits{}, &hostconfig.Resources{Limits: &hostconfig.ResourceSpec{CPUs: cpus}}); err != nil && container {
			want["invalid-limit resources.limits.cpus"] = true
		}
		got := map[string]bool{}
		for _, f := range checkResources(Input{Config: cfg}) {
			switch f := f.(type) {
			case InvalidMemory:
				got["invalid-memory "+f.Field] = true
				require.Contains(t, f.Message(), `Invalid memory format: "`+f.Memory+`". Expected format like "512m", "2g", or "1024k".`)
			case InvalidLimit:
				got["invalid-limit "+f.Field] = true
				require.NotEmpty(t, f.Message())
			}
			_, err := json.Marshal(f)
			require.NoError(t, err)
		}
		for k, v := range want {
			if !v {
				delete(want, k)
			}
		}
		require.Equal(t, want, got)
	})
}
