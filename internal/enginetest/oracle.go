package enginetest

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moby/moby/client"
)

// OraclePriority is the priority of an [Oracle]'s chains: after every
// filter at the usual priorities (filter is 0), so that what they drop
// never reaches its counters.
const OraclePriority = 1000

// Oracle counts, in the Engine's network namespace, the packets of [Spoof]
// that pass the host's filtering: those that reach the end of the input
// hook (the host's own sockets, closed ports included) or of the forward
// hook (routed on, or bridged from one container to another, which
// br_netfilter sends through the IP hooks). It keeps its counters in a
// table of its own, inet kicikit-oracle-<random>, whose base chains hook
// input and forward at [OraclePriority]; the table goes when the test ends.
type Oracle struct {
	t     testing.TB
	table string
	mu    sync.Mutex
	next  uint32 // the next mark
}

// Passage is how many times a packet passed each hook.
type Passage struct {
	Input   uint64 // reached the host's input
	Forward uint64 // reached the end of the forward hook
}

// Passed reports whether the packet passed either hook.
func (p Passage) Passed() bool { return p.Input+p.Forward > 0 }

// String returns the passage as "input N, forward N".
func (p Passage) String() string { return fmt.Sprintf("input %d, forward %d", p.Input, p.Forward) }

// NewOracle makes an oracle's table. It skips t unless the test runs in
// the Engine's namespace, as root.
func NewOracle(t testing.TB) *Oracle {
	t.Helper()
	InEngineNetns(t)
	var b [4]byte
	_, _ = rand.Read(b[:])
	o := &Oracle{t: t, table: fmt.Sprintf("kicikit-oracle-%08x", binary.BigEndian.Uint32(b[:])), next: binary.BigEndian.Uint32(b[:])}
	script := "add table inet " + o.table + "\n"
	for _, hook := range []string{"input", "forward"} {
		script += fmt.Sprintf("add chain inet %s %s { type filter hook %s priority %d; policy accept; }\n", o.table, hook, hook, OraclePriority)
	}
	if err := Nft(script); err != nil {
		t.Fatalf("enginetest: the oracle's table: %v", err)
		return nil
	}
	t.Cleanup(func() {
		if err := Nft("delete table inet " + o.table + "\n"); err != nil {
			t.Errorf("enginetest: removing the oracle's table: %v", err)
		}
	})
	return o
}

// Table returns the oracle's table, as nft names it: "inet NAME".
func (o *Oracle) Table() string { return "inet " + o.table }

// Mark returns a mark no other packet of the oracle has; none is 0.
func (o *Oracle) Mark() uint32 {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.next++; o.next == 0 {
		o.next++
	}
	return o.next
}

// Send sends the packets from container id as [Spoof] does, each IP
// packet without a mark given a fresh one, and returns how often each
// passed, once the counters have settled. ARP and RA frames are sent, not
// counted.
func (o *Oracle) Send(c client.APIClient, id string, packets ...Packet) []Passage {
	o.t.Helper()
	packets = append([]Packet(nil), packets...)
	var script strings.Builder
	for i := range packets {
		p := &packets[i]
		match, ok := matchOf(*p)
		if !ok {
			continue
		}
		if p.Mark == 0 {
			p.Mark = o.Mark()
		}
		for _, hook := range []string{"input", "forward"} {
			name := fmt.Sprintf("%s-%08x", hook, p.Mark)
			fmt.Fprintf(&script, "add counter inet %s %s\n", o.table, name)
			fmt.Fprintf(&script, "add rule inet %s %s %s 0x%08x counter name %q\n", o.table, hook, match, p.Mark, name)
		}
	}
	if err := Nft(script.String()); err != nil {
		o.t.Fatalf("enginetest: the oracle's counters: %v", err)
		return nil
	}
	Spoof(o.t, c, id, packets...)
	counts := o.settle()
	out := make([]Passage, len(packets))
	for i, p := range packets {
		if _, ok := matchOf(p); ok {
			out[i] = Passage{Input: counts[fmt.Sprintf("input-%08x", p.Mark)], Forward: counts[fmt.Sprintf("forward-%08x", p.Mark)]}
		}
	}
	return out
}

