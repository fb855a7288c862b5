package scalerconfig

import "strconv"

// Pos is where a value is declared in a config file. The zero Pos is "no
// position": a Config built as a literal has none.
type Pos struct {
	File   string // the file, as the path Load opened it by
	Line   int    // 1-based line
	Column int    // 1-based column, counted in bytes
	Offset int    // 0-based byte offset in the file
}

// IsValid reports whether p is a position, not the zero Pos.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns "file:line:column", or "file" when p has no line, as go vet
// and compilers write a position.
func (p Pos) String() string {
	if !p.IsValid() {
		return p.File
	}
	return p.File + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
}

// ScalerType is a scaler's backend: how it starts agents.
type ScalerType string

// The scaler types the orchestrator knows.
const (
	TypeContainer   ScalerType = "container"   // a container per agent, from a label set's image
	TypeBareMetal   ScalerType = "bare-metal"  // an agent process on the host
	TypeFirecracker ScalerType = "firecracker" // a Firecracker microVM per agent
	TypeEvent       ScalerType = "event"       // a workflow that provisions an external machine
)

// PullPolicy is a label set's imagePullPolicy: when the container scaler
// pulls the image before it spawns an agent.
type PullPolicy string

// The pull policies the orchestrator knows. The empty PullPolicy, in a
// Config built as a literal, means [PullIfNotPresent], the default.
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
// empty, else p unchanged.
func (p PullPolicy) Effective() PullPolicy {
	if p == "" {
		return PullIfNotPresent
	}
	return p
}

// Config is a scaler config: the main file with its drop-ins' scalers
// appended, as the orchestrator holds it after loading.
type Config struct {
	Scalers []Scaler `json:"scalers"`

	Pos Pos `json:"-"` // the main file's top-level mapping
}

// Scaler is one entry of a config's scalers.
type Scaler struct {
	Name      string     `json:"name"`
	Type      ScalerType `json:"type"`
	LabelSets []LabelSet `json:"labelSets"`

	Pos Pos `json:"-"` // the scaler's mapping, in the file that declares it
}

// LabelSet is one label set of a scaler: the job labels it serves and what
// its agents run.
type LabelSet struct {
	// Labels are the labels as the orchestrator holds them: trimmed and
	// lower-cased as JavaScript does it, in their order, duplicates kept.
	Labels []string `json:"labels"`
	// Image is the image a container scaler starts the label set's agents
	// from, as written; "" when there is none.
	Image string `json:"image,omitempty"`
	// ImagePullPolicy is when the image is pulled; Load sets the default.
	ImagePullPolicy PullPolicy `json:"imagePullPolicy"`

	Pos      Pos `json:"-"` // the label set's mapping
	ImagePos Pos `json:"-"` // the image value's first byte, its quote included; the zero Pos without one
	ImageEnd Pos `json:"-"` // just past the image value's last byte, its closing quote included
}
