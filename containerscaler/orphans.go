package containerscaler

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"
)

// CleanupOrphans removes this scaler's orphaned containers and the stale
// rules of the isolated network. The orchestrator's cleanupOrphans does so
// at start (container-backend.ts, at 221047e). It lists the containers
// labelled kici-managed=true and this scaler's name. It spares those it
// runs, and the running ones whose agent IsRegistered. It stops (5 s) and
// removes the rest, at once. Then it removes the rules of every address on
// the isolated network that no kici-managed container on the Engine holds.
// It returns the containers and rules removed, and the listing's error, or
// nft's.
func (b *Backend) CleanupOrphans(ctx context.Context) (int, error) {
	list, err := b.engine.ContainerList(ctx, client.ContainerListOptions{
		All: true, Filters: b.labels(),
	})
	if err != nil {
		return 0, err
	}
	b.mu.Lock()
	tracked := make(map[string]bool, len(b.agents))
	for id := range b.agents {
		tracked[id] = true
	}
	b.mu.Unlock()
	ids := orphans(list.Items, func(id string) bool { return tracked[id] }, b.registered)
	var removed atomic.Int64
	var wg sync.WaitGroup
	at := make(chan struct{}, orphansAtOnce)
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			at <- struct{}{}
			defer func() { <-at }()
			timeout := 5
			_, _ = b.engine.ContainerStop(ctx, id, client.ContainerStopOptions{Timeout: &timeout})
			if b.remove(ctx, id) == nil {
				removed.Add(1)
			}
		}()
	}
	wg.Wait()
	n, err := b.reapRules(ctx)
	return int(removed.Load()) + n, err
}

// orphansAtOnce bounds the orphans stopped and removed at once: the
// orchestrator removes them all at once, which a host that left a
// thousand would feel.
const orphansAtOnce = 16

// orphans returns the containers of a listing that no agent owns: those
// whose agent the backend does not track, unless they run an agent that
// has registered (or name none).
func orphans(items []container.Summary, tracked, registered func(agentID string) bool) []string {
	var ids []string
	for _, c := range items {
		agentID := c.Labels[agentspawn.LabelAgentID]
		if agentID != "" && tracked(agentID) {
			continue
		}
		if c.State == container.StateRunning && (agentID == "" || registered(agentID)) {
			continue
		}
		ids = append(ids, c.ID)
	}
	return ids
}

// ReapUnowned removes the containers of one agent id of this scaler, as
// the orchestrator's reapUnowned does when it refuses an agent's
// registration, without a stop and whether or not the backend tracks the
// agent. It reports whether it removed one; a failed listing removes none.
func (b *Backend) ReapUnowned(ctx context.Context, agentID string) bool {
	return b.reap(ctx, agentID, time.Time{})
}

// reap removes the containers labelled with this scaler's name and agentID
// that were created since then (zero: any).
func (b *Backend) reap(ctx context.Context, agentID string, since time.Time) bool {
	list, err := b.engine.ContainerList(ctx, client.ContainerListOptions{
		All: true, Filters: b.labels().Add("label", agentspawn.LabelAgentID+"="+agentID),
	})
	if err != nil {
		return false
	}
	reaped := false
	for _, c := range list.Items {
		if c.Created < since.Unix()-1 {
			continue // the Engine's time is in seconds
		}
		if _, err := b.engine.ContainerRemove(ctx, c.ID, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true}); err == nil {
			reaped = true
		}
	}
	return reaped
}

// reapAfter removes the container a spawn's create may have made, its
// answer lost: this agent's, created since the create was sent, unless
// another spawn of the agent id is under way, whose it could be.
func (b *Backend) reapAfter(ctx context.Context, a *agent, since time.Time) {
	b.mu.Lock()
	other := b.agents[a.id]
	b.mu.Unlock()
	if other == nil || other == a {
		b.reap(ctx, a.id, since)
	}
}

// labels is the filter of this scaler's containers.
func (b *Backend) labels() client.Filters {
	return make(client.Filters).Add("label", agentspawn.LabelManaged+"=true", agentspawn.LabelScaler+"="+b.name)
}
