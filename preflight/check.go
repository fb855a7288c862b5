package preflight

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/agentversion"
	"github.com/kicikit/kicikit/imageref"
	"github.com/kicikit/kicikit/internal/jsstr"
	"github.com/kicikit/kicikit/scalerconfig"
)

// Input is the config to check, where it was loaded from, and the target.
type Input struct {
	// Config is the scaler config: what scalerconfig.Load returns, or a
	// literal. nil is a config with no scalers. In a literal, an empty
	// ImagePullPolicy means IfNotPresent. Labels are taken as they are: Load
	// canonicalises them, as the orchestrator does.
	Config *scalerconfig.Config

	// Location is where the config was loaded from, as the findings name it.
	// Location.Path is the orchestrator's scalerConfigPath. Location.Dir is its
	// scalerConfigDir, "" when there is no drop-in folder.
	Location scalerconfig.Location

	// TargetVersion is the release the upgrade installs, such as "0.20.0" or
	// " v0.20.0 ". It may be empty. The check trims it and drops one leading
	// "v", as the orchestrator does. It uses the rest, "-suffix" included,
	// when that is a release as the orchestrator reads one. That is
	// agentversion.Parse's grammar, each part a JavaScript number. Otherwise
	// there is no usable target.
	TargetVersion string
}

// Check returns every finding of every check on in.Config, in one order.
// The defaults' findings come first. Then come each label set's, in config
// order: its image findings, then its resource findings. An empty result
// is never nil.
func Check(in Input) []Finding {
	findings, _, _ := Scan(in, func(each func(int, *scalerconfig.Scaler)) (*scalerconfig.Config, error) {
		if in.Config != nil {
			for i := range in.Config.Scalers {
				each(i, &in.Config.Scalers[i])
			}
		}
		return in.Config, nil
	})
	return findings
}

// Scan is [Check] of a config read one scaler at a time, for a config too
// large to hold. scan reads the config as [scalerconfig.Scan] does: it hands
// each scaler to each, with its index, then returns the config without its
// scalers. in.Config is not read.
//
// Scan returns Check's findings in Check's order, and the images it
// checked and skipped. When scan fails, Scan returns its error as it is.
func Scan(in Input, scan func(each func(index int, s *scalerconfig.Scaler)) (*scalerconfig.Config, error)) ([]Finding, ImageCounts, error) {
	c := newChecker(in)
	var found []Finding
	cfg, err := scan(func(i int, s *scalerconfig.Scaler) { found = c.scaler(found, i, s, true) })
	if err != nil {
		return nil, ImageCounts{}, err
	}
	return append(c.defaults([]Finding{}, cfg), found...), c.counts, nil
}

// CheckAgentImages reports every container-scaler label set whose agent
// image an upgrade to in.TargetVersion would leave unchanged. It is the
// orchestrator's checkContainerAgentImages. It adds what else it finds
// wrong with those images. An empty result (never nil) means that each
// agent image is pinned to the target (or newer), or pulled on every spawn.
//
// It looks only at scalers of type "container". In them it looks only at
// label sets whose image is a kici-agent image ([imageref.IsAgentImage]),
// as the orchestrator's lenient split reads it. It never fails. The
// findings come in config order. For one label set they come in this
// order:
//
//  1. The orchestrator's own, with its exact text, from its lenient split of
//     the image, valid or not. That is [MovingTag] (no tag or "latest", no
//     digest, IfNotPresent), or else [OlderPin] (a tag that is a release
//     older than the target). Never both.
//  2. For an image that [imageref.Parse] rejects, [InvalidImage] and nothing
//     more. For a valid one, [NeverPull] (policy Never) or [FloatingTag]
//     (policy IfNotPresent). Never both, and never FloatingTag beside a
//     finding of step 1.
//
// So a label set gets at most two findings. Keeping only the codes
// "moving-tag" and "older-pin" gives exactly the orchestrator's list.
//
// An empty ImagePullPolicy is IfNotPresent. A policy the orchestrator does
// not know is neither IfNotPresent nor Never, as there.
func CheckAgentImages(in Input) []Finding {
	c := newChecker(in)
	findings := []Finding{} // never nil, so that it marshals to [] as the orchestrator's does
	if in.Config == nil {
		return findings
	}
	for i := range in.Config.Scalers {
		findings = c.scaler(findings, i, &in.Config.Scalers[i], false)
	}
	return findings
}

