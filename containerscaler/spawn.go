package containerscaler

import (
	"context"
	"net/netip"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/scalerconfig"
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

// Requests that create something on the Engine run to their answer, past a
// spawn's cancellation, so that what they made is known and removed; this
// bounds one such request, and each removal after a failure.
const (
	createTimeout  = time.Minute
	cleanupTimeout = time.Minute
)

// Spawn runs an agent for r, as the orchestrator's container backend
// spawns one (ContainerScalerBackend.spawn, 0.20.0). It returns once the
// container runs with its isolation rules.
//
// Before any Engine request, it refuses what [agentspawn.Plan] refuses.
// It also refuses an agent id the backend tracks, and a network policy no
// rule can match ([agentspawn.PlanIsolation]). It counts the agent from
// then on. It waits for one of the scaler's maxConcurrentSpawns slots,
// first come, first served. Holding one, it mints the token and pulls the
// image. For a job's image, it fills the runtime volume. It creates and
// starts the container, reads its address on the isolated network, and
// writes its rules in one nft transaction.
//
// A failure at any step unwinds the spawn: the deadline and a cancelled
// ctx too. It removes the address's rules and the container, on a context
// no cancellation reaches, and stops counting the agent. The error is the
// step's own. It is context.Cause(ctx) when ctx ended first, and
// [ErrTornDown] when [Backend.Destroy] ran during the spawn. Spawn returns
// at the deadline even when an Engine request ignores its context. The
// unwinding goes on, and [Backend.Active] counts the agent until it ends.
func (b *Backend) Spawn(ctx context.Context, r Request) (Agent, error) {
	// Destroy ends the spawn's context, wherever the spawn is.
	ctx, tearDown := context.WithCancelCause(ctx)
	defer tearDown(nil)
	a, p, err := b.admit(r, tearDown)
	if err != nil {
		return Agent{}, err
	}
	if err := b.slots.acquire(ctx); err != nil {
		err = b.failure(ctx, a, err)
		b.finish(a)
		return Agent{}, err
	}
	defer b.slots.release()
	ctx, cancel := context.WithTimeoutCause(ctx, b.timeout,
		&Error{Reason: ErrTimeout, Scaler: b.name, Agent: r.AgentID, Timeout: b.timeout.Milliseconds()})
	defer cancel()
	done := make(chan spawnResult, 1)
	go func() { done <- b.provision(ctx, a, r, p) }()
	select {
	case res := <-done:
		return res.agent, res.err
	case <-ctx.Done():
	}
	b.mu.Lock()
	running, tornDown := a.running, a.tornDown
	b.mu.Unlock()
	switch {
	case running:
		res := <-done
		return res.agent, res.err
	case tornDown:
		return Agent{}, b.tornDown(a)
	}
	return Agent{}, context.Cause(ctx)
}

type spawnResult struct {
	agent Agent
	err   error
}

// planned is what admit decides of a spawn before any I/O.
type planned struct {
	cfg   *scalerconfig.Config // the config the spawn started with
	plan  agentspawn.Spawn     // without the token and the runtime volume
	label *scalerconfig.LabelSet
}

// admit decides r without I/O and counts its agent, whose spawn tearDown
// ends.
func (b *Backend) admit(r Request, tearDown context.CancelCauseFunc) (*agent, planned, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := planned{cfg: b.cfg}
	sp, err := agentspawn.Plan(b.request(r, p.cfg, len(b.agents)))
	if err != nil {
		return nil, p, err
	}
	p.plan, p.label = sp, &p.cfg.Scalers[0].LabelSets[sp.LabelSetIndex]
	if b.isolation {
		// The rules of any address: a policy that fails here fails for all.
		if _, err := b.isolationOf(netip.IPv4Unspecified(), p.label, r.OrchestratorURL); err != nil {
			return nil, p, err
		}
	}
	if _, ok := b.agents[r.AgentID]; ok {
		return nil, p, &Error{Reason: ErrAgentExists, Scaler: b.name, Agent: r.AgentID}
	}
	a := &agent{id: r.AgentID, done: make(chan struct{}), cancel: tearDown}
	b.agents[a.id] = a
	b.workers[a] = struct{}{}
	return a, p, nil
}

// request is agentspawn's request for r on cfg.
func (b *Backend) request(r Request, cfg *scalerconfig.Config, active int) agentspawn.Request {
	var job *agentspawn.JobImage
	if r.Job != nil {
		job = &agentspawn.JobImage{Image: r.Job.Image, Auth: r.Job.Auth}
	}
	return agentspawn.Request{
		Config: cfg, Scaler: b.name, LabelSet: r.LabelSet, AgentID: r.AgentID,
		OrchestratorURL: r.OrchestratorURL, Effective: r.Effective, SocketPath: b.socket,
		Environ: b.environ, PlatformTaints: r.PlatformTaints, BoundJobID: r.BoundJobID,
		RunID: r.RunID, Job: job, Active: active,
	}
}

// isolationOf is the rules of addr for a label set's agent.
func (b *Backend) isolationOf(addr netip.Addr, ls *scalerconfig.LabelSet, orchestratorURL string) (agentspawn.Isolation, error) {
	return agentspawn.PlanIsolation(agentspawn.IsolationInput{
		Addr:   addr,
		Policy: ls.NetworkPolicy,
		HostAccess: agentspawn.HostAccess(agentspawn.HostAccessInput{
			Policy: ls.NetworkPolicy, OrchestratorURL: orchestratorURL,
			Gateway: agentspawn.IsolatedNetworkGateway, HostServices: b.hostServices,
		}),
	})
}

// made is what a spawn has made on the Engine and in nftables so far.
type made struct {
	container string     // the container's id
	unknown   bool       // a container create whose answer is not known
	since     time.Time  // when that create was sent
	addr      netip.Addr // the address whose rules it wrote
}

// provision runs a spawn's steps and, when one fails, unwinds them.
func (b *Backend) provision(ctx context.Context, a *agent, r Request, p planned) spawnResult {
	var m made
	err := b.steps(ctx, a, r, p, &m)
	if err == nil {
		err = b.commit(ctx, a)
	}
	if err != nil {
		err = b.failure(ctx, a, err)
		b.unwind(a, &m, err)
		return spawnResult{err: err}
	}
	b.emit(a.id, EventConnecting, "waiting for agent WS registration")
	b.finish(a)
	return spawnResult{agent: Agent{ID: a.id, ContainerID: m.container, IP: m.addr}}
}

// steps are a spawn's I/O, in the orchestrator's order.
func (b *Backend) steps(ctx context.Context, a *agent, r Request, p planned, m *made) error {
	req := b.request(r, p.cfg, 0)
	if err := b.mint(ctx, &req, p.cfg); err != nil {
		return err
	}
	if err := b.pull(ctx, p.plan.Pull, a.id); err != nil {
		return err
	}
	if req.Job != nil {
		if err := b.runtime(ctx, req.Job, p.label.Image, a.id); err != nil {
			return err
		}
	}
	sp, err := agentspawn.Plan(req)
	if err != nil {
		return err
	}
	if err := b.create(ctx, a, sp, m); err != nil {
		return err
	}
	if err := b.start(ctx, a, m.container); err != nil {
		return err
	}
	if !b.isolation {
		return nil
	}
	return b.isolate(ctx, a, r, p.label, m)
}

// mint sets the agent's token, when the backend has a token source.
func (b *Backend) mint(ctx context.Context, req *agentspawn.Request, cfg *scalerconfig.Config) error {
	if b.token == nil {
		return nil
	}
	s := &cfg.Scalers[0]
	labels := agentspawn.AgentLabels(req.LabelSet, scalerconfig.TypeContainer, s.Name, s.Roles, req.PlatformTaints)
	var err error
	req.Token, err = b.token(ctx, req.AgentID, labels)
	return err
}

// create creates the agent's container and records it. Past its start,
// the request runs to its answer; when none comes, the container may be
// there all the same.
func (b *Backend) create(ctx context.Context, a *agent, sp agentspawn.Spawn, m *made) error {
	if err := b.check(ctx, a); err != nil {
		return err
	}
	b.emit(a.id, EventProvisioning, "creating container")
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), createTimeout)
	defer cancel()
	m.since = time.Now()
	res, err := b.engine.ContainerCreate(cctx, client.ContainerCreateOptions{
		Config: &sp.Config, HostConfig: &sp.HostConfig, NetworkingConfig: sp.Networking,
	})
	if err != nil {
		m.unknown = !cerrdefs.IsInvalidArgument(err) && !cerrdefs.IsNotFound(err) && !cerrdefs.IsConflict(err)
		return err
	}
	m.container = res.ID
	b.mu.Lock()
	a.container = res.ID
	b.mu.Unlock()
	return b.check(ctx, a)
}

