package containerscaler

import (
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/agentspawn"
)

// The nftables layout, in three tables of one name.
//
// table ip kici holds the orchestrator's base chains forward, input and
// output, where its own per-address rules may still be; beside them, two
// base chains of the backend's send each packet from an agent address,
// through a verdict map keyed by that address, to the address's own
// chains, which hold [agentspawn.Isolation]'s rules as they are. A packet
// from the isolated network's bridge whose source has no chains is
// dropped. The map agent-owners records which container owns each
// address's rules.
//
// table bridge kici binds each agent's port on the bridge (its veth, by
// interface index) to its MAC and IPv4 address. A frame that enters a
// bridge, or the host from a bridge's port, meets agent-gate (on hooks
// prerouting and input: a frame to an IEEE link-local group address goes
// to the host past prerouting):
//
//   - From an agent's port only IPv4 and ARP with its own MAC and address
//     pass.
//   - No other port may use an address of the isolated network (the
//     gateway's included) or an agent's MAC: a container before its rules
//     are written (a job image's entrypoint runs then) cannot claim
//     another's address, poison the bridge, or send from the network.
//   - No port sends IP or ARP to a link-local group address.
//   - No port sends a frame of two VLAN tags or more: Linux strips the
//     outer tag as the frame enters, so the rules would read its protocol
//     as the inner tag's, and strips a VLAN-0 inner tag too on the way up
//     to the host, which takes what it carries.
//
// These match the protocol the kernel reads (meta protocol), not the
// frame's EtherType: a VLAN-tagged frame, whose tag Linux strips and
// whose EtherType nft reads as the tag's, is held to the same rules. The
// bridge family's hooks see every bridge of the host, and kernels built
// without nft_meta_bridge cannot tell them apart (meta ibrname): on
// another bridge, the gate drops only frames of two VLAN tags, IP to a
// link-local group address, and what claims the isolated network's
// addresses or an agent's MAC.
//
// Each address's chains in table ip kici start with a drop of an ICMP
// error that conntrack relates to a flow of other addresses: the
// orchestrator's "ct state established,related accept" would take an
// agent's forged error about another agent's flow.
//
// What one agent sends another over the bridge meets the sender's forward
// rules there too, through a verdict map and chains of the same names as
// table ip kici's: a host whose bridges do not pass bridged traffic
// through the ip family's hooks (br_netfilter off) would let it by.
// Bridged broadcast and multicast IPv4 from an agent is dropped, by its
// MAC or its address: it would reach every other agent. IPv4 bridged to
// an agent's port must be addressed to that agent, by its MAC and its
// address: the bridge floods a frame to a MAC it does not know to every
// port, and a frame to the agent's MAC may carry another destination,
// which the sender's rules allow (a public one). ARP bridged to an agent's
// port (agent-arp) is a plain Ethernet and IPv4 request, its target MAC
// unset and its target address in the network, or a reply to that agent:
// no trailer, no other operation, nothing in fields its kernel ignores,
// which a process of the agent with a packet socket would read. Anything
// but ARP bridged to an agent's port from a port without rules is
// dropped.
//
// table ip6 kici drops IPv6 from the isolated network's bridge.
const (
	ipTable     = "ip kici"
	ip6Table    = "ip6 kici"
	bridgeTable = "bridge kici"

	forwardHook     = "agent-forward"
	inputHook       = "agent-input"
	forwardAddrs    = "agent-forward-addrs"
	inputAddrs      = "agent-input-addrs"
	forwardChainPre = "agent-forward-"
	inputChainPre   = "agent-input-"
	ownersMap       = "agent-owners"
	bridgesSet      = "agent-bridges"

	preroutingHook = "agent-prerouting"
	gateChain      = "agent-gate"
	portChain      = "agent-port"
	arpChain       = "agent-arp"
	portsSet       = "agent-ports"
	macsSet        = "agent-macs"
	bindingsSet    = "agent-bindings"
)

