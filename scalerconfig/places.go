package scalerconfig

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/internal/yamljs"
	"github.com/kicikit/kicikit/internal/zod"
)

// Where each value of a loaded config is. Decoding (decode.go) records a
// place for every value the file writes, in the struct Load returns that
// holds it: the Config (its top-level values, defaults.resources and the
// caps included), each Scaler, each LabelSet, each MachinePool. Nested
// objects that are not such structs (resources, a network policy, a warm
// pool, a platform, a cap) keep theirs in the struct above them, with the
// path to them.
//
// A place is 16 bytes, and the places of a scaler and of its label sets
// share one array, made when the scaler is decoded: a label set of two
// labels and an image holds three places (the image is at ImagePos), and
// the whole config one array a scaler more than it did.

// place is where the file writes one value below a struct: the value at
// the keys path from the struct or, with itemBit set, an item of the list
// (or an entry of the env) there. The items of a list follow its own
// place, in order.
type place struct {
	path                 uint32 // each key's index in its table, plus one, in keyBits bits, the first key lowest; itemBit
	line, column, offset int32
}

// keyBits is the width of one key of a place's path; a table has fewer
// than 2^keyBits - 1 keys (maxShape), and a path at most maxKeys keys (the
// deepest value, defaults.resources.limits.memory, is four keys below the
// Config). A line, column or offset fits an int32: the read refuses a
// file of 2^31 bytes or more.
const (
	keyBits = 6
	maxKeys = 4
	itemBit = 1 << 31
)

// ownedPlace is a place recorded while a struct is decoded, with what owns
// it: the struct (-1), or item owner of the struct's one list of structs
// (its label sets, a Config's machine pools).
type ownedPlace struct {
	owner int32
	place
}

// record notes where the file writes v, the value at d's path, or with
// item an item there. A value the file does not write, a default, is not
// noted.
func (d decoder) record(v *yamljs.Node, item bool) {
	if v.Pos.Line <= 0 {
		return
	}
	path := d.path
	if item {
		path |= itemBit
	}
	d.m.places = append(d.m.places, ownedPlace{owner: d.owner, place: place{
		path: path, line: int32(v.Pos.Line), column: int32(v.Pos.Column), offset: int32(v.Pos.Offset),
	}})
}

// key is d at the key of index i of the object it decodes.
func (d decoder) key(i int) decoder {
	d.path |= uint32(i+1) << (keyBits * d.depth)
	d.depth++
	return d
}

// seal hands the places recorded since start to their owners, in one
// array: the struct's own (own), then each item's run (item(i)), each a
// slice of its own capacity, and forgets them.
func (m *merged) seal(start int, own *[]place, item func(i int) *[]place) {
	recs := m.places[start:]
	if len(recs) == 0 {
		return
	}
	all := make([]place, 0, len(recs))
	for _, r := range recs {
		if r.owner < 0 {
			all = append(all, r.place)
		}
	}
	*own = all[:len(all):len(all)]
	for i := 0; i < len(recs); {
		j := recs[i].owner
		if j < 0 {
			i++
			continue
		}
		from := len(all)
		for ; i < len(recs) && recs[i].owner == j; i++ {
			all = append(all, recs[i].place)
		}
		*item(int(j)) = all[from:len(all):len(all)]
	}
	m.places = m.places[:start]
}

// PosOf returns where the file writes the value at path. path is below the
// config, in the orchestrator's form, as [Problem.Path] writes one:
//
//	version
//	defaults.resources.limits.memory
//	machinePools[0].cap
//	scalers[2].labelSets[0].env.HOME
//	scalers[0].labelSets[1].env["MY VAR"]
//
// The path is that of the value Load returns. A label set's flat resources
// {cpus, memory} are at both resources.requests and resources.limits. A
// resource cap's maxMemory is at maxMemory. A list item (labels[1],
// volumes[0]) has a position of its own, and so has an env entry
// (env.HOME, at its value). So has the list or mapping that holds them. A
// scaler, a label set or a machine pool is at its mapping (its Pos).
//
// It reports false when the file writes no value at path: a key left out
// (a default applied is not in the file), or a path not of the config's
// form. Every path of a Config built as a literal reports false. So do
// the scalers of a Config that [Location.Scan] returned, which holds none.
func (c *Config) PosOf(path string) (Pos, bool) {
	ks := configKeys(c, nil)
	return posOf(c.at, c.Pos.File, &ks, path)
}

