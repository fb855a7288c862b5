package preflight

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/distribution/reference"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/imageref"
	"github.com/kicikit/kicikit/internal/jsstr"
	"github.com/kicikit/kicikit/scalerconfig"
)

// The fuzz test of CheckAgentImages checks the orchestrator's two findings
// against seedCheck, a direct port of checkContainerAgentImages written
// apart from the package's code, and the properties of the others.

var seedDigits = regexp.MustCompile(`^[0-9]+$`)

// seedParseVersion is parseVersionBase: each part ASCII digits, read as
// JavaScript's Number reads it (the nearest float64).
func seedParseVersion(version string) []float64 {
	parts := strings.Split(strings.Split(jsstr.Trim(version), "-")[0], ".")
	if len(parts) != 3 {
		return nil
	}
	nums := make([]float64, 3)
	for i, part := range parts {
		if !seedDigits.MatchString(part) {
			return nil
		}
		nums[i], _ = strconv.ParseFloat(part, 64)
	}
	return nums
}

func seedCompareReleases(a, b string) (int, bool) {
	left := seedParseVersion(strings.TrimPrefix(a, "v"))
	right := seedParseVersion(strings.TrimPrefix(b, "v"))
	if left == nil || right == nil {
		return 0, false
	}
	for i := range 3 {
		if left[i] != right[i] {
			if left[i] < right[i] {
				return -1, true
			}
			return 1, true
		}
	}
	return 0, true
}

type seedRef struct {
	repository string
	tag        *string
	digest     *string
}

func seedParseImageRef(image string) seedRef {
	at := strings.Index(image, "@")
	named := image
	var digest *string
	if at != -1 {
		named = image[:at]
		d := image[at+1:]
		digest = &d
	}
	colon := strings.LastIndex(named, ":")
	if colon > strings.LastIndex(named, "/") {
		tag := named[colon+1:]
		return seedRef{named[:colon], &tag, digest}
	}
	return seedRef{named, nil, digest}
}

func seedCheck(in Input) []seedFinding {
	bare := strings.TrimPrefix(jsstr.Trim(in.TargetVersion), "v")
	targetVersion := ""
	if bare != "" && seedParseVersion(bare) != nil {
		targetVersion = bare
	}
	where := in.Location.Path
	if in.Location.Dir != "" {
		where = in.Location.Path + " (or the file under " + in.Location.Dir + " that declares it)"
	}
	findings := []seedFinding{}
	for _, entry := range in.Config.Scalers {
		if entry.Type != "container" {
			continue
		}
		for _, ls := range entry.LabelSets {
			if ls.Image == "" {
				continue
			}
			ref := seedParseImageRef(ls.Image)
			if ref.repository[strings.LastIndex(ref.repository, "/")+1:] != "kici-agent" {
				continue
			}
			pinned := ""
			if targetVersion != "" {
				pinned = ref.repository + ":" + targetVersion
			}
			prefix := `container scaler "` + entry.Name + `", label set [` + strings.Join(ls.Labels, ", ") + "]: image " + ls.Image
			finding := func(issue, message string) seedFinding {
				return seedFinding{issue, entry.Name, ls.Labels, ls.Image, prefix + " " + message}
			}
			policy := string(ls.ImagePullPolicy)
			if policy == "" {
				policy = "IfNotPresent"
			}
			if (ref.tag == nil || *ref.tag == "latest") && ref.digest == nil && policy == "IfNotPresent" {
				pin := `set image to the kici-agent release you upgrade to (` + ref.repository + ":<version>)"
				if pinned != "" {
					pin = `set "image: ` + pinned + `"`
				}
				findings = append(findings, finding("moving-tag", "with imagePullPolicy IfNotPresent keeps the agent image this host already pulled, so the upgrade does not change the container agents. In "+where+", "+pin+` on this label set, or set "imagePullPolicy: Always" to pull latest on every spawn.`))
				continue
			}
			if targetVersion == "" || ref.tag == nil {
				continue
			}
			if c, ok := seedCompareReleases(*ref.tag, targetVersion); ok && c == -1 {
				findings = append(findings, finding("older-pin", "is older than the upgrade target "+targetVersion+", so the container agents keep running "+*ref.tag+". In "+where+`, set "image: `+pinned+`" on this label set.`))
			}
		}
	}
	return findings
}

