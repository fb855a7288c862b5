package zod

import (
	"math"
	"strconv"

	"github.com/kicikit/kicikit/internal/jsstr"
	"github.com/kicikit/kicikit/internal/yamljs"
)

// How JavaScript sees a value the YAML reader returns, where zod's rules
// and the orchestrator's loader read it: its type's name, whether it is an
// object, its own properties, its ToNumber.

// TypeName returns the name zod's messages give a value's type:
// "undefined" for nil, "null", "array", "object", "NaN".
func TypeName(n *yamljs.Node) string {
	if n == nil {
		return "undefined"
	}
	switch n.Kind {
	case yamljs.Null:
		return "null"
	case yamljs.Bool:
		return "boolean"
	case yamljs.Number:
		switch {
		case math.IsNaN(n.Num):
			return "NaN"
		case math.IsInf(n.Num, 1):
			return "Infinity"
		case math.IsInf(n.Num, -1):
			return "-Infinity"
		}
		return "number"
	case yamljs.String:
		return "string"
	case yamljs.Seq:
		return "array"
	case yamljs.Map:
		return "object"
	}
	return n.Kind.String() // Buffer, Date, Set, Map, symbol: the constructor's name, or typeof
}

// isObject reports whether zod reads n as an object: not null, not an
// array, of typeof "object". A Date, Buffer, Set or Map is one, with no
// properties zod's shapes name.
func isObject(n *yamljs.Node) bool {
	switch n.Kind {
	case yamljs.Map, yamljs.Bytes, yamljs.Date, yamljs.Set, yamljs.OrderedMap:
		return true
	}
	return false
}

// properties are the own enumerable properties of an object: a plain
// object's entries, a Buffer's indices (node's Buffer.prototype also has
// enumerable methods, which a for...in lists; they are left out here), and
// none for a Date, a Set or a Map, whose entries are not properties.
func properties(n *yamljs.Node) []yamljs.Pair {
	switch n.Kind {
	case yamljs.Map:
		return n.Pairs
	case yamljs.Bytes:
		pairs := make([]yamljs.Pair, len(n.Str))
		for i := range pairs {
			pairs[i] = yamljs.Pair{Key: strconv.Itoa(i), Value: &yamljs.Node{Kind: yamljs.Number, Num: float64(n.Str[i]), Pos: n.Pos, End: n.End}}
		}
		return pairs
	}
	return nil
}

// toNumber is JavaScript's ToNumber of a value, or the message of the
// TypeError it throws. An object's toString or valueOf is a plain value in
// YAML, not a function: one with its own toString cannot become a number.
func toNumber(n *yamljs.Node) (float64, string) {
	switch n.Kind {
	case yamljs.Null:
		return 0, ""
	case yamljs.Bool:
		if n.Bool {
			return 1, ""
		}
		return 0, ""
	case yamljs.Number, yamljs.Date:
		return n.Num, "" // a Date's valueOf is its time value
	case yamljs.String:
		return jsstr.ToNumber(n.Str), ""
	case yamljs.Bytes:
		return jsstr.ToNumber(n.Str), "" // a Buffer's toString is its text
	case yamljs.Seq:
		return seqToNumber(n)
	case yamljs.Symbol:
		return 0, "Cannot convert a Symbol value to a number"
	case yamljs.Map:
		if Lookup(n, "toString") != nil {
			return 0, "Cannot convert object to primitive value"
		}
	}
	return math.NaN(), "" // "[object Object]", "[object Set]", "[object Map]"
}

// seqToNumber is ToNumber of an array: of the string its items joined by
// commas make.
func seqToNumber(n *yamljs.Node) (float64, string) {
	for _, it := range n.Items {
		switch {
		case it.Kind == yamljs.Symbol:
			return 0, "Cannot convert a Symbol value to a string"
		case it.Kind == yamljs.Map && Lookup(it, "toString") != nil:
			return 0, "Cannot convert object to primitive value"
		}
	}
	switch len(n.Items) {
	case 0:
		return 0, ""
	case 1:
	default:
		return math.NaN(), "" // a comma is never part of a number
	}
	switch it := n.Items[0]; it.Kind {
	case yamljs.Null:
		return 0, "" // join writes null as ""
	case yamljs.Bool, yamljs.Date:
		return math.NaN(), "" // "true", "false", a date's text
	}
	return toNumber(n.Items[0])
}

// Lookup returns the value of the mapping m's own key, or nil.
func Lookup(m *yamljs.Node, key string) *yamljs.Node {
	for i := range m.Pairs {
		if m.Pairs[i].Key == key {
			return m.Pairs[i].Value
		}
	}
	return nil
}