// start starts the container.
func (b *Backend) start(ctx context.Context, a *agent, id string) error {
	if b.isolation {
		b.emit(a.id, EventNetwork, "configuring network isolation")
	}
	if _, err := b.engine.ContainerStart(ctx, id, client.ContainerStartOptions{}); err != nil {
		return err
	}
	if err := b.check(ctx, a); err != nil {
		return err
	}
	b.emit(a.id, EventReady, "container started")
	return nil
}

// isolate reads the container's address and writes its rules. An address
// missing fails the spawn: with no rules, the container would reach what
// the rules forbid.
func (b *Backend) isolate(ctx context.Context, a *agent, r Request, ls *scalerconfig.LabelSet, m *made) error {
	info, err := b.engine.ContainerInspect(ctx, m.container, client.ContainerInspectOptions{})
	if err != nil {
		return err
	}
	var addr netip.Addr
	if ns := info.Container.NetworkSettings; ns != nil && ns.Networks[agentspawn.IsolatedNetwork] != nil {
		addr = ns.Networks[agentspawn.IsolatedNetwork].IPAddress
	}
	if !addr.IsValid() {
		return &Error{Reason: ErrNoAddress, Scaler: b.name, Agent: a.id, Container: m.container}
	}
	iso, err := b.isolationOf(addr, ls, r.OrchestratorURL)
	if err != nil {
		return err
	}
	m.addr = addr
	b.mu.Lock()
	a.addr = addr
	b.mu.Unlock()
	return b.applyRules(a, iso)
}

