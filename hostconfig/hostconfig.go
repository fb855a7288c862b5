package hostconfig

import (
	"math"
	"slices"
	"strconv"

	"github.com/moby/moby/api/types/container"
)

// PidsLimit is the most processes an agent container may hold at once. It
// is the orchestrator's AGENT_CONTAINER_PIDS_LIMIT. The agent and everything
// it starts in its container share that many. As in the orchestrator, it is
// a constant, not a setting.
const PidsLimit = 4096

// SudoGroupGID is the group id of kici-sudo in the KiCI agent image, the
// orchestrator's AGENT_SUDO_GROUP_GID. The image's /etc/sudoers.d/kici-sudo
// gives that group passwordless sudo. [Additions.Apply] adds it only to a
// single-job container started from a pool's own image.
const SudoGroupGID = 1990

// Limits is the cpu and memory ceiling of one agent container. A zero field
// means "not set": the container gets no limit of that kind.
type Limits struct {
	// CPUs is a number of CPUs, 1.5 for one and a half. Only a positive
	// value limits the container.
	CPUs float64
	// MemBytes is the memory limit in bytes. Only a positive value limits
	// the container.
	MemBytes int64
}

// Input is what [Build] makes a HostConfig from. Its zero value is valid: a
// container with no limits but the process limit.
type Input struct {
	// Limits are the cpu and memory limits, as [ResolveSpawnLimits] returns
	// them.
	Limits Limits
	// Binds are volume bindings in the Engine API's "source:target[:mode]"
	// form, copied as given.
	Binds []string
	// ExtraHosts are "host:ip" entries for the container's /etc/hosts, copied
	// as given. A private registry's alias is one.
	ExtraHosts []string
	// SupplementaryGroups are group ids the container's process also runs as.
	// [Additions.Apply] adds the one the single-job rule gives. They are passed
	// on unchecked.
	SupplementaryGroups []int
}

// Build returns the HostConfig of an agent container. It is the
// orchestrator's buildAgentContainerHostConfig:
//
//   - Memory is in.Limits.MemBytes when that is positive, else 0 (none).
//   - NanoCPUs is in.Limits.CPUs × 1e9 when CPUs is positive, else 0
//     (none). It is rounded as JavaScript's Math.round rounds, halves
//     toward +∞. NaN is not positive. A product of 2^63 or more, +Inf
//     included, becomes [math.MaxInt64]. That is more CPUs than any host
//     has, which the Engine refuses.
//   - Binds, ExtraHosts and GroupAdd (each group id in decimal) are set
//     only when the input has at least one entry. Otherwise they are nil
//     and marshal as null, which the Engine reads as "none".
//   - AutoRemove is false, set explicitly as the orchestrator does.
//   - PidsLimit points to [PidsLimit].
//
// Every other field is its zero value, which the Engine reads as its
// default. The result shares no slice or pointer with in, or with another
// call's result. A caller may change either afterwards.
func Build(in Input) container.HostConfig {
	pids := int64(PidsLimit)
	hc := container.HostConfig{AutoRemove: false}
	hc.PidsLimit = &pids
	if in.Limits.MemBytes > 0 {
		hc.Memory = in.Limits.MemBytes
	}
	if in.Limits.CPUs > 0 {
		hc.NanoCPUs = nanoCPUs(in.Limits.CPUs)
	}
	if len(in.Binds) > 0 {
		hc.Binds = slices.Clone(in.Binds)
	}
	if len(in.ExtraHosts) > 0 {
		hc.ExtraHosts = slices.Clone(in.ExtraHosts)
	}
	if len(in.SupplementaryGroups) > 0 {
		groups := make([]string, len(in.SupplementaryGroups))
		for i, gid := range in.SupplementaryGroups {
			groups[i] = strconv.Itoa(gid)
		}
		hc.GroupAdd = groups
	}
	return hc
}

// nanoCPUs is JavaScript's Math.round(cpus * 1e9) for a positive cpus,
// with a product too large for an int64 (or +Inf) clamped to MaxInt64.
func nanoCPUs(cpus float64) int64 {
	x := cpus * 1e9
	if !(x < 1<<63) {
		return math.MaxInt64
	}
	// Math.round: the nearest integer, a half rounding up. x-r is exact
	// for 0 <= x, so this does not double-round as math.Floor(x+0.5) does
	// (0.49999999999999994 stays 0).
	r := math.Floor(x)
	if x-r >= 0.5 {
		r++
	}
	return int64(r)
}
