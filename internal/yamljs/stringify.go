package yamljs

import (
	"strings"

	"github.com/kicikit/kicikit/internal/jsstr"
)

// A JavaScript object cannot have an object as a property name, so yaml
// names the property of a key that is a collection (or a Date or Buffer)
// by the key's YAML text: the collection stringified in flow style, as
// yaml's stringifier writes it (its default options: 80 columns, two-space
// indent). Only what a flow context can reach is here.

const (
	lineWidth       = 80
	minContentWidth = 20
	indentStep      = "  "
)

// strCtx is yaml's stringify context. Copies share anchors, as JavaScript's
// Object.assign shares the Set.
type strCtx struct {
	anchors          map[string]bool
	doc              *document
	indent           string
	implicitKey      bool
	allNullValues    bool
	actualString     bool
	indentAtStart    int
	hasIndentAtStart bool
}

// stringifyObjectKey is yaml's stringifyKey for a key whose value is an
// object.
func (cv *converter) stringifyObjectKey(key *ynode, jsKey *Node) (string, *jsError) {
	switch key.kind {
	case yScalar:
		// Scalar.toString(): String() of its value.
		s, _ := jsString(jsKey, map[*Node]bool{})
		return s, nil
	}
	ctx := &strCtx{anchors: map[string]bool{}, doc: cv.doc}
	for _, n := range cv.order {
		ctx.anchors[n.anchor] = true
	}
	if key.kind == yAlias {
		return cv.aliasString(key, ctx)
	}
	return cv.collectionString(key, ctx)
}

func (cv *converter) aliasString(n *ynode, ctx *strCtx) (string, *jsError) {
	if !anchorIsValid(n.alias) {
		return "", &jsError{at: n, code: ErrBadAnchorName,
			message: "Anchor must not contain whitespace or control characters: " + jsonString(n.alias)}
	}
	if !ctx.anchors[n.alias] {
		return "", &jsError{at: n, code: ErrUnresolvedAlias,
			message: "Unresolved alias (the anchor must be set before the alias): " + n.alias}
	}
	// yaml writes "*a " as an implicit key, but an alias is always an
	// explicit key in a flow collection ("? *a").
	return "*" + n.alias, nil
}

// anchorIsValid is yaml's check of an anchor name it writes: no white
// space, control characters or flow indicators.
func anchorIsValid(name string) bool {
	for _, r := range name {
		if r <= 0x19 || jsstr.IsSpace(r) || strings.ContainsRune(",[]{}", r) {
			return false
		}
	}
	return true
}

// jsonString is JSON.stringify of a string.
func jsonString(s string) string { return jsstr.Stringify(s) }

func jsonQuote(s string) string { return jsonString(s) }

// stringify is yaml's stringify of a node (or a pair, through
// stringifyPair). In a flow context no scalar takes its comment along (only
// block scalars do), so yaml's onComment callbacks never fire here.
func (cv *converter) stringify(n *ynode, ctx *strCtx) (string, *jsError) {
	if n.kind == yAlias {
		return cv.aliasString(n, ctx)
	}
	props, err := cv.stringifyProps(n)
	if err != nil {
		return "", err
	}
	if props != "" {
		if n.anchor != "" {
			ctx.anchors[n.anchor] = true
		}
		ctx.indentAtStart += jsstr.UTF16Len(props) + 1
		ctx.hasIndentAtStart = true
	}
	var str string
	if n.kind == yScalar {
		str, err = cv.stringifyScalar(n, ctx)
	} else if s, ok, terr := cv.stringifyTaggedCollection(n, ctx); ok {
		str, err = s, terr
	} else {
		str, err = cv.collectionString(n, ctx)
	}
	if err != nil {
		return "", err
	}
	if props == "" {
		return str, nil
	}
	if n.kind == yScalar || strings.HasPrefix(str, "{") || strings.HasPrefix(str, "[") {
		return props + " " + str, nil
	}
	return props + "\n" + ctx.indent + str, nil
}

// stringifyProps writes a node's anchor and tag.
func (cv *converter) stringifyProps(n *ynode) (string, *jsError) {
	var props []string
	if n.anchor != "" {
		if !anchorIsValid(n.anchor) {
			return "", &jsError{at: n, code: ErrBadAnchorName,
				message: "Anchor must not contain whitespace or control characters: " + jsonString(n.anchor)}
		}
		props = append(props, "&"+n.anchor)
	}
	if n.tag != "" {
		props = append(props, cv.doc.directive.tagString(n.tag))
	}
	return strings.Join(props, " "), nil
}

