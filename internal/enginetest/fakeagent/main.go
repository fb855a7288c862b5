// Command fakeagent plays the KiCI agent in the engine tests and prints what it sees.
//
// The test images hold it as /opt/kici/node/bin/node, so a container runs it
// as the agent, with the agent's script as its argument. It prints one fact
// a line, as a key and a value:
//
//	argv "<arg>"              each argument, Go-quoted
//	uid <n>                   from /proc/self/status
//	gid <n>
//	groups <n> <n>...         the supplementary groups
//	env "<NAME=value>"        each variable, in order, Go-quoted
//	cgroup v1|v2
//	pids.max <n>|max
//	memory.max <bytes>|max
//	cpu.quota <µs>|max
//	cpu.period <µs>
//	ip <addr>/<bits>          each IPv4 address but loopback
//	host <addr> <name>...     each /etc/hosts line the extra hosts added
//	pid1 self|tini|other <argv0>
//	probe <addr> ok|refused|timeout|unreachable|error
//	ready
//
// A probe is a TCP connect, within 2 s, to each address of KICI_PROBE
// (tcp:HOST:PORT, comma-separated). Then it waits for SIGTERM and exits 0;
// with KICI_FAKE_EXIT=N it exits N right after "ready", as an agent that
// crashes at start.
//
// Run as `node probe tcp:HOST:PORT...`, in a container that runs already
// (docker exec), it prints only the probe lines, then exits: a test probes
// once the container's rules are in place.
//
// Run as `node spoof FRAMES`, it sends crafted Ethernet frames through a
// packet socket on the interface of its default route (CAP_NET_RAW, which
// containers have by default), and prints "sent N" or "error N <message>"
// for each. FRAMES is a JSON list of enginetest.Packet's wire form: any
// source address and MAC, UDP, a TCP SYN, an ICMP echo request, another IP
// protocol, IPv6 even where the container has none, ARP, and an IPv6
// router advertisement. `node netinfo` prints that interface:
//
//	link <name> <mac> <ifindex> <iflink>
//	addr <prefix>                each address
//	gateway <ip> <mac>           the gateway, its MAC asked by ARP
//	neigh <ip> <mac>             each entry of the kernel's ARP table
//
// `node listen PORT MS` receives UDP on PORT for MS milliseconds: it prints
// "listening" once bound, then "got <mark>" for each datagram, its first 4
// bytes in hex, as a Packet's mark.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "probe" {
		printProbes(strings.Join(os.Args[2:], ","))
		return
	}
	if len(os.Args) > 1 && (os.Args[1] == "spoof" || os.Args[1] == "netinfo" || os.Args[1] == "listen") {
		if !tool(os.Args[1], os.Args[2:]) {
			os.Exit(1)
		}
		return
	}
	for _, a := range os.Args {
		fmt.Printf("argv %q\n", a)
	}
	printIDs()
	for _, e := range os.Environ() {
		fmt.Printf("env %q\n", e)
	}
	printCgroup()
	printAddrs()
	printHosts()
	printPID1()
	printProbes(os.Getenv("KICI_PROBE"))
	fmt.Println("ready")
	if code := os.Getenv("KICI_FAKE_EXIT"); code != "" {
		n, err := strconv.Atoi(code)
		if err != nil {
			n = 2
		}
		os.Exit(n)
	}
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM, syscall.SIGINT)
	<-term
}

// tool runs the subcommand name with args; false: it failed.
func tool(name string, args []string) bool {
	switch {
	case name == "netinfo":
		return netinfo()
	case name == "spoof" && len(args) == 1:
		return spoof(args[0])
	case name == "listen" && len(args) == 2:
		return listen(args[0], args[1])
	}
	fmt.Println("error: usage: node spoof FRAMES | node netinfo | node listen PORT MILLISECONDS")
	return false
}

// printIDs prints the real uid, gid and groups of /proc/self/status.
func printIDs() {
	status, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(status), "\n") {
		key, value, _ := strings.Cut(line, ":")
		fields := strings.Fields(value)
		switch {
		case key == "Uid" && len(fields) > 0:
			fmt.Println("uid", fields[0])
		case key == "Gid" && len(fields) > 0:
			fmt.Println("gid", fields[0])
		case key == "Groups":
			fmt.Println(strings.TrimSpace("groups " + strings.Join(fields, " ")))
		}
	}
}

// printCgroup prints the limits of the cgroup the container runs in.
func printCgroup() {
	if _, err := os.Stat("/sys/fs/cgroup/cgroup.controllers"); err == nil {
		fmt.Println("cgroup v2")
		fmt.Println("pids.max", read("/sys/fs/cgroup/pids.max"))
		fmt.Println("memory.max", read("/sys/fs/cgroup/memory.max"))
		quota, period, _ := strings.Cut(read("/sys/fs/cgroup/cpu.max"), " ")
		fmt.Println("cpu.quota", quota)
		fmt.Println("cpu.period", period)
		return
	}
	fmt.Println("cgroup v1")
	fmt.Println("pids.max", read("/sys/fs/cgroup/pids/pids.max"))
	memory := read("/sys/fs/cgroup/memory/memory.limit_in_bytes")
	if n, err := strconv.ParseUint(memory, 10, 64); err == nil && n >= 1<<62 {
		memory = "max" // the kernel's "unlimited", rounded to a page
	}
	fmt.Println("memory.max", memory)
	quota := read("/sys/fs/cgroup/cpu/cpu.cfs_quota_us")
	if quota == "-1" {
		quota = "max"
	}
	fmt.Println("cpu.quota", quota)
	fmt.Println("cpu.period", read("/sys/fs/cgroup/cpu/cpu.cfs_period_us"))
}

// read returns a file's content without surrounding space, or "?" when it
// cannot be read.
func read(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(b))
}

func printAddrs() {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			fmt.Println("ip", n.String())
		}
	}
}

// printHosts prints the /etc/hosts lines that are neither the Engine's
// defaults nor the container's own name.
func printHosts() {
	defaults := map[string]bool{"127.0.0.1": true, "::1": true, "fe00::0": true,
		"ff00::0": true, "ff02::1": true, "ff02::2": true}
	self, _ := os.Hostname()
	f, err := os.Open("/etc/hosts")
	if err != nil {
		return
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		fields := strings.Fields(lines.Text())
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") || defaults[fields[0]] || fields[1] == self {
			continue
		}
		fmt.Println("host", strings.Join(fields, " "))
	}
}

func printPID1() {
	cmdline, _ := os.ReadFile("/proc/1/cmdline")
	argv0, _, _ := strings.Cut(string(cmdline), "\x00")
	switch {
	case os.Getpid() == 1:
		fmt.Println("pid1 self")
	case path.Base(argv0) == "tini":
		fmt.Println("pid1 tini")
	default:
		fmt.Println("pid1 other", argv0)
	}
}

func printProbes(list string) {
	for _, p := range strings.Split(list, ",") {
		if addr, ok := strings.CutPrefix(strings.TrimSpace(p), "tcp:"); ok {
			fmt.Println("probe", p, probe(addr))
		}
	}
}

// probe says how a TCP connect to addr ends within 2 s.
func probe(addr string) string {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	var ne net.Error
	switch {
	case err == nil:
		c.Close()
		return "ok"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "refused"
	case errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "unreachable"
	}
	return "error"
}
