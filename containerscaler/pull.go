package containerscaler

import (
	"context"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/moby/moby/api/pkg/authconfig"
	"github.com/moby/moby/api/types/registry"
	"github.com/moby/moby/client"
)

// pull makes the pull a plan calls for (pullImageIfMissing in
// container-runtime.ts, at 221047e): none for Never; for IfNotPresent, a
// pull when the image inspect fails for any reason; always for Always.
func (b *Backend) pull(ctx context.Context, p agentspawn.Pull, agentID string) error {
	switch p := p.(type) {
	case agentspawn.NoPull:
		return nil
	case agentspawn.PullIfMissing:
		if _, err := b.engine.ImageInspect(ctx, p.Image); err == nil {
			return nil
		}
		return b.pullImage(ctx, p.Image, p.Auth, agentID)
	case agentspawn.PullAlways:
		return b.pullImage(ctx, p.Image, p.Auth, agentID)
	default:
		panic("containerscaler: unexpected pull type")
	}
}

// pullImage pulls image, with auth's credentials when not nil, and waits
// for the pull to end: a failure the Engine reports in the pull's stream
// fails it. It reports the pull as agentID's event, unless agentID is "".
func (b *Backend) pullImage(ctx context.Context, image string, auth *registry.AuthConfig, agentID string) error {
	if err := context.Cause(ctx); err != nil {
		return err // a spawn past its deadline starts no pull
	}
	if agentID != "" {
		b.emit(agentID, EventProvisioning, "pulling image "+image)
	}
	var opts client.ImagePullOptions
	if auth != nil {
		enc, err := authconfig.Encode(*auth)
		if err != nil {
			return err
		}
		opts.RegistryAuth = enc
	}
	resp, err := b.engine.ImagePull(ctx, image, opts)
	if err != nil {
		return step("pull image "+image, err)
	}
	defer resp.Close()
	return step("pull image "+image, resp.Wait(ctx))
}
