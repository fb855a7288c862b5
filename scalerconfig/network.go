package scalerconfig

import (
	"errors"
	"regexp"
	"strings"

	"github.com/kicikit/kicikit/internal/netpolicy"
)

// The orchestrator's rules for the network entries of a scaler config: a
// firecracker scaler's extraHosts entry (firecracker-extra-hosts.ts) and a
// network policy's hostAccess entry (packages/shared's net). The error
// texts are the orchestrator's, which its messages carry.

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

// checkHostAccess checks a network policy's hostAccess entry as the
// orchestrator's nftables layer reads it.
func checkHostAccess(entry string) error {
	_, err := netpolicy.ParseHostAccess(entry)
	return err
}
