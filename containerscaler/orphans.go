package containerscaler

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/kicikit/kicikit/agentspawn"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"
)

// CleanupOrphans removes this scaler's orphaned containers and the stale
// rules of the isolated network. The orchestrator's cleanupOrphans does so
// at start (container-backend.ts, at 221047e). It lists the containers
// labelled kici-managed=true and this scaler's name. It spares those it
// runs, and the running ones whose agent IsRegistered. It stops (5 s) and
// removes the rest, at most 16 at once. Then it removes the rules whose
// owner no longer holds their address: its container is gone, stopped, or
// elsewhere. It returns the containers and rules removed, and what it
// could not list or remove, joined (each removal also an
// [EventCleanupFailed] of the container's agent).
func (b *Backend) CleanupOrphans(ctx context.Context) (int, error) {
	list, err := b.engine.ContainerList(ctx, client.ContainerListOptions{All: true, Filters: b.labels()})
	if err != nil {
		return 0, step("list containers", err)
	}
	b.mu.Lock()
	tracked := make(map[string]bool, len(b.agents)+len(b.leaving))
	for id := range b.agents {
		tracked[id] = true
	}
	for a := range b.leaving {
		tracked[a.id] = true
	}
	b.mu.Unlock()
	removed, errs := b.removeOrphans(ctx, orphans(list.Items, func(id string) bool { return tracked[id] }, b.registered))
	n, err := b.sweepRules(ctx)
	return removed + n, errors.Join(append(errs, err)...)
}

// orphansAtOnce bounds the orphans stopped and removed at once: the
// orchestrator removes them all at once, which a host that left a
// thousand would feel.
const orphansAtOnce = 16

// removeOrphans stops and removes the containers, orphansAtOnce at a time,
// and returns how many it removed and what it could not remove.
func (b *Backend) removeOrphans(ctx context.Context, orphans []container.Summary) (int, []error) {
	var removed atomic.Int64
	errs := make([]error, len(orphans))
	var wg sync.WaitGroup
	at := make(chan struct{}, orphansAtOnce)
	for i, c := range orphans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			at <- struct{}{}
			defer func() { <-at }()
			timeout := orphanStopSeconds
			_, _ = b.engine.ContainerStop(ctx, c.ID, client.ContainerStopOptions{Timeout: &timeout})
			if errs[i] = b.reportCleanup(c.Labels[agentspawn.LabelAgentID], b.remove(ctx, c.ID)); errs[i] == nil {
				removed.Add(1)
			}
		}()
	}
	wg.Wait()
	return int(removed.Load()), errs
}

// orphans returns the containers of a listing that no agent owns: those
// whose agent the backend does not track, unless they run an agent that
// has registered (or name none).
func orphans(items []container.Summary, tracked, registered func(agentID string) bool) []container.Summary {
	var list []container.Summary
	for _, c := range items {
		agentID := c.Labels[agentspawn.LabelAgentID]
		if agentID != "" && tracked(agentID) {
			continue
		}
		if c.State == container.StateRunning && (agentID == "" || registered(agentID)) {
			continue
		}
		list = append(list, c)
	}
	return list
}

// ReapUnowned removes the containers of one agent id of this scaler, as
// the orchestrator's reapUnowned does when it refuses an agent's
// registration, without a stop and whether or not the backend tracks the
// agent. It reports whether it removed one. A failed listing removes
// none; it and each removal that fails are an [EventCleanupFailed].
func (b *Backend) ReapUnowned(ctx context.Context, agentID string) bool {
	list, err := b.engine.ContainerList(ctx, client.ContainerListOptions{
		All: true, Filters: b.labels().Add("label", agentspawn.LabelAgentID+"="+agentID),
	})
	if err != nil {
		_ = b.reportCleanup(agentID, step("list containers", err))
		return false
	}
	reaped := false
	for _, c := range list.Items {
		_, err := b.engine.ContainerRemove(ctx, c.ID, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
		if err == nil {
			reaped = true
		} else {
			_ = b.reportCleanup(agentID, step("remove container "+shortID(c.ID), err))
		}
	}
	return reaped
}

// removeNamed removes the container a spawn's create may have made though
// its answer was lost: the container of that name, if it is this
// scaler's and agent's. Names, unlike clocks, agree across hosts.
func (b *Backend) removeNamed(ctx context.Context, agentID, name string) error {
	info, err := b.engine.ContainerInspect(ctx, name, client.ContainerInspectOptions{})
	if cerrdefs.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return step("inspect container "+name, err)
	}
	c := info.Container
	if c.Config == nil || c.Config.Labels[agentspawn.LabelAgentID] != agentID || c.Config.Labels[agentspawn.LabelScaler] != b.name {
		return nil
	}
	return b.remove(ctx, c.ID)
}

