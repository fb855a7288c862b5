// Package jsstr holds the JavaScript string rules that the orchestrator's
// code relies on. kicikit must match each, as node 20 applies it, and
// keeps each in one place here:
//
//   - white space, what String.prototype.trim removes and a regular
//     expression's \s matches (one set): [IsSpace], [SpaceLen], [Trim],
//     [TrimLeft];
//   - String.prototype.toLowerCase: [ToLower];
//   - Number() of a string: [ToNumber];
//   - JSON.stringify of a string: [Stringify];
//   - the default sort order of strings, by UTF-16 code units: [Compare];
//   - a string's length in UTF-16 code units: [UTF16Len], and
//     [UTF16Counter] for the text node decodes from a file's bytes.
//
// The tests hold each to node's own answers, kept in testdata/ with the
// node scripts that wrote them (testdata/gen/). So go test never needs
// node.
package jsstr
