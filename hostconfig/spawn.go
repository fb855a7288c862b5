package hostconfig

import (
	"slices"
	"strconv"

	"github.com/kicikit/kicikit/internal/errtext"
)

// ResourceSpec is one side of a scaler config's resources block: a number
// of CPUs and a memory string in [ParseMemory]'s grammar. A zero field is
// "not set". Its json and yaml tags are the scaler config's own names. So a
// config's resources block unmarshals into it.
type ResourceSpec struct {
	// CPUs is a number of CPUs, 1.5 for one and a half, and 0 when not set. A
	// config the orchestrator accepts has it above 0 and at most 256. As a limit
	// it becomes the container's NanoCPUs.
	CPUs float64 `json:"cpus,omitempty" yaml:"cpus,omitempty"`
	// Memory is a memory string such as "512m" or "1.5g", and "" when not set.
	// [ParseMemory] reads it when the spawn needs it. The orchestrator does not
	// check it when it loads the config. As a limit it becomes the container's
	// Memory.
	Memory string `json:"memory,omitempty" yaml:"memory,omitempty"`
}

// Resources is a label set's (or a scaler's default) resources block. Only
// Limits bounds a container. Requests is carried for completeness and never
// read here, as in the orchestrator.
type Resources struct {
	// Requests are what an agent is counted as using. They count against the
	// resource caps of its scaler, its machine pool and the orchestrator. The
	// scaler manager sums them, and a spawn that would pass a cap waits. They
	// bound nothing. nil: none.
	Requests *ResourceSpec `json:"requests,omitempty" yaml:"requests,omitempty"`
	// Limits are what an agent's container may use. [ResolveSpawnLimits] reads
	// them when the scaler manager's effective limits set none. They become the
	// container's Memory and NanoCPUs. (A bare-metal scaler with enforceCgroups
	// puts them on its systemd scope.) nil: no limits.
	Limits *ResourceSpec `json:"limits,omitempty" yaml:"limits,omitempty"`
}

// ResolveSpawnLimits returns the cpu and memory limits for one agent
// container. It chooses them as the orchestrator's resolveSpawnLimits does.
//
// The effective limits are the scaler manager's. They already fold in a
// job's overrides and the label set's and scaler's defaults. They win whole
// when either field is set. They are then returned unchanged, even with the
// other field zero, and even when a field is negative ([Build] then ignores
// it). "Set" follows JavaScript's truthiness, as the orchestrator tests
// `effective.cpus || effective.memBytes`. Any value but 0 and NaN is set: -1
// is set, and NaN is not.
//
// Otherwise res.Limits applies. res or res.Limits may be nil: no limits.
// Its CPUs is copied when set in the same sense. Its Memory, when not empty,
// is parsed with [ParseMemory].
//
// The orchestrator would sometimes start the container without the limit
// its config writes. ResolveSpawnLimits then returns a [*LimitError] and
// zero Limits instead:
//
//   - for a Memory that ParseMemory refuses. The error wraps its
//     [*ParseError]. A limit that cannot be read must not become "no
//     limit".
//   - for a Memory that comes out as 0 bytes, such as "0k" or "0.0001k",
//     and for CPUs that round to 0 NanoCPUs (any between 0 and 0.5e-9).
//     Both are [ErrZeroLimit]. [Build] sets no limit for a zero, so the
//     container would run unbounded while the config reads as bounded.
func ResolveSpawnLimits(effective Limits, res *Resources) (Limits, error) {
	if isSet(effective.CPUs) || effective.MemBytes != 0 {
		return effective, nil
	}
	if res == nil || res.Limits == nil {
		return Limits{}, nil
	}
	spec := res.Limits
	var out Limits
	if spec.Memory != "" {
		n, err := ParseMemory(spec.Memory)
		if err == nil && n == 0 {
			err = ErrZeroLimit
		}
		if err != nil {
			return Limits{}, &LimitError{Field: "memory", Memory: spec.Memory, Err: err}
		}
		out.MemBytes = n
	}
	if isSet(spec.CPUs) {
		if spec.CPUs > 0 && nanoCPUs(spec.CPUs) == 0 {
			return Limits{}, &LimitError{Field: "cpus", CPUs: spec.CPUs, Err: ErrZeroLimit}
		}
		out.CPUs = spec.CPUs
	}
	return out, nil
}

// isSet reports whether JavaScript reads f as true: any value but 0 and NaN.
func isSet(f float64) bool { return f != 0 && f == f }

