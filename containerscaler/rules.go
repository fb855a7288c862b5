package containerscaler

import (
	"context"
	"errors"
	"net/netip"
	"slices"
	"strings"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/kicikit/kicikit/agentspawn"
	"github.com/moby/moby/client"
)

// nftAttempts bounds how often a spawn, or the sweep, lists the table and
// tries its transaction again, when another backend changed the table
// between the two.
const nftAttempts = 3

// owner is how agent-owners names a container: its id's first ownerLen
// characters.
func owner(containerID string) string {
	return containerID[:min(len(containerID), ownerLen)]
}

// list runs an nft listing, in JSON; a table or set that does not exist
// lists as empty.
func (b *Backend) list(what ...string) ([]byte, error) {
	out, err := b.nft.run("", append([]string{"-j", "list"}, what...)...)
	var ce *CommandError
	if errors.As(err, &ce) && strings.Contains(ce.Stderr, "Error: No such file or directory") {
		return []byte(`{"nftables": []}`), nil
	}
	return out, step("list "+strings.Join(what, " "), err)
}

// listTable reads table ip kici.
func (b *Backend) listTable() (tableState, error) {
	out, err := b.list("table", "ip", "kici")
	if err != nil {
		return tableState{}, err
	}
	st, err := parseTable(out)
	return st, step("read table ip kici", err)
}

// listBindings reads the bridge table's bindings.
func (b *Backend) listBindings() ([]boundPort, error) {
	out, err := b.list("set", "bridge", "kici", bindingsSet)
	if err != nil {
		return nil, err
	}
	list, err := parseBindings(out)
	return list, step("read set bridge kici "+bindingsSet, err)
}

// bind writes the rules of a container's address and binds the address to
// its port, in one transaction, which names the bridge the container is
// on. It clears the orchestrator's own rules of
// the address in the same one. When another container owns the address's
// rules, it takes them over if that container no longer holds the address
// ([Backend.holds]), and fails with [ErrAddressTaken], writing nothing, if
// it does. A transaction that fails because another backend changed the
// table meanwhile is tried again on a fresh listing.
func (b *Backend) bind(ctx context.Context, agentID, containerID, bridge string, bd binding, iso agentspawn.Isolation) error {
	var err error
	for range nftAttempts {
		var st tableState
		if st, err = b.listTable(); err != nil {
			return err
		}
		var s script
		s.table(bridge)
		if err = b.takeOver(ctx, &s, st, agentID, containerID, bd.addr); err != nil {
			return err
		}
		s.bind(owner(containerID), bd, iso)
		s.dropLegacy(st.legacy[bd.addr.String()])
		if err = b.nft.transact(s.String()); err == nil {
			return nil
		}
	}
	return step("write the rules of "+bd.addr.String(), err)
}

// takeOver adds to s the release of what another container holds at addr,
// when it holds it no longer; it fails with [ErrAddressTaken] when it
// does.
func (b *Backend) takeOver(ctx context.Context, s *script, st tableState, agentID, containerID string, addr netip.Addr) error {
	other, owned := st.owners[addr]
	_, chains := st.rules[addr]
	if owned && other == owner(containerID) || !owned && !chains {
		return nil
	}
	if owned {
		live, err := b.holds(ctx, other, addr)
		if err != nil {
			return err
		}
		if live {
			return &Error{Reason: ErrAddressTaken, Scaler: b.name, Agent: agentID, Container: containerID, Addr: addr, Holder: other}
		}
	}
	ports, err := b.listBindings()
	if err != nil {
		return err
	}
	ports = slices.DeleteFunc(ports, func(p boundPort) bool { return p.addr != addr })
	s.release(other, addr, ports, true)
	return nil
}

// holds reports whether the container id (or id prefix) runs and holds
// addr on the isolated network, as the Engine sees it now.
func (b *Backend) holds(ctx context.Context, id string, addr netip.Addr) (bool, error) {
	info, err := b.engine.ContainerInspect(ctx, id, client.ContainerInspectOptions{})
	if cerrdefs.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, step("inspect container "+shortID(id), err)
	}
	c := info.Container
	return c.State != nil && c.State.Running && addressOf(c.NetworkSettings) == addr, nil
}

// release removes the rules a container owns at its address, and its
// port's binding, in one transaction. Rules another container owns by now
// are not its own and stay: that is no error.
func (b *Backend) release(containerID string, bd binding) error {
	var s script
	s.table("")
	s.release(owner(containerID), bd.addr, []boundPort{bd.bound()}, false)
	err := b.nft.transact(s.String())
	if err == nil {
		return nil
	}
	if st, lerr := b.listTable(); lerr == nil && st.owners[bd.addr] != owner(containerID) {
		return nil // taken over: what it owned went with the takeover
	}
	return step("remove the rules of "+bd.addr.String(), err)
}
