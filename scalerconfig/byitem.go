package scalerconfig

import (
	"iter"
	"path"
	"unicode/utf8"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// loadByItem is Load (and Scan) reading, validating and decoding the
// scalers a group at a time, so that the syntax trees of whole files never
// exist at once: what it holds beside the files' bytes is the Config it
// returns, or with each not even that.
//
// It reads only a config whose main file is in the plain form of
// [yamljs.SplitItems] with its scalers list split into items, and whose
// drop-ins (dir not "") are each in that form too or add no scalers
// (splitDropIns), and only a config the orchestrator accepts: ok is
// false, and the config must be read whole, at any YAML error in a part
// (the whole file's error may be another), at any issue of the schema (the
// issues of the whole config come in the schema's order, not the files'),
// at any file or folder that cannot be read, and for a file in another
// form.
//
// Each item is validated as the scalers list's schema validates it, on its
// own (zod's array runs its element on each item with a payload of its
// own), and the top level with a stand-in for the list that gives the
// top-level check what it reads of each scaler, its name and machinePool.
// TestLoadByItem, TestScan and the fuzz targets hold the result to the
// whole config's, field by field.
//
// It parses groups of items of about group bytes (groupBytes; the tests
// try others). With each, each scaler goes to each as soon as it is valid,
// rather than into the Config; handed is how many went, also when ok is
// false.
func loadByItem(fsys files, name string, src []byte, dir string, group int, each func(int, *Scaler)) (cfg *Config, handed int, ok bool) {
	items, ok := yamljs.SplitItems(src, "scalers")
	if !ok {
		return nil, 0, false
	}
	root, err := yamljs.ParseWithout(src, items.Start, items.End)
	if err != nil {
		return nil, 0, false
	}
	parts := []splitFile{{name: fsys.name(name), src: src, items: items}}
	if dir != "" {
		more, ok := splitDropIns(fsys, dir)
		if !ok {
			return nil, 0, false
		}
		parts = append(parts, more...)
	}
	m := &merged{main: fsys.name(name), root: root, byItem: true, each: each, group: group}
	if each == nil {
		m.scalers = make([]Scaler, 0, len(items.Items))
	}
	failed := false
	list := func(scaler *schema) *schema {
		return &schema{parse: func(p *payload) {
			p.value, failed = m.scalersByItem(parts, scaler)
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

// splitFile is a file whose scalers list is read a group of items at a
// time: its path in the file system, its bytes, its items.
type splitFile struct {
	name  string
	src   []byte
	items yamljs.Items
}

// splitDropIns reads the drop-in folder as the whole config's reading does
// (dropIns), and returns the drop-ins that add scalers, each split into
// its items. ok is false when a name, a file or the folder cannot be read,
// or a drop-in that adds scalers is not in the plain form, or one that
// adds none does not parse: the whole config's reading says what then.
func splitDropIns(fsys files, dir string) (parts []splitFile, ok bool) {
	entries, err := fsys.readDir(dir)
	if err != nil {
		return nil, false
	}
	for _, n := range dropInNames(entries) {
		file := path.Join(dir, n)
		if !utf8.ValidString(n) {
			return nil, false
		}
		src, err := fsys.readFile(file)
		if err != nil {
			return nil, false
		}
		f, adds, ok := splitDropIn(fsys.name(file), src)
		if !ok {
			return nil, false
		}
		if adds {
			parts = append(parts, f)
		}
	}
	return parts, true
}

// splitDropIn reads one drop-in: split into its scalers list's items when
// it is in the plain form (the rest of it must parse: its other keys are
// read, and dropped, by the whole config's reading), or else read whole,
// when it adds no scalers (a list without items, or none at all).
func splitDropIn(name string, src []byte) (f splitFile, adds, ok bool) {
	if items, split := yamljs.SplitItems(src, "scalers"); split {
		if _, err := yamljs.ParseWithout(src, items.Start, items.End); err != nil {
			return splitFile{}, false, false
		}
		return splitFile{name: name, src: src, items: items}, true, true
	}
	n, err := yamljs.Parse(src)
	if err != nil {
		return splitFile{}, false, false
	}
	list := lookupMap(n, "scalers")
	return splitFile{}, false, list == nil || list.Kind != yamljs.Seq || len(list.Items) == 0
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

// readGroups parses items a group at a time, all in one Reader, and calls
// f with each group and its tree, a sequence of the group's items, which is
// valid until f returns. It returns false at the first group that does not
// parse as its items (where the whole file must be read) or when f returns
// false.
func readGroups(parts *yamljs.Reader, src []byte, items yamljs.Items, size int, f func(g itemGroup, seq *yamljs.Node) bool) bool {
	for g := range itemGroups(items, size) {
		n, err := parts.ParseRange(src, g.from, g.end)
		if err != nil || n.Kind != yamljs.Seq || len(n.Items) != g.items || !f(g, n) {
			return false
		}
	}
	return true
}

// scalersByItem parses, validates and decodes the items of the files'
// scalers lists, in order, a group of items at a time, into m.scalers or
// to m.each, and returns what the top-level check reads of them. failed is
// true at the first group with a YAML error or the first item with an
// issue.
func (m *merged) scalersByItem(files []splitFile, scaler *schema) (list *yamljs.Node, failed bool) {
	list = &yamljs.Node{Kind: yamljs.Seq, Pos: files[0].items.Start}
	var r payload
	var parts yamljs.Reader // nothing of a group's tree is kept: decoding copies
	var out outputs         // nor of a scaler's output
	for n, f := range files {
		ok := readGroups(&parts, f.src, f.items, m.group, func(g itemGroup, seq *yamljs.Node) bool {
			if n == 0 && g.from == f.items.Start {
				list.Pos = seq.Pos // the list's own position, as the whole file's tree has it
			}
			for _, item := range seq.Items {
				out.reset()
				r = payload{value: item, issues: r.issues[:0], out: &out}
				scaler.run(&r)
				if len(r.issues) > 0 {
					return false
				}
				m.take(m.scaler(r.value, f.name))
				list.Items = append(list.Items, scalerRefs(r.value))
			}
			return true
		})
		if !ok {
			return nil, true
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
	m.hand(s)
}

// hand hands a scaler to each: its own copy, made only here, where its
// address is taken.
func (m *merged) hand(s Scaler) {
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
			p.Value, p.KeyNode = &v, nil
			refs.Pairs = append(refs.Pairs, p)
		}
	}
	return refs
}
