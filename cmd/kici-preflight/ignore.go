package main

import (
	"bytes"
	"slices"
	"strings"

	"github.com/kicikit/kicikit/preflight"
	"github.com/kicikit/kicikit/scalerconfig"
)

// ignoreMark starts an ignore comment's text, after the "#" and any blanks.
const ignoreMark = "kici-preflight:ignore="

// ignorer reads the ignore comments of the files Load read.
type ignorer struct {
	files map[string][]byte
	any   map[string]bool // files that hold the mark at all
}

func newIgnorer(files map[string][]byte) ignorer {
	ig := ignorer{files: files, any: map[string]bool{}}
	for name, src := range files {
		ig.any[name] = bytes.Contains(src, []byte(ignoreMark))
	}
	return ig
}

// ignores reports whether an ignore comment of the label set s names code.
// The comment counts in two places only, where YAML can read nothing but a
// comment:
//
//   - right after the image value, on the line where it ends (for the
//     image's findings): after the value, blanks and then "#" start a
//     comment;
//   - on a line of its own in the run of comment lines right above the line
//     where a block label set starts (the line of "- labels:"), its "#" no
//     further right than that line's first character. A line there that
//     looks like a comment but continues a scalar of the label set before
//     would be indented further than that.
//
// valueEnd is the end of the image value, for the image's findings; the
// zero Pos for the others, which only the comments above count for. A
// finding about the config's defaults has no label set to stand by.
func (ig ignorer) ignores(s preflight.Site, valueEnd scalerconfig.Pos, code string) bool {
	if s.ScalerIndex < 0 {
		return false
	}
	if src := ig.files[valueEnd.File]; ig.any[valueEnd.File] && valueEnd.IsValid() &&
		slices.Contains(parseIgnore(trailingComment(src, valueEnd.Offset)), code) {
		return true
	}
	src := ig.files[s.Pos.File]
	if !ig.any[s.Pos.File] || !s.Pos.IsValid() || src[s.Pos.Offset] == '{' {
		return false
	}
	for _, comment := range commentsAbove(src, s.Pos.Offset) {
		if slices.Contains(parseIgnore(comment), code) {
			return true
		}
	}
	return false
}

// trailingComment is the comment after off on its line: blanks, then "#"
// and the rest of the line; "" when there is none.
func trailingComment(src []byte, off int) string {
	i := off
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i == off || i == len(src) || src[i] != '#' {
		return ""
	}
	return string(lineAt(src, i)[1:])
}

// lineAt is src from i to the end of its line, without the line break.
func lineAt(src []byte, i int) []byte {
	end := bytes.IndexByte(src[i:], '\n')
	if end < 0 {
		end = len(src) - i
	}
	return bytes.TrimSuffix(src[i:i+end], []byte("\r"))
}

// commentsAbove returns the texts (after "#") of the comment lines right
// above the line holding off, nearest first, while their "#" is no further
// right than that line's first character.
func commentsAbove(src []byte, off int) []string {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	indent := len(src[start:]) - len(bytes.TrimLeft(src[start:], " \t"))
	var out []string
	for start > 0 {
		prev := bytes.LastIndexByte(src[:start-1], '\n') + 1
		line := bytes.TrimSuffix(src[prev:start-1], []byte("\r"))
		text := bytes.TrimLeft(line, " \t")
		if len(text) == 0 || text[0] != '#' || len(line)-len(text) > indent {
			break
		}
		out = append(out, string(text[1:]))
		start = prev
	}
	return out
}

// parseIgnore returns the codes of an ignore comment's text: the mark
// after blanks, then codes separated by commas, up to a blank or the end.
func parseIgnore(comment string) []string {
	rest, ok := strings.CutPrefix(strings.TrimLeft(comment, " \t"), ignoreMark)
	if !ok {
		return nil
	}
	if i := strings.IndexAny(rest, " \t"); i >= 0 {
		rest = rest[:i]
	}
	return strings.Split(rest, ",")
}
