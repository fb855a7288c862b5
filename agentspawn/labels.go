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
	// AgentFeatureLabel is the one agent-feature label the newest public agent
	// reports. The scaler manager adds it to every label set it routes on. It
	// comes from labels.ts and manager.ts, at 0b46a9a and 84ac3cd.
	AgentFeatureLabel = "kici:agent-feature:global-eval-skips-result-aware"
)

// AgentLabels returns the labels a scaler gives an agent it spawns: the
// orchestrator's scalerAgentLabels. The container backend writes them into
// KICI_LABELS and binds the agent's token to them. They are, each label
// once, at its first place (compared exactly, case included):
//
//	labelSet             as given
//	kici:agent:<backend>
//	kici:scaler:<scaler>
//	the role labels
//	taints               the plain platform tokens the scaler manager passes,
//	                     which [PlatformTaints] computes
//
// roles nil means every role (kici:role:builder, kici:role:init-runner), as
// for a config that leaves roles out. Empty means none. A list holding "all"
// means every role. Otherwise each role's label follows, in roles' order.
func AgentLabels(labelSet []string, backend scalerconfig.ScalerType, scaler string, roles []scalerconfig.Role, taints []string) []string {
	var set orderedSet
	set.add(labelSet...)
	set.add(AgentTypeLabelPrefix+string(backend), ScalerLabelPrefix+scaler)
	set.add(roleLabels(roles)...)
	set.add(taints...)
	return set.list
}

// orderedSet is a list of labels, each once, at its first place, as a
// JavaScript Set keeps them.
type orderedSet struct {
	list []string
	has  map[string]bool
}

// add appends each of labels that the set does not hold yet.
func (s *orderedSet) add(labels ...string) {
	if s.has == nil {
		s.has = map[string]bool{}
	}
	for _, l := range labels {
		if !s.has[l] {
			s.has[l] = true
			s.list = append(s.list, l)
		}
	}
}

// roleLabels are the role labels roles stands for, in the order the
// orchestrator's resolveRoleLabels lists them: every role when roles is
// unset or holds "all".
func roleLabels(roles []scalerconfig.Role) []string {
	if roles == nil || slices.Contains(roles, "all") {
		roles = []scalerconfig.Role{scalerconfig.RoleBuilder, scalerconfig.RoleInitRunner}
	}
	out := make([]string, len(roles))
	for i, r := range roles {
		out[i] = RoleLabelPrefix + string(r)
	}
	return out
}

// NormalizeLabelSet returns the key the orchestrator compares label sets by
// (normalizeLabelSet). Each label is lower-cased as JavaScript does it, with
// no trimming, and kept once. The labels are sorted by UTF-16 code units and
// joined with ",". So ["Docker", "linux", "linux"] is "docker,linux", and an
// empty set is "". The container backend writes the key into the
// kici-labels Docker label.
func NormalizeLabelSet(labels []string) string {
	return strings.Join(normalized(labels), ",")
}

// normalized is labels lower-cased, sorted and de-duplicated.
func normalized(labels []string) []string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = jsstr.ToLower(l)
	}
	slices.SortFunc(out, labelOrder)
	return slices.Compact(out)
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
