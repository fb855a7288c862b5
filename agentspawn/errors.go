package agentspawn

import (
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/scalerconfig"
)

// Reason is why [Plan] refuses a spawn. It is an error itself. So
// errors.Is(err, agentspawn.ErrAtCapacity) tells one refusal from another
// without unpacking the [*Error]. Being a constant, it cannot be reassigned.
type Reason uint8

// The reasons [Plan] refuses a spawn, in the order it checks them.
const (
	// ErrNoConfig is a Request without a Config.
	ErrNoConfig Reason = iota + 1
	// ErrUnknownScaler is a Request.Scaler that names no scaler of the config,
	// "" included.
	ErrUnknownScaler
	// ErrNotContainer is a scaler of another type than container. Only the
	// container backend spawns from a label set's image.
	ErrNotContainer
	// ErrLabelSetNotSupported is a Request.LabelSet whose key
	// ([NormalizeLabelSet]) is that of none of the scaler's label sets. An empty
	// one matches only a label set whose key is "" as well.
	ErrLabelSetNotSupported
	// ErrAtCapacity is a scaler that already runs maxAgents agents or more.
	ErrAtCapacity
	// ErrNoImage is a matched label set without an image. The orchestrator's
	// config schema refuses it, but a Config literal may hold it.
	ErrNoImage
	// ErrEmptyJobImage is a Request.Job whose Image is "".
	ErrEmptyJobImage
	// ErrNoAgentID is a Request without an AgentID.
	ErrNoAgentID
	// ErrNoOrchestratorURL is a Request without an OrchestratorURL.
	ErrNoOrchestratorURL
	// ErrLimits is a resources.limits that
	// [github.com/kicikit/kicikit/hostconfig.ResolveSpawnLimits] refuses. The
	// [*Error] wraps its [*hostconfig.LimitError].
	ErrLimits
)

// Error describes the reason in a few words. A Reason other than the Err
// constants reads "spawn refused".
func (r Reason) Error() string {
	switch r {
	case ErrNoConfig:
		return "no scaler config"
	case ErrUnknownScaler:
		return "unknown scaler"
	case ErrNotContainer:
		return "not a container scaler"
	case ErrLabelSetNotSupported:
		return "label set not supported"
	case ErrAtCapacity:
		return "scaler at capacity"
	case ErrNoImage:
		return "label set has no image"
	case ErrEmptyJobImage:
		return "empty job image"
	case ErrNoAgentID:
		return "no agent id"
	case ErrNoOrchestratorURL:
		return "no orchestrator URL"
	case ErrLimits:
		return "resource limits refused"
	}
	return "spawn refused"
}

// Error is the error [Plan] returns when the container backend refuses a
// spawn. Where the orchestrator has a message, its text is the
// orchestrator's own: for a label set it does not serve, a scaler at
// capacity, a label set without an image. Otherwise it is one in the same
// style.
type Error struct {
	// Reason says why; errors.Is(err, r) matches it.
	Reason Reason
	// Scaler is the scaler's name, as the Request gave it.
	Scaler string
	// LabelSet is the label set as the Request gave it.
	LabelSet []string
	// Type is the scaler's type, for [ErrNotContainer].
	Type scalerconfig.ScalerType
	// MaxAgents is the scaler's maxAgents, for [ErrAtCapacity].
	MaxAgents int64
	// LabelSetIndex is the matched label set's index in the scaler, for
	// [ErrNoImage] and [ErrLimits]. It is -1 before a label set matched.
	LabelSetIndex int
	// Err is the error of hostconfig.ResolveSpawnLimits, for [ErrLimits]. It is
	// nil otherwise.
	Err error
}

// Error returns the message the orchestrator's container backend throws for
// the refusal. Examples are `Label set [windows, gpu] not supported by
// container backend "linux"` and `Container backend "linux" at capacity
// (4/4)`. The latter names maxAgents twice, as the orchestrator's does.
func (e *Error) Error() string {
	name := strconv.Quote(e.Scaler)
	switch e.Reason {
	case ErrNoConfig:
		return "No scaler config: there is no container backend to spawn from"
	case ErrUnknownScaler:
		return "No scaler " + name + " in the scaler config"
	case ErrNotContainer:
		return "Scaler " + name + " is a " + string(e.Type) + " scaler, not a container scaler"
	case ErrLabelSetNotSupported:
		return "Label set [" + strings.Join(e.LabelSet, ", ") + "] not supported by container backend " + name
	case ErrAtCapacity:
		max := strconv.FormatInt(e.MaxAgents, 10)
		return "Container backend " + name + " at capacity (" + max + "/" + max + ")"
	case ErrNoImage:
		return "Label set [" + strconv.Itoa(e.LabelSetIndex) + "] requires an 'image' field for container backend"
	case ErrEmptyJobImage:
		return "Job container image is empty: container backend " + name + " has no image to spawn"
	case ErrNoAgentID:
		return "Agent id is empty: container backend " + name + " cannot name the agent"
	case ErrNoOrchestratorURL:
		return "Orchestrator URL is empty: an agent of container backend " + name + " would have nothing to dial"
	case ErrLimits:
		return "Container backend " + name + " cannot apply the limits of label set [" + strings.Join(e.LabelSet, ", ") + "]: " + errText(e.Err)
	}
	return "Container backend " + name + " refused the spawn: " + e.Reason.Error()
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// Is reports whether target is e's Reason. So errors.Is matches the Reason
// of an Error anywhere in a chain.
func (e *Error) Is(target error) bool {
	r, ok := target.(Reason)
	return ok && r == e.Reason
}

// Unwrap returns e.Err: the *hostconfig.LimitError of [ErrLimits], which
// errors.As finds. Its own Unwrap leads on to the memory string's
// *hostconfig.ParseError.
func (e *Error) Unwrap() error { return e.Err }
