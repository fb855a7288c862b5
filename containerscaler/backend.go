package containerscaler

import (
	"context"
	"errors"
	"net/netip"
	"slices"
	"sync"
	"time"

	"github.com/kicikit/kicikit/agentspawn"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/client"
)

// Options configure a [Backend].
type Options struct {
	// Config is the loaded scaler config. New and Reload keep what they
	// read of it: do not modify it afterwards.
	Config *scalerconfig.Config
	// Scaler is the name of a container scaler in Config.
	Scaler string
	// Engine is the Engine client; *client.Client implements it. nil: one
	// for the scaler's host, else its socketPath, else the first runtime
	// socket found, as the orchestrator probes them.
	Engine client.APIClient
	// SocketPath is the local runtime socket a containerSocket label set
	// binds when Engine is set; "": the scaler's socketPath, none for a
	// remote host.
	SocketPath string
	// Environ is the orchestrator's environment, in os.Environ's form and
	// order: its KICI_AGENT_ENV_* entries are forwarded to every agent,
	// and XDG_RUNTIME_DIR names rootless Podman's socket.
	Environ []string
	// IsRegistered reports whether an agent has registered with the
	// orchestrator; CleanupOrphans spares the running containers of those
	// that have. nil: every agent has.
	IsRegistered func(agentID string) bool
	// Token mints the token an agent presents, for its id and full
	// labels. nil: agents get no token.
	Token func(ctx context.Context, agentID string, labels []string) (string, error)
	// HostServices are hostAccess entries for services on this host the
	// orchestrator sends agents to, folded into the default host access.
	HostServices []string
	// NftCommand is the command that runs nft, its arguments following:
	// {"sudo", "-n", "nft"}, or {"ip", "netns", "exec", NS, "nft"} in a
	// test. nil: {"nft"}.
	NftCommand []string
	// SpawnTimeout is the deadline of one spawn, from the moment it holds
	// a slot. 0: 300 s.
	SpawnTimeout time.Duration
	// Events receives each spawn's progress, as the orchestrator's scaler
	// events. It is called from the spawn's goroutine, or from a runtime
	// volume's fill, and must not block them long. nil: none.
	Events func(Event)
}

// Backend runs the agents of one container scaler on a Docker Engine (or
// Podman's compatible API). Its methods are safe for concurrent use.
type Backend struct {
	name         string
	engine       client.APIClient
	socket       string
	isolation    bool
	nft          nftRunner
	environ      []string
	registered   func(string) bool
	token        func(context.Context, string, []string) (string, error)
	hostServices []string
	timeout      time.Duration
	events       func(Event)
	slots        *slots

	mu      sync.Mutex
	network string               // the isolated network's id, as last found fit; "" without isolation
	bridge  string               // its bridge interface
	cfg     *scalerconfig.Config // the scaler as the last Reload left it, and the defaults
	agents  map[string]*agent    // counted: spawning, running, or unwinding a failed spawn, by id
	leaving map[*agent]struct{}  // no longer counted, not yet gone: Destroy ended them
}

// agent is one agent the backend spawns or runs, from its admission until
// it is gone.
type agent struct {
	id     string
	cancel context.CancelCauseFunc // ends its spawn's context
	gone   chan struct{}           // closed once its container and rules are removed, or could not be
	err    error                   // what could not be removed; written before gone is closed

	// Guarded by Backend.mu.
	container string  // the container's id; "" until created
	bound     binding // its address, port and MAC, once its rules are written
	running   bool    // its spawn succeeded
	destroyed bool    // Destroy ended it
}

// Agent is an agent the backend runs.
type Agent struct {
	// ID is the agent's id, Request.AgentID.
	ID string
	// ContainerID is the Engine's id of the agent's container.
	ContainerID string
	// IP is the container's address on the isolated network; the zero
	// Addr without network isolation.
	IP netip.Addr
}

