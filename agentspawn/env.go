package agentspawn

import (
	"strings"

	"github.com/kicikit/kicikit/scalerconfig"
)

// environment returns the container's environment up to the entries the
// image's origin adds, with room for spare more. The entries that join a
// name and a value are cut from one string built for them all.
func environment(r Request, s *scalerconfig.Scaler, ls *scalerconfig.LabelSet, spare int) []string {
	full := AgentLabels(r.LabelSet, scalerconfig.TypeContainer, s.Name, s.Roles, r.PlatformTaints)
	var e envBuilder
	e.grow(r, ls, full)
	e.entries = make([]string, 0, 8+len(r.Environ)+len(ls.Env)+spare)
	e.add("KICI_ORCHESTRATOR_URL=", r.OrchestratorURL)
	e.add("KICI_AGENT_ID=", r.AgentID)
	e.addList("KICI_LABELS=", full)
	e.entries = append(e.entries, "KICI_SCALER_MANAGED=1", "KICI_EXECUTION_MODE=bare-metal")
	e.add("KICI_RUNTIME_IMAGE=", ls.Image)
	if r.Token != "" {
		e.add("KICI_AGENT_TOKEN=", r.Token)
	}
	if ls.BackpressureMode != "" {
		e.add("KICI_BACKPRESSURE_MODE=", ls.BackpressureMode)
	}
	for _, kv := range r.Environ {
		if name, ok := forwarded(kv); ok {
			e.entries = append(e.entries, name)
		}
	}
	for _, v := range ls.Env {
		e.add(v.Name, "=", v.Value)
	}
	return e.finish()
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

// envBuilder writes the environment entries that need joining into one
// string and cuts them out of it when done. An entry is either a whole
// string in entries or, while building, a placeholder for the bytes
// cut[i] of the joined string.
type envBuilder struct {
	b       strings.Builder
	entries []string
	cuts    []cut
}

// cut is an entry of entries still to cut out of the built string.
type cut struct{ index, from, to int }

// grow makes room for everything the environment of r will join.
func (e *envBuilder) grow(r Request, ls *scalerconfig.LabelSet, labels []string) {
	n := 128 + len(r.OrchestratorURL) + len(r.AgentID) + len(ls.Image) + len(r.Token) + len(ls.BackpressureMode)
	for _, l := range labels {
		n += len(l) + 1
	}
	for _, v := range ls.Env {
		n += len(v.Name) + len(v.Value) + 1
	}
	e.b.Grow(n)
	e.cuts = make([]cut, 0, 8+len(ls.Env))
}

// add adds the entry that parts make, joined.
func (e *envBuilder) add(parts ...string) {
	from := e.b.Len()
	for _, p := range parts {
		e.b.WriteString(p)
	}
	e.mark(from)
}

// addList adds the entry name followed by values joined with ",".
func (e *envBuilder) addList(name string, values []string) {
	from := e.b.Len()
	e.b.WriteString(name)
	for i, v := range values {
		if i > 0 {
			e.b.WriteByte(',')
		}
		e.b.WriteString(v)
	}
	e.mark(from)
}

// mark makes the bytes from from to the end of the built string an entry.
func (e *envBuilder) mark(from int) {
	e.cuts = append(e.cuts, cut{len(e.entries), from, e.b.Len()})
	e.entries = append(e.entries, "")
}

// finish cuts the joined entries out of the built string.
func (e *envBuilder) finish() []string {
	s := e.b.String()
	for _, c := range e.cuts {
		e.entries[c.index] = s[c.from:c.to]
	}
	return e.entries
}
