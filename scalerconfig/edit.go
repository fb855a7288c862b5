package scalerconfig

import (
	"bytes"
	"errors"
	"hash/crc32"
	"slices"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/internal/errtext"
	"github.com/kicikit/kicikit/internal/yamljs"
)

// ImageEdit sets the image of one label set, in the file that declares it.
// [LabelSet.ImageEdit] makes one from a loaded label set. A literal works
// too.
type ImageEdit struct {
	// Pos and End are where the image value's source text starts and ends.
	// They are the label set's ImagePos and ImageEnd, as Load gave them.
	// Only their offsets are read.
	Pos, End Pos
	// Image is the image to write there.
	Image string

	// loaded is the file the positions were read from, when
	// LabelSet.ImageEdit made the edit: how Load read it; at is the
	// offsets Pos and End had then, so that an edit whose Pos or End a
	// caller moved since is checked as a literal one is.
	loaded fileSum
	at     [2]int
}

// fileSum is the length and CRC-32C of a file's bytes, as Load read them;
// the zero fileSum is none. It tells [EditImages] that an
// edit's positions are those Load gave for the bytes they are handed.
type fileSum struct {
	size int
	crc  uint32
}

// sumOf is the fileSum of src.
func sumOf(src []byte) fileSum {
	return fileSum{size: len(src) + 1, crc: crc32.Checksum(src, crc32.MakeTable(crc32.Castagnoli))}
}

// ImageEdit returns the edit that sets the label set's image to image, and
// true. It returns false when the label set has no image position: a
// literal, or no image.
func (ls *LabelSet) ImageEdit(image string) (ImageEdit, bool) {
	if !ls.ImagePos.IsValid() || !ls.ImageEnd.IsValid() {
		return ImageEdit{}, false
	}
	e := ImageEdit{Pos: ls.ImagePos, End: ls.ImageEnd, Image: image, loaded: ls.loaded}
	if e.loaded != (fileSum{}) {
		e.at = [2]int{e.Pos.Offset, e.End.Offset}
	}
	return e, true
}

// Replacement is one change [EditImages] makes. It replaces the file's
// bytes from Pos to End by Text.
type Replacement struct {
	Pos, End Pos    // the image value's extent in the file before the edit
	Text     string // the new image's source text, in the quotes of the old one
	Image    string // the new image, as Text reads
}

// EditError is an edit [EditImages] refuses, and why.
type EditError struct {
	Edit ImageEdit // the edit refused
	Err  error     // a [Reason], or the YAML reader's error
}

// Error returns "scalerconfig.EditImages(<image>): at LINE:COLUMN: <why>".
// It quotes at most the first 64 bytes of the new image.
func (e *EditError) Error() string {
	return "scalerconfig.EditImages(" + errtext.Quote(e.Edit.Image) + "): at " +
		strconv.Itoa(e.Edit.Pos.Line) + ":" + strconv.Itoa(e.Edit.Pos.Column) + ": " + e.Err.Error()
}

// Unwrap returns e.Err, for errors.Is.
func (e *EditError) Unwrap() error { return e.Err }

// EditImages returns src, a config file's bytes, with the image values the
// edits name replaced. It also returns the replacements made, in file
// order. Every other byte stays as it is: comments, key order,
// indentation, line ends, a BOM. A quoted value stays in its quotes: '…'
// doubles a quote, "…" escapes what it must. A plain value stays plain.
//
// It makes all the edits or none. It refuses an image written as a block
// scalar, or reached through a YAML alias. It refuses a new image the
// value's style cannot hold: a plain value that would read as another
// type or string, or a single-quoted one with a line break. It refuses an
// edit that would change more than the edited images. On refusal, src is
// unchanged, and the error joins an [*EditError] for each edit refused.
// Edits of one value with the same image count once.
func EditImages(src []byte, edits []ImageEdit) ([]byte, []Replacement, error) {
	return editImages(src, edits, groupBytes)
}

