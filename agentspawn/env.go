package agentspawn

import (
	"strings"

	"github.com/kicikit/kicikit/scalerconfig"
)

// The environment entries the container backend writes.
const (
	envPrefixForward = "KICI_AGENT_ENV_"
	envJobImageAgent = "KICI_JOB_IMAGE_AGENT=1"
)

// environment is the agent container's environment, in the backend's
// order, up to the label set's env. labels are its KICI_LABELS.
func environment(r *Request, ls *scalerconfig.LabelSet, labels []string) []string {
	env := []string{
		"KICI_ORCHESTRATOR_URL=" + r.OrchestratorURL,
		"KICI_AGENT_ID=" + r.AgentID,
		"KICI_LABELS=" + strings.Join(labels, ","),
		"KICI_SCALER_MANAGED=1",
		"KICI_EXECUTION_MODE=bare-metal",
		"KICI_RUNTIME_IMAGE=" + ls.Image,
	}
	if r.Token != "" {
		env = append(env, "KICI_AGENT_TOKEN="+r.Token)
	}
	if ls.BackpressureMode != "" {
		env = append(env, "KICI_BACKPRESSURE_MODE="+ls.BackpressureMode)
	}
	for _, kv := range r.Environ {
		if entry, ok := forwarded(kv); ok {
			env = append(env, entry)
		}
	}
	for _, v := range ls.Env {
		env = append(env, v.Name+"="+v.Value)
	}
	return env
}

// forwarded returns the entry an orchestrator environment entry
// KICI_AGENT_ENV_<NAME>=v becomes in the agent's, NAME=v, and whether it
// is one: NAME must not be empty, and an entry without "=" is none.
func forwarded(kv string) (string, bool) {
	rest, ok := strings.CutPrefix(kv, envPrefixForward)
	if !ok {
		return "", false
	}
	eq := strings.IndexByte(rest, '=')
	return rest, eq > 0
}
