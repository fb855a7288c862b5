package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// spoof sends the frames of the JSON list arg through a packet socket on
// the container's interface, and prints a line for each: "sent N" or
// "error N <message>". It returns false when it could not send them all.
func spoof(arg string) bool {
	var frames []frame
	if err := json.Unmarshal([]byte(arg), &frames); err != nil {
		fmt.Println("error -1", err)
		return false
	}
	s, err := discover(needsGateway(frames))
	if err != nil {
		fmt.Println("error -1", err)
		return false
	}
	fd, err := syscall.Socket(syscall.AF_PACKET, syscall.SOCK_RAW, 0)
	if err != nil {
		fmt.Println("error -1 packet socket:", err)
		return false
	}
	defer syscall.Close(fd)
	ok := true
	for i, f := range frames {
		err := send(fd, s.ifindex, f, s)
		if err != nil {
			fmt.Println("error", i, err)
			ok = false
			continue
		}
		fmt.Println("sent", i)
	}
	return ok
}

// needsGateway reports whether a frame takes the gateway's MAC.
func needsGateway(frames []frame) bool {
	for _, f := range frames {
		if f.DstMAC == "" && f.Kind != "arp" && f.Kind != "ra" {
			return true
		}
	}
	return false
}

// send sends one frame on the interface ifindex.
func send(fd, ifindex int, f frame, s self) error {
	b, err := build(f, s)
	if err != nil {
		return err
	}
	to := &syscall.SockaddrLinklayer{Ifindex: ifindex, Halen: 6, Protocol: htons(binary.BigEndian.Uint16(b[12:]))}
	copy(to.Addr[:], b[:6])
	return syscall.Sendto(fd, b, 0, to)
}

func htons(v uint16) uint16 { return v<<8 | v>>8 }

// netinfo prints the container's interface on its default route:
//
//	link <name> <mac> <ifindex> <iflink>
//	addr <prefix>       each address, IPv4 and IPv6
//	gateway <ip> <mac>  the default route's gateway, its MAC asked by ARP
//	                    ("-" when no answer came: a container before its
//	                    binding may not ask)
//	neigh <ip> <mac>    each complete entry of the kernel's ARP table
func netinfo() bool {
	s, err := discover(false)
	if err != nil {
		fmt.Println("error", err)
		return false
	}
	ifc, err := net.InterfaceByIndex(s.ifindex)
	if err != nil {
		fmt.Println("error", err)
		return false
	}
	fmt.Println("link", ifc.Name, ifc.HardwareAddr, ifc.Index, read("/sys/class/net/"+ifc.Name+"/iflink"))
	addrs, _ := ifc.Addrs()
	for _, a := range addrs {
		fmt.Println("addr", a)
	}
	gatewayMAC := "-"
	if mac, err := resolve(s, s.gateway); err == nil {
		gatewayMAC = mac.String()
	}
	fmt.Println("gateway", s.gateway, gatewayMAC)
	arp, _ := os.ReadFile("/proc/net/arp")
	for _, line := range strings.Split(string(arp), "\n")[1:] {
		if f := strings.Fields(line); len(f) >= 6 && f[5] == ifc.Name && f[2] != "0x0" {
			fmt.Println("neigh", f[0], f[3])
		}
	}
	return true
}

// discover finds the interface of the default route, its addresses and
// gateway, and, when asked, the gateway's MAC.
func discover(gatewayMAC bool) (self, error) {
	var s self
	name, gw, err := defaultRoute()
	if err != nil {
		return s, err
	}
	ifc, err := net.InterfaceByName(name)
	if err != nil {
		return s, err
	}
	s.ifindex, s.mac, s.gateway = ifc.Index, ifc.HardwareAddr, gw
	addrs, _ := ifc.Addrs()
	for _, a := range addrs {
		p, err := netip.ParsePrefix(a.String())
		switch {
		case err != nil:
		case p.Addr().Is4():
			s.addr = p.Addr()
		case !p.Addr().IsLinkLocalUnicast():
			s.addr6 = p.Addr()
		}
	}
	if !s.addr6.IsValid() {
		s.addr6 = linkLocal(s.mac)
	}
	if gatewayMAC {
		s.gatewayMAC, err = resolve(s, gw)
	}
	return s, err
}

// defaultRoute returns the interface and gateway of the IPv4 default
// route, from /proc/net/route.
func defaultRoute() (string, netip.Addr, error) {
	b, err := os.ReadFile("/proc/net/route")
	if err != nil {
		return "", netip.Addr{}, err
	}
	for _, line := range strings.Split(string(b), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) < 3 || f[1] != "00000000" {
			continue
		}
		v, err := strconv.ParseUint(f[2], 16, 32)
		if err != nil {
			continue
		}
		var a [4]byte
		binary.LittleEndian.PutUint32(a[:], uint32(v))
		return f[0], netip.AddrFrom4(a), nil
	}
	return "", netip.Addr{}, errors.New("no default route")
}

// resolve asks addr's MAC by ARP, from the container's own MAC and
// address, three times at most.
func resolve(s self, addr netip.Addr) (net.HardwareAddr, error) {
	fd, err := syscall.Socket(syscall.AF_PACKET, syscall.SOCK_RAW, int(htons(etherARP)))
	if err != nil {
		return nil, fmt.Errorf("ARP socket: %w", err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrLinklayer{Protocol: htons(etherARP), Ifindex: s.ifindex}); err != nil {
		return nil, err
	}
	tv := syscall.NsecToTimeval(int64(200 * time.Millisecond))
	if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		return nil, err
	}
	ask := frame{Kind: "arp", Op: 1, Dst: addr.String()}
	for range 3 {
		if err := send(fd, s.ifindex, ask, s); err != nil {
			return nil, err
		}
		if mac := awaitReply(fd, addr, time.Now().Add(time.Second)); mac != nil {
			return mac, nil
		}
	}
	return nil, fmt.Errorf("no ARP reply from %s", addr)
}

// awaitReply reads ARP packets until one replies for addr, or the
// deadline.
func awaitReply(fd int, addr netip.Addr, deadline time.Time) net.HardwareAddr {
	buf := make([]byte, 1500)
	for time.Now().Before(deadline) {
		n, _, err := syscall.Recvfrom(fd, buf, 0)
		if err != nil || n < 42 {
			continue
		}
		p := buf[14:n]
		if binary.BigEndian.Uint16(p[6:]) == 2 && bytes.Equal(p[14:18], addr.AsSlice()) {
			return append(net.HardwareAddr{}, p[8:14]...)
		}
	}
	return nil
}
