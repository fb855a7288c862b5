package scalerconfig

import (
	"strings"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/internal/yamljs"
)

// The typed Config of a validated value, read by the tables of schema.go:
// every key the schema's output holds goes to the Go field its key names.
// The value is valid, defaults included, so decoding only reads.

// decoder decodes the schema's output of one file: the file the positions
// name. It records where each value is (places.go): path is the keys from
// the struct with places being decoded to the object at hand, depth how
// many, and owner the item of that struct's list of structs the object
// belongs to, or -1 for the struct itself.
type decoder struct {
	m     *merged
	file  string
	path  uint32
	depth int
	owner int32
}

// newDecoder is the decoder of a struct with places of its own, in file.
func (m *merged) newDecoder(file string) decoder { return decoder{m: m, file: file, owner: -1} }

// config decodes the schema's output.
func (m *merged) config(v *yamljs.Node) *Config {
	d := m.newDecoder(m.main)
	c := &Config{Pos: d.pos(v.Pos), Rules: m.read.rules}
	ks := configKeys(c, nil)
	start := len(m.places)
	d.object(v, &ks)
	m.seal(start, &c.at, func(i int) *[]place { return &c.MachinePools[i].at })
	return c
}

// scaler decodes one scaler of the schema's output, declared in file.
func (m *merged) scaler(v *yamljs.Node, file string) Scaler {
	return m.scalerWith(v, file, len(m.places), nil)
}

// scalerWith is scaler for a scaler whose label sets were decoded before
// it, sets, their places recorded from start on (bigscaler.go); v's
// labelSets is then an empty list. With sets nil, they are v's.
func (m *merged) scalerWith(v *yamljs.Node, file string, start int, sets []LabelSet) Scaler {
	d := m.newDecoder(file)
	s := Scaler{Pos: d.pos(v.Pos)}
	ks := scalerKeys(&s)
	d.object(v, &ks)
	if sets != nil {
		s.LabelSets = sets
	}
	m.seal(start, &s.at, func(i int) *[]place { return &s.LabelSets[i].at })
	return s
}

// object decodes the object v into the fields its keys point to, and
// records where each value is. The schema's output holds an object's keys
// in the table's order, so one walk of both finds each.
func (d decoder) object(v *yamljs.Node, ks *keys) {
	j := 0
	for i, k := range ks.list() {
		if j < len(v.Pairs) && v.Pairs[j].Key == k.name {
			at := d.key(i)
			if _, image := k.to.(imageOf); !image { // the image is at ImagePos
				at.record(v.Pairs[j].Value, false)
			}
			at.set(k.to, v.Pairs[j].Value)
			j++
		}
	}
}

// decodeNew decodes the object v into a new T.
func decodeNew[T any](d decoder, v *yamljs.Node, t table[T]) *T {
	dst := new(T)
	ks := t(dst)
	d.object(v, &ks)
	return dst
}

// decodeList decodes an array of objects of T, each with its position, and
// the places of each as the item of its index (seal gives them to it).
func decodeList[T any](d decoder, v *yamljs.Node, t table[T], pos func(*T) *Pos) []T {
	out := make([]T, len(v.Items))
	for i, item := range v.Items {
		*pos(&out[i]) = d.pos(item.Pos)
		ks := t(&out[i])
		at := decoder{m: d.m, file: d.file, owner: int32(i)}
		at.object(item, &ks)
	}
	return out
}

// pos is the Pos of a place in the decoder's file.
func (d decoder) pos(p yamljs.Pos) Pos {
	return Pos{File: d.file, Line: int(p.Line), Column: int(p.Column), Offset: int(p.Offset)}
}

// set puts the value v into the field p points to, as the field's type
// reads it.
func (d decoder) set(p any, v *yamljs.Node) {
	d.items(p, v)
	if setValue(p, v) || setEnum(p, v) {
		return
	}
	d.setObject(p, v)
}

// items records where each item of a list of strings or roles is, and
// each entry of an env (at its value).
func (d decoder) items(p any, v *yamljs.Node) {
	switch p.(type) {
	case *[]string, *[]Role:
		for _, item := range v.Items {
			d.record(item, true)
		}
	case *Env:
		for _, pair := range v.Pairs {
			d.record(pair.Value, true)
		}
	}
}

