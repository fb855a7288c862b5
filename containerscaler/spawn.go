package containerscaler

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/netip"
	"strings"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/hostconfig"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/registry"
	"github.com/moby/moby/client"
)

// Request is one spawn: the job's label set and the agent to run for it.
type Request struct {
	// LabelSet is the label set the job was routed to ([agentspawn.Route]),
	// as the scaler manager passes it.
	LabelSet []string
	// AgentID names the agent; the backend refuses one it already tracks.
	AgentID string
	// OrchestratorURL is the URL the agent dials.
	OrchestratorURL string
	// Effective is the limits the manager resolved for the job; zero:
	// none, the label set's own apply.
	Effective hostconfig.Limits
	// PlatformTaints are the taints of the scaler's declared platform
	// ([agentspawn.PlatformTaints]).
	PlatformTaints []string
	// BoundJobID and RunID name the job and run the agent serves; "" when
	// unknown.
	BoundJobID, RunID string
	// Job is the job's own image; nil: the label set's image.
	Job *Job
}

// Job is a job's own container image, which the agent runs in with the KiCI
// runtime of the label set's agent image mounted.
type Job struct {
	// Image is the job's image reference.
	Image string
	// Auth is the registry's credentials; nil: pull anonymously.
	Auth *registry.AuthConfig
}

// Spawn runs an agent for r, as the orchestrator's container backend
// spawns one (ContainerScalerBackend.spawn, 0.20.0). It returns once the
// container runs with its isolation rules.
//
// Before any Engine request, it admits the spawn ([agentspawn.Admit]): it
// refuses what that refuses, a network policy no rule can match included,
// and an agent id the backend tracks. It counts the agent from then on.
// It waits for one of the scaler's maxConcurrentSpawns slots, first come,
// first served. Holding one, it mints the token and pulls the image. For
// a job's image, it fills the runtime volume. It creates and starts the
// container, reads its address on the isolated network and its port on
// the bridge, and writes its rules in one nft transaction, unless another
// running container holds that address by then ([ErrAddressTaken]). A
// container that no longer holds its address once they are written fails
// the spawn ([ErrAddressLost]).
//
// A failure at any step unwinds the spawn: the deadline and a cancelled
// ctx too. It removes the container and its rules, on a context no
// cancellation reaches, and stops counting the agent. The error is the
// step's own, joined with what the unwinding could not remove (each also
// an [EventCleanupFailed]). It is context.Cause(ctx) when ctx ended first,
// and [ErrTornDown] when [Backend.Destroy] ran during the spawn. Spawn
// returns at the deadline even when an Engine request ignores its
// context. The unwinding goes on, and [Backend.Active] counts the agent
// until it ends.
func (b *Backend) Spawn(ctx context.Context, r Request) (Agent, error) {
	// Destroy ends the spawn's context, wherever the spawn is.
	ctx, tearDown := context.WithCancelCause(ctx)
	defer tearDown(nil)
	a, adm, err := b.admit(r, tearDown)
	if err != nil {
		return Agent{}, err
	}
	if err := b.slots.acquire(ctx); err != nil {
		err = b.failure(ctx, a, err)
		b.end(a, nil)
		return Agent{}, err
	}
	defer b.slots.release()
	ctx, cancel := context.WithTimeoutCause(ctx, b.timeout,
		&Error{Reason: ErrTimeout, Scaler: b.name, Agent: r.AgentID, Timeout: b.timeout.Milliseconds()})
	defer cancel()
	done := make(chan spawnResult, 1)
	go func() { done <- b.provision(ctx, a, r.Job, adm) }()
	select {
	case res := <-done:
		return res.agent, res.err
	case <-ctx.Done():
	}
	b.mu.Lock()
	running, destroyed := a.running, a.destroyed
	b.mu.Unlock()
	switch {
	case running:
		res := <-done
		return res.agent, res.err
	case destroyed:
		return Agent{}, b.errTornDown(a)
	}
	return Agent{}, context.Cause(ctx)
}

type spawnResult struct {
	agent Agent
	err   error
}

