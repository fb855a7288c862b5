// This file is distribution/reference's grammar written out by hand.
// Why: imageref.Parse is what a program calls in a loop over every image
// it holds. kici-preflight checks each label set's image on every run, as
// a pre-commit hook and in CI. The grammar checks a reference without
// allocating, in a small part of the time the reference package's regular
// expressions take (bench/README.md, the ParseImage table).
// FuzzParseDifferential and the reference package's own test strings hold
// the two to the same answers.

package imageref

import (
	// go-digest accepts an algorithm only when its hash is linked in:
	// these make sha256, sha384 and sha512 available, as encodedSize
	// assumes.
	_ "crypto/sha256"
	_ "crypto/sha512"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/distribution/reference"
	"github.com/opencontainers/go-digest"
)

// The grammar that reference.ParseNormalizedNamed
// (github.com/distribution/reference v0.6.0) accepts. The productions are
// those of its regexp.go:
//
//	reference           := name [ ":" tag ] [ "@" digest ]
//	name                := [ domain-and-port "/" ] remote-name
//	domain-and-port     := host [ ":" port-number ]
//	host                := domain-name | ipv6-address
//	domain-name         := domain-component { "." domain-component }
//	domain-component    := /[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]/
//	ipv6-address        := "[" /[a-fA-F0-9:]+/ "]"
//	port-number         := /[0-9]+/
//	remote-name         := path-component { "/" path-component }
//	path-component      := alpha-numeric { separator alpha-numeric }
//	alpha-numeric       := /[a-z0-9]+/
//	separator           := /[_.]|__|[-]+/
//	tag                 := /[\w][\w.-]{0,127}/
//	digest              := algorithm ":" encoded
//	algorithm           := algorithm-component { /[-_+.]/ algorithm-component }
//	algorithm-component := /[A-Za-z][A-Za-z0-9]*/
//	encoded             := /[0-9a-fA-F]{32,}/
//	identifier          := /[a-f0-9]{64}/
//
// A domain-name includes IPv4 addresses ("127.0.0.1"). ParseNormalizedNamed
// takes these steps on a string s:
//
//  1. s must not be an identifier.
//  2. It splits s into a domain and a remainder (reference's
//     splitDockerDomain, [normalize] here): with no "/", docker.io and
//     "library/" + s; a first element "localhost" or one with a ".", a ":"
//     or upper case is the domain and the rest the remainder, except that
//     "index.docker.io" becomes docker.io; any other first element is part
//     of the remainder, s, under docker.io. A docker.io remainder with no
//     "/" gets "library/" in front.
//  3. The remainder up to its first ":" must not change in lower case.
//  4. domain + "/" + remainder must match reference (when it does not, the
//     error says whether its lower case would). Its first element is the
//     domain-and-port when it is one, else the first path-component; the
//     path is the name after that domain, or the whole name.
//  5. The path is at most 255 bytes long.
//  6. go-digest validates the digest: its algorithm is sha256, sha384 or
//     sha512, followed by 64, 96 or 128 lower-case hexadecimal digits.
//
// Each production is a function named after it that returns the length of
// its longest match at the start of its argument, 0 when there is none (no
// production matches ""). The longest match is the only one that can be
// followed by what follows the production in the grammar, so a whole match
// is a longest match that leaves nothing, or the right delimiter, behind.

// valid reports whether reference.ParseNormalizedNamed accepts s.
func valid(s string) bool {
	_, ok := accept(s)
	return ok
}

// accept reports whether reference.ParseNormalizedNamed accepts s, and
// returns its tag and digest when it does. It takes the steps above without
// allocating, and skips step 3: a string that matches reference has upper
// case only in its domain-and-port and its tag, and the remainder up to its
// first ":" holds neither.
func accept(s string) (match, bool) {
	if isIdentifier(s) {
		return match{}, false
	}
	m, ok := normalize(s).match()
	return m, ok && m.pathLen <= maxPath && (m.digest == "" || validateDigest(m.digest) == nil)
}