// ownerLen is how much of a container id agent-owners keeps: nft's ifname
// type holds 15 characters, which the Engine resolves as a prefix.
const ownerLen = 15

// binding is what ties an agent's container to its rules: its address,
// the host-side index of its network port, and its MAC.
type binding struct {
	addr netip.Addr
	port uint32
	mac  net.HardwareAddr
}

// bound is b as an element of agent-bindings.
func (b binding) bound() boundPort {
	return boundPort{port: strconv.FormatUint(uint64(b.port), 10), mac: b.mac.String(), addr: b.addr}
}

// script is an nft script: one transaction.
type script struct{ strings.Builder }

func (s *script) line(parts ...string) {
	s.WriteString(strings.Join(parts, " "))
	s.WriteByte('\n')
}

// table makes the three tables, their sets, maps and base chains, and the
// dispatch rules, if they are missing, and adds bridge (when not "") to
// the isolated network's bridges. Every line is idempotent: it heals a
// table that was flushed since.
func (s *script) table(bridge string) {
	s.line("add table", ipTable)
	for _, hook := range []string{"forward", "input", "output"} {
		s.line("add chain", ipTable, hook, baseChain(hook, "0"))
	}
	s.line("add map", ipTable, forwardAddrs, "{ type ipv4_addr : verdict; }")
	s.line("add map", ipTable, inputAddrs, "{ type ipv4_addr : verdict; }")
	s.line("add map", ipTable, ownersMap, "{ type ipv4_addr : ifname; }")
	for _, family := range []string{ipTable, ip6Table} {
		if family == ip6Table {
			s.line("add table", ip6Table)
		}
		s.line("add set", family, bridgesSet, "{ type ifname; }")
		for _, d := range [...]struct{ chain, hook, addrs string }{
			{forwardHook, "forward", forwardAddrs}, {inputHook, "input", inputAddrs},
		} {
			s.line("add chain", family, d.chain, baseChain(d.hook, "0"))
			s.line("flush chain", family, d.chain)
			if family == ipTable {
				s.line("add rule", family, d.chain, "ip saddr vmap @"+d.addrs)
			}
			s.line("add rule", family, d.chain, "iifname @"+bridgesSet, "drop")
		}
		if bridge != "" {
			s.line("add element", family, bridgesSet, "{", strconv.Quote(bridge), "}")
		}
	}
	s.bridgeTable()
}

// bridgeTable makes the bridge table's part of table: the bindings, and
// agent-gate on the prerouting and input hooks.
func (s *script) bridgeTable() {
	subnet := netip.MustParsePrefix(agentspawn.IsolatedNetworkSubnet)
	s.line("add table", bridgeTable)
	s.line("add set", bridgeTable, portsSet, "{ type iface_index; }")
	s.line("add set", bridgeTable, macsSet, "{ type ether_addr; }")
	s.line("add set", bridgeTable, bindingsSet, "{ type iface_index . ether_addr . ipv4_addr; }")
	s.line("add chain", bridgeTable, portChain)
	s.line("flush chain", bridgeTable, portChain)
	s.line("add rule", bridgeTable, portChain, "ether type ip iif . ether saddr . ip saddr @"+bindingsSet, "accept")
	s.line("add rule", bridgeTable, portChain, "ether type arp iif . ether saddr . arp saddr ip @"+bindingsSet,
		"iif . arp saddr ether . arp saddr ip @"+bindingsSet, "accept")
	s.line("add rule", bridgeTable, portChain, "drop")
	s.line("add chain", bridgeTable, gateChain)
	s.line("flush chain", bridgeTable, gateChain)
	s.line("add rule", bridgeTable, gateChain, "meta protocol { 8021q, 8021ad } drop")
	s.line("add rule", bridgeTable, gateChain, "ether daddr & ff:ff:ff:ff:ff:f0 == 01:80:c2:00:00:00 meta protocol { ip, ip6, arp } drop")
	s.line("add rule", bridgeTable, gateChain, "iif @"+portsSet, "jump", portChain)
	s.line("add rule", bridgeTable, gateChain, "ether saddr @"+macsSet, "drop")
	s.line("add rule", bridgeTable, gateChain, "meta protocol ip ip saddr", subnet.String(), "drop")
	s.line("add rule", bridgeTable, gateChain, "meta protocol arp arp saddr ip", subnet.String(), "drop")
	for _, d := range [...]struct{ chain, hook string }{{preroutingHook, "prerouting"}, {inputHook, "input"}} {
		s.line("add chain", bridgeTable, d.chain, baseChain(d.hook, "-300"))
		s.line("flush chain", bridgeTable, d.chain)
		s.line("add rule", bridgeTable, d.chain, "jump", gateChain)
	}
	s.bridgeForward(subnet)
}

