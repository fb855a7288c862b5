package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/kicikit/kicikit/cmd/kici-preflight/internal/rewrite"
	"github.com/kicikit/kicikit/preflight"
	"github.com/kicikit/kicikit/scalerconfig"
)

// pins are the pins the findings name, and the fixes of the config's
// problems (fixes.go), made in the bytes of each file.
type pins struct {
	files   []*pinnedFile // in the order the files were first changed
	refused []string      // why a pin or a fix could not be made, one line each
	images  int           // the images pinned
	fixes   int           // the fixes made
	unfixed int           // the fixes refused (their lines are in refused too)
	keepNew bool          // keep each file's new bytes: -diff and -write need them, SARIF's fixes only the replacements
}

// pinnedFile is one file with its pins and fixes made.
type pinnedFile struct {
	name     string // as the positions name it: a path to open
	shown    string // as the output names it
	old, new []byte // old: as first read; new: with every change, nil unless the pins keep it (keepNew)
	// reps are every change, in old's coordinates, in file order.
	reps []scalerconfig.Replacement
	// pins are the pins, in the coordinates of the bytes last read (old,
	// or with the fixes made), where the findings are.
	pins   []scalerconfig.Replacement
	starts []int // old's line starts, once a change is mapped into old
}

// pin makes the pins when -diff, -write or the SARIF fixes need them.
func (c *check) pin() error {
	if !c.opts.diff && !c.opts.write && (c.opts.format != "sarif" || c.opts.target == "") {
		return nil
	}
	if c.pins == nil {
		c.pins = &pins{keepNew: c.opts.diff || c.opts.write}
	}
	byFile := map[string][]scalerconfig.ImageEdit{}
	var order []string
	for _, d := range c.diags {
		if d.finding == nil {
			continue
		}
		e, ok := preflight.Fix(d.finding)
		if !ok {
			continue
		}
		if _, seen := byFile[e.Pos.File]; !seen {
			order = append(order, e.Pos.File)
		}
		byFile[e.Pos.File] = append(byFile[e.Pos.File], e)
	}
	for _, name := range order {
		c.pins.file(name, c.in.name(name), c.in.fsys.files[name], byFile[name])
	}
	for _, d := range c.diags {
		d.pin = c.pins.replacement(d)
	}
	if c.opts.write {
		return c.write()
	}
	return nil
}

// write writes every pinned file in place, all or none, each keeping its
// owner, group, mode and extended attributes (package rewrite), and marks
// the diags it pinned.
func (c *check) write() error {
	var files []rewrite.File
	for _, f := range c.pins.files {
		files = append(files, rewrite.File{Path: f.name, Shown: f.shown, Old: f.old, New: f.new})
	}
	if err := rewrite.All(files, c.beforeRename); err != nil {
		return err
	}
	for _, d := range c.diags {
		d.pinned = d.pin != nil || d.fix
	}
	return nil
}

// file makes the pins of one file; those EditImages refuses are left out,
// each with its reason.
func (p *pins) file(name, shown string, src []byte, edits []scalerconfig.ImageEdit) {
	out, reps, err := p.edit(src, edits)
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		var refused []scalerconfig.ImageEdit
		for _, e := range joined.Unwrap() {
			var ee *scalerconfig.EditError
			if errors.As(e, &ee) {
				refused = append(refused, ee.Edit)
				p.refused = append(p.refused, fmt.Sprintf("%s:%d:%d: not pinned: %v", escape(shown), ee.Edit.Pos.Line, ee.Edit.Pos.Column, escape(ee.Err.Error())))
			}
		}
		edits = slices.DeleteFunc(edits, func(e scalerconfig.ImageEdit) bool { return slices.Contains(refused, e) })
		out, reps, err = p.edit(src, edits)
	}
	if err != nil {
		p.refused = append(p.refused, escape(shown)+": not pinned: "+escape(err.Error()))
		return
	}
	if len(reps) == 0 {
		return
	}
	f := p.fileOf(name, shown, src)
	if !f.change(reps, out) {
		p.refused = append(p.refused, escape(shown)+": not pinned: a pin overlaps a fix")
		return
	}
	f.pins = reps
	p.images += len(reps)
}

