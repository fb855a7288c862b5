package agentspawn

import (
	"github.com/kicikit/kicikit/internal/jsstr"
	"github.com/kicikit/kicikit/scalerconfig"
)

// RouteInput is what [Route] decides from: the loaded config and a job's
// runs-on.
type RouteInput struct {
	// Config is the loaded scaler config; nil routes nothing.
	Config *scalerconfig.Config
	// RunsOn are the job's runs-on labels, in any case.
	RunsOn []string
	// Exclude are the job's excluded labels, in any case.
	Exclude []string
	// Host is the orchestrator's own OS and architecture, in the config's words:
	// linux, macos, windows; x64, arm64. Node's darwin and win32 read as macos
	// and windows. Other values are taken as Node's os.platform() and os.arch()
	// strings. The zero Host adds no host-derived label.
	Host scalerconfig.Platform
}

// Match names the label set that serves a job: Config.Scalers[ScalerIndex]
// .LabelSets[LabelSetIndex].
type Match struct {
	// ScalerIndex is the scaler's index in Config.Scalers.
	ScalerIndex int
	// LabelSetIndex is the label set's index in that scaler's LabelSets.
	LabelSetIndex int
}

// Route returns the label set that serves a job, as the orchestrator's
// scaler manager chooses it. That is requestScale: getEnrichedScalerEntries,
// then findBackendForLabels. It reports false when none does.
//
// Each label set is matched with the labels the manager adds to it:
//
//	kici:os:, kici:arch:   of the scaler's platform: its declared one; for a
//	                       bare-metal scaler without one, Host's; for a container
//	                       or firecracker scaler without one, kici:os:linux and
//	                       Host's architecture
//	windows, macos, arm64  the platform's tokens
//	kici:agent:<type>
//	kici:scaler:<name>
//	the role labels
//	AgentFeatureLabel
//
// Labels are compared lower-cased, as JavaScript lower-cases them.
//
//   - A label set serves the job when every runs-on label is one of its
//     labels and every label of its gate is in runs-on. None of Exclude may
//     be one of its labels.
//   - The gate is the rules' of the config (Config.Rules, which
//     scalerconfig's read records; the zero Rules of a literal are the
//     newest). By scalerconfig.Rules016, manager.ts's mandatoryGate at
//     84ac3cd (0.16.0 on): the scaler's mandatoryLabels and
//     [PlatformTaints], the same for each of its label sets, so a
//     runsOn: [windows] job reaches a label set [windows, arm64] of a
//     scaler whose platform is windows on x64. By Rules012 and Rules014,
//     labelSetMandatoryLabels at 0b46a9a: those, and the platform labels
//     among the label set's own labels (scalerconfig.IsPlatformLabel),
//     such as macos or arm64.
//   - Of those, the one with the fewest labels wins, its own and the added
//     ones each counted once. On a tie the first wins: scalers in config
//     order, and label sets in scaler order.
//   - An empty runs-on takes the first label set whose gate is empty.
//     Exclude does not apply to it, as in the orchestrator.
//
// Route's time is linear in the size of the config and of the job's labels.
func Route(in RouteInput) (Match, bool) {
	if in.Config == nil {
		return Match{}, false
	}
	target := lowerSet(in.RunsOn)
	labelTaints := in.Config.Rules != scalerconfig.Rules016
	if len(target) == 0 {
		return firstUngated(in.Config, in.Host, labelTaints)
	}
	exclude := lowerSet(in.Exclude)
	best, bestSize, found := Match{}, 0, false
	for i := range in.Config.Scalers {
		s := &in.Config.Scalers[i]
		added, need, ok := scalerGate(s, in.Host, target, exclude)
		if !ok {
			continue
		}
		for j, ls := range s.LabelSets {
			size, ok := serves(ls.Labels, added, need, target, exclude, labelTaints)
			if ok && (!found || size < bestSize) {
				best, bestSize, found = Match{i, j}, size, true
			}
		}
	}
	return best, found
}

// firstUngated is Route for an empty runs-on: the first label set without
// a gate; with labelTaints, a label set's platform labels gate it.
func firstUngated(cfg *scalerconfig.Config, host scalerconfig.Platform, labelTaints bool) (Match, bool) {
	for i := range cfg.Scalers {
		s := &cfg.Scalers[i]
		if len(s.MandatoryLabels) > 0 || len(PlatformTaints(s, host)) > 0 {
			continue
		}
		for j, ls := range s.LabelSets {
			if !labelTaints || !hasPlatformLabel(ls.Labels) {
				return Match{i, j}, true
			}
		}
	}
	return Match{}, false
}

// lowerSet is the set of labels, lower-cased.
func lowerSet(labels []string) map[string]bool {
	set := make(map[string]bool, len(labels))
	for _, l := range labels {
		set[jsstr.ToLower(l)] = true
	}
	return set
}

// scalerGate returns the labels the manager adds to each label set of s,
// and the targets among them not, which a label set's own labels must
// hold. It reports false when no label set of s can serve the job: the
// scaler's part of the gate (its mandatory labels and its platform's
// taints) is missing from the target, or an excluded label is one the
// manager adds.
func scalerGate(s *scalerconfig.Scaler, host scalerconfig.Platform, target, exclude map[string]bool) (added map[string]bool, need []string, ok bool) {
	gate := PlatformTaints(s, host)
	for _, m := range s.MandatoryLabels {
		gate = append(gate, jsstr.ToLower(m))
	}
	for _, g := range gate {
		if !target[g] {
			return nil, nil, false
		}
	}
	added = addedLabels(s, host).has
	for e := range exclude {
		if added[e] {
			return nil, nil, false
		}
	}
	for t := range target {
		if !added[t] {
			need = append(need, t)
		}
	}
	return added, need, true
}

// addedLabels returns the labels the scaler manager adds to each label set
// of s (getEnrichedScalerEntries), lower-cased, each once.
func addedLabels(s *scalerconfig.Scaler, host scalerconfig.Platform) orderedSet {
	p, resolved := resolvedPlatform(s, host)
	var auto []string
	switch {
	case resolved:
		auto = p.Taints(archLabels(p.Arch, osLabels(p.OS, nil)))
	case s.Type == scalerconfig.TypeBareMetal:
		auto = archLabels(host.Arch, osLabels(host.OS, nil))
	default:
		auto = archLabels(host.Arch, osLabels("linux", nil))
	}
	auto = append(auto, AgentTypeLabelPrefix+string(s.Type), ScalerLabelPrefix+s.Name)
	auto = append(auto, roleLabels(s.Roles)...)
	var set orderedSet
	for _, l := range auto {
		set.add(jsstr.ToLower(l))
	}
	set.add(AgentFeatureLabel)
	return set
}

// serves reports whether a label set with these labels serves the job,
// and how many labels it has with the added ones; with labelTaints, its
// own platform labels gate it.
func serves(labels []string, added map[string]bool, need []string, target, exclude map[string]bool, labelTaints bool) (int, bool) {
	own := lowerSet(labels)
	size := len(added)
	for l := range own {
		if labelTaints && scalerconfig.IsPlatformLabel(l) && !target[l] || exclude[l] {
			return 0, false
		}
		if !added[l] {
			size++
		}
	}
	for _, t := range need {
		if !own[t] {
			return 0, false
		}
	}
	return size, true
}
