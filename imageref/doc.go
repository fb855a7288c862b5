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
// The path is the repository after its domain: "library/kici-agent" for
// "kici-agent". It is at most 255 bytes long. A digest is as long as its
// algorithm makes it. The domain has no limit.
//
// A repository with a single path component and no domain is a Docker Hub
// "familiar" name: "kici-agent" is docker.io/library/kici-agent. Its path
// must be lower case. The whole string must not be a bare 64-hex
// identifier.
//
// # How a reference splits
//
// [Parse] then splits the string as the KiCI orchestrator does, without
// normalising it:
//
//	digest   everything after the first "@"
//	tag      after the last ":" before the digest, unless a "/" follows it
//	         (a ":" before the last "/" is a registry port)
//
// So [Ref.Repository] is the repository exactly as written, and
// [Ref.String] gives back the input. [Ref.Name] and [Ref.FamiliarName] give
// the normalised and the familiar forms.
//
// [Split] is the orchestrator's own lenient split (its parseImageRef), of
// any string, valid or not. The orchestrator's messages print the parts it
// gives. [IsAgentImage] tells the KiCI agent image from any other.
//
// # Cost
//
// Parse checks a reference against the grammar written out by hand
// (grammar.go). It accepts exactly what the reference package accepts. A
// valid reference costs a few passes over its bytes and no allocation. For
// an invalid one, Parse asks the reference package for its error. When a
// path, tag or digest is longer than any valid reference's, it works that
// error out by hand as well, so no regular expression reads a long input.
//
// The checks that read these references in a scaler config are in package
// github.com/kicikit/kicikit/preflight. imageref imports no YAML reader and
// no Docker API types. It imports only github.com/distribution/reference
// (and its go-digest), whose grammar it follows.
//
// # Which orchestrator
//
// The grammar is distribution/reference's, at v0.6.0, the version go.mod
// requires. The Docker Engine and the orchestrator's container runtime
// both accept it. [Split] and [IsAgentImage] are the orchestrator 0.20.0's
// parseImageRef and isAgentImage. The seed (its compiled code, 0.18.0 to
// 0.20.0) shows them in kici-admin's upgrade check.
//
// No public source of those two functions exists to follow. The repository
// kici-dev/kici-public holds kici-admin's upgrade command. But no file of
// it defines them at any commit the index stores. Those include the older
// v0.1.x line, 0b46a9a (the 0.12.0 line), and the newer b83305d (0.13.0),
// b9d436e (0.14.0), 221047e (0.15.0) and 84ac3cd (0.16.0). So the seed is
// the only authority.
//
// The v0.1.x and 0.12.0 lines read a reference alike. They differ in the
// default pull policy, which package preflight describes.
//
// The package is pure: it reads no files, no environment and no clock.
package imageref
