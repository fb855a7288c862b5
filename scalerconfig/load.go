package scalerconfig

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/kicikit/kicikit/internal/jsstr"
	"github.com/kicikit/kicikit/internal/yamljs"
	"github.com/kicikit/kicikit/internal/zod"
)

// Load reads the scaler config as the orchestrator's loadScalerConfig
// does. It returns the config as the orchestrator holds it after loading.
//
// path is the main file. dir, when not "", is the drop-in folder. Its
// files ending in .yaml or .yml are read in JavaScript's sort order. Each
// adds the entries of its scalers list, if any, to the main file's. Both
// are paths in fsys, as [fs.FS] names them: slash-separated, without a
// leading slash. One that fs.ValidPath refuses returns a *[FileError] with
// [ErrInvalidPath]. [Location.Load] loads the paths [Locate] returns.
//
// A config the orchestrator would refuse (a YAML error, a value the
// schema refuses) returns an *[Error] listing every problem. A file or
// folder that cannot be read returns the fs error, wrapped with its path.
// Every file is checked before it is read. A path that is not a regular
// file (for dir, a directory) returns a *[FileError]. So does a file
// longer than the orchestrator reads.
//
// A config in the plain form (see [Location.Scan]) is read a group of
// scalers at a time. Load then holds little more than the files' bytes
// and the Config it returns.
func Load(fsys fs.FS, path, dir string) (*Config, error) {
	if !fs.ValidPath(path) {
		return nil, invalidPath(path)
	}
	if dir != "" && !fs.ValidPath(dir) {
		return nil, invalidPath(dir)
	}
	return load(fsys, path, dir, yamljs.Parse, true)
}

// invalidPath is Load's error for a path fs.ValidPath refuses.
func invalidPath(p string) error {
	return wrapRead("scalerconfig.Load", p, &FileError{Path: p, Reason: ErrInvalidPath})
}

// parser is yamljs.Parse; tests give Load a parser of their own.
type parser func([]byte) (*yamljs.Node, error)

// item is one entry of the merged scalers list and the file it comes from.
type item struct {
	file string
	node *yamljs.Node
}

// merged is the main file with the drop-ins' scalers appended, as the
// schema validates it.
type merged struct {
	main  string
	root  *yamljs.Node
	read  reading // the rules, and the host
	items []item  // the merged scalers, when a drop-in added any; else nil
	// byItem says that the scalers were decoded one at a time
	// (loadByItem): into scalers, or handed to each when it is not nil.
	byItem  bool
	scalers []Scaler
	each    func(int, *Scaler)
	handed  int // the scalers handed to each
	group   int // the bytes of a group of items (groupBytes)
	// places are those of the structs being decoded (places.go).
	places []ownedPlace
}

// load is Load with the parser given; with byItem, a config is read a
// group of scalers at a time when it can be (loadByItem).
func load(fsys fs.FS, name, dir string, parse parser, byItem bool) (*Config, error) {
	return scan(files{fsys: fsys}, name, dir, parse, byItem, ScanOptions{}, nil)
}

// scan is Load, and with each Location.Scan: the one way every entry point
// loads. When loadByItem gives up after handing some scalers over, the
// whole file's Config (when the whole file is valid) hands over the rest:
// the parts read as the whole file does. opts are the rules, the host and
// the most problems the Error keeps.
func scan(fsys files, name, dir string, parse parser, byItem bool, opts ScanOptions, each func(int, *Scaler)) (*Config, error) {
	fsys.sums, fsys.refused = map[string]fileSum{}, map[string]error{}
	src, err := fsys.readFile(name)
	if err != nil {
		return nil, err
	}
	if each != nil {
		hand := each
		each = func(i int, s *Scaler) { fsys.stamp(s); hand(i, s) }
	}
	read := readingOf(opts)
	handed, whole := 0, (*parsed)(nil)
	if byItem {
		cfg, n, ok, w := loadByItem(fsys, name, src, dir, read, groupBytes, each)
		if ok {
			fsys.stampAll(cfg)
			return cfg, nil
		}
		handed, whole = n, w
	}
	cfg, err := loadWhole(fsys, name, dir, src, parse, whole, read, opts.MaxProblems)
	if err != nil || each == nil {
		fsys.stampAll(cfg)
		return cfg, err
	}
	for i := handed; i < len(cfg.Scalers); i++ {
		each(i, &cfg.Scalers[i])
	}
	cfg.Scalers = nil
	return cfg, nil
}

