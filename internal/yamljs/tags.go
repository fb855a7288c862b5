package yamljs

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/kicikit/kicikit/internal/jsstr"
)

// The tags yaml knows beyond the core schema's: those an explicit tag
// names in any document (!!binary, !!timestamp, !!set, !!omap, !!pairs,
// !!merge), and the YAML 1.1 schema's.

// knownTags are the tags the core schema resolves when a node names them.
func knownTags() map[string]*tagDef {
	m := map[string]*tagDef{}
	for _, t := range []*tagDef{binaryTag(), mergeTag(), omapTag(), pairsTag(), setTag(), timestampTag()} {
		m[t.tag] = t
	}
	return m
}

// use makes a known tag part of the schema, as yaml does the first time a
// node names it, so that stringifying finds it; it never resolves plain
// scalars.
func (s *schema) use(t *tagDef) {
	for _, have := range s.tags {
		if have.tag == t.tag && have.collection == t.collection && have.def == defFalse {
			return
		}
	}
	c := *t
	c.def = defFalse
	if c.collection == "" {
		c.test = nil
	}
	s.tags = append(s.tags, &c)
}

func binaryTag() *tagDef {
	return &tagDef{tag: "tag:yaml.org,2002:binary", def: defFalse,
		identify: func(v scalarValue) bool { return v.kind == Bytes },
		resolve: func(s string) (scalarValue, int, string) {
			return scalarValue{kind: Bytes, str: string(decodeBase64Node(s))}, 0, ""
		},
		stringify: noThrow(stringifyBinary),
	}
}

// decodeBase64Node is Node's Buffer.from(s, 'base64'): it reads the low
// byte of each UTF-16 code unit (so "Ľ", U+013D, reads as "="), skips the
// bytes outside the base64 and base64url alphabets, ends at "=", and a
// trailing partial group gives the bytes it holds.
func decodeBase64Node(s string) []byte {
	var b strings.Builder
	units := toUnits(s)
	for i := 0; i < len(units); i++ {
		c := byte(units[i])
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/':
			b.WriteByte(c)
		case c == '-':
			b.WriteByte('+')
		case c == '_':
			b.WriteByte('/')
		case c == '=':
			i = len(units)
		}
	}
	clean := b.String()
	if len(clean)%4 == 1 {
		clean = clean[:len(clean)-1]
	}
	out, _ := base64.RawStdEncoding.DecodeString(clean)
	return out
}

func mergeTag() *tagDef {
	return &tagDef{tag: tagMerge, def: defKey, test: func(s string) bool { return s == "<<" },
		identify: func(v scalarValue) bool {
			return (v.kind == String && v.str == "<<") || (v.kind == Symbol && v.str == "<<")
		},
		resolve: func(string) (scalarValue, int, string) {
			return scalarValue{kind: Symbol, str: "<<"}, 0, ""
		},
		stringify: noThrow(func(*converter, *ynode, *strCtx) string { return "<<" }),
	}
}

func setTag() *tagDef {
	return &tagDef{tag: "tag:yaml.org,2002:set", collection: "map", collClass: collSet,
		resolveColl: func(n *ynode, onError func(string)) {
			if n.kind != yMap {
				onError("Expected a mapping for this tag")
				return
			}
			for _, p := range n.pairs {
				v := p.value
				if v != nil && !(v.kind == yScalar && v.Kind == Null && v.commentBefore == "" && v.comment == "" && v.tag == "") {
					onError("Set items must all have null values")
					n.coll = collPlain
					return
				}
			}
		},
	}
}

func pairsTag() *tagDef {
	return &tagDef{tag: "tag:yaml.org,2002:pairs", collection: "seq", collClass: collPairs,
		resolveColl: func(n *ynode, onError func(string)) { resolvePairs(n, onError) }}
}

func omapTag() *tagDef {
	return &tagDef{tag: "tag:yaml.org,2002:omap", collection: "seq", collClass: collOMap,
		resolveColl: func(n *ynode, onError func(string)) {
			resolvePairs(n, onError)
			var seen []scalarValue
			for _, p := range n.pairs {
				if p.key.kind != yScalar {
					continue
				}
				v := p.key.val()
				dup := false
				for _, s := range seen {
					if sameValueZeroScalar(s, v) {
						dup = true
					}
				}
				if dup {
					onError("Ordered maps must not include duplicate keys: " + scalarString(v))
				} else {
					seen = append(seen, v)
				}
			}
		}}
}

// sameValueZeroScalar is SameValueZero of two scalar values; objects
// (Buffers, Dates) are never the same.
func sameValueZeroScalar(a, b scalarValue) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case Null:
		return true
	case Bool:
		return a.b == b.b
	case Number:
		return a.num == b.num || (a.num != a.num && b.num != b.num)
	case String:
		return a.str == b.str
	}
	return false
}

// scalarString is String() of a scalar's value.
func scalarString(v scalarValue) string {
	s, _ := jsString(&Node{Kind: v.kind, Bool: v.b, Num: v.num, Str: v.str}, nil)
	return s
}

