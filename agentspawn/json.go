package agentspawn

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
)

// MarshalJSON returns the body of the Engine API's POST /containers/create
// for s. It has exactly the keys the orchestrator's create call sends, in
// its order:
//
//	{"Image":…, "Cmd":[…], "Env":[…], "Labels":{…},
//	 "HostConfig":{"Memory":…, "NanoCpus":…, "Binds":[…], "ExtraHosts":[…],
//	               "GroupAdd":[…], "AutoRemove":false, "PidsLimit":4096},
//	 "NetworkingConfig":{"EndpointsConfig":{"kici-agent-net":{}}}}
//
// There is no null, no empty string, and no zero value the orchestrator
// leaves out:
//
//	Image                              when set
//	Cmd, Env, Binds, ExtraHosts,       when they hold an entry
//	GroupAdd
//	Labels                             when not nil: the backend's labels first,
//	                                   in its order, then any other, sorted
//	Memory, NanoCpus                   when positive
//	AutoRemove                         always
//	PidsLimit                          when set
//	NetworkingConfig                   when s.Networking is not nil, each of its
//	                                   endpoints with empty settings
//
// The other fields of s.Config and s.HostConfig, which Plan leaves zero, are
// not written. To send more, marshal them yourself, or hand them to the
// Engine's Go client.
func (s Spawn) MarshalJSON() ([]byte, error) {
	var w jsonWriter
	w.b.WriteByte('{')
	c := &s.Config
	if c.Image != "" {
		w.key("Image")
		w.str(c.Image)
	}
	w.list("Cmd", c.Cmd)
	w.list("Env", c.Env)
	if c.Labels != nil {
		w.key("Labels")
		w.labels(c.Labels)
	}
	w.key("HostConfig")
	w.hostConfig(&s.HostConfig)
	if s.Networking != nil {
		w.key("NetworkingConfig")
		w.networking(s.Networking.EndpointsConfig)
	}
	w.b.WriteByte('}')
	return w.b.Bytes(), nil
}

// jsonWriter writes a JSON object's members, a comma between two.
type jsonWriter struct {
	b     bytes.Buffer
	has   [4]bool // per nesting level: whether its object has a member yet
	depth int
}

// key writes a member's key, after a comma unless it is the first of its
// object.
func (w *jsonWriter) key(k string) {
	if w.used() {
		w.b.WriteByte(',')
	}
	w.str(k)
	w.b.WriteByte(':')
}

// used reports whether the current object has a member, and marks it as
// having one.
func (w *jsonWriter) used() bool {
	u := w.has[w.depth]
	w.has[w.depth] = true
	return u
}

func (w *jsonWriter) open() {
	w.b.WriteByte('{')
	w.depth++
	w.has[w.depth] = false
}

func (w *jsonWriter) close() {
	w.b.WriteByte('}')
	w.depth--
}

// str writes s as a JSON string, as encoding/json writes it without
// escaping HTML: invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func (w *jsonWriter) str(s string) {
	enc := json.NewEncoder(&w.b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)           // a string always encodes
	w.b.Truncate(w.b.Len() - 1) // the newline Encode ends with
}

// list writes the member k, an array of strings, when list has an entry.
func (w *jsonWriter) list(k string, list []string) {
	if len(list) == 0 {
		return
	}
	w.key(k)
	w.b.WriteByte('[')
	for i, v := range list {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.str(v)
	}
	w.b.WriteByte(']')
}

// backendLabels are the Docker labels the backend writes, in its order.
func backendLabels() [6]string {
	return [...]string{LabelManaged, LabelScaler, LabelAgentID, LabelLabelSet, LabelBoundJobID, LabelRunID}
}

// labels writes the Docker labels: the backend's first, in its order, then
// the others sorted.
func (w *jsonWriter) labels(labels map[string]string) {
	w.open()
	known := backendLabels()
	for _, k := range known {
		if v, ok := labels[k]; ok {
			w.key(k)
			w.str(v)
		}
	}
	others := make([]string, 0, len(labels))
	for k := range labels {
		if !slices.Contains(known[:], k) {
			others = append(others, k)
		}
	}
	slices.Sort(others)
	for _, k := range others {
		w.key(k)
		w.str(labels[k])
	}
	w.close()
}

// hostConfig writes the members of hc that hostconfig.Build sets.
func (w *jsonWriter) hostConfig(hc *container.HostConfig) {
	w.open()
	if hc.Memory > 0 {
		w.key("Memory")
		w.b.WriteString(strconv.FormatInt(hc.Memory, 10))
	}
	if hc.NanoCPUs > 0 {
		w.key("NanoCpus")
		w.b.WriteString(strconv.FormatInt(hc.NanoCPUs, 10))
	}
	w.list("Binds", hc.Binds)
	w.list("ExtraHosts", hc.ExtraHosts)
	w.list("GroupAdd", hc.GroupAdd)
	w.key("AutoRemove")
	w.b.WriteString(strconv.FormatBool(hc.AutoRemove))
	if hc.PidsLimit != nil {
		w.key("PidsLimit")
		w.b.WriteString(strconv.FormatInt(*hc.PidsLimit, 10))
	}
	w.close()
}

// networking writes a NetworkingConfig that names each endpoint, sorted,
// with empty settings.
func (w *jsonWriter) networking(endpoints map[string]*network.EndpointSettings) {
	w.open()
	w.key("EndpointsConfig")
	w.open()
	names := make([]string, 0, len(endpoints))
	for name := range endpoints {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		w.key(name)
		w.b.WriteString("{}")
	}
	w.close()
	w.close()
}
