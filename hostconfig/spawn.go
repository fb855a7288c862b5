package hostconfig

import "fmt"

// ResourceSpec is one side of a scaler config's resources block: a number of
// CPUs and a memory string in [ParseMemory]'s grammar. A zero field is "not
// set". Its json and yaml tags are the scaler config's own names, so a
// config's resources block unmarshals into it.
type ResourceSpec struct {
	CPUs   float64 `json:"cpus,omitempty" yaml:"cpus,omitempty"`
	Memory string  `json:"memory,omitempty" yaml:"memory,omitempty"`
}

// Resources is a label set's (or a scaler's default) resources block.
// Only Limits bounds a container; Requests is carried for completeness and
// never read here, as in the orchestrator.
type Resources struct {
	Requests *ResourceSpec `json:"requests,omitempty" yaml:"requests,omitempty"`
	Limits   *ResourceSpec `json:"limits,omitempty" yaml:"limits,omitempty"`
}

// ResolveSpawnLimits returns the cpu and memory limits for one agent
// container, as the orchestrator's resolveSpawnLimits chooses them.
//
// The effective limits (the scaler manager's, which already fold in a job's
// overrides and the label set's and scaler's defaults) win whole when either
// field is set: they are returned unchanged, even with the other field zero
// and even when a field is negative, which [Build] then ignores. "Set"
// follows JavaScript's truthiness, as the orchestrator tests
// `effective.cpus || effective.memBytes`: any value but 0 and NaN, so -1 is
// set and NaN is not.
//
// Otherwise res.Limits applies (res or res.Limits may be nil: no limits).
// Its CPUs is copied when set in the same sense; its Memory, when not empty,
// is parsed with [ParseMemory]. A memory string ParseMemory refuses is
// returned as an error that wraps the *[ParseError], with zero Limits; the
// orchestrator's own parser is not shown in its diff, and a limit it cannot
// read must not silently become "no limit".
func ResolveSpawnLimits(effective Limits, res *Resources) (Limits, error) {
	if isSet(effective.CPUs) || effective.MemBytes != 0 {
		return effective, nil
	}
	if res == nil || res.Limits == nil {
		return Limits{}, nil
	}
	var out Limits
	if res.Limits.Memory != "" {
		n, err := ParseMemory(res.Limits.Memory)
		if err != nil {
			return Limits{}, fmt.Errorf("resources.limits.memory: %w", err)
		}
		out.MemBytes = n
	}
	if isSet(res.Limits.CPUs) {
		out.CPUs = res.Limits.CPUs
	}
	return out, nil
}

// isSet reports whether JavaScript reads f as true: any value but 0 and NaN.
func isSet(f float64) bool { return f != 0 && f == f }

// SingleJobEnv is the environment entry that makes an agent run one job and
// exit. [SpawnAdditions] adds it to a container started from a pool's own
// image.
const SingleJobEnv = "KICI_SCALER_SINGLE_JOB=1"

// Additions is what a container's origin adds to it: see [SpawnAdditions].
// A nil field adds nothing.
type Additions struct {
	// Env holds "KEY=value" entries to append to the container's
	// environment (the Engine API's Config.Env).
	Env []string
	// SupplementaryGroups is for [Input].SupplementaryGroups.
	SupplementaryGroups []int
}

// SpawnAdditions returns what the container scaler adds to an agent
// container for the image it starts from. jobContainer reports whether the
// job asked for a container of its own (the orchestrator's
// spawnContext.container), whose image the agent then starts from instead of
// the pool's own image.
//
// A container from the pool's own image (jobContainer false) gets
// [SingleJobEnv] in its environment and the group [SudoGroupGID]: the agent
// image's kici-sudo group, which its sudoers file lets use sudo without a
// password. The agent in it runs one job and exits, so the root that job
// could take does not outlive it: the next job gets a new container. A
// container from a job's image (jobContainer true) gets neither; gid 1990
// means kici-sudo only in the agent image, and in an image the job chose it
// may name any group or none.
//
// Each call returns new slices. A caller appends Env to the container's
// environment and passes SupplementaryGroups on:
//
//	add := hostconfig.SpawnAdditions(jobImage != "")
//	env = append(env, add.Env...)
//	hc := hostconfig.Build(hostconfig.Input{
//		Limits:              limits,
//		Binds:               binds,
//		SupplementaryGroups: add.SupplementaryGroups,
//	})
func SpawnAdditions(jobContainer bool) Additions {
	if jobContainer {
		return Additions{}
	}
	return Additions{
		Env:                 []string{SingleJobEnv},
		SupplementaryGroups: []int{SudoGroupGID},
	}
}
