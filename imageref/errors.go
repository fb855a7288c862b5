package imageref

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/distribution/reference"

	"github.com/kicikit/kicikit/internal/errtext"
)

// Reason is why a string is not a valid image reference. Each Reason is an
// error value. A caller branches on it with errors.Is:
//
//	if errors.Is(err, imageref.ErrNameUppercase) { … }
//
// [Parse] works the reason out itself. The reference package reports some
// of these only as plain text, such as an upper-case familiar name. Some it
// does not report at all: a bad tag is an "invalid reference format". The
// zero Reason is not one of them and is never reported.
type Reason uint8

// The reasons a string is not a valid image reference. When several parts
// are wrong, the first in reading order is reported: the repository, then
// the tag, then the digest.
const (
	// ErrNameEmpty means the repository is empty. The input is "", or
	// starts with ":" or "@".
	ErrNameEmpty Reason = iota + 1
	// ErrNameUppercase means the repository's path has upper-case letters
	// but would be a valid name in lower case. A registry host may have
	// them.
	ErrNameUppercase
	// ErrTagInvalid means the tag is not 1 to 128 ASCII letters, digits,
	// "_", "." or "-". It must start with a letter, digit or "_". An empty
	// tag ("kici-agent:") is invalid too.
	ErrTagInvalid
	// ErrDigestInvalid means the digest is malformed, of the wrong length
	// for its algorithm, or of an unsupported algorithm. The supported ones
	// are sha256, sha384 and sha512.
	ErrDigestInvalid
	// ErrReferenceInvalid means the reference is invalid for another
	// reason. The repository name may be malformed or longer than 255
	// characters. The input may be a bare 64-hex identifier. Or its parts
	// may not fit together.
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
	// Err is the error reference.ParseNormalizedNamed returns for Input.
	// It is one of that package's or go-digest's sentinels, which
	// errors.Is matches, or an error with the same text. When a part of
	// Input is longer than any valid reference's, Parse works Err out
	// without the reference package, with the same result.
	Err error
}

// Error returns "imageref.Parse(<input>): <reason>". The input is quoted,
// cut to its first 64 bytes, with its length when it is longer. For
// [ErrReferenceInvalid] it adds what made the repository invalid, when
// known: a path too long, or a bare 64-hex image ID.
func (e *ParseError) Error() string {
	return "imageref.Parse(" + errtext.Quote(e.Input) + "): " + e.Detail()
}

// Detail returns why the input is invalid, as [ParseError.Error] writes it
// after the input. Examples are "invalid tag" and "invalid reference
// format: repository name must not be more than 255 characters". It never
// quotes the input. So a caller can show the input in its own way.
func (e *ParseError) Detail() string {
	d := e.Reason.Error()
	if e.Reason != ErrReferenceInvalid {
		return d
	}
	// The reference package's own text is not repeated: some of it quotes
	// the whole input, unbounded.
	switch {
	case errors.Is(e.Err, reference.ErrNameTooLong):
		return d + ": " + reference.ErrNameTooLong.Error()
	case isIdentifier(e.Input):
		return d + ": 64 hexadecimal digits name an image by its ID, not a repository"
	}
	return d
}

// Unwrap returns the Reason and the reference package's error. So both
// errors.Is(err, imageref.ErrTagInvalid) and
// errors.Is(err, reference.ErrReferenceInvalidFormat) hold.
func (e *ParseError) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Reason}
	}
	return []error{e.Reason, e.Err}
}

// The longest each part of a valid reference can be. The registry has no
// limit in the grammar, so an input of any length may be valid.
const (
	// maxPath bounds the repository's path, after the registry, as the
	// reference package normalises it ("kici-agent" is
	// "library/kici-agent"): never shorter than the path as written.
	maxPath = reference.RepositoryNameTotalLengthMax
	// maxTag is the tag's limit: a word character and up to 127 more.
	maxTag = 128
	// maxDigest is the longest digest of the algorithms the reference
	// package's go-digest supports: sha512, 128 hexadecimal digits.
	maxDigest = len("sha512:") + 128
)

// minPathLen returns a length that the path of repository, as the
// reference package reads it, is never shorter than: what follows the first
// element when that may be a registry, else the whole repository.
func minPathLen(repository string) int {
	if first, rest, ok := strings.Cut(repository, "/"); ok && mayBeRegistry(first) {
		return len(rest)
	}
	return len(repository)
}

// mayBeRegistry reports whether the reference package may read first, the
// first element of a repository with more than one, as a registry. It never
// does when first is not "localhost" and has only lower-case ASCII letters,
// digits, "_" and "-": a ".", a ":" or upper case marks a registry.
func mayBeRegistry(first string) bool {
	if first == localhost {
		return true
	}
	for i := range len(first) {
		if c := first[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' && c != '-' {
			return true
		}
	}
	return false
}

// pathOf returns repository after its first "/", or all of it when it has
// none: never longer than its path, whatever the first element is.
func pathOf(repository string) string {
	if _, path, ok := strings.Cut(repository, "/"); ok {
		return path
	}
	return repository
}

// tooLong reports whether a part of l, the repository's path, the tag or
// the digest, is longer than that part of any valid reference. It reads
// lengths only.
func tooLong(l Parts) bool {
	return minPathLen(l.Repository) > maxPath || len(l.Tag) > maxTag || len(l.Digest) > maxDigest
}

// classify tells why the reference split as l, which accepts rejects, is
// invalid; accepts reports whether reference.ParseNormalizedNamed accepts a
// string, as [valid] does. classify tries each part of the lenient split in
// a context that is valid when the part is: the repository with a tag, the
// tag and the digest after a valid name. accepts decides each time;
// nothing here reads an error's text. A part longer than the grammar allows
// is invalid without asking.
func classify(l Parts, accepts func(string) bool) Reason {
	switch {
	case l.Repository == "":
		return ErrNameEmpty
	case !validName(l.Repository, accepts):
		// Lower case gives every rune at least one byte, so a path of more
		// runes than maxPath stays too long in lower case.
		if utf8.RuneCountInString(pathOf(l.Repository)) <= maxPath && validName(strings.ToLower(l.Repository), accepts) {
			return ErrNameUppercase
		}
		return ErrReferenceInvalid
	case l.HasTag && (len(l.Tag) > maxTag || !accepts("x:"+l.Tag)):
		return ErrTagInvalid
	case l.HasDigest && (len(l.Digest) > maxDigest || !accepts("x@"+l.Digest)):
		return ErrDigestInvalid
	}
	return ErrReferenceInvalid
}

// validName reports whether accepts takes name as a repository.
func validName(name string, accepts func(string) bool) bool {
	return minPathLen(name) <= maxPath && accepts(name+":x")
}
