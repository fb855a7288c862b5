package agentspawn

import "github.com/moby/moby/api/types/registry"

// Pull is what the container backend does about the image before it
// creates the container: one of [NoPull], [PullIfMissing] and [PullAlways].
// Take it apart with a type switch.
//
//sumtype:decl
type Pull interface{ pull() }

// NoPull is imagePullPolicy Never: the host must already have the image;
// the backend never pulls it (an air-gapped host, an image built locally).
type NoPull struct {
	// Image is the image the container is created from.
	Image string
}

// PullIfMissing is imagePullPolicy IfNotPresent, the default, and every
// job's own image: inspect the image, and pull it only when the host does
// not have it.
type PullIfMissing struct {
	// Image is the image to inspect, and to pull when the host lacks it.
	Image string
	// Auth is the registry credentials to pull with; nil pulls
	// anonymously. Only a job's image has them.
	Auth *registry.AuthConfig
}

// PullAlways is imagePullPolicy Always: pull the image before every spawn,
// for a label set on a moving tag.
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
