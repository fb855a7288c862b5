package scalerconfig

import (
	"strconv"

	"github.com/kicikit/kicikit/hostconfig"
)

// Pos is where a value is declared in a config file.
// The zero Pos is no position: a Config built as a literal has none.
type Pos struct {
	File   string // the file: its path in the fs.FS, or as the Location names it for Location.Load
	Line   int    // 1-based line
	Column int    // 1-based column, counted in bytes
	Offset int    // 0-based byte offset in the file
}

// IsValid reports whether p is a position, not the zero Pos.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns "file:line:column", as go vet writes a position.
// It returns "file" when p has no line.
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

// PullPolicy is a label set's imagePullPolicy: when a container scaler
// pulls the image.
type PullPolicy string

// The pull policies the orchestrator knows.
// The empty PullPolicy means [PullIfNotPresent], the default.
const (
	// PullIfNotPresent pulls the image only when the host lacks it.
	// A host keeps the image a tag named at its first pull.
	PullIfNotPresent PullPolicy = "IfNotPresent"
	// PullAlways pulls the image before every spawn.
	PullAlways PullPolicy = "Always"
	// PullNever never pulls: the host must already have the image.
	PullNever PullPolicy = "Never"
)

// Effective returns p, or [PullIfNotPresent] when p is empty.
func (p PullPolicy) Effective() PullPolicy {
	if p == "" {
		return PullIfNotPresent
	}
	return p
}

// Runtime is the container runtime a container scaler talks to.
type Runtime string

// The runtimes the orchestrator knows.
// The empty Runtime means [RuntimeAuto], the default.
const (
	RuntimeDocker Runtime = "docker" // Docker's socket only: /var/run/docker.sock
	RuntimePodman Runtime = "podman" // Podman's only: /run/podman/podman.sock, then $XDG_RUNTIME_DIR/podman/podman.sock
	RuntimeAuto   Runtime = "auto"   // whichever of them the host has, in that order
)

// Effective returns r, or [RuntimeAuto] when r is empty.
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

// Config is a scaler config, as the orchestrator holds it after loading.
// It is the main file with its drop-ins' scalers appended.
//
// Load fills every default. A Config built as a literal may leave a
// defaulted field empty. [Config.WithDefaults] fills it, and its JSON is
// written with the defaults applied. Each field's doc says what the
// orchestrator does with its key.
type Config struct {
	// Version is the config format's version. It must be 1.
	// 0 in a literal means 1.
	Version int `json:"version"`
	// GlobalMaxAgents is the most agents the orchestrator runs at once,
	// over all scalers. A scale-up beyond it waits. Default 50.
	GlobalMaxAgents int64 `json:"globalMaxAgents"`
	// Defaults is what a label set that declares nothing gets.
	// It is nil when the file has none.
	Defaults *Defaults `json:"defaults,omitzero"`
	// GlobalResourceCap caps the summed requests of all the orchestrator's
	// agents. It is GlobalMaxAgents for resources: a spawn that would pass
	// it waits. nil: no cap.
	GlobalResourceCap *ResourceCap `json:"globalResourceCap,omitzero"`
	// MachinePools are named resource caps that the scalers of several
	// orchestrators on one host share (see [MachinePool]).
	// It is nil when the file has none.
	MachinePools []MachinePool `json:"machinePools,omitzero"`
	// Scalers are the scalers, each a pool of agents of one backend.
	// The main file's come first, then each drop-in's, in Load's order.
	Scalers []Scaler `json:"scalers"`
	// Firecracker is the host network of the orchestrator's Firecracker
	// scalers. It is nil when the file has none.
	Firecracker *FirecrackerNetwork `json:"firecracker,omitzero"`

	Pos Pos `json:"-"` // the main file's top-level mapping

	// Rules are the rules the config was read by ([ScanOptions].Rules).
	// The zero Rules of a literal are the newest. [Config.WithDefaults]
	// keeps them, and github.com/kicikit/kicikit/agentspawn.Route routes
	// by them.
	Rules Rules `json:"-"`

	at []place // where each value is: see PosOf
}