// fileOf is the file name's changes, begun from src, its bytes as read,
// when there are none yet.
func (p *pins) fileOf(name, shown string, src []byte) *pinnedFile {
	for _, f := range p.files {
		if f.name == name {
			return f
		}
	}
	f := &pinnedFile{name: name, shown: shown, old: src}
	p.files = append(p.files, f)
	return f
}

// change records reps, made on the file's bytes as last read, which out
// holds with them made (nil when the pins keep no new bytes); false when
// one overlaps an earlier change, which no pin or fix does.
func (f *pinnedFile) change(reps []scalerconfig.Replacement, out []byte) bool {
	merged, ok := f.inOld(reps)
	if !ok {
		return false
	}
	f.reps, f.new = merged, out
	return true
}

// inOld returns reps, made on the file's bytes as last read, in the
// coordinates of its old bytes, merged with its changes so far, in file
// order; false when one overlaps a change.
func (f *pinnedFile) inOld(reps []scalerconfig.Replacement) ([]scalerconfig.Replacement, bool) {
	if len(f.reps) == 0 {
		return reps, true
	}
	if f.starts == nil {
		f.starts = lineStarts(f.old)
	}
	out := make([]scalerconfig.Replacement, 0, len(f.reps)+len(reps))
	i, delta := 0, 0 // f.reps[i] is the next change; delta is how much the changes before it moved what follows
	for _, r := range reps {
		for ; i < len(f.reps) && f.reps[i].Pos.Offset+delta+len(f.reps[i].Text) <= r.Pos.Offset; i++ {
			q := f.reps[i]
			delta += len(q.Text) - (q.End.Offset - q.Pos.Offset)
			out = append(out, q)
		}
		if i < len(f.reps) && r.End.Offset > f.reps[i].Pos.Offset+delta {
			return nil, false
		}
		r.Pos, r.End = posOf(f.old, f.starts, r.Pos.File, r.Pos.Offset-delta), posOf(f.old, f.starts, r.End.File, r.End.Offset-delta)
		out = append(out, r)
	}
	return append(out, f.reps[i:]...), true
}

// lineStarts are the offsets where src's lines start.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// posOf is the position of the byte at offset of src, of the line starts
// starts.
func posOf(src []byte, starts []int, file string, offset int) scalerconfig.Pos {
	line, _ := slices.BinarySearch(starts, offset+1)
	return scalerconfig.Pos{File: file, Line: line, Column: offset - starts[line-1] + 1, Offset: offset}
}

// edit is scalerconfig.EditImages, keeping the new bytes only when the
// pins need them (not for SARIF's fixes alone): out is then nil.
func (p *pins) edit(src []byte, edits []scalerconfig.ImageEdit) (out []byte, reps []scalerconfig.Replacement, err error) {
	out, reps, err = scalerconfig.EditImages(src, edits)
	if !p.keepNew {
		out = nil
	}
	return out, reps, err
}

// replacement is the pin made for d's label set, or nil.
func (p *pins) replacement(d *diag) *scalerconfig.Replacement {
	if d.finding == nil {
		return nil
	}
	for _, f := range p.files {
		if f.name != d.pos.File {
			continue
		}
		i, ok := slices.BinarySearchFunc(f.pins, d.pos.Offset, func(r scalerconfig.Replacement, off int) int { return r.Pos.Offset - off })
		if ok {
			return &f.pins[i]
		}
	}
	return nil
}

func (p *pins) summary(wrote bool) string {
	s := "; " + count(p.images, "image")
	fixes := ""
	if p.fixes > 0 {
		fixes = strconv.Itoa(p.fixes) + " fix"
		if p.fixes > 1 {
			fixes += "es"
		}
	}
	switch {
	case wrote && fixes != "":
		s += " pinned, " + fixes + " made in " + count(len(p.files), "file")
	case wrote:
		s += " pinned in " + count(len(p.files), "file")
	case fixes != "":
		s += " to pin, " + fixes + " to make in " + count(len(p.files), "file")
	default:
		s += " to pin in " + count(len(p.files), "file")
	}
	if n := len(p.refused) - p.unfixed; n > 0 {
		s += ", " + strconv.Itoa(n) + " not pinned"
	}
	if p.unfixed > 0 {
		s += ", " + strconv.Itoa(p.unfixed) + " not fixed"
	}
	return s
}

