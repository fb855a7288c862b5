package scalerconfig

import (
	"strings"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/internal/yamljs"
)

// The typed Config of a validated value: every field is there and of its
// type, defaults included, so decoding only reads.

// config decodes the schema's output.
func (m *merged) config(v *yamljs.Node) *Config {
	c := &Config{
		Version:         1,
		GlobalMaxAgents: intOf(lookup(v, "globalMaxAgents")),
		Pos:             m.pos(m.main, m.root.Pos),
	}
	if d := lookup(v, "defaults"); d != nil {
		c.Defaults = &Defaults{Resources: resourcesOf(lookup(d, "resources"))}
	}
	c.GlobalResourceCap = capOf(lookup(v, "globalResourceCap"))
	if pools := lookup(v, "machinePools"); pools != nil {
		c.MachinePools = make([]MachinePool, len(pools.Items))
		for i, p := range pools.Items {
			c.MachinePools[i] = MachinePool{Name: own(lookup(p, "name").Str), Cap: *capOf(lookup(p, "cap")), Pos: m.pos(m.main, p.Pos)}
		}
	}
	c.Scalers = m.scalers
	if !m.byItem {
		scalers := lookup(v, "scalers").Items
		c.Scalers = make([]Scaler, len(scalers))
		for i, s := range scalers {
			file := m.main
			if m.items != nil {
				file = m.items[i].file
			}
			c.Scalers[i] = m.scaler(s, file)
		}
	}
	if f := lookup(v, "firecracker"); f != nil {
		c.Firecracker = &FirecrackerNetwork{
			CIDR:              strOf(lookup(f, "cidr")),
			BridgeName:        strOf(lookup(f, "bridgeName")),
			Gateway:           strOf(lookup(f, "gateway")),
			Netmask:           strOf(lookup(f, "netmask")),
			Table:             strOf(lookup(f, "table")),
			AutoProvisionHost: boolOf(lookup(f, "autoProvisionHost")),
		}
	}
	return c
}

// pos is the Pos of a place in a file.
func (m *merged) pos(file string, p yamljs.Pos) Pos {
	return Pos{File: file, Line: p.Line, Column: p.Column, Offset: p.Offset}
}

//kicikit:long one assignment per field of the scaler schema, in its order
func (m *merged) scaler(v *yamljs.Node, file string) Scaler {
	s := Scaler{
		Name:                 own(lookup(v, "name").Str),
		Type:                 known(lookup(v, "type").Str, TypeContainer, TypeBareMetal, TypeFirecracker, TypeEvent),
		MaxAgents:            intOf(lookup(v, "maxAgents")),
		MaxConcurrentSpawns:  intOf(lookup(v, "maxConcurrentSpawns")),
		Host:                 strOf(lookup(v, "host")),
		SocketPath:           strOf(lookup(v, "socketPath")),
		Runtime:              known(lookup(v, "runtime").Str, RuntimeAuto, RuntimeDocker, RuntimePodman),
		OrchestratorURL:      strOf(lookup(v, "orchestratorUrl")),
		ExtraHosts:           stringList(lookup(v, "extraHosts")),
		NetworkIsolation:     boolOf(lookup(v, "networkIsolation")),
		MandatoryLabels:      stringList(lookup(v, "mandatoryLabels")),
		ResourceCap:          capOf(lookup(v, "resourceCap")),
		MachinePool:          strOf(lookup(v, "machinePool")),
		EnforceCgroups:       lookup(v, "enforceCgroups").Bool,
		FirecrackerPath:      strOf(lookup(v, "firecrackerPath")),
		JailerPath:           strOf(lookup(v, "jailerPath")),
		KernelPath:           strOf(lookup(v, "kernelPath")),
		ChrootBaseDir:        strOf(lookup(v, "chrootBaseDir")),
		UID:                  intPtr(lookup(v, "uid")),
		GID:                  intPtr(lookup(v, "gid")),
		VcpuCount:            intOf(lookup(v, "vcpuCount")),
		MemSizeMib:           intOf(lookup(v, "memSizeMib")),
		RequireSudo:          lookup(v, "requireSudo").Bool,
		ProvisioningTargets:  stringList(lookup(v, "provisioningTargets")),
		ClaimTTLSeconds:      intOf(lookup(v, "claimTtlSeconds")),
		AgentTokenTTLSeconds: intOf(lookup(v, "agentTokenTtlSeconds")),
		Pos:                  m.pos(file, v.Pos),
	}
	if w := lookup(v, "warmPool"); w != nil {
		s.WarmPool = &WarmPool{
			Enabled:            lookup(w, "enabled").Bool,
			Size:               intOf(lookup(w, "size")),
			IdleTimeoutSeconds: floatPtr(lookup(w, "idleTimeoutSeconds")),
		}
	}
	if p := lookup(v, "platform"); p != nil {
		s.Platform = &Platform{OS: own(lookup(p, "os").Str), Arch: own(lookup(p, "arch").Str)}
	}
	if r := lookup(v, "roles"); r != nil {
		s.Roles = make([]Role, len(r.Items))
		for i, n := range r.Items {
			s.Roles[i] = known(n.Str, RoleBuilder, RoleInitRunner)
		}
	}
	sets := lookup(v, "labelSets").Items
	s.LabelSets = make([]LabelSet, len(sets))
	for i, ls := range sets {
		s.LabelSets[i] = m.labelSet(ls, file)
	}
	return s
}