// admit decides r without I/O and counts its agent, whose spawn tearDown
// ends.
func (b *Backend) admit(r Request, tearDown context.CancelCauseFunc) (*agent, agentspawn.Admission, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var job *agentspawn.JobImage
	if r.Job != nil {
		job = &agentspawn.JobImage{Image: r.Job.Image, Auth: r.Job.Auth}
	}
	adm, err := agentspawn.Admit(agentspawn.Request{
		Config: b.cfg, Scaler: b.name, LabelSet: r.LabelSet, AgentID: r.AgentID,
		OrchestratorURL: r.OrchestratorURL, Effective: r.Effective, SocketPath: b.socket,
		Environ: b.environ, PlatformTaints: r.PlatformTaints, BoundJobID: r.BoundJobID,
		RunID: r.RunID, Job: job, Active: len(b.agents), HostServices: b.hostServices,
	})
	if err != nil {
		return nil, adm, err
	}
	if _, ok := b.agents[r.AgentID]; ok {
		return nil, adm, &Error{Reason: ErrAgentExists, Scaler: b.name, Agent: r.AgentID}
	}
	a := &agent{id: r.AgentID, gone: make(chan struct{}), cancel: tearDown}
	b.agents[a.id] = a
	return a, adm, nil
}

// made is what a spawn has made on the Engine and in nftables so far.
type made struct {
	name      string  // the container's name, once its create is sent
	container string  // its id, once created
	bound     binding // its rules' binding, once their transaction is sent
}

// provision runs a spawn's steps and, when one fails, unwinds them.
func (b *Backend) provision(ctx context.Context, a *agent, job *Job, adm agentspawn.Admission) spawnResult {
	var m made
	err := b.steps(ctx, a, job, adm, &m)
	if err == nil {
		err = b.commit(ctx, a)
	}
	if err != nil {
		err = b.failure(ctx, a, err)
		if cleanup := b.unwind(a, &m, err); cleanup != nil {
			err = errors.Join(err, cleanup)
		}
		return spawnResult{err: err}
	}
	b.emit(a.id, EventConnecting, "waiting for agent WS registration")
	return spawnResult{agent: Agent{ID: a.id, ContainerID: m.container, IP: m.bound.addr}}
}

// steps are a spawn's I/O, in the orchestrator's order.
func (b *Backend) steps(ctx context.Context, a *agent, job *Job, adm agentspawn.Admission, m *made) error {
	var learned agentspawn.Learned
	if b.token != nil {
		token, err := b.token(ctx, a.id, adm.AgentLabels)
		if err != nil {
			return err
		}
		learned.Token = token
	}
	if err := b.pull(ctx, adm.Pull, a.id); err != nil {
		return err
	}
	if adm.RuntimeImage != "" {
		if err := b.runtime(ctx, adm.RuntimeImage, a.id, &learned); err != nil {
			return err
		}
	}
	if adm.Isolated {
		if err := b.checkNetwork(ctx); err != nil {
			return err
		}
	}
	if err := b.create(ctx, a, adm.Spawn(learned), m); err != nil {
		return err
	}
	if err := b.start(ctx, a, m.container); err != nil {
		return err
	}
	if !adm.Isolated {
		return nil
	}
	return b.isolate(ctx, a, adm, m)
}

// create creates the agent's container, named so that a create whose
// answer is lost can still be found, and records it. Past its start, the
// request runs to its answer.
func (b *Backend) create(ctx context.Context, a *agent, sp agentspawn.Spawn, m *made) error {
	if err := b.check(ctx, a); err != nil {
		return err
	}
	b.emit(a.id, EventProvisioning, "creating container")
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), createTimeout)
	defer cancel()
	m.name = containerName(a.id)
	res, err := b.engine.ContainerCreate(cctx, client.ContainerCreateOptions{
		Name: m.name, Config: &sp.Config, HostConfig: &sp.HostConfig, NetworkingConfig: sp.Networking,
	})
	if err != nil {
		return step("create container", err)
	}
	m.container = res.ID
	b.mu.Lock()
	a.container = res.ID
	b.mu.Unlock()
	return b.check(ctx, a)
}

// containerName is a new name for an agent's container: kici-agent-, the
// agent id as a Docker name may hold it, and a random suffix.
func containerName(agentID string) string {
	var nonce [4]byte
	_, _ = rand.Read(nonce[:])
	id := strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '.' || r == '-' {
			return r
		}
		return '-'
	}, agentID)
	return "kici-agent-" + id[:min(len(id), 64)] + "-" + hex.EncodeToString(nonce[:])
}