// loadedTree is the tree of src's values at the edits' offsets, made
// without parsing src, when every edit was made by LabelSet.ImageEdit from
// these bytes, its offsets as it made them, in a file without an alias, a
// tag or a directive (so that no value is reached twice); else ok is
// false.
func loadedTree(src []byte, edits []ImageEdit) (t *tree, ok bool) {
	sum := edits[0].loaded
	for _, e := range edits {
		if e.loaded != sum || sum == (fileSum{}) || e.at != [2]int{e.Pos.Offset, e.End.Offset} {
			return nil, false
		}
	}
	if sumOf(src) != sum {
		return nil, false
	}
	t = &tree{at: make(map[int]*yamljs.Node, len(edits)), shared: map[*yamljs.Node]bool{}}
	for _, e := range edits {
		if _, ok := t.at[e.Pos.Offset]; !ok && e.Pos.Offset >= 0 && e.Pos.Offset < e.End.Offset && e.End.Offset <= len(src) {
			t.at[e.Pos.Offset] = &yamljs.Node{Kind: yamljs.String, Style: styleAt(src[e.Pos.Offset]), Pos: yamljs.Pos{Offset: int32(e.Pos.Offset)}, End: yamljs.Pos{Offset: int32(e.End.Offset)}} // within src: an int32
		}
	}
	return t, true
}

// styleAt is the style of a scalar whose source text starts with c: a
// plain scalar cannot start with a quote or a block scalar's indicator.
func styleAt(c byte) yamljs.Style {
	switch c {
	case '\'':
		return yamljs.SingleQuoted
	case '"':
		return yamljs.DoubleQuoted
	case '|':
		return yamljs.Literal
	case '>':
		return yamljs.Folded
	}
	return yamljs.Plain
}

// editImages is EditImages, parsing groups of items of about groupSize
// bytes; with groupSize 0 it reads every file whole, so that the tests can
// hold the two ways to the same results.
func editImages(src []byte, edits []ImageEdit, groupSize int) ([]byte, []Replacement, error) {
	if len(edits) == 0 {
		return src, nil, nil
	}
	readBack := mayReadOtherwise(src)
	if groupSize > 0 && !readBack {
		t, ok := loadedTree(src, edits)
		if !ok {
			t, ok = indexByGroup(src, edits, groupSize)
		}
		if ok {
			reps, _, err := t.plan(edits)
			if err != nil {
				return nil, reps, err
			}
			return apply(src, reps), reps, nil
		}
	}
	root, err := yamljs.Parse(src)
	if err != nil {
		return nil, nil, &EditError{Edit: edits[0], Err: err}
	}
	t := index(root, edits, readBack)
	reps, set, err := t.plan(edits)
	if err != nil {
		return nil, reps, err
	}
	out := apply(src, reps)
	if readBack {
		if err := verify(root, out, set); err != nil {
			return nil, nil, &EditError{Edit: reps[0].edit(), Err: err}
		}
	}
	return out, reps, nil
}

// indexByGroup is index of a file in the plain form of [yamljs.SplitItems]
// with its scalers list split into items (which has no alias, tag or
// directive, so that no node is reached twice), read a part at a time: the
// file without the list, then each group of items of about groupSize bytes
// that [itemGroups] makes.
// It parses every part, for the errors reading the whole file would give,
// looks in a part's tree only for the edits' offsets that lie in the part,
// and keeps a copy of each value found there, so that no part's tree
// outlives its turn.
//
// ok is false, and the file must be read whole, for a file in another form
// and at a YAML error in any part (reading the whole file gives the error
// EditImages reports, which may be another).
func indexByGroup(src []byte, edits []ImageEdit, groupSize int) (t *tree, ok bool) {
	rest, items, split, err := readSplit(src)
	if !split || err != nil {
		return nil, false
	}
	offsets := editOffsets(edits)
	first, _ := slices.BinarySearch(offsets, int(items.Start.Offset))
	last, _ := slices.BinarySearch(offsets, int(items.End.Offset))
	t = &tree{at: make(map[int]*yamljs.Node, len(offsets)), shared: map[*yamljs.Node]bool{}}
	if !t.indexPart(rest, append(offsets[:first:first], offsets[last:]...)) {
		return nil, false
	}
	var parts yamljs.Reader // each part's values are copied from before the next is read
	ok = readGroups(&parts, src, items, groupSize, nil, func(g itemGroup, seq *yamljs.Node) bool {
		lo, _ := slices.BinarySearch(offsets, int(g.from.Offset))
		hi, _ := slices.BinarySearch(offsets, g.end)
		return t.indexPart(seq, offsets[lo:hi])
	})
	if !ok {
		return nil, false
	}
	return t, true
}

