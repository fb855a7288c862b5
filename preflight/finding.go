package preflight

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/imageref"
	"github.com/kicikit/kicikit/scalerconfig"
)

// The codes of the findings, as [Finding.Code] returns them. The first two
// are the orchestrator's own.
const (
	CodeMovingTag     = "moving-tag"
	CodeOlderPin      = "older-pin"
	CodeNeverPull     = "never-pull"
	CodeFloatingTag   = "floating-tag"
	CodeInvalidImage  = "invalid-image"
	CodeInvalidMemory = "invalid-memory"
	CodeInvalidLimit  = "invalid-limit"
	// CodeInvalidConfig is the code of a problem for which the orchestrator
	// refuses to load the config ([InvalidConfigKind]): no Finding has it.
	CodeInvalidConfig = "invalid-config"
)

// Kind describes one kind of finding. A program lists the checks from it.
type Kind struct {
	Code     string // as [Finding.Code] returns it
	Name     string // the finding's type: "MovingTag"
	Severity string // "warning" or "error"
	Summary  string // what the config holds, in one sentence
	Help     string // why it matters, and what to do
}

// Kinds returns every kind of finding, in the package doc's order.
func Kinds() []Kind { return slices.Clone(kinds[:]) }

// kinds is the one table of the findings: every list of them comes from it.
var kinds = [...]Kind{
	{CodeMovingTag, "MovingTag", "warning",
		"The agent image has no tag or the tag latest, and the pull policy IfNotPresent.",
		"A host that already pulled the image keeps it, so an upgrade does not change the container agents. Pin the release you upgrade to (repository:VERSION), or set imagePullPolicy: Always. The orchestrator's own upgrade check reports this."},
	{CodeOlderPin, "OlderPin", "warning",
		"The agent image is pinned to a release older than the upgrade target.",
		"The container agents keep running the older release after the upgrade. Pin the release you upgrade to (repository:VERSION). The orchestrator's own upgrade check reports this."},
	{CodeNeverPull, "NeverPull", "warning",
		"The agent image has the pull policy Never and does not name the target release.",
		"No pull is ever attempted, so each host runs whatever image it already has. Pin the release you upgrade to and pull it on every host before agents spawn from it, or set imagePullPolicy: IfNotPresent."},
	{CodeFloatingTag, "FloatingTag", "warning",
		"The agent image has a tag that is not a release (stable, main, 0.20) and the pull policy IfNotPresent.",
		"Such a tag moves like latest: each host keeps the image it pulled first, and nothing tells which agent release runs. Pin a release (repository:VERSION) or a digest (repository@sha256:DIGEST)."},
	{CodeInvalidImage, "InvalidImage", "error",
		"The agent image is not a valid image reference.",
		"Docker refuses the reference, so the container scaler cannot start agents for the label set. Correct the image."},
	{CodeInvalidMemory, "InvalidMemory", "error",
		"A resources memory is a string the orchestrator's memory parser refuses.",
		"The orchestrator loads the config, but reads a label set's or the defaults' resources memory only when it spawns an agent, and fails every spawn that reads one it cannot parse, for a scaler of any type. Write the memory as a number and one unit k, m or g (512m, 2g). A memory written directly under resources, which an orchestrator before 0.16.0 reads as both request and limit, 0.16.0 and later refuse as they load the config (invalid-config)."},
	{CodeInvalidLimit, "InvalidLimit", "error",
		"A container limit comes out as zero, or is more bytes than an int64 holds.",
		"A zero limit is no limit to Docker, so the container scaler's agents run without the limit the config writes; a memory limit beyond an int64 makes the container runtime refuse every spawn. Set a limit that bounds the container, or remove it."},
}

// InvalidConfigKind describes the problems for which the orchestrator
// refuses to load the config: [Invalid]'s, each a scalerconfig.Problem,
// which kici-preflight reports under [CodeInvalidConfig]. It is not one of
// [Kinds]: no Finding is of it. Its help says which releases refuse what
// their rules add: the config is read by the rules of the upgrade's target
// (scalerconfig.RulesFor), the newest without one.
func InvalidConfigKind() Kind {
	return Kind{CodeInvalidConfig, "InvalidConfig", "error",
		"The orchestrator would refuse to load the scaler config.",
		"The orchestrator validates the scaler config when it starts, and refuses it whole for any of these problems: the service would not start after the upgrade. " +
			"The config is read as the target release reads it (without a target, as the newest does). " +
			"From 0.16.0 the orchestrator also refuses cpus or memory written directly under resources (nest them under limits: resources: {limits: {cpus: 2, memory: 4g}}), " +
			"and a label naming a platform (windows, win32, macos, darwin, arm64, aarch64, arm) in a scaler without platform (declare platform: {os, arch} on the scaler); " +
			"from 0.14.0, on a Windows host, a bare-metal binaryPath batch file whose path cmd.exe would read as syntax. " +
			"Correct the value at the position shown."}
}