// start starts the container.
func (b *Backend) start(ctx context.Context, a *agent, id string) error {
	if b.isolation {
		b.emit(a.id, EventNetwork, "configuring network isolation")
	}
	if _, err := b.engine.ContainerStart(ctx, id, client.ContainerStartOptions{}); err != nil {
		return step("start container "+shortID(id), err)
	}
	if err := b.check(ctx, a); err != nil {
		return err
	}
	b.emit(a.id, EventReady, "container started")
	return nil
}

// isolate reads the container's address and port, and writes its rules.
// An address missing fails the spawn: with no rules, the container would
// reach what the rules forbid.
func (b *Backend) isolate(ctx context.Context, a *agent, adm agentspawn.Admission, m *made) error {
	p, err := b.placementOf(ctx, a, m.container)
	if err != nil {
		return err
	}
	addr := p.addr
	iso, err := adm.Isolation(addr)
	if err != nil {
		return err
	}
	bd, err := portOf(p.pid, m.container, addr)
	if err != nil {
		return step("find the network port of container "+shortID(m.container), err)
	}
	if err := b.check(ctx, a); err != nil {
		return err
	}
	m.bound = bd // a transaction that seems to fail may have been made: unwinding removes it
	b.mu.Lock()
	a.bound = bd
	b.mu.Unlock()
	if err := b.bind(ctx, a.id, m.container, p.bridge, bd, iso); err != nil {
		return err
	}
	held, err := b.holds(ctx, m.container, addr)
	if err != nil {
		return err
	}
	if !held {
		return &Error{Reason: ErrAddressLost, Scaler: b.name, Agent: a.id, Container: m.container, Addr: addr}
	}
	return nil
}

// placement is where a started container is: its address on the isolated
// network, that network's bridge, and its process.
type placement struct {
	addr   netip.Addr
	bridge string
	pid    int
}

// placementOf inspects a started container for its placement. A
// container without an address on the isolated network is an error.
func (b *Backend) placementOf(ctx context.Context, a *agent, id string) (placement, error) {
	var p placement
	info, err := b.engine.ContainerInspect(ctx, id, client.ContainerInspectOptions{})
	if err != nil {
		return p, step("inspect container "+shortID(id), err)
	}
	if p.addr = addressOf(info.Container.NetworkSettings); !p.addr.IsValid() {
		return p, &Error{Reason: ErrNoAddress, Scaler: b.name, Agent: a.id, Container: id}
	}
	if p.bridge, err = b.bridgeFor(ctx, info.Container.NetworkSettings.Networks[agentspawn.IsolatedNetwork].NetworkID); err != nil {
		return p, err
	}
	if info.Container.State != nil {
		p.pid = info.Container.State.Pid
	}
	return p, nil
}

// checkNetwork finds the isolated network, or makes it, before a
// container is made on it ([Backend.bridgeFor]). A container sends from
// its start, before its binding: the bridge must be in the rules by then,
// even when the network was removed and made again since the last spawn.
func (b *Backend) checkNetwork(ctx context.Context) error {
	id, err := ensureNetwork(ctx, b.engine, b.name)
	if err == nil {
		_, err = b.bridgeFor(ctx, id)
	}
	return err
}

// bridgeFor returns the bridge of the isolated network id. A network other
// than the one last found fit is checked as New checks it ([bridgeOf]),
// its bridge written into the tables, and is then the one.
func (b *Backend) bridgeFor(ctx context.Context, id string) (string, error) {
	b.mu.Lock()
	network, bridge := b.network, b.bridge
	b.mu.Unlock()
	if id == network {
		return bridge, nil
	}
	bridge, err := bridgeOf(ctx, b.engine, b.name, id)
	if err != nil {
		return "", err
	}
	var s script
	s.table(bridge)
	if err := b.nft.transact(s.String()); err != nil {
		return "", step("make the nftables tables", err)
	}
	b.mu.Lock()
	b.network, b.bridge = id, bridge
	b.mu.Unlock()
	return bridge, nil
}

// addressOf is a container's address on the isolated network; the zero
// Addr when it has none.
func addressOf(ns *container.NetworkSettings) netip.Addr {
	if ns == nil || ns.Networks[agentspawn.IsolatedNetwork] == nil {
		return netip.Addr{}
	}
	return ns.Networks[agentspawn.IsolatedNetwork].IPAddress
}
