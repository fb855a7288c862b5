package yamljs

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// source is the text yaml reads and the way back from its offsets to the
// bytes of the file.
//
// Node's fs.readFile(path, 'utf-8') replaces each maximal invalid UTF-8
// subsequence with U+FFFD (the WHATWG decoder). The reader works on that
// text; when it differs from the bytes, fixes records where, so that every
// offset maps back to the file.
type source struct {
	src   []byte
	text  string
	fixes []fix   // in text order; empty when text is src
	lines []int32 // byte offsets of the line starts in src, which fit (see tooLong)
	line  int     // the index in lines of the last position asked for

	// Where src lies in the file whose positions are reported (ParseRange,
	// ParseWithout): src starts baseOffset bytes and baseLine lines into
	// it, and cutBytes bytes of cutLines whole lines were taken out of it
	// at cutAt.
	baseOffset, baseLine      int
	cutAt, cutBytes, cutLines int
}

// fix is one replaced subsequence: at text offset at, U+FFFD stands for n
// bytes of src starting at srcAt.
type fix struct {
	at, srcAt, n int
}

func newSource(src []byte) *source {
	return readSource(src, false, make([]int32, 0, 1+bytes.Count(src, []byte("\n"))))
}

// readSource is newSource, with the line starts in the memory of lines,
// and with inPlace the text read in place: when src is valid UTF-8, the
// text is src's bytes, which must then not change while the text or a
// string of it is in use.
func readSource(src []byte, inPlace bool, lines []int32) *source {
	s := &source{src: src}
	switch {
	case !utf8.Valid(src):
		s.text, s.fixes = decodeWHATWG(src)
	case inPlace:
		s.text = unsafe.String(unsafe.SliceData(src), len(src))
	default:
		s.text = string(src)
	}
	s.lines = append(lines[:0], 0)
	for i := 0; ; {
		nl := bytes.IndexByte(src[i:], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
		s.lines = append(s.lines, int32(i))
	}
	return s
}

// decodeWHATWG decodes src as the WHATWG UTF-8 decoder does.
func decodeWHATWG(src []byte) (string, []fix) {
	var b strings.Builder
	b.Grow(len(src) + 8)
	var fixes []fix
	for i := 0; i < len(src); {
		if n := validSeqLen(src[i:]); n > 0 {
			b.Write(src[i : i+n])
			i += n
			continue
		}
		n := invalidSeqLen(src[i:])
		fixes = append(fixes, fix{at: b.Len(), srcAt: i, n: n})
		b.WriteString("\ufffd")
		i += n
	}
	return b.String(), fixes
}

// validSeqLen is the length of the valid UTF-8 sequence at the start of p,
// 0 when there is none.
func validSeqLen(p []byte) int {
	if p[0] < utf8.RuneSelf {
		return 1
	}
	r, n := utf8.DecodeRune(p)
	if r == utf8.RuneError && n == 1 {
		return 0
	}
	return n
}

// invalidSeqLen is the length of the maximal subpart of an invalid
// sequence at the start of p: the longest prefix of a well-formed sequence,
// at least one byte.
func invalidSeqLen(p []byte) int {
	need, lo, hi := seqShape(p[0])
	n := 1
	for k := 0; k < need && n < len(p); k++ {
		if p[n] < lo || p[n] > hi {
			break
		}
		n++
		lo, hi = 0x80, 0xbf
	}
	return n
}

// seqShape returns how many continuation bytes a lead byte needs and the
// range the first of them must be in (the WHATWG decoder's table).
func seqShape(b byte) (int, byte, byte) {
	switch {
	case b >= 0xc2 && b <= 0xdf:
		return 1, 0x80, 0xbf
	case b == 0xe0:
		return 2, 0xa0, 0xbf
	case b == 0xed:
		return 2, 0x80, 0x9f
	case b >= 0xe1 && b <= 0xef:
		return 2, 0x80, 0xbf
	case b == 0xf0:
		return 3, 0x90, 0xbf
	case b == 0xf4:
		return 3, 0x80, 0x8f
	case b >= 0xf1 && b <= 0xf3:
		return 3, 0x80, 0xbf
	}
	return 0, 0x80, 0xbf
}

// srcOffset maps an offset in the text to the offset in the bytes.
func (s *source) srcOffset(at int) int {
	if len(s.fixes) == 0 {
		return at
	}
	// The last fix at or before at.
	i := sort.Search(len(s.fixes), func(i int) bool { return s.fixes[i].at > at }) - 1
	if i < 0 {
		return at
	}
	f := s.fixes[i]
	if at < f.at+3 { // inside the replacement character
		if at == f.at {
			return f.srcAt
		}
		return f.srcAt + f.n
	}
	return f.srcAt + f.n + (at - f.at - 3)
}

// pos returns the position of a text offset; an offset inside a character
// is placed at its end.
func (s *source) pos(at int) Pos {
	for at > 0 && at < len(s.text) && s.text[at]&0xc0 == 0x80 {
		at++
	}
	off := s.srcOffset(at)
	if off > len(s.src) {
		off = len(s.src)
	}
	if off < 0 {
		off = 0
	}
	// Positions are mostly asked for in order: look near the last one.
	line := s.line
	if off < s.lineStart(line) {
		line = sort.Search(len(s.lines), func(i int) bool { return s.lineStart(i) > off }) - 1
	} else {
		for line+1 < len(s.lines) && s.lineStart(line+1) <= off {
			line++
			if line-s.line > 8 {
				line = sort.Search(len(s.lines), func(i int) bool { return s.lineStart(i) > off }) - 1
				break
			}
		}
	}
	s.line = line
	column := off - s.lineStart(line) + 1
	if s.cutBytes > 0 && off >= s.cutAt {
		off, line = off+s.cutBytes, line+s.cutLines
	}
	return newPos(s.baseOffset+off, s.baseLine+line+1, column)
}

// lineStart is the offset in src of line i's start (0-based).
func (s *source) lineStart(i int) int { return int(s.lines[i]) }