// bridgeForward makes the bridge table's forward hook, and agent-arp, the
// ARP an agent's port may be sent: a plain request, or a reply to it.
func (s *script) bridgeForward(subnet netip.Prefix) {
	plain := "meta length 28 arp htype 1 arp ptype ip arp hlen 6 arp plen 4"
	s.line("add chain", bridgeTable, arpChain)
	s.line("flush chain", bridgeTable, arpChain)
	s.line("add rule", bridgeTable, arpChain, plain, "arp operation request arp daddr ether 00:00:00:00:00:00 arp daddr ip",
		subnet.String(), "return")
	s.line("add rule", bridgeTable, arpChain, plain, "arp operation reply oif . ether daddr . arp daddr ip @"+bindingsSet,
		"oif . arp daddr ether . arp daddr ip @"+bindingsSet, "return")
	s.line("add rule", bridgeTable, arpChain, "drop")
	s.line("add map", bridgeTable, forwardAddrs, "{ type ipv4_addr : verdict; }")
	s.line("add chain", bridgeTable, forwardHook, baseChain("forward", "-300"))
	s.line("flush chain", bridgeTable, forwardHook)
	s.line("add rule", bridgeTable, forwardHook, "iif @"+portsSet, "ether type ip meta pkttype { broadcast, multicast } drop")
	s.line("add rule", bridgeTable, forwardHook, "iif @"+portsSet, "ether type ip ip daddr { 0.0.0.0/8, 224.0.0.0/4, 255.255.255.255,",
		lastAddr(subnet).String(), "} drop")
	s.line("add rule", bridgeTable, forwardHook, "oif @"+portsSet, "ether type ip oif . ether daddr . ip daddr != @"+bindingsSet, "drop")
	s.line("add rule", bridgeTable, forwardHook, "oif @"+portsSet, "ether type arp jump", arpChain)
	s.line("add rule", bridgeTable, forwardHook, "ether type ip ip saddr vmap @"+forwardAddrs)
	s.line("add rule", bridgeTable, forwardHook, "oif @"+portsSet, "ether type != arp drop")
}

// lastAddr is the last address of p: an IPv4 subnet's broadcast address.
func lastAddr(p netip.Prefix) netip.Addr {
	a := p.Masked().Addr().As4()
	for i := p.Bits(); i < 32; i++ {
		a[i/8] |= 0x80 >> (i % 8)
	}
	return netip.AddrFrom4(a)
}

// baseChain is the spec of a filter base chain on hook that accepts what
// no rule drops: a base chain on the host's own input hook that dropped by
// default would take the host off the network.
func baseChain(hook, priority string) string {
	return "{ type filter hook " + hook + " priority " + priority + "; policy accept; }"
}