// setValue sets a field of a plain type, and reports whether p is one.
func setValue(p any, v *yamljs.Node) bool {
	switch p := p.(type) {
	case *int:
		*p = int(v.Num)
	case *int64:
		*p = int64(v.Num) // the schema has checked it is a safe integer; -0 reads as 0
	case **int64:
		i := int64(v.Num)
		*p = &i
	case *float64:
		*p = v.Num
	case **float64:
		f := v.Num + 0 // -0 reads as 0, as JSON writes it
		*p = &f
	case *string:
		*p = own(v.Str)
	case **string:
		s := own(v.Str)
		*p = &s
	case *bool:
		*p = v.Bool
	case **bool:
		b := v.Bool
		*p = &b
	case *[]string:
		*p = stringList(v)
	default:
		return false
	}
	return true
}

// setEnum sets a field of an enum's Go type, and reports whether p is one.
func setEnum(p any, v *yamljs.Node) bool {
	switch p := p.(type) {
	case *ScalerType:
		*p = known(v.Str, scalerTypes())
	case *Runtime:
		*p = known(v.Str, runtimes())
	case *PullPolicy:
		*p = known(v.Str, pullPolicies())
	case *[]Role:
		*p = make([]Role, len(v.Items))
		for i, r := range v.Items {
			(*p)[i] = known(r.Str, roles())
		}
	default:
		return false
	}
	return true
}

// setObject sets a field that holds an object or a list of them.
func (d decoder) setObject(p any, v *yamljs.Node) {
	switch p := p.(type) {
	case **Defaults:
		*p = decodeNew(d, v, defaultsKeys)
	case **hostconfig.Resources:
		*p = decodeNew(d, v, resourcesKeys) // the transform gave the nested form
	case **hostconfig.ResourceSpec:
		*p = decodeNew(d, v, specKeys)
	case **ResourceCap:
		*p = d.capOf(v)
	case *ResourceCap:
		*p = *d.capOf(v)
	case *[]MachinePool:
		*p = decodeList(d, v, poolKeys, func(mp *MachinePool) *Pos { return &mp.Pos })
	case *[]Scaler:
		*p = d.m.scalersOf(v)
	case **FirecrackerNetwork:
		*p = decodeNew(d, v, firecrackerKeys)
	case **WarmPool:
		*p = decodeNew(d, v, warmPoolKeys)
	case **Platform:
		*p = decodeNew(d, v, platformKeys)
	case *[]LabelSet:
		*p = decodeList(d, v, labelSetKeys, func(ls *LabelSet) *Pos { return &ls.Pos })
	case imageOf:
		p.ls.Image, p.ls.ImagePos, p.ls.ImageEnd = own(v.Str), d.pos(v.Pos), d.pos(v.End)
	case *Env:
		*p = envOf(v)
	case **NetworkPolicy:
		*p = decodeNew(d, v, networkPolicyKeys)
	}
}

// scalersOf is the merged scalers list: the scalers decoded one at a time
// already (loadByItem), or those of v, each in the file that declares it.
func (m *merged) scalersOf(v *yamljs.Node) []Scaler {
	if m.byItem {
		return m.scalers
	}
	out := make([]Scaler, len(v.Items))
	for i, s := range v.Items {
		file := m.main
		if m.items != nil {
			file = m.items[i].file
		}
		out[i] = m.scaler(s, file)
	}
	return out
}

// own returns s in memory of its own. yamljs's strings are slices of the
// text it read, and one kept in the Config would keep all of that text.
func own(s string) string { return strings.Clone(s) }

// known returns the constant of T that s is, or s in memory of its own.
func known[T ~string](s string, values []T) T {
	for _, v := range values {
		if string(v) == s {
			return v
		}
	}
	return T(own(s))
}

// stringList is a list of strings: nil when absent, empty when empty.
func stringList(n *yamljs.Node) []string {
	out := make([]string, len(n.Items))
	for i, s := range n.Items {
		out[i] = own(s.Str)
	}
	return out
}

// capOf is a resource cap as its transform leaves it: maxCpu, and
// maxMemory as maxMemoryBytes, each at its key of the cap's table.
func (d decoder) capOf(n *yamljs.Node) *ResourceCap {
	c := &ResourceCap{}
	for _, p := range n.Pairs {
		switch p.Key {
		case "maxCpu":
			c.MaxCPU = p.Value.Num
			d.key(0).record(p.Value, false)
		case "maxMemoryBytes":
			setValue(&c.MaxMemoryBytes, p.Value)
			d.key(1).record(p.Value, false)
		}
	}
	return c
}

// envOf is a label set's env, in the record's order.
func envOf(n *yamljs.Node) Env {
	env := make(Env, len(n.Pairs))
	for i, p := range n.Pairs {
		env[i] = EnvVar{Name: own(p.Key), Value: own(p.Value.Str)}
	}
	return env
}
