package netpolicy

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseHostAccess(t *testing.T) {
	t.Parallel()
	any4 := netip.Prefix{}
	tests := []struct {
		name  string
		entry string
		want  HostAccess
		err   string
	}{
		{"bare port", "5432", HostAccess{Dest: any4, Port: 5432}, ""},
		{"bare port, leading zeros", " 0053 ", HostAccess{Port: 53}, ""},
		{"address and port", "172.30.0.1:53", HostAccess{Dest: netip.MustParsePrefix("172.30.0.1/32"), Port: 53}, ""},
		{"any address, port", "*:4000", HostAccess{Port: 4000}, ""},
		{"any address, any port", "*:*", HostAccess{}, ""},
		{"any", "*", HostAccess{}, ""},
		{"cidr, any port", "10.1.0.0/16:*", HostAccess{Dest: netip.MustParsePrefix("10.1.0.0/16")}, ""},
		{"cidr with host bits", "10.1.2.3/8", HostAccess{Dest: netip.MustParsePrefix("10.1.2.3/8")}, ""},
		{"octet with leading zero is decimal", "010.0.0.1:22", HostAccess{Dest: netip.MustParsePrefix("10.0.0.1/32"), Port: 22}, ""},
		{"prefix with leading zero", "10.0.0.0/08", HostAccess{Dest: netip.MustParsePrefix("10.0.0.0/8")}, ""},
		{"empty", "  ", HostAccess{}, "hostAccess entry is empty"},
		{"port zero", "0", HostAccess{}, `hostAccess entry "0" has port 0, outside 1-65535`},
		{"port too large", "*:65536", HostAccess{}, `hostAccess entry "*:65536" has port 65536, outside 1-65535`},
		{"long port of zeros", "*:000000000053", HostAccess{Port: 53}, ""},
		{"empty port", "1.2.3.4:", HostAccess{}, `hostAccess entry "1.2.3.4:" has a non-numeric port ""`},
		{"signed port", "*:+53", HostAccess{}, `hostAccess entry "*:+53" has a non-numeric port "+53"`},
		{"hostname", "db.local:5432", HostAccess{}, `hostAccess entry "db.local:5432" names "db.local", which is not an IPv4 address, an IPv4 CIDR, or "*". Hostnames are not accepted — nftables matches addresses, and a name resolved at rule-build time goes stale without warning.`},
		{"octet too large", "256.0.0.1", HostAccess{}, `hostAccess entry "256.0.0.1" names "256.0.0.1", which is not an IPv4 address, an IPv4 CIDR, or "*". Hostnames are not accepted — nftables matches addresses, and a name resolved at rule-build time goes stale without warning.`},
		{"ipv6", "[::1]:53", HostAccess{}, `hostAccess entry "[::1]:53" names "[::1]", which is not an IPv4 address, an IPv4 CIDR, or "*". Hostnames are not accepted — nftables matches addresses, and a name resolved at rule-build time goes stale without warning.`},
		{"empty address", ":53", HostAccess{}, `hostAccess entry ":53" names "", which is not an IPv4 address, an IPv4 CIDR, or "*". Hostnames are not accepted — nftables matches addresses, and a name resolved at rule-build time goes stale without warning.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseHostAccess(tt.entry)
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				assert.Equal(t, HostAccess{}, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseCIDR(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string // "" when refused
	}{
		{"10.0.0.0/8", "10.0.0.0/8"},
		{"192.168.1.7", "192.168.1.7/32"},
		{"0.0.0.0/0", "0.0.0.0/0"},
		{"1.2.3.4/33", ""},
		{"1.2.3.4/", ""},
		{"1.2.3.4/008", ""},
		{"1.2.3", ""},
		{"1.2.3.4.5", ""},
		{"1.2.3.0004", ""},
		{"1.2.3.-4", ""},
		{"", ""},
		{"a.b.c.d", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, ok := ParseCIDR(tt.in)
			if tt.want == "" {
				assert.False(t, ok)
				assert.Equal(t, netip.Prefix{}, got)
				return
			}
			require.True(t, ok)
			assert.Equal(t, netip.MustParsePrefix(tt.want), got)
		})
	}
}
