package scalerconfig

import (
	"github.com/kicikit/kicikit/internal/yamljs"
	"github.com/kicikit/kicikit/internal/zod"
)

// A scaler can be most of a config: one with 600,000 label sets is 45 MB of
// text, one item of the scalers list, whose tree alone takes gigabytes. An
// item longer than 32 groups (1 MiB) whose labelSets key holds a block
// list is read by groups of label sets: the scaler without its label sets
// (yamljs.SplitNestedItems, then ParseRangeWithout), and the label sets a
// group at a time, each validated as labelSets' array validates it, on its
// own, and decoded at once. The scaler's schema is the scaler's own with
// labelSets read so (bigScaler.list): what the scaler's refinement
// (checkScaler) reads of each label set is all the list holds: whether its
// image, binaryPath and rootfsPath are set, its labels when the scaler has
// mandatory labels or when a label names a platform that Rules016 refuses,
// and a binaryPath a Windows host refuses. As for the scalers list, any
// YAML error or issue leaves the reading to the whole config's.

// bigScaler reads the label sets of one scaler at a time.
type bigScaler struct {
	b      *byItem
	schema *zod.Schema // the scaler's, with labelSets read by groups
	set    *zod.Schema // a label set's
	file   splitFile
	sets   yamljs.Items                    // the scaler's label sets
	labels bool                            // the scaler has mandatory labels: its gates read each set's labels
	plain  bool                            // Rules016, and the scaler has no platform: a plain platform label is refused
	read   []LabelSet                      // the scaler's label sets, decoded
	failed bool                            // a label set had an issue or a YAML error
	out    zod.Outputs                     // a label set's output
	r      zod.Payload                     // a label set's
	shared [1 << checkedCount]*yamljs.Node // checked's lists without labels
}

// bigItem reads the one item of group g of file f, a long one, by groups
// of label sets when it can: read is false when it cannot, and the item is
// read as any other; ok is false at a YAML error or an issue.
func (b *byItem) bigItem(f splitFile, g itemGroup, first bool) (read, ok bool) {
	sets, split := yamljs.SplitNestedItems(f.src, g.from, g.end, "labelSets")
	if !split {
		return false, false
	}
	rest, err := yamljs.ParseRangeWithout(f.src, g.from, g.end, sets.Start, sets.End)
	if err != nil || rest.Kind != yamljs.Seq || len(rest.Items) != 1 {
		return true, false
	}
	if first {
		b.list.Pos = rest.Pos // the list's own position, as the whole file's tree has it
	}
	if b.big == nil {
		b.big = &bigScaler{b: b, set: labelSetsSchema(b.m.read).Inner}
		b.big.schema = b.maker(b.big.keys)
	}
	big := b.big
	big.file, big.sets, big.read, big.failed = f, sets, make([]LabelSet, 0, len(sets.Items)), false
	big.labels = hasItems(lookupMap(rest.Items[0], "mandatoryLabels"))
	big.plain = b.m.read.newest() && lookupMap(rest.Items[0], "platform") == nil
	b.out.Reset()
	b.r = zod.Payload{Value: rest.Items[0], Issues: b.r.Issues[:0], Out: &b.out, Limit: 1}
	start := len(b.m.places) // the label sets' places are recorded as they are decoded
	big.schema.Run(&b.r)
	if big.failed || len(b.r.Issues) > 0 {
		b.m.places = b.m.places[:start]
		return true, false
	}
	for i, p := range b.r.Value.Pairs {
		if p.Key == "labelSets" {
			// Decoded already: the scaler's decoding reads an empty list,
			// where the file writes the list.
			b.r.Value.Pairs[i].Value = &yamljs.Node{Kind: yamljs.Seq, Pos: p.Value.Pos, Items: []*yamljs.Node{}}
		}
	}
	s := b.m.scalerWith(b.r.Value, f.name, start, big.read)
	b.m.take(s)
	b.list.Items = append(b.list.Items, scalerRefs(b.r.Value))
	return true, true
}

// hasItems reports whether n is a list with items.
func hasItems(n *yamljs.Node) bool { return n != nil && n.Kind == yamljs.Seq && len(n.Items) > 0 }

// keys are the scaler's keys, its labelSets read by list.
func (big *bigScaler) keys(s *Scaler) keys {
	ks := scalerKeys(s)
	for i := range ks {
		if ks[i].name == "labelSets" {
			ks[i].schema = big.list
		}
	}
	return ks
}

