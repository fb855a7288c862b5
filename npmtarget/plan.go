package npmtarget

import "github.com/kicikit/kicikit/internal/errtext"

// PlanUpgradeInput is what [PlanUpgrade] decides from. Nothing is read from the
// running process: the caller passes each fact in.
type PlanUpgradeInput struct {
	// Spec is the service's launch command; nil when it is unknown, which
	// plans like a launch command without an entry script.
	Spec *LaunchSpec
	// Component is the KiCI component the service runs, "orchestrator" for
	// the orchestrator.
	Component string
	// Version is the version to install, as given with --version; empty when
	// none was given.
	Version string
	// Options are passed to [Resolve].
	Options Options
	// RunningExecPath is the program the upgrading tool runs under (the
	// orchestrator's process.execPath, the node running kici-admin). The
	// not-global refusal names it beside the service's node.
	RunningExecPath string
}

// Plan is the outcome of [PlanUpgrade]: [SelfInstall] or [Refusal].
//
//sumtype:decl
type Plan interface{ plan() }

// SelfInstall is a plan to install Target.OwningPackage at Version into the
// service's global prefix with the service's own node.
type SelfInstall struct {
	Target  Target // where and with what to install: Resolve's
	Version string // the version or dist-tag to install, as PlanUpgradeInput.Version gave it
}

// Refusal is a plan not to self-install, with a reason and a message for
// the operator: the orchestrator's, where the orchestrator refuses too.
type Refusal struct {
	// Reason is why, for a program to branch on: [ErrNoVersion],
	// [ErrVersion], [ErrNotGlobal], [ErrNoGlobalPackage] or
	// [ErrUnsafeTarget].
	Reason  Reason
	Message string // what to tell the operator, in the orchestrator's words where it refuses too
	// Err is, for a refusal beyond the orchestrator, the error that says
	// what is refused and why (errors.Is matches its [Reason]); nil for the
	// orchestrator's own refusals.
	Err error
}

func (SelfInstall) plan() {}
func (Refusal) plan()     {}

// NpmArgs returns npm's arguments for the install, before
// [Target.Args] adds the prefix: "install", "-g" and
// <OwningPackage>@<Version>, as the orchestrator's installGlobalPackage
// passes them.
func (s SelfInstall) NpmArgs() []string {
	return []string{"install", "-g", s.Target.OwningPackage + "@" + s.Version}
}

// Command describes the process that performs the install:
// s.Target.Command(s.NpmArgs()...). It first refuses, with a *[FieldError],
// what [PlanUpgrade] and [Resolve] refuse of a package and a version, for a
// SelfInstall built by hand: an owning package npm would not read as a
// package name ([ErrPackageName]) and a version it would not read as a
// version or a dist-tag ([ErrVersion]).
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
// version itself, as the part of the orchestrator's planNpmSourceUpgrade that
// follows the choice of an npm-source self-driving upgrade. In order:
//
//  1. With no Version, a [Refusal] with [ErrNoVersion]; with a Version
//     npm would read as anything but a version or a dist-tag, a Refusal
//     with [ErrVersion] whose Err is a [*FieldError].
//  2. [Resolve] on Spec. [NotGlobal]: a Refusal with [ErrNotGlobal]
//     whose message names the entry script, the service's node
//     (Spec.ExecPath) and RunningExecPath.
//  3. [NoEntry], or a nil Spec: a Refusal with [ErrNoGlobalPackage].
//  4. [Unsafe]: a Refusal with [ErrUnsafeTarget] whose Err is Resolve's.
//  5. [Resolved]: a [SelfInstall] of its Target at Version.
//
// The messages are the orchestrator's, word for word, where the orchestrator
// refuses too. Beyond it, PlanUpgrade refuses
//
//   - a version that npm would read as an alias ("npm:left-pad@1.3.0"
//     installs another package under the name), a URL, a git repository, a
//     folder or a tarball ("/opt/evil" and "../x" run their install scripts
//     as the upgrader), or a range: only a semantic version (an optional "v"
//     before it) or a dist-tag such as "latest" is installed;
//   - a global install that [Resolve] returns as Unsafe: a node path that is
//     not absolute, a node folder holding the PATH list separator, an owning
//     package that is not a valid npm package name, or on the npm.cmd route
//     a prefix or node folder that npm.cmd would hand cmd.exe to misread.
//     The orchestrator would hand each to npm, and the install would land
//     where the service does not look, or cmd.exe would run something else.
//
// Out of scope is what the orchestrator does around this decision: reading
// the unit's launch command, --restart-only, checking that the release
// reads the env file (npm view), confirming with the operator, running npm
// and restarting the service. A Version that passes step 1 is installed as
// given: "v0.20.0" stays "v0.20.0", which npm reads as 0.20.0.
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
