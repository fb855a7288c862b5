package preflight

import (
	"errors"
	"strconv"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/internal/errtext"
	"github.com/kicikit/kicikit/scalerconfig"
)

// The checks of what fails only when an agent spawns. The orchestrator's
// schema reads a resources memory as any string, so memory: 4GB loads, and
// the orchestrator parses it only when it spawns an agent: its scaler
// manager resolves the resources of every spawn, of every scaler type,
// with parseMemoryString (resolveEffective in manager.ts, requestScale and
// the warm pool's pre-spawns, at kici-dev/kici-public commit
// 0b46a9a5a27836be8b5af7a5e0c806592d3b5d6d), which throws, and the spawn
// fails; a warm pool whose label set's resources cannot be read is
// disabled. A container scaler then makes the resolved limits the
// container's Memory and NanoCPUs (resolveSpawnLimits, which
// hostconfig.ResolveSpawnLimits reproduces), where a limit that comes out
// as zero is no limit at all, and one of more bytes than an int64 holds a
// create call the runtime refuses.

// InvalidMemory reports a memory string that the orchestrator's memory
// parser refuses ([hostconfig.ParseMemory]'s grammar). It may be in a label
// set's resources, or in the config's defaults.resources, requests or
// limits. Examples are "4GB", "4Gi", "2 gigs" and "1024".
//
// "" where the file writes it counts too: memory: "" is a memory the scaler
// manager parses, not a memory left out. In a Config literal, which holds no
// positions, "" is none.
//
// The config loads, and every spawn that reads the memory fails. That is a
// spawn for the label set whose job sets no memory of its own. For the
// defaults, it is one for a label set that sets no memory on that side of
// its own. Any scaler type fails, since the scaler manager resolves every
// spawn's resources before the backend starts it. The orchestrator says
// nothing before that.
type InvalidMemory struct {
	Site
	// ScalerType is the label set's scaler's type; "" for the defaults.
	ScalerType scalerconfig.ScalerType
	// Field is where the memory is, below the label set or the defaults. It is
	// "resources.limits.memory", "resources.requests.memory", or
	// "resources.memory" for the flat form, which is both (a config read by
	// the rules before 0.16.0: scalerconfig.Rules012, Rules014).
	Field string
	// Memory is the memory string, as written.
	Memory string
	// At is where the file writes it. It is the zero Pos for a config built as a
	// literal.
	At scalerconfig.Pos
	// Err is why hostconfig.ParseMemory refuses it.
	Err *hostconfig.ParseError
}

// Code returns "invalid-memory".
func (InvalidMemory) Code() string { return CodeInvalidMemory }

// Message returns the warning text, in the style of the orchestrator's. It
// holds the orchestrator's own error (parseMemoryString's), word for word.
func (f InvalidMemory) Message() string {
	spawns := "every spawn for this label set fails there, unless the job sets its own memory"
	where := " on this label set"
	if f.ScalerIndex < 0 {
		spawns = "every spawn of a label set that sets no memory of its own fails there, unless the job sets one"
		where = " in defaults.resources"
	}
	fix := ""
	if m, ok := memoryFix(f.Memory); ok {
		fix = ` ("` + m + `")`
	}
	return resourcePrefix(f.Site, f.ScalerType) + f.Field + `: Invalid memory format: "` + f.Memory + `". Expected format like "512m", "2g", or "1024k". ` +
		"The orchestrator loads this config and reads the memory only when it spawns an agent, so " + spawns +
		". In " + f.Where + ", write the memory as a number and one unit k, m or g" + where + fix + "."
}

// Replacement reports false: the fix is in the resources, not the image.
func (InvalidMemory) Replacement() (string, bool) { return "", false }

// MarshalJSON encodes the finding as [Finding] describes it. It adds
// "scalerType", "field", "value" (the memory string) and "error" (the
// [hostconfig.ParseError]'s text).
func (f InvalidMemory) MarshalJSON() ([]byte, error) {
	e := &errorJSON{}
	if f.Err != nil {
		e.Error = f.Err.Error()
	}
	return marshalFinding(f, findingJSON{resourceJSON: &resourceJSON{string(f.ScalerType), f.Field, f.Memory}, errorJSON: e})
}

// Position returns f.At, where the file writes the value.
func (f InvalidMemory) Position() scalerconfig.Pos { return f.At }

func (f InvalidMemory) valueAt() scalerconfig.Pos { return f.At }

func (InvalidMemory) finding() {}

