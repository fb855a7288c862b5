// Package yamljs reads YAML as the KiCI orchestrator reads its scaler
// config: as the npm package yaml 2.9.1 reads a file with
// fs.readFile(path, 'utf-8') and parse(text), default options. [Parse]
// returns the JavaScript value parse() returns, as a tree of [Node] with
// the byte position of every value and key, or the [*SyntaxError] listing
// every problem yaml reports when parse() throws.
//
// # What parse() reads
//
// One YAML 1.2 document (a second one is an error, MULTIPLE_DOCS) with the
// core schema, plain scalars resolving as
//
//	null     ~  null  Null  NULL  (empty)
//	bool     true  True  TRUE  false  False  FALSE
//	int      [-+]?[0-9]+  0o[0-7]+  0x[0-9a-fA-F]+   (017 is 17; past 2^53 rounded)
//	float    [-+]?(\.[0-9]+|[0-9]+\.[0-9]*)([eE][-+]?[0-9]+)?  [-+]?[0-9]+[eE][-+]?[0-9]+
//	         [-+]?(.inf|.Inf|.INF)  .nan  .NaN  .NAN
//	string   everything else: yes, no, on, off, y, n, 0b1, 1_000, 2001-12-14
//
// Keys must be unique as yaml compares them (null and ~ collide, 1 and 01
// collide, 1 and "1" do not); "<<" is an ordinary key; tabs may not indent.
// A key that is not a string becomes a property name as JavaScript makes it:
// null is "", numbers as String() writes them, a collection by its YAML text
// in flow style ("[ a, b ]"). Aliases are the same Node as their anchor,
// cycles included, and expanding them is limited as yaml limits it (100
// values per anchor: "Excessive alias count"). Explicit tags resolve as in
// yaml, its extra ones too: !!binary, !!timestamp, !!set, !!omap, !!pairs
// and !!merge (which merges maps in a 1.2 document); a %YAML 1.1 directive
// switches to yaml's 1.1 schema (yes/no booleans, base 2/8/60 ints,
// timestamps, merge keys). A merge reads its sources one after another,
// each into a JavaScript Map, in time linear in their size; a !!set merged
// is read, as yaml reads it, as a Set whose members are [key, value]
// pairs (a string's first two characters, an array's first two items, the
// second [Undefined] when there is none).
//
// # How
//
// The package is a port of yaml's own reader (ISC licence, see
// LICENSE.yaml): its lexer and parser, which build a syntax tree keeping
// every source byte; its composer, which resolves the schema and reports
// each problem with yaml's code and message; its conversion to JavaScript
// values; and the part of its stringifier that names collection keys. It
// was chosen by measuring Go libraries on the corpus in testdata (cases
// written by the npm package itself, see testdata/gen). A case differs when
// the library accepts what yaml refuses, refuses what yaml accepts, or
// reads another value; on the first corpus (379 cases) and on a later one
// (2,523, of which 2,000 generated):
//
//	library                            cases  differ  accepts  refuses  value
//	go.yaml.in/yaml/v3 v3.0.6            379     115       20       39     56
//	                                    2523     408       44      144    220
//	github.com/goccy/go-yaml v1.19.2     379     137       31       57     49
//	                                    2523     750      204      180    366
//	github.com/pb33f/go-yaml v0.1.1      379     114       23       36     55
//	                                    2523     355       47      123    185
//	this package                        2523       0        0        0      0
//
// Today the corpus (testdata/corpus.json, 2,563 cases) is joined by a random
// one (testdata/random.jsonl.gz: 60,000 cases, documents in every style
// yaml reads and mutants of them, from one seed of testdata/gen/random.js),
// and this package reads every case of both as yaml does.
//
// None of the three gives yaml's messages or exact byte extents: yaml/v3
// and its pb33f fork give a line and a column counted in characters, no
// offset and no end; goccy gives offsets and columns counted in runes,
// token extents that take in the white space around them, and reads a BOM
// into the first key.
//
// # Where this package and yaml part
//
// Each difference is handled in code and pinned by a corpus case or test:
//
//   - yaml counts UTF-16 code units, this package bytes: a Pos is a byte
//     offset, a line, and a column in bytes. Where yaml's arithmetic on
//     offsets shows through (the lexer's look at the code unit after the
//     current one, error extents computed from lengths, a length added to
//     an offset the token does not start at) it is done in code units, as
//     yaml does; an offset yaml's arithmetic leaves between the two code
//     units of a character is carried on between them, and reported at
//     the character's end.
//   - Bytes that are not UTF-8 read as U+FFFD, each maximal invalid run
//     one, as Node's decoder reads them; positions stay those of the file.
//   - A JavaScript string may hold a lone surrogate ("\ud800"); a Go
//     string holds it in WTF-8 (the bytes UTF-8 would give it).
//   - yaml refuses nesting where JavaScript's stack ends, which depends on
//     the caller's stack and on V8's optimisation, not on the document
//     alone: under Node v20.20.2's default stack, a fresh process reads at
//     most 785 (flow collections, from an ES module) to 953 levels (block
//     sequences), and 1,836 to 2,122 once yaml's code is optimised
//     (testdata/gen/depth.js measures it). This package refuses nesting
//     past [MaxDepth] (3,000) levels, where node certainly throws, with
//     yaml's RESOURCE_EXHAUSTION at the opening past it, and reads no
//     further: the problems yaml reports before that opening are kept,
//     those it would report after it are not.
//   - What parse() throws while it builds the value (an unresolved alias,
//     the alias limit, a bad merge source, an !!omap key twice, the
//     TypeErrors of a !!timestamp key whose value is no Date or of a
//     !!set merged whose member is not iterable) has no code or position
//     in yaml; here it has a [Code] of this package and the position of
//     the node that threw.
//   - A Date's string form (a !!timestamp key) is in UTC.
//   - A [Problem]'s message is yaml's without the " at line L, column C:"
//     and the excerpt its prettyErrors adds; [SyntaxError].Thrown has the
//     whole message parse() throws, as yaml counts its lines and columns.
//     Warnings, which parse() only logs, are not reported.
//
// # Files
//
// Each file ports the upstream files beside it (yaml 2.9.1's src/, as its
// dist/ ships them), keeping their functions whole and in their order so
// that a reader can hold the two side by side:
//
//	lexer.go         parse/lexer.ts                the lexical tokens
//	parser.go        parse/parser.ts, parse/cst.ts the syntax tree
//	compose.go       compose/composer.ts, compose-doc.ts, compose-node.ts,
//	                 util-empty-scalar-position.ts, util-contains-newline.ts
//	collections.go   compose/compose-collection.ts, resolve-block-map.ts,
//	                 resolve-block-seq.ts, resolve-flow-collection.ts,
//	                 util-map-includes.ts, util-flow-indent-check.ts
//	scalars.go       compose/compose-scalar.ts, resolve-flow-scalar.ts,
//	                 resolve-block-scalar.ts
//	props.go         compose/resolve-props.ts, resolve-end.ts
//	directives.go    doc/directives.ts
//	schema.go        schema/Schema.ts, schema/tags.ts, schema/common/*,
//	                 schema/core/*
//	tags.go          schema/yaml-1.1/binary.ts, omap.ts, pairs.ts,
//	                 set.ts, timestamp.ts, merge.ts (the tags)
//	tagstr.go        schema/core/*, schema/yaml-1.1/bool.ts, int.ts,
//	                 float.ts (their stringify), schema/yaml-1.1/schema.ts
//	match11.go       the regular expressions of schema/yaml-1.1/*.ts,
//	                 written out
//	tojs.go          nodes/toJS.ts, nodes/addPairToJSMap.ts,
//	                 nodes/Alias.ts (toJS and the alias count)
//	merge.go         schema/yaml-1.1/merge.ts, set.ts and omap.ts toJSON
//	stringify.go     stringify/stringify.ts, stringifyCollection.ts,
//	                 stringifyPair.ts (a collection key's property name)
//	stringstr.go     stringify/stringifyString.ts, foldFlowLines.ts
//	numfmt.go        JavaScript's Number.prototype.toString
//	pretty.go        errors.ts (prettifyError), parse/line-counter.ts
//	errors.go        errors.ts (the codes), this package's own codes
//	text.go          Node's UTF-8 decoding (fs.readFile(path, 'utf-8'))
//	node.go, parse.go, slab.go, split.go, count.go, joined.go
//	                 this package's own: the value tree, the entry
//	                 points, memory reuse, reading part by part,
//	                 counting entries before a read, a string built
//	                 piece by piece in linear time
//
// bench/README.md has how fast it reads beside go.yaml.in/yaml/v3.
//
// # Reading a large text part by part
//
// yaml composes a document once its syntax tree is whole, and Parse does
// the same: tens of times the text's size at once. [SplitItems] finds the
// items of a root key's block list with yaml's own lexer, in a plain form
// (no anchor, alias, tag, directive or document marker) where each part
// reads on its own as it reads in the whole text; [ParseRange] reads an
// item, or a run of items, and [ParseWithout] the text without them, with
// the whole text's positions; a [Reader] reads part after part in the
// memory of one. A reader of parts must read the whole text when a part
// does not parse: the first error may be elsewhere. scalerconfig reads a
// scaler config by groups of scalers this way; split_test.go holds the
// parts to the whole text on the corpus and by fuzzing.
package yamljs
