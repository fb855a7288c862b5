package yamljs

import "strconv"

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

	// The kinds below come only from the tags yaml knows beyond the core
	// schema (!!binary, !!timestamp, !!set, !!omap, !!merge) and from a
	// %YAML 1.1 document, where plain scalars may resolve to them.

	Bytes      // a Buffer (!!binary): Str holds its bytes
	Date       // a Date (!!timestamp): Num holds its time value, ms since 1970 UTC
	Set        // a Set (!!set): Items holds its members
	OrderedMap // a Map (!!omap): Pairs, each with its key as a value in KeyNode
	Symbol     // a Symbol (!!merge used as a value): Str holds its description
	// Undefined is JavaScript's undefined, which only a merge of a !!set
	// makes. Merging reads each member of the Set as a [key, value] pair.
	// A string of one character has no second.
	Undefined
)

// String returns the kind's name: "null", "bool", "number", "string",
// "array", "object", "Buffer", "Date", "Set", "Map", "symbol".
func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "bool"
	case Number:
		return "number"
	case String:
		return "string"
	case Seq:
		return "array"
	case Map:
		return "object"
	case Bytes:
		return "Buffer"
	case Date:
		return "Date"
	case Set:
		return "Set"
	case OrderedMap:
		return "Map"
	case Symbol:
		return "symbol"
	case Undefined:
		return "undefined"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Pos is a place in the source.
//
// Its numbers are int32: no text this package reads is longer than
// 1.5 GiB (see [Parse]).
type Pos struct {
	Offset int32 // 0-based byte offset
	Line   int32 // 1-based line
	Column int32 // 1-based column, counted in bytes
}

// newPos is the Pos of an offset, line and column of a text this package
// reads, which fit an int32 (see maxTextBytes).
func newPos(offset, line, column int) Pos {
	return Pos{Offset: int32(offset), Line: int32(line), Column: int32(column)}
}

func (p Pos) off() int  { return int(p.Offset) }
func (p Pos) line() int { return int(p.Line) }

// Style is how the source writes a scalar.
type Style uint8

// The scalar styles.
const (
	Plain Style = iota
	SingleQuoted
	DoubleQuoted
	Literal // "|"
	Folded  // ">"

	// noStyle is the type of a node that is not a scalar, which yaml's
	// string writer reads as plain.
	noStyle Style = 255
)

// Node is one value of the document, as JavaScript holds it.
//
// An alias is the node it names: the same *Node, as parse() returns the same
// object for it.
type Node struct {
	Kind  Kind    // what the value is: which of the fields below hold it
	Style Style   // a scalar's style; Plain for the others
	Bool  bool    // Bool
	Num   float64 // Number; Date
	Str   string  // String (a lone surrogate from a \u escape is in WTF-8); Symbol; Bytes
	Items []*Node // Seq; Set
	// Pairs are a Map's entries in JavaScript's own-key order. Keys that
	// are array indices ("0", "17") come first, in ascending numeric
	// order. The others follow in source order. Keys that name the same
	// property (1 and "1", or two collections written alike) make one
	// pair. It is at the first one's place, with the last one's value. An
	// OrderedMap's pairs are in source order.
	Pairs []Pair

	// Pos is where the node's own text starts. That is a scalar's first
	// byte (its quote or block indicator included), a flow collection's
	// bracket, or a block collection's first entry. For an implicit null
	// (an empty value), it is where the value would start.
	Pos Pos
	// End is where a scalar's source text ends (exclusive): the text is
	// src[Pos.Offset:End.Offset]. A quoted scalar's closing quote is
	// included. So are a block scalar's header and its lines through the
	// last line break, and with "+" chomping the blank lines it keeps. For
	// a collection, End is where yaml ends its value. That is a flow
	// collection's closing bracket, or the end of a block collection's
	// last entry. The comment and line break after that entry are
	// included.
	End Pos
}

// Pair is one entry of a Map.
type Pair struct {
	Key    string // the key as a JavaScript property name
	KeyPos Pos    // where the key's text starts; a merged key's, in the map it comes from
	// Value is the entry's value; a key written without one ("? a") has
	// a Null placed where the key ends.
	Value *Node
	// KeyNode is the key as a value, in an OrderedMap only; nil elsewhere.
	// A JavaScript Map's keys are values, not property names.
	KeyNode *Node
}
