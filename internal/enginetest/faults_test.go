package enginetest_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/enginetest"
)

func TestFaultsRecord(t *testing.T) {
	t.Parallel()
	var f enginetest.Faults
	c := enginetest.EngineWith(t, f.Wrap)
	_, err := c.ContainerList(context.Background(), client.ContainerListOptions{})
	require.NoError(t, err)
	_, err = c.ContainerInspect(context.Background(), "enginetest-nonexistent", client.ContainerInspectOptions{})
	assert.True(t, cerrdefs.IsNotFound(err), "the Engine's answer comes through: %v", err)
	assert.Equal(t, []string{"HEAD /_ping", "GET /containers/json", "GET /containers/enginetest-nonexistent/json"}, f.Requests())
}

func TestFaultsHold(t *testing.T) {
	t.Parallel()
	var f enginetest.Faults
	c := enginetest.EngineWith(t, f.Wrap)
	hold := f.Hold(enginetest.On(http.MethodGet, "/containers/json"))
	done := make(chan error)
	go func() {
		_, err := c.ContainerList(context.Background(), client.ContainerListOptions{})
		done <- err
	}()
	<-hold.Arrived()
	select {
	case err := <-done:
		t.Fatalf("the held request returned: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	_, err := c.ImageList(context.Background(), client.ImageListOptions{})
	assert.NoError(t, err, "another request goes through")
	hold.Remove()
	assert.NoError(t, <-done, "the held request goes on to the Engine")
	hold.Remove()
	assert.Equal(t, 1, hold.Hits())
	_, err = c.ContainerList(context.Background(), client.ContainerListOptions{})
	assert.NoError(t, err, "a removed fault holds nothing")
	assert.Equal(t, 1, hold.Hits())
}

func TestFaultsHoldUntilTheContextEnds(t *testing.T) {
	t.Parallel()
	var f enginetest.Faults
	c := enginetest.EngineWith(t, f.Wrap)
	hold := f.Hold(enginetest.On(http.MethodGet, "/images/json"))
	defer hold.Remove()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := c.ImageList(ctx, client.ImageListOptions{})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestFaultsStallPastTheContext(t *testing.T) {
	t.Parallel()
	var f enginetest.Faults
	c := enginetest.EngineWith(t, f.Wrap)
	stall := f.Stall(enginetest.On(http.MethodGet, "/images/json"))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	done := make(chan error)
	go func() {
		_, err := c.ImageList(ctx, client.ImageListOptions{})
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("the stalled request returned: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	stall.Remove()
	assert.ErrorIs(t, <-done, context.DeadlineExceeded, "it goes on to the Engine with its context ended")
}

func TestFaultsFail(t *testing.T) {
	t.Parallel()
	var f enginetest.Faults
	c := enginetest.EngineWith(t, f.Wrap)
	image := ref("enginetest-fail")
	enginetest.JobImage(t, c, image)
	boom := errors.New("boom")
	tests := []struct {
		name  string
		fault func(enginetest.Match) *enginetest.Fault
		check func(t *testing.T, err error)
	}{
		{"status", func(m enginetest.Match) *enginetest.Fault {
			return f.Fail(m, http.StatusInternalServerError, "injected")
		},
			func(t *testing.T, err error) {
				assert.True(t, cerrdefs.IsInternal(err), "%v", err)
				assert.ErrorContains(t, err, "injected")
			}},
		{"conflict", func(m enginetest.Match) *enginetest.Fault { return f.Fail(m, http.StatusConflict, "in use") },
			func(t *testing.T, err error) { assert.True(t, cerrdefs.IsConflict(err), "%v", err) }},
		{"transport", func(m enginetest.Match) *enginetest.Fault { return f.FailWith(m, boom) },
			func(t *testing.T, err error) { assert.ErrorIs(t, err, boom) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "enginetest-" + tt.name + "-" + ref("x")[2:]
			fault := tt.fault(enginetest.On(http.MethodPost, "/containers/create"))
			_, err := c.ContainerCreate(context.Background(), client.ContainerCreateOptions{Config: &container.Config{Image: image}, Name: name})
			tt.check(t, err)
			fault.Remove()
			_, err = c.ContainerInspect(context.Background(), name, client.ContainerInspectOptions{})
			assert.True(t, cerrdefs.IsNotFound(err), "the Engine never saw the create: %v", err)
		})
	}
}

func TestFaultsWithoutTransport(t *testing.T) {
	var f enginetest.Faults
	resp, err := f.RoundTrip(httptest.NewRequest(http.MethodGet, "/_ping", nil))
	assert.Nil(t, resp)
	assert.ErrorContains(t, err, "EngineWith(t, f.Wrap)")
	assert.Equal(t, []string{"GET /_ping"}, f.Requests())
}
