//go:build linux

package containerscaler

import (
	"context"
	"crypto/rand"
	"net/netip"
	"strings"
	"testing"

	"github.com/kicikit/kicikit/internal/enginetest"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOtherBridgesSpared: the bridge family's hooks see every bridge of
// the host, and the kernel cannot tell them apart (no meta ibrname), so
// the rules of an isolated network's agents must leave other networks'
// containers alone. With an agent running, a container on another bridge
// network reaches the host over IPv4, over IPv6 to the bridge's
// link-local address, and in a frame with one VLAN tag of VLAN 0.
func TestOtherBridgesSpared(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	b, image := a.backendHere()
	a.spawnAs(b, "agent", "strict")
	other, gw := a.otherNetwork()
	id := a.outsiderOn(image, other)
	linkLocal := enginetest.LinkLocal(t, enginetest.HostInterface(t, gw).Name)
	udp := func(dst netip.Addr, tag bool) enginetest.Packet {
		return enginetest.Packet{Proto: enginetest.UDP, Dst: dst, Port: closedPort, Tag: tag}
	}
	for i, got := range a.oracle.Send(a.c, id, udp(gw, false), udp(linkLocal, false), udp(gw, true)) {
		assert.Equal(t, enginetest.Passage{Input: 1}, got, "packet %d (IPv4, IPv6, tagged IPv4) reaches the host", i)
	}
}

// otherNetwork makes a bridge network of the test's own, a free /24 of
// 10.97.0.0/16 named after the test, removed at its end, and returns its
// name and gateway.
func (a *attackEnv) otherNetwork() (string, netip.Addr) {
	a.t.Helper()
	for range 20 {
		var r [1]byte
		_, _ = rand.Read(r[:])
		subnet := netip.PrefixFrom(netip.AddrFrom4([4]byte{10, 97, r[0], 0}), 24)
		gw := subnet.Addr().Next()
		name := a.name + "-other"
		_, err := a.c.NetworkCreate(context.Background(), name, client.NetworkCreateOptions{Driver: "bridge",
			IPAM: &network.IPAM{Config: []network.IPAMConfig{{Subnet: subnet, Gateway: gw}}}})
		if err != nil && strings.Contains(err.Error(), "overlaps") {
			continue // a parallel test's
		}
		require.NoError(a.t, err)
		a.t.Cleanup(func() { _, _ = a.c.NetworkRemove(context.Background(), name, client.NetworkRemoveOptions{}) })
		return name, gw
	}
	a.t.Fatal("no free /24 in 10.97.0.0/16")
	return "", netip.Addr{}
}

// outsiderOn starts a container of image on the network name, removed at
// the end of the test.
func (a *attackEnv) outsiderOn(image, name string) string {
	a.t.Helper()
	ctx := context.Background()
	res, err := a.c.ContainerCreate(ctx, client.ContainerCreateOptions{
		Config:     &container.Config{Image: image, Labels: map[string]string{"kicikit.test": a.name}},
		HostConfig: &container.HostConfig{NetworkMode: container.NetworkMode(name)},
	})
	require.NoError(a.t, err)
	a.t.Cleanup(func() {
		_, _ = a.c.ContainerRemove(context.Background(), res.ID, client.ContainerRemoveOptions{Force: true})
	})
	_, err = a.c.ContainerStart(ctx, res.ID, client.ContainerStartOptions{})
	require.NoError(a.t, err)
	return res.ID
}
