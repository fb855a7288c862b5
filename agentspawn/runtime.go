package agentspawn

import (
	"strings"
	"unicode/utf8"

	"github.com/moby/moby/api/types/container"
)

// The KiCI runtime a job's own image runs the agent from, as
// packages/shared/src/container-runtime.ts (at 221047e) lays it out.
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
	// address on it. An agent's DNS goes there. [HostAccess] takes it as its
	// gateway for a container agent.
	IsolatedNetworkGateway = "172.30.0.1"
)

// RuntimeVolumeName returns the name of the volume that holds the KiCI
// runtime copied out of an agent image. It is the orchestrator's
// runtimeVolumeName for the whole runtime tree. The name is "kici-runtime-"
// and the image's id without its "sha256:" prefix. Every character but ASCII
// letters, digits, "_", "." and "-" becomes "-", and the id is cut to 32
// characters. It is keyed by the image's content id, not its name. So a
// moving tag rebuilt in place gets a new volume.
//
// The cut counts UTF-16 code units, as JavaScript's slice does. So a
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

// The Docker labels of the containers and volumes the container backend
// makes, which its orphan sweep selects by.
const (
	// LabelManaged is "true" on every container and volume the backend makes:
	// agents, runtime volumes, and the containers that fill them.
	LabelManaged = "kici-managed"
	// LabelScaler is an agent container's scaler name.
	LabelScaler = "kici-scaler-name"
	// LabelAgentID is an agent container's agent id.
	LabelAgentID = "kici-agent-id"
	// LabelLabelSet is an agent container's label set ([NormalizeLabelSet]).
	LabelLabelSet = "kici-labels"
	// LabelBoundJobID is the job an agent container serves, when bound.
	LabelBoundJobID = "kici-bound-job-id"
	// LabelRunID is the run an agent container serves, when known.
	LabelRunID = "kici-run-id"
)

// RuntimeInitLabel is the agent image label that names the init the
// injected agent starts under. It is container-runtime.ts's
// RUNTIME_INIT_LABEL, at 221047e.
const RuntimeInitLabel = "kici.runtime.init"

// RuntimeInit returns the init command for an agent image's labels, which
// [JobImage].Init takes. It is tini's when the label is "tini". It is nil
// for no label, or for an init this release does not know.
func RuntimeInit(labels map[string]string) []string {
	if labels[RuntimeInitLabel] == "tini" {
		// -s keeps tini a reaper when the runtime runs its own init as PID 1.
		return []string{RuntimeMount + "/bin/tini", "-s", "--"}
	}
	return nil
}

// RuntimeContainer is a short-lived root container of an agent image on a
// runtime volume. The volume is mounted at /kici-runtime-out.
type RuntimeContainer struct {
	// Config holds the image, user 0:0, the command and the
	// [LabelManaged] label.
	Config container.Config
	// HostConfig binds the volume; AutoRemove is false.
	HostConfig container.HostConfig
}

// The runtime volume's mount point in a [RuntimeContainer], and the file the
// populator writes last, once the copy has checked itself.
const (
	runtimeOut    = "/kici-runtime-out"
	runtimeMarker = runtimeOut + "/.kici-runtime-complete"
)

// RuntimePopulator returns the container that fills volume with the KiCI
// runtime of agentImage: ensureRuntimeVolume in container-runtime.ts, at
// 221047e. It copies /opt/kici and checks that the copy holds the agent's
// node and script. It writes a marker last. It exits non-zero on any
// failure.
func RuntimePopulator(agentImage, volume string) RuntimeContainer {
	return runtimeContainer(agentImage, volume, "set -e; cp -a "+RuntimeMount+"/. "+runtimeOut+"/; "+
		"test -x "+runtimeOut+"/node/bin/node; "+
		"test -f "+runtimeOut+"/app/packages/agent/dist/server.js; "+
		"touch "+runtimeMarker)
}

// RuntimeProbe returns the container that exits 0 when volume holds a
// complete runtime, one the populator finished.
func RuntimeProbe(agentImage, volume string) RuntimeContainer {
	return runtimeContainer(agentImage, volume, "test -f "+runtimeMarker)
}

func runtimeContainer(image, volume, script string) RuntimeContainer {
	return RuntimeContainer{
		Config: container.Config{
			Image:  image,
			User:   "0:0",
			Cmd:    []string{"sh", "-c", script},
			Labels: map[string]string{LabelManaged: "true"},
		},
		HostConfig: container.HostConfig{Binds: []string{volume + ":" + runtimeOut}},
	}
}
