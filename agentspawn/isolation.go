package agentspawn

import (
	"errors"
	"net/netip"
	"strconv"

	"github.com/kicikit/kicikit/internal/netpolicy"
	"github.com/kicikit/kicikit/scalerconfig"
)

// Isolation is the network isolation of one agent container: the nftables
// rules for packets from its address. The container backend writes them in
// applyIsolationRules (container-backend.ts), with buildIsolationRuleOps and
// buildHostAccessRuleOps of nftables.ts, at 221047e. Each rule is an nft
// rule statement that starts with "ip saddr <Addr>".
type Isolation struct {
	// Addr is the container's address on the isolated network.
	Addr netip.Addr
	// Forward is what the container reaches through the host, head to tail:
	// the gateway, the allowlist, then drops of the private and metadata ranges.
	// A final drop follows under denyAll.
	Forward []string
	// Input is what it reaches on the host itself, head to tail. These are
	// replies to the host's own connections, each hostAccess entry, then a drop.
	Input []string
}

// IsolationInput is what [PlanIsolation] decides from.
type IsolationInput struct {
	// Addr is the container's IPv4 address on [IsolatedNetwork].
	Addr netip.Addr
	// Policy is the label set's networkPolicy; nil when it has none.
	Policy *scalerconfig.NetworkPolicy
	// HostAccess is what the agent may reach on the host: [HostAccess]'s
	// entries.
	HostAccess []string
}

// IsolationError is a network policy that no nftables rule can match.
type IsolationError struct {
	// Field is what is wrong: "addr", "allowlist" or "hostAccess".
	Field string
	// Entry is the address or entry, as written.
	Entry string
	// Err says why, in the orchestrator's words for a hostAccess entry.
	Err error
}

// Error returns the reason, which names the entry.
func (e *IsolationError) Error() string { return e.Err.Error() }

// Unwrap returns e.Err.
func (e *IsolationError) Unwrap() error { return e.Err }

// PlanIsolation returns the rules of one agent container's address. It
// returns an [*IsolationError] for an address that is not IPv4, and for an
// allowlist entry that is not an IPv4 address or CIDR. It does so too for a
// hostAccess entry the orchestrator refuses.
//
// Every address is written in canonical form. So the orchestrator's
// "010.0.0.1", which nft would read as 8.0.0.1, is 10.0.0.1 here. An
// allowlist host name is refused. The package documentation says why.
func PlanIsolation(in IsolationInput) (Isolation, error) {
	if !in.Addr.Is4() {
		return Isolation{}, &IsolationError{Field: "addr", Entry: in.Addr.String(),
			Err: errors.New("agent address " + in.Addr.String() + " is not an IPv4 address")}
	}
	from := "ip saddr " + in.Addr.String() + " "
	iso := Isolation{Addr: in.Addr}
	iso.Forward = append(iso.Forward, from+"ip daddr "+IsolatedNetworkGateway+" accept")
	if in.Policy != nil {
		for _, entry := range in.Policy.Allowlist {
			p, ok := netpolicy.ParseCIDR(entry)
			if !ok {
				return Isolation{}, &IsolationError{Field: "allowlist", Entry: entry,
					Err: errors.New(`allowlist entry "` + entry + `" is not an IPv4 address or an IPv4 CIDR`)}
			}
			iso.Forward = append(iso.Forward, from+"ip daddr "+prefixText(p)+" accept")
		}
	}
	// The private ranges of RFC 1918, then the link-local range of cloud
	// metadata services (nftables.ts's RFC1918_RANGES and METADATA_RANGE).
	for _, r := range [...]string{"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16"} {
		iso.Forward = append(iso.Forward, from+"ip daddr "+r+" drop")
	}
	if in.Policy != nil && in.Policy.DenyAll {
		iso.Forward = append(iso.Forward, from+"drop")
	}
	input, err := inputRules(from, in.HostAccess)
	if err != nil {
		return Isolation{}, err
	}
	iso.Input = input
	return iso, nil
}

// inputRules returns the input rules of the hostAccess entries.
func inputRules(from string, hostAccess []string) ([]string, error) {
	rules := []string{from + "ct state established,related accept"}
	for _, entry := range hostAccess {
		h, err := netpolicy.ParseHostAccess(entry)
		if err != nil {
			return nil, &IsolationError{Field: "hostAccess", Entry: entry, Err: err}
		}
		to := from
		if h.Dest.IsValid() {
			to += "ip daddr " + prefixText(h.Dest) + " "
		}
		if h.Port == 0 {
			rules = append(rules, to+"accept")
			continue
		}
		port := strconv.Itoa(int(h.Port))
		rules = append(rules, to+"tcp dport "+port+" accept", to+"udp dport "+port+" accept")
	}
	return append(rules, from+"drop"), nil
}

// prefixText writes p as nft reads it: an address for a /32, else the
// network, host bits cleared (as nft clears them itself).
func prefixText(p netip.Prefix) string {
	if p.Bits() == 32 {
		return p.Addr().String()
	}
	return p.Masked().String()
}