// Defaults are what a label set that declares nothing gets.
type Defaults struct {
	// Resources are the requests and limits of an agent whose job and
	// label set declare none (see [Config.SpawnResources]): requests and
	// limits, each with cpus and memory; a limit alone also sets the
	// request. From 0.16.0 cpus or memory written directly under resources
	// are refused. It is nil when the defaults have none.
	Resources *hostconfig.Resources `json:"resources,omitzero"`
}

// SpawnResources returns the resources the orchestrator gives an agent of
// ls. They are the label set's own, else the config's defaults.resources,
// else nil. [hostconfig.ResolveSpawnLimits] takes them:
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

// ResourceCap caps the summed resource requests of the active agents of a
// scaler, a machine pool or the whole orchestrator. A spawn that would
// take the sum past either bound waits. The cap stacks with the agent
// counts (maxAgents, globalMaxAgents): both must allow a spawn. Limits,
// what a container may use, are not counted.
type ResourceCap struct {
	// MaxCPU is the most CPUs the group's agents request at once, summing
	// requests.cpus. It is 0 when the cap sets none.
	MaxCPU float64 `json:"maxCpu,omitzero"`
	// MaxMemoryBytes is the most memory, in bytes, the group's agents
	// request at once, summing requests.memory. Load reads it from the
	// file's maxMemory, a memory string, as the orchestrator does: "1.5g"
	// is 1610612736. nil: the cap sets none. It is a float64, as in the
	// orchestrator. It holds a whole number, which may exceed int64. An
	// absurdly long maxMemory makes it +Inf, whose JSON is null, as in
	// JavaScript.
	MaxMemoryBytes *float64 `json:"maxMemoryBytes,omitzero"`
}

// MachinePool is a named resource cap shared by every scaler that names
// it, across the orchestrators of one host. They count their agents'
// requests in one file-backed ledger. So together they cannot
// oversubscribe the machine.
type MachinePool struct {
	// Name is the name scalers use for the pool (Scaler.MachinePool).
	// It is not empty, and no two pools share one.
	Name string `json:"name"`
	// Cap is the pool's cap on the summed requests of its agents.
	Cap ResourceCap `json:"cap"`

	Pos Pos `json:"-"` // the pool's mapping

	at []place // where each value is: see PosOf
}

// FirecrackerNetwork is the host network all Firecracker scalers of the
// orchestrator share: one bridge, one address range, one nftables table.
// Load sets every field. nil, in a literal, means the default.
type FirecrackerNetwork struct {
	// CIDR is the range the microVMs' addresses come from.
	// Default "10.0.0.0/24".
	CIDR *string `json:"cidr"`
	// BridgeName is the host bridge the microVMs' taps join.
	// Default "kici-br0".
	BridgeName *string `json:"bridgeName"`
	// Gateway is the bridge's address, the guests' gateway.
	// Default "10.0.0.1".
	Gateway *string `json:"gateway"`
	// Netmask is the guests' subnet mask. Default "255.255.255.0".
	Netmask *string `json:"netmask"`
	// Table is the nftables table of this orchestrator's bridge, one per
	// bridge. Default "kici".
	Table *string `json:"table"`
	// AutoProvisionHost is whether the orchestrator checks the bridge at
	// start, and creates or repairs it. A new host then needs no manual
	// `kici-admin firecracker provision`. False leaves the host network to
	// the operator. Default true.
	AutoProvisionHost *bool `json:"autoProvisionHost"`
}

