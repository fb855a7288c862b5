package yamljs

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// defKind is a tag's `default`: whether plain scalars resolve to it by its
// test, for keys only, or never.
type defKind uint8

const (
	defFalse defKind = iota
	defTrue
	defKey
)

// tagDef is one of yaml's tags: how a scalar or collection with it reads.
type tagDef struct {
	tag        string
	collection string // "map", "seq", or "" for a scalar tag
	def        defKind
	format     string
	test       func(string) bool
	// resolve returns the scalar's value and its fraction digits (floats),
	// or the message of what resolving throws.
	resolve     func(string) (scalarValue, int, string)
	resolveColl func(*ynode, func(string))
	collClass   collKind
	// identify tells whether a value is of this tag, stringify writes a
	// node of it (the error is what yaml's throws); nil stringify writes a
	// scalar as a string.
	identify  func(scalarValue) bool
	stringify stringifier
}

// stringifier is a tag's stringify.
type stringifier func(cv *converter, n *ynode, ctx *strCtx) (string, *jsError)

// noThrow is a tag's stringify that never throws.
func noThrow(f func(cv *converter, n *ynode, ctx *strCtx) string) stringifier {
	return func(cv *converter, n *ynode, ctx *strCtx) (string, *jsError) {
		return f(cv, n, ctx), nil
	}
}

// schema is a set of tags: the core schema of YAML 1.2, or yaml's 1.1
// schema under a %YAML 1.1 directive.
type schema struct {
	core      bool // the core schema, whose tags' tests all need coreStart
	tags      []*tagDef
	str       *tagDef
	knownTags map[string]*tagDef
	merge     bool // "<<" is a merge key
}

func (s *schema) collectionTag(name, expType string) *tagDef {
	for _, t := range s.tags {
		if t.tag == name && t.collection == expType {
			return t
		}
	}
	return nil
}

// tagByTest is the first default tag whose test matches value, else !!str.
func (s *schema) tagByTest(value string, atKey bool) *tagDef {
	if s.core && value != "" && !coreStart(value[0]) {
		return s.str // no core tag but !!str matches: a quick answer for most strings
	}
	for _, t := range s.tags {
		if (t.def == defTrue || (atKey && t.def == defKey)) && t.test != nil && t.test(value) {
			return t
		}
	}
	return s.str
}

// schemaFor returns the schema a document with these directives reads with.
func schemaFor(d *directives) *schema {
	if d.version == "1.1" {
		return yaml11Schema()
	}
	return coreSchema()
}

func strTag() *tagDef {
	return &tagDef{tag: tagStr, def: defTrue,
		resolve: func(s string) (scalarValue, int, string) {
			return scalarValue{kind: String, str: s}, 0, ""
		},
		identify: func(v scalarValue) bool { return v.kind == String },
		stringify: noThrow(func(cv *converter, n *ynode, ctx *strCtx) string {
			c := *ctx
			c.actualString = true
			return cv.stringifyString(scalarString(n.val()), n.Style, &c)
		}),
	}
}

func nullTag() *tagDef {
	return &tagDef{tag: "tag:yaml.org,2002:null", def: defTrue, test: isNullString,
		resolve:  func(string) (scalarValue, int, string) { return scalarValue{kind: Null}, 0, "" },
		identify: func(v scalarValue) bool { return v.kind == Null },
		stringify: noThrow(func(_ *converter, n *ynode, _ *strCtx) string {
			// A collection has no source.
			if n.Kind != Undefined && isNullString(n.text()) {
				return n.text()
			}
			return "null"
		}),
	}
}

func isNullString(s string) bool {
	return s == "" || s == "~" || s == "null" || s == "Null" || s == "NULL"
}

func collectionTags() []*tagDef {
	return []*tagDef{
		{tag: tagMap, collection: "map", def: defTrue},
		{tag: tagSeq, collection: "seq", def: defTrue},
	}
}

func coreSchema() *schema {
	str := strTag()
	intRes := func(off, radix int) func(string) (scalarValue, int, string) {
		return func(s string) (scalarValue, int, string) {
			return scalarValue{kind: Number, num: parseIntJS(s[off:], radix)}, 0, ""
		}
	}
	tags := append(collectionTags(), str, nullTag(),
		&tagDef{tag: tagBool, def: defTrue, test: isCoreBool,
			resolve: func(s string) (scalarValue, int, string) {
				return scalarValue{kind: Bool, b: s[0] == 't' || s[0] == 'T'}, 0, ""
			},
			identify:  isBoolValue,
			stringify: noThrow(coreBoolStringify),
		},
		&tagDef{tag: tagInt, def: defTrue, format: "OCT", test: isCoreOct, resolve: intRes(2, 8),
			identify: isNonNegInt, stringify: noThrow(intStringify(8, "0o", false))},
		&tagDef{tag: tagInt, def: defTrue, test: isCoreInt, resolve: intRes(0, 10),
			identify: isIntValue, stringify: noThrow(stringifyNumber)},
		&tagDef{tag: tagInt, def: defTrue, format: "HEX", test: isCoreHex, resolve: intRes(2, 16),
			identify: isNonNegInt, stringify: noThrow(intStringify(16, "0x", false))},
		&tagDef{tag: tagFloat, def: defTrue, test: isNaNInf, resolve: resolveNaNInf,
			identify: isNumberValue, stringify: noThrow(stringifyNumber)},
		&tagDef{tag: tagFloat, def: defTrue, format: "EXP", test: isCoreExp, resolve: resolveFloat(false),
			identify: isNumberValue, stringify: noThrow(stringifyExp)},
		&tagDef{tag: tagFloat, def: defTrue, test: isCoreFloat, resolve: resolveFloat(true),
			identify: isNumberValue, stringify: noThrow(stringifyNumber)},
	)
	return &schema{core: true, tags: tags, str: str, knownTags: knownTags()}
}