// ImageCounts are the images of container scalers' label sets that [Scan]
// checked and skipped. Label sets of other scaler types, and those without
// an image, count in neither.
type ImageCounts struct {
	// Agent is the number of KiCI agent images checked, valid or not
	// ([imageref.IsAgentImage]).
	Agent int
	// Other is the number of other images, which no check reads. A config
	// of other images alone has no findings, and is not a clean config.
	Other int
}

// where is the config file to edit, as the orchestrator's messages name it.
func (in Input) where() string {
	if in.Location.Dir == "" {
		return in.Location.Path
	}
	return in.Location.Path + " (or the file under " + in.Location.Dir + " that declares it)"
}

// checker is what the check of every label set shares.
type checker struct {
	// target is the usable target as the findings print it, or "" when
	// there is none ([usableTarget]); version is its version.
	target  string
	version release
	where   string // the config file to edit, as the messages name it
	path    string // the main file, as the messages name it
	counts  ImageCounts
}

func newChecker(in Input) *checker {
	c := &checker{target: usableTarget(in.TargetVersion), where: in.where(), path: in.Location.Path}
	c.version, _ = jsRelease(c.target)
	return c
}

// scaler appends the findings of scaler s, at index i, label set by label
// set: the image's, then the resources' when resources is set.
func (c *checker) scaler(dst []Finding, i int, s *scalerconfig.Scaler, resources bool) []Finding {
	for j := range s.LabelSets {
		at := &place{c: c, s: s, i: i, j: j}
		if s.Type == scalerconfig.TypeContainer && s.LabelSets[j].Image != "" {
			dst = c.image(dst, at)
		}
		if ls := &s.LabelSets[j]; resources && ls.Resources != nil {
			dst = resourceFindings(dst, at, s.Type, ls.Resources, ls.PosOf)
		}
	}
	return dst
}

// defaults appends the findings of the config's defaults.resources, which
// the main file declares. Their Site has no scaler: ScalerIndex and
// LabelSetIndex are -1, Pos is the defaults' mapping, Where the main file.
func (c *checker) defaults(dst []Finding, cfg *scalerconfig.Config) []Finding {
	if cfg == nil || cfg.Defaults == nil || cfg.Defaults.Resources == nil {
		return dst
	}
	at := &place{built: true, site: Site{ScalerIndex: -1, LabelSetIndex: -1, Where: c.path}}
	at.site.Pos, _ = cfg.PosOf("defaults")
	posOf := func(path string) (scalerconfig.Pos, bool) { return cfg.PosOf("defaults." + path) }
	return resourceFindings(dst, at, "", cfg.Defaults.Resources, posOf)
}

// place is a label set, and the Site of its findings, made for its first.
type place struct {
	c     *checker
	s     *scalerconfig.Scaler
	i, j  int
	site  Site
	built bool
}

// at returns the Site of p's findings.
func (p *place) at() Site {
	if !p.built {
		ls := &p.s.LabelSets[p.j]
		p.site = Site{
			Scaler: p.s.Name, Labels: slices.Clone(ls.Labels), Image: ls.Image,
			ScalerIndex: p.i, LabelSetIndex: p.j,
			Pos: ls.Pos, ImagePos: ls.ImagePos, ImageEnd: ls.ImageEnd, Where: p.c.where,
		}
		p.site.edit, _ = ls.ImageEdit("")
		p.built = true
	}
	return p.site
}

// image appends the findings of the label set's image, when it is an agent
// image, in the order [CheckAgentImages] gives them; and counts the image.
func (c *checker) image(dst []Finding, at *place) []Finding {
	var img agentImage
	c.read(&at.s.LabelSets[at.j], &img)
	if !imageref.IsAgentImage(img.Repository) {
		c.counts.Other++
		return dst
	}
	c.counts.Agent++
	if img.movingTag() {
		dst = append(dst, MovingTag{Site: at.at(), Tag: img.Tag, Target: c.target})
	}
	if img.olderPin() {
		dst = append(dst, OlderPin{Site: at.at(), Tag: img.Tag, Target: c.target})
	}
	if img.invalid != nil {
		return append(dst, InvalidImage{Site: at.at(), Err: img.invalid})
	}
	if img.neverPull() {
		dst = append(dst, NeverPull{Site: at.at(), Tag: img.Tag, Target: c.target})
	}
	if img.floatingTag() {
		dst = append(dst, FloatingTag{Site: at.at(), Tag: img.Tag, Target: c.target})
	}
	return dst
}

