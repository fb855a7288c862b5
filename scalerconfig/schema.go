package scalerconfig

import (
	"reflect"
	"strconv"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/internal/yamljs"
	"github.com/kicikit/kicikit/internal/zod"
)

// The orchestrator's scaler config schema (scalerFileSchema of
// packages/orchestrator/src/scaler/config.ts in kici-dev/kici-public, at
// commit 84ac3cd1ea5b3223661224932f3fdbbc318cb79a, 0.16.0, and for the older
// Rules at b9d436e and 0b46a9a5a27836be8b5af7a5e0c806592d3b5d6d), in the
// constructs of internal/zod: one table of keys for each object, in the
// schema's order. A key says, once, everything the package knows of it: its
// name in the file and in the JSON, its schema, its default, and the Go
// field that holds its value. Load validates with the tables
// (configSchema), decodes with them (decode.go) and WithDefaults fills the
// defaults from them (defaults.go); the tests hold the JSON tags and the
// field docs to them. The refinements and transforms the tables name are
// the orchestrator's rules (rules.go). Three keys hold a schema that
// differs by the Rules: defaults, labelSets and resources. Their tables
// name no schema: reading.schemaOf makes it by the rules.

// key is one key of an object of the config file.
type key struct {
	name   string             // the key, in the file and in the JSON
	schema func() *zod.Schema // its value's schema
	absent presence           // what the object holds when the file leaves it out
	to     any                // a pointer to the Go field that holds its value
}

// keys is the table of an object's keys, in the schema's order: each
// object's table fills the first entries, the rest are empty. A table is
// an array, not a slice, so that making one allocates nothing.
type keys [zod.MaxShape]key

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
func objectOf[T any](strict bool, t table[T]) *zod.Schema {
	return objectRead(reading{}, strict, t)
}

// objectRead is objectOf by the reading r: the keys whose schema differs
// by the rules get r's (reading.schemaOf).
func objectRead[T any](r reading, strict bool, t table[T]) *zod.Schema {
	ks := t(new(T))
	list := ks.list()
	shape := make([]zod.Field, 0, len(list))
	for _, k := range list {
		s := r.schemaOf(k)
		switch {
		case k.absent == optionalKey:
			s = zod.Optional(s)
		case k.absent.defaulted():
			s = zod.WithDefault(s, k.absent.node())
		}
		shape = append(shape, zod.Field{Key: k.name, Schema: s})
	}
	o := zod.Object(strict, shape...)
	o.GoType = reflect.TypeFor[T]()
	return o
}

// configSchema builds the whole file's schema, by the reading r. It is
// built once per Load: the schemas are small, and a package-level value
// would be a global.
func configSchema(r reading) *zod.Schema {
	return configSchemaWith(r, func(scaler scalerMaker) *zod.Schema { return zod.Array(scaler(scalerKeys)) })
}

// schemaOf is the schema of the key k by the reading r: the table's, or,
// for a key whose schema differs by the rules (its table's is nil: a
// config's defaults, a scaler's labelSets, a resources block), r's.
func (r reading) schemaOf(k key) *zod.Schema {
	switch {
	case k.schema != nil:
		return k.schema()
	case k.name == "defaults":
		return objectRead(r, false, defaultsKeys)
	case k.name == "labelSets":
		return labelSetsSchema(r)
	}
	return resourcesSchema(r)
}

// scalerMaker makes a scaler's schema of a table of its keys: scalerKeys,
// or for the by-item reading one whose labelSets is read otherwise.
type scalerMaker func(keys table[Scaler]) *zod.Schema

// configSchemaWith is configSchema with list making the scalers list's
// schema with the scalers' maker.
func configSchemaWith(r reading, list func(scaler scalerMaker) *zod.Schema) *zod.Schema {
	var pt *patterns // compiled when a firecracker scaler has extraHosts
	hostPatterns := func() *patterns {
		if pt == nil {
			pt = compilePatterns()
		}
		return pt
	}
	scaler := func(keys table[Scaler]) *zod.Schema { return scalerSchema(r, keys, hostPatterns) }
	scalers := func() *zod.Schema { return list(scaler) }
	top := func(c *Config) keys { return configKeys(c, scalers) }
	return objectRead(r, false, top).With(zod.Check{Rule: "pools", Fn: checkPools})
}

