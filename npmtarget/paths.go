package npmtarget

import (
	"bytes"
	"strings"
)

// This file holds the path algorithm the two flavours share, node's
// normalizeString, and the per-flavour dispatch. The flavour is an input (a
// Windows flag), never the machine the code runs on: path/filepath picks its
// rules at compile time, so its Windows branches are tested only on Windows.
// posix.go and win32path.go hold the per-flavour primitives, as in
// node's lib/path.js (node 20), whose path.posix and path.win32 the
// orchestrator calls.
//
// Node's functions index UTF-16 code units and Go's strings are bytes. Every
// decision below looks at ASCII bytes only ('/', '\\', ':', '.', letters),
// and no byte of a multi-byte UTF-8 sequence is ASCII, so for valid UTF-8 the
// two agree; the one place that cuts off "the last code unit" says how it
// copes.

// dirname is node's path.win32.dirname or path.posix.dirname.
func dirname(windows bool, p string) string {
	if windows {
		return win32Dirname(p)
	}
	return posixDirname(p)
}

// join is node's path.win32.join or path.posix.join.
func join(windows bool, elem ...string) string {
	if windows {
		return win32Join(elem...)
	}
	return posixJoin(elem...)
}

// isAbsolute reports whether p is a fully qualified path of the flavour:
// posix, starting with "/"; Windows, a drive letter, ":" and a separator, or
// two separators (a UNC path \\server\share\… or a device path \\?\…). A
// Windows path starting with one separator hangs off the current drive, and
// "C:x" off the current folder of drive C, so neither counts.
func isAbsolute(p string, windows bool) bool {
	if !windows {
		return strings.HasPrefix(p, "/")
	}
	if len(p) >= 3 && hasDrive(p) && isWin32Sep(p[2]) {
		return true
	}
	return len(p) >= 2 && isWin32Sep(p[0]) && isWin32Sep(p[1])
}

// listSeparator is the PATH list separator of the flavour: node's
// path.delimiter.
func listSeparator(windows bool) string {
	if windows {
		return ";"
	}
	return ":"
}

// normalizeString is node's normalizeString: it folds "." and ".."
// segments and runs of separators in p, joining what is left with sep.
// allowAboveRoot keeps a leading ".." that has nothing left to cancel.
func normalizeString(p string, allowAboveRoot bool, sep byte, isSep func(byte) bool) string {
	z := normalized{res: make([]byte, 0, len(p)), sep: sep}
	lastSlash, dots := -1, 0
	var code byte
	for i := 0; i <= len(p); i++ {
		switch {
		case i < len(p):
			code = p[i]
		case isSep(code):
			return string(z.res)
		default:
			code = '/'
		}
		if !isSep(code) {
			if code == '.' && dots != -1 {
				dots++
			} else {
				dots = -1
			}
			continue
		}
		switch {
		case lastSlash == i-1 || dots == 1:
			// An empty or "." segment: nothing to add.
		case dots == 2:
			z.parent(allowAboveRoot)
		default:
			z.add(p[lastSlash+1 : i])
		}
		lastSlash, dots = i, 0
	}
	return string(z.res)
}

// normalized is the result normalizeString builds, segment by segment.
type normalized struct {
	res     []byte
	lastLen int // the length of the last segment in res
	sep     byte
}

// add appends a segment.
func (z *normalized) add(seg string) {
	if len(z.res) > 0 {
		z.res = append(z.res, z.sep)
	}
	z.res = append(z.res, seg...)
	z.lastLen = len(seg)
}

// parent applies a ".." segment: it drops the last segment, unless that is
// itself a kept "..", or there is none; then it keeps the ".." when
// allowAboveRoot.
func (z *normalized) parent(allowAboveRoot bool) {
	n := len(z.res)
	droppable := n < 2 || z.lastLen != 2 || z.res[n-1] != '.' || z.res[n-2] != '.'
	switch {
	case droppable && n > 2:
		k := bytes.LastIndexByte(z.res, z.sep)
		z.res, z.lastLen = z.res[:max(k, 0)], 0
		if k >= 0 {
			z.lastLen = len(z.res) - 1 - bytes.LastIndexByte(z.res, z.sep)
		}
	case droppable && n != 0:
		z.res, z.lastLen = z.res[:0], 0
	case allowAboveRoot:
		z.add("..")
	}
}

// splitSegments is JavaScript's entry.split(/[/\\]/): the text between
// separators, empty strings included, so "" gives [""] and "/a/" gives
// ["", "a", ""].
func splitSegments(s string) []string {
	segs := make([]string, 0, strings.Count(s, "/")+strings.Count(s, `\`)+1)
	start := 0
	for i := 0; i < len(s); i++ {
		if isWin32Sep(s[i]) {
			segs = append(segs, s[start:i])
			start = i + 1
		}
	}
	return append(segs, s[start:])
}