// labels is the filter of this scaler's containers.
func (b *Backend) labels() client.Filters {
	return make(client.Filters).Add("label", agentspawn.LabelManaged+"=true", agentspawn.LabelScaler+"="+b.name)
}

// sweepRules removes the rules whose owner no longer holds their address,
// as the orchestrator's reapUnownedIsolationRules does for its own layout
// (container-backend.ts, at 221047e), and returns how many rules it
// removed. Owners are read before the Engine's listing, so that a spawn's
// rules read there belong to a container the listing shows. None go, and
// no error, when that listing fails. It also removes chains and bindings
// that no owner holds, and the orchestrator's own rules, in its forward
// and input chains, of addresses on the isolated network that no
// container holds. One transaction removes them all; it is tried again on
// a fresh listing when another backend changed the table meanwhile.
func (b *Backend) sweepRules(ctx context.Context) (int, error) {
	if !b.isolation {
		return 0, nil
	}
	var err error
	for range nftAttempts {
		st, lerr := b.listTable()
		var ports []boundPort
		if lerr == nil {
			ports, lerr = b.listBindings()
		}
		if lerr != nil {
			return 0, lerr
		}
		held, ok := b.held(ctx)
		if !ok {
			return 0, nil
		}
		s, n := sweepScript(st, ports, held)
		if n < 0 {
			return 0, nil
		}
		if err = b.nft.transact(s); err == nil {
			return n, nil
		}
	}
	return 0, step("remove stale rules", err)
}

// held returns the owner of each address a kici-managed container holds on
// the isolated network, whatever its scaler; false when the listing
// fails.
func (b *Backend) held(ctx context.Context) (map[netip.Addr]string, bool) {
	list, err := b.engine.ContainerList(ctx, client.ContainerListOptions{
		All: true, Filters: make(client.Filters).Add("label", agentspawn.LabelManaged+"=true"),
	})
	if err != nil {
		return nil, false
	}
	held := map[netip.Addr]string{}
	for _, c := range list.Items {
		if ns := c.NetworkSettings; ns != nil && ns.Networks[agentspawn.IsolatedNetwork] != nil {
			if ip := ns.Networks[agentspawn.IsolatedNetwork].IPAddress; ip.IsValid() {
				held[ip] = owner(c.ID)
			}
		}
	}
	return held, true
}

// staleAddrs returns the addresses whose rules or bindings are stale, each
// with its owner ("" for none): an owner whose container does not hold
// the address, and chains or bindings that no owner holds.
func staleAddrs(st tableState, ports []boundPort, held map[netip.Addr]string) map[netip.Addr]string {
	stale := map[netip.Addr]string{}
	for addr, o := range st.owners {
		if held[addr] != o {
			stale[addr] = o
		}
	}
	for addr := range st.rules {
		if _, owned := st.owners[addr]; !owned {
			stale[addr] = ""
		}
	}
	for _, p := range ports {
		if _, owned := st.owners[p.addr]; !owned {
			stale[p.addr] = ""
		}
	}
	return stale
}

// sweepScript is the transaction that removes what no container holds,
// and the number of rules it removes; -1 when there is nothing to remove.
// An owner's rules are stale unless its container holds their address. An
// address's chains and bindings without an owner are stale too. The
// orchestrator's own rules of an address on the isolated network are
// stale unless a container holds the address; on the isolated network
// means, as the orchestrator tests it, that its text starts as the
// subnet's does ("172.30.").
func sweepScript(st tableState, ports []boundPort, held map[netip.Addr]string) (string, int) {
	stale := staleAddrs(st, ports, held)
	var s script
	s.table("")
	n := 0
	for _, addr := range slices.SortedFunc(maps.Keys(stale), netip.Addr.Compare) {
		var mine []boundPort
		for _, p := range ports {
			if p.addr == addr {
				mine = append(mine, p)
			}
		}
		s.release(stale[addr], addr, mine, false)
		n += st.rules[addr]
	}
	var legacy []legacyRule
	for id, rules := range st.legacy {
		if a, err := netip.ParseAddr(id); strings.HasPrefix(id, "172.30.") && (err != nil || held[a] == "") {
			legacy = append(legacy, rules...)
		}
	}
	slices.SortFunc(legacy, func(x, y legacyRule) int {
		return cmp.Or(strings.Compare(x.chain, y.chain), cmp.Compare(x.handle, y.handle))
	})
	s.dropLegacy(legacy)
	n += len(legacy)
	if len(stale) == 0 && n == 0 {
		return "", -1
	}
	return s.String(), n
}
