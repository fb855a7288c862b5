package scalerconfig

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/internal/jsstr"
	"github.com/kicikit/kicikit/internal/memstr"
	"github.com/kicikit/kicikit/internal/yamljs"
	"github.com/kicikit/kicikit/internal/zod"
)

// The refinements and transforms of the orchestrator's schema (config.ts
// at 84ac3cd1ea5b3223661224932f3fdbbc318cb79a for Rules016, b9d436e for
// Rules014, 0b46a9a5a27836be8b5af7a5e0c806592d3b5d6d for Rules012), which
// the tables of schema.go name: what it makes of labels, roles, resources
// and a cap's memory, and the rules across keys that a key's own schema
// cannot state. Their messages are the orchestrator's words.

// canonical is a label as the orchestrator holds it: JavaScript's trim()
// then toLowerCase().
func canonical(label string) string { return jsstr.ToLower(jsstr.Trim(label)) }

// canonicalLabels is the labels' transform: each label canonical, in order,
// duplicates kept.
//
// Its input is the array schema's own output, a new array: the labels are
// replaced in it.
func canonicalLabels(p *zod.Payload) {
	for i, l := range p.Value.Items {
		if c := canonical(l.Str); c != l.Str {
			n := *l
			n.Str = c
			p.Value.Items[i] = p.Out.Node(n)
		}
	}
}

// noReserved reports whether no label starts with "kici:" once lower-cased:
// the raw label, before any trimming.
func noReserved(labels *yamljs.Node) bool {
	for _, l := range labels.Items {
		if reserved(l.Str) {
			return false
		}
	}
	return true
}

// reserved reports whether label, lower-cased, starts with "kici:". The
// full mapping matters: the Kelvin sign lower-cases to k.
func reserved(label string) bool { return strings.HasPrefix(jsstr.ToLower(label), "kici:") }

// normalizeRoles is the roles' transform: a list with "all" is every role
// (undefined, as is no list at all); an empty list none; else the list as
// written. It runs on a list the file gives: the key is optional.
func normalizeRoles(p *zod.Payload) {
	for _, r := range p.Value.Items {
		if r.Str == "all" {
			p.Value = nil
			return
		}
	}
}

// flatResourcesMessage is Rules016's refusal of a resources block with a
// cpus or memory key.
const flatResourcesMessage = "resources takes { requests, limits }: nest cpus and memory under limits (a limit alone also sets the request)"

// refuseFlat is Rules016's preprocess of a resources block: a mapping with
// a cpus or memory key ('cpus' in value: the key, whatever its value) is
// refused, even beside requests or limits. The issue aborts, as one a
// transform adds: the scaler's refinement does not run.
func refuseFlat(p *zod.Payload) {
	v := p.Value
	if v == nil || v.Kind != yamljs.Map {
		return // an array, a Date, a Buffer, a Set or a Map has no such property
	}
	for _, pair := range v.Pairs {
		if pair.Key == "cpus" || pair.Key == "memory" {
			p.AddIssue(&zod.Issue{Code: "custom", Message: flatResourcesMessage, Note: flatNote(v)})
			return
		}
	}
}

// specOrder is the transform of Rules016's resource spec: its output, made
// cpus first, in specKeys' order, which decoding walks.
func specOrder(p *zod.Payload) {
	v := p.Value
	if len(v.Pairs) == 2 {
		out := *v
		out.Pairs = []yamljs.Pair{v.Pairs[1], v.Pairs[0]}
		p.Value = &out
	}
}

// flatResources is the older rules' resources transform: the flat form
// {cpus, memory} is the limits, and the requests too.
func flatResources(p *zod.Payload) {
	v := p.Value
	if zod.Lookup(v, "cpus") == nil && zod.Lookup(v, "memory") == nil {
		return
	}
	copyOf := func() *yamljs.Node {
		c := *v
		c.Pairs = append([]yamljs.Pair(nil), v.Pairs...)
		return &c
	}
	p.Value = &yamljs.Node{Kind: yamljs.Map, Pos: v.Pos, End: v.End, Pairs: []yamljs.Pair{
		{Key: "requests", Value: copyOf()},
		{Key: "limits", Value: copyOf()},
	}}
}

