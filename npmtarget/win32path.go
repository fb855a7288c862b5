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
	rootEnd, offset := -1, 0
	switch {
	case isWin32Sep(p[0]):
		// A root, possibly a UNC root.
		rootEnd, offset = 1, 1
		if isWin32Sep(p[1]) {
			j := skip(p, 2, false)
			if j < n && j != 2 {
				last := j
				j = skip(p, j, true)
				if j < n && j != last {
					last = j
					j = skip(p, j, false)
					if j == n {
						// Only a UNC root.
						return p
					}
					if j != last {
						// A UNC root with more after it.
						rootEnd, offset = j+1, j+1
					}
				}
			}
		}
	case isDriveLetter(p[0]) && p[1] == ':':
		rootEnd = 2
		if n > 2 && isWin32Sep(p[2]) {
			rootEnd = 3
		}
		offset = rootEnd
	}
	end := -1
	matchedSlash := true
	for i := n - 1; i >= offset; i-- {
		if isWin32Sep(p[i]) {
			if !matchedSlash {
				end = i
				break
			}
		} else {
			matchedSlash = false
		}
	}
	if end == -1 {
		if rootEnd == -1 {
			return "."
		}
		end = rootEnd
	}
	return p[:end]
}

// skip returns the index of the first byte at or after i that is not a
// separator (seps true) or that is one (seps false), or len(p).
func skip(p string, i int, seps bool) int {
	for i < len(p) && isWin32Sep(p[i]) == seps {
		i++
	}
	return i
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
	rootEnd := 0
	device, hasDevice := "", false
	isAbsolute := false
	if isWin32Sep(p[0]) {
		// Some kind of absolute path, possibly UNC.
		isAbsolute = true
		if !isWin32Sep(p[1]) {
			rootEnd = 1
		} else {
			j := skip(p, 2, false)
			if j < n && j != 2 {
				firstPart := p[2:j]
				last := j
				j = skip(p, j, true)
				if j < n && j != last {
					last = j
					j = skip(p, j, false)
					switch {
					case firstPart == "." || firstPart == "?":
						// A device root such as \\.\PHYSICALDRIVE0.
						device, hasDevice = `\\`+firstPart, true
						rootEnd = 4
					case j == n:
						// Only a UNC root.
						return `\\` + firstPart + `\` + p[last:] + `\`
					default:
						device, hasDevice = `\\`+firstPart+`\`+p[last:j], true
						rootEnd = j
					}
				}
			}
		}
	} else if colon := strings.IndexByte(p, ':'); colon > 0 {
		if isDriveLetter(p[0]) && colon == 1 {
			device, hasDevice = p[:2], true
			rootEnd = 2
			if n > 2 && isWin32Sep(p[2]) {
				isAbsolute = true
				rootEnd = 3
			}
		} else if isReservedName(p, colon) {
			device, hasDevice = p[:colon+1], true
			rootEnd = colon + 1
		}
	}
	tail := ""
	if rootEnd < n {
		tail = normalizeString(p[rootEnd:], !isAbsolute, '\\', isWin32Sep)
	}
	if tail == "" && !isAbsolute {
		tail = "."
	}
	if tail != "" && isWin32Sep(p[n-1]) {
		tail += `\`
	}
	if !isAbsolute && !hasDevice && strings.IndexByte(p, ':') >= 0 {
		// Keep a relative result from reading as a drive (CVE-2024-36139).
		if len(tail) >= 2 && isDriveLetter(tail[0]) && tail[1] == ':' {
			return `.\` + tail
		}
		for i := 0; i < n; i++ {
			if p[i] == ':' && (i == n-1 || isWin32Sep(p[i+1])) {
				return `.\` + tail
			}
		}
	}
	if isReservedName(p, strings.IndexByte(p, ':')) {
		return `.\` + device + tail
	}
	switch {
	case !hasDevice && isAbsolute:
		return `\` + tail
	case !hasDevice:
		return tail
	case isAbsolute:
		return device + `\` + tail
	}
	return device + tail
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
