package containerscaler

// Event is one step of a spawn, as the orchestrator's scaler events report
// it.
type Event struct {
	// Type is one of the Event constants, such as "scaler.provisioning".
	Type string
	// AgentID is the agent the spawn is for.
	AgentID string
	// Message says what happens, such as "creating container".
	Message string
}

// The types of [Event], in the order a spawn emits them.
const (
	// EventProvisioning is a pull, the fill of a runtime volume, or the
	// container's create.
	EventProvisioning = "scaler.provisioning"
	// EventNetwork is the start of a container under network isolation.
	EventNetwork = "scaler.network"
	// EventReady is a started container.
	EventReady = "scaler.ready"
	// EventConnecting is a spawn done: the agent is to register.
	EventConnecting = "agent.connecting"
	// EventFailed is a failed spawn: its error and, when the container
	// printed anything, "--- captured output ---" and its last lines.
	EventFailed = "scaler.failed"
	// EventCleanupFailed is a removal that failed: a container, volume or
	// rules that a spawn's unwinding, a Destroy, a sweep or a runtime
	// volume's fill could not remove. Its message names the step and the
	// error. It is kicikit's: the orchestrator logs such failures, or
	// drops them.
	EventCleanupFailed = "scaler.cleanup_failed"
)

// emit sends an event, when the backend has a receiver.
func (b *Backend) emit(agentID, typ, message string) {
	if b.events != nil {
		b.events(Event{Type: typ, AgentID: agentID, Message: message})
	}
}