// list is the labelSets schema of a scaler read by groups of label sets:
// it ignores the value it is given (the list's lines were cut), reads the
// scaler's label sets, and gives a list of what the scaler's refinement
// reads of them.
func (big *bigScaler) list() *zod.Schema {
	return &zod.Schema{Kind: "array", Parse: func(p *zod.Payload) {
		p.Value = big.readSets()
		if big.failed {
			// Never reported: it stops the checks, which read the list.
			p.AddIssue(&zod.Issue{Code: "custom", Cont: zod.ContFalse, Message: "read the whole file"})
		}
	}}
}

// readSets reads the scaler's label sets a group at a time, validating and
// decoding each, and returns the list the scaler's refinement reads.
func (big *bigScaler) readSets() *yamljs.Node {
	list := &yamljs.Node{Kind: yamljs.Seq, Pos: big.sets.Start, Items: make([]*yamljs.Node, 0, len(big.sets.Items))}
	ok := readGroups(&big.b.parts, big.file.src, big.sets, big.b.m.group, nil, func(g itemGroup, seq *yamljs.Node) bool {
		if g.from == big.sets.Start {
			list.Pos = seq.Pos // the list's own position, as the whole file's tree has it
		}
		for _, item := range seq.Items {
			big.out.Reset()
			big.r = zod.Payload{Value: item, Issues: big.r.Issues[:0], Out: &big.out, Limit: 1}
			big.set.Run(&big.r)
			if len(big.r.Issues) > 0 {
				return false
			}
			// decodeList's reading of one label set, its places owned by
			// its index.
			d := decoder{m: big.b.m, file: big.file.name, owner: int32(len(big.read))}
			ls := LabelSet{Pos: d.pos(item.Pos)}
			ks := labelSetKeys(&ls)
			d.object(big.r.Value, &ks)
			big.read = append(big.read, ls)
			list.Items = append(list.Items, big.checked(big.r.Value))
		}
		return true
	})
	big.failed = !ok
	return list
}

// checked is what the scaler's refinement reads of a label set's output:
// whether its image, binaryPath and rootfsPath are set (non-empty strings);
// its labels, copied, when the scaler has mandatory labels or one of them
// names a platform the rules refuse here (big.plain); and a binaryPath a
// Windows host refuses, copied. Without those it is one of the eight lists
// of the keys set, made once.
func (big *bigScaler) checked(ls *yamljs.Node) *yamljs.Node {
	var set int
	var labels, batch *yamljs.Node
	for _, p := range ls.Pairs {
		if k := checkedKey(p.Key); k >= 0 && truthy(p.Value) {
			set |= 1 << k
			if p.Key == "binaryPath" && big.b.m.read.batchRule() && batchRefusal(p.Value.Str) != "" {
				batch = &yamljs.Node{Kind: yamljs.String, Str: p.Value.Str}
			}
		} else if p.Key == "labels" && (big.labels || big.plain && anyPlatformLabel(p.Value)) {
			labels = &yamljs.Node{Kind: yamljs.Seq, Items: make([]*yamljs.Node, len(p.Value.Items))}
			for i, l := range p.Value.Items {
				labels.Items[i] = &yamljs.Node{Kind: yamljs.String, Str: l.Str}
			}
		}
	}
	if labels == nil && batch == nil && big.shared[set] != nil {
		return big.shared[set]
	}
	n := &yamljs.Node{Kind: yamljs.Map}
	for k, key := range checkedKeys() {
		if set&(1<<k) != 0 {
			v := &yamljs.Node{Kind: yamljs.String, Str: "set"}
			if key == "binaryPath" && batch != nil {
				v = batch
			}
			n.Pairs = append(n.Pairs, yamljs.Pair{Key: key, Value: v})
		}
	}
	if labels != nil {
		n.Pairs = append(n.Pairs, yamljs.Pair{Key: "labels", Value: labels})
	}
	if labels == nil && batch == nil {
		big.shared[set] = n
	}
	return n
}

// anyPlatformLabel reports whether a label of the canonical labels names
// a platform.
func anyPlatformLabel(labels *yamljs.Node) bool {
	for _, l := range labels.Items {
		if IsPlatformLabel(l.Str) {
			return true
		}
	}
	return false
}

// checkedKeys are the keys of a label set whose being set the scaler's
// refinement reads.
func checkedKeys() [checkedCount]string { return [...]string{"image", "binaryPath", "rootfsPath"} }

const checkedCount = 3

// checkedKey is the index of key in checkedKeys, -1 for none.
func checkedKey(key string) int {
	for k, c := range checkedKeys() {
		if key == c {
			return k
		}
	}
	return -1
}
