//go:build !linux

package containerscaler

import (
	"errors"
	"net/netip"
)

// portOf finds the network port of a container: only on Linux, where the
// bridge of the isolated network and nftables are.
func portOf(int, string, netip.Addr) (binding, error) {
	return binding{}, errors.New("binding an agent to its network port needs Linux")
}