func (m *merged) labelSet(v *yamljs.Node, file string) LabelSet {
	ls := LabelSet{
		Labels:              stringList(lookup(v, "labels")),
		ImagePullPolicy:     known(lookup(v, "imagePullPolicy").Str, PullIfNotPresent, PullAlways, PullNever),
		BinaryPath:          strOf(lookup(v, "binaryPath")),
		Resources:           resourcesOf(lookup(v, "resources")),
		Volumes:             stringList(lookup(v, "volumes")),
		ContainerSocket:     lookup(v, "containerSocket").Bool,
		RootfsPath:          strOf(lookup(v, "rootfsPath")),
		KernelPath:          strOf(lookup(v, "kernelPath")),
		VcpuCount:           intOf(lookup(v, "vcpuCount")),
		MemSizeMib:          intOf(lookup(v, "memSizeMib")),
		OverlayDriveSizeMib: intOf(lookup(v, "overlayDriveSizeMib")),
		Pos:                 m.pos(file, v.Pos),
	}
	if img := lookup(v, "image"); img != nil {
		ls.Image, ls.ImagePos, ls.ImageEnd = own(img.Str), m.pos(file, img.Pos), m.pos(file, img.End)
	}
	if b := lookup(v, "backpressureMode"); b != nil {
		ls.BackpressureMode = own(b.Str)
	}
	if e := lookup(v, "env"); e != nil {
		ls.Env = make(Env, len(e.Pairs))
		for i, p := range e.Pairs {
			ls.Env[i] = EnvVar{Name: own(p.Key), Value: own(p.Value.Str)}
		}
	}
	if n := lookup(v, "networkPolicy"); n != nil {
		ls.NetworkPolicy = &NetworkPolicy{
			Allowlist:  stringList(lookup(n, "allowlist")),
			DenyAll:    lookup(n, "denyAll").Bool,
			HostAccess: stringList(lookup(n, "hostAccess")),
		}
	}
	return ls
}

// own returns s in memory of its own. yamljs's strings are slices of the
// text it read, and one kept in the Config would keep all of that text.
func own(s string) string { return strings.Clone(s) }

// known returns the constant of T that s is, or s in memory of its own.
func known[T ~string](s string, values ...T) T {
	for _, v := range values {
		if string(v) == s {
			return v
		}
	}
	return T(own(s))
}

// intOf is an integer field, 0 when absent. The schema has checked it is a
// safe integer; -0 reads as 0.
func intOf(n *yamljs.Node) int64 {
	if n == nil {
		return 0
	}
	return int64(n.Num)
}

func intPtr(n *yamljs.Node) *int64 {
	if n == nil {
		return nil
	}
	i := int64(n.Num)
	return &i
}

// floatPtr is a number field; -0 reads as 0, as JSON writes it.
func floatPtr(n *yamljs.Node) *float64 {
	if n == nil {
		return nil
	}
	f := n.Num + 0
	return &f
}

func strOf(n *yamljs.Node) *string {
	if n == nil {
		return nil
	}
	s := own(n.Str)
	return &s
}

func boolOf(n *yamljs.Node) *bool {
	b := n.Bool
	return &b
}

// stringList is a list of strings: nil when absent, empty when empty.
func stringList(n *yamljs.Node) []string {
	if n == nil {
		return nil
	}
	out := make([]string, len(n.Items))
	for i, s := range n.Items {
		out[i] = own(s.Str)
	}
	return out
}

func capOf(n *yamljs.Node) *ResourceCap {
	if n == nil {
		return nil
	}
	c := &ResourceCap{}
	if v := lookup(n, "maxCpu"); v != nil {
		c.MaxCPU = v.Num
	}
	c.MaxMemoryBytes = floatPtr(lookup(n, "maxMemoryBytes"))
	return c
}

func resourcesOf(n *yamljs.Node) *hostconfig.Resources {
	if n == nil {
		return nil
	}
	return &hostconfig.Resources{Requests: specOf(lookup(n, "requests")), Limits: specOf(lookup(n, "limits"))}
}

func specOf(n *yamljs.Node) *hostconfig.ResourceSpec {
	if n == nil {
		return nil
	}
	s := &hostconfig.ResourceSpec{}
	if c := lookup(n, "cpus"); c != nil {
		s.CPUs = c.Num
	}
	if mem := lookup(n, "memory"); mem != nil {
		s.Memory = own(mem.Str)
	}
	return s
}