// resolvePairs makes each item of a sequence a pair: a one-pair map its
// pair, anything else a key with no value.
func resolvePairs(n *ynode, onError func(string)) {
	if n.kind != ySeq {
		onError("Expected a sequence for this tag")
		return
	}
	pairs := make([]ypair, 0, len(n.items))
	for _, it := range n.items {
		if it.kind != yMap {
			pairs = append(pairs, ypair{key: it})
			continue
		}
		if len(it.pairs) > 1 {
			onError("Each pair must have its own sequence indicator")
		}
		pair := ypair{key: &ynode{kind: yScalar, rng: it.rng, Node: Node{Style: Plain}, yext: &yext{source: "null"}, flags: ownExt}}
		if len(it.pairs) > 0 {
			pair = it.pairs[0]
		}
		if it.commentBefore != "" {
			pair.key.ext().commentBefore = joinComment(it.commentBefore, pair.key.commentBefore)
		}
		if it.comment != "" {
			cn := pair.value
			if cn == nil {
				cn = pair.key
			}
			cn.ext().comment = joinComment(it.comment, cn.comment)
		}
		pairs = append(pairs, pair)
	}
	n.ext().items, n.pairs = nil, pairs
}

func timestampTag() *tagDef {
	match := matchTimestamp
	return &tagDef{tag: "tag:yaml.org,2002:timestamp", def: defTrue, test: func(s string) bool { return match(s) != nil },
		identify: func(v scalarValue) bool { return v.kind == Date },
		resolve: func(s string) (scalarValue, int, string) {
			m := match(s)
			if m == nil {
				return scalarValue{}, 0, "!!timestamp expects a date, starting with yyyy-mm-dd"
			}
			return scalarValue{kind: Date, num: timestampValue(m)}, 0, ""
		},
		stringify: func(_ *converter, n *ynode, _ *strCtx) (string, *jsError) {
			// yaml's `value?.toISOString().replace(…) ?? ''`.
			switch n.Kind {
			case Null, Undefined:
				return "", nil
			case Date:
				s := isoString(n.Num)
				s = strings.TrimSuffix(s, "T00:00:00.000Z")
				return strings.TrimSuffix(s, ".000Z"), nil
			}
			// A tagged scalar that did not resolve, whose value is a string.
			return "", &jsError{at: n, code: ErrTypeError, message: "value?.toISOString is not a function"}
		},
	}
}

// timestampValue is yaml's timestamp arithmetic on the regexp's groups.
func timestampValue(m []string) float64 {
	num := func(s string) float64 {
		if s == "" {
			return 0
		}
		f, _ := strconv.ParseFloat(s, 64)
		return f
	}
	millisec := 0.0
	if m[7] != "" {
		ms := (m[7] + "00")[1:4]
		millisec = num(ms)
	}
	date := dateUTC(num(m[1]), num(m[2])-1, num(m[3]), num(m[4]), num(m[5]), num(m[6]), millisec)
	if tz := m[8]; tz != "" && tz != "Z" {
		d := parseSexagesimal(tz)
		if math.Abs(d) < 30 {
			d *= 60
		}
		date -= 60000 * d
	}
	return date
}

// dateUTC is JavaScript's Date.UTC: a two-digit year is in the 1900s,
// fields overflow into the next, seconds may have a fraction.
func dateUTC(year, month, day, hour, minute, second, ms float64) float64 {
	if year >= 0 && year <= 99 {
		year += 1900
	}
	ym := year + math.Floor(month/12)
	mn := month - 12*math.Floor(month/12) // 0 to 11, as MakeDay takes it
	t := time.Date(int(ym), time.Month(int(mn)+1), 1, 0, 0, 0, 0, time.UTC)
	days := float64(t.Unix()/86400) + day - 1
	msOfDay := ((math.Trunc(hour)*60+math.Trunc(minute))*60+math.Trunc(second))*1000 + math.Trunc(ms)
	return days*86400000 + msOfDay
}

// parseSexagesimal reads [+-]a:b:c as ((a*60)+b)*60+c, "_" ignored.
func parseSexagesimal(s string) float64 {
	sign := s[0]
	if sign == '-' || sign == '+' {
		s = s[1:]
	}
	res := 0.0
	for _, p := range strings.Split(strings.ReplaceAll(s, "_", ""), ":") {
		res = res*60 + jsNumber(p)
	}
	if sign == '-' {
		return -res
	}
	return res
}

// isoString is Date.prototype.toISOString for a time value: a year past
// 9999 has six digits and a sign.
func isoString(ms float64) string {
	t := time.UnixMilli(int64(ms)).UTC()
	s := t.Format("-01-02T15:04:05.000Z")
	if y := t.Year(); y < 0 || y > 9999 {
		sign := "+"
		if y < 0 {
			sign, y = "-", -y
		}
		return sign + fmt.Sprintf("%06d", y) + s
	}
	return fmt.Sprintf("%04d", t.Year()) + s
}

// dateString is Date.prototype.toString, in UTC (the orchestrator's time
// zone is not known; a Date key is named by it).
func dateString(ms float64) string {
	t := time.UnixMilli(int64(ms)).UTC()
	return t.Format("Mon Jan 02 2006 15:04:05") + " GMT+0000 (Coordinated Universal Time)"
}

// stringifyBinary is yaml's binary stringify in a flow context: base64,
// quoted.
func stringifyBinary(cv *converter, n *ynode, ctx *strCtx) string {
	if n.Kind != Bytes {
		return ""
	}
	str := base64.StdEncoding.EncodeToString([]byte(n.Str))
	style := n.Style
	if style != DoubleQuoted {
		width := max(lineWidth-len(ctx.indent), minContentWidth)
		var lines []string
		for o := 0; o < len(str); o += width {
			lines = append(lines, str[o:min(o+width, len(str))])
		}
		sep := " "
		if style == Literal {
			sep = "\n"
		}
		str = strings.Join(lines, sep)
	}
	return cv.stringifyString(str, style, ctx)
}

// jsNumber is JavaScript's Number() of a string.
func jsNumber(s string) float64 { return jsstr.ToNumber(s) }