// memoryCap is a resource cap's transform: maxMemory is read as bytes.
func memoryCap(p *zod.Payload) {
	v := p.Value
	out := &yamljs.Node{Kind: yamljs.Map, Pos: v.Pos, End: v.End}
	if c := zod.Lookup(v, "maxCpu"); c != nil {
		out.Pairs = append(out.Pairs, yamljs.Pair{Key: "maxCpu", Value: c})
	}
	if m := zod.Lookup(v, "maxMemory"); m != nil {
		n, err := memoryBytes(m.Str)
		if err != nil {
			// An issue of a transform aborts: nothing after it is checked.
			p.AddIssue(&zod.Issue{Code: "custom", Message: err.Error()}, zod.Key("maxMemory"))
			p.Value = nil
			return
		}
		out.Pairs = append(out.Pairs, yamljs.Pair{Key: "maxMemoryBytes", Value: &yamljs.Node{Kind: yamljs.Number, Num: n, Pos: m.Pos, End: m.End}})
	}
	p.Value = out
}

// memoryBytes reads a resource cap's maxMemory as the orchestrator's
// parseMemoryString does: the grammar of [hostconfig.ParseMemory], in
// float64 arithmetic, floor(parseFloat(number) × unit). Unlike ParseMemory
// it rounds a long fraction first ("1.9999999999999999999k" is 2048 bytes,
// not 2047) and has no upper bound: the bytes may exceed int64, or be +Inf
// for a number too long for a float64.
func memoryBytes(s string) (float64, error) {
	m, fault := memstr.Split(s)
	if fault != memstr.OK {
		return 0, errors.New(`Invalid memory format: "` + s + `". Expected format like "512m", "2g", or "1024k".`)
	}
	v, _ := strconv.ParseFloat(m.Number, 64) // digits[.digits]: only overflow fails, to +Inf as parseFloat
	return math.Floor(v * float64(uint64(1)<<m.Shift)), nil
}

// checkHostAccessList is a network policy's hostAccess refinement: an issue
// for each entry the orchestrator cannot turn into a firewall rule. It runs
// on a list the file gives: the key is optional.
func checkHostAccessList(p *zod.Payload) {
	for i, e := range p.Value.Items {
		if err := checkHostAccess(e.Str); err != nil {
			iss := zod.Custom(err.Error())
			iss.At = i + 1
			p.AddIssue(iss)
		}
	}
}

// checkPools is the top level's refinement: every machinePool a scaler
// names is defined, and no two pools share a name.
func checkPools(p *zod.Payload) {
	pools := zod.Lookup(p.Value, "machinePools")
	names := map[string]bool{}
	if pools != nil {
		for _, pool := range pools.Items {
			names[zod.Lookup(pool, "name").Str] = true
		}
	}
	for i, s := range zod.Lookup(p.Value, "scalers").Items {
		if ref := zod.Lookup(s, "machinePool"); ref != nil && !names[ref.Str] {
			p.AddIssue(zod.Custom(`Scaler "`+zod.Lookup(s, "name").Str+`" references unknown machinePool "`+ref.Str+
				`". Define it under top-level machinePools[].`),
				zod.Key("scalers"), zod.Seg{Index: i}, zod.Key("machinePool"))
		}
	}
	if pools == nil {
		return
	}
	seen := map[string]bool{}
	for i, pool := range pools.Items {
		name := zod.Lookup(pool, "name").Str
		if seen[name] {
			p.AddIssue(zod.Custom(`Duplicate machinePool name "`+name+`".`),
				zod.Key("machinePools"), zod.Seg{Index: i}, zod.Key("name"))
		}
		seen[name] = true
	}
}

// truthy reports whether JavaScript reads an optional string as true: set
// and not empty.
func truthy(n *yamljs.Node) bool { return n != nil && n.Str != "" }

// need is what a rule of a scaler's type asks of a key: what the
// orchestrator's check of it reads as set.
type need uint8

const (
	needTruthy   need = iota + 1 // a string, not empty: !value fails on "" too
	needDefined                  // any value: value === undefined fails
	needNonEmpty                 // a list with at least one item
)

// holds reports whether n, a key's value (nil when the key is left out),
// is set as nd asks.
func (nd need) holds(n *yamljs.Node) bool {
	switch nd {
	case needTruthy:
		return truthy(n)
	case needNonEmpty:
		return n != nil && len(n.Items) > 0
	}
	return n != nil
}