// editOffsets returns the edits' start offsets, sorted, each once.
func editOffsets(edits []ImageEdit) []int {
	offsets := make([]int, len(edits))
	for i, e := range edits {
		offsets[i] = e.Pos.Offset
	}
	slices.Sort(offsets)
	return slices.Compact(offsets)
}

// indexPart indexes the string values at offsets in a part's tree, as
// index does in the whole file's, and replaces each value found by a copy
// of it, without children, so that t holds nothing of the part's tree. It
// reports false when two values of the tree start at one offset, which
// index would mark shared: not seen in the plain form, where the file must
// then be read whole.
func (t *tree) indexPart(root *yamljs.Node, offsets []int) bool {
	if len(offsets) == 0 {
		return true
	}
	for _, off := range offsets {
		t.at[off] = nil
	}
	t.visit(root)
	if len(t.shared) > 0 {
		return false
	}
	for _, off := range offsets {
		if n := t.at[off]; n != nil {
			c := *n
			c.Items, c.Pairs = nil, nil
			t.at[off] = &c
		}
	}
	return true
}

// mayReadOtherwise reports whether the edited bytes must be read back to
// know that only the images changed, and the tree walked for values reached
// twice. Each edited value is a string scalar written in its own style so
// that it reads as the new image on its own (a plain one with no indicator,
// no flow indicator, no ": " or " #", and as a string in the core schema);
// what could still make the file read otherwise, or reach a value from two
// places, is an alias (to a key, or to a value the reader drops, so that the
// value's text is not where the image is used), a tag (!!merge copies a
// map's values into another) or a %YAML directive (another schema, with
// merge keys). Without a "*", a "!" or a "%" byte there is none of them;
// FuzzEditImages checks this by reading every edit back.
func mayReadOtherwise(src []byte) bool {
	return bytes.ContainsAny(src, "*!%")
}

func (r Replacement) edit() ImageEdit { return ImageEdit{Pos: r.Pos, End: r.End, Image: r.Image} }

// tree is what EditImages knows of the file: the string values at the
// edits' offsets, and which nodes are reached more than once.
type tree struct {
	at     map[int]*yamljs.Node  // string values by start offset
	seen   map[*yamljs.Node]bool // nil when no node can be reached twice
	shared map[*yamljs.Node]bool // reached by two paths, or below such a node
}

// index walks the tree for the values at the edits' offsets; with
// mayShare, it also marks the nodes reached twice (a file without aliases,
// tags and directives has none).
func index(root *yamljs.Node, edits []ImageEdit, mayShare bool) *tree {
	t := &tree{at: map[int]*yamljs.Node{}, shared: map[*yamljs.Node]bool{}}
	if mayShare {
		t.seen = map[*yamljs.Node]bool{}
	}
	for _, e := range edits {
		t.at[e.Pos.Offset] = nil
	}
	t.visit(root)
	return t
}

func (t *tree) visit(n *yamljs.Node) {
	if t.seen != nil {
		if t.seen[n] {
			t.share(n)
			return
		}
		t.seen[n] = true
	}
	if n.Kind != yamljs.String { // the values looked up are strings, which have no children
		eachChild(n, t.visit)
		return
	}
	if want, ok := t.at[int(n.Pos.Offset)]; ok {
		if want != nil && want != n {
			t.share(want) // two values at one place: neither is the file's own
			t.share(n)
		}
		t.at[int(n.Pos.Offset)] = n
	}
}

func (t *tree) share(n *yamljs.Node) {
	if t.shared[n] {
		return
	}
	t.shared[n] = true
	eachChild(n, t.share)
}

