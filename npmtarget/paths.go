package npmtarget

import "strings"

// This file holds the path algorithm the two flavours share, node's
// normalizeString, and the per-flavour dispatch. The flavour is an input (a
// Windows flag), never the machine the code runs on: path/filepath picks its
// rules at compile time, so its Windows branches are tested only on Windows.
// posix.go and win32path.go hold the per-flavour primitives, ported from
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
	res := make([]byte, 0, len(p))
	lastSegmentLength := 0
	lastSlash := -1
	dots := 0
	var code byte
	for i := 0; i <= len(p); i++ {
		switch {
		case i < len(p):
			code = p[i]
		case isSep(code):
			return string(res)
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
			n := len(res)
			if n < 2 || lastSegmentLength != 2 || res[n-1] != '.' || res[n-2] != '.' {
				if n > 2 {
					if k := lastIndexByte(res, sep); k == -1 {
						res = res[:0]
						lastSegmentLength = 0
					} else {
						res = res[:k]
						lastSegmentLength = len(res) - 1 - lastIndexByte(res, sep)
					}
					lastSlash, dots = i, 0
					continue
				} else if n != 0 {
					res = res[:0]
					lastSegmentLength = 0
					lastSlash, dots = i, 0
					continue
				}
			}
			if allowAboveRoot {
				if len(res) > 0 {
					res = append(res, sep)
				}
				res = append(res, '.', '.')
				lastSegmentLength = 2
			}
		default:
			if len(res) > 0 {
				res = append(res, sep)
			}
			res = append(res, p[lastSlash+1:i]...)
			lastSegmentLength = i - lastSlash - 1
		}
		lastSlash, dots = i, 0
	}
	return string(res)
}

func lastIndexByte(b []byte, c byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == c {
			return i
		}
	}
	return -1
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