// normalizedNamedError returns the error reference.ParseNormalizedNamed
// returns for s, nil when it accepts s: the steps above, by hand. Its
// errors are the reference package's and go-digest's sentinels, or errors
// with the same text. It reads s a few times over at most, never with a
// regular expression; it allocates only to lower-case a string that does not
// match reference but has upper case or bytes beyond ASCII.
func normalizedNamedError(s string) error {
	if isIdentifier(s) {
		return fmt.Errorf("invalid repository name (%s), cannot specify 64-byte hexadecimal strings", s)
	}
	n := normalize(s)
	if remote, _, _ := strings.Cut(n.remainder, ":"); changesInLowerCase(remote) {
		return lowercaseError{official: n.official, remote: remote}
	}
	m, ok := n.match()
	switch {
	case !ok && n.lower().matches():
		return reference.ErrNameContainsUppercase
	case !ok:
		return reference.ErrReferenceInvalidFormat
	case m.pathLen > maxPath:
		return reference.ErrNameTooLong
	case m.digest != "":
		return validateDigest(m.digest)
	}
	return nil
}

// lowercaseError is the error of step 3. Its text, like the one
// ParseNormalizedNamed builds, holds the remote name, which may be most of
// the input: it is built only when read.
type lowercaseError struct {
	official bool   // the remote name is "library/" + remote
	remote   string // as written
}

func (e lowercaseError) Error() string {
	prefix := ""
	if e.official {
		prefix = officialRepoPrefix
	}
	return "invalid reference format: repository name (" + prefix + e.remote + ") must be lowercase"
}

// normalized is a string split as step 2 splits it: the reference to
// match is domain + "/" + remainder, with "library/" before the remainder
// when official is set.
type normalized struct {
	domain, remainder string
	official          bool
}

// normalize is step 2, reference's splitDockerDomain.
func normalize(s string) normalized {
	first, rest, ok := strings.Cut(s, "/")
	var n normalized
	switch {
	case !ok:
		return normalized{domain: defaultDomain, remainder: s, official: true}
	case first == localhost:
		n = normalized{domain: first, remainder: rest}
	case first == legacyDefaultDomain:
		n = normalized{domain: defaultDomain, remainder: rest}
	case strings.IndexByte(first, '.') >= 0 || strings.IndexByte(first, ':') >= 0 || changesInLowerCase(first):
		n = normalized{domain: first, remainder: rest}
	default:
		n = normalized{domain: defaultDomain, remainder: s}
	}
	n.official = n.domain == defaultDomain && !strings.Contains(n.remainder, "/")
	return n
}

// lower returns n with its domain and remainder in lower case: the split of
// the lower-cased reference, since lower case never adds or moves a "/".
func (n normalized) lower() normalized {
	return normalized{domain: strings.ToLower(n.domain), remainder: strings.ToLower(n.remainder), official: n.official}
}

// match is what step 4 reads from a reference it matches.
type match struct {
	pathLen     int    // the length of the path, "library/" included
	tag, digest string // "" when there is none
}

// ref returns the Ref of s, a reference that matched as m: a valid
// reference ends in its tag and digest.
func (m match) ref(s string) Ref {
	r := Ref{Repository: s, Tag: m.tag, Digest: m.digest}
	if m.digest != "" {
		r.Repository = r.Repository[:len(r.Repository)-len("@")-len(m.digest)]
	}
	if m.tag != "" {
		r.Repository = r.Repository[:len(r.Repository)-len(":")-len(m.tag)]
	}
	return r
}

// match is step 4: it reports whether the reference n stands for matches
// reference, and reads its path's length, tag and digest.
func (n normalized) match() (match, bool) {
	m, ok := matchTail(n.remainder)
	if n.official {
		// "library/" is a path-component and its "/".
		m.pathLen += len(officialRepoPrefix)
	}
	switch {
	case !ok:
		return m, false
	case isDomainAndPort(n.domain):
	case isPathComponent(n.domain):
		m.pathLen += len(n.domain) + len("/")
	default:
		return m, false
	}
	return m, true
}

