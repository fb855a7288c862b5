package containerscaler

import (
	"context"
	"errors"
	"sync"

	"github.com/moby/moby/client"
)

// Destroy ends an agent, as the orchestrator's destroy does: it stops
// counting the agent at once, stops its container (10 s), removes it, and
// removes its rules. It returns once the container is gone, or could not
// be removed; a second Destroy of the agent waits for the first and
// returns the same. An unknown agent, or a container already gone, is no
// error. What the Engine or nft refused is: the removals that failed,
// joined, each also an [EventCleanupFailed]. A Destroy during the agent's
// spawn ends that spawn, wherever it is, with [ErrTornDown]; the spawn
// removes what it made, and Destroy returns once it has.
//
// The rules go after the container, and only those its container owns:
// the orchestrator removes them first, leaving the container unfiltered
// while it stops, and can remove those of the next container on its
// address. The removal is not cut short when ctx ends: an agent's
// container goes whatever the caller's deadline, as no later call could
// find it.
func (b *Backend) Destroy(ctx context.Context, agentID string) error {
	b.mu.Lock()
	a := b.agents[agentID]
	if a == nil {
		a = b.leavingByID(agentID)
		b.mu.Unlock()
		if a == nil {
			return nil
		}
		<-a.gone
		return a.err
	}
	delete(b.agents, agentID)
	b.leaving[a] = struct{}{}
	a.destroyed = true
	running, id, bd := a.running, a.container, a.bound
	if !running {
		a.cancel(b.errTornDown(a))
	}
	b.mu.Unlock()
	if !running {
		<-a.gone // its spawn unwinds
		return a.err
	}
	err := b.teardown(context.WithoutCancel(ctx), a.id, id, bd)
	b.end(a, err)
	return err
}

// leavingByID is the agent of that id that Destroy ended and is not yet
// gone; nil when there is none. b.mu is held.
func (b *Backend) leavingByID(agentID string) *agent {
	for a := range b.leaving {
		if a.id == agentID {
			return a
		}
	}
	return nil
}

// teardown stops and removes a running agent's container, then releases
// its rules; it returns what could not be removed. A container that
// cannot be removed keeps its rules.
func (b *Backend) teardown(ctx context.Context, agentID, id string, bd binding) error {
	ctx, cancel := context.WithTimeout(ctx, cleanupTimeout)
	defer cancel()
	timeout := stopSeconds
	// A stop that fails is no failure: the forced removal that follows
	// ends the container all the same, or says why it cannot.
	_, _ = b.engine.ContainerStop(ctx, id, client.ContainerStopOptions{Timeout: &timeout})
	if err := b.remove(ctx, id); err != nil {
		return b.reportCleanup(agentID, err)
	}
	if !bd.addr.IsValid() {
		return nil
	}
	return b.reportCleanup(agentID, b.release(id, bd))
}

// ShutdownAll destroys every agent at once, and returns when all are gone,
// spawns under way included once they have unwound, and those another
// Destroy ends. It returns what its destroys could not remove, joined; or,
// when ctx ends first, ctx's cause too, the destroys going on.
func (b *Backend) ShutdownAll(ctx context.Context) error {
	var errs []error
	for {
		b.mu.Lock()
		ids := make([]string, 0, len(b.agents))
		for id := range b.agents {
			ids = append(ids, id)
		}
		leaving := make([]*agent, 0, len(b.leaving))
		for a := range b.leaving {
			leaving = append(leaving, a)
		}
		b.mu.Unlock()
		if len(ids) == 0 && len(leaving) == 0 {
			return errors.Join(errs...)
		}
		destroyed, ok := b.destroyAll(ctx, ids)
		errs = append(errs, destroyed...)
		if !ok || !waitGone(ctx, leaving) {
			return errors.Join(append(errs, context.Cause(ctx))...)
		}
	}
}

// destroyAll destroys the agents ids at once, and returns their errors;
// false when ctx ended first.
func (b *Backend) destroyAll(ctx context.Context, ids []string) ([]error, bool) {
	var wg sync.WaitGroup
	errs := make([]error, len(ids))
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = b.Destroy(ctx, id)
		}()
	}
	destroyed := make(chan struct{})
	go func() { wg.Wait(); close(destroyed) }()
	select {
	case <-destroyed:
		return errs, true
	case <-ctx.Done():
		return nil, false
	}
}

// waitGone waits for the agents to be gone; false when ctx ended first.
func waitGone(ctx context.Context, agents []*agent) bool {
	for _, a := range agents {
		select {
		case <-a.gone:
		case <-ctx.Done():
			return false
		}
	}
	return true
}