// typeRule is a rule of one scaler type: one of keys (the second may be
// ""), of the scaler or of each of its label sets, must be set; the issue
// is at the first key, with the orchestrator's message for the scaler
// name, the label set i and that key.
type typeRule struct {
	scalerType ScalerType
	labelSet   bool
	keys       [2]string
	need       need
	message    func(name string, i int, key string) string
}

// typeRules are the rules of the scaler types, in the order the
// orchestrator checks them: the event's, the container's and the
// bare-metal's before the gates, the firecracker's after (its scaler's
// keys, then, after its extraHosts, its label sets'). An array of plain
// values, so that making it allocates nothing.
func typeRules() [9]typeRule {
	return [9]typeRule{
		{TypeEvent, false, [2]string{"provisioningTargets"}, needNonEmpty, eventMessage},
		{TypeContainer, true, [2]string{"image"}, needTruthy, containerMessage},
		{TypeBareMetal, true, [2]string{"binaryPath", "image"}, needTruthy, bareMetalMessage},
		{TypeFirecracker, false, [2]string{"firecrackerPath"}, needTruthy, firecrackerMessage},
		{TypeFirecracker, false, [2]string{"jailerPath"}, needTruthy, firecrackerMessage},
		{TypeFirecracker, false, [2]string{"kernelPath"}, needTruthy, firecrackerMessage},
		{TypeFirecracker, false, [2]string{"uid"}, needDefined, firecrackerMessage},
		{TypeFirecracker, false, [2]string{"gid"}, needDefined, firecrackerMessage},
		{TypeFirecracker, true, [2]string{"rootfsPath"}, needTruthy, firecrackerMessage},
	}
}

// The messages of the type rules.

func eventMessage(name string, _ int, _ string) string {
	return `Event scaler "` + name + `" requires a non-empty 'provisioningTargets' array (workflow refs the scale-up/scale-down events are delivered to)`
}

func containerMessage(name string, i int, _ string) string {
	return `Container scaler "` + name + `" label set [` + strconv.Itoa(i) + `] requires an 'image' field`
}

func bareMetalMessage(name string, i int, _ string) string {
	return `Bare-metal scaler "` + name + `" label set [` + strconv.Itoa(i) + `] requires a 'binaryPath' (spawn a local agent process) or an 'image' (run the job's own container image as the agent, with the KiCI runtime injected)`
}

func firecrackerMessage(name string, i int, key string) string {
	if i >= 0 {
		return `Firecracker scaler "` + name + `" label set [` + strconv.Itoa(i) + `] requires a '` + key + `' field`
	}
	return `Firecracker scaler "` + name + `" requires a '` + key + `' field`
}

// checkScaler is a scaler's refinement by the reading r, in the
// orchestrator's order: the rules of its type (a bare-metal label set's
// batch-file binaryPath after its own binaryPath rule), Rules016's plain
// platform labels, every label set's gate reachable, then the firecracker
// rules.
func checkScaler(p *zod.Payload, r reading, hostPatterns func() *patterns) {
	s := p.Value
	name := zod.Lookup(s, "name").Str
	sets := zod.Lookup(s, "labelSets").Items
	typ := ScalerType(zod.Lookup(s, "type").Str)
	rules := typeRules()
	if typ != TypeFirecracker {
		requireKeys(p, rules[:], typ, name, nil, nil)
		var batch func(int, *yamljs.Node)
		if typ == TypeBareMetal && r.batchRule() {
			batch = func(i int, ls *yamljs.Node) { checkBatchPath(p, name, i, ls) }
		}
		requireKeys(p, rules[:], typ, name, sets, batch)
	}
	if r.newest() && zod.Lookup(s, "platform") == nil {
		checkPlatformLabels(p, name, typ, sets)
	}
	checkGates(p, r, name, sets)
	if typ == TypeFirecracker {
		requireKeys(p, rules[:], typ, name, nil, nil)
		checkExtraHosts(p, name, hostPatterns)
		requireKeys(p, rules[:], typ, name, sets, nil)
	}
}

