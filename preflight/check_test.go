package preflight

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/kicikit/kicikit/imageref"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	path   = "/etc/kici/scalers.yaml"
	dir    = "/etc/kici/scalers.d"
	hex64  = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	sha256 = "sha256:" + hex64
)

// one is a config of one container scaler "docker" with one label set
// [linux, x64].
func one(image string, policy scalerconfig.PullPolicy) *scalerconfig.Config {
	return &scalerconfig.Config{Scalers: []scalerconfig.Scaler{{Name: "docker", Type: scalerconfig.TypeContainer, LabelSets: []scalerconfig.LabelSet{
		{Labels: []string{"linux", "x64"}, Image: image, ImagePullPolicy: policy},
	}}}}
}

// site is the Site of one's label set, in the file path.
func site(image string) Site {
	return Site{Scaler: "docker", Labels: []string{"linux", "x64"}, Image: image, Where: path}
}

func mustParseErr(t *testing.T, s string) *imageref.ParseError {
	t.Helper()
	_, err := imageref.Parse(s)
	var pe *imageref.ParseError
	require.ErrorAs(t, err, &pe)
	return pe
}

func TestCheckAgentImages(t *testing.T) {
	t.Parallel()
	const w = path
	tests := []struct {
		name   string
		config *scalerconfig.Config
		target string
		want   []Finding
	}{
		// The orchestrator's moving-tag.
		{"no tag", one("kici-agent", ""), "0.20.0",
			[]Finding{MovingTag{Site: site("kici-agent"), Tag: "", Target: "0.20.0"}}},
		{"latest, IfNotPresent written out", one("quay.io/kici/kici-agent:latest", scalerconfig.PullIfNotPresent), "0.20.0",
			[]Finding{MovingTag{Site: site("quay.io/kici/kici-agent:latest"), Tag: "latest", Target: "0.20.0"}}},
		{"latest, no target", one("kici-agent:latest", ""), "",
			[]Finding{MovingTag{Site: site("kici-agent:latest"), Tag: "latest"}}},
		{"latest, Always", one("kici-agent:latest", scalerconfig.PullAlways), "0.20.0", nil},
		{"latest with a digest", one("kici-agent:latest@"+sha256, ""), "0.20.0", nil},
		{"digest only", one("kici-agent@"+sha256, ""), "0.20.0", nil},
		{"unknown policy is not IfNotPresent", one("kici-agent:latest", "ifnotpresent"), "0.20.0", nil},

		// The orchestrator reads each part as a JavaScript number: any
		// number of digits, compared once rounded to a float64.
		{"a part beyond uint64 is a release", one("kici-agent:0.0.99999999999999999999", ""), "0.20.0",
			[]Finding{OlderPin{Site: site("kici-agent:0.0.99999999999999999999"), Tag: "0.0.99999999999999999999", Target: "0.20.0"}}},
		{"a target beyond uint64", one("kici-agent:0.19.0", ""), "0.21.99999999999999999999",
			[]Finding{OlderPin{Site: site("kici-agent:0.19.0"), Tag: "0.19.0", Target: "0.21.99999999999999999999"}}},
		{"parts equal once rounded", one("kici-agent:0.20.9007199254740992", ""), "0.20.9007199254740993", nil},

		// The orchestrator's older-pin.
		{"older pin", one("kici-agent:0.19.0", ""), "0.20.0",
			[]Finding{OlderPin{Site: site("kici-agent:0.19.0"), Tag: "0.19.0", Target: "0.20.0"}}},
		{"older pin, Always", one("kici-agent:0.19.0", scalerconfig.PullAlways), "0.20.0",
			[]Finding{OlderPin{Site: site("kici-agent:0.19.0"), Tag: "0.19.0", Target: "0.20.0"}}},
		{"older pin, unknown policy", one("kici-agent:0.19.0", "Sometimes"), "0.20.0",
			[]Finding{OlderPin{Site: site("kici-agent:0.19.0"), Tag: "0.19.0", Target: "0.20.0"}}},
		{"older pin with a v", one("kici-agent:v0.19.0", ""), "0.20.0",
			[]Finding{OlderPin{Site: site("kici-agent:v0.19.0"), Tag: "v0.19.0", Target: "0.20.0"}}},
		{"older pin with a build counter", one("kici-agent:0.19.0-123", ""), "0.20.0",
			[]Finding{OlderPin{Site: site("kici-agent:0.19.0-123"), Tag: "0.19.0-123", Target: "0.20.0"}}},
		{"older pin with a digest", one("kici-agent:0.19.0@"+sha256, scalerconfig.PullAlways), "0.20.0",
			[]Finding{OlderPin{Site: site("kici-agent:0.19.0@" + sha256), Tag: "0.19.0", Target: "0.20.0"}}},
		{"older pin behind a registry port", one("registry.local:5000/kici-agent:0.19.0", ""), "0.20.0",
			[]Finding{OlderPin{Site: site("registry.local:5000/kici-agent:0.19.0"), Tag: "0.19.0", Target: "0.20.0"}}},
		{"build counter of the target", one("kici-agent:0.20.0-5", ""), "0.20.0", nil},
		{"the target", one("kici-agent:0.20.0", ""), "0.20.0", nil},
		{"newer", one("kici-agent:0.21.0", ""), "0.20.0", nil},
		{"older pin, no target", one("kici-agent:0.19.0", ""), "", nil},

		// The target, read as the orchestrator reads it.
		{"target trimmed, one v dropped", one("kici-agent:0.19.0", ""), " v0.20.0 ",
			[]Finding{OlderPin{Site: site("kici-agent:0.19.0"), Tag: "0.19.0", Target: "0.20.0"}}},
		{"target trimmed as JavaScript does", one("kici-agent:0.19.0", ""), "\u00a00.20.0\ufeff",
			[]Finding{OlderPin{Site: site("kici-agent:0.19.0"), Tag: "0.19.0", Target: "0.20.0"}}},
		{"target keeps its suffix", one("kici-agent:0.19.0", ""), "v0.20.0-rc.1",
			[]Finding{OlderPin{Site: site("kici-agent:0.19.0"), Tag: "0.19.0", Target: "0.20.0-rc.1"}}},
		{"target v then space keeps the space", one("kici-agent", ""), "v 0.20.0",
			[]Finding{MovingTag{Site: site("kici-agent"), Target: " 0.20.0"}}},
		{"target with two v is no target", one("kici-agent", ""), "vv0.20.0",
			[]Finding{MovingTag{Site: site("kici-agent")}}},
		{"target not a version", one("kici-agent:0.19.0", ""), "latest", nil},
		{"target of two parts", one("kici-agent:0.19.0", ""), "0.20", nil},

		// never-pull.
		{"Never, no tag", one("kici-agent", scalerconfig.PullNever), "0.20.0",
			[]Finding{NeverPull{Site: site("kici-agent"), Target: "0.20.0"}}},
		{"Never, latest, no target", one("kici-agent:latest", scalerconfig.PullNever), "",
			[]Finding{NeverPull{Site: site("kici-agent:latest"), Tag: "latest"}}},
		{"Never, floating tag", one("kici-agent:stable", scalerconfig.PullNever), "0.20.0",
			[]Finding{NeverPull{Site: site("kici-agent:stable"), Tag: "stable", Target: "0.20.0"}}},
		{"Never, older pin", one("kici-agent:0.19.0", scalerconfig.PullNever), "0.20.0", []Finding{
			OlderPin{Site: site("kici-agent:0.19.0"), Tag: "0.19.0", Target: "0.20.0"},
			NeverPull{Site: site("kici-agent:0.19.0"), Tag: "0.19.0", Target: "0.20.0"},
		}},
		{"Never, older pin with a digest", one("kici-agent:v0.19.0@"+sha256, scalerconfig.PullNever), "0.20.0", []Finding{
			OlderPin{Site: site("kici-agent:v0.19.0@" + sha256), Tag: "v0.19.0", Target: "0.20.0"},
			NeverPull{Site: site("kici-agent:v0.19.0@" + sha256), Tag: "v0.19.0", Target: "0.20.0"},
		}},
		{"Never, the target", one("kici-agent:0.20.0", scalerconfig.PullNever), "0.20.0", nil},
		{"Never, a release, no target", one("kici-agent:0.19.0", scalerconfig.PullNever), "", nil},
		{"Never, digest only", one("kici-agent@"+sha256, scalerconfig.PullNever), "0.20.0", nil},
		{"Never, latest with a digest", one("kici-agent:latest@"+sha256, scalerconfig.PullNever), "0.20.0", nil},
		{"Never, floating tag with a digest", one("kici-agent:edge@"+sha256, scalerconfig.PullNever), "0.20.0", nil},

		// floating-tag.
		{"floating stable", one("kici-agent:stable", ""), "0.20.0",
			[]Finding{FloatingTag{Site: site("kici-agent:stable"), Tag: "stable", Target: "0.20.0"}}},
		{"floating two-part version, no target", one("quay.io/kici/kici-agent:0.20", scalerconfig.PullIfNotPresent), "",
			[]Finding{FloatingTag{Site: site("quay.io/kici/kici-agent:0.20"), Tag: "0.20"}}},
		{"floating v1", one("kici-agent:v1", ""), "0.20.0",
			[]Finding{FloatingTag{Site: site("kici-agent:v1"), Tag: "v1", Target: "0.20.0"}}},
		{"floating LATEST, tags are case-sensitive", one("kici-agent:LATEST", ""), "0.20.0",
			[]Finding{FloatingTag{Site: site("kici-agent:LATEST"), Tag: "LATEST", Target: "0.20.0"}}},
		{"floating, Always", one("kici-agent:main", scalerconfig.PullAlways), "0.20.0", nil},
		{"floating with a digest", one("kici-agent:nightly@"+sha256, ""), "0.20.0", nil},

		// invalid-image, beside the orchestrator's findings from its split.
		{"invalid: empty tag", one("kici-agent:", ""), "0.20.0",
			[]Finding{InvalidImage{Site: site("kici-agent:"), Err: mustParseErr(t, "kici-agent:")}}},
		{"invalid: empty digest", one("kici-agent@", scalerconfig.PullNever), "0.20.0",
			[]Finding{InvalidImage{Site: site("kici-agent@"), Err: mustParseErr(t, "kici-agent@")}}},
		{"invalid: older pin with a space", one("kici-agent: 0.19.0", ""), "0.20.0", []Finding{
			OlderPin{Site: site("kici-agent: 0.19.0"), Tag: " 0.19.0", Target: "0.20.0"},
			InvalidImage{Site: site("kici-agent: 0.19.0"), Err: mustParseErr(t, "kici-agent: 0.19.0")},
		}},
		{"invalid: upper-case path, no tag", one("quay.io/Kici/kici-agent", ""), "0.20.0", []Finding{
			MovingTag{Site: site("quay.io/Kici/kici-agent"), Target: "0.20.0"},
			InvalidImage{Site: site("quay.io/Kici/kici-agent"), Err: mustParseErr(t, "quay.io/Kici/kici-agent")},
		}},
		{"invalid: Never gives no never-pull", one("quay.io/Kici/kici-agent", scalerconfig.PullNever), "0.20.0",
			[]Finding{InvalidImage{Site: site("quay.io/Kici/kici-agent"), Err: mustParseErr(t, "quay.io/Kici/kici-agent")}}},
		{"invalid: bad tag gives no floating-tag", one("kici-agent:a+b", ""), "0.20.0",
			[]Finding{InvalidImage{Site: site("kici-agent:a+b"), Err: mustParseErr(t, "kici-agent:a+b")}}},

		// Skipped.
		{"not the agent image", one("ubuntu:latest", ""), "0.20.0", nil},
		{"agent name as a prefix", one("kici-agent-dev", ""), "0.20.0", nil},
		{"agent name as a namespace", one("kici-agent/tools:latest", ""), "0.20.0", nil},
		{"no image", one("", ""), "0.20.0", nil},
		{"bare-metal scaler", &scalerconfig.Config{Scalers: []scalerconfig.Scaler{{Name: "metal", Type: "bare-metal", LabelSets: []scalerconfig.LabelSet{{Labels: []string{"m"}, Image: "kici-agent"}}}}}, "0.20.0", nil},
		{"type is case-sensitive", &scalerconfig.Config{Scalers: []scalerconfig.Scaler{{Name: "c", Type: "Container", LabelSets: []scalerconfig.LabelSet{{Labels: []string{"m"}, Image: "kici-agent"}}}}}, "0.20.0", nil},
		{"no scalers", &scalerconfig.Config{}, "0.20.0", nil},
		{"no label sets", &scalerconfig.Config{Scalers: []scalerconfig.Scaler{{Name: "c", Type: scalerconfig.TypeContainer}}}, "0.20.0", nil},

		{"config order", &scalerconfig.Config{Scalers: []scalerconfig.Scaler{
			{Name: "a", Type: scalerconfig.TypeContainer, LabelSets: []scalerconfig.LabelSet{
				{Labels: []string{"1"}, Image: "kici-agent:0.19.0"},
				{Labels: []string{"2"}, Image: "ubuntu"},
				{Labels: []string{"3"}, Image: "kici-agent"},
			}},
			{Name: "b", Type: "bare-metal", LabelSets: []scalerconfig.LabelSet{{Labels: []string{"4"}, Image: "kici-agent"}}},
			{Name: "c", Type: scalerconfig.TypeContainer, LabelSets: []scalerconfig.LabelSet{
				{Image: "kici-agent:stable"},
				{Labels: []string{"6"}, Image: "kici-agent:0.18.0", ImagePullPolicy: scalerconfig.PullNever},
			}},
		}}, "0.20.0", []Finding{
			OlderPin{Site: Site{Scaler: "a", Labels: []string{"1"}, Image: "kici-agent:0.19.0", Where: w}, Tag: "0.19.0", Target: "0.20.0"},
			MovingTag{Site: Site{Scaler: "a", Labels: []string{"3"}, Image: "kici-agent", ScalerIndex: 0, LabelSetIndex: 2, Where: w}, Target: "0.20.0"},
			FloatingTag{Site: Site{Scaler: "c", Image: "kici-agent:stable", ScalerIndex: 2, LabelSetIndex: 0, Where: w}, Tag: "stable", Target: "0.20.0"},
			OlderPin{Site: Site{Scaler: "c", Labels: []string{"6"}, Image: "kici-agent:0.18.0", ScalerIndex: 2, LabelSetIndex: 1, Where: w}, Tag: "0.18.0", Target: "0.20.0"},
			NeverPull{Site: Site{Scaler: "c", Labels: []string{"6"}, Image: "kici-agent:0.18.0", ScalerIndex: 2, LabelSetIndex: 1, Where: w}, Tag: "0.18.0", Target: "0.20.0"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := CheckAgentImages(Input{Config: tt.config, Location: scalerconfig.Location{Path: path}, TargetVersion: tt.target})
			want := tt.want
			if want == nil {
				want = []Finding{}
			}
			assert.Equal(t, want, got)
		})
	}
}

func TestCheckAgentImages_emptyIsNotNil(t *testing.T) {
	t.Parallel()
	got := CheckAgentImages(Input{})
	require.NotNil(t, got)
	b, err := json.Marshal(got)
	require.NoError(t, err)
	assert.Equal(t, "[]", string(b))
}

func TestCheckAgentImages_where(t *testing.T) {
	t.Parallel()
	in := Input{Config: one("kici-agent:0.19.0", ""), Location: scalerconfig.Location{Path: path}, TargetVersion: "0.20.0"}
	got := CheckAgentImages(in)
	require.Len(t, got, 1)
	assert.Equal(t, path, got[0].LabelSet().Where)

	in.Location.Dir = dir
	got = CheckAgentImages(in)
	require.Len(t, got, 1)
	assert.Equal(t, path+" (or the file under "+dir+" that declares it)", got[0].LabelSet().Where)
}

func TestCheckAgentImages_labelsCopied(t *testing.T) {
	t.Parallel()
	cfg := one("kici-agent", "")
	got := CheckAgentImages(Input{Config: cfg, Location: scalerconfig.Location{Path: path}})
	require.Len(t, got, 1)
	cfg.Scalers[0].LabelSets[0].Labels[0] = "changed"
	assert.Equal(t, []string{"linux", "x64"}, got[0].LabelSet().Labels)
}

// TestCheckAgentImages_positions checks that every finding carries the
// positions of its own label set, found by index, not by name or labels.
func TestCheckAgentImages_positions(t *testing.T) {
	t.Parallel()
	at := func(line int) scalerconfig.Pos {
		return scalerconfig.Pos{File: "scalers.yaml", Line: line, Column: 7, Offset: 10 * line}
	}
	labelSet := func(line int, image string, policy scalerconfig.PullPolicy) scalerconfig.LabelSet {
		return scalerconfig.LabelSet{Labels: []string{"x"}, Image: image, ImagePullPolicy: policy, Pos: at(line), ImagePos: at(line + 1), ImageEnd: at(line + 2)}
	}
	cfg := scalerconfig.Config{Scalers: []scalerconfig.Scaler{
		{Name: "a", Type: scalerconfig.TypeContainer, LabelSets: []scalerconfig.LabelSet{
			labelSet(10, "kici-agent:0.20.0", ""), labelSet(20, "kici-agent:0.19.0", ""),
		}},
		{Name: "a", Type: scalerconfig.TypeContainer, LabelSets: []scalerconfig.LabelSet{
			labelSet(30, "kici-agent:0.19.0", scalerconfig.PullNever), labelSet(40, "kici-agent", ""),
		}},
	}}
	type where struct{ pos, image, end int }
	var got []where
	for _, f := range CheckAgentImages(Input{Config: &cfg, Location: scalerconfig.Location{Path: path}, TargetVersion: "0.20.0"}) {
		s := f.LabelSet()
		got = append(got, where{s.Pos.Line, s.ImagePos.Line, s.ImageEnd.Line})
		assert.Equal(t, cfg.Scalers[s.ScalerIndex].LabelSets[s.LabelSetIndex].Pos, s.Pos)
	}
	assert.Equal(t, []where{{20, 21, 22}, {30, 31, 32}, {30, 31, 32}, {40, 41, 42}}, got)
}

func TestMessages(t *testing.T) {
	t.Parallel()
	const prefix = `container scaler "docker", label set [linux, x64]: image `
	tests := []struct {
		name string
		f    Finding
		code string
		msg  string
	}{
		{"moving-tag with target", MovingTag{Site: site("quay.io/kici/kici-agent:latest"), Tag: "latest", Target: "0.20.0"}, CodeMovingTag,
			prefix + `quay.io/kici/kici-agent:latest with imagePullPolicy IfNotPresent keeps the agent image this host already pulled, so the upgrade does not change the container agents. In /etc/kici/scalers.yaml, set "image: quay.io/kici/kici-agent:0.20.0" on this label set, or set "imagePullPolicy: Always" to pull latest on every spawn.`},
		{"moving-tag without target", MovingTag{Site: Site{Scaler: "docker", Labels: []string{"linux", "x64"}, Image: "kici-agent", Where: path + " (or the file under " + dir + " that declares it)"}}, CodeMovingTag,
			prefix + `kici-agent with imagePullPolicy IfNotPresent keeps the agent image this host already pulled, so the upgrade does not change the container agents. In /etc/kici/scalers.yaml (or the file under /etc/kici/scalers.d that declares it), set image to the kici-agent release you upgrade to (kici-agent:<version>) on this label set, or set "imagePullPolicy: Always" to pull latest on every spawn.`},
		{"older-pin", OlderPin{Site: site("registry.local:5000/kici-agent:v0.19.0"), Tag: "v0.19.0", Target: "0.20.0"}, CodeOlderPin,
			prefix + `registry.local:5000/kici-agent:v0.19.0 is older than the upgrade target 0.20.0, so the container agents keep running v0.19.0. In /etc/kici/scalers.yaml, set "image: registry.local:5000/kici-agent:0.20.0" on this label set.`},
		{"never-pull with target", NeverPull{Site: site("kici-agent:0.19.0"), Tag: "0.19.0", Target: "0.20.0"}, CodeNeverPull,
			prefix + `"kici-agent:0.19.0" with imagePullPolicy Never runs whatever agent image each host already has, so the upgrade does not change the container agents. In /etc/kici/scalers.yaml, set "image: kici-agent:0.20.0" on this label set, and pull that image on every host before agents spawn from it, or set "imagePullPolicy: IfNotPresent".`},
		{"never-pull without target", NeverPull{Site: site("quay.io/kici/kici-agent:latest"), Tag: "latest"}, CodeNeverPull,
			prefix + `"quay.io/kici/kici-agent:latest" with imagePullPolicy Never runs whatever agent image each host already has, so the upgrade does not change the container agents. In /etc/kici/scalers.yaml, set image to the kici-agent release you upgrade to (quay.io/kici/kici-agent:<version>) on this label set, and pull that image on every host before agents spawn from it, or set "imagePullPolicy: IfNotPresent".`},
		{"floating-tag with target", FloatingTag{Site: site("kici-agent:stable"), Tag: "stable", Target: "0.20.0"}, CodeFloatingTag,
			prefix + `"kici-agent:stable" has the floating tag "stable": like latest it can move to another release, and with imagePullPolicy IfNotPresent each host keeps the image it pulled first, so nothing tells which agent release runs. In /etc/kici/scalers.yaml, set "image: kici-agent:0.20.0" on this label set, or pin a digest (kici-agent@sha256:<digest>).`},
		{"floating-tag without target", FloatingTag{Site: site("quay.io/kici/kici-agent:v1"), Tag: "v1"}, CodeFloatingTag,
			prefix + `"quay.io/kici/kici-agent:v1" has the floating tag "v1": like latest it can move to another release, and with imagePullPolicy IfNotPresent each host keeps the image it pulled first, so nothing tells which agent release runs. In /etc/kici/scalers.yaml, set image to the kici-agent release you upgrade to (quay.io/kici/kici-agent:<version>) on this label set, or pin a digest (quay.io/kici/kici-agent@sha256:<digest>).`},
		{"invalid-image", InvalidImage{Site: site("kici-agent:"), Err: mustParseErr(t, "kici-agent:")}, CodeInvalidImage,
			prefix + `"kici-agent:" is not a valid image reference (invalid tag), so Docker refuses it and the container scaler cannot start agents for this label set. In /etc/kici/scalers.yaml, correct the image on this label set.`},
		{"invalid-image, other", InvalidImage{Site: site("kici/" + hex64 + "/kici-agent_"), Err: mustParseErr(t, "kici/kici-agent_")}, CodeInvalidImage,
			prefix + `"kici/` + hex64 + `/kici-agent_" is not a valid image reference (invalid reference format), so Docker refuses it and the container scaler cannot start agents for this label set. In /etc/kici/scalers.yaml, correct the image on this label set.`},
		{"invalid-image, a trailing space", InvalidImage{Site: site("kici-agent:0.20.0 "), Err: mustParseErr(t, "kici-agent:0.20.0 ")}, CodeInvalidImage,
			prefix + `"kici-agent:0.20.0 " is not a valid image reference (invalid tag), so Docker refuses it and the container scaler cannot start agents for this label set. In /etc/kici/scalers.yaml, correct the image on this label set.`},
		{"invalid-image without its error", InvalidImage{Site: Site{Scaler: "s", Image: "kici-agent:", Where: path}}, CodeInvalidImage,
			`container scaler "s", label set []: image "kici-agent:" is not a valid image reference (invalid reference format), so Docker refuses it and the container scaler cannot start agents for this label set. In /etc/kici/scalers.yaml, correct the image on this label set.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.code, tt.f.Code())
			assert.Equal(t, tt.msg, tt.f.Message())
		})
	}
}

func TestFindingJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		f    Finding
		want string
	}{
		{"moving-tag", MovingTag{Site: site("kici-agent"), Target: "0.20.0"},
			`{"code":"moving-tag","scaler":"docker","labels":["linux","x64"],"image":"kici-agent","message":%q,"scalerIndex":0,"labelSetIndex":0,"tag":"","target":"0.20.0","where":"/etc/kici/scalers.yaml"}`},
		{"older-pin", OlderPin{Site: site("kici-agent:0.19.0"), Tag: "0.19.0", Target: "0.20.0"},
			`{"code":"older-pin","scaler":"docker","labels":["linux","x64"],"image":"kici-agent:0.19.0","message":%q,"scalerIndex":0,"labelSetIndex":0,"tag":"0.19.0","target":"0.20.0","where":"/etc/kici/scalers.yaml"}`},
		{"never-pull", NeverPull{Site: site("kici-agent:latest"), Tag: "latest"},
			`{"code":"never-pull","scaler":"docker","labels":["linux","x64"],"image":"kici-agent:latest","message":%q,"scalerIndex":0,"labelSetIndex":0,"tag":"latest","target":"","where":"/etc/kici/scalers.yaml"}`},
		{"floating-tag, nil labels", FloatingTag{Site: Site{Scaler: "docker", Image: "kici-agent:edge", Where: path}, Tag: "edge"},
			`{"code":"floating-tag","scaler":"docker","labels":[],"image":"kici-agent:edge","message":%q,"scalerIndex":0,"labelSetIndex":0,"tag":"edge","target":"","where":"/etc/kici/scalers.yaml"}`},
		{"invalid-image", InvalidImage{Site: site("kici-agent:"), Err: mustParseErr(t, "kici-agent:")},
			`{"code":"invalid-image","scaler":"docker","labels":["linux","x64"],"image":"kici-agent:","message":%q,"scalerIndex":0,"labelSetIndex":0,"error":"imageref.Parse(\"kici-agent:\"): invalid tag","where":"/etc/kici/scalers.yaml"}`},
		{"invalid-image without its error", InvalidImage{Site: site("kici-agent:")},
			`{"code":"invalid-image","scaler":"docker","labels":["linux","x64"],"image":"kici-agent:","message":%q,"scalerIndex":0,"labelSetIndex":0,"error":"","where":"/etc/kici/scalers.yaml"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			msg, err := json.Marshal(tt.f.Message())
			require.NoError(t, err)
			want := strings.Replace(tt.want, "%q", string(msg), 1)
			got, err := json.Marshal(tt.f)
			require.NoError(t, err)
			assert.Equal(t, want, string(got))

			// A slice of findings marshals the same way, values as they are.
			list, err := json.Marshal([]Finding{tt.f})
			require.NoError(t, err)
			assert.Equal(t, "["+want+"]", string(list))
		})
	}
}

// TestConfigFixtures checks a config in the orchestrator's own format, read
// by scalerconfig.Load as YAML and as JSON, as a caller checks one.
func TestConfigFixtures(t *testing.T) {
	t.Parallel()
	var loaded []string
	for _, file := range []string{"scalers.yaml", "scalers.json"} {
		t.Run(file, func(t *testing.T) {
			cfg, err := scalerconfig.Load(os.DirFS("testdata"), file, "")
			require.NoError(t, err)
			j, err := json.Marshal(cfg)
			require.NoError(t, err)
			loaded = append(loaded, string(j))

			var got []string
			for _, f := range CheckAgentImages(Input{Config: cfg, Location: scalerconfig.Location{Path: path}, TargetVersion: "0.20.0"}) {
				ls := f.LabelSet()
				got = append(got, f.Code()+" ["+strings.Join(ls.Labels, ", ")+"]")
				assert.Equal(t, file, ls.Pos.File, "every finding names the file that declares its label set")
			}
			assert.Equal(t, []string{
				"moving-tag [linux, x64]",
				"older-pin [linux, x64, pinned]",
				"older-pin [linux, x64, airgapped]",
				"never-pull [linux, x64, airgapped]",
				"floating-tag [linux, x64, edge]",
				"older-pin [linux, typo]",
				"invalid-image [linux, typo]",
			}, got)
		})
	}
	require.Len(t, loaded, 2)
	assert.JSONEq(t, loaded[0], loaded[1], "the YAML and JSON fixtures are one config")
}

func TestUsableTarget(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"0.20.0", "0.20.0"},
		{"v0.20.0", "0.20.0"},
		{" v0.20.0 ", "0.20.0"},
		{"\u3000v0.20.0\u2029", "0.20.0"},
		{"\u0085v0.20.0", ""},
		{"v 0.20.0", " 0.20.0"},
		{"v0.20.0-rc.1", "0.20.0-rc.1"},
		{"vv0.20.0", ""},
		{"V0.20.0", ""},
		{"0.20", ""},
		{"v", ""},
		{"   ", ""},
		// Parts are JavaScript numbers: any number of digits is a release.
		{"0.21.99999999999999999999", "0.21.99999999999999999999"},
		{"v1." + strings.Repeat("9", 400) + ".0", "1." + strings.Repeat("9", 400) + ".0"},
	}
	for _, tt := range tests {
		t.Run(strconv.Quote(tt.in), func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, usableTarget(tt.in))
		})
	}
}

