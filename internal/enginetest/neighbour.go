package enginetest

import (
	"encoding/json"
	"net"
	"net/netip"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// HostIface is an interface of the Engine's namespace.
type HostIface struct {
	Name  string           // "br-0123456789ab" for a network's bridge
	MAC   net.HardwareAddr // its MAC
	Addrs []netip.Prefix   // its addresses, IPv4 and IPv6
}

// LinkLocal returns dev's IPv6 link-local address once it is usable: once
// duplicate address detection, which a bridge runs when its first port
// comes up, has ended. It fails t after 5 s.
func LinkLocal(t testing.TB, dev string) netip.Addr {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		out, err := exec.Command("ip", "-j", "-6", "addr", "show", "dev", dev, "scope", "link").Output()
		if err != nil {
			t.Fatalf("enginetest: ip -6 addr show dev %s: %v", dev, err)
			return netip.Addr{}
		}
		var links []struct {
			AddrInfo []struct {
				Local     string
				Tentative bool
			} `json:"addr_info"`
		}
		_ = json.Unmarshal(out, &links)
		for _, l := range links {
			for _, a := range l.AddrInfo {
				if addr, err := netip.ParseAddr(a.Local); err == nil && !a.Tentative {
					return addr
				}
			}
		}
	}
	t.Fatalf("enginetest: %s has no usable IPv6 link-local address within 5 s", dev)
	return netip.Addr{}
}

// HostInterface returns the interface of the Engine's namespace that holds
// addr: a network's bridge, found by its gateway. It skips t unless the
// test runs in that namespace.
func HostInterface(t testing.TB, addr netip.Addr) HostIface {
	t.Helper()
	InEngineNetns(t)
	list, err := net.Interfaces()
	if err != nil {
		t.Fatalf("enginetest: %v", err)
		return HostIface{}
	}
	for _, ifc := range list {
		h := HostIface{Name: ifc.Name, MAC: ifc.HardwareAddr}
		addrs, _ := ifc.Addrs()
		found := false
		for _, a := range addrs {
			if p, err := netip.ParsePrefix(a.String()); err == nil {
				h.Addrs = append(h.Addrs, p)
				found = found || p.Addr() == addr
			}
		}
		if found {
			return h
		}
	}
	t.Fatalf("enginetest: no interface holds %s", addr)
	return HostIface{}
}

// Neighbour returns the MAC the host's neighbour table holds for addr on
// dev; nil when it holds none (no entry, or one being resolved or failed).
func Neighbour(t testing.TB, dev string, addr netip.Addr) net.HardwareAddr {
	t.Helper()
	out, err := exec.Command("ip", "-j", "neigh", "show", addr.String(), "dev", dev).Output()
	if err != nil {
		t.Fatalf("enginetest: ip neigh show %s dev %s: %v", addr, dev, err)
		return nil
	}
	var entries []struct {
		Lladdr string
		State  []string
	}
	if err := json.Unmarshal(out, &entries); err != nil {
		t.Fatalf("enginetest: ip neigh show %s dev %s: %v: %s", addr, dev, err, out)
		return nil
	}
	for _, e := range entries {
		if mac, err := net.ParseMAC(e.Lladdr); err == nil {
			return mac
		}
	}
	return nil
}

// LearnNeighbour makes the host resolve addr on dev, as it does before it
// sends there: it sends UDP datagrams to addr's port 9 until the neighbour
// table holds addr's MAC, and returns it. It fails t after 5 s.
func LearnNeighbour(t testing.TB, dev string, addr netip.Addr) net.HardwareAddr {
	t.Helper()
	conn, err := net.Dial("udp", netip.AddrPortFrom(addr, 9).String())
	if err != nil {
		t.Fatalf("enginetest: %v", err)
		return nil
	}
	defer conn.Close()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		_, _ = conn.Write([]byte("kicikit-neighbour"))
		if mac := Neighbour(t, dev, addr); mac != nil {
			return mac
		}
	}
	t.Fatalf("enginetest: the host did not resolve %s on %s within 5 s", addr, dev)
	return nil
}

// FDBPort returns the port of bridge whose forwarding database holds mac,
// as the bridge learnt it; "" when none does.
func FDBPort(t testing.TB, bridge string, mac net.HardwareAddr) string {
	t.Helper()
	out, err := exec.Command("bridge", "-j", "fdb", "show", "br", bridge).Output()
	if err != nil {
		t.Fatalf("enginetest: bridge fdb show br %s: %v", bridge, err)
		return ""
	}
	var entries []struct {
		Mac    string
		Ifname string
		Flags  []string
		State  string
	}
	if err := json.Unmarshal(out, &entries); err != nil {
		t.Fatalf("enginetest: bridge fdb show br %s: %v: %s", bridge, err, out)
		return ""
	}
	for _, e := range entries {
		if strings.EqualFold(e.Mac, mac.String()) && e.Ifname != bridge {
			return e.Ifname
		}
	}
	return ""
}

// Sink is a UDP socket of the host that records the marks of the
// datagrams it receives.
type Sink struct {
	conn *net.UDPConn
	mu   sync.Mutex
	got  map[uint32]int
}

// ListenUDP opens a [Sink] on addr, at a port of the kernel's choosing,
// closed when t ends.
func ListenUDP(t testing.TB, addr netip.Addr) *Sink {
	t.Helper()
	conn, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(netip.AddrPortFrom(addr, 0)))
	if err != nil {
		t.Fatalf("enginetest: %v", err)
		return nil
	}
	s := &Sink{conn: conn, got: map[uint32]int{}}
	t.Cleanup(func() { _ = conn.Close() })
	go s.read()
	return s
}

func (s *Sink) read() {
	buf := make([]byte, 2048)
	for {
		n, err := s.conn.Read(buf)
		if err != nil {
			return
		}
		if n >= 4 {
			s.mu.Lock()
			s.got[uint32(buf[0])<<24|uint32(buf[1])<<16|uint32(buf[2])<<8|uint32(buf[3])]++
			s.mu.Unlock()
		}
	}
}

// Port returns the sink's port.
func (s *Sink) Port() uint16 { return uint16(s.conn.LocalAddr().(*net.UDPAddr).Port) }

// Received returns how many datagrams of that mark the sink received.
func (s *Sink) Received(mark uint32) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.got[mark]
}
