// Package containerscaler runs KiCI agents in containers on a Docker
// Engine: the orchestrator's container scaler backend, carried out. Its
// decisions come from the pure packages; this package adds the I/O and
// the state of the agents it runs.
//
// # A backend
//
//	b, err := containerscaler.New(ctx, containerscaler.Options{
//		Config: cfg,
//		Scaler: "linux",
//		Engine: engine, // a *client.Client of github.com/moby/moby/client
//	})
//	a, err := b.Spawn(ctx, containerscaler.Request{
//		LabelSet:        labels, // what agentspawn.Route chose
//		AgentID:         "scaler-container-1a2b3c4d",
//		OrchestratorURL: "ws://10.0.0.2:4000/ws",
//	})
//	// ... the agent registers, runs its job, disconnects ...
//	err = b.Destroy(ctx, a.ID)
//
// [New] finds or creates the isolated network and prepares nftables.
// [Backend.Spawn] pulls, creates and starts the agent's container, and
// writes the rules of its address. [Backend.Destroy] ends one agent,
// [Backend.ShutdownAll] every one. [Backend.CleanupOrphans] removes what
// an earlier process left behind, at start. [Backend.Reload] takes a
// reloaded config.
//
// # Which orchestrator
//
// The behaviour is the orchestrator's container backend in the public KiCI
// source, repository kici-dev/kici-public. Its newest version there is at
// commit 221047e (0.15.0). The files are
// packages/orchestrator/src/scaler/container-backend.ts,
// packages/shared/src/container-runtime.ts and
// packages/shared/src/net/nftables.ts. The 0.20.0 seed's changes to the
// spawn come through [github.com/kicikit/kicikit/agentspawn.Admit], which
// decides a spawn once, as Plan does. The
// slots are the scaler manager's SpawnSemaphore (manager.ts, at 84ac3cd);
// the deadline is its spawn timeout, 300 s by default.
//
// # Network isolation
//
// Network isolation is a scaler's default. Each agent container then joins
// the bridge network kici-agent-net (172.30.0.0/16). nftables rules keyed
// by its address say what it reaches
// ([github.com/kicikit/kicikit/agentspawn.Isolation], the orchestrator's
// rule texts as they are). An agent keeps Docker's default capabilities,
// raw sockets included, so the rules also bind it to what it is:
//
//   - table bridge kici binds each agent's port on the bridge (its veth,
//     found in the container's network namespace) to its MAC and IPv4
//     address. From an agent's port only IPv4 and ARP with its own
//     addresses pass: no spoofed source or MAC, no IPv6, no other
//     protocol. No port at all sends a frame of two VLAN tags, or IP to
//     a link-local group address; a VLAN-tagged frame meets the rules as
//     an untagged one does (they match the protocol the kernel reads). No
//     other port may send from the network's addresses or an agent's MAC:
//     a container before its binding (a job image's entrypoint runs then)
//     can neither claim another's address nor teach the bridge another's
//     MAC. Bridged broadcast and multicast from an agent, by MAC or by
//     address, are dropped; IPv4 bridged to an agent must be addressed to
//     it, by MAC and address (a flooded frame is not), and ARP must be a
//     plain request or a reply to it, with nothing in a trailer or in
//     fields its kernel ignores; and what one agent sends another meets
//     its forward rules on the bridge too (br_netfilter or not). The
//     bridge forwards frames to the LLDP group address (group_fwd_mask),
//     which Linux would otherwise hand the host past every bridge hook.
//   - table ip kici holds the orchestrator's base chains forward, input
//     and output. Beside them, base chains of the backend's send each
//     packet from an agent address, through a verdict map, to that
//     address's chains, which hold its rules. A packet from the bridge
//     whose source has no rules is dropped: a container reaches nothing
//     before its rules are written. An address's chains first drop an
//     ICMP error conntrack relates to another address's flow, which the
//     orchestrator's "ct state established,related accept" would take.
//   - table ip6 kici drops IPv6 from the bridge.
//
// New, and each isolated spawn before its create, finds the network (or
// makes it) and checks it: one that is not a bridge, that has IPv6, or
// whose IPv4 subnet and gateway are not 172.30.0.0/16 and 172.30.0.1 is
// refused ([ErrNetworkDriver], [ErrNetworkIPv6], [ErrNetworkSubnet]). A
// network made again since (docker network prune, then a create) has
// its bridge written into the rules before a container joins it.

// The map agent-owners, in table ip kici, records which container owns
// each address's rules, so that every backend on the host, in this
// process or another, agrees. A spawn writes them, its port's binding and
// the removal of the orchestrator's own rules of its address in one nft
// transaction, which fails, writing nothing, when another container owns
// the address by then. It takes over the rules of an owner whose
// container no longer holds the address, and fails with [ErrAddressTaken]
// while that container does. A release (Destroy, a spawn's unwinding, the
// sweep) removes only what its own container owns, in one transaction
// too. A spawn whose container stopped while its rules were written fails
// with [ErrAddressLost]. A spawn whose container has no address fails, as
// the orchestrator's does from 0.15.0.
//
// Finding an agent's port reads its container's network namespace through
// /proc/<pid>: the backend runs on the Engine's host, in its process
// namespace, as root (an orchestrator in a container: --pid=host,
// --network=host, NET_ADMIN and SYS_ADMIN). Where it cannot, a spawn
// fails: an agent is never left unbound. The bridge family's port match
// needs nothing of the kernel but nf_tables' bridge family.
//
// nft runs as [Options].NftCommand says. New fails, as the orchestrator
// does, when nft cannot run: [ErrNftMissing], [ErrNftDenied], [ErrNft].
//
// # Beyond the orchestrator
//
//   - Network isolation binds agents to their ports, drops IPv6, checks
//     the network at each spawn, and records who owns which rules, as
//     above; the orchestrator matches source addresses only, and takes
//     an existing network as it finds it.
//   - Destroy removes the rules after the container, and only those its
//     container owns: the orchestrator removes them first, which leaves
//     the container unfiltered while it stops, and can remove the next
//     container's on its address. Destroy, a second Destroy and
//     ShutdownAll return once the container is gone.
//   - Every removal that fails is an [EventCleanupFailed] and joins the
//     error of the method that returns one (ShutdownAll returns what it
//     could not remove); the orchestrator logs or drops them. An Engine
//     error names its step ([StepError]).
//   - A network create that loses a race takes the winner's network. An
//     Engine before API 1.44 answers the race with 403 "Pool overlaps",
//     not 409; both are taken.
//   - A remote host keeps its port; the orchestrator's client drops it.
//   - A cancelled context or the deadline, at any step, leaves nothing
//     behind. Creates run to their answer, so that what they made is
//     known; then it is removed. An agent's container is named, so that a
//     create whose answer is lost is found by its name and labels. A
//     runtime volume's fill stops when no spawn waits for it, and removes
//     its populator and its volume.
//   - The sweep of stale rules removes those whose owner no longer holds
//     their address, and the orchestrator's own layout of them, from
//     forward and input; a spawn removes the latter for its address too.
//     A failed listing of the rules is CleanupOrphans' error; the
//     orchestrator logs it.
//   - A failed spawn's event carries the container's last 50 lines, read
//     from its logs when it fails. A failed copy's error carries what the
//     populator printed, stdout and stderr, not the stream's frames.
//   - The backends of one process share one runtime fill a volume, as the
//     orchestrator's do. A container goes with its anonymous volumes.
//
// # Podman
//
// Podman's Docker-compatible API takes the same requests. It is not
// tested here: Podman 4.3 cannot start containers on the machines that
// test this package.
package containerscaler
