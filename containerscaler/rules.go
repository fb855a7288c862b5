package containerscaler

import (
	"context"
	"net/netip"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/moby/moby/client"
)

// applyRules replaces the rules of iso.Addr with iso's, in one nft
// transaction, and records a as the address's holder.
func (b *Backend) applyRules(a *agent, iso agentspawn.Isolation) error {
	b.table.mu.Lock()
	defer b.table.mu.Unlock()
	b.table.owners[iso.Addr] = a
	return b.nft.transact(applyScript(iso))
}

// removeRules removes the rules of addr, in one nft transaction, unless
// another agent of the process holds the address now: a spawn torn down
// late must not strip the rules of the container that took its address.
func (b *Backend) removeRules(a *agent, addr netip.Addr) error {
	b.table.mu.Lock()
	defer b.table.mu.Unlock()
	if owner, ok := b.table.owners[addr]; ok && owner != a {
		return nil
	}
	delete(b.table.owners, addr)
	return b.nft.transact(removeScript([]netip.Addr{addr}, nil))
}

// reapRules removes the rules of every address on the isolated network that
// no container holds (reapUnownedIsolationRules in container-backend.ts, at
// 221047e): not the process's agents, nor any kici-managed container on
// the Engine, whatever its scaler. It
// returns the rules it removed; none, and no error, when the Engine's
// listing fails. It also removes such an address's rules of the
// orchestrator's own layout, which a host it ran on may still hold, from
// both forward and input (the orchestrator sweeps forward only).
func (b *Backend) reapRules(ctx context.Context) (int, error) {
	if !b.isolation {
		return 0, nil
	}
	list, err := b.engine.ContainerList(ctx, client.ContainerListOptions{
		All: true, Filters: make(client.Filters).Add("label", agentspawn.LabelManaged+"=true"),
	})
	if err != nil {
		return 0, nil
	}
	live := map[string]bool{}
	for _, c := range list.Items {
		if ns := c.NetworkSettings; ns != nil && ns.Networks[agentspawn.IsolatedNetwork] != nil {
			if ip := ns.Networks[agentspawn.IsolatedNetwork].IPAddress; ip.IsValid() {
				live[ip.String()] = true
			}
		}
	}
	b.table.mu.Lock()
	defer b.table.mu.Unlock()
	for addr := range b.table.owners {
		live[addr.String()] = true
	}
	out, err := b.nft.run("", "-j", "list", "table", "ip", "kici")
	if err != nil {
		return 0, err
	}
	rs, err := parseRuleset(out)
	if err != nil {
		return 0, err
	}
	addrs, legacy, n := rs.stale(live)
	if len(addrs) == 0 && len(legacy) == 0 {
		return 0, nil
	}
	if err := b.nft.transact(removeScript(addrs, legacy)); err != nil {
		return 0, err
	}
	return n, nil
}
