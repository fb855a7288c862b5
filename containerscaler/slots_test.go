package containerscaler

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSlotsFirstComeFirstServed: waiters get slots in the order they
// asked, and a waiter that gives up is skipped.
func TestSlotsFirstComeFirstServed(t *testing.T) {
	t.Parallel()
	s := newSlots(1)
	require.NoError(t, s.acquire(context.Background()))
	order := make(chan int, 3)
	gaveUp, cancel := context.WithCancelCause(context.Background())
	quit := errors.New("gave up")
	for i := range 3 {
		ctx := context.Background()
		if i == 1 {
			ctx = gaveUp
		}
		go func() {
			if err := s.acquire(ctx); err != nil {
				assert.Equal(t, quit, err)
				order <- -i
				return
			}
			order <- i
			s.release()
		}()
		waitFor(t, func() bool { s.mu.Lock(); defer s.mu.Unlock(); return len(s.waiting) == i+1 })
	}
	cancel(quit)
	assert.Equal(t, -1, <-order)
	s.release()
	assert.Equal(t, 0, <-order)
	assert.Equal(t, 2, <-order)
	s.mu.Lock()
	defer s.mu.Unlock()
	assert.Equal(t, 1, s.free)
}

func TestSlotsAtLeastOne(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 1, newSlots(0).free)
	assert.Equal(t, 1, newSlots(-3).free)
	assert.Equal(t, 8, newSlots(8).free)
}

// TestSlotsHandoverOnCancel: a slot handed to a waiter whose context ends
// at the same moment goes on to the next waiter, not lost.
func TestSlotsHandoverOnCancel(t *testing.T) {
	t.Parallel()
	for range 200 {
		s := newSlots(1)
		require.NoError(t, s.acquire(context.Background()))
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() { done <- s.acquire(ctx) }()
		waitFor(t, func() bool { s.mu.Lock(); defer s.mu.Unlock(); return len(s.waiting) == 1 })
		go cancel()
		s.release()
		if err := <-done; err == nil {
			s.release()
		}
		require.NoError(t, s.acquire(context.Background()), "the slot is free again")
	}
}

// waitFor waits until cond holds, and fails t when it does not within 30 s.
func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second) // an Engine on a loaded machine takes seconds
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 30s")
		}
		time.Sleep(time.Millisecond)
	}
}
