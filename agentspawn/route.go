package agentspawn

import (
	"slices"

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
	// Host is the orchestrator's own OS and architecture, in the config's
	// words (linux, macos, windows; x64, arm64; Node's darwin and win32
	// read as macos and windows, and other values are taken as Node's
	// os.platform() and os.arch() strings). The zero Host adds no
	// host-derived label.
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
// scaler manager chooses it (requestScale: getEnrichedScalerEntries, then
// findBackendForLabels), and false when none does.
//
// Each label set is matched with the labels the manager adds to it: the
// kici:os: and kici:arch: labels of the scaler's platform (its declared
// one; for a bare-metal scaler without one, Host's; for a container or
// firecracker scaler without one, kici:os:linux and Host's architecture),
// the platform's tokens (windows, macos, arm64), kici:agent:<type>,
// kici:scaler:<name>, the role labels, and [AgentFeatureLabel]. Labels are
// compared lower-cased, as JavaScript lower-cases them.
//
//   - A label set serves the job when every runs-on label is one of its
//     labels, every label of its gate is in runs-on (the gate: the scaler's
//     mandatoryLabels, the scaler's [PlatformTaints], and the platform
//     taints among the label set's own labels, such as macos or arm64),
//     and none of Exclude is one of its labels.
//   - Of those, the one with the fewest labels (its own and the added ones,
//     each counted once) wins; on a tie the first, scalers in config order
//     and label sets in scaler order.
//   - An empty runs-on takes the first label set whose gate is empty, and
//     Exclude does not apply to it, as in the orchestrator.
//
// Route reads every label set once, and allocates nothing for a label set
// whose labels are lower case, as Load makes them: its time is linear in
// the number of label sets.
func Route(in RouteInput) (Match, bool) {
	if in.Config == nil {
		return Match{}, false
	}
	var tbuf [8]string
	target := normalized(in.RunsOn, tbuf[:0])
	if len(target) == 0 {
		return firstUngated(in.Config, in.Host)
	}
	var ebuf [8]string
	exclude := normalized(in.Exclude, ebuf[:0])
	best, bestSize, found := Match{}, 0, false
	var abuf [24]label
	r := router{target: target, exclude: exclude, buf: abuf[:0]}
	for i := range in.Config.Scalers {
		if !r.reset(&in.Config.Scalers[i], in.Host) {
			continue
		}
		for j, ls := range r.scaler.LabelSets {
			size, ok := r.serves(ls.Labels)
			if ok && (!found || size < bestSize) {
				best, bestSize, found = Match{i, j}, size, true
			}
		}
	}
	return best, found
}

// firstUngated is Route for an empty runs-on: the first label set without
// a gate.
func firstUngated(cfg *scalerconfig.Config, host scalerconfig.Platform) (Match, bool) {
	for i := range cfg.Scalers {
		s := &cfg.Scalers[i]
		if len(s.MandatoryLabels) > 0 || len(PlatformTaints(s, host)) > 0 {
			continue
		}
		for j, ls := range s.LabelSets {
			if !hasPlatformTaint(ls.Labels) {
				return Match{i, j}, true
			}
		}
	}
	return Match{}, false
}

// router matches a job's labels against label sets, one scaler at a time.
// Every list it holds is lower-cased, each label once; target and exclude
// are sorted in labelOrder, as inSorted takes them.
type router struct {
	target, exclude []string // the job's
	scaler          *scalerconfig.Scaler
	added           addedSet // the labels the manager adds to the scaler's label sets
	need            []string // the targets not among added, which a label set's own labels must hold
	own             []string // the current label set's labels
	buf             []label  // scratch space for added
}

// reset makes r the router of s, and reports whether any of s's label sets
// can serve the job: not when the scaler's part of the gate (its mandatory
// labels and its platform's taints) is missing from the target, nor when an
// excluded label is one the manager adds to every label set.
func (r *router) reset(s *scalerconfig.Scaler, host scalerconfig.Platform) bool {
	r.scaler = s
	p, resolved := resolvedPlatform(s, host)
	r.added = addedLabels(s, host, r.buf[:0])
	r.buf = r.added.list[:0]
	for _, m := range s.MandatoryLabels {
		if !inSorted(r.target, jsstr.ToLower(m)) {
			return false
		}
	}
	if resolved {
		var tokens [2]string
		for _, t := range p.Taints(tokens[:0]) {
			if !inSorted(r.target, t) {
				return false
			}
		}
	}
	for _, e := range r.exclude {
		if r.added.has(e) {
			return false
		}
	}
	r.need = r.need[:0]
	for _, t := range r.target {
		if !r.added.has(t) {
			r.need = append(r.need, t)
		}
	}
	return true
}

// addedSet is the labels the manager adds to a scaler's label sets, each
// once: a list, with a set of its labels as strings once it is long.
type addedSet struct {
	list []label
	seen map[string]struct{}
}

func (a *addedSet) add(l label) { a.list, a.seen = addLabel(a.list, a.seen, l) }

// has reports whether s is one of the labels.
func (a *addedSet) has(s string) bool {
	if a.seen != nil {
		return mapHas(a.seen, s)
	}
	return slices.ContainsFunc(a.list, label{name: s}.same)
}

// addedLabels returns the labels the scaler manager adds to each label set
// of s (getEnrichedScalerEntries), lower-cased, each once, as prefixes and
// names, so that they need no string of their own. buf is scratch space.
func addedLabels(s *scalerconfig.Scaler, host scalerconfig.Platform, buf []label) addedSet {
	var osArch [6]string
	p, resolved := resolvedPlatform(s, host)
	var auto []string
	switch {
	case resolved:
		auto = p.Taints(archLabels(p.Arch, osLabels(p.OS, osArch[:0])))
	case s.Type == scalerconfig.TypeBareMetal:
		auto = archLabels(host.Arch, osLabels(host.OS, osArch[:0]))
	default:
		auto = archLabels(host.Arch, osLabels("linux", osArch[:0]))
	}
	a := addedSet{list: buf}
	for _, l := range auto {
		a.add(label{name: jsstr.ToLower(l)})
	}
	a.add(lowerLabel(AgentTypeLabelPrefix, string(s.Type)))
	a.add(lowerLabel(ScalerLabelPrefix, s.Name))
	roleLabels(s.Roles, func(name string) { a.add(lowerLabel(RoleLabelPrefix, name)) })
	a.add(label{name: AgentFeatureLabel})
	return a
}

// lowerLabel is prefix+name lower-cased, as JavaScript lower-cases the
// whole label: a name that lower-casing leaves as it is stays apart from
// its prefix; another is lower-cased with it, where a final sigma may read
// the prefix.
func lowerLabel(prefix, name string) label {
	if jsstr.ToLower(name) == name {
		return label{prefix, name}
	}
	return label{name: jsstr.ToLower(prefix + name)}
}

// serves reports whether a label set of r's scaler with these labels
// serves the job, and how many labels it has with the added ones.
func (r *router) serves(labels []string) (int, bool) {
	r.own = ownLabels(labels, r.own[:0])
	size := len(r.added.list)
	for _, l := range r.own {
		if scalerconfig.IsPlatformTaint(l) && !inSorted(r.target, l) || inSorted(r.exclude, l) {
			return 0, false
		}
		if !r.added.has(l) {
			size++
		}
	}
	for _, t := range r.need {
		if !inSorted(r.own, t) {
			return 0, false
		}
	}
	return size, true
}

// ownLabels appends labels lower-cased to dst, each once: a short list as
// it comes, a longer one sorted in labelOrder, as inSorted takes it.
func ownLabels(labels, dst []string) []string {
	if len(labels) > shortList {
		return normalized(labels, dst)
	}
	for _, l := range labels {
		if l = jsstr.ToLower(l); !slices.Contains(dst, l) {
			dst = append(dst, l)
		}
	}
	return dst
}

// shortList is the longest list inSorted scans rather than searches.
const shortList = 8

// inSorted reports whether s is in list: scanned when list is short, else
// searched in it, sorted in labelOrder.
func inSorted(list []string, s string) bool {
	if len(list) <= shortList {
		return slices.Contains(list, s)
	}
	_, ok := slices.BinarySearchFunc(list, s, labelOrder)
	return ok
}
