package scalerconfig

import (
	"reflect"
	"strconv"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/internal/yamljs"
)

// The orchestrator's scaler config schema (scalerFileSchema of
// packages/orchestrator/src/scaler/config.ts in kici-dev/kici-public, at
// commit 0b46a9a5a27836be8b5af7a5e0c806592d3b5d6d), in the constructs of
// zod.go: one table of keys for each object, in the schema's order. A key
// says, once, everything the package knows of it: its name in the file and
// in the JSON, its schema, its default, and the Go field that holds its
// value. Load validates with the tables (configSchema), decodes with them
// (decode.go) and WithDefaults fills the defaults from them (defaults.go);
// the tests hold the JSON tags and the field docs to them. The refinements
// and transforms the tables name are the orchestrator's rules (rules.go).

// key is one key of an object of the config file.
type key struct {
	name   string         // the key, in the file and in the JSON
	schema func() *schema // its value's schema
	absent presence       // what the object holds when the file leaves it out
	to     any            // a pointer to the Go field that holds its value
}

// keys is the table of an object's keys, in the schema's order: each
// object's table fills the first entries, the rest are empty. A table is
// an array, not a slice, so that making one allocates nothing.
type keys [maxShape]key

// list returns the table's keys.
func (ks *keys) list() []key {
	n := 0
	for n < len(ks) && ks[n].name != "" {
		n++
	}
	return ks[:n]
}

// table returns the keys of T's object bound to the fields of dst.
type table[T any] func(dst *T) keys

// presence says what an object holds for a key the file leaves out:
// nothing, for a required key (the object has an issue) or an optional one
// (the key stays undefined), or else the key's default, written as its
// JSON: 8, "auto", true, [].
type presence string

const (
	required    presence = ""
	optionalKey presence = "?"
)

// defaulted reports whether p is a default.
func (p presence) defaulted() bool { return p != required && p != optionalKey }

// node is the default as the schema's output holds it.
func (p presence) node() *yamljs.Node {
	switch {
	case p == "true" || p == "false":
		return &yamljs.Node{Kind: yamljs.Bool, Bool: p == "true"}
	case p == "[]":
		return &yamljs.Node{Kind: yamljs.Seq, Items: []*yamljs.Node{}}
	case p[0] == '"':
		return &yamljs.Node{Kind: yamljs.String, Str: p.str()}
	}
	return &yamljs.Node{Kind: yamljs.Number, Num: p.num()}
}

// str is a string default's value, num a number's.
func (p presence) str() string  { return string(p[1 : len(p)-1]) }
func (p presence) num() float64 { f, _ := strconv.ParseFloat(string(p), 64); return f }

// objectOf is the object schema of T's table: z.object(shape), or with
// strict z.object(shape).strict(). Each key's schema is made optional or
// given its default as its presence says.
func objectOf[T any](strict bool, t table[T]) *schema {
	ks := t(new(T))
	list := ks.list()
	shape := make([]field, 0, len(list))
	for _, k := range list {
		s := k.schema()
		switch {
		case k.absent == optionalKey:
			s = optional(s)
		case k.absent.defaulted():
			s = withDefault(s, k.absent.node())
		}
		shape = append(shape, field{k.name, s})
	}
	o := object(strict, shape...)
	o.goType = reflect.TypeFor[T]()
	return o
}

// configSchema builds the whole file's schema. It is built once per Load:
// the schemas are small, and a package-level value would be a global.
func configSchema() *schema {
	return configSchemaWith(func(scaler scalerMaker) *schema { return array(scaler(scalerKeys)) })
}

// scalerMaker makes a scaler's schema of a table of its keys: scalerKeys,
// or for the by-item reading one whose labelSets is read otherwise.
type scalerMaker func(keys table[Scaler]) *schema

// configSchemaWith is configSchema with list making the scalers list's
// schema with the scalers' maker.
func configSchemaWith(list func(scaler scalerMaker) *schema) *schema {
	var pt *patterns // compiled when a firecracker scaler has extraHosts
	hostPatterns := func() *patterns {
		if pt == nil {
			pt = compilePatterns()
		}
		return pt
	}
	scaler := func(keys table[Scaler]) *schema { return scalerSchema(keys, hostPatterns) }
	scalers := func() *schema { return list(scaler) }
	top := func(c *Config) keys { return configKeys(c, scalers) }
	return objectOf(false, top).with(check{rule: "pools", fn: checkPools})
}

// configKeys are the top level's keys; scalers makes the scalers list's
// schema (nil where no schema is made: decoding, defaults).
func configKeys(c *Config, scalers func() *schema) keys {
	return keys{
		{"version", literal1, required, &c.Version},
		{"globalMaxAgents", posInt, "50", &c.GlobalMaxAgents},
		{"defaults", defaultsSchema, optionalKey, &c.Defaults},
		{"globalResourceCap", capSchema, optionalKey, &c.GlobalResourceCap},
		{"machinePools", poolsSchema, optionalKey, &c.MachinePools},
		{"scalers", scalers, required, &c.Scalers},
		{"firecracker", firecrackerSchema, optionalKey, &c.Firecracker},
	}
}

