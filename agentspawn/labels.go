package agentspawn

import (
	"slices"
	"strings"

	"github.com/kicikit/kicikit/internal/jsstr"
	"github.com/kicikit/kicikit/scalerconfig"
)

// The label prefixes and labels the orchestrator gives its agents, as
// packages/engine/src/labels.ts names them.
const (
	// AgentTypeLabelPrefix starts the label that names an agent's backend:
	// kici:agent:container.
	AgentTypeLabelPrefix = "kici:agent:"
	// ScalerLabelPrefix starts the label that names the scaler that
	// spawned an agent: kici:scaler:<name>.
	ScalerLabelPrefix = "kici:scaler:"
	// RoleLabelPrefix starts a role label: kici:role:builder.
	RoleLabelPrefix = "kici:role:"
	// AgentFeatureLabel is the one agent-feature label the newest public
	// agent reports, which the scaler manager adds to every label set it
	// routes on (labels.ts and manager.ts at 0b46a9a).
	AgentFeatureLabel = "kici:agent-feature:global-eval-skips-result-aware"
)

// AgentLabels returns the labels a scaler gives an agent it spawns, what
// the container backend writes into KICI_LABELS and binds the agent's
// token to: the orchestrator's scalerAgentLabels. They are labelSet as
// given, then kici:agent:<backend>, kici:scaler:<scaler>, the role labels
// and the platform taints, each label once, at its first place (compared
// exactly, case included).
//
// roles nil means every role (kici:role:builder, kici:role:init-runner),
// as a config that leaves roles out; empty means none; a list holding
// "all" means every role; otherwise each role's label in roles' order.
// taints are the plain platform tokens the scaler manager passes, which
// [PlatformTaints] computes.
func AgentLabels(labelSet []string, backend scalerconfig.ScalerType, scaler string, roles []scalerconfig.Role, taints []string) []string {
	var buf [16]label
	return joined(agentLabels(labelSet, backend, scaler, roles, taints, buf[:0]))
}

// joined returns each label as one string.
func joined(list []label) []string {
	out := make([]string, len(list))
	for i, l := range list {
		out[i] = l.prefix + l.name
	}
	return out
}

// label is a label as a prefix and a name, so that the labels a scaler
// adds need no string of their own until they are written.
type label struct{ prefix, name string }

// same reports whether two labels are the same string.
func (l label) same(m label) bool {
	if len(l.prefix)+len(l.name) != len(m.prefix)+len(m.name) {
		return false
	}
	// Past the prefixes' common length n, one of them has no more: the
	// other's rest must start the first's name.
	n := min(len(l.prefix), len(m.prefix))
	x, y := l.prefix[n:], m.prefix[n:]
	if x == "" {
		return l.prefix == m.prefix[:n] && joins(l.name, y, m.name)
	}
	return m.prefix == l.prefix[:n] && joins(m.name, x, l.name)
}

// joins reports whether s is head followed by tail.
func joins(s, head, tail string) bool {
	rest, ok := strings.CutPrefix(s, head)
	return ok && rest == tail
}

// agentLabels appends to dst the labels of [AgentLabels], each once.
func agentLabels(labelSet []string, backend scalerconfig.ScalerType, scaler string, roles []scalerconfig.Role, taints []string, dst []label) []label {
	list, seen := dst, map[string]struct{}(nil)
	add := func(l label) { list, seen = addLabel(list, seen, l) }
	for _, l := range labelSet {
		add(label{name: l})
	}
	add(label{AgentTypeLabelPrefix, string(backend)})
	add(label{ScalerLabelPrefix, scaler})
	roleLabels(roles, func(name string) { add(label{RoleLabelPrefix, name}) })
	for _, l := range taints {
		add(label{name: l})
	}
	return list
}

// everyRole reports whether roles stands for every role, as the
// orchestrator's resolveRoleLabels reads it: unset, or holding "all".
func everyRole(roles []scalerconfig.Role) bool {
	return roles == nil || slices.Contains(roles, "all")
}

// roleLabels calls add with the name of each role label roles stands for,
// in the order the orchestrator's resolveRoleLabels lists them.
func roleLabels(roles []scalerconfig.Role, add func(string)) {
	if everyRole(roles) {
		add(string(scalerconfig.RoleBuilder))
		add(string(scalerconfig.RoleInitRunner))
		return
	}
	for _, r := range roles {
		add(string(r))
	}
}

// scanned is how long a list addLabel searches by scanning it.
const scanned = 16

// addLabel appends l to list unless list has it, and returns both, as a
// JavaScript Set keeps each member once, at its first place. It searches
// list while it is short, and seen, a set of list's labels it makes then,
// from then on, so that a hostile label set of a million labels costs no
// more than linear time.
func addLabel(list []label, seen map[string]struct{}, l label) ([]label, map[string]struct{}) {
	if seen != nil {
		if s := l.prefix + l.name; !mapHas(seen, s) {
			seen[s] = struct{}{}
			list = append(list, l)
		}
		return list, seen
	}
	for _, m := range list {
		if l.same(m) {
			return list, nil
		}
	}
	if list = append(list, l); len(list) == scanned {
		seen = indexed(list)
	}
	return list, seen
}

// indexed is the set of list's labels, as strings.
func indexed(list []label) map[string]struct{} {
	seen := make(map[string]struct{})
	for _, m := range list {
		seen[m.prefix+m.name] = struct{}{}
	}
	return seen
}

// NormalizeLabelSet returns the key the orchestrator compares label sets
// by (normalizeLabelSet): each label lower-cased as JavaScript does it (no
// trimming), each once, sorted by UTF-16 code units, joined with ",".
// ["Docker", "linux", "linux"] is "docker,linux"; an empty set is "".
// The container backend writes it into the kici-labels Docker label.
func NormalizeLabelSet(labels []string) string {
	var buf [8]string
	return strings.Join(normalized(labels, buf[:0]), ",")
}

// normalized appends labels lower-cased, sorted and de-duplicated to dst.
func normalized(labels, dst []string) []string {
	for _, l := range labels {
		dst = append(dst, jsstr.ToLower(l))
	}
	slices.SortFunc(dst, labelOrder)
	return slices.Compact(dst)
}

// labelOrder is JavaScript's order, then, for two strings it cannot tell
// apart (invalid UTF-8, which reads as U+FFFD), Go's: a total order, so
// that a set sorts the same whatever order it comes in.
func labelOrder(a, b string) int {
	if c := jsstr.Compare(a, b); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func mapHas(m map[string]struct{}, s string) bool {
	_, ok := m[s]
	return ok
}
