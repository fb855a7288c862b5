package yamljs

import (
	"strconv"
	"strings"
)

// prettyMessage is the message parse() throws for a problem: yaml's
// message, " at line L, column C", and an excerpt of the line with a
// pointer under the problem, as yaml's prettifyError writes it. Lines and
// columns there count UTF-16 code units, and only the line starts yaml's
// line counter learnt of.
//
//kicikit:long yaml's prettifyError: the excerpt's trimming, the previous line and the pointer are one computation
func prettyMessage(text string, lines []int32, p problem) string {
	line, col := linePos(text, lines, p.start)
	msg := p.message + " at line " + strconv.Itoa(line) + ", column " + strconv.Itoa(col)
	ci := col - 1
	lineStr, whole := units(text, lines, line-1, line, ci+81)
	if whole {
		lineStr = trimLineEnd(lineStr)
	}
	if ci >= 60 && len(lineStr) > 80 {
		trimStart := min(ci-39, len(lineStr)-79)
		lineStr = append([]uint16{'…'}, lineStr[trimStart:]...)
		ci -= trimStart - 1
	}
	if len(lineStr) > 80 {
		lineStr = append(append([]uint16{}, lineStr[:79]...), '…')
	}
	if line > 1 && onlySpaces(lineStr[:min(ci, len(lineStr))]) {
		prev, _ := units(text, lines, line-2, line-1, 81)
		if len(prev) > 80 {
			prev = append(append([]uint16{}, prev[:79]...), '…', '\n')
		}
		lineStr = append(prev, lineStr...)
	}
	if onlySpaces(lineStr) {
		return msg
	}
	count := 1
	endLine, endCol := linePos(text, lines, p.end)
	if p.oneUnit {
		endLine, endCol = line, col+1
	}
	if endLine == line && endCol > col {
		count = max(1, min(endCol-col, 80-ci))
	}
	return msg + ":\n\n" + fromUnits(lineStr) + "\n" + strings.Repeat(" ", ci) + strings.Repeat("^", count) + "\n"
}

// linePos is yaml's LineCounter.linePos of a text offset: the 1-based line
// among the known line starts, and the column in code units.
func linePos(text string, lines []int32, off int) (int, int) {
	low, high := 0, len(lines)
	for low < high {
		mid := (low + high) >> 1
		if int(lines[mid]) < off {
			low = mid + 1
		} else {
			high = mid
		}
	}
	if low < len(lines) && int(lines[low]) == off {
		return low + 1, 1
	}
	start := int(lines[low-1])
	return low, unitsBetween(text, start, off) + 1
}

// units is the text from line start i to line start j (the end when there
// is none), as code units: all of them (whole), or its first n when it is
// longer, all the excerpt shows of a long line. n is at least 3.
func units(text string, lines []int32, i, j, n int) (u []uint16, whole bool) {
	from, to := min(int(lines[i]), len(text)), len(text)
	if j < len(lines) {
		to = min(int(lines[j]), len(text))
	}
	// A code unit takes 3 bytes at most: 4n bytes hold n whole ones, then
	// maybe a character cut short.
	if to-from > 4*n {
		return toUnits(text[from : from+4*n])[:n], false
	}
	return toUnits(text[from:max(from, to)]), true
}

// trimLineEnd is .replace(/[\n\r]+$/, ”).
func trimLineEnd(u []uint16) []uint16 {
	for len(u) > 0 && (u[len(u)-1] == '\n' || u[len(u)-1] == '\r') {
		u = u[:len(u)-1]
	}
	return u
}

func onlySpaces(u []uint16) bool {
	for _, c := range u {
		if c != ' ' {
			return false
		}
	}
	return true
}