// agentImage is what the rules read from a label set's agent image: the
// orchestrator's lenient split of it, valid or not (for a valid image, the
// split is where the reference grammar reads its tag and digest), why it
// is not a valid reference, and its pull policy.
type agentImage struct {
	imageref.Parts
	invalid *imageref.ParseError    // nil for a valid reference
	policy  scalerconfig.PullPolicy // with the default applied
	release bool                    // the tag names a release
	older   bool                    // the tag is a release older than the target
}

// read reads the label set's image into img: the orchestrator's split of
// it, whether it is a valid reference, whether its tag is a release, and
// whether that release is older than the target.
func (c *checker) read(ls *scalerconfig.LabelSet, img *agentImage) {
	*img = agentImage{Parts: imageref.Split(ls.Image), policy: ls.ImagePullPolicy.Effective()}
	if _, err := imageref.Parse(ls.Image); err != nil {
		img.invalid, _ = err.(*imageref.ParseError) // Parse's one error type
	}
	if img.HasTag && img.Tag != imageref.LatestTag {
		// The tag as the orchestrator's compareReleases reads a side:
		// without one leading "v". ("latest", the commonest tag, is no
		// release.)
		var v release
		v, img.release = jsRelease(strings.TrimPrefix(img.Tag, "v"))
		img.older = img.release && c.target != "" && v.less(c.version)
	}
}

// moving reports whether the image names no fixed release: no tag or
// "latest", and no digest.
func (img agentImage) moving() bool {
	return (!img.HasTag || img.Tag == imageref.LatestTag) && !img.HasDigest
}

// floating reports whether the image has a tag that is neither "latest"
// nor a release, and no digest: a tag that moves like latest.
func (img agentImage) floating() bool {
	return img.HasTag && img.Tag != imageref.LatestTag && !img.HasDigest && !img.release
}

// The rules, one per finding. The orchestrator's two read any image; the
// others only a valid one. movingTag and olderPin never hold together
// ("latest" is no release), nor do neverPull and floatingTag.

// movingTag is the orchestrator's rule: a moving image that a host pulls
// only when it does not have it.
func (img agentImage) movingTag() bool {
	return img.moving() && img.policy == scalerconfig.PullIfNotPresent
}

// olderPin is the orchestrator's rule: a release older than the target,
// under any policy, digest or not.
func (img agentImage) olderPin() bool { return img.older }

// neverPull: an image never pulled whose tag does not name the target.
func (img agentImage) neverPull() bool {
	return img.policy == scalerconfig.PullNever && (img.moving() || img.floating() || img.older)
}

// floatingTag: a floating tag that a host pulls only when it does not have
// it.
func (img agentImage) floatingTag() bool {
	return img.floating() && img.policy == scalerconfig.PullIfNotPresent
}

// usableTarget is the target as the findings print it, or "" when there
// is no usable target: as the orchestrator's checkContainerAgentImages
// reads it, s trimmed and less one leading "v", kept when it is a release
// ([jsRelease]); the text [agentversion.ParseTarget] keeps, for any target
// whose parts fit a uint64.
func usableTarget(s string) string {
	text := strings.TrimPrefix(jsstr.Trim(s), "v")
	if _, ok := jsRelease(text); !ok {
		return ""
	}
	return text
}

// release is a release version as the orchestrator's parseVersionBase
// returns it: its three parts as JavaScript numbers.
type release [3]float64

// jsRelease reads s as the orchestrator's parseVersionBase does:
// [agentversion.Parse]'s grammar, with any number of digits a part, each
// part read as JavaScript's Number reads it (the float64 nearest its
// value, +Inf past the largest). So 0.0.99999999999999999999, which Parse
// refuses (beyond uint64), is a release, and 0.20.9007199254740992 and
// 0.20.9007199254740993 are the same one, as they are to the orchestrator.
func jsRelease(s string) (release, bool) {
	v, err := agentversion.Parse(s)
	if err == nil {
		// Go rounds a uint64 to the nearest float64, ties to even, as
		// Number rounds the decimal digits of the same integer.
		return release{float64(v.Major), float64(v.Minor), float64(v.Patch)}, true
	}
	var r release
	if !errors.Is(err, agentversion.ErrRange) {
		return r, false
	}
	base, _, _ := strings.Cut(jsstr.Trim(s), "-")
	for i := range r {
		var part string
		part, base, _ = strings.Cut(base, ".")
		r[i], _ = strconv.ParseFloat(part, 64) // ASCII digits only: Parse said so
	}
	return r, true
}

// less reports whether r is an older release than s, as compareReleases
// orders them: the first part that differs decides.
func (r release) less(s release) bool {
	for i := range r {
		if r[i] != s[i] {
			return r[i] < s[i]
		}
	}
	return false
}