// New returns the backend of the container scaler o.Scaler, as the
// orchestrator's ContainerScalerBackend.create makes it. Under network
// isolation, the scaler's default, it first checks that nft runs; then it
// finds or creates the isolated network and prepares the nftables tables.
// It refuses a missing config, an unknown scaler, a scaler of another type
// and label sets without an image, each with an [*agentspawn.Error]. It
// refuses an isolated network that is not a bridge, or has IPv6
// ([ErrNetworkDriver], [ErrNetworkIPv6]): its agents would not be bound to
// their ports, or would reach over IPv6 what their rules drop.
func New(ctx context.Context, o Options) (*Backend, error) {
	cfg, err := scalerView(o.Config, o.Scaler)
	if err != nil {
		return nil, err
	}
	b := newBackend(o, cfg)
	if b.isolation {
		if err := b.nft.probe(b.name); err != nil {
			return nil, err
		}
	}
	if b.engine, b.socket, err = engineFor(o, &cfg.Scalers[0]); err != nil {
		return nil, err
	}
	if b.isolation {
		if err := b.checkNetwork(ctx); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// newBackend is the backend of cfg's scaler, o's zero fields defaulted,
// before any I/O.
func newBackend(o Options, cfg *scalerconfig.Config) *Backend {
	s := &cfg.Scalers[0]
	b := &Backend{
		name:         s.Name,
		isolation:    s.NetworkIsolation == nil || *s.NetworkIsolation,
		nft:          nftRunner{argv: o.NftCommand},
		environ:      slices.Clone(o.Environ),
		registered:   o.IsRegistered,
		token:        o.Token,
		hostServices: slices.Clone(o.HostServices),
		timeout:      o.SpawnTimeout,
		events:       o.Events,
		slots:        newSlots(spawnSlots(s)),
		cfg:          cfg,
		agents:       map[string]*agent{},
		leaving:      map[*agent]struct{}{},
	}
	if len(b.nft.argv) == 0 {
		b.nft.argv = []string{"nft"}
	}
	if b.timeout <= 0 {
		b.timeout = defaultSpawnTimeout
	}
	if b.registered == nil {
		b.registered = func(string) bool { return true }
	}
	return b
}

// spawnSlots is how many spawns a scaler runs at once: maxConcurrentSpawns,
// 8 when unset.
func spawnSlots(s *scalerconfig.Scaler) int {
	if s.MaxConcurrentSpawns <= 0 {
		return 8
	}
	return int(min(s.MaxConcurrentSpawns, 1<<20))
}

// scalerView is the part of cfg a backend reads: the container scaler
// named name, and the config's defaults.
func scalerView(cfg *scalerconfig.Config, name string) (*scalerconfig.Config, error) {
	if cfg == nil {
		return nil, &agentspawn.Error{Reason: agentspawn.ErrNoConfig, Scaler: name, LabelSetIndex: -1}
	}
	i := slices.IndexFunc(cfg.Scalers, func(s scalerconfig.Scaler) bool { return s.Name == name })
	if i < 0 {
		return nil, &agentspawn.Error{Reason: agentspawn.ErrUnknownScaler, Scaler: name, LabelSetIndex: -1}
	}
	s := cfg.Scalers[i]
	if s.Type != scalerconfig.TypeContainer {
		return nil, &agentspawn.Error{Reason: agentspawn.ErrNotContainer, Scaler: name, Type: s.Type, LabelSetIndex: -1}
	}
	var errs []error
	for j, ls := range s.LabelSets {
		if ls.Image == "" {
			errs = append(errs, &agentspawn.Error{Reason: agentspawn.ErrNoImage, Scaler: name, LabelSetIndex: j})
		}
	}
	if errs != nil {
		return nil, errors.Join(errs...)
	}
	s.LabelSets = slices.Clone(s.LabelSets)
	return &scalerconfig.Config{Defaults: cfg.Defaults, Scalers: []scalerconfig.Scaler{s}}, nil
}

// Reload takes the backend's scaler from a reloaded config, as the
// orchestrator's reload does: its label sets and maxAgents, nothing else.
// It refuses a scaler that is missing, of another type, or with label sets
// without an image (every one named, `Label set [1] requires an 'image'
// field for container backend`), and changes nothing then. Spawns under
// way keep the label sets they started with.
func (b *Backend) Reload(cfg *scalerconfig.Config) error {
	next, err := scalerView(cfg, b.name)
	if err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.cfg.Scalers[0]
	s.LabelSets, s.MaxAgents = next.Scalers[0].LabelSets, next.Scalers[0].MaxAgents
	b.cfg = &scalerconfig.Config{Defaults: b.cfg.Defaults, Scalers: []scalerconfig.Scaler{s}}
	return nil
}

// Active returns the number of agents the backend counts: those spawning
// and those running, until Destroy or a failed spawn's unwinding ends
// them.
func (b *Backend) Active() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.agents)
}