func eachChild(n *yamljs.Node, f func(*yamljs.Node)) {
	for _, c := range n.Items {
		f(c)
	}
	for _, p := range n.Pairs {
		if p.KeyNode != nil {
			f(p.KeyNode)
		}
		f(p.Value)
	}
}

// plan checks each edit and returns the replacements in file order, and the
// new image of each edited node, or every edit it refuses.
func (t *tree) plan(edits []ImageEdit) ([]Replacement, map[*yamljs.Node]string, error) {
	sorted := slices.Clone(edits)
	slices.SortStableFunc(sorted, func(a, b ImageEdit) int { return a.Pos.Offset - b.Pos.Offset })
	var reps []Replacement
	var refused []error
	set := map[*yamljs.Node]string{}
	styled := map[styledImage]result{} // each image once per style: most edits pin one image
	end := -1                          // where the text the last edit names ends
	for i, e := range sorted {
		if i > 0 && e.Pos.Offset < end {
			if e != sorted[i-1] {
				refused = append(refused, &EditError{Edit: e, Err: ErrConflict})
			}
			continue
		}
		end = e.End.Offset
		node, text, err := t.check(e, styled)
		if err != nil {
			refused = append(refused, &EditError{Edit: e, Err: err})
			continue
		}
		reps = append(reps, Replacement{Pos: e.Pos, End: e.End, Text: text, Image: e.Image})
		set[node] = e.Image
	}
	if refused != nil {
		return nil, nil, errors.Join(refused...)
	}
	return reps, set, nil
}

// styledImage and result are a memo of quote.
type styledImage struct {
	image string
	style yamljs.Style
}

type result struct {
	text string
	err  error
}

// check returns the node e edits and the new image's text, or why e
// cannot be made.
func (t *tree) check(e ImageEdit, styled map[styledImage]result) (*yamljs.Node, string, error) {
	node := t.at[e.Pos.Offset]
	if node == nil || int(node.End.Offset) != e.End.Offset {
		return nil, "", ErrNoImageValue
	}
	if t.shared[node] {
		return nil, "", ErrAliased
	}
	key := styledImage{e.Image, node.Style}
	r, ok := styled[key]
	if !ok {
		r.text, r.err = quote(e.Image, node.Style)
		styled[key] = r
	}
	return node, r.text, r.err
}

func apply(src []byte, reps []Replacement) []byte {
	size := len(src)
	for _, r := range reps {
		size += len(r.Text) - (r.End.Offset - r.Pos.Offset)
	}
	out := make([]byte, 0, size)
	last := 0
	for _, r := range reps {
		out = append(out, src[last:r.Pos.Offset]...)
		out = append(out, r.Text...)
		last = r.End.Offset
	}
	return append(out, src[last:]...)
}

// verify reads the edited bytes back and checks that they hold the same
// values as the old ones, but for the edited nodes, which hold their new
// images.
func verify(old *yamljs.Node, edited []byte, set map[*yamljs.Node]string) error {
	root, err := yamljs.Parse(edited)
	if err != nil {
		return errors.Join(ErrChanged, err)
	}
	c := comparison{set: set, done: map[*yamljs.Node]bool{}}
	if !c.same(old, root) {
		return ErrChanged
	}
	return nil
}

type comparison struct {
	set  map[*yamljs.Node]string
	done map[*yamljs.Node]bool
}

// same reports whether b, of the edited file, is a, of the old one, with
// the edits applied.
func (c comparison) same(a, b *yamljs.Node) bool {
	if image, ok := c.set[a]; ok {
		return b.Kind == yamljs.String && b.Str == image
	}
	if c.done[a] {
		return true // an alias: compared where the anchor is
	}
	c.done[a] = true
	if a.Kind != b.Kind || a.Bool != b.Bool || a.Str != b.Str || !sameNumber(a.Num, b.Num) ||
		len(a.Items) != len(b.Items) || len(a.Pairs) != len(b.Pairs) {
		return false
	}
	for i := range a.Items {
		if !c.same(a.Items[i], b.Items[i]) {
			return false
		}
	}
	for i, p := range a.Pairs {
		q := b.Pairs[i]
		if p.Key != q.Key || (p.KeyNode == nil) != (q.KeyNode == nil) ||
			p.KeyNode != nil && !c.same(p.KeyNode, q.KeyNode) || !c.same(p.Value, q.Value) {
			return false
		}
	}
	return true
}

