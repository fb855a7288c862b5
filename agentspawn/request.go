package agentspawn

import (
	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/api/types/registry"
)

// Request is one spawn, as the scaler manager asks the container backend for
// it. Everything the backend learns by I/O is a value here: the socket it
// found, the token it minted, the agent image it inspected, the agents it
// runs.
type Request struct {
	// Config is the loaded scaler config: its scalers and its
	// defaults.resources.
	Config *scalerconfig.Config
	// Scaler is the container scaler's name.
	Scaler string
	// LabelSet is the label set the job was routed to, as the scaler manager
	// passes it: the declared labels of the label set [Route] chose. It is
	// matched in any case and order. It goes into KICI_LABELS as it is.
	LabelSet []string
	// AgentID is the id the scaler manager minted for the agent.
	AgentID string
	// OrchestratorURL is the URL the agent dials. It is the scaler's
	// orchestratorUrl, else KICI_ORCHESTRATOR_URL, else the orchestrator's own
	// ws://127.0.0.1:<port>/ws.
	OrchestratorURL string
	// Token is the agent's ephemeral token, minted for the agent's labels
	// ([AgentLabels]). It is "" when the backend has no token store.
	Token string
	// Effective are the limits the scaler manager resolved for this job. They
	// fold the job's, the label set's and the scaler defaults'. They are the
	// zero Limits when it resolved none.
	Effective hostconfig.Limits
	// SocketPath is the container runtime's socket the backend resolved: the
	// scaler's socketPath, or the one it detected. It is "" for a scaler with a
	// remote host, which has no local socket to share.
	SocketPath string
	// Environ is the orchestrator's environment, in order, as os.Environ gives
	// it. Each KICI_AGENT_ENV_<NAME> of it is forwarded to the agent.
	Environ []string
	// PlatformTaints are the scaler's platform taint labels, as the scaler
	// manager passes them: [PlatformTaints] of the scaler.
	PlatformTaints []string
	// BoundJobID is the job the agent is spawned for. It is "" for a spawn bound
	// to none, such as a warm pool's.
	BoundJobID string
	// RunID is the run of that job; "" when there is none.
	RunID string
	// Job is the job's own container image, when the job declared one. nil
	// starts the agent from the label set's image.
	Job *JobImage
	// Active is how many agents the backend runs now.
	Active int
	// HostServices are hostAccess entries for services on the
	// orchestrator's host that agents are sent to, which [Admit] folds into
	// the default host access ([HostAccessInput].HostServices). Plan does
	// not read them.
	HostServices []string
}

// JobImage is a job's own container image. The agent runs in it instead of
// the label set's image. The KiCI runtime is injected from the label set's
// agent image.
type JobImage struct {
	// Image is the job's image reference.
	Image string
	// Auth is the registry credentials the job's image is pulled with. nil
	// pulls anonymously.
	Auth *registry.AuthConfig
	// AgentImageID is the inspected Id of the label set's agent image. It names
	// the runtime volume ([RuntimeVolumeName]). The caller pulls that image
	// (IfNotPresent) and inspects it before Plan. It fills the volume from it,
	// as the backend's ensureRuntimeVolume does. "" names the volume from the
	// label set's image reference instead. The backend does the same when the
	// inspection returns no Id.
	AgentImageID string
	// Init is the init command the agent image's labels call for. It goes
	// before the injected agent's command in Cmd. nil means none.
	Init []string
}
