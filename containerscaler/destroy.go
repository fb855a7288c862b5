package containerscaler

import (
	"context"
	"sync"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
)

// Destroy ends an agent, as the orchestrator's destroy does: it stops
// counting the agent at once, stops its container (10 s), removes it, and
// removes its address's rules. It returns once the container is gone. An
// unknown agent, or a container already gone, is no error; what the
// Engine or nft refuses is. A Destroy during the agent's spawn ends that
// spawn, wherever it is, with [ErrTornDown]; the spawn removes what it
// made.
//
// The rules go after the container: the orchestrator removes them first,
// leaving the container unfiltered while it stops. The removal is not cut
// short when ctx ends: an agent's container goes whatever the caller's
// deadline, as no later call could find it.
func (b *Backend) Destroy(ctx context.Context, agentID string) error {
	b.mu.Lock()
	a := b.agents[agentID]
	if a == nil {
		b.mu.Unlock()
		return nil
	}
	delete(b.agents, agentID)
	if !a.running {
		a.tornDown = true
		if a.cancel != nil {
			a.cancel(b.tornDown(a))
		}
	}
	id, addr := a.container, a.addr
	b.mu.Unlock()
	if id == "" {
		return nil // its spawn removes what its create returns
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	timeout := 10
	_, _ = b.engine.ContainerStop(ctx, id, client.ContainerStopOptions{Timeout: &timeout})
	if err := b.remove(ctx, id); err != nil {
		return err // the container is there still, and keeps its rules
	}
	if addr.IsValid() {
		return b.removeRules(a, addr)
	}
	return nil
}

// remove removes a container, its anonymous volumes with it; one already
// gone, or being removed, is no error.
func (b *Backend) remove(ctx context.Context, id string) error {
	_, err := b.engine.ContainerRemove(ctx, id, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
	if err != nil && !cerrdefs.IsNotFound(err) && !cerrdefs.IsConflict(err) {
		return err
	}
	return nil
}

// ShutdownAll destroys every agent at once, and returns when all are gone,
// spawns under way included once they have unwound; or when ctx ends, the
// destroys going on.
func (b *Backend) ShutdownAll(ctx context.Context) {
	for {
		b.mu.Lock()
		ids := make([]string, 0, len(b.agents))
		for id := range b.agents {
			ids = append(ids, id)
		}
		spawns := make([]*agent, 0, len(b.workers))
		for a := range b.workers {
			spawns = append(spawns, a)
		}
		b.mu.Unlock()
		if len(ids) == 0 && len(spawns) == 0 {
			return
		}
		if !b.destroyAll(ctx, ids) || !waitAll(ctx, spawns) {
			return
		}
	}
}

// destroyAll destroys the agents ids at once; it reports false when ctx
// ended first.
func (b *Backend) destroyAll(ctx context.Context, ids []string) bool {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = b.Destroy(ctx, id)
		}()
	}
	destroyed := make(chan struct{})
	go func() { wg.Wait(); close(destroyed) }()
	select {
	case <-destroyed:
		return true
	case <-ctx.Done():
		return false
	}
}

// waitAll waits for the spawns to end; it reports false when ctx ended
// first.
func waitAll(ctx context.Context, spawns []*agent) bool {
	for _, a := range spawns {
		select {
		case <-a.done:
		case <-ctx.Done():
			return false
		}
	}
	return true
}