// Scaler is one entry of a config's scalers: a pool of agents that one
// backend starts on demand. It serves the jobs whose labels match one of
// its label sets.
//
// An optional string field is nil when the file leaves it out: the
// orchestrator tells a missing field from an empty one. Load sets every
// field that has a default. In a literal, an empty one means the default.
// Only a Firecracker scaler reads the Firecracker fields, and only an
// event scaler the event fields.
type Scaler struct {
	// Name names the scaler in logs, metrics and its agents' labels
	// (kici:scaler:<name>). It also keys its counts and caps.
	Name string `json:"name"`
	// Type is the backend that starts its agents.
	Type ScalerType `json:"type"`
	// MaxAgents is the most agents the scaler runs at once, spawning ones
	// included. A scale-up beyond it waits.
	MaxAgents int64 `json:"maxAgents"`
	// MaxConcurrentSpawns is the most spawns (image pull, create, start)
	// the scaler runs at once. Further spawns within MaxAgents queue. So a
	// burst of jobs does not storm the runtime's socket or the registry.
	// Default 8.
	MaxConcurrentSpawns int64 `json:"maxConcurrentSpawns"`
	// LabelSets are the label sets the scaler serves, at least one.
	// A job goes to the first whose labels match its own.
	LabelSets []LabelSet `json:"labelSets"`
	// Host is a remote container runtime (Docker or Podman), such as
	// tcp://192.168.1.10:2376. The agents run there, and no local socket
	// is probed or shared. nil: a local runtime.
	Host *string `json:"host,omitzero"`
	// SocketPath is the local container runtime's socket, used as given
	// instead of probing. A path containing "podman" is Podman's.
	// nil: probe as Runtime says.
	SocketPath *string `json:"socketPath,omitzero"`
	// Runtime is the container runtime whose socket is probed when neither
	// SocketPath nor Host is set. Default "auto".
	Runtime Runtime `json:"runtime"`
	// OrchestratorURL is the URL the scaler's agents connect back to.
	// nil means the orchestrator's KICI_ORCHESTRATOR_URL, else
	// ws://127.0.0.1:<KICI_PORT or 4000>/ws. Only an agent on the
	// orchestrator's host reaches that. A container or a microVM needs one
	// set (host.docker.internal, a LAN address, the bridge's gateway).
	OrchestratorURL *string `json:"orchestratorUrl,omitzero"`
	// ExtraHosts are host:address name mappings for the agents
	// ("registry.local:host-gateway"). A container runtime gets them as
	// its ExtraHosts. A Firecracker guest gets them as lines of its
	// /etc/hosts, host-gateway being the bridge's gateway. nil: none.
	ExtraHosts []string `json:"extraHosts,omitzero"`
	// NetworkIsolation is whether a container scaler puts its agents on
	// the isolated bridge network kici-agent-net. Its nftables rules block
	// private ranges and cloud metadata, as each label set's NetworkPolicy
	// says. False, for a host without nft, gives the agents unrestricted
	// network access. Default true.
	NetworkIsolation *bool `json:"networkIsolation"`
	// WarmPool keeps idle agents ready ahead of jobs. nil: none.
	WarmPool *WarmPool `json:"warmPool,omitzero"`
	// MandatoryLabels are labels a job must request (in runsOn) to run on
	// this scaler at all, as Kubernetes taints. A job that lacks one is
	// kept off every label set, even one its labels match. They are
	// canonical, as Labels. Default [] (no gate).
	MandatoryLabels []string `json:"mandatoryLabels"`
	// Platform is the operating system and architecture of the agents.
	// Their kici:os: and kici:arch: labels and the pool's platform taints
	// come from it. nil: a bare-metal scaler's host's platform, or linux
	// for a container or Firecracker scaler. From 0.16.0 a scaler whose
	// label sets hold a label naming a platform (windows, win32, macos,
	// darwin, arm64, aarch64, arm) must declare it.
	Platform *Platform `json:"platform,omitzero"`
	// Roles are the kinds of internal job the agents take beside ordinary
	// jobs. nil means every kind: roles left out, or listing "all".
	// Empty means none.
	Roles []Role `json:"roles,omitzero"`
	// ResourceCap caps the summed resources the scaler's agents request.
	// nil: no cap of the scaler's own.
	ResourceCap *ResourceCap `json:"resourceCap,omitzero"`
	// MachinePool names the entry of Config.MachinePools whose cap the
	// scaler's agents also count against. nil: none.
	MachinePool *string `json:"machinePool,omitzero"`
	// EnforceCgroups makes a bare-metal scaler start its agent binary in a
	// transient `systemd-run --user --scope`. Its MemoryMax and CPUQuota
	// come from the resolved limits. It needs user-mode systemd with a
	// delegated cgroup v2. Default false.
	EnforceCgroups bool `json:"enforceCgroups"`
	// FirecrackerPath is the firecracker binary.
	// A Firecracker scaler requires it.
	FirecrackerPath *string `json:"firecrackerPath,omitzero"`
	// JailerPath is the jailer binary each microVM is started through.
	// A Firecracker scaler requires it.
	JailerPath *string `json:"jailerPath,omitzero"`
	// KernelPath is the guest kernel of the scaler's microVMs, unless a
	// label set names its own. A Firecracker scaler requires it.
	KernelPath *string `json:"kernelPath,omitzero"`
	// ChrootBaseDir is the folder the jailer makes each microVM's chroot
	// in. Default "/srv/jailer".
	ChrootBaseDir *string `json:"chrootBaseDir"`
	// UID is the user id the jailer runs each microVM as.
	// A Firecracker scaler requires it.
	UID *int64 `json:"uid,omitzero"`
	// GID is the group id the jailer runs each microVM as.
	// A Firecracker scaler requires it.
	GID *int64 `json:"gid,omitzero"`
	// VcpuCount is the vCPUs of each microVM, unless its label set says.
	// Default 2.
	VcpuCount int64 `json:"vcpuCount"`
	// MemSizeMib is the memory of each microVM in MiB, unless its label
	// set says. Default 512.
	MemSizeMib int64 `json:"memSizeMib"`
	// RequireSudo makes a Firecracker scaler run its privileged commands
	// (ip, chown) with `sudo -n`. It is for an orchestrator that is not
	// root. The host then needs NOPASSWD sudoers entries for them.
	// Default false.
	RequireSudo bool `json:"requireSudo"`
	// ProvisioningTargets are the workflow refs (org/infra) an event
	// scaler sends its scale-up and scale-down events to. Their workflows
	// provision and tear down the external machines. An event scaler
	// requires at least one, and none may be empty.
	ProvisioningTargets []string `json:"provisioningTargets,omitzero"`
	// ClaimTTLSeconds is how long an event scaler's provisioning claim
	// code stays valid. Default 300.
	ClaimTTLSeconds int64 `json:"claimTtlSeconds"`
	// AgentTokenTTLSeconds is how long the agent token minted for a
	// claimed provision stays valid. Default 600.
	AgentTokenTTLSeconds int64 `json:"agentTokenTtlSeconds"`

	Pos Pos `json:"-"` // the scaler's mapping, in the file that declares it

	at []place // where each value is: see PosOf
}

