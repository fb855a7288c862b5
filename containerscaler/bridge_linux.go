//go:build linux

package containerscaler

import (
	"encoding/binary"
	"errors"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// lldpGroup is the bit of the LLDP group address, 01:80:c2:00:00:0e, in a
// bridge's group_fwd_mask.
const lldpGroup = 1 << 0x0e

// forwardLinkLocal makes the bridge of this network namespace named name
// forward frames to the LLDP group address as it forwards others, through
// the bridge family's prerouting hook. Without it, Linux learns such a
// frame's source MAC and hands the frame up as received on the port,
// meeting no bridge hook at all: an agent could poison the bridge, and
// send the host what its binding forbids. The other link-local group
// addresses meet a hook either way.
func forwardLinkLocal(name string) error {
	ifc, err := net.InterfaceByName(name)
	if err != nil {
		return err
	}
	mask, err := groupFwdMask(ifc.Index)
	if err != nil || mask&lldpGroup != 0 {
		return err
	}
	s, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE)
	if err != nil {
		return os.NewSyscallError("socket", err)
	}
	defer unix.Close(s)
	if err := unix.Sendto(s, setMaskRequest(ifc.Index, mask|lldpGroup), 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return os.NewSyscallError("sendto", err)
	}
	buf := make([]byte, 4096)
	n, _, err := unix.Recvfrom(s, buf, 0)
	if err != nil {
		return os.NewSyscallError("recvfrom", err)
	}
	return ackError(buf[:n])
}

// groupFwdMask reads the group_fwd_mask of the bridge of index.
func groupFwdMask(index int) (uint16, error) {
	msgs, err := netlink(unix.RTM_GETLINK, unix.AF_UNSPEC)
	if err != nil {
		return 0, err
	}
	for _, m := range msgs {
		if m.Header.Type != unix.RTM_NEWLINK || len(m.Data) < unix.SizeofIfInfomsg ||
			int(int32(binary.NativeEndian.Uint32(m.Data[4:8]))) != index {
			continue
		}
		info := attr(m.Data[unix.SizeofIfInfomsg:], unix.IFLA_LINKINFO)
		if mask := attr(attr(info, unix.IFLA_INFO_DATA), unix.IFLA_BR_GROUP_FWD_MASK); len(mask) == 2 {
			return binary.NativeEndian.Uint16(mask), nil
		}
		return 0, errors.New("interface is not a bridge")
	}
	return 0, errors.New("no interface of that index")
}

// attr is the value of the first attribute of type typ in a list of
// netlink attributes; nil when there is none.
func attr(b []byte, typ uint16) []byte {
	for len(b) >= unix.SizeofRtAttr {
		l := int(binary.NativeEndian.Uint16(b[0:2]))
		if l < unix.SizeofRtAttr || l > len(b) {
			return nil
		}
		if binary.NativeEndian.Uint16(b[2:4])&^unix.NLA_F_NESTED == typ {
			return b[unix.SizeofRtAttr:l]
		}
		b = b[min(len(b), (l+3)&^3):]
	}
	return nil
}

// setMaskRequest is the netlink request that sets the group_fwd_mask of
// the bridge of index.
func setMaskRequest(index int, mask uint16) []byte {
	var value [2]byte
	binary.NativeEndian.PutUint16(value[:], mask)
	data := rtattr(unix.IFLA_INFO_DATA|unix.NLA_F_NESTED, rtattr(unix.IFLA_BR_GROUP_FWD_MASK, value[:]))
	info := rtattr(unix.IFLA_LINKINFO|unix.NLA_F_NESTED, append(rtattr(unix.IFLA_INFO_KIND, []byte("bridge\x00")), data...))
	msg := make([]byte, unix.SizeofNlMsghdr+unix.SizeofIfInfomsg, unix.SizeofNlMsghdr+unix.SizeofIfInfomsg+len(info))
	msg = append(msg, info...)
	binary.NativeEndian.PutUint32(msg[0:4], uint32(len(msg)))
	binary.NativeEndian.PutUint16(msg[4:6], unix.RTM_NEWLINK)
	binary.NativeEndian.PutUint16(msg[6:8], unix.NLM_F_REQUEST|unix.NLM_F_ACK)
	binary.NativeEndian.PutUint32(msg[8:12], 1)
	h := unix.SizeofNlMsghdr
	msg[h] = unix.AF_UNSPEC
	binary.NativeEndian.PutUint32(msg[h+4:h+8], uint32(index))
	return msg
}

// rtattr is one netlink attribute, padded to 4 bytes.
func rtattr(typ uint16, value []byte) []byte {
	l := unix.SizeofRtAttr + len(value)
	b := make([]byte, (l+3)&^3)
	binary.NativeEndian.PutUint16(b[0:2], uint16(l))
	binary.NativeEndian.PutUint16(b[2:4], typ)
	copy(b[unix.SizeofRtAttr:], value)
	return b
}

// ackError is the error of a netlink acknowledgement; nil for success.
func ackError(b []byte) error {
	if len(b) < unix.SizeofNlMsghdr+4 || binary.NativeEndian.Uint16(b[4:6]) != unix.NLMSG_ERROR {
		return errors.New("netlink: no acknowledgement")
	}
	if code := int32(binary.NativeEndian.Uint32(b[unix.SizeofNlMsghdr:])); code != 0 {
		return os.NewSyscallError("netlink", unix.Errno(-code))
	}
	return nil
}