// loadWhole is Load of a main file read whole, its bytes src, parsed by
// parse unless loadByItem has parsed them (whole, when not nil), by the
// reading read, keeping at most maxProblems problems when it is positive.
func loadWhole(fsys files, name, dir string, src []byte, parse parser, whole *parsed, read reading, maxProblems int) (*Config, error) {
	parseMain := parse
	if whole != nil {
		parseMain = func([]byte) (*yamljs.Node, error) { return whole.root, whole.err }
	}
	root, err := parseYAML(fsys.name(name), src, parseMain)
	if err != nil {
		return nil, err
	}
	m := &merged{main: fsys.name(name), root: root, read: read}
	if dir != "" {
		if err := m.dropIns(fsys, dir, parse); err != nil {
			return nil, err
		}
	}
	p := zod.Payload{Value: m.validationRoot(), Limit: maxProblems}
	configSchema(read).Run(&p)
	if !p.Clean() {
		return nil, m.refusal(&p)
	}
	return m.config(p.Value), nil
}

// readYAML reads and parses one file. A YAML error is an *Error of one
// Problem; a read error the fs error, wrapped.
func readYAML(fsys files, name string, parse parser) (*yamljs.Node, error) {
	src, err := fsys.readFile(name)
	if err != nil {
		return nil, err
	}
	return parseYAML(fsys.name(name), src, parse)
}

// parseYAML parses one file's bytes. A YAML error is an *Error of one
// Problem.
func parseYAML(name string, src []byte, parse parser) (*yamljs.Node, error) {
	n, err := parse(src)
	if err != nil {
		return nil, &Error{Problems: []Problem{yamlProblem(name, err)}}
	}
	return n, nil
}

// yamlProblem is the Problem of a file the YAML parser refuses: what yaml's
// parse() throws, at its line and column.
func yamlProblem(name string, err error) Problem {
	p := Problem{File: name, Message: err.Error(), Code: "yaml"}
	var serr *yamljs.SyntaxError
	if errors.As(err, &serr) {
		first := serr.Problems[0]
		p.Line, p.Column, p.Message = int(first.Pos.Line), int(first.Pos.Column), first.Message
	}
	return p
}

// dropIns appends the scalers of the drop-in files, in the order and with
// the failures of the orchestrator's loop: each file is read and parsed in
// turn, and the first that adds scalers to a main file that cannot take
// them stops the load.
func (m *merged) dropIns(fsys files, dir string, parse parser) error {
	entries, err := fsys.readDir(dir)
	if err != nil {
		return err
	}
	for _, n := range dropInNames(entries) {
		file := path.Join(dir, n)
		if !utf8.ValidString(n) {
			// Node reads a file name as UTF-8, replacing what is not, and so
			// cannot open this file again by the name it read.
			return fsys.wrap(file, &fs.PathError{Op: "open", Path: file, Err: fs.ErrNotExist})
		}
		node, err := readYAML(fsys, file, parse)
		if err != nil {
			return err
		}
		if list := lookupMap(node, "scalers"); list != nil && list.Kind == yamljs.Seq {
			if err := m.appendScalers(fsys.name(file), list); err != nil {
				return err
			}
		}
	}
	return nil
}

// dropInNames are the names of a drop-in folder's files that the
// orchestrator reads, those ending in .yaml or .yml, in the order it reads
// them: JavaScript's sort order.
func dropInNames(entries []fs.DirEntry) []string {
	var names []string
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml") {
			names = append(names, n)
		}
	}
	slices.SortFunc(names, jsstr.Compare)
	return names
}

// lookupMap is lookup on a value that may not be an object.
func lookupMap(n *yamljs.Node, key string) *yamljs.Node {
	if n.Kind != yamljs.Map {
		return nil
	}
	return zod.Lookup(n, key)
}

// appendScalers appends a drop-in's scalers, as
// mainConfig.scalers = [...(mainConfig.scalers ?? []), ...parsed.scalers]
// does: a main file that is null or a primitive fails, and so does a main
// scalers JavaScript cannot spread; a string spreads to its characters.
func (m *merged) appendScalers(file string, list *yamljs.Node) error {
	if m.items == nil {
		first, err := m.mainItems()
		if err != nil {
			return err
		}
		m.items = first
	}
	for _, n := range list.Items {
		m.items = append(m.items, item{file: file, node: n})
	}
	return nil
}

