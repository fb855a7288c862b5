package scalerconfig

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/internal/jsstr"
)

// The value rules the orchestrator's refinements and transforms apply: a
// memory size, a firecracker extraHosts entry, a hostAccess entry. The
// error texts are the orchestrator's, which its messages carry.

// memoryBytes reads a resource cap's maxMemory: digits, an optional
// fraction, optional white space and a unit k, m or g (either case), as
// bytes rounded down.
func memoryBytes(s string) (float64, error) {
	i := digits(s, 0)
	if i > 0 && i < len(s) && s[i] == '.' {
		if j := digits(s, i+1); j > i+1 {
			i = j
		}
	}
	number := s[:i]
	rest := s[i:]
	for n := jsstr.SpaceLen(rest); n > 0; n = jsstr.SpaceLen(rest) {
		rest = rest[n:]
	}
	if number == "" || len(rest) != 1 {
		return 0, errors.New(`Invalid memory format: "` + s + `". Expected format like "512m", "2g", or "1024k".`)
	}
	v, _ := strconv.ParseFloat(number, 64) // digits[.digits]: only overflow fails, to +Inf as parseFloat
	switch rest[0] {
	case 'k', 'K':
		return math.Floor(v * 1024), nil
	case 'm', 'M':
		return math.Floor(v * 1024 * 1024), nil
	case 'g', 'G':
		return math.Floor(v * 1024 * 1024 * 1024), nil
	}
	return 0, errors.New(`Invalid memory format: "` + s + `". Expected format like "512m", "2g", or "1024k".`)
}

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