// PosOf returns where the file that declares the scaler writes the value
// at path below it, such as "labelSets[1].resources.limits.memory". It
// reads path as [Config.PosOf] does.
func (s *Scaler) PosOf(path string) (Pos, bool) {
	ks := scalerKeys(s)
	return posOf(s.at, s.Pos.File, &ks, path)
}

// PosOf returns where the file that declares the label set writes the
// value at path below it, such as "image" or "env.HOME". It reads path as
// [Config.PosOf] does.
func (ls *LabelSet) PosOf(path string) (Pos, bool) {
	if path == "image" {
		return ls.ImagePos, ls.ImagePos.IsValid() // kept once, as the image's edits need it
	}
	ks := labelSetKeys(ls)
	return posOf(ls.at, ls.Pos.File, &ks, path)
}

// PosOf returns where the file writes the value at path below the
// machine pool, such as "cap.maxMemory". It reads path as [Config.PosOf]
// does.
func (p *MachinePool) PosOf(path string) (Pos, bool) {
	ks := poolKeys(p)
	return posOf(p.at, p.Pos.File, &ks, path)
}

// posOf finds the place of path below a struct of the table ks, whose
// places are places, in file.
func posOf(places []place, file string, ks *keys, path string) (Pos, bool) {
	segs, ok := parsePath(path)
	if !ok || len(segs) == 0 {
		return Pos{}, false
	}
	var w placeWalk
	for len(segs) > 0 && w.depth < maxKeys {
		k, ok := w.key(ks, segs[0])
		if !ok {
			return Pos{}, false
		}
		segs = segs[1:]
		if len(segs) == 0 {
			return w.find(places, file, -1)
		}
		if sub, nested := subKeys(k.to); nested {
			ks = &sub
			continue
		}
		return w.below(places, file, k.to, segs)
	}
	return Pos{}, false
}

// placeWalk is the path of keys a walk down the tables has taken.
type placeWalk struct {
	path  uint32
	depth int
}

// key takes the key s of the table ks.
func (w *placeWalk) key(ks *keys, s zod.Seg) (key, bool) {
	if s.Index >= 0 {
		return key{}, false
	}
	for i, k := range ks.list() {
		if k.name == s.Key {
			w.path |= uint32(i+1) << (keyBits * w.depth)
			w.depth++
			return k, true
		}
	}
	return key{}, false
}

// find returns the place of the walk's path, or with item >= 0 of that
// item there.
func (w *placeWalk) find(places []place, file string, item int) (Pos, bool) {
	for k, p := range places {
		if p.path != w.path {
			continue
		}
		if item >= 0 {
			// The items follow the list's own place: compared before the
			// sum, so that an index near the int's range cannot wrap.
			if item >= len(places)-k-1 || places[k+1+item].path != w.path|itemBit {
				return Pos{}, false
			}
			p = places[k+1+item]
		}
		return Pos{File: file, Line: int(p.line), Column: int(p.column), Offset: int(p.offset)}, true
	}
	return Pos{}, false
}

