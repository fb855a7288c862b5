package containerscaler

import (
	"encoding/binary"
	"net"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestSetMaskRequest: the request carries the bridge's index and, nested
// in its link info, the mask, as attr reads them back.
func TestSetMaskRequest(t *testing.T) {
	t.Parallel()
	msg := setMaskRequest(42, 0x4001)
	require.Len(t, msg, int(binary.NativeEndian.Uint32(msg[0:4])))
	assert.Equal(t, uint16(unix.RTM_NEWLINK), binary.NativeEndian.Uint16(msg[4:6]))
	body := msg[unix.SizeofNlMsghdr:]
	assert.Equal(t, uint32(42), binary.NativeEndian.Uint32(body[4:8]))
	info := attr(body[unix.SizeofIfInfomsg:], unix.IFLA_LINKINFO)
	assert.Equal(t, []byte("bridge\x00"), attr(info, unix.IFLA_INFO_KIND))
	mask := attr(attr(info, unix.IFLA_INFO_DATA), unix.IFLA_BR_GROUP_FWD_MASK)
	require.Len(t, mask, 2)
	assert.Equal(t, uint16(0x4001), binary.NativeEndian.Uint16(mask))
}

// TestAttrMalformed: a list whose lengths lie yields nothing, not a panic.
func TestAttrMalformed(t *testing.T) {
	t.Parallel()
	good := rtattr(3, []byte{1, 2, 3})
	assert.Equal(t, []byte{1, 2, 3}, attr(good, 3))
	assert.Nil(t, attr(good, 4), "no such attribute")
	short := append([]byte{}, good...)
	binary.NativeEndian.PutUint16(short[0:2], 2)
	assert.Nil(t, attr(short, 3), "a length below the header's")
	long := append([]byte{}, good...)
	binary.NativeEndian.PutUint16(long[0:2], 200)
	assert.Nil(t, attr(long, 3), "a length past the end")
	assert.Nil(t, attr(good[:3], 3), "a header cut short")
}

// TestAckError: netlink's answer is an error message; code 0 is success.
func TestAckError(t *testing.T) {
	t.Parallel()
	ack := func(typ uint16, code int32) []byte {
		b := make([]byte, unix.SizeofNlMsghdr+4)
		binary.NativeEndian.PutUint16(b[4:6], typ)
		binary.NativeEndian.PutUint32(b[unix.SizeofNlMsghdr:], uint32(code))
		return b
	}
	assert.NoError(t, ackError(ack(unix.NLMSG_ERROR, 0)))
	assert.ErrorIs(t, ackError(ack(unix.NLMSG_ERROR, -int32(syscall.EPERM))), syscall.EPERM)
	assert.EqualError(t, ackError(ack(unix.NLMSG_DONE, 0)), "netlink: no acknowledgement")
	assert.EqualError(t, ackError(nil), "netlink: no acknowledgement")
}

// TestForwardLinkLocalRefuses: only a bridge of this namespace has a
// group_fwd_mask.
func TestForwardLinkLocalRefuses(t *testing.T) {
	t.Parallel()
	assert.Error(t, forwardLinkLocal("kici-no-such-if"))
	lo, err := net.InterfaceByName("lo")
	if err != nil {
		t.Skip("no loopback interface:", err)
	}
	assert.EqualError(t, forwardLinkLocal("lo"), "interface is not a bridge")
	_, err = groupFwdMask(lo.Index)
	assert.EqualError(t, err, "interface is not a bridge")
	_, err = groupFwdMask(1 << 30)
	assert.EqualError(t, err, "no interface of that index")
}
