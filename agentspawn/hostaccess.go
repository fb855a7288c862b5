package agentspawn

import (
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/scalerconfig"
)

// HostAccessInput is what [HostAccess] decides from.
type HostAccessInput struct {
	// Policy is the label set's networkPolicy; nil when it has none.
	Policy *scalerconfig.NetworkPolicy
	// OrchestratorURL is the URL the agent dials ([Request].OrchestratorURL).
	OrchestratorURL string
	// Gateway is the host's address on the agent's network:
	// [IsolatedNetworkGateway] for a container agent.
	Gateway string
	// HostServices are hostAccess entries for the services on this host the
	// orchestrator itself sends agents to, such as its object store. They are
	// folded into the default.
	HostServices []string
}

// HostAccess returns the hostAccess entries that say what an agent may
// reach on the orchestrator's own host. The container backend turns them
// into the nftables input rules of the agent's container. It is
// resolveAgentHostAccess in host-access.ts, at db60c39.
//
// A label set's networkPolicy.hostAccess wins as written. An empty one means
// nothing on the host. Without one the agent gets, each entry once, at its
// first place:
//
//	Gateway:53        DNS on the gateway
//	*:port            the orchestrator's port on any host address
//	HostServices
//
// The port is that of OrchestratorURL, or its scheme's: 80 for http and ws,
// 443 for https and wss. There is none when the URL names neither, or
// cannot be parsed. The package documentation says how the URL is read.
func HostAccess(in HostAccessInput) []string {
	if in.Policy != nil && in.Policy.HostAccess != nil {
		return slices.Clone(in.Policy.HostAccess)
	}
	var set orderedSet
	set.add(in.Gateway + ":53")
	if port, ok := urlPort(in.OrchestratorURL); ok {
		set.add("*:" + port)
	}
	set.add(in.HostServices...)
	return set.list
}