// writeDiff writes a unified diff of every pinned file.
func (p *pins) writeDiff(w *bufio.Writer) error {
	for _, f := range p.files {
		writeFileDiff(w, f)
	}
	return w.Flush()
}

// writeFileDiff writes the hunks of one file, three lines of context each,
// merged where their context would touch.
func writeFileDiff(w *bufio.Writer, f *pinnedFile) {
	old := splitLines(f.old)
	starts := make([]int, len(old)+1)
	for i, l := range old {
		starts[i+1] = starts[i] + len(l)
	}
	shown := escape(f.shown)
	fmt.Fprintf(w, "--- %s\n+++ %s\n", shown, shown)
	groups := changes(f, starts)
	const context = 3
	for i := 0; i < len(groups); {
		j := i + 1
		for j < len(groups) && groups[j].first <= groups[j-1].last+2*context+1 {
			j++
		}
		writeHunk(w, old, groups[i:j], context)
		i = j
	}
}

// change is a run of old lines, first to last, that pins rewrite.
type change struct {
	first, last int
	new         [][]byte
}

// changes groups the pins of f by the lines they rewrite.
func changes(f *pinnedFile, starts []int) []change {
	var out []change
	for i := 0; i < len(f.reps); {
		c := change{first: f.reps[i].Pos.Line - 1, last: f.reps[i].End.Line - 1}
		j := i + 1
		for j < len(f.reps) && f.reps[j].Pos.Line-1 <= c.last {
			c.last = max(c.last, f.reps[j].End.Line-1)
			j++
		}
		c.new = pinnedLines(f.old, starts[c.first], starts[c.last+1], f.reps[i:j])
		out = append(out, c)
		i = j
	}
	return out
}

// writeHunk writes one hunk of the changes cs, with context lines around
// and between them.
func writeHunk(w *bufio.Writer, old [][]byte, cs []change, context int) {
	from, to := max(0, cs[0].first-context), min(len(old), cs[len(cs)-1].last+1+context)
	newCount := to - from
	for _, c := range cs {
		newCount += len(c.new) - (c.last - c.first + 1)
	}
	fmt.Fprintf(w, "@@ -%s +%s @@\n", span(from, to-from), span(from, newCount))
	at := from
	for _, c := range cs {
		for _, l := range old[at:c.first] {
			writeLine(w, ' ', l)
		}
		for _, l := range old[c.first : c.last+1] {
			writeLine(w, '-', l)
		}
		for _, l := range c.new {
			writeLine(w, '+', l)
		}
		at = c.last + 1
	}
	for _, l := range old[at:to] {
		writeLine(w, ' ', l)
	}
}

// pinnedLines returns the lines of src from start to end with reps made
// in them.
func pinnedLines(src []byte, start, end int, reps []scalerconfig.Replacement) [][]byte {
	var b []byte
	at := start
	for _, r := range reps {
		b = append(b, src[at:r.Pos.Offset]...)
		b = append(b, r.Text...)
		at = r.End.Offset
	}
	b = append(b, src[at:end]...)
	return splitLines(b)
}

// span is a hunk range: "start,count", 1-based, as diff -u writes it.
func span(start, n int) string {
	if n == 0 {
		return strconv.Itoa(start) + ",0"
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(n)
}

// writeLine writes a line of the diff: the mark, then l with its control
// characters escaped but tabs (escapeControls), so that a file's bytes
// cannot drive the terminal that shows the diff, then l's line end as it
// is ("\n" or "\r\n": a CRLF file's diff keeps its line ends).
func writeLine(w *bufio.Writer, mark byte, l []byte) {
	w.WriteByte(mark)
	body, end := splitLineEnd(l)
	w.WriteString(escapeControls(string(body), true))
	w.Write(end)
	if len(end) == 0 {
		w.WriteString("\n\\ No newline at end of file\n")
	}
}

// splitLineEnd splits a line into its text and its line end: "\r\n",
// "\n", or none for a last line without one.
func splitLineEnd(l []byte) (body, end []byte) {
	switch {
	case bytes.HasSuffix(l, []byte("\r\n")):
		return l[:len(l)-2], l[len(l)-2:]
	case bytes.HasSuffix(l, []byte("\n")):
		return l[:len(l)-1], l[len(l)-1:]
	}
	return l, nil
}

// splitLines splits b after each "\n", keeping the line ends.
func splitLines(b []byte) [][]byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}
