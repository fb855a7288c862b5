package containerscaler

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFillsShareOne: spawns that need one volume at once share one fill,
// and all get its result.
func TestFillsShareOne(t *testing.T) {
	t.Parallel()
	var f fills
	var runs atomic.Int32
	release := make(chan struct{})
	fail := errors.New("copy failed")
	run := func(context.Context) error {
		runs.Add(1)
		<-release
		return fail
	}
	errs := make(chan error, 3)
	for range 3 {
		go func() { errs <- f.await(context.Background(), "v", run) }()
	}
	waitFor(t, func() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.m["v"] != nil && f.m["v"].waiters == 3 })
	close(release)
	for range 3 {
		assert.Equal(t, fail, <-errs)
	}
	assert.Equal(t, int32(1), runs.Load())
	f.mu.Lock()
	defer f.mu.Unlock()
	assert.Empty(t, f.m, "a settled fill is forgotten, so that the next spawn fills afresh")
}

// TestFillsLastWaiterCancels: a fill goes on while one spawn waits for it,
// and is cancelled, with the last one's cause, when none is left.
func TestFillsLastWaiterCancels(t *testing.T) {
	t.Parallel()
	var f fills
	cause := make(chan error, 1)
	run := func(ctx context.Context) error {
		<-ctx.Done()
		cause <- context.Cause(ctx)
		return context.Cause(ctx)
	}
	first, cancelFirst := context.WithCancelCause(context.Background())
	second, cancelSecond := context.WithCancelCause(context.Background())
	errs := make(chan error, 2)
	go func() { errs <- f.await(first, "v", run) }()
	waitFor(t, func() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.m["v"] != nil })
	go func() { errs <- f.await(second, "v", run) }()
	waitFor(t, func() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.m["v"].waiters == 2 })
	one, two := errors.New("first gave up"), errors.New("second gave up")
	cancelFirst(one)
	assert.Equal(t, one, <-errs)
	select {
	case <-cause:
		t.Fatal("the fill was cancelled while a spawn still waited for it")
	default:
	}
	cancelSecond(two)
	assert.Equal(t, two, <-errs)
	assert.Equal(t, two, <-cause)
}

// TestFillsAfterAbandon: the last spawn to leave a fill waits for it to
// unwind; a spawn that arrives meanwhile waits for it too, then fills
// afresh.
func TestFillsAfterAbandon(t *testing.T) {
	t.Parallel()
	var f fills
	unwinding := make(chan struct{})
	finish := make(chan struct{})
	var runs atomic.Int32
	run := func(ctx context.Context) error {
		if runs.Add(1) == 1 {
			<-ctx.Done()
			close(unwinding)
			<-finish
			return context.Cause(ctx)
		}
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() { first <- f.await(ctx, "v", run) }()
	waitFor(t, func() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.m["v"] != nil })
	cancel()
	<-unwinding
	select {
	case <-first:
		t.Fatal("the last spawn to leave returned before the fill unwound")
	case <-time.After(50 * time.Millisecond):
	}
	second := make(chan error, 1)
	go func() { second <- f.await(context.Background(), "v", run) }()
	close(finish)
	require.ErrorIs(t, <-first, context.Canceled)
	assert.NoError(t, <-second)
	assert.Equal(t, int32(2), runs.Load())
}
