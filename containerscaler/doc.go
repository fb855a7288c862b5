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
// spawn come through [github.com/kicikit/kicikit/agentspawn.Plan]. The
// slots are the scaler manager's SpawnSemaphore (manager.ts, at 84ac3cd);
// the deadline is its spawn timeout, 300 s by default.
//
// # Network isolation
//
// Network isolation is a scaler's default. Each agent container then joins
// the bridge network kici-agent-net (172.30.0.0/16). nftables rules keyed
// by its address say what it reaches
// ([github.com/kicikit/kicikit/agentspawn.PlanIsolation]). They live in
// table ip kici. Beside the orchestrator's base chains forward, input and
// output, the backend keeps base chains agent-forward and agent-input. A
// verdict map keyed by source address sends each packet on. It goes to its
// address's chains, agent-forward-ADDR and agent-input-ADDR.
//
// So one nft transaction replaces an address's rules: a container never
// runs with half of them, and a spawn runs one nft process, not sixteen.
// Removing them is one transaction too. A spawn whose container has no
// address fails, as the orchestrator's does from 0.15.0.
//
// nft runs as [Options].NftCommand says. New fails, as the orchestrator
// does, when nft cannot run: [ErrNftMissing], [ErrNftDenied], [ErrNft].
//
// # Beyond the orchestrator
//
//   - A network create that loses a race takes the winner's network. An
//     Engine before API 1.44 answers the race with 403 "Pool overlaps",
//     not 409; both are taken.
//   - A remote host keeps its port; the orchestrator's client drops it.
//   - A cancelled context or the deadline, at any step, leaves nothing
//     behind. Creates run to their answer, so that what they made is
//     known; then it is removed. A runtime volume's fill stops when no
//     spawn waits for it, and removes its populator and its volume.
//   - Destroy removes the rules after the container: the orchestrator
//     removes them first, which leaves the container unfiltered while it
//     stops.
//   - The sweep of stale rules also removes the orchestrator's own
//     layout of them, from forward and input. A failed listing of the
//     rules is CleanupOrphans' error; the orchestrator logs it.
//   - A failed spawn's event carries the container's last 50 lines, read
//     from its logs when it fails. A failed copy's error carries what the
//     populator printed, stdout and stderr, not the stream's frames.
//   - The backends of one process share one runtime fill a volume, and
//     one view of the table's rules, as the orchestrator's do. A container
//     goes with its anonymous volumes.
//
// # Podman
//
// Podman's Docker-compatible API takes the same requests. It is not
// tested here: Podman 4.3 cannot start containers on the machines that
// test this package.
package containerscaler
