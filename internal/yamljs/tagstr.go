package yamljs

import (
	"math"
	"math/big"
	"regexp"
	"strings"

	"github.com/kicikit/kicikit/internal/jsstr"
)

// How yaml's tags write their scalars, and the YAML 1.1 schema.

func isBoolValue(v scalarValue) bool   { return v.kind == Bool }
func isNumberValue(v scalarValue) bool { return v.kind == Number }

func isIntValue(v scalarValue) bool {
	return v.kind == Number && !math.IsInf(v.num, 0) && v.num == math.Trunc(v.num)
}

func isNonNegInt(v scalarValue) bool { return isIntValue(v) && v.num >= 0 }

// jsTruthy is a scalar value's truthiness in JavaScript.
func jsTruthy(v scalarValue) bool {
	switch v.kind {
	case Null, Undefined:
		return false
	case Bool:
		return v.b
	case Number:
		return v.num != 0 && !math.IsNaN(v.num)
	case String:
		return v.str != ""
	}
	return true
}

// coreBoolStringify writes a bool as its source when that reads as the
// same value, else "true" or "false".
func coreBoolStringify(_ *converter, n *ynode, _ *strCtx) string {
	v := jsTruthy(n.val())
	if n.text() != "" && isCoreBool(n.text()) {
		if sv := n.text()[0] == 't' || n.text()[0] == 'T'; sv == v && n.Kind == Bool {
			return n.text()
		}
	}
	if v {
		return "true"
	}
	return "false"
}

// bool11Stringify is the 1.1 schema's: the source when the tag of the
// value's truth tests it.
func bool11Stringify(isTrue, isFalse func(string) bool) func(*converter, *ynode, *strCtx) string {
	return func(_ *converter, n *ynode, _ *strCtx) string {
		v := jsTruthy(n.val())
		test := isFalse
		if v {
			test = isTrue
		}
		if n.text() != "" && test(n.text()) {
			return n.text()
		}
		if v {
			return "true"
		}
		return "false"
	}
}

// numberOf is Number() of a scalar's value.
func numberOf(v scalarValue) float64 {
	switch v.kind {
	case Number:
		return v.num
	case String:
		return jsNumber(v.str)
	case Bool:
		if v.b {
			return 1
		}
		return 0
	case Null:
		return 0
	case Date:
		return v.num
	}
	return math.NaN()
}

// stringifyNumber is yaml's stringifyNumber.
func stringifyNumber(_ *converter, n *ynode, _ *strCtx) string {
	num := numberOf(n.val())
	switch {
	case math.IsNaN(num):
		return ".nan"
	case math.IsInf(num, 1):
		return ".inf"
	case math.IsInf(num, -1):
		return "-.inf"
	}
	var s string
	switch {
	case n.Kind == Number && n.Num == 0 && math.Signbit(n.Num):
		s = "-0"
	case n.Kind == Number:
		s = NumberString(n.Num)
	case n.Kind == String:
		s = jsonString(n.Str)
	case n.Kind == Bool:
		s = scalarString(n.val())
	default:
		s = "null"
	}
	if n.format == "" && n.minFrac > 0 && (n.tag == "" || n.tag == tagFloat) &&
		(isDec(s[0]) || (s[0] == '-' && len(s) > 1 && isDec(s[1]))) && !strings.Contains(s, "e") {
		i := strings.IndexByte(s, '.')
		if i < 0 {
			i = len(s)
			s += "."
		}
		for d := n.minFrac - (len(s) - i - 1); d > 0; d-- {
			s += "0"
		}
	}
	return s
}

func stringifyExp(cv *converter, n *ynode, ctx *strCtx) string {
	if num := numberOf(n.val()); !math.IsInf(num, 0) && !math.IsNaN(num) {
		return toExponential(num)
	}
	return stringifyNumber(cv, n, ctx)
}

// intStringify writes an integer in a radix with a prefix; yaml11 writes
// negative ones too, with the sign before the prefix.
func intStringify(radix int, prefix string, yaml11 bool) func(*converter, *ynode, *strCtx) string {
	return func(cv *converter, n *ynode, ctx *strCtx) string {
		v := n.val()
		if !isIntValue(v) || (!yaml11 && v.num < 0) {
			return stringifyNumber(cv, n, ctx)
		}
		i, _ := big.NewFloat(v.num).Int(nil)
		str := i.Text(radix)
		if v.num < 0 {
			return "-" + prefix + str[1:]
		}
		return prefix + str
	}
}