func defaultsSchema() *schema { return objectOf(false, defaultsKeys) }

func defaultsKeys(d *Defaults) keys {
	return keys{
		{"resources", resourcesSchema, optionalKey, &d.Resources},
	}
}

func poolsSchema() *schema { return array(objectOf(true, poolKeys)) }

func poolKeys(p *MachinePool) keys {
	return keys{
		{"name", nonEmptyStr, required, &p.Name},
		{"cap", capSchema, required, &p.Cap},
	}
}

func firecrackerSchema() *schema { return objectOf(false, firecrackerKeys) }

func firecrackerKeys(f *FirecrackerNetwork) keys {
	return keys{
		{"cidr", str, `"10.0.0.0/24"`, &f.CIDR},
		{"bridgeName", str, `"kici-br0"`, &f.BridgeName},
		{"gateway", str, `"10.0.0.1"`, &f.Gateway},
		{"netmask", str, `"255.255.255.0"`, &f.Netmask},
		{"table", str, `"kici"`, &f.Table},
		{"autoProvisionHost", boolean, "true", &f.AutoProvisionHost},
	}
}

// scalerSchema is a scaler's schema, of its keys (scalerKeys), with its
// refinement: hostPatterns gives the patterns its extraHosts check reads.
func scalerSchema(keys table[Scaler], hostPatterns func() *patterns) *schema {
	return objectOf(true, keys).with(check{rule: "scaler", fn: func(p *payload) { checkScaler(p, hostPatterns) }})
}

func scalerKeys(s *Scaler) keys {
	return keys{
		{"name", str, required, &s.Name},
		{"type", func() *schema { return enumOf(scalerTypes()) }, required, &s.Type},
		{"maxAgents", posInt, required, &s.MaxAgents},
		{"maxConcurrentSpawns", posInt, "8", &s.MaxConcurrentSpawns},
		{"labelSets", labelSetsSchema, required, &s.LabelSets},
		{"host", str, optionalKey, &s.Host},
		{"socketPath", str, optionalKey, &s.SocketPath},
		{"runtime", func() *schema { return enumOf(runtimes()) }, `"auto"`, &s.Runtime},
		{"orchestratorUrl", str, optionalKey, &s.OrchestratorURL},
		{"extraHosts", strList, optionalKey, &s.ExtraHosts},
		{"networkIsolation", boolean, "true", &s.NetworkIsolation},
		{"warmPool", warmPoolSchema, optionalKey, &s.WarmPool},
		{"mandatoryLabels", mandatoryLabelsSchema, "[]", &s.MandatoryLabels},
		{"platform", platformSchema, optionalKey, &s.Platform},
		{"roles", rolesSchema, optionalKey, &s.Roles},
		{"resourceCap", capSchema, optionalKey, &s.ResourceCap},
		{"machinePool", str, optionalKey, &s.MachinePool},
		{"enforceCgroups", boolean, "false", &s.EnforceCgroups},
		{"firecrackerPath", str, optionalKey, &s.FirecrackerPath},
		{"jailerPath", str, optionalKey, &s.JailerPath},
		{"kernelPath", str, optionalKey, &s.KernelPath},
		{"chrootBaseDir", str, `"/srv/jailer"`, &s.ChrootBaseDir},
		{"uid", integer, optionalKey, &s.UID},
		{"gid", integer, optionalKey, &s.GID},
		{"vcpuCount", posInt, "2", &s.VcpuCount},
		{"memSizeMib", posInt, "512", &s.MemSizeMib},
		{"requireSudo", boolean, "false", &s.RequireSudo},
		{"provisioningTargets", func() *schema { return array(nonEmptyStr()) }, optionalKey, &s.ProvisioningTargets},
		{"claimTtlSeconds", posInt, "300", &s.ClaimTTLSeconds},
		{"agentTokenTtlSeconds", posInt, "600", &s.AgentTokenTTLSeconds},
	}
}

func warmPoolSchema() *schema { return objectOf(false, warmPoolKeys) }

func warmPoolKeys(w *WarmPool) keys {
	return keys{
		{"enabled", boolean, "false", &w.Enabled},
		{"size", func() *schema { return num().with(isInt(), nonnegative()) }, "0", &w.Size},
		{"idleTimeoutSeconds", num, "300", &w.IdleTimeoutSeconds},
	}
}

func platformSchema() *schema { return objectOf(true, platformKeys) }

func platformKeys(p *Platform) keys {
	return keys{
		{"os", func() *schema { return enum("linux", "macos", "windows") }, required, &p.OS},
		{"arch", func() *schema { return enum("x64", "arm64") }, required, &p.Arch},
	}
}