// mainItems returns the main file's scalers as the first items of the
// merged list.
func (m *merged) mainItems() ([]item, error) {
	switch m.root.Kind {
	case yamljs.Null:
		return nil, m.typeError(m.root, "Cannot read properties of null (reading 'scalers'): the drop-ins' scalers are added to the main file, which is empty")
	case yamljs.Bool, yamljs.Number, yamljs.String, yamljs.Symbol:
		return nil, m.typeError(m.root, "Cannot create property 'scalers' on "+zod.TypeName(m.root)+": the drop-ins' scalers are added to the main file, which is not a mapping")
	case yamljs.Map:
		return m.spread(zod.JSValue(zod.Lookup(m.root, "scalers"))) // mainConfig.scalers: undefined as absent
	}
	// An array, a Date, a Buffer, a Set or a Map has no scalers property:
	// the drop-ins' scalers become its only one.
	return []item{}, nil
}

// typeError is the Problem of a TypeError the orchestrator's loader throws
// while it appends the drop-ins' scalers.
func (m *merged) typeError(at *yamljs.Node, message string) error {
	return &Error{Problems: []Problem{{File: m.main, Line: int(at.Pos.Line), Column: int(at.Pos.Column), Message: message, Code: "TypeError"}}}
}

// spread returns the items [...s] makes of the main file's scalers s: an
// array's items, a Set's members, a string's characters, a Map's [key,
// value] pairs, a Buffer's bytes; nothing for none or null.
func (m *merged) spread(s *yamljs.Node) ([]item, error) {
	items := []item{}
	add := func(n yamljs.Node) {
		n.Pos, n.End = s.Pos, s.End // placed at the value spread
		items = append(items, item{file: m.main, node: &n})
	}
	switch {
	case s == nil || s.Kind == yamljs.Null:
	case s.Kind == yamljs.Seq || s.Kind == yamljs.Set:
		for _, n := range s.Items {
			items = append(items, item{file: m.main, node: n})
		}
	case s.Kind == yamljs.String:
		for _, r := range s.Str {
			add(yamljs.Node{Kind: yamljs.String, Str: string(r)})
		}
	case s.Kind == yamljs.OrderedMap:
		for _, p := range s.Pairs {
			add(yamljs.Node{Kind: yamljs.Seq, Items: []*yamljs.Node{p.KeyNode, p.Value}})
		}
	case s.Kind == yamljs.Bytes:
		for i := 0; i < len(s.Str); i++ {
			add(yamljs.Node{Kind: yamljs.Number, Num: float64(s.Str[i])})
		}
	default:
		return nil, m.typeError(s, "scalers is not iterable: the drop-ins' scalers are added to the main file's scalers, which is "+zod.TypeName(s)+", not a list")
	}
	return items, nil
}

// validationRoot is the value the schema validates: the main file, with
// the merged scalers when a drop-in added any.
func (m *merged) validationRoot() *yamljs.Node {
	if m.items == nil || m.root.Kind == yamljs.Seq {
		return m.root // a main array gets a scalers property the schema never reads
	}
	if m.root.Kind != yamljs.Map {
		// A Date, a Buffer, a Set or a Map: an object whose one property
		// the schema reads is the scalers the drop-ins gave it.
		m.root = &yamljs.Node{Kind: yamljs.Map, Pos: m.root.Pos, End: m.root.End}
	}
	list := &yamljs.Node{Kind: yamljs.Seq, Items: make([]*yamljs.Node, len(m.items))}
	for i, it := range m.items {
		list.Items[i] = it.node
	}
	root := *m.root
	root.Pairs = append([]yamljs.Pair(nil), m.root.Pairs...)
	for i := range root.Pairs {
		if root.Pairs[i].Key == "scalers" {
			list.Pos, list.End = root.Pairs[i].Value.Pos, root.Pairs[i].Value.End
			root.Pairs[i].Value = list
			return &root
		}
	}
	root.Pairs = append(root.Pairs, yamljs.Pair{Key: "scalers", Value: list})
	return &root
}
