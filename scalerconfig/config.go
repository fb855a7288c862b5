package scalerconfig

import (
	"strconv"

	"github.com/kicikit/kicikit/hostconfig"
)

// Pos is where a value is declared in a config file. The zero Pos is "no
// position": a Config built as a literal has none.
type Pos struct {
	File   string // the file: the path Load opened it by, or as the Location names it for Location.Load
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

// Runtime is the container runtime a container scaler talks to.
type Runtime string

// The runtimes the orchestrator knows. The empty Runtime means [RuntimeAuto],
// the default.
const (
	RuntimeDocker Runtime = "docker"
	RuntimePodman Runtime = "podman"
	RuntimeAuto   Runtime = "auto" // whichever socket the host has
)

// Effective returns r with the default applied: [RuntimeAuto] when r is
// empty, else r unchanged.
func (r Runtime) Effective() Runtime {
	if r == "" {
		return RuntimeAuto
	}
	return r
}

// Role is a capability beyond running jobs that a scaler's agents get.
type Role string

// The roles a scaler can grant.
const (
	RoleBuilder    Role = "builder"     // runs dependency cache builds
	RoleInitRunner Role = "init-runner" // runs workspace initialisation
)

// Config is a scaler config: the main file with its drop-ins' scalers
// appended, as the orchestrator holds it after loading.
//
// Load fills every default, so each field holds what the orchestrator
// holds. A Config built as a literal may leave a defaulted field empty:
// [Config.WithDefaults] returns it as Load would have, and its JSON is
// written with the defaults applied.
type Config struct {
	Version           int                 `json:"version"`                    // always 1; 0 in a literal means 1
	GlobalMaxAgents   int64               `json:"globalMaxAgents"`            // default 50
	Defaults          *Defaults           `json:"defaults,omitzero"`          // nil when the file has none
	GlobalResourceCap *ResourceCap        `json:"globalResourceCap,omitzero"` // a cap on the summed requests of every agent
	MachinePools      []MachinePool       `json:"machinePools,omitzero"`      // nil when the file has none
	Scalers           []Scaler            `json:"scalers"`                    //
	Firecracker       *FirecrackerNetwork `json:"firecracker,omitzero"`       // nil when the file has none

	Pos Pos `json:"-"` // the main file's top-level mapping
}

// Defaults are the resources of every label set that names none.
type Defaults struct {
	Resources *hostconfig.Resources `json:"resources,omitzero"`
}

// SpawnResources returns the resources the orchestrator gives an agent of
// ls: the label set's own, else the config's defaults.resources, else nil.
// It is what [hostconfig.ResolveSpawnLimits] takes:
//
//	limits, err := hostconfig.ResolveSpawnLimits(effective, cfg.SpawnResources(ls))
func (c *Config) SpawnResources(ls LabelSet) *hostconfig.Resources {
	if ls.Resources != nil {
		return ls.Resources
	}
	if c.Defaults != nil {
		return c.Defaults.Resources
	}
	return nil
}

// ResourceCap is a cap on the summed resource requests of a scaler's,
// a machine pool's or the whole orchestrator's agents.
type ResourceCap struct {
	MaxCPU float64 `json:"maxCpu,omitzero"` // 0 when the cap sets none
	// MaxMemoryBytes is maxMemory in bytes ("1.5g" is 1610612736), nil
	// when the cap sets none. It is a float64 as in the orchestrator: a
	// whole number, but one that may exceed int64 or be +Inf for an
	// absurdly long maxMemory; its JSON is then null, as JavaScript writes it.
	MaxMemoryBytes *float64 `json:"maxMemoryBytes,omitzero"`
}

// MachinePool is a named resource cap that scalers of several orchestrators
// on one host share.
type MachinePool struct {
	Name string      `json:"name"`
	Cap  ResourceCap `json:"cap"`

	Pos Pos `json:"-"` // the pool's mapping
}

// FirecrackerNetwork is the host network every Firecracker scaler of the
// orchestrator shares. Load sets every field; nil, in a literal, means the
// default.
type FirecrackerNetwork struct {
	CIDR              *string `json:"cidr"`              // default "10.0.0.0/24"
	BridgeName        *string `json:"bridgeName"`        // default "kici-br0"
	Gateway           *string `json:"gateway"`           // default "10.0.0.1"
	Netmask           *string `json:"netmask"`           // default "255.255.255.0"
	Table             *string `json:"table"`             // the nftables table; default "kici"
	AutoProvisionHost *bool   `json:"autoProvisionHost"` // default true
}

// Scaler is one entry of a config's scalers.
//
// An optional string field is nil when the file leaves it out: the
// orchestrator tells a missing field from an empty one. Load sets every
// field that has a default; in a literal, an empty one means the default.
type Scaler struct {
	Name                 string       `json:"name"`
	Type                 ScalerType   `json:"type"`
	MaxAgents            int64        `json:"maxAgents"`
	MaxConcurrentSpawns  int64        `json:"maxConcurrentSpawns"` // default 8
	LabelSets            []LabelSet   `json:"labelSets"`
	Host                 *string      `json:"host,omitzero"`
	SocketPath           *string      `json:"socketPath,omitzero"`
	Runtime              Runtime      `json:"runtime"` // default auto
	OrchestratorURL      *string      `json:"orchestratorUrl,omitzero"`
	ExtraHosts           []string     `json:"extraHosts,omitzero"`          // host:address mappings for the agents
	NetworkIsolation     *bool        `json:"networkIsolation"`             // default true
	WarmPool             *WarmPool    `json:"warmPool,omitzero"`            //
	MandatoryLabels      []string     `json:"mandatoryLabels"`              // canonical, as Labels; default none
	Platform             *Platform    `json:"platform,omitzero"`            //
	Roles                []Role       `json:"roles,omitzero"`               // nil: every role; empty: none
	ResourceCap          *ResourceCap `json:"resourceCap,omitzero"`         //
	MachinePool          *string      `json:"machinePool,omitzero"`         // the name of one of Config.MachinePools
	EnforceCgroups       bool         `json:"enforceCgroups"`               //
	FirecrackerPath      *string      `json:"firecrackerPath,omitzero"`     //
	JailerPath           *string      `json:"jailerPath,omitzero"`          //
	KernelPath           *string      `json:"kernelPath,omitzero"`          //
	ChrootBaseDir        *string      `json:"chrootBaseDir"`                // default "/srv/jailer"
	UID                  *int64       `json:"uid,omitzero"`                 //
	GID                  *int64       `json:"gid,omitzero"`                 //
	VcpuCount            int64        `json:"vcpuCount"`                    // default 2
	MemSizeMib           int64        `json:"memSizeMib"`                   // default 512
	RequireSudo          bool         `json:"requireSudo"`                  //
	ProvisioningTargets  []string     `json:"provisioningTargets,omitzero"` // an event scaler's workflow refs
	ClaimTTLSeconds      int64        `json:"claimTtlSeconds"`              // default 300
	AgentTokenTTLSeconds int64        `json:"agentTokenTtlSeconds"`         // default 600

	Pos Pos `json:"-"` // the scaler's mapping, in the file that declares it
}

// WarmPool keeps idle agents ready. Load sets every field.
type WarmPool struct {
	Enabled            bool     `json:"enabled"`
	Size               int64    `json:"size"`
	IdleTimeoutSeconds *float64 `json:"idleTimeoutSeconds"` // default 300; nil, in a literal, means the default
}

// Platform is the operating system and architecture of a scaler's agents.
type Platform struct {
	OS   string `json:"os"`   // linux, macos or windows
	Arch string `json:"arch"` // x64 or arm64
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
	ImagePullPolicy     PullPolicy            `json:"imagePullPolicy"`
	BinaryPath          *string               `json:"binaryPath,omitzero"`
	Resources           *hostconfig.Resources `json:"resources,omitzero"` // the flat form is read as requests and limits both
	Volumes             []string              `json:"volumes,omitzero"`
	ContainerSocket     bool                  `json:"containerSocket"`
	Env                 Env                   `json:"env,omitzero"`
	BackpressureMode    string                `json:"backpressureMode,omitempty"` // pause or drop; "" when unset
	NetworkPolicy       *NetworkPolicy        `json:"networkPolicy,omitzero"`
	RootfsPath          *string               `json:"rootfsPath,omitzero"`
	KernelPath          *string               `json:"kernelPath,omitzero"`
	VcpuCount           int64                 `json:"vcpuCount,omitzero"`           // 0 when unset
	MemSizeMib          int64                 `json:"memSizeMib,omitzero"`          // 0 when unset
	OverlayDriveSizeMib int64                 `json:"overlayDriveSizeMib,omitzero"` // 0 when unset

	Pos      Pos `json:"-"` // the label set's mapping
	ImagePos Pos `json:"-"` // the image value's first byte, its quote included; the zero Pos without one
	ImageEnd Pos `json:"-"` // just past the image value's last byte, its closing quote included

	loaded fileSum // the file that declares the label set, as Load read it
}

// NetworkPolicy is what a label set's agents may reach.
type NetworkPolicy struct {
	Allowlist  []string `json:"allowlist,omitzero"`  // CIDR ranges let through the private-range block
	DenyAll    bool     `json:"denyAll"`             // block all outbound traffic but the allowlist
	HostAccess []string `json:"hostAccess,omitzero"` // nil: the default; empty: nothing on the host
}

// EnvVar is one entry of a label set's env.
type EnvVar struct {
	Name, Value string
}

// Env is a label set's env, in the orchestrator's order: names that are
// array indices ("0", "17") first, ascending, then the others as written.
// Its JSON is an object.
type Env []EnvVar

// Lookup returns the value of the variable name, and whether env has it.
func (env Env) Lookup(name string) (string, bool) {
	for _, v := range env {
		if v.Name == name {
			return v.Value, true
		}
	}
	return "", false
}
