package yamljs

import (
	"strings"
	"unicode/utf16"

	"github.com/kicikit/kicikit/internal/jsstr"
)

// The stringification of scalars, as yaml writes them inside a flow
// collection: plain when that reads back the same, else quoted; long
// lines folded at 80 columns.

// stringifyString is yaml's stringifyString for a scalar whose text is s.
func (cv *converter) stringifyString(s string, style Style, ctx *strCtx) string {
	if style != DoubleQuoted && needsDoubleQuotes(s) {
		style = DoubleQuoted
	}
	switch style {
	case DoubleQuoted:
		return doubleQuotedString(s, ctx)
	case SingleQuoted:
		return singleQuotedString(s, ctx)
	case Plain, noStyle:
		return cv.plainString(s, ctx)
	}
	return quotedString(s, ctx) // block scalars are not valid in flow collections
}

// needsDoubleQuotes reports whether s holds a control character or a lone
// surrogate, which only double quotes can write.
func needsDoubleQuotes(s string) bool {
	for i, r := range s {
		switch {
		case r <= 0x08, r >= 0x0b && r <= 0x1f, r >= 0x7f && r <= 0x9f:
			return true
		case r == 0xfffd && s[i] == 0xed: // a WTF-8 surrogate decodes as an error
			return true
		}
	}
	return false
}

func containsDocumentMarker(s string) bool {
	// /^(%|---|\.\.\.)/m: at the start of any line.
	found := false
	mapJSLines(s, func(l string) string {
		found = found || strings.HasPrefix(l, "%") || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "...")
		return l
	})
	return found
}

func quotedString(s string, ctx *strCtx) string {
	hasDouble := strings.Contains(s, `"`)
	hasSingle := strings.Contains(s, "'")
	if hasDouble && !hasSingle {
		return singleQuotedString(s, ctx)
	}
	return doubleQuotedString(s, ctx)
}

