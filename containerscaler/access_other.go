//go:build !unix

package containerscaler

// accessible reports false: the runtime sockets the orchestrator probes are
// unix sockets.
func accessible(string) bool { return false }
