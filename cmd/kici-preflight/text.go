package main

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
)

// writeText writes each diag as `file:line:col: severity: message [code]`,
// as compilers and go vet write theirs.
func writeText(w *bufio.Writer, diags []*diag) error {
	for _, d := range diags {
		w.WriteString(escape(d.shownFile))
		if d.pos.IsValid() {
			w.WriteString(":" + strconv.Itoa(d.pos.Line) + ":" + strconv.Itoa(d.pos.Column))
		}
		w.WriteString(": " + d.severity + ": " + escape(d.message()) + " [" + d.code + "]\n")
	}
	return w.Flush()
}

// escape writes the control characters of config text as Go escapes, so
// that a scaler name or an image with a line break or a terminal escape
// cannot forge output lines.
func escape(s string) string { return escapeControls(s, false) }

// escapeControls is escape, keeping tabs as they are when keepTab is set:
// what -diff does with the lines of a file. It writes a C0 or C1 control
// character, and each byte of invalid UTF-8, as \xNN, and a line or
// paragraph separator as \uNNNN.
func escapeControls(s string, keepTab bool) string {
	clean := true
	for _, r := range s {
		if isControl(r) && !(keepTab && r == '\t') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case keepTab && r == '\t':
			b.WriteByte('\t')
		case r == '\uFFFD' && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case isControl(r) && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case isControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isControl reports whether r is a C0 or C1 control character, DEL, or a
// line or paragraph separator.
func isControl(r rune) bool {
	return r < 0x20 || 0x7F <= r && r < 0xA0 || r == 0x2028 || r == 0x2029 || r == '\uFFFD'
}
