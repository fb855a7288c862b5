package enginetest_test

import (
	"context"
	"net/http"
	"testing"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/enginetest"
)

// TestLateAnswers: a held answer is the Engine's, given before what
// happened since: the container it reports is gone by the time the client
// reads it. A released hold holds nothing more.
func TestLateAnswers(t *testing.T) {
	t.Parallel()
	c := enginetest.Engine(t)
	var late enginetest.LateAnswers
	lc := enginetest.EngineWith(t, late.Wrap)
	image := ref("enginetest-late")
	enginetest.JobImage(t, c, image)
	created, err := c.ContainerCreate(context.Background(), client.ContainerCreateOptions{Config: &container.Config{Image: image}})
	require.NoError(t, err)
	hold := late.Hold(enginetest.On(http.MethodGet, "/containers/*/json"))
	answer := make(chan error, 1)
	go func() {
		info, err := lc.ContainerInspect(context.Background(), created.ID, client.ContainerInspectOptions{})
		if err == nil && info.Container.ID != created.ID {
			err = assert.AnError
		}
		answer <- err
	}()
	<-hold.Held()
	assert.Equal(t, []string{"/containers/" + created.ID + "/json"}, hold.Paths())
	_, err = c.ContainerRemove(context.Background(), created.ID, client.ContainerRemoveOptions{Force: true})
	require.NoError(t, err)
	select {
	case err := <-answer:
		t.Fatalf("the answer came before the release: %v", err)
	default:
	}
	hold.Release()
	require.NoError(t, <-answer, "the late answer reports the container as it was")
	_, err = lc.ContainerInspect(context.Background(), created.ID, client.ContainerInspectOptions{})
	assert.True(t, cerrdefs.IsNotFound(err), "released: the next answer is now's: %v", err)
	hold.Release()
}
