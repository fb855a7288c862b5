package yamljs

import "strconv"

// Code is the kind of a problem: yaml's error code, or a code of this
// package. The package's codes are for what parse() throws while it
// builds the value: yaml's ReferenceError and Error, which have none.
// Each Code is an error value, so a caller can branch on it with
// errors.Is:
//
//	if errors.Is(err, yamljs.ErrDuplicateKey) { … }
type Code string

// yaml's error codes.
const (
	ErrAliasProps           Code = "ALIAS_PROPS"
	ErrBadAlias             Code = "BAD_ALIAS"
	ErrBadDirective         Code = "BAD_DIRECTIVE"
	ErrBadDQEscape          Code = "BAD_DQ_ESCAPE"
	ErrBadIndent            Code = "BAD_INDENT"
	ErrBadPropOrder         Code = "BAD_PROP_ORDER"
	ErrBadScalarStart       Code = "BAD_SCALAR_START"
	ErrBlockAsImplicitKey   Code = "BLOCK_AS_IMPLICIT_KEY"
	ErrBlockInFlow          Code = "BLOCK_IN_FLOW"
	ErrDuplicateKey         Code = "DUPLICATE_KEY"
	ErrImpossible           Code = "IMPOSSIBLE"
	ErrKeyOver1024Chars     Code = "KEY_OVER_1024_CHARS"
	ErrMissingChar          Code = "MISSING_CHAR"
	ErrMultilineImplicitKey Code = "MULTILINE_IMPLICIT_KEY"
	ErrMultipleAnchors      Code = "MULTIPLE_ANCHORS"
	ErrMultipleDocs         Code = "MULTIPLE_DOCS"
	ErrMultipleTags         Code = "MULTIPLE_TAGS"
	ErrTabAsIndent          Code = "TAB_AS_INDENT"
	ErrTagResolveFailed     Code = "TAG_RESOLVE_FAILED"
	ErrUnexpectedToken      Code = "UNEXPECTED_TOKEN"
	// ErrResourceExhaustion is a collection nested too deep (yaml reports
	// JavaScript's stack overflow with it).
	ErrResourceExhaustion Code = "RESOURCE_EXHAUSTION"
	// ErrTextTooLong is a text of more than 1.5 GiB, which no parse reads.
	// node holds no string that long, so yaml never sees one.
	ErrTextTooLong Code = "TEXT_TOO_LONG"
)

// The codes of what parse() throws while it builds the value.
const (
	// ErrUnresolvedAlias is an alias to an anchor not set before it.
	ErrUnresolvedAlias Code = "UNRESOLVED_ALIAS"
	// ErrAliasCount is yaml's limit on alias expansion: 100 values per
	// anchor. It guards against "billion laughs".
	ErrAliasCount Code = "EXCESSIVE_ALIAS_COUNT"
	// ErrMergeSource is a merge key whose value is not a map or a
	// sequence of maps.
	ErrMergeSource Code = "BAD_MERGE_SOURCE"
	// ErrOMapDuplicate is an !!omap with a key twice.
	ErrOMapDuplicate Code = "OMAP_DUPLICATE_KEY"
	// ErrBadAnchorName is a collection key holding an alias whose name
	// yaml's stringifier refuses.
	ErrBadAnchorName Code = "BAD_ANCHOR_NAME"
	// ErrTypeError is a TypeError JavaScript throws inside yaml while it
	// builds the value. A !!timestamp key whose value is no Date throws
	// one, as does a merged !!set whose member is not iterable.
	ErrTypeError Code = "TYPE_ERROR"
)

// Error returns the code.
func (c Code) Error() string { return string(c) }

// Problem is one error yaml reports.
type Problem struct {
	Pos     Pos    // where it starts
	End     Pos    // where it ends (exclusive); Pos when it has no extent
	Code    Code   // what kind of error
	Message string // yaml's message, without its " at line L, column C" suffix
}

// String returns "line:column: message".
func (p Problem) String() string {
	return strconv.Itoa(p.Pos.line()) + ":" + strconv.Itoa(int(p.Pos.Column)) + ": " + p.Message
}

// SyntaxError is what [Parse] returns when yaml's parse() throws: every
// problem yaml reports, in its order. The first is what parse() throws.
type SyntaxError struct {
	Problems []Problem // at least one
	// Thrown is the message of what parse() throws, as yaml words it. It
	// is the first problem's message, with " at line L, column C:" and an
	// excerpt of the line pointing at it. Its lines and columns count
	// UTF-16 code units. The orchestrator prints it when it refuses the
	// file.
	Thrown string
}

// Error returns "yamljs.Parse: line:column: message" for the first problem,
// and how many more there are.
func (e *SyntaxError) Error() string {
	s := "yamljs.Parse: " + e.Problems[0].String()
	if n := len(e.Problems) - 1; n > 0 {
		s += " (and " + strconv.Itoa(n) + " more)"
	}
	return s
}

// Unwrap returns the codes of the problems. So errors.Is(err,
// ErrDuplicateKey) tells whether any problem is a duplicate key.
func (e *SyntaxError) Unwrap() []error {
	errs := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		errs[i] = p.Code
	}
	return errs
}