// check fails a spawn that Destroy tore down or whose ctx ended.
func (b *Backend) check(ctx context.Context, a *agent) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.checkLocked(ctx, a)
}

func (b *Backend) checkLocked(ctx context.Context, a *agent) error {
	if a.tornDown {
		return b.tornDown(a)
	}
	return context.Cause(ctx)
}

// commit marks a spawn done unless check fails it, in one step with the
// check: Spawn, at its deadline, reads the mark to learn which won.
func (b *Backend) commit(ctx context.Context, a *agent) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.checkLocked(ctx, a); err != nil {
		return err
	}
	a.running = true
	return nil
}

func (b *Backend) tornDown(a *agent) error {
	return &Error{Reason: ErrTornDown, Scaler: b.name, Agent: a.id}
}

// failure is the error a failed spawn returns: torn down, else its ctx's
// cause once ctx ended, else the step's own.
func (b *Backend) failure(ctx context.Context, a *agent, err error) error {
	if cause := b.check(ctx, a); cause != nil {
		return cause
	}
	return err
}

// unwind reports a failed spawn and removes what it made.
func (b *Backend) unwind(a *agent, m *made, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	msg := err.Error()
	if m.container != "" {
		if out := b.output(ctx, m.container, 50); out != "" {
			msg += "\n--- captured output ---\n" + out
		}
	}
	b.emit(a.id, EventFailed, msg)
	gone := true
	switch {
	case m.container != "":
		gone = b.remove(ctx, m.container) == nil
	case m.unknown:
		b.reapAfter(ctx, a, m.since)
	}
	if m.addr.IsValid() && gone {
		_ = b.removeRules(a, m.addr) // best effort, as the orchestrator's
	}
	b.finish(a)
}

// finish ends a spawn: it stops counting the agent unless the spawn
// succeeded, and lets ShutdownAll's wait end.
func (b *Backend) finish(a *agent) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !a.running && b.agents[a.id] == a {
		delete(b.agents, a.id)
	}
	if _, ok := b.workers[a]; ok {
		delete(b.workers, a)
		close(a.done)
	}
}