// tagObject is yaml's getTagObject for a scalar: the tag that writes it.
// A named tag the schema has writes it (the one of its format first);
// else the tags that identify its value do, those with a test first.
func (s *schema) tagObject(n *ynode) *tagDef {
	if n.tag != "" {
		if t := s.tagNamed(n.tag, n.format); t != nil {
			return t
		}
	}
	var match, withTest []*tagDef
	for _, t := range s.tags {
		if t.identify != nil && t.identify(n.val()) {
			match = append(match, t)
			if t.test != nil {
				withTest = append(withTest, t)
			}
		}
	}
	if len(match) > 1 && len(withTest) > 0 {
		match = withTest
	}
	return pickFormat(match, n.format)
}

// tagNamed is the schema's tag of that name and format, or the first of
// that name.
func (s *schema) tagNamed(name, format string) *tagDef {
	var named []*tagDef
	for _, t := range s.tags {
		if t.tag == name {
			named = append(named, t)
		}
	}
	if t := pickFormat(named, format); t != nil && t.format == format {
		return t
	}
	if len(named) > 0 {
		return named[0]
	}
	return nil
}

// pickFormat is the first tag of the format, else the first without one.
func pickFormat(tags []*tagDef, format string) *tagDef {
	for _, t := range tags {
		if t.format == format {
			return t
		}
	}
	for _, t := range tags {
		if t.format == "" {
			return t
		}
	}
	return nil
}

// stringifyScalar writes a scalar with the tag that writes it.
func (cv *converter) stringifyScalar(n *ynode, ctx *strCtx) (string, *jsError) {
	t := cv.doc.schema.tagObject(n)
	if t != nil && t.stringify != nil {
		return t.stringify(cv, n, ctx)
	}
	return cv.stringifyString(scalarString(n.val()), n.Style, ctx), nil
}

// stringifyTaggedCollection writes a collection whose tag names a scalar
// tag of the schema, as yaml's getTagObject finds it: with that tag's
// stringify, given the collection, whose value is undefined. It is false
// for a collection any other tag writes, or none.
func (cv *converter) stringifyTaggedCollection(n *ynode, ctx *strCtx) (string, bool, *jsError) {
	if n.tag == "" {
		return "", false, nil
	}
	t := cv.doc.schema.tagNamed(n.tag, "")
	if t == nil || t.stringify == nil {
		return "", false, nil
	}
	item := &ynode{kind: yScalar, Node: Node{Kind: Undefined, Style: noStyle}, yext: &yext{tag: n.tag}}
	str, err := t.stringify(cv, item, ctx)
	if err != nil && err.at == item {
		err.at = n
	}
	return str, true, err
}

// yaml11Schema is yaml's YAML 1.1 schema: more bools, ints in base 2, 8
// and 60 with "_", timestamps and merge keys by default.
//
//kicikit:long a table of the schema's tags, one entry each
func yaml11Schema() *schema {
	str := strTag()
	isTrue, isFalse := isTrue11, isFalse11
	boolStr := bool11Stringify(isTrue, isFalse)
	intRes := func(off, radix int) func(string) (scalarValue, int, string) {
		return func(s string) (scalarValue, int, string) {
			return scalarValue{kind: Number, num: intResolve11(s, off, radix)}, 0, ""
		}
	}
	sexagesimal := func(s string) (scalarValue, int, string) {
		return scalarValue{kind: Number, num: parseSexagesimal(s)}, 0, ""
	}
	ts := timestampTag()
	tags := append(collectionTags(), str, nullTag(),
		&tagDef{tag: tagBool, def: defTrue, test: isTrue, identify: func(v scalarValue) bool { return v.kind == Bool && v.b },
			resolve: func(string) (scalarValue, int, string) { return scalarValue{kind: Bool, b: true}, 0, "" }, stringify: noThrow(boolStr)},
		&tagDef{tag: tagBool, def: defTrue, test: isFalse, identify: func(v scalarValue) bool { return v.kind == Bool && !v.b },
			resolve: func(string) (scalarValue, int, string) { return scalarValue{kind: Bool}, 0, "" }, stringify: noThrow(boolStr)},
		&tagDef{tag: tagInt, def: defTrue, format: "BIN", test: isBin11, resolve: intRes(2, 2),
			identify: isIntValue, stringify: noThrow(intStringify(2, "0b", true))},
		&tagDef{tag: tagInt, def: defTrue, format: "OCT", test: isOct11, resolve: intRes(1, 8),
			identify: isIntValue, stringify: noThrow(intStringify(8, "0", true))},
		&tagDef{tag: tagInt, def: defTrue, test: isInt11, resolve: intRes(0, 10),
			identify: isIntValue, stringify: noThrow(stringifyNumber)},
		&tagDef{tag: tagInt, def: defTrue, format: "HEX", test: isHex11, resolve: intRes(2, 16),
			identify: isIntValue, stringify: noThrow(intStringify(16, "0x", true))},
		&tagDef{tag: tagFloat, def: defTrue, test: isNaNInf, resolve: resolveNaNInf,
			identify: isNumberValue, stringify: noThrow(stringifyNumber)},
		&tagDef{tag: tagFloat, def: defTrue, format: "EXP", test: isExp11,
			resolve: func(s string) (scalarValue, int, string) {
				return scalarValue{kind: Number, num: parseFloatPrefix(strings.ReplaceAll(s, "_", ""))}, 0, ""
			},
			identify: isNumberValue, stringify: noThrow(stringifyExp)},
		&tagDef{tag: tagFloat, def: defTrue, test: isFloat11, resolve: resolveFloat11,
			identify: isNumberValue, stringify: noThrow(stringifyNumber)},
		binaryTag(), mergeTag(), omapTag(), pairsTag(), setTag(),
		&tagDef{tag: tagInt, def: defTrue, format: "TIME", test: isTimeInt11,
			resolve: sexagesimal, identify: isIntValue, stringify: noThrow(stringifySexagesimal)},
		&tagDef{tag: tagFloat, def: defTrue, format: "TIME", test: isTimeFloat11,
			resolve: sexagesimal, identify: isNumberValue, stringify: noThrow(stringifySexagesimal)},
		ts,
	)
	return &schema{tags: tags, str: str, knownTags: map[string]*tagDef{}, merge: true}
}