func sameNumber(a, b float64) bool { return a == b || a != a && b != b }

// quote writes image as a scalar of the given style, or reports
// ErrBlockScalar or ErrStyle.
func quote(image string, style yamljs.Style) (string, error) {
	switch style {
	case yamljs.SingleQuoted:
		return singleQuoted(image)
	case yamljs.DoubleQuoted:
		return doubleQuoted(image)
	case yamljs.Plain:
		return plain(image)
	}
	return "", ErrBlockScalar
}

// plain returns image when a plain scalar of it reads as the same string
// wherever it stands: no indicator first, no ": " or " #", no flow
// indicator, no white space at either end, nothing but printable
// characters, and not a null, a boolean or a number.
func plain(image string) (string, error) {
	if image == "" || strings.ContainsAny(image[:1], "-?:,[]{}#&*!|>'\"%@` ") ||
		strings.ContainsAny(image, ",[]{}\t\n\r") || !printable(image) ||
		strings.Contains(image, ": ") || strings.Contains(image, " #") || strings.HasSuffix(image, " ") || strings.HasSuffix(image, ":") {
		return "", ErrStyle
	}
	n, err := yamljs.Parse([]byte(image))
	if err != nil || n.Kind != yamljs.String || n.Str != image {
		return "", ErrStyle
	}
	return image, nil
}

// singleQuoted doubles each quote; a line break would fold, and only a tab
// and printable characters may stand there.
func singleQuoted(image string) (string, error) {
	if !printable(image) {
		return "", ErrStyle
	}
	b := make([]byte, 0, len(image)+2)
	b = append(b, '\'')
	for i := 0; i < len(image); i++ {
		if image[i] == '\'' {
			b = append(b, '\'')
		}
		b = append(b, image[i])
	}
	return string(append(b, '\'')), nil
}

// doubleQuoted escapes the quote, the backslash, and every character that
// is not printable or that a reader would take for a line break.
func doubleQuoted(image string) (string, error) {
	b := make([]byte, 0, len(image)+2)
	b = append(b, '"')
	for i, r := range image {
		switch {
		case r == '\uFFFD' && isInvalid(image, i):
			return "", ErrStyle // not UTF-8: no escape writes these bytes
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\t':
			b = append(b, '\\', 't')
		case !printableRune(r):
			b = append(b, `\u`...)
			b = append(b, hex4(r)...)
		default:
			b = append(b, image[i:i+len(string(r))]...)
		}
	}
	return string(append(b, '"')), nil
}

// isInvalid reports whether the U+FFFD that ranging over s gives at i
// stands for a byte that is not UTF-8.
func isInvalid(s string, i int) bool { return !strings.HasPrefix(s[i:], "\uFFFD") }

func hex4(r rune) string {
	const digits = "0123456789ABCDEF"
	return string([]byte{digits[r>>12&15], digits[r>>8&15], digits[r>>4&15], digits[r&15]})
}

// printable reports whether s is UTF-8 of a tab and characters that YAML
// prints as they are and no reader takes for a line break.
func printable(s string) bool {
	for i, r := range s {
		if r == '\uFFFD' && isInvalid(s, i) || r != '\t' && !printableRune(r) {
			return false
		}
	}
	return true
}

// printableRune is YAML 1.2's printable set less the line breaks (and
// U+0085, U+2028, U+2029, which YAML 1.1 reads as ones) and the byte order
// mark.
func printableRune(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7F || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xFEFF:
		return false
	case r < 0xA0:
		return r < 0x80
	case r <= 0xD7FF || 0xE000 <= r && r <= 0xFFFD:
		return true
	}
	return r >= 0x10000
}