func FuzzCheckAgentImages(f *testing.F) {
	images := []string{
		"", "kici-agent", "kici-agent:latest", "kici-agent:0.19.0", "kici-agent:v0.19.0-3",
		"quay.io/kici/kici-agent:0.20.0", "registry.local:5000/kici-agent",
		"registry.local:5000/mirror/kici-agent:edge@" + sha256, "kici-agent@" + sha256,
		"localhost:5000", "[::1]:5000/kici-agent:1", "index.docker.io/kici/kici-agent",
		hex64, "kici-agent:", "kici-agent@", ":latest", "@" + sha256, "Kici-Agent",
		"quay.io/Kici/kici-agent:0.19.0", "kici-agent: 0.19.0", "kici-agent:a+b", "kici agent",
		"localhost:5000:0.20.0", "a:b:c", "a@b/c:d@e", "kici/" + strings.Repeat("a", 251) + "/kici-agent",
	}
	images = append(images, "kici-agent:stable", "kici-agent:0.20", "kici-agent:LATEST", "kici-agent:0.19.0 ", "quay.io/Kici/kici-agent",
		"kici-agent:0.0.99999999999999999999", "kici-agent:0.20.9007199254740992")
	policies := []string{"", "IfNotPresent", "Always", "Never", "never"}
	targets := []string{"", "0.20.0", " v0.20.0 ", "v 0.20.0", "vv0.20.0", "0.20.0-rc.1", "latest", "\u00a00.20.0\ufeff",
		"0.20.9007199254740993", "0.21.99999999999999999999"}
	for i, image := range images {
		f.Add(image, policies[i%len(policies)], images[(i*5+1)%len(images)], policies[(i/len(policies))%len(policies)],
			targets[i%len(targets)], []string{"", dir}[i%2], []string{"container", "bare-metal"}[i/2%2])
	}
	f.Fuzz(func(t *testing.T, image1, policy1, image2, policy2, target, configDir, type2 string) {
		in := Input{
			Config: &scalerconfig.Config{Scalers: []scalerconfig.Scaler{
				{Name: "a", Type: "container", LabelSets: []scalerconfig.LabelSet{
					{Labels: []string{"l0"}, Image: image1, ImagePullPolicy: scalerconfig.PullPolicy(policy1)},
					{Labels: []string{"l1", "x"}, Image: image2, ImagePullPolicy: scalerconfig.PullPolicy(policy2)},
				}},
				{Name: "b", Type: scalerconfig.ScalerType(type2), LabelSets: []scalerconfig.LabelSet{
					{Labels: []string{"l2"}, Image: image2, ImagePullPolicy: scalerconfig.PullPolicy(policy1)},
					{Labels: nil, Image: image1, ImagePullPolicy: scalerconfig.PullPolicy(policy2)},
				}},
			}},
			Location:      scalerconfig.Location{Path: path, Dir: configDir},
			TargetVersion: target,
		}
		var sets []scalerconfig.LabelSet
		var scalers []string
		for _, sc := range in.Config.Scalers {
			for _, ls := range sc.LabelSets {
				sets = append(sets, ls)
				scalers = append(scalers, sc.Name)
			}
		}
		got := CheckAgentImages(in)

		// Check, and Scan one scaler at a time, find the same: the config
		// has no resources.
		var handed []*scalerconfig.Scaler
		for i := range in.Config.Scalers {
			handed = append(handed, &in.Config.Scalers[i])
		}
		each, _, err := Scan(Input{Location: in.Location, TargetVersion: in.TargetVersion}, handOver(handed...))
		require.NoError(t, err, "Scan, one scaler at a time")
		require.Equal(t, got, each, "Scan, one scaler at a time")
		require.Equal(t, got, Check(in), "Check")

		// The orchestrator's findings are exactly the seed's.
		seedWant, seedGot := seedCheck(in), onlySeedCodes(got)
		require.Len(t, seedGot, len(seedWant), "seed findings:\n got %+v\nwant %+v", seedGot, seedWant)
		for i := range seedWant {
			w, g := seedWant[i], seedGot[i]
			require.Equal(t, []string{w.Issue, w.Scaler, strings.Join(w.Labels, "\x00"), w.Image, w.Message},
				[]string{g.Issue, g.Scaler, strings.Join(g.Labels, "\x00"), g.Image, g.Message}, "seed finding %d", i)
		}

		// Every finding names a label set of the input by its indices, in
		// config order.
		codes := make([][]string, len(sets))
		last := 0
		for _, f := range got {
			s := f.LabelSet()
			inside := s.ScalerIndex >= 0 && s.ScalerIndex < len(in.Config.Scalers) && s.LabelSetIndex >= 0 && s.LabelSetIndex < 2
			require.True(t, inside, "finding %+v: indices out of the input", f)
			i := s.ScalerIndex*2 + s.LabelSetIndex
			require.GreaterOrEqual(t, i, last, "finding %+v comes after one for label set #%d", f, last)
			require.Equal(t, []string{scalers[i], sets[i].Image, strings.Join(sets[i].Labels, "\x00")},
				[]string{s.Scaler, s.Image, strings.Join(s.Labels, "\x00")}, "finding %+v against label set #%d", f, i)
			last = i
			codes[i] = append(codes[i], f.Code())
			checkFinding(t, f, s)
		}

		// Which findings each label set gets.
		for i, ls := range sets {
			want := wantCodes(in.Config.Scalers[i/2].Type, ls, seedCheckOne(in, i))
			require.Equal(t, strings.Join(want, ","), strings.Join(codes[i], ","), "label set #%d %+v: codes", i, ls)
		}
	})
}