// configKeys are the top level's keys; scalers makes the scalers list's
// schema (nil where no schema is made: decoding, defaults).
func configKeys(c *Config, scalers func() *zod.Schema) keys {
	return keys{
		{"version", zod.Literal1, required, &c.Version},
		{"globalMaxAgents", posInt, "50", &c.GlobalMaxAgents},
		{"defaults", nil, optionalKey, &c.Defaults}, // by the reading: schemaOf
		{"globalResourceCap", capSchema, optionalKey, &c.GlobalResourceCap},
		{"machinePools", poolsSchema, optionalKey, &c.MachinePools},
		{"scalers", scalers, required, &c.Scalers},
		{"firecracker", firecrackerSchema, optionalKey, &c.Firecracker},
	}
}

func defaultsKeys(d *Defaults) keys {
	return keys{
		{"resources", nil, optionalKey, &d.Resources}, // by the reading: schemaOf
	}
}

func poolsSchema() *zod.Schema { return zod.Array(objectOf(true, poolKeys)) }

func poolKeys(p *MachinePool) keys {
	return keys{
		{"name", nonEmptyStr, required, &p.Name},
		{"cap", capSchema, required, &p.Cap},
	}
}

func firecrackerSchema() *zod.Schema { return objectOf(false, firecrackerKeys) }

func firecrackerKeys(f *FirecrackerNetwork) keys {
	return keys{
		{"cidr", zod.Str, `"10.0.0.0/24"`, &f.CIDR},
		{"bridgeName", zod.Str, `"kici-br0"`, &f.BridgeName},
		{"gateway", zod.Str, `"10.0.0.1"`, &f.Gateway},
		{"netmask", zod.Str, `"255.255.255.0"`, &f.Netmask},
		{"table", zod.Str, `"kici"`, &f.Table},
		{"autoProvisionHost", zod.Boolean, "true", &f.AutoProvisionHost},
	}
}

// scalerSchema is a scaler's schema by the reading r, of its keys
// (scalerKeys), with its refinement: hostPatterns gives the patterns its
// extraHosts check reads.
func scalerSchema(r reading, keys table[Scaler], hostPatterns func() *patterns) *zod.Schema {
	return objectRead(r, true, keys).With(zod.Check{Rule: "scaler", Fn: func(p *zod.Payload) { checkScaler(p, r, hostPatterns) }})
}

func scalerKeys(s *Scaler) keys {
	return keys{
		{"name", zod.Str, required, &s.Name},
		{"type", func() *zod.Schema { return zod.EnumOf(scalerTypes()) }, required, &s.Type},
		{"maxAgents", posInt, required, &s.MaxAgents},
		{"maxConcurrentSpawns", posInt, "8", &s.MaxConcurrentSpawns},
		{"labelSets", nil, required, &s.LabelSets}, // by the reading: schemaOf
		{"host", zod.Str, optionalKey, &s.Host},
		{"socketPath", zod.Str, optionalKey, &s.SocketPath},
		{"runtime", func() *zod.Schema { return zod.EnumOf(runtimes()) }, `"auto"`, &s.Runtime},
		{"orchestratorUrl", zod.Str, optionalKey, &s.OrchestratorURL},
		{"extraHosts", strList, optionalKey, &s.ExtraHosts},
		{"networkIsolation", zod.Boolean, "true", &s.NetworkIsolation},
		{"warmPool", warmPoolSchema, optionalKey, &s.WarmPool},
		{"mandatoryLabels", mandatoryLabelsSchema, "[]", &s.MandatoryLabels},
		{"platform", platformSchema, optionalKey, &s.Platform},
		{"roles", rolesSchema, optionalKey, &s.Roles},
		{"resourceCap", capSchema, optionalKey, &s.ResourceCap},
		{"machinePool", zod.Str, optionalKey, &s.MachinePool},
		{"enforceCgroups", zod.Boolean, "false", &s.EnforceCgroups},
		{"firecrackerPath", zod.Str, optionalKey, &s.FirecrackerPath},
		{"jailerPath", zod.Str, optionalKey, &s.JailerPath},
		{"kernelPath", zod.Str, optionalKey, &s.KernelPath},
		{"chrootBaseDir", zod.Str, `"/srv/jailer"`, &s.ChrootBaseDir},
		{"uid", integer, optionalKey, &s.UID},
		{"gid", integer, optionalKey, &s.GID},
		{"vcpuCount", posInt, "2", &s.VcpuCount},
		{"memSizeMib", posInt, "512", &s.MemSizeMib},
		{"requireSudo", zod.Boolean, "false", &s.RequireSudo},
		{"provisioningTargets", func() *zod.Schema { return zod.Array(nonEmptyStr()) }, optionalKey, &s.ProvisioningTargets},
		{"claimTtlSeconds", posInt, "300", &s.ClaimTTLSeconds},
		{"agentTokenTtlSeconds", posInt, "600", &s.AgentTokenTTLSeconds},
	}
}

