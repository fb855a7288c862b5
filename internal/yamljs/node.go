// Package yamljs reads YAML as the npm package yaml (v2) reads it with
// parse() and its default options: one YAML 1.2 document, core schema, to
// the JavaScript value that parse() returns, with the position of every node.
package yamljs

// Kind is the JavaScript type a [Node] reads as.
type Kind uint8

// The kinds of a node.
const (
	Null   Kind = iota // null: "~", "null", an empty value, an empty document
	Bool               // true or false
	Number             // a JavaScript number: every int and float, ±Inf and NaN included
	String             // a string
	Seq                // an array
	Map                // a plain object
)

// Pos is a place in the source.
type Pos struct {
	Offset int // 0-based byte offset
	Line   int // 1-based line
	Column int // 1-based column, counted in bytes
}

// Style is how the source writes a scalar.
type Style uint8

// The scalar styles.
const (
	Plain Style = iota
	SingleQuoted
	DoubleQuoted
	Literal // "|"
	Folded  // ">"
)

// Node is one value of the document, as JavaScript holds it.
//
// An alias is the node it names: the same *Node, as parse() returns the same
// object for it.
type Node struct {
	Kind  Kind
	Bool  bool    // Bool
	Num   float64 // Number
	Str   string  // String
	Items []*Node // Seq
	// Pairs are a Map's entries in JavaScript's own-key order: the keys
	// that are array indices ("0", "17") first, in ascending numeric order,
	// then the others in source order.
	Pairs []Pair

	// Pos is where the node's own text starts: a scalar's first byte (its
	// quote or block indicator included), a flow collection's bracket, a
	// block collection's first entry. For an implicit null (an empty
	// value) it is where the value would start.
	Pos Pos
	// End is where a scalar's source text ends (exclusive), so that the
	// text is src[Pos.Offset:End.Offset]. For a collection it is the end
	// of its last entry.
	End   Pos
	Style Style // a scalar's style; Plain for the others
}

// Pair is one entry of a Map.
type Pair struct {
	Key    string // the key as a JavaScript property name
	KeyPos Pos    // where the key's text starts
	Value  *Node
}