// matches reports whether the reference n stands for matches reference.
func (n normalized) matches() bool {
	_, ok := n.match()
	return ok
}

// matchTail matches s, all of it, against remote-name [ ":" tag ]
// [ "@" digest ]: what follows the first element's "/" in a reference.
func matchTail(s string) (match, bool) {
	n := remoteNameLen(s)
	m := match{pathLen: n}
	if n == 0 {
		return m, false
	}
	rest := s[n:]
	if after, ok := strings.CutPrefix(rest, ":"); ok {
		n := tagLen(after)
		m.tag, rest = after[:n], after[n:]
		if n == 0 {
			return m, false
		}
	}
	if after, ok := strings.CutPrefix(rest, "@"); ok {
		n := digestLen(after)
		m.digest, rest = after[:n], after[n:]
		if n == 0 {
			return m, false
		}
	}
	return m, rest == ""
}

// isDomainAndPort reports whether all of s is a domain-and-port.
func isDomainAndPort(s string) bool {
	return s != "" && domainAndPortLen(s) == len(s)
}

// isPathComponent reports whether all of s is a path-component.
func isPathComponent(s string) bool {
	return s != "" && pathComponentLen(s) == len(s)
}

// isIdentifier reports whether all of s is an identifier, 64 lower-case
// hexadecimal digits: an image ID, which is not a reference.
func isIdentifier(s string) bool {
	return len(s) == 64 && lowerHexLen(s) == 64
}

// changesInLowerCase reports whether strings.ToLower(s) != s, without
// building the lower-case string: whether s has a rune that lower case
// changes, or a byte that is not UTF-8, which ToLower replaces with U+FFFD.
func changesInLowerCase(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unicode.ToLower(r) != r {
			return true
		}
		i += size
	}
	return false
}

func domainAndPortLen(s string) int {
	n := hostLen(s)
	if n == 0 || n == len(s) || s[n] != ':' {
		return n
	}
	if p := portNumberLen(s[n+1:]); p > 0 {
		return n + 1 + p
	}
	return n
}

func hostLen(s string) int {
	if strings.HasPrefix(s, "[") {
		return ipv6AddressLen(s)
	}
	return domainNameLen(s)
}

func domainNameLen(s string) int {
	return listLen(s, domainComponentLen, ".")
}

func domainComponentLen(s string) int {
	n := 0 // the longest match: up to the last letter or digit of the run
	for i := 0; i < len(s) && (isAlphaNumeric(s[i]) || i > 0 && s[i] == '-'); i++ {
		if s[i] != '-' {
			n = i + 1
		}
	}
	return n
}

func ipv6AddressLen(s string) int {
	i := 1 // after "["
	for i < len(s) && (isHexDigit(s[i]) || s[i] == ':') {
		i++
	}
	if i == 1 || i == len(s) || s[i] != ']' {
		return 0
	}
	return i + 1
}