// InvalidLimit reports a limit that [hostconfig.ResolveSpawnLimits] refuses
// though the orchestrator's parser reads it. It may be in a container label
// set's resources.limits, or in the config's defaults.resources.limits.
//
//   - A memory or cpus that comes out as zero ("0k", "0.0001k", cpus under
//     0.5e-9). Docker reads zero as no limit. So the agents run without the
//     limit the config writes.
//   - A memory of more bytes than an int64 holds. The container runtime
//     refuses to create a container with it, so every spawn fails.
//
// A memory the parser refuses is an [InvalidMemory] instead. Only container
// scalers are checked. Their backend makes the limits the container's
// (container-backend.ts). A bare-metal scaler reads them by rules of its
// own: its systemd scope under enforceCgroups, its job-image containers.
type InvalidLimit struct {
	Site
	// ScalerType is the label set's scaler's type, container. It is "" for the
	// defaults.
	ScalerType scalerconfig.ScalerType
	// Field is the limit, below the label set or the defaults. It is
	// "resources.limits.memory" or "resources.limits.cpus", or
	// "resources.memory" or "resources.cpus" for the flat form (read by the
	// rules before 0.16.0).
	Field string
	// At is where the file writes it. It is the zero Pos for a literal.
	At scalerconfig.Pos
	// Err is why ResolveSpawnLimits refuses it: its Field, the value as
	// written, and the reason. The reason is a *hostconfig.ParseError with
	// hostconfig.ErrRange, or hostconfig.ErrZeroLimit. nil, in a literal, reads
	// as a memory limit of "" that comes out as zero.
	Err *hostconfig.LimitError
}

// limitErr is f.Err, or for nil the zero limit it reads as.
func (f InvalidLimit) limitErr() *hostconfig.LimitError {
	if f.Err == nil {
		return &hostconfig.LimitError{Field: "memory", Err: hostconfig.ErrZeroLimit}
	}
	return f.Err
}

// Code returns "invalid-limit".
func (InvalidLimit) Code() string { return CodeInvalidLimit }

// Message returns the warning text, in the style of the orchestrator's.
func (f InvalidLimit) Message() string {
	e := f.limitErr()
	whose, where := "this label set's agents", " on this label set"
	if f.ScalerIndex < 0 {
		whose, where = "the agents of every label set that has no resources of its own", " in defaults.resources"
	}
	value := strconv.FormatFloat(e.CPUs, 'g', -1, 64)
	if e.Field == "memory" {
		value = errtext.Quote(e.Memory)
	}
	prefix := resourcePrefix(f.Site, f.ScalerType) + f.Field + " " + value
	if errors.Is(e, hostconfig.ErrRange) {
		return prefix + " is more bytes than a container's memory limit holds (an int64), so the container runtime refuses to create the containers of " +
			whose + ": every spawn fails. In " + f.Where + ", set a smaller limit" + where + "."
	}
	what, least := "comes out as 0 bytes", `at least "1k"`
	if e.Field == "cpus" {
		what, least = "rounds to 0 NanoCPUs", "at least 0.000000001"
	}
	return prefix + " " + what + ", which Docker reads as no limit: " + whose +
		" run without the limit the config writes. In " + f.Where + ", set " + least + where + ", or remove the limit."
}

// Replacement reports false: the fix is in the resources, not the image.
func (InvalidLimit) Replacement() (string, bool) { return "", false }

// MarshalJSON encodes the finding as [Finding] describes it. It adds
// "scalerType", "field", "value" (the limit as written) and "error" (the
// [hostconfig.LimitError]'s text).
func (f InvalidLimit) MarshalJSON() ([]byte, error) {
	e := f.limitErr()
	var value any = e.CPUs
	if e.Field == "memory" {
		value = e.Memory
	}
	return marshalFinding(f, findingJSON{resourceJSON: &resourceJSON{string(f.ScalerType), f.Field, value}, errorJSON: &errorJSON{e.Error()}})
}

// Position returns f.At, where the file writes the value.
func (f InvalidLimit) Position() scalerconfig.Pos { return f.At }

func (f InvalidLimit) valueAt() scalerconfig.Pos { return f.At }

func (InvalidLimit) finding() {}

// resourceJSON is what the resource findings add: the scaler's type, the
// field and its value.
type resourceJSON struct {
	ScalerType string `json:"scalerType"`
	Field      string `json:"field"`
	Value      any    `json:"value"`
}

// resourcePrefix is how a resource finding's message starts: its label set
// as the orchestrator's messages name one, or the defaults.
func resourcePrefix(s Site, typ scalerconfig.ScalerType) string {
	if s.ScalerIndex < 0 {
		return "defaults: "
	}
	return s.named(string(typ)) + ": "
}

// memoryFix is the memory string the orchestrator reads that s was likely
// meant as: a number and a unit written the way Docker, Kubernetes or a
// person writes them ("4GB", "4Gi", "512 MiB", "2gb") as the number and
// the unit alone ("4g"); false when s is not such a string.
func memoryFix(s string) (string, bool) {
	i := 0
	for i < len(s) && ('0' <= s[i] && s[i] <= '9' || s[i] == '.') {
		i++
	}
	number, rest := s[:i], s[i:]
	for len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
	}
	if len(rest) < 2 {
		return "", false
	}
	unit, suffix := rest[:1], rest[1:]
	switch suffix {
	case "B", "b", "i", "iB", "ib":
	default:
		return "", false
	}
	fixed := number + string(unit[0]|0x20)
	if _, err := hostconfig.ParseMemory(fixed); err != nil {
		return "", false
	}
	return fixed, true
}

