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
	if err := checkAddr(in.Addr); err != nil {
		return Isolation{}, err
	}
	p, err := compilePolicy(in.Policy, in.HostAccess)
	if err != nil {
		return Isolation{}, err
	}
	return p.at(in.Addr)
}

// isolationPolicy is a network policy read once: the rules of any
// address, each without its leading "ip saddr <addr> ".
type isolationPolicy struct {
	forward, input []string
}

// compilePolicy reads a label set's policy and host access into the rules
// of any address.
func compilePolicy(policy *scalerconfig.NetworkPolicy, hostAccess []string) (isolationPolicy, error) {
	var p isolationPolicy
	p.forward = append(p.forward, "ip daddr "+IsolatedNetworkGateway+" accept")
	if policy != nil {
		for _, entry := range policy.Allowlist {
			c, ok := netpolicy.ParseCIDR(entry)
			if !ok {
				return isolationPolicy{}, &IsolationError{Field: "allowlist", Entry: entry,
					Err: errors.New(`allowlist entry "` + entry + `" is not an IPv4 address or an IPv4 CIDR`)}
			}
			p.forward = append(p.forward, "ip daddr "+prefixText(c)+" accept")
		}
	}
	// The private ranges of RFC 1918, then the link-local range of cloud
	// metadata services (nftables.ts's RFC1918_RANGES and METADATA_RANGE).
	for _, r := range [...]string{"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16"} {
		p.forward = append(p.forward, "ip daddr "+r+" drop")
	}
	if policy != nil && policy.DenyAll {
		p.forward = append(p.forward, "drop")
	}
	input, err := inputRules(hostAccess)
	if err != nil {
		return isolationPolicy{}, err
	}
	p.input = input
	return p, nil
}

// at is the policy's rules for addr.
func (p isolationPolicy) at(addr netip.Addr) (Isolation, error) {
	if err := checkAddr(addr); err != nil {
		return Isolation{}, err
	}
	from := "ip saddr " + addr.String() + " "
	prefix := func(rules []string) []string {
		out := make([]string, len(rules))
		for i, r := range rules {
			out[i] = from + r
		}
		return out
	}
	return Isolation{Addr: addr, Forward: prefix(p.forward), Input: prefix(p.input)}, nil
}

// checkAddr refuses an agent address that is not IPv4.
func checkAddr(addr netip.Addr) error {
	if addr.Is4() {
		return nil
	}
	return &IsolationError{Field: "addr", Entry: addr.String(),
		Err: errors.New("agent address " + addr.String() + " is not an IPv4 address")}
}

// inputRules returns the input rules of the hostAccess entries.
func inputRules(hostAccess []string) ([]string, error) {
	rules := []string{"ct state established,related accept"}
	for _, entry := range hostAccess {
		h, err := netpolicy.ParseHostAccess(entry)
		if err != nil {
			return nil, &IsolationError{Field: "hostAccess", Entry: entry, Err: err}
		}
		var to string
		if h.Dest.IsValid() {
			to = "ip daddr " + prefixText(h.Dest) + " "
		}
		if h.Port == 0 {
			rules = append(rules, to+"accept")
			continue
		}
		port := strconv.Itoa(int(h.Port))
		rules = append(rules, to+"tcp dport "+port+" accept", to+"udp dport "+port+" accept")
	}
	return append(rules, "drop"), nil
}

// prefixText writes p as nft reads it: an address for a /32, else the
// network, host bits cleared (as nft clears them itself).
func prefixText(p netip.Prefix) string {
	if p.Bits() == 32 {
		return p.Addr().String()
	}
	return p.Masked().String()
}