// TestScanCounts: Scan counts, over the scalers handed to it, the
// container label sets' images it checked as KiCI agent images and those
// it skipped, so that a caller can tell a clean config from one the check
// never looked at.
func TestScanCounts(t *testing.T) {
	t.Parallel()
	container := func(images ...string) *scalerconfig.Scaler {
		s := &scalerconfig.Scaler{Name: "c", Type: scalerconfig.TypeContainer}
		for _, image := range images {
			s.LabelSets = append(s.LabelSets, scalerconfig.LabelSet{Labels: []string{image}, Image: image})
		}
		return s
	}
	tests := []struct {
		name     string
		scalers  []*scalerconfig.Scaler
		want     ImageCounts
		findings int
	}{
		{"nothing handed over", nil, ImageCounts{}, 0},
		{"agent images, with findings or not", []*scalerconfig.Scaler{container("kici-agent:latest", "quay.io/kici/kici-agent:0.20.0")}, ImageCounts{Agent: 2}, 1},
		{"an invalid agent image is checked", []*scalerconfig.Scaler{container("quay.io/KiCI/kici-agent:latest")}, ImageCounts{Agent: 1}, 2},
		{"other images are skipped", []*scalerconfig.Scaler{container("docker.io/library/node:20", "kici-agent-extra:1", "quay.io/kici-agent/tools:1")}, ImageCounts{Other: 3}, 0},
		{"a label set without an image counts in neither", []*scalerconfig.Scaler{container("", "kici-agent:0.20.0")}, ImageCounts{Agent: 1}, 0},
		{"other scaler types count in neither", []*scalerconfig.Scaler{
			{Name: "b", Type: scalerconfig.TypeBareMetal, LabelSets: []scalerconfig.LabelSet{{Image: "kici-agent:latest"}, {Image: "node:20"}}},
			{Name: "f", Type: scalerconfig.TypeFirecracker, LabelSets: []scalerconfig.LabelSet{{Image: "kici-agent:latest"}}},
		}, ImageCounts{}, 0},
		{"summed over the scalers", []*scalerconfig.Scaler{container("kici-agent:latest", "node:20"), container("node:22"), container("a/kici-agent@" + sha256)}, ImageCounts{Agent: 2, Other: 2}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			findings, counts, err := Scan(Input{Location: scalerconfig.Location{Path: path}, TargetVersion: "0.20.0"}, handOver(tt.scalers...))
			require.NoError(t, err)
			assert.Equal(t, tt.want, counts)
			assert.Len(t, findings, tt.findings)
		})
	}
}

// handOver is a scan for Scan that hands over scalers, then returns an
// empty config.
func handOver(scalers ...*scalerconfig.Scaler) func(func(int, *scalerconfig.Scaler)) (*scalerconfig.Config, error) {
	return func(each func(int, *scalerconfig.Scaler)) (*scalerconfig.Config, error) {
		for i, s := range scalers {
			each(i, s)
		}
		return &scalerconfig.Config{}, nil
	}
}
