package imageref

// ScalerTypeContainer is the [Scaler] Type of a container scaler, the only
// type whose agents run from a label set's image.
const ScalerTypeContainer = "container"

// PullPolicy is a label set's imagePullPolicy: when the container scaler
// pulls the image before it spawns an agent.
type PullPolicy string

// The pull policies the orchestrator knows. The empty PullPolicy means
// [PullIfNotPresent], the orchestrator's default.
const (
	// PullIfNotPresent pulls the image only when the host does not have it:
	// a host keeps the image a tag named when it first pulled it.
	PullIfNotPresent PullPolicy = "IfNotPresent"
	// PullAlways pulls the image before every spawn.
	PullAlways PullPolicy = "Always"
	// PullNever never pulls: the host must already have the image.
	PullNever PullPolicy = "Never"
)

// Effective returns p with the default applied: [PullIfNotPresent] when p is
// empty, else p unchanged (an unknown policy stays as written).
func (p PullPolicy) Effective() PullPolicy {
	if p == "" {
		return PullIfNotPresent
	}
	return p
}

// LabelSet is one label set of a scaler: the job labels it serves and, for a
// container scaler, the image its agents run. Fields of the orchestrator's
// format that the check does not need are ignored when unmarshalling.
type LabelSet struct {
	Labels          []string   `json:"labels" yaml:"labels"`
	Image           string     `json:"image,omitempty" yaml:"image,omitempty"`
	ImagePullPolicy PullPolicy `json:"imagePullPolicy,omitempty" yaml:"imagePullPolicy,omitempty"`
}

// Scaler is one scaler of the orchestrator's scaler config.
type Scaler struct {
	Name      string     `json:"name" yaml:"name"`
	Type      string     `json:"type" yaml:"type"` // "container", "bare-metal", …
	LabelSets []LabelSet `json:"labelSets" yaml:"labelSets"`
}

// Config is the part of the orchestrator's scaler config that
// [CheckAgentImages] reads. A scalers.yaml or scalers.json file unmarshals
// straight into it, with go.yaml.in/yaml/v3 or encoding/json.
type Config struct {
	Scalers []Scaler `json:"scalers" yaml:"scalers"`
}

// CheckInput is what [CheckAgentImages] checks.
type CheckInput struct {
	Config Config

	// TargetVersion is the release the upgrade installs, such as "0.20.0"
	// or " v0.20.0 "; it may be empty. Like the orchestrator, the check trims
	// it, drops one leading "v", and uses the rest, "-suffix" included, when
	// agentversion.Parse accepts it. Otherwise there is no usable target.
	TargetVersion string

	// ScalerConfigPath is the scaler config file, as the findings name it.
	ScalerConfigPath string

	// ScalerConfigDir is the scalers.d folder whose files add to the config,
	// when there is one; the findings then also name it.
	ScalerConfigDir string
}