// requireKeys adds an issue for each rule of the scaler type typ that does
// not hold: the scaler's rules when sets is nil, else the label sets',
// each set in turn, then, when after is not nil, after's of that set.
func requireKeys(p *zod.Payload, rules []typeRule, typ ScalerType, name string, sets []*yamljs.Node, after func(int, *yamljs.Node)) {
	for _, r := range rules {
		if r.scalerType == typ && !r.labelSet && sets == nil && !r.holds(p.Value) {
			p.AddIssue(zod.Custom(r.message(name, -1, r.keys[0])), zod.Key(r.keys[0]))
		}
	}
	for i, ls := range sets {
		for _, r := range rules {
			if r.scalerType == typ && r.labelSet && !r.holds(ls) {
				p.AddIssue(zod.Custom(r.message(name, i, r.keys[0])), zod.Key("labelSets"), zod.Seg{Index: i}, zod.Key(r.keys[0]))
			}
		}
		if after != nil {
			after(i, ls)
		}
	}
}

// checkBatchPath adds the issue of a bare-metal label set i whose
// binaryPath is a batch file cmd.exe would read as syntax, on a Windows
// host (Rules014 and Rules016).
func checkBatchPath(p *zod.Payload, name string, i int, ls *yamljs.Node) {
	bp := zod.Lookup(ls, "binaryPath")
	if !truthy(bp) {
		return
	}
	if refusal := batchRefusal(bp.Str); refusal != "" {
		p.AddIssue(zod.Custom(`Bare-metal scaler "`+name+`" label set [`+strconv.Itoa(i)+`]: `+refusal),
			zod.Key("labelSets"), zod.Seg{Index: i}, zod.Key("binaryPath"))
	}
}

// batchRefusal is why a Windows host cannot run path, a bare-metal agent,
// through cmd.exe, or "" (agentLaunchRefusal of bare-metal-launch.ts and
// cmdSafetyRefusal of windows-batch.ts, at b9d436e). Only a .cmd or .bat
// file (the suffix in any case) runs through cmd.exe. A path with a space
// or a tab is quoted on cmd.exe's command line: then ", % and ^ are read
// as syntax; else also & | < > ( ) , ; =. The refusal names the first.
func batchRefusal(path string) string {
	if len(path) < 4 || !strings.EqualFold(path[len(path)-4:], ".cmd") && !strings.EqualFold(path[len(path)-4:], ".bat") {
		return ""
	}
	syntax := `"%^&|<>(),;=`
	if strings.ContainsAny(path, " \t") {
		syntax = `"%^`
	}
	i := strings.IndexAny(path, syntax)
	if i < 0 {
		return ""
	}
	return `cannot run "` + path + `" as a bare-metal agent: it contains "` + path[i:i+1] +
		`", which cmd.exe reads as syntax when it runs the batch file. Move the agent to a path without it.`
}

// checkPlatformLabels adds Rules016's issue for each label of a label set
// that names a platform, in a scaler without platform: one for each such
// label, in order, at the label (Issue.At) of the set's labels. Each
// carries the scaler's platformNote.
func checkPlatformLabels(p *zod.Payload, name string, typ ScalerType, sets []*yamljs.Node) {
	var note *problemNote
	for i, ls := range sets {
		labels := zod.Lookup(ls, "labels")
		if labels == nil {
			continue // a set read by groups without them: it has no such label (bigScaler.checked)
		}
		for j, l := range labels.Items {
			if IsPlatformLabel(jsstr.ToLower(l.Str)) {
				iss := zod.Custom(`Scaler "` + name + `" labelSets[` + strconv.Itoa(i) + `]: label "` + l.Str +
					`" names a platform; declare platform: { os, arch } instead`)
				iss.At = j + 1
				if note == nil {
					note = platformNote(p.Value, typ)
				}
				iss.Note = note
				p.AddIssue(iss, zod.Key("labelSets"), zod.Seg{Index: i}, zod.Key("labels"))
			}
		}
	}
}

// holds reports whether the rule holds for the object n: one of its keys
// set.
func (r typeRule) holds(n *yamljs.Node) bool {
	for _, k := range r.keys {
		if k != "" && r.need.holds(zod.Lookup(n, k)) {
			return true
		}
	}
	return false
}