// resourceFindings appends the findings of one resources block of the
// place at, of a scaler of type typ ("" for the defaults), whose values
// posOf places. Each memory the parser refuses is an [InvalidMemory]
// (requests, then limits; the flat form once). Each limit that bounds a
// container (a container scaler's, or the defaults') and that
// ResolveSpawnLimits refuses is an [InvalidLimit] (memory, then cpus).
func resourceFindings(dst []Finding, at *place, typ scalerconfig.ScalerType, res *hostconfig.Resources, posOf func(string) (scalerconfig.Pos, bool)) []Finding {
	sides := [2]resourceSide{{name: "requests", spec: res.Requests}, {name: "limits", spec: res.Limits}}
	for i := range sides {
		sides[i].place(posOf)
	}
	flat := sides[0].spec != nil && sides[1].spec != nil &&
		(sides[0].memoryAt.IsValid() && sides[0].memoryAt == sides[1].memoryAt || sides[0].cpuAt.IsValid() && sides[0].cpuAt == sides[1].cpuAt)
	for i, side := range sides {
		if flat && i == 0 {
			continue
		}
		if pe := memoryRefused(side.spec, side.memoryAt.IsValid); pe != nil {
			dst = append(dst, InvalidMemory{Site: at.at(), ScalerType: typ, Field: side.field("memory", flat), Memory: side.spec.Memory, At: side.memoryAt, Err: pe})
		}
	}
	if (typ == scalerconfig.TypeContainer || typ == "") && sides[1].spec != nil {
		dst = sides[1].limitFindings(dst, at, typ, flat)
	}
	return dst
}

// memoryRefused returns why the orchestrator's memory parser refuses the
// memory of spec, or nil: a memory string it cannot read, or an empty one
// that the file writes (written reports whether it does), which the scaler
// manager parses as any other (memVal !== undefined, in resolveEffective)
// and parseMemoryString refuses. Only a memory the file leaves out, and ""
// in a literal, is no memory. A memory beyond an int64, which the parser
// reads, is nil here: as a container limit it is an [InvalidLimit].
func memoryRefused(spec *hostconfig.ResourceSpec, written func() bool) *hostconfig.ParseError {
	if spec == nil || spec.Memory == "" && !written() {
		return nil
	}
	var pe *hostconfig.ParseError
	if _, err := hostconfig.ParseMemory(spec.Memory); errors.As(err, &pe) && pe.Reason != hostconfig.ErrRange {
		return pe
	}
	return nil
}

// resourceSide is the requests or the limits of a resources block, and
// where the file writes its memory and cpus.
type resourceSide struct {
	name            string
	spec            *hostconfig.ResourceSpec
	memoryAt, cpuAt scalerconfig.Pos
}

func (r *resourceSide) place(posOf func(string) (scalerconfig.Pos, bool)) {
	r.memoryAt, _ = posOf("resources." + r.name + ".memory")
	r.cpuAt, _ = posOf("resources." + r.name + ".cpus")
}

// field is the path of the side's key below the label set: the flat
// form's own when flat.
func (r *resourceSide) field(key string, flat bool) string {
	if flat {
		return "resources." + key
	}
	return "resources." + r.name + "." + key
}

// limitFindings appends an [InvalidLimit] for each limit of the side that
// ResolveSpawnLimits refuses, each read on its own: memory, then cpus.
func (r *resourceSide) limitFindings(dst []Finding, at *place, typ scalerconfig.ScalerType, flat bool) []Finding {
	var lerr *hostconfig.LimitError
	memory := hostconfig.Resources{Limits: &hostconfig.ResourceSpec{Memory: r.spec.Memory}}
	if _, err := hostconfig.ResolveSpawnLimits(hostconfig.Limits{}, &memory); errors.As(err, &lerr) {
		var pe *hostconfig.ParseError
		if !errors.As(err, &pe) || pe.Reason == hostconfig.ErrRange {
			dst = append(dst, InvalidLimit{Site: at.at(), ScalerType: typ, Field: r.field("memory", flat), At: r.memoryAt, Err: lerr})
		}
	}
	cpus := hostconfig.Resources{Limits: &hostconfig.ResourceSpec{CPUs: r.spec.CPUs}}
	if _, err := hostconfig.ResolveSpawnLimits(hostconfig.Limits{}, &cpus); errors.As(err, &lerr) {
		dst = append(dst, InvalidLimit{Site: at.at(), ScalerType: typ, Field: r.field("cpus", flat), At: r.cpuAt, Err: lerr})
	}
	return dst
}