// bind gives owner the rules of iso.Addr and binds the address to its
// port. When owner is not the address's owner, the transaction fails
// ("File exists"): nothing is written.
func (s *script) bind(owner string, b binding, iso agentspawn.Isolation) {
	a := b.addr.String()
	s.line("add element", ipTable, ownersMap, "{", a, ":", strconv.Quote(owner), "}")
	for _, d := range [...]struct {
		chain, addrs string
		rules        []string
	}{{forwardChainPre + a, forwardAddrs, iso.Forward}, {inputChainPre + a, inputAddrs, iso.Input}} {
		s.line("add chain", ipTable, d.chain)
		s.line("flush chain", ipTable, d.chain)
		s.line("add rule", ipTable, d.chain, "ct state related ct original ip saddr !=", a, "ct original ip daddr !=", a, "drop")
		for _, r := range d.rules {
			s.line("add rule", ipTable, d.chain, r)
		}
		s.line("add element", ipTable, d.addrs, "{", a, ": goto", d.chain, "}")
	}
	chain := forwardChainPre + a
	s.line("add chain", bridgeTable, chain)
	s.line("flush chain", bridgeTable, chain)
	for _, r := range iso.Forward {
		s.line("add rule", bridgeTable, chain, r)
	}
	s.line("add element", bridgeTable, forwardAddrs, "{", a, ": goto", chain, "}")
	p := b.bound()
	s.line("add element", bridgeTable, portsSet, "{", p.port, "}")
	s.line("add element", bridgeTable, macsSet, "{", p.mac, "}")
	s.line("add element", bridgeTable, bindingsSet, "{", p.key(), "}")
}

// release removes what owner holds at addr: its owner entry, the address's
// chains and map entries, and the bindings of ports, with their MACs.
// The transaction fails when another owner holds addr. owner ""
// releases an address no owner holds, and fails when one does. With
// keepChains the chains and map entries stay, for a bind that follows in
// the same transaction.
func (s *script) release(owner string, addr netip.Addr, ports []boundPort, keepChains bool) {
	a := addr.String()
	if owner == "" {
		s.line("create element", ipTable, ownersMap, "{", a, `: "-" }`)
	} else {
		s.line("add element", ipTable, ownersMap, "{", a, ":", strconv.Quote(owner), "}")
	}
	s.line("delete element", ipTable, ownersMap, "{", a, "}")
	for _, d := range [...]struct{ table, chain, addrs string }{
		{ipTable, forwardChainPre + a, forwardAddrs}, {ipTable, inputChainPre + a, inputAddrs},
		{bridgeTable, forwardChainPre + a, forwardAddrs},
	} {
		if keepChains {
			break
		}
		s.line("add chain", d.table, d.chain)
		s.line("add element", d.table, d.addrs, "{", a, ": goto", d.chain, "}")
		s.line("delete element", d.table, d.addrs, "{", a, "}")
		s.line("flush chain", d.table, d.chain)
		s.line("delete chain", d.table, d.chain)
	}
	for _, p := range ports {
		s.line("add element", bridgeTable, bindingsSet, "{", p.key(), "}")
		s.line("delete element", bridgeTable, bindingsSet, "{", p.key(), "}")
		s.line("add element", bridgeTable, portsSet, "{", p.portWord(), "}")
		s.line("delete element", bridgeTable, portsSet, "{", p.portWord(), "}")
		s.line("add element", bridgeTable, macsSet, "{", p.mac, "}")
		s.line("delete element", bridgeTable, macsSet, "{", p.mac, "}")
	}
}

// dropLegacy deletes rules of the orchestrator's layout by handle.
func (s *script) dropLegacy(rules []legacyRule) {
	for _, r := range rules {
		s.line("delete rule", ipTable, r.chain, "handle", strconv.FormatUint(r.handle, 10))
	}
}

// key is p as an element of agent-bindings.
func (p boundPort) key() string {
	return p.portWord() + " . " + p.mac + " . " + p.addr.String()
}

// portWord is p's port as an nft script reads it: a number, or a quoted
// interface name.
func (p boundPort) portWord() string {
	if _, err := strconv.ParseUint(p.port, 10, 32); err == nil {
		return p.port
	}
	return strconv.Quote(p.port)
}