// intResolve11 is yaml's 1.1 int resolve: sign, prefix, "_" dropped, then
// parseInt (NaN for no digits).
func intResolve11(s string, off, radix int) float64 {
	sign := s[0]
	if sign == '-' || sign == '+' {
		off++
	}
	digits := strings.ReplaceAll(s[off:], "_", "")
	if digits == "" {
		return math.NaN()
	}
	n := parseIntJS(digits, radix)
	if sign == '-' {
		return -n
	}
	return n
}

func resolveFloat11(s string) (scalarValue, int, string) {
	minFrac := 0
	if dot := strings.IndexByte(s, '.'); dot != -1 {
		f := strings.ReplaceAll(s[dot+1:], "_", "")
		if strings.HasSuffix(f, "0") {
			minFrac = len(f)
		}
	}
	return scalarValue{kind: Number, num: parseFloatPrefix(strings.ReplaceAll(s, "_", ""))}, minFrac, ""
}

// parseFloatPrefix is JavaScript's parseFloat: the longest prefix that is
// a decimal number, NaN for none.
func parseFloatPrefix(s string) float64 {
	s = jsstr.Trim(s)
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if strings.HasPrefix(s[i:], "Infinity") {
		if s[0] == '-' {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	digits := 0
	for i < len(s) && isDec(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDec(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return math.NaN()
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDec(s[j]) {
			for j < len(s) && isDec(s[j]) {
				j++
			}
			i = j
		}
	}
	return parseFloatJS(strings.TrimSuffix(s[:i], "."))
}

// stringifySexagesimal writes a number in base 60, as yaml's 1.1 schema.
func stringifySexagesimal(cv *converter, n *ynode, ctx *strCtx) string {
	value := numberOf(n.val())
	if math.IsNaN(value) || math.IsInf(value, 0) {
		return stringifyNumber(cv, n, ctx)
	}
	sign := ""
	if value < 0 {
		sign = "-"
		value = -value
	}
	parts := []float64{math.Mod(value, 60)}
	if value < 60 {
		parts = append([]float64{0}, parts...)
	} else {
		value = (value - parts[0]) / 60
		parts = append([]float64{math.Mod(value, 60)}, parts...)
		if value >= 60 {
			value = (value - parts[0]) / 60
			parts = append([]float64{value}, parts...)
		}
	}
	strs := make([]string, len(parts))
	for i, p := range parts {
		s := NumberString(p)
		if len(s) < 2 {
			s = strings.Repeat("0", 2-len(s)) + s
		}
		strs[i] = s
	}
	out := strings.Join(strs, ":")
	if m := regexp.MustCompile(`000000\d*$`).FindStringIndex(out); m != nil {
		out = out[:m[0]]
	}
	return sign + out
}