func warmPoolSchema() *zod.Schema { return objectOf(false, warmPoolKeys) }

func warmPoolKeys(w *WarmPool) keys {
	return keys{
		{"enabled", zod.Boolean, "false", &w.Enabled},
		{"size", func() *zod.Schema { return zod.Num().With(zod.IsInt(), zod.Nonnegative()) }, "0", &w.Size},
		{"idleTimeoutSeconds", zod.Num, "300", &w.IdleTimeoutSeconds},
	}
}

func platformSchema() *zod.Schema { return objectOf(true, platformKeys) }

func platformKeys(p *Platform) keys {
	return keys{
		{"os", func() *zod.Schema { return zod.Enum("linux", "macos", "windows") }, required, &p.OS},
		{"arch", func() *zod.Schema { return zod.Enum("x64", "arm64") }, required, &p.Arch},
	}
}

// labelSetsSchema is a scaler's labelSets by the reading r.
func labelSetsSchema(r reading) *zod.Schema {
	return zod.Array(objectRead(r, true, labelSetKeys)).With(zod.NonEmpty())
}

func labelSetKeys(ls *LabelSet) keys {
	return keys{
		{"labels", labelsSchema, required, &ls.Labels},
		{"image", zod.Str, optionalKey, imageOf{ls}},
		{"imagePullPolicy", func() *zod.Schema { return zod.EnumOf(pullPolicies()) }, `"IfNotPresent"`, &ls.ImagePullPolicy},
		{"binaryPath", zod.Str, optionalKey, &ls.BinaryPath},
		{"resources", nil, optionalKey, &ls.Resources}, // by the reading: schemaOf
		{"volumes", strList, optionalKey, &ls.Volumes},
		{"containerSocket", zod.Boolean, "false", &ls.ContainerSocket},
		{"env", zod.Record, optionalKey, &ls.Env},
		{"backpressureMode", func() *zod.Schema { return zod.Enum("pause", "drop") }, optionalKey, &ls.BackpressureMode},
		{"networkPolicy", networkPolicySchema, optionalKey, &ls.NetworkPolicy},
		{"rootfsPath", zod.Str, optionalKey, &ls.RootfsPath},
		{"kernelPath", zod.Str, optionalKey, &ls.KernelPath},
		{"vcpuCount", posInt, optionalKey, &ls.VcpuCount},
		{"memSizeMib", posInt, optionalKey, &ls.MemSizeMib},
		{"overlayDriveSizeMib", posInt, optionalKey, &ls.OverlayDriveSizeMib},
	}
}

// imageOf is where a label set's image goes: the image, and the positions
// of its value.
type imageOf struct{ ls *LabelSet }

func networkPolicySchema() *zod.Schema { return objectOf(false, networkPolicyKeys) }

