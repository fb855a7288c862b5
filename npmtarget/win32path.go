package npmtarget

import (
	"strings"
	"unicode/utf8"
)

// The Windows primitives: node's path.win32.dirname, join and normalize, as
// node 20 has them. They accept "\" and "/" alike, know drive roots ("C:",
// "C:\"), UNC roots ("\\server\share\") and device roots ("\\.\", "\\?\"),
// fold "." and "..", and write "\".

func isWin32Sep(c byte) bool { return c == '/' || c == '\\' }

func isDriveLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

// hasDrive reports whether p starts with a drive: a letter and ":".
func hasDrive(p string) bool {
	return len(p) >= 2 && isDriveLetter(p[0]) && p[1] == ':'
}

// uncRoot scans p, which starts with two separators, for the root of a UNC
// path as node reads one: a server name, one or more separators, then a
// share name, \\server\share. It returns the server name and where the
// share name starts and ends in p; ok is false when either name is missing.
// node reads a server of "." or "?" as a device root (\\.\, \\?\).
func uncRoot(p string) (server string, shareStart, shareEnd int, ok bool) {
	j := skip(p, 2, false)
	if j == len(p) || j == 2 {
		return "", 0, 0, false
	}
	k := skip(p, j, true)
	if k == len(p) || k == j {
		return "", 0, 0, false
	}
	return p[2:j], k, skip(p, k, false), true
}

// skip returns the index of the first byte at or after i that is not a
// separator (seps true) or that is one (seps false), or len(p).
func skip(p string, i int, seps bool) int {
	for i < len(p) && isWin32Sep(p[i]) == seps {
		i++
	}
	return i
}

// win32Dirname is node's path.win32.dirname.
func win32Dirname(p string) string {
	n := len(p)
	if n == 0 {
		return "."
	}
	if n == 1 {
		if isWin32Sep(p[0]) {
			return p
		}
		return "."
	}
	rootEnd := -1
	switch {
	case isWin32Sep(p[0]) && isWin32Sep(p[1]):
		rootEnd = 1
		if _, _, end, ok := uncRoot(p); ok {
			if end == n {
				return p // only a UNC root
			}
			rootEnd = end + 1
		}
	case isWin32Sep(p[0]):
		rootEnd = 1
	case hasDrive(p):
		rootEnd = 2
		if n > 2 && isWin32Sep(p[2]) {
			rootEnd = 3
		}
	}
	end := lastSegmentEnd(p, max(rootEnd, 0))
	switch {
	case end >= 0:
		return p[:end]
	case rootEnd >= 0:
		return p[:rootEnd]
	}
	return "."
}

// lastSegmentEnd returns the index of the separator that ends the
// second-to-last segment of p[from:] (trailing separators ignored), or -1
// when p[from:] holds a single segment.
func lastSegmentEnd(p string, from int) int {
	matchedSlash := true
	for i := len(p) - 1; i >= from; i-- {
		switch {
		case !isWin32Sep(p[i]):
			matchedSlash = false
		case !matchedSlash:
			return i
		}
	}
	return -1
}