// Finding is one problem a check found with one label set, or with the
// config's defaults. It is one of the types that [Kinds] names. Callers tell
// them apart with a type switch; LabelSet reaches the label set of any.
//
// Each marshals to a JSON object with the fields "code", "scaler",
// "labels", "image", "message", "scalerIndex" and "labelSetIndex", then its
// own, then "where". Positions are not part of it.
//
// The set of finding types is closed, so methods may be added to the
// interface without breaking a caller.
//
//sumtype:decl
type Finding interface {
	// Code returns the finding's kind: one of the codes of [Kinds].
	Code() string
	// Message returns the whole warning text, without a "Warning: " prefix.
	Message() string
	// LabelSet returns the label set the finding is about, and where the
	// config declares it.
	LabelSet() Site
	// Replacement returns the image the finding advises in place of the label
	// set's, and true. It returns "" and false when it advises no one image
	// (see [MovingTag.Replacement]).
	Replacement() (string, bool)
	// Position returns where the file writes the value the finding is
	// about: the label set's image for an image finding, the resource
	// value for [InvalidMemory] and [InvalidLimit]. It is the zero Pos for
	// a config built as a literal. [ValuePos] adds where an image ends.
	Position() scalerconfig.Pos

	finding()
}

// Site is the label set a [Finding] is about, and where the config declares
// it. For a finding about the config's defaults, it is the defaults. Every
// finding type embeds it.
type Site struct {
	Scaler string   // the scaler's name; "" for the config's defaults
	Labels []string // the label set's labels, as the config holds them
	Image  string   // the label set's image, as written

	// ScalerIndex and LabelSetIndex locate the label set in the checked
	// config: Config.Scalers[ScalerIndex].LabelSets[LabelSetIndex]. Names
	// and labels need not be unique; these are. Both are -1 for a finding
	// about the config's defaults.
	ScalerIndex, LabelSetIndex int

	// Pos, ImagePos and ImageEnd are the label set's, as the config holds
	// them. Pos is where the label set's mapping starts. ImagePos and ImageEnd
	// are where its image value starts and ends, in the file that declares it.
	// Each is the zero Pos for a config built as a literal.
	Pos, ImagePos, ImageEnd scalerconfig.Pos

	// Where is the config file to edit, as the messages name it. It is the
	// Input's Location.Path. When there is a Location.Dir, "(or the file under
	// DIR that declares it)" follows.
	Where string

	edit scalerconfig.ImageEdit // LabelSet.ImageEdit of the label set, for Fix
}

// LabelSet returns s. Through it every finding type, which embeds a Site,
// implements [Finding.LabelSet].
func (s Site) LabelSet() Site { return s }

// Position returns s.ImagePos, where the file writes the label set's
// image. Through it every image finding, which embeds a Site, implements
// [Finding.Position]. A resource finding has a Position of its own.
func (s Site) Position() scalerconfig.Pos { return s.ImagePos }

// ValuePos returns where the file writes the value f is about: pos is
// [Finding.Position]. For an image finding, the image runs from pos to end.
// For a resource finding, the value starts at pos, and end is the zero
// Pos. A literal has no positions.
func ValuePos(f Finding) (pos, end scalerconfig.Pos) {
	if _, ok := f.(interface{ valueAt() scalerconfig.Pos }); ok {
		return f.Position(), scalerconfig.Pos{}
	}
	return f.Position(), f.LabelSet().ImageEnd
}

// prefix is how the orchestrator's messages start.
func (s Site) prefix() string { return s.named("container") + ": image " + s.Image }

// quotedPrefix is how kicikit's own image findings start: as the
// orchestrator's messages, but with the image quoted as strconv.Quote
// quotes it, so that a space or a control character in it shows.
func (s Site) quotedPrefix() string {
	return s.named("container") + ": image " + strconv.Quote(s.Image)
}

