package containerscaler

// volumeFills are the runtime volumes this process fills. Two container
// scalers of one orchestrator fill the same runtime volumes: each must
// wait for the other's fill rather than start its own, so, as the
// orchestrator's module-level state, they are the process's own.
var volumeFills fills