func labelSetsSchema() *schema { return array(objectOf(true, labelSetKeys)).with(nonEmpty()) }

func labelSetKeys(ls *LabelSet) keys {
	return keys{
		{"labels", labelsSchema, required, &ls.Labels},
		{"image", str, optionalKey, imageOf{ls}},
		{"imagePullPolicy", func() *schema { return enumOf(pullPolicies()) }, `"IfNotPresent"`, &ls.ImagePullPolicy},
		{"binaryPath", str, optionalKey, &ls.BinaryPath},
		{"resources", resourcesSchema, optionalKey, &ls.Resources},
		{"volumes", strList, optionalKey, &ls.Volumes},
		{"containerSocket", boolean, "false", &ls.ContainerSocket},
		{"env", record, optionalKey, &ls.Env},
		{"backpressureMode", func() *schema { return enum("pause", "drop") }, optionalKey, &ls.BackpressureMode},
		{"networkPolicy", networkPolicySchema, optionalKey, &ls.NetworkPolicy},
		{"rootfsPath", str, optionalKey, &ls.RootfsPath},
		{"kernelPath", str, optionalKey, &ls.KernelPath},
		{"vcpuCount", posInt, optionalKey, &ls.VcpuCount},
		{"memSizeMib", posInt, optionalKey, &ls.MemSizeMib},
		{"overlayDriveSizeMib", posInt, optionalKey, &ls.OverlayDriveSizeMib},
	}
}

// imageOf is where a label set's image goes: the image, and the positions
// of its value.
type imageOf struct{ ls *LabelSet }

func networkPolicySchema() *schema { return objectOf(false, networkPolicyKeys) }

func networkPolicyKeys(n *NetworkPolicy) keys {
	return keys{
		{"allowlist", strList, optionalKey, &n.Allowlist},
		{"denyAll", boolean, "false", &n.DenyAll},
		{"hostAccess", func() *schema { return strList().with(check{rule: "hostAccess", fn: checkHostAccessList}) }, optionalKey, &n.HostAccess},
	}
}

// resourcesSchema is a label set's or the defaults' resources: the nested
// form {requests, limits} or the flat one {cpus, memory}, read as the
// nested form.
func resourcesSchema() *schema {
	return pipe(union(objectOf(true, resourcesKeys), specSchema()), "flat", flatResources)
}

func resourcesKeys(r *hostconfig.Resources) keys {
	return keys{
		{"requests", specSchema, optionalKey, &r.Requests},
		{"limits", specSchema, optionalKey, &r.Limits},
	}
}

func specSchema() *schema { return objectOf(true, specKeys) }

func specKeys(s *hostconfig.ResourceSpec) keys {
	return keys{
		{"memory", str, optionalKey, &s.Memory},
		{"cpus", func() *schema { return num().with(positive(), atMost(256)) }, optionalKey, &s.CPUs},
	}
}

// capSchema is a resource cap's: maxMemory is read as bytes, which the
// cap holds as maxMemoryBytes.
func capSchema() *schema { return pipe(objectOf(true, capKeys), "memory", memoryCap) }

func capKeys(c *ResourceCap) keys {
	return keys{
		{"maxCpu", func() *schema { return num().with(positive()) }, optionalKey, &c.MaxCPU},
		{"maxMemory", str, optionalKey, &c.MaxMemoryBytes},
	}
}

func labelsSchema() *schema {
	return pipe(array(str()).with(nonEmpty(), refine(noReserved,
		"Labels with 'kici:' prefix are reserved and cannot be used in scaler labelSets").named("reserved")), "canonical", canonicalLabels)
}

func mandatoryLabelsSchema() *schema {
	return pipe(strList().with(refine(noReserved,
		"Labels with 'kici:' prefix are reserved and cannot be used in mandatoryLabels").named("reserved")), "canonical", canonicalLabels)
}

func rolesSchema() *schema { return pipe(array(enumOf(roles())), "roles", normalizeRoles) }

// The enums whose values are Go constants, in the schema's order.

func scalerTypes() []ScalerType {
	return []ScalerType{TypeContainer, TypeBareMetal, TypeFirecracker, TypeEvent}
}
func runtimes() []Runtime        { return []Runtime{RuntimeDocker, RuntimePodman, RuntimeAuto} }
func pullPolicies() []PullPolicy { return []PullPolicy{PullAlways, PullIfNotPresent, PullNever} }
func roles() []Role              { return []Role{RoleBuilder, RoleInitRunner, roleAll} }

// roleAll is every role; the roles' transform reads it as no list at all.
const roleAll Role = "all"

// The schemas the tables name most.

func posInt() *schema      { return num().with(isInt(), positive()) }
func integer() *schema     { return num().with(isInt()) }
func nonEmptyStr() *schema { return str().with(nonEmpty()) }
func strList() *schema     { return array(str()) }