// tagString writes a tag with the document's handles.
func (d *directives) tagString(tag string) string {
	for _, t := range d.tags {
		if strings.HasPrefix(tag, t.prefix) {
			return t.handle + escapeTagName(tag[len(t.prefix):])
		}
	}
	if strings.HasPrefix(tag, "!") {
		return tag
	}
	return "!<" + tag + ">"
}

func escapeTagName(s string) string {
	r := strings.NewReplacer("!", "%21", ",", "%2C", "[", "%5B", "]", "%5D", "{", "%7B", "}", "%7D")
	return r.Replace(s)
}

// collectionString is yaml's YAMLMap or YAMLSeq toString in a flow
// context.
func (cv *converter) collectionString(n *ynode, ctx *strCtx) (string, *jsError) {
	start, end := "[", "]"
	if n.kind == yMap {
		start, end = "{", "}"
		// YAMLSet's toString writes its items as all null, which a set's
		// are or it would be no set; YAMLMap's when they are.
		if !ctx.allNullValues && (n.coll == collSet || allNullValues(n)) {
			c := *ctx
			c.allNullValues = true
			ctx = &c
		}
	}
	return cv.flowCollection(n, ctx, start, end)
}

func allNullValues(n *ynode) bool {
	for _, p := range n.pairs {
		if p.value != nil {
			return false
		}
	}
	return true
}

// flowItem is an item of a collection being stringified: a node, or a pair.
type flowItem struct {
	node *ynode
	pair *ypair
}

func itemsOf(n *ynode) []flowItem {
	var items []flowItem
	if n.kind == yMap || n.coll == collOMap || n.coll == collPairs {
		for i := range n.pairs {
			items = append(items, flowItem{pair: &n.pairs[i]})
		}
		return items
	}
	for _, it := range n.items {
		items = append(items, flowItem{node: it})
	}
	return items
}

//kicikit:long yaml's stringifyFlowCollection: comments, separators and the choice of one line or many
func (cv *converter) flowCollection(n *ynode, ctx *strCtx, start, end string) (string, *jsError) {
	// yaml's sequences indent their items one step more than its maps
	// (their block items' "- " is inside the indent).
	itemIndent := ctx.indent + indentStep
	if start == "[" {
		itemIndent += indentStep
	}
	itemCtx := *ctx
	itemCtx.indent = itemIndent
	reqNewline := false
	linesAtValue := 0
	var lines []string
	items := itemsOf(n)
	for i, it := range items {
		comment := ""
		if it.node != nil {
			if it.node.is(spaceBefore) {
				lines = append(lines, "")
			}
			lines = addCommentBefore(ctx.indent, lines, it.node.commentBefore)
			comment = it.node.comment
		} else {
			ik, iv := it.pair.key, it.pair.value
			if ik.is(spaceBefore) {
				lines = append(lines, "")
			}
			lines = addCommentBefore(ctx.indent, lines, ik.commentBefore)
			if ik.comment != "" {
				reqNewline = true
			}
			if iv != nil {
				comment = iv.comment
				if iv.commentBefore != "" {
					reqNewline = true
				}
			} else {
				comment = ik.comment
			}
		}
		if comment != "" {
			reqNewline = true
		}
		var str string
		var err *jsError
		if it.node != nil {
			str, err = cv.stringify(it.node, &itemCtx)
		} else {
			str, err = cv.stringifyPair(*it.pair, &itemCtx)
		}
		if err != nil {
			return "", err
		}
		reqNewline = reqNewline || len(lines) > linesAtValue || strings.Contains(str, "\n")
		if i < len(items)-1 {
			str += ","
		}
		if comment != "" {
			str += lineComment(str, itemIndent, commentString(comment))
		}
		lines = append(lines, str)
		linesAtValue = len(lines)
	}
	if len(lines) == 0 {
		return start + end, nil
	}
	if !reqNewline {
		length := 2
		for _, l := range lines {
			length += jsstr.UTF16Len(l) + 2
		}
		reqNewline = length > lineWidth
	}
	if !reqNewline {
		return start + " " + strings.Join(lines, " ") + " " + end, nil
	}
	var b strings.Builder
	b.WriteString(start)
	for _, l := range lines {
		if l == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString("\n" + indentStep + ctx.indent + l)
	}
	b.WriteString("\n" + ctx.indent + end)
	return b.String(), nil
}

