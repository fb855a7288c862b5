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

// Input is what [CheckAgentImages] checks.
type Input struct {
	// Config is the scaler config: what scalerconfig.Load returns, or a
	// literal; nil is a config with no scalers. In a literal, an empty
	// ImagePullPolicy means IfNotPresent, and labels are taken as they are
	// (Load canonicalises them, as the orchestrator does, so that its
	// messages and ours then agree).
	Config *scalerconfig.Config

	// Location is where the config was loaded from, as the findings name
	// it: the orchestrator's scalerConfigPath (Location.Path) and
	// scalerConfigDir (Location.Dir, "" when there is no drop-in folder).
	Location scalerconfig.Location

	// TargetVersion is the release the upgrade installs, such as "0.20.0"
	// or " v0.20.0 "; it may be empty. Like the orchestrator, the check trims
	// it, drops one leading "v", and uses the rest, "-suffix" included, when
	// it is a release as the orchestrator reads one: agentversion.Parse's
	// grammar, each part any number of digits read as a JavaScript number.
	// Otherwise there is no usable target.
	TargetVersion string
}

// CheckAgentImages reports every container-scaler label set whose agent
// image an upgrade to in.TargetVersion would leave unchanged, as the
// orchestrator's checkContainerAgentImages does, and what else it finds
// wrong with those images. An empty result (never nil) means that each agent
// image is pinned to the target (or newer) or pulled on every spawn.
//
// It looks only at scalers of type "container", and in them only at label
// sets with a non-empty image whose repository, as the orchestrator's lenient
// split reads it, is a kici-agent image ([imageref.IsAgentImage]); it never fails. The
// findings come in config order, and for one label set in this order:
//
//  1. the orchestrator's own, with its exact text, from its lenient split of
//     the image, valid or not: [MovingTag] (no tag or "latest", no digest,
//     IfNotPresent) or else [OlderPin] (a tag that is a release older than
//     the target). Never both.
//  2. then, for an image that [imageref.Parse] rejects, [InvalidImage] and nothing
//     more; for a valid one, [NeverPull] (policy Never) or [FloatingTag]
//     (policy IfNotPresent). Never both, and never FloatingTag beside a
//     finding of step 1.
//
// So a label set gets at most two findings: MovingTag or OlderPin with
// InvalidImage, or OlderPin with NeverPull. Keeping only the codes
// "moving-tag" and "older-pin" gives exactly the orchestrator's list.
//
// An empty ImagePullPolicy is IfNotPresent; a policy the orchestrator does
// not know counts as neither IfNotPresent nor Never, as it does there.
func CheckAgentImages(in Input) []Finding {
	c := NewChecker(in)
	findings := []Finding{} // never nil, so that it marshals to [] as the orchestrator's does
	if in.Config == nil {
		return findings
	}
	for i := range in.Config.Scalers {
		findings = c.check(findings, i, &in.Config.Scalers[i])
	}
	return findings
}

// A Checker is [CheckAgentImages] one scaler at a time, for a caller that
// gets the scalers one at a time, as [scalerconfig.Location.Scan] hands them over,
// and need not hold the whole config. Its findings for the scalers of a
// config, in order, are CheckAgentImages' findings for that config.
//
// A Checker counts the images it has looked at and those it skipped
// ([Checker.Counts]); it is not safe for concurrent use.
type Checker struct {
	c      checker
	counts ImageCounts
}

// ImageCounts are the images of container scalers' label sets that a
// [Checker] has been handed: those it checked and those it skipped. The
// label sets of other scaler types, and those without an image, count in
// neither: the check is about container agents.
type ImageCounts struct {
	// Agent is the number of KiCI agent images checked: those whose
	// repository, as the orchestrator's lenient split reads it, is a
	// kici-agent image ([imageref.IsAgentImage]), valid or not.
	Agent int
	// Other is the number of images skipped as not KiCI agent images,
	// which no check looks at: a config whose images are all other
	// images has no findings, and is not a clean config.
	Other int
}

// Counts returns the images c has looked at and skipped so far, over every
// scaler handed to [Checker.Check].
func (c *Checker) Counts() ImageCounts { return c.counts }

// NewChecker returns the Checker of in's target and location; in.Config is
// not read.
func NewChecker(in Input) *Checker {
	c := checker{target: usableTarget(in.TargetVersion), where: in.where(), path: in.Location.Path}
	c.version, _ = jsRelease(c.target)
	return &Checker{c: c}
}

// Check returns the findings for the scaler at index in the config's
// scalers list, as CheckAgentImages reports them (Site.ScalerIndex is
// index); nil when there are none.
func (c *Checker) Check(index int, s *scalerconfig.Scaler) []Finding {
	return c.check(nil, index, s)
}

func (c *Checker) check(findings []Finding, index int, s *scalerconfig.Scaler) []Finding {
	if s.Type != scalerconfig.TypeContainer {
		return findings
	}
	for j := range s.LabelSets {
		ls := &s.LabelSets[j]
		if ls.Image == "" {
			continue
		}
		var img agentImage
		c.c.read(ls, &img)
		if !imageref.IsAgentImage(img.Repository) {
			c.counts.Other++
			continue
		}
		c.counts.Agent++
		findings = c.c.labelSet(findings, s.Name, ls, &img, index, j)
	}
	return findings
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
}

// labelSet appends to dst the findings for label set j of scaler i, named
// scaler, whose image img is an agent image, in the order
// [CheckAgentImages] gives them.
func (c *checker) labelSet(dst []Finding, scaler string, ls *scalerconfig.LabelSet, img *agentImage, i, j int) []Finding {
	if img.invalid == nil && !img.movingTag() && !img.olderPin() && !img.neverPull() && !img.floatingTag() {
		return dst // most label sets: no finding, and no Site to build
	}
	site := Site{
		Scaler: scaler, Labels: slices.Clone(ls.Labels), Image: ls.Image,
		ScalerIndex: i, LabelSetIndex: j,
		Pos: ls.Pos, ImagePos: ls.ImagePos, ImageEnd: ls.ImageEnd, Where: c.where,
	}
	site.edit, _ = ls.ImageEdit("")
	if img.movingTag() {
		dst = append(dst, MovingTag{Site: site, Tag: img.Tag, Target: c.target})
	}
	if img.olderPin() {
		dst = append(dst, OlderPin{Site: site, Tag: img.Tag, Target: c.target})
	}
	if img.invalid != nil {
		return append(dst, InvalidImage{Site: site, Err: img.invalid})
	}
	if img.neverPull() {
		dst = append(dst, NeverPull{Site: site, Tag: img.Tag, Target: c.target})
	}
	if img.floatingTag() {
		dst = append(dst, FloatingTag{Site: site, Tag: img.Tag, Target: c.target})
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
