package scalerconfig

import (
	"iter"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// loadByItem is Load of a main file without drop-ins that reads, validates
// and decodes one scaler at a time, so that the syntax trees of the whole
// file never exist at once: what it holds beside the bytes is the Config
// it returns.
//
// It reads only a file in the plain form of [yamljs.SplitItems] with its
// scalers list split into items, and only a config the orchestrator
// accepts: ok is false, and the file must be read whole, at any YAML error
// in a part (the whole file's error may be another), at any issue of the
// schema (the issues of the whole file come in the schema's order, not the
// file's), and for a file in another form.
//
// Each item is validated as the scalers list's schema validates it, on its
// own (zod's array runs its element on each item with a payload of its
// own), and the top level with a stand-in for the list that gives the
// top-level check what it reads of each scaler, its name and machinePool.
// TestLoadByItem holds the result to the whole file's, field by field.
//
// With each, each scaler goes to each as soon as it is valid, rather than
// into the Config; handed is how many went, also when ok is false.
func loadByItem(name string, src []byte, each func(int, *Scaler)) (cfg *Config, handed int, ok bool) {
	items, ok := yamljs.SplitItems(src, "scalers")
	if !ok {
		return nil, 0, false
	}
	root, err := yamljs.ParseWithout(src, items.Start, items.End)
	if err != nil {
		return nil, 0, false
	}
	m := &merged{main: name, root: root, byItem: true, each: each}
	if each == nil {
		m.scalers = make([]Scaler, 0, len(items.Items))
	}
	failed := false
	list := func(scaler *schema) *schema {
		return &schema{parse: func(p *payload) {
			p.value, failed = m.scalersByItem(src, items, scaler)
			if failed {
				// Never reported: it stops the checks, which read the list.
				p.addIssue(&issue{code: "custom", cont: contFalse, message: "read the whole file"})
			}
		}}
	}
	p := payload{value: root}
	configSchemaWith(list).run(&p)
	if failed || len(p.issues) > 0 {
		return nil, m.handed, false
	}
	return m.config(p.value), m.handed, true
}

// groupBytes is about how much of the scalers list scalersByItem and
// EditImages parse at once: enough items that parsing costs what it costs
// for the whole file, few enough that their syntax trees stay small.
const groupBytes = 32 << 10

// itemGroup is a run of consecutive items of a [yamljs.Items]: its text
// is src[from.Offset:end], and it holds items items.
type itemGroup struct {
	from  yamljs.Pos
	end   int
	items int
}

// itemGroups yields the items in groups of consecutive items, in order, each
// group as many items as start within size bytes of its first one (at
// least one), so that each group's text is about size bytes long unless
// one item is longer.
func itemGroups(items yamljs.Items, size int) iter.Seq[itemGroup] {
	return func(yield func(itemGroup) bool) {
		for i := 0; i < len(items.Items); {
			j := i + 1
			for j < len(items.Items) && items.Items[j].Offset-items.Items[i].Offset < size {
				j++
			}
			end := items.End.Offset
			if j < len(items.Items) {
				end = items.Items[j].Offset
			}
			if !yield(itemGroup{from: items.Items[i], end: end, items: j - i}) {
				return
			}
			i = j
		}
	}
}

// scalersByItem parses, validates and decodes the items of the scalers
// list into m.scalers, a group of items at a time, and returns what the
// top-level check reads of them. failed is true at the first group with a
// YAML error or the first item with an issue.
func (m *merged) scalersByItem(src []byte, items yamljs.Items, scaler *schema) (list *yamljs.Node, failed bool) {
	list = &yamljs.Node{Kind: yamljs.Seq, Pos: items.Start, Items: make([]*yamljs.Node, 0, len(items.Items))}
	var r payload
	var parts yamljs.Reader // nothing of a group's tree is kept: decoding copies
	for g := range itemGroups(items, groupBytes) {
		n, err := parts.ParseRange(src, g.from, g.end)
		if err != nil || n.Kind != yamljs.Seq || len(n.Items) != g.items {
			return nil, true
		}
		for _, item := range n.Items {
			r = payload{value: item, issues: r.issues[:0]}
			scaler.run(&r)
			if len(r.issues) > 0 {
				return nil, true
			}
			m.take(m.scaler(r.value, m.main))
			list.Items = append(list.Items, scalerRefs(r.value))
		}
	}
	return list, false
}

// take keeps a scaler read on its own for the Config, or hands it to each.
func (m *merged) take(s Scaler) {
	if m.each == nil {
		m.scalers = append(m.scalers, s)
		return
	}
	m.each(m.handed, &s)
	m.handed++
}

// scalerRefs is a validated scaler as far as the top-level check reads it:
// copies of its name and machinePool, since a node of the tree yamljs
// returns would keep the group's whole tree alive.
func scalerRefs(s *yamljs.Node) *yamljs.Node {
	refs := &yamljs.Node{Kind: yamljs.Map, Pos: s.Pos}
	for _, p := range s.Pairs {
		if p.Key == "name" || p.Key == "machinePool" {
			v := *p.Value // a string: no children to share
			p.Value = &v
			refs.Pairs = append(refs.Pairs, p)
		}
	}
	return refs
}