// below finds the place of segs below the value of the key the walk ends
// at, whose field to points to: an item of a list, an entry of an env, or
// a path below an item of a list of structs.
func (w *placeWalk) below(places []place, file string, to any, segs []zod.Seg) (Pos, bool) {
	s := segs[0]
	switch p := to.(type) {
	case *[]string, *[]Role:
		if s.Index >= 0 && len(segs) == 1 {
			return w.find(places, file, s.Index)
		}
	case *Env:
		for i, v := range *p {
			if v.Name == s.Key && s.Index < 0 && len(segs) == 1 {
				return w.find(places, file, i)
			}
		}
	case *[]LabelSet:
		return itemPos(*p, segs, func(ls *LabelSet) *Pos { return &ls.Pos }, (*LabelSet).PosOf)
	case *[]MachinePool:
		return itemPos(*p, segs, func(mp *MachinePool) *Pos { return &mp.Pos }, (*MachinePool).PosOf)
	case *[]Scaler:
		return itemPos(*p, segs, func(s *Scaler) *Pos { return &s.Pos }, (*Scaler).PosOf)
	}
	return Pos{}, false
}

// itemPos is the position of segs, an index and a path below it, in a
// list of structs: the item's own Pos without a path.
func itemPos[T any](list []T, segs []zod.Seg, pos func(*T) *Pos, posOf func(*T, string) (Pos, bool)) (Pos, bool) {
	i := segs[0].Index
	if i < 0 || i >= len(list) {
		return Pos{}, false
	}
	if len(segs) == 1 {
		return *pos(&list[i]), pos(&list[i]).IsValid()
	}
	return posOf(&list[i], pathString(segs[1:]))
}

// subKeys returns the table of the object a field of a table holds, when
// it holds one that is not a struct with places of its own.
func subKeys(to any) (keys, bool) {
	switch to.(type) {
	case **Defaults:
		return defaultsKeys(new(Defaults)), true
	case **hostconfig.Resources:
		return resourcesKeys(new(hostconfig.Resources)), true
	case **hostconfig.ResourceSpec:
		return specKeys(new(hostconfig.ResourceSpec)), true
	case **ResourceCap, *ResourceCap:
		return capKeys(new(ResourceCap)), true
	case **FirecrackerNetwork:
		return firecrackerKeys(new(FirecrackerNetwork)), true
	case **WarmPool:
		return warmPoolKeys(new(WarmPool)), true
	case **Platform:
		return platformKeys(new(Platform)), true
	case **NetworkPolicy:
		return networkPolicyKeys(new(NetworkPolicy)), true
	}
	return keys{}, false
}

// parsePath reads a path as pathString writes it: keys joined by dots,
// indices in brackets, a key in brackets as a JSON string.
func parsePath(s string) ([]zod.Seg, bool) {
	var segs []zod.Seg
	for s != "" {
		if s[0] == '[' {
			sg, n, ok := bracket(s)
			if !ok {
				return nil, false
			}
			segs, s = append(segs, sg), s[n:]
			continue
		}
		if len(segs) > 0 {
			if s[0] != '.' {
				return nil, false
			}
			s = s[1:]
		}
		n := strings.IndexAny(s, ".[")
		if n < 0 {
			n = len(s)
		}
		if n == 0 && len(segs) == 0 {
			return nil, false // an empty key is written only after a dot
		}
		segs, s = append(segs, zod.Key(s[:n])), s[n:]
	}
	return segs, true
}

// bracket reads the "[...]" that s starts with: an index, or a key as a
// JSON string; n is its length.
func bracket(s string) (sg zod.Seg, n int, ok bool) {
	if len(s) > 1 && s[1] == '"' {
		dec := json.NewDecoder(strings.NewReader(s[1:]))
		var key string
		if err := dec.Decode(&key); err != nil {
			return zod.Seg{}, 0, false
		}
		n = 1 + int(dec.InputOffset())
		if n >= len(s) || s[n] != ']' {
			return zod.Seg{}, 0, false
		}
		return zod.Key(key), n + 1, true
	}
	end := strings.IndexByte(s, ']')
	if end < 2 {
		return zod.Seg{}, 0, false
	}
	i, err := strconv.Atoi(s[1:end])
	if err != nil || s[1] < '0' || s[1] > '9' {
		return zod.Seg{}, 0, false
	}
	return zod.Seg{Index: i}, end + 1, true
}
