package imageref

import (
	"strconv"
	"strings"

	"github.com/distribution/reference"
)

// Reason is why a string is not a valid image reference. Each Reason is an
// error value, so a caller can branch on it with errors.Is:
//
//	if errors.Is(err, imageref.ErrNameUppercase) { … }
//
// The reference package reports some of these conditions only as plain
// strings (an upper-case familiar name) or not at all (a bad tag is an
// "invalid reference format"), so [Parse] works the reason out itself. The
// zero Reason is not one of them and is never reported.
type Reason uint8

// The reasons a string is not a valid image reference. When several parts
// are wrong, the first in reading order is reported: the repository, then
// the tag, then the digest.
const (
	// ErrNameEmpty means the repository is empty: the input is "", or starts
	// with ":" or "@".
	ErrNameEmpty Reason = iota + 1
	// ErrNameUppercase means the repository's path has upper-case letters
	// but would be a valid name in lower case. A registry host may have
	// them.
	ErrNameUppercase
	// ErrTagInvalid means the tag is not 1 to 128 ASCII letters, digits,
	// "_", "." or "-" starting with a letter, digit or "_". An empty tag
	// ("kici-agent:") is invalid too.
	ErrTagInvalid
	// ErrDigestInvalid means the digest is malformed, of the wrong length
	// for its algorithm, or of an unsupported algorithm (sha256, sha384 and
	// sha512 are supported).
	ErrDigestInvalid
	// ErrReferenceInvalid means the reference is invalid for another reason:
	// a malformed repository name, one longer than 255 characters, a bare
	// 64-hex identifier, or parts that do not fit together.
	ErrReferenceInvalid
)

// Error returns a short lower-case description of r.
func (r Reason) Error() string {
	switch r {
	case ErrNameEmpty:
		return "empty repository name"
	case ErrNameUppercase:
		return "repository name must be lowercase"
	case ErrTagInvalid:
		return "invalid tag"
	case ErrDigestInvalid:
		return "invalid digest"
	case ErrReferenceInvalid:
		return "invalid reference format"
	}
	return "reason " + strconv.Itoa(int(r))
}

// ParseError reports a string that is not a valid image reference.
type ParseError struct {
	Input  string // the string as given to Parse
	Reason Reason // why it is invalid, for callers to branch on
	Err    error  // what github.com/distribution/reference reported
}

// Error returns a description that quotes the input. For
// [ErrReferenceInvalid] it adds what the reference package said, when that
// says more.
func (e *ParseError) Error() string {
	return "imageref: invalid image reference " + strconv.Quote(e.Input) + ": " + e.detail()
}

func (e *ParseError) detail() string {
	d := e.Reason.Error()
	if e.Reason == ErrReferenceInvalid && e.Err != nil && e.Err.Error() != d {
		d += ": " + e.Err.Error()
	}
	return d
}

// Unwrap returns the Reason and the reference package's error, so that both
// errors.Is(err, imageref.ErrTagInvalid) and
// errors.Is(err, reference.ErrReferenceInvalidFormat) hold.
func (e *ParseError) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Reason}
	}
	return []error{e.Reason, e.Err}
}

// classify tells why s, which reference.ParseNormalizedNamed rejected, is
// invalid. It tries each part of the lenient split in a context that is
// valid when the part is: the repository with a tag, the tag and the digest
// after a valid name. The reference package decides each time; nothing here
// reads its error text.
func classify(s string) Reason {
	l := splitLenient(s)
	if l.repository == "" {
		return ErrNameEmpty
	}
	if !accepts(l.repository + ":x") {
		if accepts(strings.ToLower(l.repository) + ":x") {
			return ErrNameUppercase
		}
		return ErrReferenceInvalid
	}
	if l.hasTag && !accepts("x:"+l.tag) {
		return ErrTagInvalid
	}
	if l.hasDigest && !accepts("x@"+l.digest) {
		return ErrDigestInvalid
	}
	return ErrReferenceInvalid
}

func accepts(s string) bool {
	_, err := reference.ParseNormalizedNamed(s)
	return err == nil
}
