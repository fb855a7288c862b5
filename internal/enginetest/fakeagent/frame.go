package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
)

// frame is one frame of `node spoof`, as enginetest.Packet sends it: its
// JSON is the subcommand's argument, a list of them.
type frame struct {
	Kind     string `json:"kind"`               // udp, tcp, icmp, ip, arp, ra
	Src      string `json:"src,omitempty"`      // the IP source; "": the container's own
	Dst      string `json:"dst,omitempty"`      // the IP destination; ARP's target address
	Port     uint16 `json:"port,omitempty"`     // UDP's and TCP's destination port
	Protocol uint8  `json:"protocol,omitempty"` // kind ip: the IP protocol
	SrcMAC   string `json:"srcMAC,omitempty"`   // "": the container's own
	DstMAC   string `json:"dstMAC,omitempty"`   // "": the gateway's (ARP, RA: broadcast)
	Op       uint16 `json:"op,omitempty"`       // ARP's operation: 1 request, 2 reply
	Prefix   string `json:"prefix,omitempty"`   // kind ra: the prefix it advertises
	Tag      bool   `json:"tag,omitempty"`      // an 802.1Q tag of VLAN 0 after the MACs
	Mark     uint32 `json:"mark,omitempty"`     // where the oracle finds it
}

// self is what a frame's defaults come from: the container's interface on
// the network and its gateway.
type self struct {
	ifindex    int
	mac        net.HardwareAddr
	addr       netip.Addr // IPv4
	addr6      netip.Addr // IPv6, global when the container has one, else its link-local
	gateway    netip.Addr
	gatewayMAC net.HardwareAddr
}

// EtherTypes.
const (
	etherIPv4 = 0x0800
	etherARP  = 0x0806
	etherIPv6 = 0x86dd
	etherVLAN = 0x8100
)

// payload is what every datagram carries after its mark.
var payload = []byte("kicikit-spoof")

// build returns f as a whole Ethernet frame from s, and its EtherType.
func build(f frame, s self) ([]byte, error) {
	src, dst, err := f.macs(s)
	if err != nil {
		return nil, err
	}
	var body []byte
	var ethType uint16
	switch f.Kind {
	case "arp":
		ethType = etherARP
		body, err = f.arp(s, src)
	case "ra":
		ethType = etherIPv6
		body, err = f.ra(s, src)
	default:
		body, ethType, err = f.ip(s)
	}
	if err != nil {
		return nil, err
	}
	out := append(append([]byte{}, dst...), src...)
	if f.Tag {
		out = binary.BigEndian.AppendUint16(out, etherVLAN)
		out = binary.BigEndian.AppendUint16(out, 0) // priority 0, VLAN 0
	}
	out = binary.BigEndian.AppendUint16(out, ethType)
	return append(out, body...), nil
}

