package npmtarget

import "github.com/kicikit/kicikit/internal/errtext"

// PlanUpgradeInput is what [PlanUpgrade] decides from. Nothing is read from
// the running process: the caller passes each fact in.
type PlanUpgradeInput struct {
	// Spec is the service's launch command. It is nil when unknown, which plans
	// like a launch command without an entry script.
	Spec *LaunchSpec
	// Component is the KiCI component the service runs, "orchestrator" for
	// the orchestrator.
	Component string
	// Version is the version to install, as given with --version. It is empty
	// when none was given.
	Version string
	// Options are passed to [Resolve].
	Options Options
	// RunningExecPath is the program the upgrading tool runs under: the
	// orchestrator's process.execPath, the node running kici-admin. The
	// not-global refusal names it beside the service's node.
	RunningExecPath string
}

// Plan is the outcome of [PlanUpgrade]: [SelfInstall] or [Refusal].
//
//sumtype:decl
type Plan interface{ plan() }

// SelfInstall is a plan to install Target.OwningPackage at Version. It goes
// into the service's global prefix, with the service's own node.
type SelfInstall struct {
	Target  Target // where and with what to install: Resolve's
	Version string // the version or dist-tag to install, as PlanUpgradeInput.Version gave it
}

// Refusal is a plan not to self-install. It has a reason and a message for
// the operator. Where the orchestrator refuses too, the message is its own.
type Refusal struct {
	// Reason is why, for a program to branch on. It is one of [ErrNoVersion],
	// [ErrVersion], [ErrNotGlobal], [ErrNoGlobalPackage] and [ErrUnsafeTarget].
	Reason  Reason
	Message string // what to tell the operator, in the orchestrator's words where it refuses too
	// Err is the error that says what is refused and why, for a refusal beyond
	// the orchestrator. errors.Is matches its [Reason]. It is nil for the
	// orchestrator's own refusals.
	Err error
}

func (SelfInstall) plan() {}
func (Refusal) plan()     {}

// NpmArgs returns npm's arguments for the install, before [Target.Args] adds
// the prefix. They are "install", "-g" and <OwningPackage>@<Version>, as the
// orchestrator's installGlobalPackage passes them.
func (s SelfInstall) NpmArgs() []string {
	return []string{"install", "-g", s.Target.OwningPackage + "@" + s.Version}
}

// Command describes the process that performs the install:
// s.Target.Command(s.NpmArgs()...). First it refuses, for a SelfInstall
// built by hand, what [PlanUpgrade] and [Resolve] refuse. That is an owning
// package npm would not read as a package name ([ErrPackageName]). It is
// also a version npm would not read as a version or a dist-tag
// ([ErrVersion]). Each refusal is a *[FieldError].
func (s SelfInstall) Command() (Command, error) {
	if err := checkInstall("SelfInstall.Command", s.Target, s.Version); err != nil {
		return Command{}, err
	}
	return s.Target.Command(s.NpmArgs()...)
}

// The orchestrator's refusal messages; the not-global one is built in
// PlanUpgrade around the entry and the two programs.
const (
	msgNoVersion = "self-driving upgrade requires --version <target> (the version to install). " +
		"Pass --restart-only to restart the already-installed package without installing."
	msgNoGlobalPackage = "npm-source upgrade cannot self-install: the unit's launch target is a custom --binary install " +
		"or a non-node_modules path, so there is no global package to update. " + msgAlternatives
	msgAlternatives = "Use an archive upgrade (--from <archive> / --url <url> + --version), " +
		"or pre-install the package and re-run with --restart-only."
)

// PlanUpgrade decides whether an npm-source upgrade can install the new
// version itself. It is the part of the orchestrator's planNpmSourceUpgrade
// that follows the choice of a self-driving npm-source upgrade. In order:
//
//  1. With no Version, a [Refusal] with [ErrNoVersion]. With a Version npm
//     would read as anything but a version or a dist-tag, a Refusal with
//     [ErrVersion] whose Err is a [*FieldError].
//  2. [Resolve] on Spec. For [NotGlobal], a Refusal with [ErrNotGlobal].
//     Its message names the entry script, the service's node
//     (Spec.ExecPath) and RunningExecPath.
//  3. For [NoEntry], or a nil Spec, a Refusal with [ErrNoGlobalPackage].
//  4. For [Unsafe], a Refusal with [ErrUnsafeTarget] whose Err is Resolve's.
//  5. For [Resolved], a [SelfInstall] of its Target at Version.
//
// Where the orchestrator refuses too, the messages are its own, word for
// word. Beyond it, PlanUpgrade refuses two things. One is a version npm
// would read as an alias, a URL, a git repository, a folder, a tarball or a
// range. Only a semantic version (an optional "v" before it) or a dist-tag
// such as "latest" is installed. The other is a global install that
// [Resolve] returns as Unsafe.
//
// A Version that passes step 1 is installed as given. So "v0.20.0" stays
// "v0.20.0", which npm reads as 0.20.0. The package documentation says what
// is out of scope.
func PlanUpgrade(in PlanUpgradeInput) Plan {
	if in.Version == "" {
		return Refusal{Reason: ErrNoVersion, Message: msgNoVersion}
	}
	if !isVersionOrTag(in.Version) {
		err := &FieldError{Func: "PlanUpgrade", Field: "Version", Value: in.Version, Reason: ErrVersion}
		return Refusal{Reason: ErrVersion, Err: err, Message: "npm-source upgrade cannot self-install: --version " +
			errtext.Quote(in.Version) + ": " + ErrVersion.Error() + "."}
	}
	if in.Spec == nil {
		return Refusal{Reason: ErrNoGlobalPackage, Message: msgNoGlobalPackage}
	}
	switch r := Resolve(*in.Spec, in.Component, in.Options).(type) {
	case Resolved:
		return SelfInstall{Target: r.Target, Version: in.Version}
	case NotGlobal:
		return Refusal{Reason: ErrNotGlobal, Message: "npm-source upgrade cannot self-install: the unit's launch target " +
			r.Entry + " is not inside a global npm install, so the unit's npm has no global prefix that holds it. The unit runs " +
			in.Spec.ExecPath + "; this kici-admin runs " + in.RunningExecPath + ". " + msgAlternatives}
	case Unsafe:
		return Refusal{Reason: ErrUnsafeTarget, Err: r.Err, Message: "npm-source upgrade cannot self-install: the unit's launch target " +
			r.Entry + " is a global install that npm cannot be run for safely: " + fieldMessage(r.Err) + ". " + msgAlternatives}
	case NoEntry:
	}
	return Refusal{Reason: ErrNoGlobalPackage, Message: msgNoGlobalPackage}
}

// fieldMessage is the part of a *FieldError's message an operator needs:
// the field, its value and the reason.
func fieldMessage(err error) string {
	fe, ok := err.(*FieldError)
	if !ok {
		return err.Error()
	}
	return fe.Field + " " + errtext.Quote(fe.Value) + ": " + fe.Reason.Error()
}