func networkPolicyKeys(n *NetworkPolicy) keys {
	return keys{
		{"allowlist", strList, optionalKey, &n.Allowlist},
		{"denyAll", zod.Boolean, "false", &n.DenyAll},
		{"hostAccess", func() *zod.Schema { return strList().With(zod.Check{Rule: "hostAccess", Fn: checkHostAccessList}) }, optionalKey, &n.HostAccess},
	}
}

// resourcesSchema is a label set's or the defaults' resources by the
// reading r. By Rules016 it is the nested form {requests, limits} alone,
// each a spec checked cpus first (the engine's resourceSpecSchema), after a
// preprocess that refuses a flat key (refuseFlat). By the older rules it is
// the nested form or the flat one {cpus, memory}, read as the nested form.
func resourcesSchema(r reading) *zod.Schema {
	if r.newest() {
		spec := func() *zod.Schema { return zod.Pipe(objectOf(true, specKeys016), "spec-order", specOrder) }
		nested := func(res *hostconfig.Resources) keys {
			return keys{
				{"requests", spec, optionalKey, &res.Requests},
				{"limits", spec, optionalKey, &res.Limits},
			}
		}
		return zod.Preprocess("no-flat", refuseFlat, objectOf(true, nested))
	}
	return zod.Pipe(zod.Union(objectOf(true, resourcesKeys), specSchema()), "flat", flatResources)
}

func resourcesKeys(r *hostconfig.Resources) keys {
	return keys{
		{"requests", specSchema, optionalKey, &r.Requests},
		{"limits", specSchema, optionalKey, &r.Limits},
	}
}

func specSchema() *zod.Schema { return objectOf(true, specKeys) }

func specKeys(s *hostconfig.ResourceSpec) keys {
	return keys{
		{"memory", zod.Str, optionalKey, &s.Memory},
		{"cpus", cpusSchema, optionalKey, &s.CPUs},
	}
}

// specKeys016 are specKeys in the order of Rules016's spec, the engine's
// resourceSpecSchema: cpus first, so that its issues come first. The
// output is put back in specKeys' order (specOrder), which decoding reads.
func specKeys016(s *hostconfig.ResourceSpec) keys {
	return keys{
		{"cpus", cpusSchema, optionalKey, &s.CPUs},
		{"memory", zod.Str, optionalKey, &s.Memory},
	}
}

func cpusSchema() *zod.Schema { return zod.Num().With(zod.Positive(), zod.AtMost(256)) }

// capSchema is a resource cap's: maxMemory is read as bytes, which the
// cap holds as maxMemoryBytes.
func capSchema() *zod.Schema { return zod.Pipe(objectOf(true, capKeys), "memory", memoryCap) }

func capKeys(c *ResourceCap) keys {
	return keys{
		{"maxCpu", func() *zod.Schema { return zod.Num().With(zod.Positive()) }, optionalKey, &c.MaxCPU},
		{"maxMemory", zod.Str, optionalKey, &c.MaxMemoryBytes},
	}
}

func labelsSchema() *zod.Schema {
	return zod.Pipe(zod.Array(zod.Str()).With(zod.NonEmpty(), zod.Refine(noReserved,
		"Labels with 'kici:' prefix are reserved and cannot be used in scaler labelSets").Named("reserved")), "canonical", canonicalLabels)
}

func mandatoryLabelsSchema() *zod.Schema {
	return zod.Pipe(strList().With(zod.Refine(noReserved,
		"Labels with 'kici:' prefix are reserved and cannot be used in mandatoryLabels").Named("reserved")), "canonical", canonicalLabels)
}

func rolesSchema() *zod.Schema {
	return zod.Pipe(zod.Array(zod.EnumOf(roles())), "roles", normalizeRoles)
}

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

func posInt() *zod.Schema      { return zod.Num().With(zod.IsInt(), zod.Positive()) }
func integer() *zod.Schema     { return zod.Num().With(zod.IsInt()) }
func nonEmptyStr() *zod.Schema { return zod.Str().With(zod.NonEmpty()) }
func strList() *zod.Schema     { return zod.Array(zod.Str()) }
