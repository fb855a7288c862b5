package agentspawn

import "github.com/moby/moby/api/types/registry"

// Pull is what the container backend does about the image before it creates
// the container. It is one of [NoPull], [PullIfMissing] and [PullAlways].
// Take it apart with a type switch.
//
//sumtype:decl
type Pull interface{ pull() }

// NoPull is imagePullPolicy Never: the host must already have the image. The
// backend never pulls it, as on an air-gapped host or for an image built
// locally.
type NoPull struct {
	// Image is the image the container is created from.
	Image string
}

// PullIfMissing is imagePullPolicy IfNotPresent, the default, and every
// job's own image. The backend inspects the image, and pulls it only when
// the host does not have it.
type PullIfMissing struct {
	// Image is the image to inspect, and to pull when the host lacks it.
	Image string
	// Auth is the registry credentials to pull with; nil pulls
	// anonymously. Only a job's image has them.
	Auth *registry.AuthConfig
}

// PullAlways is imagePullPolicy Always: the backend pulls the image before
// every spawn. A label set on a moving tag sets it.
type PullAlways struct {
	// Image is the image to pull.
	Image string
	// Auth is the registry credentials to pull with; nil pulls
	// anonymously. The label set's own image never has them.
	Auth *registry.AuthConfig
}

func (NoPull) pull()        {}
func (PullIfMissing) pull() {}
func (PullAlways) pull()    {}