// named is the label set as the orchestrator's messages name it, in a
// scaler of the type kind.
func (s Site) named(kind string) string {
	return kind + ` scaler "` + s.Scaler + `", label set [` + strings.Join(s.Labels, ", ") + "]"
}

// repository is the image's repository as the orchestrator's lenient split
// reads it, valid or not.
func (s Site) repository() string {
	return imageref.Split(s.Image).Repository
}

// pin is the orchestrator's advice on what to set the image to.
func (s Site) pin(target string) string {
	if target == "" {
		return "set image to the kici-agent release you upgrade to (" + s.repository() + ":<version>)"
	}
	return `set "image: ` + s.repository() + ":" + target + `"`
}

// MovingTag reports an agent image with no tag or the tag "latest", no
// digest, and the pull policy IfNotPresent. A host that already pulled the
// image keeps it, so the upgrade does not change the agents. It is the
// orchestrator's "moving-tag" finding, message for message.
type MovingTag struct {
	Site
	Tag    string // "" (no tag) or "latest"
	Target string // the upgrade target as the message prints it; "" when there is no usable target
}

// Code returns "moving-tag".
func (MovingTag) Code() string { return CodeMovingTag }

// Message returns the orchestrator's warning text.
func (f MovingTag) Message() string {
	return f.prefix() + " with imagePullPolicy IfNotPresent keeps the agent image this host already pulled, so the upgrade does not change the container agents. In " +
		f.Where + ", " + f.pin(f.Target) + ` on this label set, or set "imagePullPolicy: Always" to pull ` + imageref.LatestTag + " on every spawn."
}

// MarshalJSON encodes the finding as [Finding] describes it, with "tag"
// and "target".
func (f MovingTag) MarshalJSON() ([]byte, error) { return marshalFinding(f, pinned(f.Tag, f.Target)) }

func (MovingTag) finding() {}

// OlderPin reports an agent image whose tag is a release older than the
// upgrade target. Any pull policy counts, with or without a digest. The
// agents keep running that release. It is the orchestrator's "older-pin"
// finding, message for message.
type OlderPin struct {
	Site
	Tag    string // the older release, as the image names it
	Target string // the upgrade target as the message prints it
}

// Code returns "older-pin".
func (OlderPin) Code() string { return CodeOlderPin }

// Message returns the orchestrator's warning text.
func (f OlderPin) Message() string {
	return f.prefix() + " is older than the upgrade target " + f.Target + ", so the container agents keep running " + f.Tag + ". In " +
		f.Where + `, set "image: ` + f.repository() + ":" + f.Target + `" on this label set.`
}

// MarshalJSON encodes the finding as [Finding] describes it, with "tag"
// and "target".
func (f OlderPin) MarshalJSON() ([]byte, error) { return marshalFinding(f, pinned(f.Tag, f.Target)) }

func (OlderPin) finding() {}

// NeverPull reports a valid agent image with the pull policy Never whose tag
// does not name the target release. The tag may be missing, "latest" or
// another tag that is not a release (without a digest). Or it may be a
// release older than the target (with or without a digest).
//
// No pull is ever attempted, so each host runs whatever image it already
// has. Even a corrected pin takes effect only where that image is already
// present. The orchestrator says nothing here, except [OlderPin] for the
// older release, which NeverPull then accompanies.
type NeverPull struct {
	Site
	Tag    string // the image's tag; "" when it has none
	Target string // the upgrade target as the message prints it; "" when there is no usable target
}

// Code returns "never-pull".
func (NeverPull) Code() string { return CodeNeverPull }

// Message returns the warning text, in the style of the orchestrator's.
func (f NeverPull) Message() string {
	return f.quotedPrefix() + " with imagePullPolicy Never runs whatever agent image each host already has, so the upgrade does not change the container agents. In " +
		f.Where + ", " + f.pin(f.Target) + ` on this label set, and pull that image on every host before agents spawn from it, or set "imagePullPolicy: IfNotPresent".`
}

// MarshalJSON encodes the finding as [Finding] describes it, with "tag"
// and "target".
func (f NeverPull) MarshalJSON() ([]byte, error) { return marshalFinding(f, pinned(f.Tag, f.Target)) }

func (NeverPull) finding() {}

