// Package netpolicy reads the entries of a label set's networkPolicy as the
// orchestrator's nftables layer does. That layer is
// packages/shared/src/net/nftables.ts in kici-dev/kici-public at 221047e
// (parseHostAccess, isIpv4OrCidr).
//
// The config's validation (package scalerconfig) reads entries here. So do
// the rules an agent container gets (package agentspawn). So a config that
// loads is a config whose rules can be written.
package netpolicy

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/internal/jsstr"
)

// HostAccess is one hostAccess entry: what an agent may reach on the host.
type HostAccess struct {
	// Dest is the host addresses the entry opens; the zero Prefix is any.
	Dest netip.Prefix
	// Port is the TCP and UDP port it opens; 0 is every port.
	Port uint16
}

// ParseHostAccess reads a hostAccess entry after JavaScript's trim. An
// entry is <cidr|address|*>[:<port|*>], or a bare port. The address is an
// IPv4 address or CIDR, as [ParseCIDR] reads it. The port is decimal
// digits, from 1 to 65535. Its errors are the orchestrator's texts, which
// name the entry as written.
func ParseHostAccess(entry string) (HostAccess, error) {
	t := jsstr.Trim(entry)
	if t == "" {
		return HostAccess{}, errors.New("hostAccess entry is empty")
	}
	if isDigits(t) {
		port, err := parsePort(t, entry)
		return HostAccess{Port: port}, err
	}
	addr, port, hasPort := t, "", false
	if c := strings.LastIndexByte(t, ':'); c >= 0 {
		addr, port, hasPort = t[:c], t[c+1:], true
	}
	var h HostAccess
	if addr != "*" {
		p, ok := ParseCIDR(addr)
		if !ok {
			return HostAccess{}, errors.New(`hostAccess entry "` + entry + `" names "` + addr + `", which is not an IPv4 address, ` +
				`an IPv4 CIDR, or "*". Hostnames are not accepted — nftables matches addresses, and a ` +
				`name resolved at rule-build time goes stale without warning.`)
		}
		h.Dest = p
	}
	if hasPort && port != "*" {
		var err error
		if h.Port, err = parsePort(port, entry); err != nil {
			return HostAccess{}, err
		}
	}
	return h, nil
}

// parsePort reads the port of a hostAccess entry: decimal digits, 1 to
// 65535, leading zeros allowed.
func parsePort(v, entry string) (uint16, error) {
	if !isDigits(v) {
		return 0, errors.New(`hostAccess entry "` + entry + `" has a non-numeric port "` + v + `"`)
	}
	n := strings.TrimLeft(v, "0")
	p, err := strconv.Atoi(n)
	if len(n) > 5 || err != nil || p < 1 || p > 65535 {
		return 0, errors.New(`hostAccess entry "` + entry + `" has port ` + v + `, outside 1-65535`)
	}
	return uint16(p), nil
}

// ParseCIDR reads an IPv4 address or CIDR as the orchestrator accepts one.
// That is a dotted quad of 1 to 3 decimal digits an octet, each at most
// 255. An optional /prefix of 1 or 2 digits, at most 32, follows. Leading
// zeros are decimal ("010" is 10). An address alone is a /32. The Prefix
// keeps the address as written, host bits included.
func ParseCIDR(s string) (netip.Prefix, bool) {
	addr, prefix, hasPrefix := strings.Cut(s, "/")
	bits := 32
	if hasPrefix {
		var ok bool
		if bits, ok = smallNumber(prefix, 2, 32); !ok {
			return netip.Prefix{}, false
		}
	}
	var quad [4]byte
	parts := strings.Split(addr, ".")
	if len(parts) != len(quad) {
		return netip.Prefix{}, false
	}
	for i, p := range parts {
		n, ok := smallNumber(p, 3, 255)
		if !ok {
			return netip.Prefix{}, false
		}
		quad[i] = byte(n)
	}
	return netip.PrefixFrom(netip.AddrFrom4(quad), bits), true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// smallNumber reads s as 1 to width decimal digits, at most max.
func smallNumber(s string, width, max int) (int, bool) {
	if len(s) > width || !isDigits(s) {
		return 0, false
	}
	n, _ := strconv.Atoi(s)
	return n, n <= max
}
