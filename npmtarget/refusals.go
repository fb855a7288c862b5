package npmtarget

import (
	"strings"

	"github.com/kicikit/kicikit/internal/errtext"
)

// The refusals beyond the orchestrator, which accepts each of these and then
// runs npm somewhere other than the service's installation, or hands
// cmd.exe a line it misreads. [Resolve] returns [Unsafe] for them and
// [Target.Command] an error, so that neither reaches a command line.

// FieldError reports a field of a [Target] that npmtarget refuses.
type FieldError struct {
	Func   string // the call that refused it: "Resolve", "Target.Command", ...
	Field  string // the field: "NodeExecPath", "GlobalPrefix", ...
	Value  string // the field's value
	Reason Reason // why it is refused, and what to do about it
}

// Error returns a one-line message naming the call, the value, the field
// and the reason, with the value quoted by Go's rules and cut to a bounded
// length.
func (e *FieldError) Error() string {
	return "npmtarget." + e.Func + "(" + errtext.Quote(e.Value) + "): " + e.Field + ": " + e.Reason.Error()
}

// Unwrap returns e.Reason, so that errors.Is(err, ReasonListSeparator) and
// the like work.
func (e *FieldError) Unwrap() error { return e.Reason }

// checkTarget returns the first refusal of t that applies to every npm
// call, whichever arguments it has, as a *FieldError naming fn:
//
//   - NodeExecPath not absolute: its folder goes first on PATH, and a
//     relative or drive-relative node ("C:node.exe") puts the working
//     directory there, and on the npm.cmd route runs <drive>:\npm.cmd;
//   - a node folder holding the target's PATH list separator, which would
//     split PATH into elements that name other folders, or the working
//     directory.
func checkTarget(fn string, t Target) error {
	node := t.NodeExecPath
	if !isAbsolute(node, t.Windows) {
		return &FieldError{Func: fn, Field: "NodeExecPath", Value: node, Reason: ReasonRelativeNode}
	}
	if strings.Contains(dirname(t.Windows, node), listSeparator(t.Windows)) {
		return &FieldError{Func: fn, Field: "NodeExecPath", Value: node, Reason: ReasonListSeparator}
	}
	return nil
}