// WarmPool keeps idle agents ready ahead of jobs. Load sets every field.
type WarmPool struct {
	// Enabled is whether the pool is kept. Default false.
	Enabled bool `json:"enabled"`
	// Size is how many idle agents are kept ready. Default 0.
	Size int64 `json:"size"`
	// IdleTimeoutSeconds is how long an idle warm agent lives before it is
	// destroyed. Default 300. nil, in a literal, means the default.
	IdleTimeoutSeconds *float64 `json:"idleTimeoutSeconds"`
}

// Platform is the operating system and architecture of a scaler's agents.
// An os other than linux, or the arch arm64, taints the pool. Then only
// jobs that request that label (macos, windows, arm64) run there.
type Platform struct {
	// OS is linux, macos or windows.
	OS string `json:"os"`
	// Arch is x64 or arm64.
	Arch string `json:"arch"`
}

// LabelSet is one label set of a scaler: the job labels it serves, and
// what its agents run.
type LabelSet struct {
	// Labels are the labels a job's runsOn is matched against. There is at
	// least one, and none starts with "kici:". They are trimmed and
	// lower-cased as JavaScript does it, in order, duplicates kept. They
	// are also the agent's labels (KICI_LABELS).
	Labels []string `json:"labels"`
	// Image is the image a container scaler starts the label set's agents
	// from, as written. A container scaler requires it. A bare-metal label
	// set with an image and no BinaryPath runs each job in the job's own
	// image. It takes the KiCI runtime from this one. "" when there is
	// none.
	Image string `json:"image,omitempty"`
	// ImagePullPolicy is when a container scaler pulls Image before a
	// spawn. A job's own image is pulled when missing, whatever it says.
	// Default "IfNotPresent". The orchestrator's v0.1.x line defaults to
	// Always: see the package doc.
	ImagePullPolicy PullPolicy `json:"imagePullPolicy"`
	// BinaryPath is the agent binary a bare-metal scaler starts as a host
	// process. A bare-metal label set needs it or an Image.
	BinaryPath *string `json:"binaryPath,omitzero"`
	// Resources are the requests and limits of the label set's agents,
	// unless the job declares its own: requests and limits, each with cpus
	// and memory; a limit alone also sets the request. nil: the config's
	// defaults (see [Config.SpawnResources]). From 0.16.0 cpus or memory
	// written directly under resources are refused; before it, that flat
	// form was read as both requests and limits.
	Resources *hostconfig.Resources `json:"resources,omitzero"`
	// Volumes are bind mounts of an agent container, in the Engine API's
	// "source:target[:mode]" form ("/host/cache:/cache:ro"). The runtime
	// gets them as given, before the socket that ContainerSocket adds.
	// nil: none.
	Volumes []string `json:"volumes,omitzero"`
	// ContainerSocket mounts the container runtime's socket into the agent
	// container, at its path on the host. Jobs can then run containers of
	// their own. It applies to a local runtime only, not to Host. It gives
	// every job full root access to the host's runtime: only for trusted
	// workloads on isolated machines. Default false.
	ContainerSocket bool `json:"containerSocket"`
	// Env are variables added to the agents' environment, after the
	// orchestrator's own KICI_ variables. nil: none.
	Env Env `json:"env,omitzero"`
	// BackpressureMode is what an agent does when its log stream backs up:
	// "pause" the job or "drop" lines. The agent gets it as
	// KICI_BACKPRESSURE_MODE. "" when unset: the agent's default, pause.
	BackpressureMode string `json:"backpressureMode,omitempty"`
	// NetworkPolicy is what the agents may reach through the isolated
	// network. nil: the default, with private ranges and cloud metadata
	// blocked and the internet open.
	NetworkPolicy *NetworkPolicy `json:"networkPolicy,omitzero"`
	// RootfsPath is the ext4 root file system image the label set's
	// microVMs boot. A Firecracker label set requires it.
	RootfsPath *string `json:"rootfsPath,omitzero"`
	// KernelPath is the label set's guest kernel, in place of the
	// scaler's. nil: the scaler's.
	KernelPath *string `json:"kernelPath,omitzero"`
	// VcpuCount is the vCPUs of the label set's microVMs, in place of the
	// scaler's. 0 when unset.
	VcpuCount int64 `json:"vcpuCount,omitzero"`
	// MemSizeMib is the memory of the label set's microVMs in MiB, in
	// place of the scaler's. 0 when unset.
	MemSizeMib int64 `json:"memSizeMib,omitzero"`
	// OverlayDriveSizeMib is the size in MiB of each microVM's
	// copy-on-write overlay drive. 0 when unset: the backend's own size,
	// 2048.
	OverlayDriveSizeMib int64 `json:"overlayDriveSizeMib,omitzero"`

	Pos      Pos `json:"-"` // the label set's mapping
	ImagePos Pos `json:"-"` // the image value's first byte, its quote included; the zero Pos without one
	ImageEnd Pos `json:"-"` // just past the image value's last byte, its closing quote included

	loaded fileSum // the file that declares the label set, as Load read it
	at     []place // where each value is: see PosOf
}

// NetworkPolicy is what a label set's agents may reach, as nftables rules
// of their isolated network.
type NetworkPolicy struct {
	// Allowlist are CIDR ranges let through the block of private ranges.
	// nil: none.
	Allowlist []string `json:"allowlist,omitzero"`
	// DenyAll blocks all outbound traffic but the allowlist. Default false.
	DenyAll bool `json:"denyAll"`
	// HostAccess is what the agents may reach on the orchestrator's own
	// host. Each entry is <cidr|address|*>[:<port|*>] or a bare port. Set,
	// it replaces the default outright: the orchestrator's own port, and
	// the services it directs agents to. Empty denies every host service.
	// nil: the default.
	HostAccess []string `json:"hostAccess,omitzero"`
}

// EnvVar is one entry of a label set's env.
type EnvVar struct {
	Name  string // the variable's name, as the file writes its key
	Value string // its value
}

// Env is a label set's env, in the orchestrator's order. Names that are
// array indices ("0", "17") come first, ascending, then the others as
// written. Its JSON is an object.
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
