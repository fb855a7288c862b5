package agentspawn

import (
	"strings"
	"unicode/utf8"
)

// The KiCI runtime a job's own image runs the agent from, as
// packages/shared/src/container-runtime.ts (at 0b46a9a) lays it out.
const (
	// RuntimeMount is where the runtime volume is mounted in a container
	// started from a job's image, read-only.
	RuntimeMount = "/opt/kici"
	// AgentNode is the node binary of the injected runtime.
	AgentNode = RuntimeMount + "/node/bin/node"
	// AgentScript is the agent's entry script in the injected runtime.
	AgentScript = RuntimeMount + "/app/packages/agent/dist/server.js"
	// IsolatedNetwork is the bridge network every agent container joins
	// under network isolation (container-backend.ts's
	// ISOLATED_NETWORK_NAME).
	IsolatedNetwork = "kici-agent-net"
	// IsolatedNetworkSubnet is the isolated network's subnet.
	IsolatedNetworkSubnet = "172.30.0.0/16"
	// IsolatedNetworkGateway is the isolated network's gateway, the host's
	// address on it: where an agent's DNS goes, and what [HostAccess] takes
	// as its gateway for a container agent.
	IsolatedNetworkGateway = "172.30.0.1"
)

// RuntimeVolumeName returns the name of the volume that holds the KiCI
// runtime copied out of an agent image, as the orchestrator's
// runtimeVolumeName names it for the whole runtime tree: "kici-runtime-"
// and the image's id without its "sha256:" prefix, every character but
// ASCII letters, digits, "_", "." and "-" made "-", cut to 32 characters.
// It is keyed by the image's content id, not its name, so that a moving
// tag rebuilt in place gets a new volume.
//
// The cut counts UTF-16 code units, as JavaScript's slice does: a
// character beyond U+FFFF is two of them and becomes "--". Invalid UTF-8
// reads as one U+FFFD a byte.
func RuntimeVolumeName(imageID string) string {
	const limit = 32
	id := strings.TrimPrefix(imageID, "sha256:")
	var b strings.Builder
	b.Grow(len("kici-runtime-") + limit)
	b.WriteString("kici-runtime-")
	n := 0
	for _, r := range id {
		if n == limit {
			break
		}
		switch {
		case r < utf8.RuneSelf && volumeNameByte(byte(r)):
			b.WriteByte(byte(r))
		case r > 0xFFFF && n+1 < limit:
			b.WriteString("--")
			n++
		default:
			b.WriteByte('-')
		}
		n++
	}
	return b.String()
}

// volumeNameByte reports whether c stays as it is in a runtime volume's
// name: [a-zA-Z0-9_.-].
func volumeNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
}
