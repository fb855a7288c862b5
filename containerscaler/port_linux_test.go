package containerscaler

import (
	"net/netip"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPortOfRefuses: a port is read only from a process in the container's
// cgroup, and only from an interface that is one end of a veth pair.
func TestPortOfRefuses(t *testing.T) {
	t.Parallel()
	addr := netip.MustParseAddr("127.0.0.1")
	_, err := portOf(1<<30, "abc", addr)
	assert.ErrorIs(t, err, os.ErrNotExist, "a process that does not exist")
	if _, err := os.Stat("/proc/self/ns/net"); err != nil {
		t.Skip("no /proc/self/ns/net:", err)
	}
	for _, id := range []string{"", "0123456789abcdef-no-such-container"} {
		_, err = portOf(os.Getpid(), id, addr)
		assert.ErrorContains(t, err, "is not in the container's cgroup", "container id %q", id)
	}
}

// TestLinkOf: the interface holding an address must be one end of a pair
// with an Ethernet address; loopback is not.
func TestLinkOf(t *testing.T) {
	t.Parallel()
	_, err := linkOf(netip.MustParseAddr("127.0.0.1"))
	assert.ErrorContains(t, err, "is not one end of a pair")
	_, err = linkOf(netip.MustParseAddr("192.0.2.77"))
	assert.EqualError(t, err, "no interface holds 192.0.2.77")
}

// TestInNetns: f runs in the namespace given, and a file that is no
// network namespace is refused before f runs.
func TestInNetns(t *testing.T) {
	t.Parallel()
	notNS, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer notNS.Close()
	ran := false
	_, err = inNetns(notNS, func() (binding, error) { ran = true; return binding{}, nil })
	assert.ErrorContains(t, err, "setns")
	assert.False(t, ran)

	self, err := os.Open("/proc/self/ns/net")
	if err != nil {
		t.Skip("no /proc/self/ns/net:", err)
	}
	defer self.Close()
	want := binding{addr: netip.MustParseAddr("192.0.2.1"), port: 7}
	got, err := inNetns(self, func() (binding, error) { return want, nil })
	if os.Geteuid() != 0 {
		assert.ErrorContains(t, err, "setns", "setns needs CAP_SYS_ADMIN")
		return
	}
	require.NoError(t, err)
	assert.Equal(t, want, got)
}