//kicikit:long yaml's doubleQuotedString: the JSON text rewritten escape by escape
func doubleQuotedString(value string, ctx *strCtx) string {
	js := jsonString(value)
	indent := ctx.indent
	if indent == "" && containsDocumentMarker(value) {
		indent = "  "
	}
	jsLen := jsstr.UTF16Len(js)
	var b strings.Builder
	start := 0
	at := func(i int) byte {
		if i < len(js) {
			return js[i]
		}
		return 0
	}
	for i := 0; i < len(js); i++ {
		ch := js[i]
		if ch == ' ' && at(i+1) == '\\' && at(i+2) == 'n' {
			// A space before a line break is escaped, or folding eats it.
			b.WriteString(js[start:i])
			b.WriteString(`\ `)
			i++
			start = i
			ch = '\\'
		}
		if ch != '\\' {
			continue
		}
		switch at(i + 1) {
		case 'u':
			b.WriteString(js[start:i])
			code := js[i+2 : i+6]
			switch code {
			case "0000":
				b.WriteString(`\0`)
			case "0007":
				b.WriteString(`\a`)
			case "000b":
				b.WriteString(`\v`)
			case "001b":
				b.WriteString(`\e`)
			default:
				if strings.HasPrefix(code, "00") {
					b.WriteString(`\x` + code[2:])
				} else {
					b.WriteString(js[i : i+6])
				}
			}
			i += 5
			start = i + 1
		case 'n':
			if ctx.implicitKey || at(i+2) == '"' || jsLen < 40 {
				i++
				break
			}
			// Folding eats the first line break.
			b.WriteString(js[start:i])
			b.WriteString("\n\n")
			for at(i+2) == '\\' && at(i+3) == 'n' && at(i+4) != '"' {
				b.WriteString("\n")
				i += 2
			}
			b.WriteString(indent)
			if at(i+2) == ' ' {
				b.WriteString(`\`) // a space after a line break is escaped too
			}
			i++
			start = i + 1
		default:
			i++
		}
	}
	str := js
	if start > 0 {
		b.WriteString(js[start:])
		str = b.String()
	}
	if ctx.implicitKey {
		return str
	}
	return foldFlowLines(str, indent, foldQuoted, ctx)
}

func singleQuotedString(value string, ctx *strCtx) string {
	if (ctx.implicitKey && strings.Contains(value, "\n")) || spaceAroundNewline(value) {
		return doubleQuotedString(value, ctx)
	}
	indent := ctx.indent
	if indent == "" && containsDocumentMarker(value) {
		indent = "  "
	}
	s := strings.ReplaceAll(value, "'", "''")
	s = replaceNewlineRuns(s, func(run string) string { return run + "\n" + indent })
	res := "'" + s + "'"
	if ctx.implicitKey {
		return res
	}
	return foldFlowLines(res, indent, foldFlow, ctx)
}

// spaceAroundNewline is /[ \t]\n|\n[ \t]/.
func spaceAroundNewline(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '\n' {
			continue
		}
		if i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') {
			return true
		}
		if i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '\t') {
			return true
		}
	}
	return false
}

// replaceNewlineRuns replaces each run of line breaks.
func replaceNewlineRuns(s string, f func(string) string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\n' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '\n' {
			j++
		}
		b.WriteString(f(s[i:j]))
		i = j
	}
	return b.String()
}

// plainString is yaml's plainString in a flow context: quoted when plain
// would not read back as the same string.
func (cv *converter) plainString(value string, ctx *strCtx) string {
	if (ctx.implicitKey && strings.Contains(value, "\n")) || strings.ContainsAny(value, "[]{},") {
		return quotedString(value, ctx)
	}
	if !plainSafe(value) {
		return quotedString(value, ctx)
	}
	if containsDocumentMarker(value) && ctx.implicitKey && ctx.indent == indentStep {
		return quotedString(value, ctx)
	}
	indent := ctx.indent
	str := replaceNewlineRuns(value, func(run string) string { return run + "\n" + indent })
	if ctx.actualString && cv.doc.schema.readsAsOther(str) {
		return quotedString(value, ctx)
	}
	if ctx.implicitKey {
		return str
	}
	return foldFlowLines(str, indent, foldFlow, ctx)
}

// plainSafe is the negation of yaml's test for what plain style cannot
// write: /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/.
func plainSafe(s string) bool {
	if s == "" {
		return true
	}
	if strings.IndexByte("\n\t ,[]{}#&*!|>'\"%@`", s[0]) >= 0 {
		return false
	}
	if (s[0] == '?' || s[0] == '-') && (len(s) == 1 || s[1] == ' ' || s[1] == '\t') {
		return false
	}
	for i := 0; i+1 < len(s); i++ {
		c, n := s[i], s[i+1]
		if (c == '\n' || c == ':') && (n == ' ' || n == '\t') {
			return false
		}
		if (c == ' ' || c == '\t') && n == '\n' {
			return false
		}
		if (c == '\n' || c == '\t' || c == ' ') && n == '#' {
			return false
		}
	}
	switch s[len(s)-1] {
	case '\n', '\t', ' ', ':':
		return false
	}
	return true
}

// readsAsOther reports whether a plain scalar s would resolve to something
// other than a string: whether a default tag but !!str tests it true.
func (s *schema) readsAsOther(str string) bool {
	for _, t := range s.tags {
		if t.def != defFalse && t.tag != tagStr && t.test != nil && t.test(str) {
			return true
		}
	}
	return false
}

type foldMode uint8

const (
	foldFlow foldMode = iota
	foldQuoted
)

// foldFlowLines is yaml's foldFlowLines for the flow and quoted modes:
// lines kept to 80 UTF-16 code units where a space (or, quoted, an escape)
// allows it.
//
//kicikit:long yaml's folding loop: its cursor, split point and escapes move together
func foldFlowLines(text, indent string, mode foldMode, ctx *strCtx) string {
	u := toUnits(text)
	endStep := max(1+minContentWidth, 1+lineWidth-len(indent))
	if len(u) <= endStep {
		return text
	}
	var folds []int
	escapedFolds := map[int]bool{}
	end := lineWidth - len(indent)
	if ctx.hasIndentAtStart {
		if ctx.indentAtStart > lineWidth-max(2, minContentWidth) {
			folds = append(folds, 0)
		} else {
			end = lineWidth - ctx.indentAtStart
		}
	}
	at := func(i int) int {
		if i >= 0 && i < len(u) {
			return int(u[i])
		}
		return -1
	}
	split, prev := -1, -1
	escStart, escEnd := -1, -1
	for i := 0; i < len(u); i++ {
		ch := at(i)
		if mode == foldQuoted && ch == '\\' {
			escStart = i
			switch at(i + 1) {
			case 'x':
				i += 3
			case 'u':
				i += 5
			case 'U':
				i += 9
			default:
				i++
			}
			escEnd = i
		}
		if ch == '\n' {
			end = i + len(indent) + endStep
			split = -1
		} else {
			if ch == ' ' && prev != -1 && prev != ' ' && prev != '\n' && prev != '\t' {
				// A space between non-spaces can become a line break.
				if next := at(i + 1); next != -1 && next != ' ' && next != '\n' && next != '\t' {
					split = i
				}
			}
			if i >= end {
				switch {
				case split > 0:
					folds = append(folds, split)
					end = split + endStep
					split = -1
				case mode == foldQuoted:
					// White space at the end may stretch past the width.
					for prev == ' ' || prev == '\t' {
						prev = ch
						i++
						ch = at(i)
					}
					j := escStart - 1
					if i > escEnd+1 {
						j = i - 2
					}
					if escapedFolds[j] {
						return text // the width is shorter than an escape
					}
					folds = append(folds, j)
					escapedFolds[j] = true
					end = j + endStep
					split = -1
				}
			}
		}
		prev = ch
	}
	if len(folds) == 0 {
		return text
	}
	var res []uint16
	res = append(res, sliceUnits(u, 0, folds[0])...)
	for k, fold := range folds {
		stop := len(u)
		if k+1 < len(folds) && folds[k+1] != 0 {
			stop = folds[k+1]
		}
		if fold == 0 {
			res = append(append([]uint16{'\n'}, utf16.Encode([]rune(indent))...), sliceUnits(u, 0, stop)...)
			continue
		}
		if mode == foldQuoted && escapedFolds[fold] {
			res = append(res, u[fold], '\\')
		}
		res = append(res, '\n')
		res = append(res, utf16.Encode([]rune(indent))...)
		res = append(res, sliceUnits(u, fold+1, stop)...)
	}
	return fromUnits(res)
}

// sliceUnits is JavaScript's slice on code units.
func sliceUnits(u []uint16, from, to int) []uint16 {
	from = min(max(from, 0), len(u))
	to = min(max(to, from), len(u))
	return u[from:to]
}
