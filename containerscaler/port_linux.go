//go:build linux

package containerscaler

import (
	"encoding/binary"
	"errors"
	"net"
	"net/netip"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// portOf finds the network port of container id, whose main process is
// pid: the interface that holds addr in the container's network
// namespace gives its MAC, and the index of its peer, the container's
// port (its veth) on the bridge. The namespace is read through
// /proc/<pid>, so the backend must run on the Engine's host, in its
// process namespace, with the privilege to enter another network
// namespace (root). A pid whose process is not in the container's cgroup,
// such as a pid of another host's Engine, is refused: so is a pid reused
// once the container stopped.
//
// The kernel answers, not the container: a process in it cannot change
// what its own namespace says of its address, MAC or peer without
// CAP_NET_ADMIN, which agents do not have.
func portOf(pid int, id string, addr netip.Addr) (binding, error) {
	proc := "/proc/" + strconv.Itoa(pid)
	ns, err := os.Open(proc + "/ns/net")
	if err != nil {
		return binding{}, err
	}
	defer ns.Close()
	// Read after the namespace is open: a process that is the container's
	// now was the container's when the namespace was opened.
	cgroup, err := os.ReadFile(proc + "/cgroup")
	if err != nil {
		return binding{}, err
	}
	if id == "" || !strings.Contains(string(cgroup), id) {
		return binding{}, errors.New("process " + strconv.Itoa(pid) + " is not in the container's cgroup: " +
			"the backend must run on the Engine's host, in its process namespace")
	}
	return inNetns(ns, func() (binding, error) { return linkOf(addr) })
}

// inNetns runs f on a thread of its own inside the network namespace ns.
// The thread returns to its own namespace before it runs anything else; a
// thread that cannot return stays locked, and ends with f's goroutine.
func inNetns(ns *os.File, f func() (binding, error)) (binding, error) {
	type result struct {
		b   binding
		err error
	}
	done := make(chan result, 1)
	go func() {
		runtime.LockOSThread()
		self, err := os.Open("/proc/thread-self/ns/net")
		if err != nil {
			runtime.UnlockOSThread()
			done <- result{err: err}
			return
		}
		defer self.Close()
		if err := unix.Setns(int(ns.Fd()), unix.CLONE_NEWNET); err != nil {
			runtime.UnlockOSThread()
			done <- result{err: os.NewSyscallError("setns", err)}
			return
		}
		b, err := f()
		if unix.Setns(int(self.Fd()), unix.CLONE_NEWNET) == nil {
			runtime.UnlockOSThread()
		}
		done <- result{b, err}
	}()
	r := <-done
	return r.b, r.err
}

// linkOf finds, in this thread's network namespace, the interface that
// holds addr: its MAC and the index of its peer.
func linkOf(addr netip.Addr) (binding, error) {
	index, err := indexOf(addr)
	if err != nil {
		return binding{}, err
	}
	msgs, err := netlink(syscall.RTM_GETLINK, syscall.AF_UNSPEC)
	if err != nil {
		return binding{}, err
	}
	for _, m := range msgs {
		if m.Header.Type != syscall.RTM_NEWLINK || len(m.Data) < syscall.SizeofIfInfomsg ||
			binary.NativeEndian.Uint32(m.Data[4:8]) != index {
			continue
		}
		attrs, err := syscall.ParseNetlinkRouteAttr(&m)
		if err != nil {
			return binding{}, err
		}
		b := binding{addr: addr}
		for _, a := range attrs {
			switch {
			case a.Attr.Type == syscall.IFLA_ADDRESS && len(a.Value) == 6:
				b.mac = net.HardwareAddr(a.Value)
			case a.Attr.Type == syscall.IFLA_LINK && len(a.Value) == 4:
				b.port = binary.NativeEndian.Uint32(a.Value)
			}
		}
		if b.mac == nil || b.port == 0 {
			return binding{}, errors.New("the interface holding " + addr.String() + " is not one end of a pair with an Ethernet address")
		}
		return b, nil
	}
	return binding{}, errors.New("no interface holds " + addr.String())
}

// indexOf is the index of the interface that holds addr.
func indexOf(addr netip.Addr) (uint32, error) {
	msgs, err := netlink(syscall.RTM_GETADDR, syscall.AF_INET)
	if err != nil {
		return 0, err
	}
	for _, m := range msgs {
		if m.Header.Type != syscall.RTM_NEWADDR || len(m.Data) < syscall.SizeofIfAddrmsg {
			continue
		}
		attrs, err := syscall.ParseNetlinkRouteAttr(&m)
		if err != nil {
			return 0, err
		}
		for _, a := range attrs {
			if a.Attr.Type == syscall.IFA_LOCAL || a.Attr.Type == syscall.IFA_ADDRESS {
				if got, ok := netip.AddrFromSlice(a.Value); ok && got == addr {
					return binary.NativeEndian.Uint32(m.Data[4:8]), nil
				}
			}
		}
	}
	return 0, errors.New("no interface holds " + addr.String())
}

// netlink dumps a routing table of this thread's network namespace.
func netlink(proto, family int) ([]syscall.NetlinkMessage, error) {
	rib, err := syscall.NetlinkRIB(proto, family)
	if err != nil {
		return nil, os.NewSyscallError("netlink", err)
	}
	msgs, err := syscall.ParseNetlinkMessage(rib)
	return msgs, os.NewSyscallError("netlink", err)
}
