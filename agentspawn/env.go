package agentspawn

import (
	"strings"

	"github.com/kicikit/kicikit/scalerconfig"
)

// composer builds every string of a container that joins parts (its
// environment entries, its kici-labels, the binds it makes) as one string,
// and cuts each out of it at the end: one allocation for them all. It runs
// twice over the same calls: first measuring, then writing what it
// measured room for.
type composer struct {
	measuring bool
	size      int // measured: the bytes of every string
	count     int // how many strings
	b         strings.Builder
	// Where each string ends in b: the first ones in ends, inline so that a
	// composer needs no memory of its own, the others in more.
	ends [24]int
	more []int
}

// add adds the string parts make, joined, and returns its index.
func (c *composer) add(parts ...string) int {
	for _, p := range parts {
		c.write(p)
	}
	return c.end()
}

// addLabels adds name followed by labels joined with ",", and returns its
// index.
func (c *composer) addLabels(name string, labels []label) int {
	c.write(name)
	for i, l := range labels {
		if i > 0 {
			c.write(",")
		}
		c.write(l.prefix)
		c.write(l.name)
	}
	return c.end()
}

func (c *composer) write(s string) {
	if c.measuring {
		c.size += len(s)
		return
	}
	c.b.WriteString(s)
}

// end ends the string being added and returns its index.
func (c *composer) end() int {
	i := c.count
	c.count++
	switch {
	case c.measuring:
	case i < len(c.ends):
		c.ends[i] = c.b.Len()
	default:
		c.more = append(c.more, c.b.Len())
	}
	return i
}

// start switches from measuring to writing.
func (c *composer) start() {
	c.b.Grow(c.size)
	c.more = make([]int, 0, max(0, c.count-len(c.ends))) // none, mostly: no allocation
	c.measuring, c.count = false, 0
}

// strings returns every string added, by index.
func (c *composer) strings() []string {
	s := c.b.String()
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

// compose adds a container's strings to c: first its environment, in the
// backend's order, then its kici-labels and the binds it makes.
func (sg *spawning) compose(c *composer) parts {
	r, ls := sg.r, sg.ls
	c.add("KICI_ORCHESTRATOR_URL=", r.OrchestratorURL)
	c.add("KICI_AGENT_ID=", r.AgentID)
	c.addLabels("KICI_LABELS=", sg.full)
	c.add("KICI_SCALER_MANAGED=1")
	c.add("KICI_EXECUTION_MODE=bare-metal")
	c.add("KICI_RUNTIME_IMAGE=", ls.Image)
	if r.Token != "" {
		c.add("KICI_AGENT_TOKEN=", r.Token)
	}
	if ls.BackpressureMode != "" {
		c.add("KICI_BACKPRESSURE_MODE=", ls.BackpressureMode)
	}
	for _, kv := range r.Environ {
		if entry, ok := forwarded(kv); ok {
			c.add(entry)
		}
	}
	for _, v := range ls.Env {
		c.add(v.Name, "=", v.Value)
	}
	if r.Job != nil {
		c.add(envJobImageAgent)
	}
	for _, e := range sg.extra {
		c.add(e)
	}
	return sg.composeRest(c)
}

// composeRest adds the container's kici-labels and the binds it makes,
// after its environment.
func (sg *spawning) composeRest(c *composer) parts {
	p := parts{env: c.count}
	p.key = c.addList(sg.want)
	if sg.ls.ContainerSocket && sg.r.SocketPath != "" {
		p.binds[p.made] = c.add(sg.r.SocketPath, ":", sg.r.SocketPath)
		p.made++
	}
	if sg.r.Job != nil {
		p.binds[p.made] = c.add(sg.volume, ":", RuntimeMount, ":ro")
		p.made++
	}
	return p
}

// addList adds list joined with ",", and returns its index.
func (c *composer) addList(list []string) int {
	for i, l := range list {
		if i > 0 {
			c.write(",")
		}
		c.write(l)
	}
	return c.end()
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
