package containerscaler

import (
	"context"
	"net/netip"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/kicikit/kicikit/agentspawn"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/client"
)

// bridgeOf returns the bridge interface of the network id on the Engine's
// host: its com.docker.network.bridge.name option, else br- and its id's
// first 12 characters, as the Engine names it. It refuses a network the
// rules cannot hold: one that is not a bridge, that has IPv6, or whose
// IPv4 subnets are not the isolated network's one, with its gateway. It
// makes the bridge forward LLDP-addressed frames ([forwardLinkLocal]).
func bridgeOf(ctx context.Context, engine client.APIClient, scaler, id string) (string, error) {
	info, err := engine.NetworkInspect(ctx, id, client.NetworkInspectOptions{})
	if err != nil {
		return "", step("inspect network "+agentspawn.IsolatedNetwork, err)
	}
	n := info.Network
	switch {
	case n.Driver != "bridge":
		return "", &Error{Reason: ErrNetworkDriver, Scaler: scaler, Driver: n.Driver}
	case n.EnableIPv6:
		return "", &Error{Reason: ErrNetworkIPv6, Scaler: scaler}
	}
	subnet, gateway := netip.MustParsePrefix(agentspawn.IsolatedNetworkSubnet), netip.MustParseAddr(agentspawn.IsolatedNetworkGateway)
	for _, c := range n.IPAM.Config {
		if c.Subnet != subnet || c.Gateway.IsValid() && c.Gateway != gateway {
			return "", &Error{Reason: ErrNetworkSubnet, Scaler: scaler, Subnet: c.Subnet, Gateway: c.Gateway}
		}
	}
	bridge := bridgeName(id, n.Options)
	if err := forwardLinkLocal(bridge); err != nil {
		return "", step("make bridge "+bridge+" of "+agentspawn.IsolatedNetwork+" forward LLDP-addressed frames "+
			"(the backend runs in the network namespace of the Engine's bridges)", err)
	}
	return bridge, nil
}

// bridgeName is the bridge interface the Engine makes for a bridge network
// of that id and those options.
func bridgeName(id string, options map[string]string) string {
	if name := options["com.docker.network.bridge.name"]; name != "" {
		return name
	}
	return "br-" + shortID(id)
}

// ensureNetwork finds the isolated network or creates it, as the
// orchestrator's ensureIsolatedNetwork does, and returns its id. A create
// that loses to a concurrent creator takes the winner's network: the
// Engine answers that race with 409, or, before API 1.44, with 403 "Pool
// overlaps with other one on this address space" (the orchestrator takes
// only the 409). A 403 after which no network of the name shows is another
// network on the subnet: its error is returned.
func ensureNetwork(ctx context.Context, engine client.APIClient, scaler string) (string, error) {
	return ensureNamedNetwork(ctx, engine, scaler, agentspawn.IsolatedNetwork, networkCreateOptions())
}

// ensureNamedNetwork is ensureNetwork of the network name, created with
// opts when missing.
func ensureNamedNetwork(ctx context.Context, engine client.APIClient, scaler, name string, opts client.NetworkCreateOptions) (string, error) {
	if id, err := findNetwork(ctx, engine, name); id != "" || err != nil {
		return id, err
	}
	created, err := engine.NetworkCreate(ctx, name, opts)
	if err == nil {
		return created.ID, nil
	}
	if !lostCreateRace(err) {
		return "", step("create network "+name, err)
	}
	// The winner's network shows in a listing a moment after its address
	// pool is taken, which is what refuses the loser on an older Engine.
	for wait := 10 * time.Millisecond; wait <= 2*time.Second; wait *= 2 {
		if id, err := findNetwork(ctx, engine, name); id != "" || err != nil {
			return id, err
		}
		select {
		case <-ctx.Done():
			return "", context.Cause(ctx)
		case <-time.After(wait):
		}
	}
	if cerrdefs.IsPermissionDenied(err) {
		return "", step("create network "+name, err) // another network holds the subnet: no race at all
	}
	return "", &Error{Reason: ErrNetworkRace, Scaler: scaler}
}

// findNetwork returns the id of the network named exactly name, or "": the
// Engine's name filter matches any name that contains the one asked for.
func findNetwork(ctx context.Context, engine client.APIClient, name string) (string, error) {
	list, err := engine.NetworkList(ctx, client.NetworkListOptions{
		Filters: make(client.Filters).Add("name", name),
	})
	if err != nil {
		return "", step("list networks", err)
	}
	for _, n := range list.Items {
		if n.Name == name {
			return n.ID, nil
		}
	}
	return "", nil
}

// networkCreateOptions is the isolated network's create request: a bridge
// on [agentspawn.IsolatedNetworkSubnet] with its gateway, labelled as the
// backend's.
func networkCreateOptions() client.NetworkCreateOptions {
	return client.NetworkCreateOptions{
		Driver: "bridge",
		IPAM: &network.IPAM{Config: []network.IPAMConfig{{
			Subnet:  netip.MustParsePrefix(agentspawn.IsolatedNetworkSubnet),
			Gateway: netip.MustParseAddr(agentspawn.IsolatedNetworkGateway),
		}}},
		Labels: map[string]string{agentspawn.LabelManaged: "true"},
	}
}

// lostCreateRace reports whether a network create failed because another
// creator made the network first.
func lostCreateRace(err error) bool {
	return cerrdefs.IsConflict(err) ||
		cerrdefs.IsPermissionDenied(err) && strings.Contains(err.Error(), "Pool overlaps with other one on this address space")
}
