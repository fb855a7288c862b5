package containerscaler

import (
	"context"
	"errors"
	"sync"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
)

// Destroy ends an agent, as the orchestrator's destroy does: it stops
// counting the agent at once, removes its address's rules, stops its
// container (10 s) and removes it, and returns once the container is
// gone. An unknown agent, or a container already gone, is no error; what
// the Engine or nft refuses is. A Destroy during the agent's spawn makes
// that spawn fail with [ErrTornDown] and remove its own container.
//
// The removal is not cut short when ctx ends: an agent's container goes
// whatever the caller's deadline, as no later call could find it.
func (b *Backend) Destroy(ctx context.Context, agentID string) error {
	b.mu.Lock()
	a := b.agents[agentID]
	if a == nil {
		b.mu.Unlock()
		return nil
	}
	delete(b.agents, agentID)
	a.tornDown = !a.running
	id, addr := a.container, a.addr
	b.mu.Unlock()
	var errs []error
	if addr.IsValid() {
		// Before the stop: the address is not free for another container
		// until this one has stopped.
		errs = append(errs, b.removeRules(a, addr))
	}
	if id == "" {
		return errors.Join(errs...) // its spawn removes what its create returns
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	timeout := 10
	_, _ = b.engine.ContainerStop(ctx, id, client.ContainerStopOptions{Timeout: &timeout})
	if _, err := b.engine.ContainerRemove(ctx, id, client.ContainerRemoveOptions{Force: true}); err != nil && !cerrdefs.IsNotFound(err) {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// ShutdownAll destroys every agent at once, and returns when all are gone,
// spawns under way included once they have unwound; or when ctx ends, the
// destroys going on.
func (b *Backend) ShutdownAll(ctx context.Context) {
	b.mu.Lock()
	ids := make([]string, 0, len(b.agents))
	for id := range b.agents {
		ids = append(ids, id)
	}
	b.mu.Unlock()
	destroyed := make(chan struct{})
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = b.Destroy(ctx, id)
		}()
	}
	go func() { wg.Wait(); close(destroyed) }()
	select {
	case <-destroyed:
	case <-ctx.Done():
		return
	}
	b.mu.Lock()
	var spawns []*agent
	for a := range b.workers {
		spawns = append(spawns, a)
	}
	b.mu.Unlock()
	for _, a := range spawns {
		select {
		case <-a.done:
		case <-ctx.Done():
			return
		}
	}
}
