package npmtarget

// The posix primitives: node's path.posix.dirname, join and normalize.
// Go's path.Dir and path.Join differ from them at the edges (node keeps a
// trailing separator in join, answers "//" for dirname("//a") and "/a" for
// dirname("/a/b/")), and the orchestrator's answers are node's.

func isPosixSep(c byte) bool { return c == '/' }

// posixDirname is node's path.posix.dirname.
func posixDirname(p string) string {
	if p == "" {
		return "."
	}
	hasRoot := p[0] == '/'
	end := -1
	matchedSlash := true
	for i := len(p) - 1; i >= 1; i-- {
		if p[i] == '/' {
			if !matchedSlash {
				end = i
				break
			}
		} else {
			matchedSlash = false
		}
	}
	switch {
	case end == -1 && hasRoot:
		return "/"
	case end == -1:
		return "."
	case hasRoot && end == 1:
		return "//"
	}
	return p[:end]
}

// posixJoin is node's path.posix.join: the non-empty elements joined with
// "/", then normalized.
func posixJoin(elem ...string) string {
	joined := ""
	for _, e := range elem {
		if e == "" {
			continue
		}
		if joined != "" {
			joined += "/"
		}
		joined += e
	}
	if joined == "" {
		return "."
	}
	return posixNormalize(joined)
}

// posixNormalize is node's path.posix.normalize.
func posixNormalize(p string) string {
	if p == "" {
		return "."
	}
	isAbsolute := p[0] == '/'
	trailingSeparator := p[len(p)-1] == '/'
	p = normalizeString(p, !isAbsolute, '/', isPosixSep)
	if p == "" {
		switch {
		case isAbsolute:
			return "/"
		case trailingSeparator:
			return "./"
		}
		return "."
	}
	if trailingSeparator {
		p += "/"
	}
	if isAbsolute {
		return "/" + p
	}
	return p
}
