// Package imageref parses container image references as Docker reads them,
// and splits them as the KiCI orchestrator does.
//
// # References
//
// [Parse] accepts what Docker accepts, as
// github.com/distribution/reference.ParseNormalizedNamed decides it:
//
//	reference        := repository [ ":" tag ] [ "@" digest ]
//	repository       := [ domain "/" ] path-component { "/" path-component }
//	domain           := host [ ":" port-number ]
//	host             := domain-name | IPv4address | "[" IPv6address "]"
//	domain-name      := domain-component { "." domain-component }
//	domain-component := /([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])/
//	port-number      := /[0-9]+/
//	path-component   := alpha-numeric { separator alpha-numeric }
//	alpha-numeric    := /[a-z0-9]+/
//	separator        := /[_.]|__|[-]+/
//	tag              := /[\w][\w.-]{0,127}/
//	digest           := algorithm ":" hex    ; e.g. sha256 and 64 hex digits
//
// The path (the repository after its domain, "library/kici-agent" for
// "kici-agent") is at most 255 bytes long, and a digest as long as its
// algorithm makes it; the domain has no limit.
//
// A repository with a single path component and no domain is a Docker Hub
// "familiar" name: "kici-agent" is docker.io/library/kici-agent. Its path
// must be lower case; the whole string must not be a bare 64-hex identifier.
//
// [Parse] then splits the string the way the KiCI orchestrator does, without
// normalising it: the digest starts at the first "@", and a ":" after the
// last "/" of what precedes it starts the tag (a ":" before that "/" is a
// registry port). So [Ref.Repository] is the repository exactly as written,
// and [Ref.String] gives back the input. [Ref.Name] and [Ref.FamiliarName]
// give the normalised and the familiar forms.
//
// [Split] is the orchestrator's own lenient split (its parseImageRef), of
// any string, valid or not: what its messages print is read with it.
// [IsAgentImage] tells the KiCI agent image from any other.
//
// The checks that read these references in a scaler config are in package
// github.com/kicikit/kicikit/preflight; imageref imports no YAML reader and
// no Docker API types, only github.com/distribution/reference (and its
// go-digest), whose grammar it follows.
//
// # Which orchestrator
//
// The grammar is distribution/reference's (v0.6.0, the version go.mod
// requires), which the Docker Engine and the orchestrator's container
// runtime both accept. [Split] and [IsAgentImage] are the orchestrator
// 0.20.0's parseImageRef and isAgentImage, as the seed (its compiled code,
// 0.18.0 to 0.20.0) shows them in kici-admin's upgrade check. No public
// source of those two functions exists to follow: the repository
// kici-dev/kici-public holds kici-admin's upgrade command, but no file of
// it at any commit the index stores (0b46a9a5a27836be8b5af7a5e0c806592d3b5d6d,
// of the 0.12.0 line, is the newest; the older v0.1.x line included)
// defines them, so the seed is the only authority. Neither line changes
// how a reference is read; what differs between them for a reader of
// image findings, the default pull policy, is said in package preflight.
//
// The package is pure: it reads no files, no environment and no clock.
package imageref