//kicikit:long yaml's stringifyPair, in a flow context: the key, the separator and the value with their comments
func (cv *converter) stringifyPair(p ypair, ctx *strCtx) (string, *jsError) {
	key, value := p.key, p.value
	keyComment := key.comment
	explicitKey := key.kind == yMap || key.kind == ySeq || key.kind == yAlias ||
		(key.kind == yScalar && (key.Style == Literal || key.Style == Folded))
	kctx := *ctx
	kctx.allNullValues = false
	kctx.implicitKey = !explicitKey && !ctx.allNullValues
	kctx.indent = ctx.indent + indentStep
	str, err := cv.stringify(key, &kctx)
	if err != nil {
		return "", err
	}
	if ctx.allNullValues || value == nil {
		switch {
		case str == "":
			return "?", nil
		case explicitKey:
			return "? " + str, nil
		}
		return str, nil
	}
	if explicitKey {
		if keyComment != "" {
			str += lineComment(str, kctx.indent, commentString(keyComment))
		}
		str = "? " + str + "\n" + ctx.indent + ":"
	} else {
		str += ":"
		if keyComment != "" {
			str += lineComment(str, kctx.indent, commentString(keyComment))
		}
	}
	vsb, vcb := value.is(spaceBefore), value.commentBefore
	kctx.implicitKey = false
	if !explicitKey && keyComment == "" && value.kind == yScalar {
		kctx.indentAtStart = jsstr.UTF16Len(str) + 1
		kctx.hasIndentAtStart = true
	}
	valueStr, err := cv.stringify(value, &kctx)
	if err != nil {
		return "", err
	}
	ws := " "
	switch {
	case keyComment != "" || vsb || vcb != "":
		ws = ""
		if vsb {
			ws = "\n"
		}
		if vcb != "" {
			ws += "\n" + indentComment(commentString(vcb), kctx.indent)
		}
		ws += "\n" + kctx.indent
	case !explicitKey && (value.kind == yMap || value.kind == ySeq):
		if strings.Contains(valueStr, "\n") && !hasPropsLine(valueStr) {
			ws = "\n" + kctx.indent
		}
	case valueStr == "" || strings.HasPrefix(valueStr, "\n"):
		ws = ""
	}
	return str + ws + valueStr, nil
}

// hasPropsLine reports whether a multi-line collection's text starts with
// its properties alone on their line.
func hasPropsLine(s string) bool {
	if s == "" || (s[0] != '&' && s[0] != '!') {
		return false
	}
	nl := strings.IndexByte(s, '\n')
	sp := strings.IndexByte(s, ' ')
	if s[0] == '&' && sp != -1 && sp < nl && sp+1 < len(s) && s[sp+1] == '!' {
		next := strings.IndexByte(s[sp+1:], ' ')
		if next == -1 {
			sp = -1
		} else {
			sp += 1 + next
		}
	}
	return sp == -1 || nl < sp
}

// commentString is yaml's stringifyComment: "#" before each line but empty
// ones, a line of one space made "#".
func commentString(s string) string {
	return mapJSLines(s, func(l string) string {
		switch l {
		case "":
			return l
		case " ":
			return "#"
		}
		return "#" + l
	})
}

func indentComment(comment, indent string) string {
	if strings.Trim(comment, "\n") == "" && comment != "" {
		return comment[1:]
	}
	if indent == "" {
		return comment
	}
	return mapJSLines(comment, func(l string) string {
		if strings.Trim(l, " ") != "" {
			return indent + l
		}
		return l
	})
}

// mapJSLines replaces each line of s as a JavaScript regular expression
// with the m flag sees lines: \n, \r, U+2028 and U+2029 each end one.
func mapJSLines(s string, f func(string) string) string {
	var b strings.Builder
	for {
		i, n := jsLineEnd(s)
		b.WriteString(f(s[:i]))
		if n == 0 {
			return b.String()
		}
		b.WriteString(s[i : i+n])
		s = s[i+n:]
	}
}

// jsLineEnd returns where the first JavaScript line terminator of s is and
// its length, or len(s) and 0.
func jsLineEnd(s string) (int, int) {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\n' || s[i] == '\r':
			return i, 1
		case strings.HasPrefix(s[i:], "\u2028") || strings.HasPrefix(s[i:], "\u2029"):
			return i, 3
		}
	}
	return len(s), 0
}

func lineComment(str, indent, comment string) string {
	switch {
	case strings.HasSuffix(str, "\n"):
		return indentComment(comment, indent)
	case strings.Contains(comment, "\n"):
		return "\n" + indentComment(comment, indent)
	case strings.HasSuffix(str, " "):
		return comment
	}
	return " " + comment
}

func addCommentBefore(indent string, lines []string, comment string) []string {
	if comment == "" {
		return lines
	}
	ic := indentComment(commentString(comment), indent)
	return append(lines, strings.TrimLeftFunc(ic, jsstr.IsSpace))
}
