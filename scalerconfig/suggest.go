package scalerconfig

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/kicikit/kicikit/internal/yamljs"
	"github.com/kicikit/kicikit/internal/zod"
)

// "Did you mean": the key a misspelt key was meant to be. A problem of
// unknown keys names, for each of them close to a key its object allows,
// that key; the problem of a key the object lacks names the unknown keys
// of its mapping that are close to it. Either is worked out from the file
// and the schema only once there is a problem, so that a config that
// loads costs nothing more.

// Suggestion pairs an unknown key the file writes with the allowed key it
// likely misspells. They are equal but for case, or within a small edit
// distance ([Problem.Suggestions]).
type Suggestion struct {
	Key   string // the key as the file writes it, which the object does not allow
	Meant string // the key the object allows that Key is close to
}

// suggestions are those of the problem of iss, at path, in the files as
// the walk from the validation root finds them; root is the schema.
func (m *merged) suggestions(root *zod.Schema, path []zod.Seg, iss *zod.Issue) []Suggestion {
	switch iss.Code {
	case "unrecognized_keys":
		return keySuggestions(nil, root, path, iss.Keys)
	case "invalid_union":
		return unionSuggestions(root, path, iss)
	}
	if len(path) == 0 || path[len(path)-1].Index >= 0 {
		return nil
	}
	leaf, parent := path[len(path)-1].Key, path[:len(path)-1]
	_, node, whole := m.walk(parent)
	if !whole || node.Kind != yamljs.Map || zod.Lookup(node, leaf) != nil {
		return nil // the key is not missing: the problem is about its value
	}
	obj := objectAt(root, parent, func(o *zod.Schema) bool { return !noneIn(o, []string{leaf}) })
	if obj == nil {
		return nil
	}
	var out []Suggestion
	for _, pair := range node.Pairs {
		if noneIn(obj, []string{pair.Key}) && closest(pair.Key, obj) == leaf {
			out = append(out, Suggestion{Key: pair.Key, Meant: leaf})
		}
	}
	return out
}

// keySuggestions appends to dst a suggestion for each of keys, unknown in
// the object at path below s, that is close to a key the object allows.
func keySuggestions(dst []Suggestion, s *zod.Schema, path []zod.Seg, keys []string) []Suggestion {
	obj := objectAt(s, path, func(o *zod.Schema) bool { return noneIn(o, keys) })
	if obj == nil {
		return dst
	}
	for _, k := range keys {
		if meant := closest(k, obj); meant != "" && !slices.Contains(dst, Suggestion{k, meant}) {
			dst = append(dst, Suggestion{Key: k, Meant: meant})
		}
	}
	return dst
}

// unionSuggestions are the suggestions of the unknown keys that each form
// of the union at path found, in the form that found them: cpu in a
// resources block's limits (the nested form) or in the block itself (the
// flat form) is close to cpus.
func unionSuggestions(root *zod.Schema, path []zod.Seg, iss *zod.Issue) []Suggestion {
	u := schemaAt(root, path, func(o *zod.Schema) bool { return o.Kind == "union" })
	if u == nil {
		return nil
	}
	var out []Suggestion
	for i, option := range iss.Options[:min(len(iss.Options), len(u.Options))] {
		for _, o := range option {
			if o.Code == "unrecognized_keys" {
				out = keySuggestions(out, u.Options[i], o.Path(), o.Keys)
			}
		}
	}
	return out
}

// objectAt returns the object schema of the value at path below s (the
// option of a union that fits), or nil.
func objectAt(s *zod.Schema, path []zod.Seg, fits func(*zod.Schema) bool) *zod.Schema {
	return schemaAt(s, path, func(o *zod.Schema) bool { return o.Kind == "object" && fits(o) })
}

// schemaAt returns the schema of the value at path below s, past the
// optionals, defaults and pipes around it, and, of a union, the union
// itself when it fits, else the option whose value fits; nil when there is
// none.
func schemaAt(s *zod.Schema, path []zod.Seg, fits func(*zod.Schema) bool) *zod.Schema {
	for s != nil {
		switch s.Kind {
		case "optional", "default", "pipe":
			s = s.Inner
			continue
		case "union":
			if len(path) == 0 && fits(s) {
				return s
			}
			for _, o := range s.Options {
				if r := schemaAt(o, path, fits); r != nil {
					return r
				}
			}
			return nil
		}
		if len(path) == 0 {
			if fits(s) {
				return s
			}
			return nil
		}
		s = childSchema(s, path[0])
		path = path[1:]
	}
	return nil
}

// childSchema is the schema of the value at s below the array, object or
// record s.
func childSchema(s *zod.Schema, at zod.Seg) *zod.Schema {
	switch {
	case s.Kind == "array" && at.Index >= 0, s.Kind == "record" && at.Index < 0:
		return s.Inner
	case s.Kind == "object" && at.Index < 0:
		for _, f := range s.Shape {
			if f.Key == at.Key {
				return f.Schema
			}
		}
	}
	return nil
}

// noneIn reports whether none of keys is a key of the object o.
func noneIn(o *zod.Schema, keys []string) bool {
	for _, k := range keys {
		for _, f := range o.Shape {
			if f.Key == k {
				return false
			}
		}
	}
	return true
}

// closest returns the key of the object o that key is closest to, when it
// is close enough, or "". Keys compare without regard to case, so that a
// key equal to one but for case is always meant (distance 0); otherwise
// the distance is the optimal string alignment distance (insertions,
// deletions, substitutions and swaps of two neighbours, each one edit) in
// runes, and a key is meant at most 2 edits away, and at most one edit for
// each three runes of the meant key: "maxAgnets" is "maxAgents",
// "imagee" "image", "cpu" "cpus", but "gpu" no key of a resource spec. A
// tie goes to the first key in the schema's order.
func closest(key string, o *zod.Schema) string {
	best, bestD := "", 3
	lower := strings.ToLower(key)
	for _, f := range o.Shape {
		n := utf8.RuneCountInString(f.Key)
		if len(lower) > 4*n+8 {
			continue // far longer than any key it could be meant as
		}
		d := editDistance(lower, strings.ToLower(f.Key))
		if d < bestD && (d == 0 || 3*d <= n) {
			best, bestD = f.Key, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b,
// in runes, counted up to 3: any greater distance is 3.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if diff := len(ra) - len(rb); diff > 2 || diff < -2 {
		return 3
	}
	// rows i-2, i-1 and i of the table of distances between prefixes.
	prev2, prev, cur := make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(rb)], 3)
}

// DidYouMean returns the problem's Suggestions for a person to read after
// its message and "; ", as [Problem.String] writes them, or "" when there
// are none. A problem of one unknown key
// gets `did you mean "maxAgents"?`. Otherwise each meant key comes with
// the key the file writes for it. The missing key maxAgents gets `did you
// mean "maxAgents" for "maxAgnets"?`. Two read `did you mean "image" for
// "imagee", "binaryPath" for "binarypath"?`. Keys are written as they
// are, in double quotes, as the orchestrator's own message quotes them.
func (p Problem) DidYouMean() string {
	switch {
	case len(p.Suggestions) == 0:
		return ""
	case p.Code == "unrecognized_keys" && len(p.Suggestions) == 1 && !strings.HasPrefix(p.Message, "Unrecognized keys"):
		return `did you mean "` + p.Suggestions[0].Meant + `"?`
	}
	parts := make([]string, len(p.Suggestions))
	for i, s := range p.Suggestions {
		parts[i] = `"` + s.Meant + `" for "` + s.Key + `"`
	}
	return "did you mean " + strings.Join(parts, ", ") + "?"
}