// seedCheckOne is the seed's code for label set i of in, or "".
func seedCheckOne(in Input, i int) string {
	one := in
	one.Config = &scalerconfig.Config{Scalers: []scalerconfig.Scaler{in.Config.Scalers[i/2]}}
	one.Config.Scalers[0].LabelSets = []scalerconfig.LabelSet{in.Config.Scalers[i/2].LabelSets[i%2]}
	if f := seedCheck(one); len(f) == 1 {
		return f[0].Issue
	}
	return ""
}

// wantCodes is the codes a label set gets, from the documented rules.
func wantCodes(scalerType scalerconfig.ScalerType, ls scalerconfig.LabelSet, seed string) []string {
	var codes []string
	if seed != "" {
		codes = append(codes, seed)
	}
	l := imageref.Split(ls.Image)
	if scalerType != "container" || ls.Image == "" || !imageref.IsAgentImage(l.Repository) {
		return codes
	}
	if _, err := reference.ParseNormalizedNamed(ls.Image); err != nil {
		return append(codes, CodeInvalidImage)
	}
	release := seedParseVersion(strings.TrimPrefix(l.Tag, "v")) != nil // compareReleases' reading of a side
	moving := l.Tag == "" || l.Tag == "latest"
	floating := !moving && !release
	policy := ls.ImagePullPolicy
	switch {
	case l.HasDigest && seed != CodeOlderPin:
	case policy == scalerconfig.PullNever && (moving || floating || seed == CodeOlderPin):
		codes = append(codes, CodeNeverPull)
	case (policy == "" || policy == scalerconfig.PullIfNotPresent) && floating:
		codes = append(codes, CodeFloatingTag)
	}
	return codes
}

// checkFinding checks what any finding must hold.
func checkFinding(t *testing.T, f Finding, s Site) {
	t.Helper()
	// The orchestrator's findings write the image as it is; kicikit's own
	// quote it.
	image := s.Image
	if f.Code() != CodeMovingTag && f.Code() != CodeOlderPin {
		image = strconv.Quote(image)
	}
	prefix := `container scaler "` + s.Scaler + `", label set [` + strings.Join(s.Labels, ", ") + "]: image " + image + " "
	require.True(t, strings.HasPrefix(f.Message(), prefix), "%s message %q does not start with %q", f.Code(), f.Message(), prefix)
	b, err := json.Marshal(f)
	require.NoError(t, err, "json.Marshal(%+v)", f)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m), "json.Unmarshal(%s)", b)
	require.Equal(t, f.Code(), m["code"], "JSON %s", b)
	require.Equal(t, viaJSON(f.Message()), m["message"], "JSON %s", b)
	require.Equal(t, viaJSON(s.Scaler), m["scaler"], "JSON %s", b)
	require.Equal(t, viaJSON(s.Image), m["image"], "JSON %s", b)
	require.Equal(t, float64(s.ScalerIndex), m["scalerIndex"], "JSON %s", b)
	require.Equal(t, float64(s.LabelSetIndex), m["labelSetIndex"], "JSON %s", b)
	labels, ok := m["labels"].([]any)
	require.True(t, ok, "JSON %s: labels are not a list", b)
	require.Len(t, labels, len(s.Labels), "JSON %s: labels are not %q", b, s.Labels)
}

// viaJSON is s after a trip through JSON, which turns invalid UTF-8 into
// U+FFFD.
func viaJSON(s string) string {
	b, _ := json.Marshal(s)
	var back string
	_ = json.Unmarshal(b, &back)
	return back
}
