package imageref

import (
	"slices"
	"strings"

	"github.com/kicikit/kicikit/agentversion"
	"github.com/kicikit/kicikit/internal/jsstr"
)

// CheckAgentImages reports every container-scaler label set whose agent
// image an upgrade to in.TargetVersion would leave unchanged, as the
// orchestrator's checkContainerAgentImages does, and what else it finds
// wrong with those images. An empty result (never nil) means that each agent
// image is pinned to the target (or newer) or pulled on every spawn.
//
// It looks only at scalers of type "container", and in them only at label
// sets with a non-empty image whose repository, as the orchestrator's lenient
// split reads it, is a kici-agent image ([IsAgentImage]); it never fails. The
// findings come in config order, and for one label set in this order:
//
//  1. the orchestrator's own, with its exact text, from its lenient split of
//     the image, valid or not: [MovingTag] (no tag or "latest", no digest,
//     IfNotPresent) or else [OlderPin] (a tag that is a release older than
//     the target). Never both.
//  2. then, for an image that [Parse] rejects, [InvalidImage] and nothing
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
func CheckAgentImages(in CheckInput) []Finding {
	target := usableTarget(in.TargetVersion)
	where := in.ScalerConfigPath
	if in.ScalerConfigDir != "" {
		where += " (or the file under " + in.ScalerConfigDir + " that declares it)"
	}
	findings := []Finding{} // never nil, so that it marshals to [] as the orchestrator's does
	for i, scaler := range in.Config.Scalers {
		if scaler.Type != ScalerTypeContainer {
			continue
		}
		for j, ls := range scaler.LabelSets {
			if ls.Image == "" {
				continue
			}
			l := splitLenient(ls.Image)
			if !IsAgentImage(l.repository) {
				continue
			}
			site := Site{Scaler: scaler.Name, Labels: slices.Clone(ls.Labels), Image: ls.Image, ScalerIndex: i, LabelSetIndex: j}
			policy := ls.ImagePullPolicy.Effective()

			// The orchestrator's findings, from the lenient split.
			moving := (!l.hasTag || l.tag == LatestTag) && !l.hasDigest
			older := false
			if moving && policy == PullIfNotPresent {
				findings = append(findings, MovingTag{Site: site, Tag: l.tag, Target: target, Where: where})
			} else if target != "" && l.hasTag {
				c, err := agentversion.Compare(l.tag, target)
				if older = err == nil && c < 0; older {
					findings = append(findings, OlderPin{Site: site, Tag: l.tag, Target: target, Where: where})
				}
			}

			// Ours.
			if _, err := parse(ls.Image); err != nil {
				findings = append(findings, InvalidImage{Site: site, Err: err, Where: where})
				continue
			}
			floating := l.hasTag && l.tag != LatestTag && !l.hasDigest && !isRelease(l.tag)
			switch {
			case policy == PullNever && (moving || floating || older):
				findings = append(findings, NeverPull{Site: site, Tag: l.tag, Target: target, Where: where})
			case policy == PullIfNotPresent && floating:
				findings = append(findings, FloatingTag{Site: site, Tag: l.tag, Target: target, Where: where})
			}
		}
	}
	return findings
}

// usableTarget is the orchestrator's reading of the target version: trimmed,
// less one leading "v", and kept, suffix and all, only when it is a version.
func usableTarget(s string) string {
	bare := strings.TrimPrefix(jsstr.Trim(s), "v")
	if _, err := agentversion.Parse(bare); err != nil {
		return ""
	}
	return bare
}

// isRelease reports whether a tag names a release, as the orchestrator's
// compareReleases reads one.
func isRelease(tag string) bool {
	_, err := agentversion.Compare(tag, "0.0.0")
	return err == nil
}