// FloatingTag reports a valid agent image with no digest, the pull policy
// IfNotPresent, and a tag that is neither "latest" nor a release version.
// Examples are "stable", "main", "edge", "nightly", "0.20" and "v1". Such a
// tag moves like latest. Each host keeps the image it pulled first, and
// nothing tells which release runs.
//
// A release tag is one that the orchestrator's compareReleases reads as one.
// That is agentversion.Compare's grammar, with parts of any number of
// digits. So "v0.19.0" and "0.20.0-5" are releases. The orchestrator says
// nothing here.
type FloatingTag struct {
	Site
	Tag    string // the floating tag
	Target string // the upgrade target as the message prints it; "" when there is no usable target
}

// Code returns "floating-tag".
func (FloatingTag) Code() string { return CodeFloatingTag }

// Message returns the warning text, in the style of the orchestrator's.
func (f FloatingTag) Message() string {
	return f.quotedPrefix() + " has the floating tag " + strconv.Quote(f.Tag) + ": like " + imageref.LatestTag + " it can move to another release, and with imagePullPolicy IfNotPresent each host keeps the image it pulled first, so nothing tells which agent release runs. In " +
		f.Where + ", " + f.pin(f.Target) + " on this label set, or pin a digest (" + f.repository() + "@sha256:<digest>)."
}

// MarshalJSON encodes the finding as [Finding] describes it, with "tag"
// and "target".
func (f FloatingTag) MarshalJSON() ([]byte, error) { return marshalFinding(f, pinned(f.Tag, f.Target)) }

func (FloatingTag) finding() {}

// InvalidImage reports an agent image that is not a valid reference. It is
// an agent image because its last path element, read by the orchestrator's
// lenient split, is kici-agent. Docker refuses it when the scaler spawns an
// agent. The orchestrator says nothing here, but still reports [MovingTag]
// or [OlderPin] for what its lenient split reads. InvalidImage then
// accompanies that finding.
type InvalidImage struct {
	Site
	Err *imageref.ParseError // why the image is invalid, as [imageref.Parse] reports it
}

// Code returns "invalid-image".
func (InvalidImage) Code() string { return CodeInvalidImage }

// Message returns the warning text, in the style of the orchestrator's.
func (f InvalidImage) Message() string {
	detail := "invalid reference format"
	if f.Err != nil {
		detail = f.Err.Detail()
	}
	return f.quotedPrefix() + " is not a valid image reference (" + detail + "), so Docker refuses it and the container scaler cannot start agents for this label set. In " +
		f.Where + ", correct the image on this label set."
}

// MarshalJSON encodes the finding as [Finding] describes it, with "error":
// the [imageref.ParseError]'s text.
func (f InvalidImage) MarshalJSON() ([]byte, error) {
	var text string
	if f.Err != nil {
		text = f.Err.Error()
	}
	return marshalFinding(f, findingJSON{errorJSON: &errorJSON{text}})
}

func (InvalidImage) finding() {}

// findingJSON is the JSON form of every finding: what it is, its label set,
// what the finding adds (the embedded pointers that are not nil), and the
// file to edit.
type findingJSON struct {
	Code          string   `json:"code"`
	Scaler        string   `json:"scaler"`
	Labels        []string `json:"labels"`
	Image         string   `json:"image"`
	Message       string   `json:"message"`
	ScalerIndex   int      `json:"scalerIndex"`
	LabelSetIndex int      `json:"labelSetIndex"`
	*pinJSON
	*resourceJSON
	*errorJSON
	Where string `json:"where"`
}

// pinJSON is what the findings that advise a pin add: the image's tag and
// the upgrade target.
type pinJSON struct {
	Tag    string `json:"tag"`
	Target string `json:"target"`
}

// errorJSON is what [InvalidImage] adds: why the image is invalid.
type errorJSON struct {
	Error string `json:"error"`
}

func pinned(tag, target string) findingJSON {
	return findingJSON{pinJSON: &pinJSON{Tag: tag, Target: target}}
}

// marshalFinding is the one JSON encoder of findings: own holds what f adds
// to its code, message and label set, which marshalFinding fills in.
func marshalFinding(f Finding, own findingJSON) ([]byte, error) {
	s := f.LabelSet()
	own.Code, own.Message = f.Code(), f.Message()
	own.Scaler, own.Labels, own.Image = s.Scaler, s.Labels, s.Image
	own.ScalerIndex, own.LabelSetIndex, own.Where = s.ScalerIndex, s.LabelSetIndex, s.Where
	if own.Labels == nil {
		own.Labels = []string{}
	}
	// Without HTML escaping: the encoder that calls a MarshalJSON method
	// applies its own setting to the result.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(own); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
