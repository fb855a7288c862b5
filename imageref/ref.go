package imageref

import (
	"strings"

	"github.com/distribution/reference"
)

// AgentImageName is the last path element of the KiCI agent image's
// repository, quay.io/kici/kici-agent. It is the same under any registry or
// mirror.
const AgentImageName = "kici-agent"

// LatestTag is the moving tag that a reference without a tag resolves to.
const LatestTag = "latest"

// Ref is an image reference split into its parts, as written. The zero Ref
// is not a valid reference.
type Ref struct {
	Repository string // as written, before any tag and digest
	Tag        string // "" when the reference has no tag
	Digest     string // "" when it has no digest
}

// Parse parses s as an image reference. It accepts what
// reference.ParseNormalizedNamed accepts. It splits s as the package
// documentation describes, keeping the repository as written.
//
// On failure Parse returns the zero Ref and a [*ParseError]. A valid
// reference costs no allocation. No regular expression reads a long input.
func Parse(s string) (Ref, error) {
	r, err := parse(s)
	if err != nil {
		return Ref{}, err
	}
	return r, nil
}

// parse is Parse with the concrete error type.
func parse(s string) (Ref, *ParseError) {
	if m, ok := accept(s); ok {
		return m.ref(s), nil
	}
	l := Split(s)
	var err error
	if tooLong(l) {
		// The reference package's regular expressions would read all of s.
		err = normalizedNamedError(s)
	} else {
		_, err = reference.ParseNormalizedNamed(s)
	}
	return Ref{}, &ParseError{Input: s, Reason: classify(l, valid), Err: err}
}

// MustParse is like [Parse] but panics when s is not a valid reference. It
// is intended for use in tests with hard-coded strings.
func MustParse(s string) Ref {
	r, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return r
}

// String returns the reference as written. That is the Repository, then
// ":" and the Tag when there is one, then "@" and the Digest when there is
// one. For a Ref that [Parse] returned, it is Parse's input.
func (r Ref) String() string {
	s := r.Repository
	if r.Tag != "" {
		s += ":" + r.Tag
	}
	if r.Digest != "" {
		s += "@" + r.Digest
	}
	return s
}

// Domain returns the registry the repository names, as Docker normalises
// it. It is "docker.io" for a Docker Hub name, such as "kici-agent" or
// "index.docker.io/kici/kici-agent". Otherwise it is the first path
// element, such as "quay.io" or "localhost:5000".
//
// Domain is "" when that element looks like a registry but the grammar does
// not read it as one: "a_b.c" in "a_b.c/kici-agent". The reference package
// then keeps the whole name as the path, with no registry.
func (r Ref) Domain() string {
	domain, _ := splitDockerDomain(r.Repository)
	return domain
}

// Path returns the repository without its registry, as Docker normalises
// it. An official Docker Hub image gets its "library/" namespace:
// "library/kici-agent".
func (r Ref) Path() string {
	_, path := splitDockerDomain(r.Repository)
	return path
}

// Name returns the fully qualified repository name: [Ref.Domain] and
// [Ref.Path] joined by "/". When the Domain is "", it is the Path alone.
// For "kici-agent:latest" it is "docker.io/library/kici-agent".
//
// Name equals the Name of what reference.ParseNormalizedNamed returns. For
// a Ref that Parse did not return, Name applies the same rules to
// Repository without checking it.
func (r Ref) Name() string {
	domain, path := splitDockerDomain(r.Repository)
	if domain == "" {
		return path
	}
	return domain + "/" + path
}

// FamiliarName returns the repository name as the Docker command line
// shows it. It drops "docker.io/", and "library/" for an official image.
// So "docker.io/library/kici-agent" is "kici-agent", and
// "index.docker.io/kici/kici-agent" is "kici/kici-agent". It equals
// reference.FamiliarName of the parsed reference.
func (r Ref) FamiliarName() string {
	domain, path := splitDockerDomain(r.Repository)
	switch domain {
	case "":
		return path
	case defaultDomain:
		if rest, ok := strings.CutPrefix(path, officialRepoPrefix); ok && !strings.Contains(rest, "/") {
			return rest
		}
		return path
	}
	return domain + "/" + path
}

// IsAgent reports whether the reference names the KiCI agent image; see
// [IsAgentImage].
func (r Ref) IsAgent() bool {
	return IsAgentImage(r.Repository)
}

// IsAgentImage reports whether repository is the KiCI agent image, from
// quay.io or any mirror. That is, whether its last path element is
// [AgentImageName]. It does not check that repository is a valid name.
func IsAgentImage(repository string) bool {
	return repository[strings.LastIndexByte(repository, '/')+1:] == AgentImageName
}

// Parts is an image string split as the orchestrator splits it, valid or
// not ([Split]). A tag or a digest can be present and empty. So
// "kici-agent:" has the tag "", and HasTag set.
type Parts struct {
	Repository string // everything before the tag and the digest
	Tag        string // after the ":" that starts the tag; "" when none
	Digest     string // after the "@" that starts the digest; "" when none
	HasTag     bool   // the string has a ":" that starts a tag
	HasDigest  bool   // the string has an "@"
}

// Split splits image as the orchestrator's parseImageRef does, without
// validating it. The digest is everything after the first "@". The tag is
// everything after the last ":" before it, unless a "/" follows that ":".
// Such a ":" is a registry port, as in "host:5000/kici-agent".
//
// For a reference that [Parse] accepts, the parts are Parse's. Split never
// fails and does not allocate.
func Split(image string) Parts {
	var l Parts
	named := image
	if at := strings.IndexByte(image, '@'); at >= 0 {
		named, l.Digest, l.HasDigest = image[:at], image[at+1:], true
	}
	l.Repository = named
	if colon := strings.LastIndexByte(named, ':'); colon > strings.LastIndexByte(named, '/') {
		l.Repository, l.Tag, l.HasTag = named[:colon], named[colon+1:], true
	}
	return l
}

// The Docker Hub names of distribution/reference's normalize.go.
const (
	defaultDomain       = "docker.io"
	legacyDefaultDomain = "index.docker.io"
	officialRepoPrefix  = "library/"
	localhost           = "localhost"
)

// splitDockerDomain returns the registry and the path of a repository as
// reference.ParseNormalizedNamed normalises them: the domain and the
// remainder of [normalize], with "library/" in front when it adds that,
// unless the reference grammar does not read the domain as one ("a_b.c" in
// "a_b.c/kici-agent"), and then no registry and the whole repository.
func splitDockerDomain(repository string) (domain, path string) {
	n := normalize(repository)
	switch {
	case !isDomainAndPort(n.domain):
		return "", repository
	case n.official:
		return n.domain, officialRepoPrefix + n.remainder
	}
	return n.domain, n.remainder
}