// matchOf is the nft match of p's mark, the mark's value left to append;
// false for a frame that carries none.
func matchOf(p Packet) (string, bool) {
	family := "meta nfproto ipv4 "
	icmp := "icmp"
	if p.Dst.Is6() {
		family, icmp = "meta nfproto ipv6 ", "ipv6-icmp"
	}
	switch p.Proto {
	case UDP:
		return family + "meta l4proto udp @th,64,32", true
	case TCP:
		return family + "meta l4proto tcp @th,32,32", true
	case ICMP:
		return family + "meta l4proto " + icmp + " @th,32,32", true
	case RawIP:
		return family + fmt.Sprintf("meta l4proto %d @th,32,32", p.Protocol), true
	}
	return "", false
}

// settle reads the counters until two reads 100 ms apart agree, 500 ms
// after the packets were sent at the least, 3 s at the most.
func (o *Oracle) settle() map[string]uint64 {
	o.t.Helper()
	start := time.Now()
	var last map[string]uint64
	for {
		time.Sleep(100 * time.Millisecond)
		counts, err := o.counters()
		if err != nil {
			o.t.Fatalf("enginetest: the oracle's counters: %v", err)
			return nil
		}
		if reflect.DeepEqual(counts, last) && time.Since(start) >= 500*time.Millisecond || time.Since(start) > 3*time.Second {
			return counts
		}
		last = counts
	}
}

// counters returns the packets each counter of the table counted.
func (o *Oracle) counters() (map[string]uint64, error) {
	out, err := exec.Command("nft", "-j", "list", "counters", "table", "inet", o.table).Output()
	if err != nil {
		return nil, fmt.Errorf("nft list counters: %w", err)
	}
	var doc struct {
		Nftables []struct {
			Counter *struct {
				Name    string
				Packets uint64
			}
		}
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		return nil, err
	}
	counts := map[string]uint64{}
	for _, o := range doc.Nftables {
		if o.Counter != nil {
			counts[o.Counter.Name] = o.Counter.Packets
		}
	}
	return counts, nil
}

// Nft runs an nft script in this process's network namespace, as one
// transaction.
func Nft(script string) error {
	cmd := exec.Command("nft", "-f", "-")
	cmd.Stdin = strings.NewReader(script)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("nft -f -: %v: %s\n%s", err, strings.TrimSpace(string(out)), script)
	}
	return nil
}

// The destinations [Forwarding] routes out of the Engine's namespace.
const (
	ForwardNet   = "10.99.0.0/16"    // a private range beyond the host
	MetadataAddr = "169.254.169.254" // the cloud metadata service's address
)

// forwardLink is the interface [Forwarding] routes through: a veth whose
// peer is down.
const forwardLink = "kicikit-fwd"

// Forwarding makes the Engine's namespace forward IPv4, and route
// [ForwardNet] and [MetadataAddr] to an interface that drops what it is
// given (a veth whose peer is down: the kernel here has no dummy
// interface): a packet an agent sends there passes, or not, the forward
// hook, and goes no further. It is idempotent, and the namespace keeps it, for every test
// after: .ci/engine stop removes it with the namespace. It skips t unless
// the test runs in the Engine's namespace.
func Forwarding(t testing.TB) {
	t.Helper()
	InEngineNetns(t)
	if err := os.WriteFile("/proc/sys/net/ipv4/ip_forward", []byte("1\n"), 0o644); err != nil {
		t.Fatalf("enginetest: forwarding: %v", err)
		return
	}
	steps := [][]string{
		{"link", "add", forwardLink, "type", "veth", "peer", "name", forwardLink + "p"},
		{"link", "set", forwardLink, "up"},
		{"route", "replace", ForwardNet, "dev", forwardLink},
		{"route", "replace", MetadataAddr + "/32", "dev", forwardLink},
	}
	for i, args := range steps {
		out, err := exec.Command("ip", args...).CombinedOutput()
		if err != nil && !(i == 0 && strings.Contains(string(out), "File exists")) {
			t.Fatalf("enginetest: ip %s: %v: %s", strings.Join(args, " "), err, out)
			return
		}
	}
}