// urlPort returns the port of a URL, named or implied by its scheme, as
// host-access.ts's portOf reads it, and whether it has one.
func urlPort(raw string) (string, bool) {
	scheme, rest, ok := urlScheme(urlClean(raw))
	if !ok || scheme == "file" { // a file URL has no port: one makes it invalid
		return "", false
	}
	def, special := defaultPorts(scheme)
	if special {
		rest = strings.TrimLeft(rest, `/\`)
	} else if rest, ok = strings.CutPrefix(rest, "//"); !ok {
		return "", false
	}
	rest, _, _ = cutAny(rest, authorityEnd(special))
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	host, port, ok := hostPort(rest)
	if !ok || !validHost(host, special) {
		return "", false
	}
	if port == "" || port == def {
		port = implicitPort(scheme)
	}
	return port, port != ""
}

// urlClean removes what the WHATWG parser ignores: C0 controls and spaces
// at either end, tabs and newlines anywhere.
func urlClean(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	}
	return s
}

// urlScheme splits a URL into its scheme, lower-cased, and what follows
// the ":" after it.
func urlScheme(s string) (string, string, bool) {
	colon := strings.IndexByte(s, ':')
	if colon < 1 || !isLetter(s[0]) {
		return "", "", false
	}
	for i := 1; i < colon; i++ {
		if c := s[i]; !isLetter(c) && !('0' <= c && c <= '9') && c != '+' && c != '-' && c != '.' {
			return "", "", false
		}
	}
	return strings.ToLower(s[:colon]), s[colon+1:], true
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// defaultPorts returns the default port of a special scheme and whether
// the scheme is special (file, the other one, is handled before).
func defaultPorts(scheme string) (string, bool) {
	switch scheme {
	case "http", "ws":
		return "80", true
	case "https", "wss":
		return "443", true
	case "ftp":
		return "21", true
	}
	return "", false
}

// implicitPort is the port a scheme implies in host-access.ts.
func implicitPort(scheme string) string {
	switch scheme {
	case "http", "ws":
		return "80"
	case "https", "wss":
		return "443"
	}
	return ""
}

// cutAny returns s up to the first of chars, and whether it has one.
func cutAny(s, chars string) (string, bool, int) {
	for i, c := range s {
		if strings.ContainsRune(chars, c) {
			return s[:i], true, i
		}
	}
	return s, false, len(s)
}

// authorityEnd are the characters that end a URL's authority.
func authorityEnd(special bool) string {
	if special {
		return `/\?#`
	}
	return "/?#"
}

// hostPort splits an authority without its user info into the host and
// the port, normalised ("" for none), and whether both are valid: a port
// needs a host before it.
func hostPort(s string) (string, string, bool) {
	host, port, found := s, "", false
	if inner, ok := strings.CutPrefix(s, "["); ok {
		address, after, closed := strings.Cut(inner, "]")
		if ip, err := netip.ParseAddr(address); !closed || err != nil || !ip.Is6() || ip.Zone() != "" {
			return "", "", false
		}
		host = "[" + address + "]"
		if port, found = strings.CutPrefix(after, ":"); !found && port != "" {
			return "", "", false
		}
	} else {
		host, port, found = strings.Cut(s, ":")
	}
	if found && host == "" {
		return "", "", false
	}
	if port == "" {
		return host, "", true
	}
	n, err := strconv.ParseUint(port, 10, 64)
	if err != nil || n > 65535 {
		return "", "", false
	}
	return host, strconv.FormatUint(n, 10), true
}

// validHost reports whether a URL's host passes the checks HostAccess
// makes. A special URL's host must not be empty and, percent-decoded, hold
// no forbidden domain code point, and be an IPv4 address when its last
// label is a number ([ipv4Refused]); another's holds no forbidden host
// code point ("%" is allowed there).
func validHost(host string, special bool) bool {
	if strings.HasPrefix(host, "[") {
		return true
	}
	forbidden := "#/:<>?@[\\]^|"
	if special {
		host, forbidden = percentDecode(host), forbidden+"%"
		if host == "" || ipv4Refused(host) {
			return false
		}
	}
	return !strings.ContainsFunc(host, func(r rune) bool {
		if special {
			return r <= ' ' || r == 0x7F || strings.ContainsRune(forbidden, r)
		}
		return r == 0 || r == ' ' || strings.ContainsRune(forbidden, r)
	})
}

// ipv4Refused reports whether the WHATWG host parser refuses host, a
// special URL's host percent-decoded, as an IPv4 address: a host whose
// last label (after one trailing dot) is a number ("ends in a number")
// is parsed as one, and refused unless it is at most four numbers
// (decimal, 0x hex or 0-led octal), each but the last at most 255 and the
// last below 256^(5 − count). So 10.0.0.256 and foo.1 are no host, and
// 0x7f.1 is 127.0.0.1.
func ipv4Refused(host string) bool {
	parts := strings.Split(strings.ToLower(host), ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if !isNumberLabel(parts[len(parts)-1]) {
		return false // a domain
	}
	if len(parts) > 4 {
		return true
	}
	for i, p := range parts {
		n, ok := ipv4Number(p)
		limit := uint64(255)
		if i == len(parts)-1 {
			limit = 1<<(8*(5-len(parts))) - 1
		}
		if !ok || n > limit {
			return true
		}
	}
	return false
}

// isNumberLabel reports whether a host's last label makes it "end in a
// number": ASCII digits, or an IPv4 number of another form (0x1f).
func isNumberLabel(label string) bool {
	_, number := ipv4Number(label)
	return label != "" && (number || strings.Trim(label, "0123456789") == "")
}

// ipv4Number is the WHATWG IPv4 number parser: decimal, hexadecimal after
// "0x", octal after a leading "0"; a value past uint64 saturates (it is
// refused either way).
func ipv4Number(s string) (uint64, bool) {
	radix := uint64(10)
	switch {
	case s == "":
		return 0, false
	case len(s) >= 2 && s[:2] == "0x":
		s, radix = s[2:], 16
	case len(s) >= 2 && s[0] == '0':
		s, radix = s[1:], 8
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		d, err := strconv.ParseUint(s[i:i+1], int(radix), 8)
		if err != nil {
			return 0, false
		}
		n = min(n, (1<<64-1-d)/radix)*radix + d // saturates instead of wrapping
	}
	return n, true
}

// percentDecode decodes %XX escapes; a "%" not followed by two hex digits
// is kept, as the WHATWG parser keeps it (and then refuses it in a host).
func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