// macs returns the frame's Ethernet source and destination.
func (f frame) macs(s self) (src, dst net.HardwareAddr, err error) {
	src, dst = s.mac, s.gatewayMAC
	if f.Kind == "arp" || f.Kind == "ra" {
		dst = net.HardwareAddr{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
		if f.Kind == "ra" {
			dst = net.HardwareAddr{0x33, 0x33, 0, 0, 0, 1}
		}
	}
	if f.SrcMAC != "" {
		if src, err = net.ParseMAC(f.SrcMAC); err != nil {
			return nil, nil, err
		}
	}
	if f.DstMAC != "" {
		if dst, err = net.ParseMAC(f.DstMAC); err != nil {
			return nil, nil, err
		}
	}
	if len(dst) != 6 {
		return nil, nil, errors.New("no destination MAC: the gateway's is unknown")
	}
	return src, dst, nil
}

// addrs returns the frame's IP source and destination, the source
// defaulting to the container's own address of the destination's family.
func (f frame) addrs(s self) (src, dst netip.Addr, err error) {
	if dst, err = netip.ParseAddr(f.Dst); err != nil {
		return src, dst, err
	}
	src = s.addr
	if dst.Is6() {
		src = s.addr6
		if dst.IsLinkLocalUnicast() || dst.IsLinkLocalMulticast() {
			src = linkLocal(s.mac)
		}
	}
	if f.Src != "" {
		if src, err = netip.ParseAddr(f.Src); err != nil {
			return src, dst, err
		}
	}
	if !src.IsValid() || src.Is4() != dst.Is4() {
		return src, dst, fmt.Errorf("no source of the family of %s", dst)
	}
	return src, dst, nil
}

// linkLocal is the IPv6 link-local address the kernel derives from mac
// (EUI-64).
func linkLocal(mac net.HardwareAddr) netip.Addr {
	var a [16]byte
	a[0], a[1] = 0xfe, 0x80
	copy(a[8:], []byte{mac[0] ^ 2, mac[1], mac[2], 0xff, 0xfe, mac[3], mac[4], mac[5]})
	return netip.AddrFrom16(a)
}

// ip returns the IP packet of an udp, tcp, icmp or ip frame.
func (f frame) ip(s self) ([]byte, uint16, error) {
	src, dst, err := f.addrs(s)
	if err != nil {
		return nil, 0, err
	}
	var l4 []byte
	var proto uint8
	mark := binary.BigEndian.AppendUint32(nil, f.Mark)
	switch f.Kind {
	case "udp":
		proto = 17
		l4 = binary.BigEndian.AppendUint16(nil, 40000+uint16(f.Mark%20000))
		l4 = binary.BigEndian.AppendUint16(l4, f.Port)
		l4 = binary.BigEndian.AppendUint16(l4, uint16(8+4+len(payload)))
		l4 = append(append(append(l4, 0, 0), mark...), payload...)
	case "tcp":
		proto = 6
		l4 = binary.BigEndian.AppendUint16(nil, 40000+uint16(f.Mark%20000))
		l4 = binary.BigEndian.AppendUint16(l4, f.Port)
		l4 = append(l4, mark...)                            // the sequence number
		l4 = append(l4, 0, 0, 0, 0, 5<<4, 0x02, 0xfa, 0xf0) // no ack; 20 bytes; SYN; window
		l4 = append(l4, 0, 0, 0, 0)                         // checksum, urgent pointer
	case "icmp":
		proto = 1
		if dst.Is6() {
			proto = 58
		}
		l4 = append([]byte{8, 0, 0, 0}, mark...) // echo request; its id and sequence the mark
		if dst.Is6() {
			l4[0] = 128
		}
		l4 = append(l4, payload...)
	case "ip":
		proto = f.Protocol
		l4 = append(append([]byte{0, 0, 0, 0}, mark...), payload...)
	default:
		return nil, 0, fmt.Errorf("unknown kind %q", f.Kind)
	}
	return packet(proto, src, dst, l4, 64)
}

// checksumAt is where a transport header of protocol proto keeps its
// checksum; -1 when it has none the pseudo-header covers.
func checksumAt(proto uint8) int {
	switch proto {
	case 17:
		return 6
	case 6:
		return 16
	case 58:
		return 2
	}
	return -1
}

// packet wraps the transport bytes l4 in an IP header, filling in the
// checksums, and returns it with its EtherType.
func packet(proto uint8, src, dst netip.Addr, l4 []byte, hops uint8) ([]byte, uint16, error) {
	var pseudo []byte
	if at := checksumAt(proto); at >= 0 {
		pseudo = append(pseudo, src.AsSlice()...)
		pseudo = append(pseudo, dst.AsSlice()...)
		if dst.Is4() {
			pseudo = append(pseudo, 0, proto)
			pseudo = binary.BigEndian.AppendUint16(pseudo, uint16(len(l4)))
		} else {
			pseudo = binary.BigEndian.AppendUint32(pseudo, uint32(len(l4)))
			pseudo = append(pseudo, 0, 0, 0, proto)
		}
		binary.BigEndian.PutUint16(l4[at:], checksum(append(pseudo, l4...)))
	} else if proto == 1 {
		binary.BigEndian.PutUint16(l4[2:], checksum(l4))
	}
	if dst.Is6() {
		h := binary.BigEndian.AppendUint32(nil, 6<<28)
		h = binary.BigEndian.AppendUint16(h, uint16(len(l4)))
		h = append(h, proto, hops)
		h = append(append(h, src.AsSlice()...), dst.AsSlice()...)
		return append(h, l4...), etherIPv6, nil
	}
	h := []byte{0x45, 0}
	h = binary.BigEndian.AppendUint16(h, uint16(20+len(l4)))
	h = append(h, 0, 0, 0x40, 0, hops, proto, 0, 0) // id 0, don't fragment
	h = append(append(h, src.AsSlice()...), dst.AsSlice()...)
	binary.BigEndian.PutUint16(h[10:], checksum(h))
	return append(h, l4...), etherIPv4, nil
}

// checksum is the Internet checksum of b (RFC 1071).
func checksum(b []byte) uint16 {
	var sum uint32
	for i := 0; i+1 < len(b); i += 2 {
		sum += uint32(binary.BigEndian.Uint16(b[i:]))
	}
	if len(b)%2 == 1 {
		sum += uint32(b[len(b)-1]) << 8
	}
	for sum > 0xffff {
		sum = sum>>16 + sum&0xffff
	}
	return ^uint16(sum)
}

// arp returns an ARP packet: the sender (src, f.Src or the container's
// address) tells the target (f.DstMAC or none, f.Dst) where it is.
func (f frame) arp(s self, src net.HardwareAddr) ([]byte, error) {
	sender, target := s.addr, netip.Addr{}
	var err error
	if f.Src != "" {
		if sender, err = netip.ParseAddr(f.Src); err != nil {
			return nil, err
		}
	}
	if target, err = netip.ParseAddr(f.Dst); err != nil {
		return nil, err
	}
	if !sender.Is4() || !target.Is4() {
		return nil, errors.New("ARP is of IPv4 addresses")
	}
	tha := make(net.HardwareAddr, 6)
	if f.DstMAC != "" {
		tha, _ = net.ParseMAC(f.DstMAC)
	}
	op := f.Op
	if op == 0 {
		op = 1
	}
	b := []byte{0, 1, 8, 0, 6, 4} // Ethernet, IPv4
	b = binary.BigEndian.AppendUint16(b, op)
	b = append(append(b, src...), sender.AsSlice()...)
	return append(append(b, tha...), target.AsSlice()...), nil
}

// ra returns an ICMPv6 router advertisement from the container's
// link-local address (or f.Src) to all nodes (or f.Dst), of the prefix
// f.Prefix, on-link and autonomous, for a router lifetime of 0: it adds
// no default route.
func (f frame) ra(s self, src net.HardwareAddr) ([]byte, error) {
	p, err := netip.ParsePrefix(f.Prefix)
	if err != nil || !p.Addr().Is6() {
		return nil, fmt.Errorf("an RA needs an IPv6 prefix: %q", f.Prefix)
	}
	if f.Dst == "" {
		f.Dst = "ff02::1"
	}
	from, dst, err := f.addrs(self{mac: src, addr6: linkLocal(src)})
	if err != nil {
		return nil, err
	}
	b := []byte{134, 0, 0, 0, 64, 0, 0, 0} // hop limit 64, no flags, router lifetime 0
	b = append(b, 0, 0, 0, 0, 0, 0, 0, 0)  // reachable time, retransmit timer
	b = append(append(b, 1, 1), src...)    // source link-layer address
	b = append(b, 3, 4, uint8(p.Bits()), 0xc0)
	b = binary.BigEndian.AppendUint32(b, 300) // valid lifetime
	b = binary.BigEndian.AppendUint32(b, 300) // preferred lifetime
	b = append(append(b, 0, 0, 0, 0), p.Masked().Addr().AsSlice()...)
	body, _, err := packet(58, from, dst, b, 255)
	return body, err
}
