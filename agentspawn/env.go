package agentspawn

import (
	"strings"

	"github.com/kicikit/kicikit/scalerconfig"
)

// composer builds every string of a container that joins parts (its
// environment entries, its kici-labels, the binds it makes) in one buffer,
// the caller's, and cuts each out of one copy of it at the end: one
// allocation for them all. The buffer is passed and returned rather than
// held, so that a buffer on the caller's stack stays there.
type composer struct {
	count int // how many strings
	// Where each string ends in the buffer: the first ones in ends, inline
	// so that a composer needs no memory of its own, the others in more.
	ends [24]int
	more []int
}

// add appends the string parts make, joined, and returns buf.
func (c *composer) add(buf []byte, parts ...string) []byte {
	for _, p := range parts {
		buf = append(buf, p...)
	}
	c.end(len(buf))
	return buf
}

// addLabels appends name followed by labels joined with ",".
func (c *composer) addLabels(buf []byte, name string, labels []label) []byte {
	buf = append(buf, name...)
	for i, l := range labels {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(append(buf, l.prefix...), l.name...)
	}
	c.end(len(buf))
	return buf
}

// addList appends list joined with ",".
func (c *composer) addList(buf []byte, list []string) []byte {
	for i, l := range list {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, l...)
	}
	c.end(len(buf))
	return buf
}

// end ends a string where the buffer now ends.
func (c *composer) end(at int) {
	i := c.count
	c.count++
	if i < len(c.ends) {
		c.ends[i] = at
	} else {
		c.more = append(c.more, at)
	}
}

// strings returns every string added, by index, from the buffer.
func (c *composer) strings(buf []byte) []string {
	s := string(buf)
	out := make([]string, c.count)
	from := 0
	for i := range out {
		to := c.endOf(i)
		out[i] = s[from:to]
		from = to
	}
	return out
}

// endOf is where string i ends.
func (c *composer) endOf(i int) int {
	if i < len(c.ends) {
		return c.ends[i]
	}
	return c.more[i-len(c.ends)]
}

// parts are the indices of a container's strings in its composer's.
type parts struct {
	env   int    // how many environment entries there are, from index 0
	key   int    // kici-labels
	binds [2]int // the binds compose makes: the socket's, the runtime volume's
	made  int    // how many of binds it made
}

// spawning is a checked request and what Plan found for it.
type spawning struct {
	r      *Request
	s      *scalerconfig.Scaler
	ls     *scalerconfig.LabelSet
	want   []string // the label set, normalized
	full   []label  // its KICI_LABELS
	extra  []string // the entries the image's origin adds last
	volume string   // the runtime volume, for a job's image
}

// compose appends a container's strings to buf: first its environment,
// in the backend's order, then its kici-labels and the binds it makes.
func (sg *spawning) compose(c *composer, buf []byte) ([]byte, parts) {
	r, ls := sg.r, sg.ls
	buf = c.add(buf, "KICI_ORCHESTRATOR_URL=", r.OrchestratorURL)
	buf = c.add(buf, "KICI_AGENT_ID=", r.AgentID)
	buf = c.addLabels(buf, "KICI_LABELS=", sg.full)
	buf = c.add(buf, "KICI_SCALER_MANAGED=1")
	buf = c.add(buf, "KICI_EXECUTION_MODE=bare-metal")
	buf = c.add(buf, "KICI_RUNTIME_IMAGE=", ls.Image)
	if r.Token != "" {
		buf = c.add(buf, "KICI_AGENT_TOKEN=", r.Token)
	}
	if ls.BackpressureMode != "" {
		buf = c.add(buf, "KICI_BACKPRESSURE_MODE=", ls.BackpressureMode)
	}
	for _, kv := range r.Environ {
		if entry, ok := forwarded(kv); ok {
			buf = c.add(buf, entry)
		}
	}
	for _, v := range ls.Env {
		buf = c.add(buf, v.Name, "=", v.Value)
	}
	if r.Job != nil {
		buf = c.add(buf, envJobImageAgent)
	}
	for _, e := range sg.extra {
		buf = c.add(buf, e)
	}
	return sg.composeRest(c, buf)
}

// composeRest appends the container's kici-labels and the binds it makes,
// after its environment.
func (sg *spawning) composeRest(c *composer, buf []byte) ([]byte, parts) {
	p := parts{env: c.count, key: c.count}
	buf = c.addList(buf, sg.want)
	if sg.ls.ContainerSocket && sg.r.SocketPath != "" {
		p.binds[p.made] = c.count
		buf = c.add(buf, sg.r.SocketPath, ":", sg.r.SocketPath)
		p.made++
	}
	if sg.r.Job != nil {
		p.binds[p.made] = c.count
		buf = c.add(buf, sg.volume, ":", RuntimeMount, ":ro")
		p.made++
	}
	return buf, p
}

// runtimeImageID is what names the runtime volume: the agent image's
// inspected id, else its reference, as the backend falls back.
func runtimeImageID(job *JobImage, ls *scalerconfig.LabelSet) string {
	if job.AgentImageID != "" {
		return job.AgentImageID
	}
	return ls.Image
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
