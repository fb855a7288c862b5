package containerscaler

import (
	"context"
	"sync"
)

// slots is the spawn semaphore of one backend (the orchestrator's
// SpawnSemaphore): n spawns at once, the others waiting first come, first
// served; a released slot goes straight to the longest waiter.
type slots struct {
	mu      sync.Mutex
	free    int
	waiting []chan struct{}
}

func newSlots(n int) *slots { return &slots{free: max(1, n)} }

// acquire waits for a slot, or returns context.Cause(ctx) when ctx ends
// first.
func (s *slots) acquire(ctx context.Context) error {
	s.mu.Lock()
	if s.free > 0 && len(s.waiting) == 0 {
		s.free--
		s.mu.Unlock()
		return nil
	}
	turn := make(chan struct{})
	s.waiting = append(s.waiting, turn)
	s.mu.Unlock()
	select {
	case <-turn:
		return nil
	case <-ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, w := range s.waiting {
		if w == turn {
			s.waiting = append(s.waiting[:i], s.waiting[i+1:]...)
			return context.Cause(ctx)
		}
	}
	// The slot was handed over as ctx ended: pass it on.
	s.releaseLocked()
	return context.Cause(ctx)
}

// release gives a slot back.
func (s *slots) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.releaseLocked()
}

func (s *slots) releaseLocked() {
	if len(s.waiting) == 0 {
		s.free++
		return
	}
	close(s.waiting[0])
	s.waiting = s.waiting[1:]
}
