package enginetest_test

import (
	"context"
	"testing"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/api/pkg/authconfig"
	"github.com/moby/moby/api/types/registry"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/enginetest"
)

// pull pulls image with auth (nil: none).
func pull(c *client.Client, image string, auth *registry.AuthConfig) error {
	opts := client.ImagePullOptions{}
	if auth != nil {
		encoded, err := authconfig.Encode(*auth)
		if err != nil {
			return err
		}
		opts.RegistryAuth = encoded
	}
	resp, err := c.ImagePull(context.Background(), image, opts)
	if err != nil {
		return err
	}
	return resp.Wait(context.Background())
}

func TestPushAndPull(t *testing.T) {
	t.Parallel()
	c := enginetest.Engine(t)
	private, open := enginetest.Registry(t), enginetest.OpenRegistry(t)
	wrong := *private.Auth()
	wrong.Password += "x"
	tests := []struct {
		name     string
		registry enginetest.RegistryInfo
		pull     *registry.AuthConfig
		wantErr  string // "": none
	}{
		{"private with its credentials", private, private.Auth(), ""},
		{"private without credentials", private, nil, "no basic auth credentials"},
		{"private with a wrong password", private, &wrong, "authentication required"},
		{"open", open, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			image := tt.registry.Ref(ref("enginetest/pushed"))
			id := enginetest.JobImage(t, c, image)
			enginetest.Push(t, c, image, tt.registry.Auth())
			_, err := c.ImageInspect(context.Background(), image)
			require.True(t, cerrdefs.IsNotFound(err), "Push removes the local copy: %v", err)

			err = pull(c, image, tt.pull)
			if tt.wantErr != "" {
				assert.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			img, err := c.ImageInspect(context.Background(), image)
			require.NoError(t, err)
			assert.Equal(t, id, img.ID)
		})
	}
}
