package enginetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/api/pkg/stdcopy"
	"github.com/moby/moby/client"
)

// Proto is what a [Packet] is.
type Proto string

// The packets the fake agent crafts.
const (
	UDP   Proto = "udp"  // a UDP datagram to Packet.Port
	TCP   Proto = "tcp"  // a TCP SYN to Packet.Port
	ICMP  Proto = "icmp" // an echo request, ICMPv6's to an IPv6 destination
	RawIP Proto = "ip"   // an IP packet of protocol Packet.Protocol
	ARP   Proto = "arp"  // an ARP packet of operation Packet.ARPOp
	RA    Proto = "ra"   // an ICMPv6 router advertisement of Packet.Prefix
)

// The ARP operations of [Packet].ARPOp.
const (
	ARPRequest uint16 = 1
	ARPReply   uint16 = 2
)

// Packet is one Ethernet frame a container sends with [Spoof], crafted
// whole: its addresses are whatever it says, not what the container's
// network stack would write, and an IPv6 packet goes out where the
// container has IPv6 disabled.
type Packet struct {
	// Proto is what the frame carries.
	Proto Proto
	// Src is the IP source; zero: the container's own address of Dst's
	// family (for IPv6: its global address if it has one, else the
	// link-local address its MAC makes, always that for a link-local
	// Dst). For ARP, the sender's address.
	Src netip.Addr
	// Dst is the IP destination; for ARP, the target's address; for RA,
	// zero: all nodes (ff02::1).
	Dst netip.Addr
	// Port is UDP's and TCP's destination port.
	Port uint16
	// Protocol is RawIP's IP protocol number.
	Protocol uint8
	// SrcMAC is the Ethernet source, and ARP's sender; nil: the
	// container's own.
	SrcMAC net.HardwareAddr
	// DstMAC is the Ethernet destination, and ARP's target; nil: the
	// gateway's MAC, which the container asks by ARP, for IP; the
	// broadcast (all nodes for RA) for ARP and RA.
	DstMAC net.HardwareAddr
	// ARPOp is ARP's operation: [ARPRequest] (0 too) or [ARPReply].
	ARPOp uint16
	// Prefix is the prefix an RA advertises, on-link and autonomous, for a
	// router lifetime of 0 (no default route).
	Prefix netip.Prefix
	// Tag puts an 802.1Q tag of VLAN 0 (priority tagged) after the MACs.
	Tag bool
	// Mark identifies the packet to an [Oracle]: the UDP payload's first 4
	// bytes, TCP's sequence number, the ICMP echo's id and sequence, or
	// RawIP's payload bytes 4 to 7. ARP and RA carry none.
	Mark uint32
}

// wire is p as the fake agent reads it.
func (p Packet) wire() map[string]any {
	m := map[string]any{"kind": string(p.Proto), "port": p.Port, "protocol": p.Protocol,
		"op": p.ARPOp, "tag": p.Tag, "mark": p.Mark}
	for k, a := range map[string]netip.Addr{"src": p.Src, "dst": p.Dst} {
		if a.IsValid() {
			m[k] = a.String()
		}
	}
	for k, mac := range map[string]net.HardwareAddr{"srcMAC": p.SrcMAC, "dstMAC": p.DstMAC} {
		if mac != nil {
			m[k] = mac.String()
		}
	}
	if p.Prefix.IsValid() {
		m["prefix"] = p.Prefix.String()
	}
	return m
}

// Spoof sends the packets from container id, which runs an [Agent] image:
// the fake agent writes them, in order, through a packet socket on its
// interface of the default route. It fails t when one cannot be sent.
func Spoof(t testing.TB, c client.APIClient, id string, packets ...Packet) {
	t.Helper()
	wire := make([]map[string]any, len(packets))
	for i, p := range packets {
		wire[i] = p.wire()
	}
	arg, err := json.Marshal(wire)
	if err != nil {
		t.Fatalf("enginetest: %v", err)
		return
	}
	if out, err := ExecAgent(c, id, "spoof", string(arg)); err != nil {
		t.Fatalf("enginetest: spoofing from %s: %v\n%s", id, err, out)
	}
}

