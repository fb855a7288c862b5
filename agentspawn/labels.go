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
	var u uniq
	u.list = make([]string, 0, len(labelSet)+4+len(roles)+len(taints))
	for _, l := range labelSet {
		u.add(l)
	}
	u.add(AgentTypeLabelPrefix + string(backend))
	u.add(ScalerLabelPrefix + scaler)
	roleLabels(roles, u.add)
	for _, l := range taints {
		u.add(l)
	}
	return u.list
}

// everyRole reports whether roles stands for every role, as the
// orchestrator's resolveRoleLabels reads it: unset, or holding "all".
func everyRole(roles []scalerconfig.Role) bool {
	return roles == nil || slices.Contains(roles, "all")
}

// roleLabels calls add with each role label roles stands for, in the order
// the orchestrator's resolveRoleLabels lists them.
func roleLabels(roles []scalerconfig.Role, add func(string)) {
	if everyRole(roles) {
		add(RoleLabelPrefix + string(scalerconfig.RoleBuilder))
		add(RoleLabelPrefix + string(scalerconfig.RoleInitRunner))
		return
	}
	for _, r := range roles {
		add(RoleLabelPrefix + string(r))
	}
}

// uniq is a list that keeps each string once, at its first place, as a
// JavaScript Set does. It searches the list while it is short and a map
// from then on, so that a hostile label set of a million labels costs no
// more than linear time.
type uniq struct {
	list []string
	seen map[string]struct{}
}

// uniqLinear is how long a list uniq searches by scanning it.
const uniqLinear = 16

func (u *uniq) add(s string) {
	if u.seen == nil && len(u.list) < uniqLinear {
		if !slices.Contains(u.list, s) {
			u.list = append(u.list, s)
		}
		return
	}
	if u.seen == nil {
		u.seen = make(map[string]struct{}, 2*len(u.list))
		for _, l := range u.list {
			u.seen[l] = struct{}{}
		}
	}
	if _, ok := u.seen[s]; !ok {
		u.seen[s] = struct{}{}
		u.list = append(u.list, s)
	}
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