// win32Join is node's path.win32.join: the non-empty elements joined with
// "\", then normalized, with a leading run of separators cut to one unless
// the first element starts like a UNC path (exactly two separators, then a
// name).
func win32Join(elem ...string) string {
	joined, firstPart := "", ""
	for _, e := range elem {
		if e == "" {
			continue
		}
		if joined == "" {
			joined, firstPart = e, e
		} else {
			joined += `\` + e
		}
	}
	if joined == "" {
		return "."
	}
	needsReplace := true
	slashCount := 0
	if isWin32Sep(firstPart[0]) {
		slashCount++
		if len(firstPart) > 1 && isWin32Sep(firstPart[1]) {
			slashCount++
			if len(firstPart) > 2 {
				if isWin32Sep(firstPart[2]) {
					slashCount++
				} else {
					needsReplace = false
				}
			}
		}
	}
	if needsReplace {
		slashCount = skip(joined, slashCount, true)
		if slashCount >= 2 {
			joined = `\` + joined[slashCount:]
		}
	}
	return win32Normalize(joined)
}

// win32Normalize is node's path.win32.normalize, including node's guards
// against a result Windows would read as another drive or a device
// (CVE-2024-36139 and the reserved device names).
func win32Normalize(p string) string {
	n := len(p)
	if n == 0 {
		return "."
	}
	if n == 1 {
		if p[0] == '/' {
			return `\`
		}
		return p
	}
	r := win32RootOf(p)
	if r.whole != "" {
		return r.whole
	}
	tail := ""
	if r.end < n {
		tail = normalizeString(p[r.end:], !r.absolute, '\\', isWin32Sep)
	}
	if tail == "" && !r.absolute {
		tail = "."
	}
	if tail != "" && isWin32Sep(p[n-1]) {
		tail += `\`
	}
	if !r.absolute && !r.hasDevice && readsAsDrive(p, tail) {
		// Keep a relative result from reading as a drive (CVE-2024-36139).
		return `.\` + tail
	}
	if isReservedName(p, strings.IndexByte(p, ':')) {
		return `.\` + r.device + tail
	}
	switch {
	case !r.hasDevice && r.absolute:
		return `\` + tail
	case !r.hasDevice:
		return tail
	case r.absolute:
		return r.device + `\` + tail
	}
	return r.device + tail
}

// win32Root is the root win32Normalize finds at the start of a path.
type win32Root struct {
	device    string // the drive, UNC or device root, without its last separator
	hasDevice bool
	absolute  bool   // whether a separator follows the root
	end       int    // where the rest of the path starts
	whole     string // the normalized path, when it is a UNC root alone
}

// win32RootOf finds the root of p, len(p) >= 2, as node's
// path.win32.normalize reads it.
func win32RootOf(p string) win32Root {
	switch {
	case isWin32Sep(p[0]) && isWin32Sep(p[1]):
		r := win32Root{absolute: true}
		server, start, end, ok := uncRoot(p)
		switch {
		case !ok:
		case server == "." || server == "?":
			r.device, r.hasDevice, r.end = `\\`+server, true, 4 // \\.\PHYSICALDRIVE0
		case end == len(p):
			r.whole = `\\` + server + `\` + p[start:] + `\` // only a UNC root
		default:
			r.device, r.hasDevice, r.end = `\\`+server+`\`+p[start:end], true, end
		}
		return r
	case isWin32Sep(p[0]):
		return win32Root{absolute: true, end: 1}
	case hasDrive(p):
		if len(p) > 2 && isWin32Sep(p[2]) {
			return win32Root{device: p[:2], hasDevice: true, absolute: true, end: 3}
		}
		return win32Root{device: p[:2], hasDevice: true, end: 2}
	}
	if colon := strings.IndexByte(p, ':'); colon > 0 && isReservedName(p, colon) {
		return win32Root{device: p[:colon+1], hasDevice: true, end: colon + 1}
	}
	return win32Root{}
}

// readsAsDrive reports whether a relative result built from p, whose
// normalized rest is tail, would read as a drive: tail starts with one, or p
// holds a ":" that ends a segment.
func readsAsDrive(p, tail string) bool {
	if strings.IndexByte(p, ':') < 0 {
		return false
	}
	if hasDrive(tail) {
		return true
	}
	for i := 0; i < len(p); i++ {
		if p[i] == ':' && (i == len(p)-1 || isWin32Sep(p[i+1])) {
			return true
		}
	}
	return false
}

// isReservedName is node's isWindowsReservedName: whether
// p.slice(0, colon), upper-cased, is a device name. Like JavaScript's slice,
// a colon of -1 cuts off the last UTF-16 code unit of p. When that unit is
// the low half of a surrogate pair (a 4-byte UTF-8 sequence here), node is
// left with a lone high surrogate, which no reserved name holds.
func isReservedName(p string, colon int) bool {
	if colon < 0 {
		r, size := utf8.DecodeLastRuneInString(p)
		if r >= 0x10000 {
			return false
		}
		colon = len(p) - size
	}
	// node's WINDOWS_RESERVED_NAMES.
	switch strings.ToUpper(p[:colon]) {
	case "CON", "PRN", "AUX", "NUL",
		"COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
		"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
		"COM\u00b9", "COM\u00b2", "COM\u00b3",
		"LPT\u00b9", "LPT\u00b2", "LPT\u00b3":
		return true
	}
	return false
}