// coreStart reports whether a plain scalar starting with c may match a core
// schema test other than !!str's: null, bool, int or float.
func coreStart(c byte) bool {
	switch c {
	case '~', 'n', 'N', 't', 'T', 'f', 'F', '+', '-', '.':
		return true
	}
	return isDec(c)
}

const (
	tagBool  = "tag:yaml.org,2002:bool"
	tagInt   = "tag:yaml.org,2002:int"
	tagFloat = "tag:yaml.org,2002:float"
)

func isCoreBool(s string) bool {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return true
	}
	return false
}

func isDigits(s string, ok func(byte) bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func isDec(c byte) bool { return c >= '0' && c <= '9' }
func isOct(c byte) bool { return c >= '0' && c <= '7' }
func isHex(c byte) bool { return isHexDigit(int(c)) }

func trimSign(s string) string {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		return s[1:]
	}
	return s
}

func isCoreOct(s string) bool { return strings.HasPrefix(s, "0o") && isDigits(s[2:], isOct) }
func isCoreInt(s string) bool { return isDigits(trimSign(s), isDec) }
func isCoreHex(s string) bool { return strings.HasPrefix(s, "0x") && isDigits(s[2:], isHex) }

func isNaNInf(s string) bool {
	switch s {
	case ".nan", ".NaN", ".NAN":
		return true
	}
	switch trimSign(s) {
	case ".inf", ".Inf", ".INF":
		return true
	}
	return false
}

func resolveNaNInf(s string) (scalarValue, int, string) {
	v := math.Inf(1)
	switch {
	case strings.EqualFold(s[len(s)-3:], "nan"):
		v = math.NaN()
	case s[0] == '-':
		v = math.Inf(-1)
	}
	return scalarValue{kind: Number, num: v}, 0, ""
}

// isCoreExp is /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.
func isCoreExp(s string) bool {
	e := strings.IndexAny(s, "eE")
	if e < 0 || !isDigits(trimSign(s[e+1:]), isDec) {
		return false
	}
	return isCoreMantissa(trimSign(s[:e]), true)
}

// isCoreFloat is /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.
func isCoreFloat(s string) bool { return isCoreMantissa(trimSign(s), false) }

// isCoreMantissa matches \.[0-9]+ or [0-9]+\.[0-9]*, and [0-9]+ too when
// the dot is optional.
func isCoreMantissa(m string, dotOptional bool) bool {
	dot := strings.IndexByte(m, '.')
	if dot < 0 {
		return dotOptional && isDigits(m, isDec)
	}
	intPart, frac := m[:dot], m[dot+1:]
	if intPart == "" {
		return isDigits(frac, isDec)
	}
	return isDigits(intPart, isDec) && (frac == "" || isDigits(frac, isDec))
}

// resolveFloat is parseFloat; a float whose source ends in 0 after a dot
// keeps its number of fraction digits, which stringifying it shows.
func resolveFloat(fracDigits bool) func(string) (scalarValue, int, string) {
	return func(s string) (scalarValue, int, string) {
		minFrac := 0
		if dot := strings.IndexByte(s, '.'); fracDigits && dot != -1 && s[len(s)-1] == '0' {
			minFrac = len(s) - dot - 1
		}
		return scalarValue{kind: Number, num: parseFloatJS(s)}, minFrac, ""
	}
}

// parseFloatJS is JavaScript's parseFloat of a string that is a decimal
// float as yaml's tests accept it: correctly rounded, overflow to infinity.
func parseFloatJS(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRangeErr(err) {
		return math.NaN()
	}
	return f
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// parseIntJS is JavaScript's parseInt(s, radix) of a string of digits with
// an optional sign: the nearest float64, ties to even.
func parseIntJS(s string, radix int) float64 {
	neg := strings.HasPrefix(s, "-")
	digits := trimSign(s)
	var f float64
	if radix == 10 {
		f = parseFloatJS(digits)
	} else {
		var n big.Int
		n.SetString(digits, radix)
		f, _ = new(big.Float).SetInt(&n).Float64()
	}
	if neg {
		return -f
	}
	return f
}
