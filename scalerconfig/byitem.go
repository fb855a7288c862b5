package scalerconfig

import (
	"path"
	"unicode/utf8"

	"github.com/kicikit/kicikit/internal/yamljs"
	"github.com/kicikit/kicikit/internal/zod"
)

// loadByItem is Load (and Location.Scan) reading, validating and decoding the
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
func loadByItem(fsys files, name string, src []byte, dir string, read reading, group int, each func(int, *Scaler)) (cfg *Config, handed int, ok bool, whole *parsed) {
	root, main, whole := mainPart(fsys.name(name), src)
	if root == nil {
		return nil, 0, false, whole
	}
	parts := []splitFile{main}
	if dir != "" {
		more, ok := splitDropIns(fsys, dir)
		if !ok {
			return nil, 0, false, nil
		}
		parts = append(parts, more...)
	}
	m := &merged{main: fsys.name(name), root: root, read: read, byItem: true, each: each, group: group}
	if each == nil {
		m.scalers = make([]Scaler, 0, main.count())
	}
	failed := false
	list := func(scaler scalerMaker) *zod.Schema {
		return &zod.Schema{Parse: func(p *zod.Payload) {
			p.Value, failed = m.scalersByItem(parts, scaler)
			if failed {
				// Never reported: it stops the checks, which read the list.
				p.AddIssue(&zod.Issue{Code: "custom", Cont: zod.ContFalse, Message: "read the whole file"})
			}
		}}
	}
	p := zod.Payload{Value: root, Limit: 1} // whether there is an issue is all it asks
	configSchemaWith(read, list).Run(&p)
	if failed || len(p.Issues) > 0 {
		return nil, m.handed, false, nil
	}
	return m.config(p.Value), m.handed, true, nil
}

// parsed is a main file yamljs.Parse read whole: its root, or the error
// that parse returned. When loadByItem gives up on such a file before it
// checks anything (its scalers are no list, or it does not parse), the
// whole read takes the tree on rather than parse the bytes a second time.
type parsed struct {
	root *yamljs.Node
	err  error
}

// splitFile is a file whose scalers are read one at a time: split into
// items, read a group of them at a time (items); or read whole, when it is
// a drop-in in another form (whole: read again, on its own, when its turn
// comes) or the main file in another form (nodes: its scalers, from its
// tree, which the load holds anyway as the top level's).
type splitFile struct {
	name  string
	src   []byte
	items yamljs.Items
	whole bool
	nodes *yamljs.Node
}

// mainPart reads the main file: split into its scalers list's items when it
// is in the plain form, with the root it has without them; else read
// whole, when its scalers key holds a list of any form (a flow list, a list
// among anchors and tags), whose items the load then reads one at a time.
// root is nil when the file does not parse or its scalers is no list: the
// whole config's reading says what then, from whole when the file was read
// whole (nil when the split parts did not parse: the whole file's error
// may be another).
func mainPart(name string, src []byte) (root *yamljs.Node, f splitFile, whole *parsed) {
	if rest, items, split, err := readSplit(src); split {
		if err != nil {
			return nil, splitFile{}, nil
		}
		return rest, splitFile{name: name, src: src, items: items}, nil
	}
	root, err := yamljs.ParseInPlace(src) // the load's own bytes, which it never changes
	if err != nil {
		return nil, splitFile{}, &parsed{err: err}
	}
	list := lookupMap(root, "scalers")
	if list == nil || list.Kind != yamljs.Seq {
		return nil, splitFile{}, &parsed{root: root}
	}
	return root, splitFile{name: name, src: src, nodes: list}, nil
}

// count is how many scalers the file has.
func (f splitFile) count() int {
	if f.nodes != nil {
		return len(f.nodes.Items)
	}
	return len(f.items.Items)
}

// start is where the file's scalers start: its first item's line, or its
// list.
func (f splitFile) start() yamljs.Pos {
	if f.nodes != nil {
		return f.nodes.Pos
	}
	return f.items.Start
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
// read, and dropped, by the whole config's reading), or else read whole:
// to be read again when its turn comes, when it adds scalers (a list with
// items), else for nothing. ok is false when it does not parse.
func splitDropIn(name string, src []byte) (f splitFile, adds, ok bool) {
	if _, items, split, err := readSplit(src); split {
		return splitFile{name: name, src: src, items: items}, err == nil, err == nil
	}
	n, err := yamljs.ParseInPlace(src)
	if err != nil {
		return splitFile{}, false, false
	}
	list := lookupMap(n, "scalers")
	if list == nil || list.Kind != yamljs.Seq || len(list.Items) == 0 {
		return splitFile{}, false, true
	}
	return splitFile{name: name, src: src, whole: true}, true, true
}

// scalersByItem parses, validates and decodes the items of the files'
// scalers lists, in order, a group of items at a time, into m.scalers or
// to m.each, and returns what the top-level check reads of them. failed is
// true at the first group with a YAML error or the first item with an
// issue.
func (m *merged) scalersByItem(files []splitFile, scaler scalerMaker) (list *yamljs.Node, failed bool) {
	b := &byItem{m: m, scaler: scaler(scalerKeys), maker: scaler, list: &yamljs.Node{Kind: yamljs.Seq, Pos: files[0].start()}}
	for n, f := range files {
		if !b.file(f, n == 0) {
			return nil, true
		}
	}
	return b.list, false
}

// byItem is what scalersByItem reads with: the scaler's schema, and the
// memory it reads in, kept from one item to the next.
type byItem struct {
	m      *merged
	scaler *zod.Schema
	maker  scalerMaker   // of the schema of a scaler read by groups of label sets (bigScaler)
	big    *bigScaler    // made for the first such scaler
	list   *yamljs.Node  // what the top-level check reads of the items so far
	r      zod.Payload   // an item's
	parts  yamljs.Reader // nothing of a group's tree is kept: decoding copies
	out    zod.Outputs   // nor of a scaler's output
}

// file reads the items of one file, and reports whether each was valid.
// The first file's list gives the list its position, as the whole file's
// tree has it.
func (b *byItem) file(f splitFile, first bool) bool {
	switch {
	case f.nodes != nil:
		return b.items(f.nodes.Items, f.name)
	case f.whole:
		n, err := b.parts.ParseRange(f.src, yamljs.Pos{Line: 1, Column: 1}, len(f.src))
		if err != nil {
			return false
		}
		list := lookupMap(n, "scalers")
		if first {
			b.list.Pos = list.Pos
		}
		return b.items(list.Items, f.name)
	}
	return readGroups(&b.parts, f.src, f.items, b.m.group, func(g itemGroup) (bool, bool) {
		return b.bigItem(f, g, first && g.from == f.items.Start)
	}, func(g itemGroup, seq *yamljs.Node) bool {
		if first && g.from == f.items.Start {
			b.list.Pos = seq.Pos
		}
		return b.items(seq.Items, f.name)
	})
}

// items validates and decodes items of the file named name, one at a time,
// and reports whether each was valid.
func (b *byItem) items(items []*yamljs.Node, name string) bool {
	for _, item := range items {
		b.out.Reset()
		b.r = zod.Payload{Value: item, Issues: b.r.Issues[:0], Out: &b.out, Limit: 1}
		b.scaler.Run(&b.r)
		if len(b.r.Issues) > 0 {
			return false
		}
		b.m.take(b.m.scaler(b.r.Value, name))
		b.list.Items = append(b.list.Items, scalerRefs(b.r.Value))
	}
	return true
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