// LimitError is the error [ResolveSpawnLimits] returns for a field of
// resources.limits that it refuses.
type LimitError struct {
	// Field is the refused field: "memory" or "cpus".
	Field string
	// Memory is the memory string as written, when Field is "memory".
	Memory string
	// CPUs is the number of CPUs as written, when Field is "cpus".
	CPUs float64
	// Err is why. It is a *[ParseError] for a memory string ParseMemory refuses,
	// or [ErrZeroLimit].
	Err error
}

// Error returns `hostconfig.ResolveSpawnLimits: limits.<field> <value>:
// <reason>`. A memory string is quoted as [ParseError.Error] quotes it.
func (e *LimitError) Error() string {
	value := strconv.FormatFloat(e.CPUs, 'g', -1, 64)
	if e.Field == "memory" {
		value = errtext.Quote(e.Memory)
	}
	reason := e.Err
	if pe, ok := reason.(*ParseError); ok {
		reason = pe.Reason // the input is quoted already
	}
	return "hostconfig.ResolveSpawnLimits: limits." + e.Field + " " + value + ": " + reason.Error()
}

// Unwrap returns e.Err. So errors.As finds the *ParseError, and errors.Is
// matches its Reason or ErrZeroLimit.
func (e *LimitError) Unwrap() error { return e.Err }

// SingleJobEnv is the environment entry that makes an agent run one job and
// exit. A container from the pool's own image gets it: see [SpawnAdditions].
const SingleJobEnv = "KICI_SCALER_SINGLE_JOB=1"

// Origin is the image an agent container starts from, which decides what
// [SpawnAdditions] adds to it.
type Origin uint8

// The two origins. The zero Origin is neither; like any value but
// PoolImage, it adds nothing, which errs on the side of no sudo.
const (
	// PoolImage is the label set's own image, the KiCI agent image.
	PoolImage Origin = iota + 1
	// JobImage is an image the job asked to run in (the orchestrator's
	// spawnContext.container). The agent starts from it instead.
	JobImage
)

// String returns "pool image" or "job image", or "Origin(n)" for another
// value.
func (o Origin) String() string {
	switch o {
	case PoolImage:
		return "pool image"
	case JobImage:
		return "job image"
	}
	return "Origin(" + strconv.Itoa(int(o)) + ")"
}

// Additions is what the container scaler adds to an agent container for its
// [Origin]: the single-job rule. It has two halves: the [SingleJobEnv] entry
// and the supplementary group [SudoGroupGID]. They are not fields. Only
// [Additions.Apply] gives them, both at once. So no caller can give a
// container passwordless sudo without making it a single-job container.
// The zero Additions adds nothing.
type Additions struct {
	singleJob bool
}

// SpawnAdditions returns what the container scaler adds to an agent
// container that starts from origin.
//
// A container from the pool's own image ([PoolImage]) gets [SingleJobEnv]
// in its environment. It gets the group [SudoGroupGID] too: the agent
// image's kici-sudo group, which its sudoers file lets use sudo without a
// password. The agent in it runs one job and exits. So the root that job
// could take does not outlive it.
//
// A container from a job's image ([JobImage]) gets neither. gid 1990 means
// kici-sudo only in the agent image. In an image the job chose, it may name
// any group or none.
func SpawnAdditions(origin Origin) Additions {
	return Additions{singleJob: origin == PoolImage}
}

// Apply returns env and in with the additions made. env is the container's
// environment as "KEY=value" entries (the Engine API's Config.Env).
// [SingleJobEnv] is appended to it. [SudoGroupGID] is appended to
// in.SupplementaryGroups. Both come back unchanged when a adds nothing.
//
// The returned env and SupplementaryGroups are new slices. Apply never
// writes to the caller's. The other fields of in are passed on as they are.
//
//	env, in := hostconfig.SpawnAdditions(hostconfig.PoolImage).Apply(env, in)
//	hc := hostconfig.Build(in) // env goes in the container's Config.Env
func (a Additions) Apply(env []string, in Input) ([]string, Input) {
	env = slices.Clone(env)
	in.SupplementaryGroups = slices.Clone(in.SupplementaryGroups)
	if a.singleJob {
		env = append(env, SingleJobEnv)
		in.SupplementaryGroups = append(in.SupplementaryGroups, SudoGroupGID)
	}
	return env, in
}
