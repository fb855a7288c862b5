package npmtarget

import (
	"strings"
	"unicode/utf8"

	"github.com/kicikit/kicikit/internal/errtext"
)

// The refusals beyond the orchestrator, which accepts each of these and then
// runs npm somewhere other than the service's installation, or hands
// cmd.exe a line it misreads. [Resolve] returns [Unsafe] for them and
// [Target.Command] an error, so that neither reaches a command line.

// FieldError reports a value npmtarget refuses. It is a field of a
// [Target], or the version of a [PlanUpgradeInput] or a [SelfInstall].
type FieldError struct {
	Func   string // the call that refused it: "Resolve", "Target.Command", ...
	Field  string // the field: "NodeExecPath", "GlobalPrefix", "OwningPackage", "Version", ...
	Value  string // the field's value
	Reason Reason // why it is refused, and what to do about it
}

// Error returns a one-line message naming the call, the value, the field and
// the reason. The value is quoted by Go's rules and cut to a bounded length.
func (e *FieldError) Error() string {
	return "npmtarget." + e.Func + "(" + errtext.Quote(e.Value) + "): " + e.Field + ": " + e.Reason.Error()
}

// Unwrap returns e.Reason, so that errors.Is(err, ErrListSeparator) works.
func (e *FieldError) Unwrap() error { return e.Reason }

// checkTarget returns the first refusal of t that applies to every npm
// call, whichever arguments it has, as a *FieldError naming fn:
//
//   - NodeExecPath not absolute: its folder goes first on PATH, and a
//     relative or drive-relative node ("C:node.exe") puts the working
//     directory there, and on the npm.cmd route runs <drive>:\npm.cmd;
//   - a node folder holding the target's PATH list separator, which would
//     split PATH into elements that name other folders, or the working
//     directory;
//   - on the cmd.exe route, a global prefix, node folder or batch-file
//     folder that npm.cmd would hand cmd.exe to misread (npmCmdSafe).
func checkTarget(fn string, t Target) error {
	node := t.NodeExecPath
	if !isAbsolute(node, t.Windows) {
		return &FieldError{Func: fn, Field: "NodeExecPath", Value: node, Reason: ErrRelativeNode}
	}
	if strings.Contains(dirname(t.Windows, node), listSeparator(t.Windows)) {
		return &FieldError{Func: fn, Field: "NodeExecPath", Value: node, Reason: ErrListSeparator}
	}
	if !t.viaCmdExe() {
		return nil
	}
	for _, f := range [...]struct{ field, value, path string }{
		{"GlobalPrefix", t.GlobalPrefix, t.GlobalPrefix},
		{"NodeExecPath", node, dirname(true, node)},
		{"Invocation.Cmd", t.Invocation.Cmd, dirname(true, t.Invocation.Cmd)},
	} {
		if !npmCmdSafe(f.path) {
			return &FieldError{Func: fn, Field: f.field, Value: f.value, Reason: ErrBatchPath}
		}
	}
	return nil
}

// npmCmdSafe reports whether npm.cmd can take p, a folder it expands into
// its own command lines: the batch file's own (%~dp0), where it looks for
// node.exe and runs it through CALL, and the global prefix, which it reads
// back from npm-prefix.js and tests with IF EXIST. p must hold no byte
// cmd.exe reads as syntax there (" % ! ^), no control character, no
// character Windows forbids in a file name (< > | ? * and a ":" that is not
// a drive's), and be valid UTF-8 (Windows names are UTF-16).
func npmCmdSafe(p string) bool {
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c < 0x20, c == 0x7f, strings.IndexByte(`"%!^<>|?*`, c) >= 0:
			return false
		case c == ':' && (i != 1 || !isDriveLetter(p[0])):
			return false
		}
	}
	return utf8.ValidString(p)
}

// checkInstall returns the refusal of installing version of t's package, as
// a *FieldError naming fn: an owning package npm would not read as a package
// name, or a version it would not read as a version or a dist-tag.
func checkInstall(fn string, t Target, version string) error {
	if !isPackageName(t.OwningPackage) {
		return &FieldError{Func: fn, Field: "OwningPackage", Value: t.OwningPackage, Reason: ErrPackageName}
	}
	if !isVersionOrTag(version) {
		return &FieldError{Func: fn, Field: "Version", Value: version, Reason: ErrVersion}
	}
	return nil
}
