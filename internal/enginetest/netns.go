package enginetest

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"testing"
)

// Netns creates a network namespace for t and returns its name,
// kicikit-t-<random>. It is deleted when t ends. Netns skips t unless it
// runs as root with iproute2's ip.
func Netns(t testing.TB) string {
	t.Helper()
	if os.Geteuid() != 0 {
		skipOrFail(t, "a network namespace needs root")
		return ""
	}
	ip, err := exec.LookPath("ip")
	if err != nil {
		skipOrFail(t, "a network namespace needs ip (Debian's iproute2): %v", err)
		return ""
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	name := "kicikit-t-" + hex.EncodeToString(b[:])
	if out, err := exec.Command(ip, "netns", "add", name).CombinedOutput(); err != nil {
		t.Fatalf("enginetest: ip netns add %s: %v: %s", name, err, out)
		return ""
	}
	t.Cleanup(func() {
		if out, err := exec.Command(ip, "netns", "delete", name).CombinedOutput(); err != nil {
			t.Errorf("enginetest: ip netns delete %s: %v: %s", name, err, out)
		}
	})
	return name
}

// InEngineNetns returns the name of the Engine's network namespace,
// KICIKIT_NETNS. It skips t unless this process runs in that namespace.
func InEngineNetns(t testing.TB) string {
	t.Helper()
	name := os.Getenv("KICIKIT_NETNS")
	if name == "" {
		skipOrFail(t, "KICIKIT_NETNS is not set; %s", howTo)
		return ""
	}
	// This thread's: another may be inside a container's namespace a
	// moment, locked to the goroutine that put it there.
	self, err := os.Stat("/proc/thread-self/ns/net")
	var ns os.FileInfo
	if err == nil {
		ns, err = os.Stat("/run/netns/" + name)
	}
	switch {
	case err != nil:
		skipOrFail(t, "this process's network namespace and %s: %v; %s", name, err, howTo)
	case !os.SameFile(self, ns):
		skipOrFail(t, "this test does not run in the Engine's network namespace %s; %s", name, howTo)
	default:
		return name
	}
	return ""
}