// ExecAgent runs the fake agent in container id, which runs, with args
// (docker exec), and returns what it printed. The error tells a failed
// exec or a non-zero exit.
func ExecAgent(c client.APIClient, id string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	exec, err := c.ExecCreate(ctx, id, client.ExecCreateOptions{
		Cmd: append([]string{AgentNode}, args...), AttachStdout: true, AttachStderr: true,
	})
	if err != nil {
		return "", err
	}
	res, err := c.ExecAttach(ctx, exec.ID, client.ExecAttachOptions{})
	if err != nil {
		return "", err
	}
	defer res.Close()
	var out bytes.Buffer
	if _, err := stdcopy.StdCopy(&out, &out, res.Reader); err != nil {
		return out.String(), err
	}
	info, err := c.ExecInspect(ctx, exec.ID, client.ExecInspectOptions{})
	if err == nil && info.ExitCode != 0 {
		err = fmt.Errorf("%s %s exited %d", AgentNode, args[0], info.ExitCode)
	}
	return out.String(), err
}

// Link is a container's interface on its default route, as the fake agent
// sees it, and the host side of it.
type Link struct {
	Name       string                          // in the container: "eth0"
	MAC        net.HardwareAddr                // its MAC
	Index      int                             // its index in the container
	Addrs      []netip.Prefix                  // its addresses, IPv4 and IPv6
	Gateway    netip.Addr                      // the default route's gateway
	GatewayMAC net.HardwareAddr                // the gateway's MAC, as ARP answered the container; nil when none did
	Neighbours map[netip.Addr]net.HardwareAddr // the container's kernel ARP table, complete entries
	HostPort   string                          // the veth's host end, in the Engine's namespace: a bridge port
}

// Addr returns the link's first IPv4 address; zero when it has none.
func (l Link) Addr() netip.Addr {
	for _, p := range l.Addrs {
		if p.Addr().Is4() {
			return p.Addr()
		}
	}
	return netip.Addr{}
}

// LinkOf returns the interface of container id, which runs an [Agent]
// image. It skips t unless the test runs in the Engine's namespace, where
// the host end of the container's veth is.
func LinkOf(t testing.TB, c client.APIClient, id string) Link {
	t.Helper()
	InEngineNetns(t)
	out, err := ExecAgent(c, id, "netinfo")
	if err != nil {
		t.Fatalf("enginetest: the interface of %s: %v\n%s", id, err, out)
		return Link{}
	}
	l, peer, err := parseLink(out)
	var host *net.Interface
	if err == nil {
		host, err = net.InterfaceByIndex(peer)
	}
	if err != nil {
		t.Fatalf("enginetest: the interface of %s: %v\n%s", id, err, out)
		return Link{}
	}
	l.HostPort = host.Name
	return l
}

// parseLink reads `node netinfo`'s output, and the index of the veth's
// host end.
func parseLink(out string) (Link, int, error) {
	var l Link
	var peer int
	var err error
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 5 && f[0] == "link":
			l.Name = f[1]
			l.MAC, err = net.ParseMAC(f[2])
			l.Index, _ = strconv.Atoi(f[3])
			peer, _ = strconv.Atoi(f[4])
		case len(f) == 2 && f[0] == "addr":
			if p, perr := netip.ParsePrefix(f[1]); perr == nil {
				l.Addrs = append(l.Addrs, p)
			}
		case len(f) == 3 && f[0] == "neigh":
			addr, aerr := netip.ParseAddr(f[1])
			mac, merr := net.ParseMAC(f[2])
			if aerr == nil && merr == nil {
				if l.Neighbours == nil {
					l.Neighbours = map[netip.Addr]net.HardwareAddr{}
				}
				l.Neighbours[addr] = mac
			}
		case len(f) == 3 && f[0] == "gateway":
			l.Gateway, _ = netip.ParseAddr(f[1])
			l.GatewayMAC, _ = net.ParseMAC(f[2])
		}
	}
	if err == nil && (l.MAC == nil || peer == 0 || !l.Gateway.IsValid()) {
		err = fmt.Errorf("netinfo printed no link or no gateway")
	}
	return l, peer, err
}