func portNumberLen(s string) int {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

func remoteNameLen(s string) int {
	return listLen(s, pathComponentLen, "/")
}

func pathComponentLen(s string) int {
	n := alphaNumericLen(s)
	for n > 0 {
		sep := separatorLen(s[n:])
		if sep == 0 {
			break
		}
		a := alphaNumericLen(s[n+sep:])
		if a == 0 {
			break
		}
		n += sep + a
	}
	return n
}

// listLen returns the length of the longest match at the start of s of
// the productions' commonest shape, item { separator item }, where a
// separator is one of the bytes of separators.
func listLen(s string, item func(string) int, separators string) int {
	n := item(s)
	for n > 0 && n < len(s) && strings.IndexByte(separators, s[n]) >= 0 {
		c := item(s[n+1:])
		if c == 0 {
			break
		}
		n += 1 + c
	}
	return n
}

func alphaNumericLen(s string) int {
	i := 0
	for i < len(s) && ('a' <= s[i] && s[i] <= 'z' || '0' <= s[i] && s[i] <= '9') {
		i++
	}
	return i
}

func separatorLen(s string) int {
	switch {
	case strings.HasPrefix(s, "__"):
		return 2
	case strings.HasPrefix(s, "_"), strings.HasPrefix(s, "."):
		return 1
	}
	i := 0
	for i < len(s) && s[i] == '-' {
		i++
	}
	return i
}

func tagLen(s string) int {
	if s == "" || !isWord(s[0]) {
		return 0
	}
	i := 1
	for i < len(s) && i < maxTag && (isWord(s[i]) || s[i] == '.' || s[i] == '-') {
		i++
	}
	return i
}

func digestLen(s string) int {
	n := algorithmLen(s)
	if n == 0 || n == len(s) || s[n] != ':' {
		return 0
	}
	e := encodedLen(s[n+1:])
	if e == 0 {
		return 0
	}
	return n + 1 + e
}

func algorithmLen(s string) int {
	return listLen(s, algorithmComponentLen, "-_+.")
}

func algorithmComponentLen(s string) int {
	if s == "" || !isLetter(s[0]) {
		return 0
	}
	i := 1
	for i < len(s) && isAlphaNumeric(s[i]) {
		i++
	}
	return i
}

func encodedLen(s string) int {
	i := 0
	for i < len(s) && isHexDigit(s[i]) {
		i++
	}
	if i < 32 {
		return 0
	}
	return i
}

// validateDigest is go-digest's Digest.Validate: it returns nil for a
// digest of an available algorithm with an encoded part of the right form,
// else go-digest's error. Unlike go-digest, it reads an unknown algorithm's
// digest without a regular expression.
func validateDigest(d string) error {
	i := strings.IndexByte(d, ':')
	if i <= 0 || i+1 == len(d) {
		return digest.ErrDigestInvalidFormat
	}
	size := encodedSize(d[:i])
	switch encoded := d[i+1:]; {
	case size == 0 && goDigestLen(d) == len(d):
		return digest.ErrDigestUnsupported
	case size == 0:
		return digest.ErrDigestInvalidFormat
	case len(encoded) != size:
		return digest.ErrDigestInvalidLength
	case lowerHexLen(encoded) != size:
		return digest.ErrDigestInvalidFormat
	}
	return nil
}

// encodedSize returns the number of lower-case hexadecimal digits that
// follow algorithm in a digest go-digest accepts, or 0 when go-digest does
// not accept the algorithm: it knows these three, and each is available
// since this package links its hash in.
func encodedSize(algorithm string) int {
	switch algorithm {
	case string(digest.SHA256):
		return 64
	case string(digest.SHA384):
		return 96
	case string(digest.SHA512):
		return 128
	}
	return 0
}

// goDigestLen returns the length of the longest match at the start of s of
// go-digest's DigestRegexp, which it checks a digest of an algorithm it does
// not know against:
//
//	[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+
func goDigestLen(s string) int {
	n := listLen(s, alphaNumericLen, ".+_-")
	if n == 0 || n == len(s) || s[n] != ':' {
		return 0
	}
	e := n + 1
	for e < len(s) && (isAlphaNumeric(s[e]) || strings.IndexByte("=_-", s[e]) >= 0) {
		e++
	}
	if e == n+1 {
		return 0
	}
	return e
}

func lowerHexLen(s string) int {
	i := 0
	for i < len(s) && ('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
		i++
	}
	return i
}

// isAlphaNumeric reports whether c is an ASCII letter or digit.
func isAlphaNumeric(c byte) bool {
	return isLetter(c) || '0' <= c && c <= '9'
}

// isLetter reports whether c is an ASCII letter.
func isLetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// isWord reports whether c is in the regular expressions' \w: an ASCII
// letter or digit, or "_".
func isWord(c byte) bool {
	return isAlphaNumeric(c) || c == '_'
}

// isHexDigit reports whether c is a hexadecimal digit, in either case.
func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
