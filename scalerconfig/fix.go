package scalerconfig

import (
	"bytes"
	"errors"
	"slices"
	"strconv"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// Fixes: the edits that make a config that a release before 0.16.0 loads
// one that 0.16.0 (config.ts at 84ac3cd) loads, where the file leaves no
// choice. A Problem of a load by Rules016 carries its Fix when it has one;
// ApplyFixes makes them in a file's bytes and changes nothing else.

// Fix is an edit of a config file that 0.16.0's rules ask for and the file
// leaves no choice about. [Problem].Fix holds a problem's, and
// [ApplyFixes] makes it. There are two:
//
//   - Platform nil: the flat resources block at Pos, a mapping of cpus and
//     memory alone, is nested under limits: resources: {cpus: 2, memory:
//     4g} becomes resources: {limits: {cpus: 2, memory: 4g}}. A limit alone
//     also sets the request, so the agents get what the older releases
//     gave them.
//   - Platform set: the scaler at Pos, which declares no platform, gets
//     platform: {os, arch}, the one platform each of its label sets names
//     (its plain platform labels, with linux and x64 or amd64, and linux
//     for a container or firecracker scaler). Its label sets keep their
//     labels.
type Fix struct {
	// Pos is where the value the fix changes starts, in the file that
	// declares it: the resources block's mapping, or the scaler's. Only
	// its Line and Column are read.
	Pos Pos
	// Platform is the platform to declare on the scaler at Pos; nil: nest
	// the resources block at Pos under limits.
	Platform *Platform
}

// FixError is a fix [ApplyFixes] refuses, and why.
type FixError struct {
	Fix Fix   // the fix refused
	Err error // a [Reason], or the YAML reader's error
}

// Error returns "scalerconfig.ApplyFixes: at LINE:COLUMN: <why>".
func (e *FixError) Error() string {
	return "scalerconfig.ApplyFixes: at " + strconv.Itoa(e.Fix.Pos.Line) + ":" + strconv.Itoa(e.Fix.Pos.Column) + ": " + e.Err.Error()
}

// Unwrap returns e.Err, for errors.Is.
func (e *FixError) Unwrap() error { return e.Err }

// ApplyFixes returns src, a config file's bytes, with the fixes made, and
// the replacements made, in file order. Every other byte stays as it is:
// comments, key order, quotes, line ends.
//
//   - A flow block {cpus: 2} becomes {limits: {cpus: 2}}. A block mapping
//     gets a line "limits:" where its first entry was, and its lines are
//     indented two spaces more.
//   - A block scaler gets a line "platform: {os: macos, arch: arm64}" above
//     its labelSets key (or above another key on a line of its own), at
//     that key's indentation; a flow scaler gets the entry before its
//     labelSets.
//
// It makes all the fixes or none. It refuses a fix whose position starts
// no such value ([ErrNoFix]: no flat resources block of a label set or the
// defaults, or no scaler without platform), a value reached through a YAML
// alias ([ErrFixAliased]), and the fixes when the edited bytes would read
// as more than the fixes ([ErrFixChanged]). On refusal, the error joins a [*FixError] for
// each fix refused. A fix given twice counts once.
func ApplyFixes(src []byte, fixes []Fix) ([]byte, []Replacement, error) {
	if len(fixes) == 0 {
		return src, nil, nil
	}
	root, err := yamljs.Parse(src)
	if err != nil {
		return nil, nil, &FixError{Fix: fixes[0], Err: err}
	}
	shared := &tree{at: map[int]*yamljs.Node{}, seen: map[*yamljs.Node]bool{}, shared: map[*yamljs.Node]bool{}}
	shared.visit(root)
	plan := fixPlan{src: src, targets: fixTargets(root), shared: shared.shared, done: map[*yamljs.Node]*Platform{}}
	reps, err := plan.make(fixes)
	if err != nil {
		return nil, nil, err
	}
	out := apply(src, reps)
	if err := verifyFixes(root, out, plan.done); err != nil {
		return nil, nil, &FixError{Fix: fixes[0], Err: err}
	}
	return out, reps, nil
}

// fixTarget is a value a fix may change: a resources block, or a scaler.
type fixTarget struct {
	node   *yamljs.Node
	scaler bool
}

// fixTargets are the resources blocks of the file (the defaults', each
// label set's) and its scalers, by the line and column they start at.
func fixTargets(root *yamljs.Node) map[[2]int32]fixTarget {
	out := map[[2]int32]fixTarget{}
	add := func(n *yamljs.Node, scaler bool) {
		if n != nil && n.Kind == yamljs.Map {
			out[[2]int32{n.Pos.Line, n.Pos.Column}] = fixTarget{n, scaler}
		}
	}
	if defaults := lookupMap(root, "defaults"); defaults != nil {
		add(lookupMap(defaults, "resources"), false)
	}
	scalers := lookupMap(root, "scalers")
	if scalers == nil || scalers.Kind != yamljs.Seq {
		return out
	}
	for _, s := range scalers.Items {
		add(s, true)
		if sets := lookupMap(s, "labelSets"); sets != nil && sets.Kind == yamljs.Seq {
			for _, ls := range sets.Items {
				add(lookupMap(ls, "resources"), false)
			}
		}
	}
	return out
}

// fixPlan is what ApplyFixes knows of the file: its bytes, the values a
// fix may change, the nodes reached twice, and the fixes planned so far
// (done: a nested block's node has a nil platform).
type fixPlan struct {
	src     []byte
	targets map[[2]int32]fixTarget
	shared  map[*yamljs.Node]bool
	done    map[*yamljs.Node]*Platform
}

// make plans each fix and returns the replacements in file order, or
// every fix it refuses.
func (f *fixPlan) make(fixes []Fix) ([]Replacement, error) {
	var reps []Replacement
	var refused []error
	for _, fx := range fixes {
		t, ok := f.targets[[2]int32{int32(fx.Pos.Line), int32(fx.Pos.Column)}]
		if p, seen := f.done[t.node]; ok && seen && (p == nil) == (fx.Platform == nil) && (p == nil || *p == *fx.Platform) {
			continue // given twice
		}
		r, err := f.replacement(t, fx, ok)
		if err != nil {
			refused = append(refused, &FixError{Fix: fx, Err: err})
			continue
		}
		f.done[t.node] = fx.Platform
		r.Pos.File, r.End.File = fx.Pos.File, fx.Pos.File
		reps = append(reps, r)
	}
	if refused != nil {
		return nil, errors.Join(refused...)
	}
	slices.SortFunc(reps, func(a, b Replacement) int { return a.Pos.Offset - b.Pos.Offset })
	return reps, nil
}

// replacement is the replacement that makes fx on the target t (found:
// one starts at fx.Pos), or why fx cannot be made there.
func (f *fixPlan) replacement(t fixTarget, fx Fix, found bool) (Replacement, error) {
	if !found || t.scaler != (fx.Platform != nil) || f.hasDone(t.node) {
		return Replacement{}, ErrNoFix
	}
	if f.shared[t.node] {
		return Replacement{}, ErrFixAliased
	}
	rep, ok := Replacement{}, false
	if t.scaler {
		rep, ok = f.declare(t.node, *fx.Platform)
	} else {
		rep, ok = f.nest(t.node)
	}
	if !ok {
		return Replacement{}, ErrNoFix
	}
	return rep, nil
}

// hasDone reports whether a fix is planned for n already.
func (f *fixPlan) hasDone(n *yamljs.Node) bool {
	_, ok := f.done[n]
	return ok
}

// nest is the replacement that nests the flat resources block n under
// limits, or false when n is no mapping of cpus and memory alone.
func (f *fixPlan) nest(n *yamljs.Node) (Replacement, bool) {
	if len(n.Pairs) == 0 {
		return Replacement{}, false
	}
	for _, p := range n.Pairs {
		if p.Key != "cpus" && p.Key != "memory" {
			return Replacement{}, false
		}
	}
	start, end := int(n.Pos.Offset), int(n.End.Offset)
	text := f.src[start:end]
	if text[0] == '{' {
		return f.replace(start, end, "{limits: "+string(text)+"}"), true
	}
	end = start + len(bytes.TrimRight(text, "\r\n")) // the line break after the block stays
	indent, ok := lineIndent(f.src, start)
	if !ok {
		return Replacement{}, false
	}
	return f.replace(start, end, "limits:"+lineEnd(f.src, start)+indent+"  "+indented(f.src[start:end])), true
}

// indented is text with each of its lines but the first indented two
// spaces more; an empty line stays empty.
func indented(text []byte) string {
	lines := bytes.SplitAfter(text, []byte("\n"))
	var b bytes.Buffer
	b.Write(lines[0])
	for _, l := range lines[1:] {
		if len(bytes.TrimRight(l, "\r\n")) > 0 {
			b.WriteString("  ")
		}
		b.Write(l)
	}
	return b.String()
}

// declare is the replacement that declares the platform p on the scaler
// n, or false when n has one, or no key to put it before.
func (f *fixPlan) declare(n *yamljs.Node, p Platform) (Replacement, bool) {
	entry := "platform: {os: " + p.OS + ", arch: " + p.Arch + "}"
	if lookupMap(n, "platform") != nil || p.OS == "" || p.Arch == "" {
		return Replacement{}, false
	}
	pairs := slices.Clone(n.Pairs)
	slices.SortStableFunc(pairs, func(a, b yamljs.Pair) int { return boolInt(b.Key == "labelSets") - boolInt(a.Key == "labelSets") })
	for _, pair := range pairs {
		at := int(pair.KeyPos.Offset)
		if f.src[n.Pos.Offset] == '{' {
			return f.replace(at, at, entry+", "), true
		}
		if indent, ok := lineIndent(f.src, at); ok {
			start := at - len(indent)
			return f.replace(start, start, indent+entry+lineEnd(f.src, at)), true
		}
	}
	return Replacement{}, false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// replace is the replacement of src[start:end] by text, its positions
// those of the file.
func (f *fixPlan) replace(start, end int, text string) Replacement {
	return Replacement{Pos: posAt(f.src, start), End: posAt(f.src, end), Text: text}
}

// posAt is the position of the byte at offset of src.
func posAt(src []byte, offset int) Pos {
	line := 1 + bytes.Count(src[:offset], []byte("\n"))
	return Pos{Line: line, Column: offset - bytes.LastIndexByte(src[:offset], '\n'), Offset: offset}
}

// lineIndent is the text of src's line before offset, and whether it is
// spaces alone.
func lineIndent(src []byte, offset int) (string, bool) {
	start := bytes.LastIndexByte(src[:offset], '\n') + 1
	indent := src[start:offset]
	return string(indent), len(bytes.Trim(indent, " ")) == 0
}

// lineEnd is the line break of the line holding offset: "\r\n" or "\n".
func lineEnd(src []byte, offset int) string {
	if i := bytes.IndexByte(src[offset:], '\n'); i > 0 && src[offset+i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// verifyFixes reads the edited bytes back and checks that they hold the
// old values but for the fixes: each nested block under a limits key of
// its own, each scaler with its platform.
func verifyFixes(old *yamljs.Node, edited []byte, done map[*yamljs.Node]*Platform) error {
	root, err := yamljs.Parse(edited)
	if err != nil {
		return errors.Join(ErrFixChanged, err)
	}
	c := fixComparison{done: done, seen: map[*yamljs.Node]*yamljs.Node{}}
	if !c.same(old, root) {
		return ErrFixChanged
	}
	return nil
}

// fixComparison compares a file's tree with its tree once fixed: seen
// holds the fixed file's node each of the old file's was compared with.
type fixComparison struct {
	done map[*yamljs.Node]*Platform
	seen map[*yamljs.Node]*yamljs.Node
}

// same reports whether b, of the fixed file, is a, of the old one, with
// the fixes made.
func (c fixComparison) same(a, b *yamljs.Node) bool {
	p, fixed := c.done[a]
	switch {
	case fixed && p == nil:
		delete(c.done, a) // compared once, as the block it now is
		return b.Kind == yamljs.Map && len(b.Pairs) == 1 && b.Pairs[0].Key == "limits" && c.same(a, b.Pairs[0].Value)
	case fixed:
		delete(c.done, a)
		return c.samePairs(a, b, p)
	case c.seen[a] != nil:
		return c.seen[a] == b // an alias: an alias of the same node in the fixed file
	}
	c.seen[a] = b
	if a.Kind != b.Kind || a.Bool != b.Bool || a.Str != b.Str || !sameNumber(a.Num, b.Num) || len(a.Items) != len(b.Items) {
		return false
	}
	for i := range a.Items {
		if !c.same(a.Items[i], b.Items[i]) {
			return false
		}
	}
	return c.samePairs(a, b, nil)
}

// samePairs reports whether b's entries are a's, in order, with an entry
// platform: p added when p is not nil.
func (c fixComparison) samePairs(a, b *yamljs.Node, p *Platform) bool {
	pairs := b.Pairs
	if p != nil {
		i := slices.IndexFunc(pairs, func(q yamljs.Pair) bool { return q.Key == "platform" })
		if i < 0 || !c.isPlatform(pairs[i].Value, *p) {
			return false
		}
		pairs = slices.Delete(slices.Clone(pairs), i, i+1)
	}
	if len(a.Pairs) != len(pairs) || a.Kind != b.Kind {
		return false
	}
	for i, q := range a.Pairs {
		r := pairs[i]
		if q.Key != r.Key || (q.KeyNode == nil) != (r.KeyNode == nil) ||
			q.KeyNode != nil && !c.same(q.KeyNode, r.KeyNode) || !c.same(q.Value, r.Value) {
			return false
		}
	}
	return true
}

// isPlatform reports whether n is the mapping {os: p.OS, arch: p.Arch}.
func (c fixComparison) isPlatform(n *yamljs.Node, p Platform) bool {
	return n.Kind == yamljs.Map && len(n.Pairs) == 2 && n.Pairs[0].Key == "os" && n.Pairs[0].Value.Str == p.OS &&
		n.Pairs[1].Key == "arch" && n.Pairs[1].Value.Str == p.Arch
}
