package scalerconfig

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/internal/jsstr"
)

// The orchestrator's rules for the network entries of a scaler config: a
// firecracker scaler's extraHosts entry (firecracker-extra-hosts.ts) and a
// network policy's hostAccess entry (packages/shared's net). The error
// texts are the orchestrator's, which its messages carry.

// digits returns the end of the ASCII digits of s from i.
func digits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// The patterns of node's net.isIP and of an RFC 1123 host name. JavaScript
// and RE2 agree on whether these match a whole string.
const (
	v4Seg = `(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])`
	v4Str = `(?:` + v4Seg + `\.){3}` + v4Seg
	v6Seg = `(?:[0-9a-fA-F]{1,4})`
	ipv6  = `^(?:` +
		`(?:` + v6Seg + `:){7}(?:` + v6Seg + `|:)|` +
		`(?:` + v6Seg + `:){6}(?:` + v4Str + `|:` + v6Seg + `|:)|` +
		`(?:` + v6Seg + `:){5}(?::` + v4Str + `|(?::` + v6Seg + `){1,2}|:)|` +
		`(?:` + v6Seg + `:){4}(?:(?::` + v6Seg + `){0,1}:` + v4Str + `|(?::` + v6Seg + `){1,3}|:)|` +
		`(?:` + v6Seg + `:){3}(?:(?::` + v6Seg + `){0,2}:` + v4Str + `|(?::` + v6Seg + `){1,4}|:)|` +
		`(?:` + v6Seg + `:){2}(?:(?::` + v6Seg + `){0,3}:` + v4Str + `|(?::` + v6Seg + `){1,5}|:)|` +
		`(?:` + v6Seg + `:){1}(?:(?::` + v6Seg + `){0,4}:` + v4Str + `|(?::` + v6Seg + `){1,6}|:)|` +
		`(?::(?:(?::` + v6Seg + `){0,5}:` + v4Str + `|(?::` + v6Seg + `){1,7}|:))` +
		`)(?:%[0-9a-zA-Z-.:]{1,})?$`
	hostLabel = `[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?`
	hostname  = `^` + hostLabel + `(?:\.` + hostLabel + `)*$`
)

// patterns are the compiled patterns; Load compiles them once per call.
type patterns struct {
	ipv4, ipv6, hostname *regexp.Regexp
}

func compilePatterns() *patterns {
	return &patterns{
		ipv4:     regexp.MustCompile(`^` + v4Str + `$`),
		ipv6:     regexp.MustCompile(ipv6),
		hostname: regexp.MustCompile(hostname),
	}
}

// isIP reports whether node's net.isIP reads s as an IPv4 or IPv6 address.
func (pt *patterns) isIP(s string) bool { return pt.ipv4.MatchString(s) || pt.ipv6.MatchString(s) }

// checkExtraHost checks a firecracker scaler's extraHosts entry:
// host:address, the host a host name, the address an IP address or
// host-gateway.
func (pt *patterns) checkExtraHost(entry string) error {
	host, addr, _ := strings.Cut(entry, ":")
	if host == "" || addr == "" {
		return errors.New(`extraHosts entry "` + entry + `" must be host:address`)
	}
	if !pt.hostname.MatchString(host) {
		return errors.New(`extraHosts entry "` + entry + `": "` + host + `" is not a valid hostname`)
	}
	if addr != "host-gateway" && !pt.isIP(addr) {
		return errors.New(`extraHosts entry "` + entry + `": the address must be an IP address or host-gateway`)
	}
	return nil
}

// checkHostAccess checks a network policy's hostAccess entry:
// <cidr|address|*>[:<port|*>], or a bare port, after trimming.
func checkHostAccess(entry string) error {
	t := jsstr.Trim(entry)
	if t == "" {
		return errors.New("hostAccess entry is empty")
	}
	if isDigits(t) {
		return checkPort(t, entry)
	}
	addr, port, hasPort := t, "", false
	if c := strings.LastIndexByte(t, ':'); c >= 0 {
		addr, port, hasPort = t[:c], t[c+1:], true
	}
	if addr != "*" && !isIPv4OrCIDR(addr) {
		return errors.New(`hostAccess entry "` + entry + `" names "` + addr + `", which is not an IPv4 address, ` +
			`an IPv4 CIDR, or "*". Hostnames are not accepted — nftables matches addresses, and a ` +
			`name resolved at rule-build time goes stale without warning.`)
	}
	if hasPort && port != "*" {
		return checkPort(port, entry)
	}
	return nil
}

func isDigits(s string) bool { return s != "" && digits(s, 0) == len(s) }

// checkPort checks the port of a hostAccess entry: decimal digits, 1 to 65535.
func checkPort(v, entry string) error {
	if !isDigits(v) {
		return errors.New(`hostAccess entry "` + entry + `" has a non-numeric port "` + v + `"`)
	}
	n := strings.TrimLeft(v, "0")
	if p, err := strconv.Atoi(n); len(n) > 5 || err != nil || p < 1 || p > 65535 {
		return errors.New(`hostAccess entry "` + entry + `" has port ` + v + `, outside 1-65535`)
	}
	return nil
}

// isIPv4OrCIDR reports whether s is a dotted quad of 1 to 3 digit octets up
// to 255, with an optional /prefix of 1 or 2 digits up to 32.
func isIPv4OrCIDR(s string) bool {
	addr, prefix, hasPrefix := strings.Cut(s, "/")
	if hasPrefix && !smallNumber(prefix, 2, 32) {
		return false
	}
	parts := strings.Split(addr, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if !smallNumber(p, 3, 255) {
			return false
		}
	}
	return true
}

// smallNumber reports whether s is 1 to width digits, at most max.
func smallNumber(s string, width, max int) bool {
	if s == "" || len(s) > width || !isDigits(s) {
		return false
	}
	n, _ := strconv.Atoi(s)
	return n <= max
}