// checkGates adds an issue for each label of a label set's gate that a
// job cannot request on that label set. The gate is the mandatory labels
// and the platform's taints, and by the older rules the taints of the
// set's own labels too.
func checkGates(p *zod.Payload, r reading, name string, sets []*yamljs.Node) {
	var structured []string
	if pl := zod.Lookup(p.Value, "platform"); pl != nil {
		structured = Platform{OS: zod.Lookup(pl, "os").Str, Arch: zod.Lookup(pl, "arch").Str}.Taints(nil)
	}
	var mandatory []string
	for _, l := range zod.Lookup(p.Value, "mandatoryLabels").Items {
		mandatory = append(mandatory, jsstr.ToLower(l.Str))
	}
	if len(mandatory) == 0 {
		// The platform's taints are injected into every label set, and a
		// label set's own taints come from its labels: only a mandatory
		// label can be out of reach.
		return
	}
	for i, ls := range sets {
		gate, reach := gateOf(r, mandatory, structured, zod.Lookup(ls, "labels").Items)
		for _, g := range gate {
			if !reach[g] {
				p.AddIssue(zod.Custom(`Scaler "`+name+`" gate label "`+g+`" is missing from labelSets[`+strconv.Itoa(i)+
					`].labels — every label in a label set's gate must be requestable on that label set, otherwise no job can route to it`),
					zod.Key("labelSets"), zod.Seg{Index: i}, zod.Key("labels"))
			}
		}
	}
}

// gateOf returns a label set's gate by the reading r, in order without
// duplicates, and the labels a job can request on it: its own and the
// platform's.
func gateOf(r reading, mandatory, structured []string, labels []*yamljs.Node) ([]string, map[string]bool) {
	reach := map[string]bool{}
	var gate []string
	add := func(l string) {
		if !slices.Contains(gate, l) {
			gate = append(gate, l)
		}
	}
	for _, l := range labels {
		reach[jsstr.ToLower(l.Str)] = true
	}
	for _, l := range mandatory {
		add(l)
	}
	for _, l := range structured {
		add(l)
		reach[l] = true
	}
	if r.newest() {
		return gate, reach
	}
	for _, l := range labels {
		if lower := jsstr.ToLower(l.Str); IsPlatformLabel(lower) {
			add(lower)
		}
	}
	return gate, reach
}

// IsPlatformLabel reports whether a plain label, lower-cased, names a
// platform: windows, win32, macos, darwin, arm64, aarch64 or arm.
//
// By [Rules016] (config.ts at 84ac3cd, PLAIN_PLATFORM_LABELS) a scaler
// without platform may not hold one in a label set: the load refuses it.
// By the older rules ([Rules012], [Rules014]) such a label taints the label
// set that carries it: a job must request it to run there. They are
// 0b46a9a's PLATFORM_TAINT_LABELS, which its scaler manager applied to
// every label set.
func IsPlatformLabel(label string) bool {
	switch label {
	case "windows", "win32", "macos", "darwin", "arm64", "aarch64", "arm":
		return true
	}
	return false
}

// IsPlatformTaint is [IsPlatformLabel], by its name of [Rules012]: a
// plain platform label taints its label set there.
//
// Deprecated: Use IsPlatformLabel. From 0.16.0 on, no plain label taints
// a label set; only a scaler's platform does.
func IsPlatformTaint(label string) bool { return IsPlatformLabel(label) }

// Taints appends to dst the labels a declared platform taints its pool
// with, as the orchestrator's platformToTaints does. They are its os when
// macos or windows, then arm64 when that is its arch. Linux on x64 has
// none.
func (p Platform) Taints(dst []string) []string {
	switch p.OS {
	case "macos", "windows":
		dst = append(dst, p.OS)
	}
	if p.Arch == "arm64" {
		dst = append(dst, "arm64")
	}
	return dst
}

// checkExtraHosts adds the issues of a firecracker scaler's extraHosts
// entries.
func checkExtraHosts(p *zod.Payload, name string, hostPatterns func() *patterns) {
	hosts := zod.Lookup(p.Value, "extraHosts")
	if hosts == nil {
		return
	}
	for i, e := range hosts.Items {
		if err := hostPatterns().checkExtraHost(e.Str); err != nil {
			p.AddIssue(zod.Custom(`Firecracker scaler "`+name+`" extraHosts[`+strconv.Itoa(i)+`]: `+err.Error()),
				zod.Key("extraHosts"), zod.Seg{Index: i})
		}
	}
}
