package yamljs

// The tests of yaml's YAML 1.1 schema and of its timestamps, written out
// from its regular expressions (each named above its function):
// compiling the expressions for every document took a third of the time
// of reading a small one. match11_test.go holds each to its expression.

// ^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$
func isTrue11(s string) bool {
	switch s {
	case "Y", "y", "Yes", "yes", "YES", "True", "true", "TRUE", "On", "on", "ON":
		return true
	}
	return false
}

// ^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$
func isFalse11(s string) bool {
	switch s {
	case "N", "n", "No", "no", "NO", "False", "false", "FALSE", "Off", "off", "OFF":
		return true
	}
	return false
}

func isBinOrUnderscore(c byte) bool { return c == '0' || c == '1' || c == '_' }
func isOctOrUnderscore(c byte) bool { return isOct(c) || c == '_' }
func isDecOrUnderscore(c byte) bool { return isDec(c) || c == '_' }
func isHexOrUnderscore(c byte) bool { return isHex(c) || c == '_' }

// ^[-+]?0b[0-1_]+$
func isBin11(s string) bool {
	s = trimSign(s)
	return len(s) > 2 && s[:2] == "0b" && isDigits(s[2:], isBinOrUnderscore)
}

// ^[-+]?0[0-7_]+$
func isOct11(s string) bool {
	s = trimSign(s)
	return len(s) > 1 && s[0] == '0' && isDigits(s[1:], isOctOrUnderscore)
}

// ^[-+]?[0-9][0-9_]*$
func isInt11(s string) bool {
	s = trimSign(s)
	return s != "" && isDec(s[0]) && (len(s) == 1 || isDigits(s[1:], isDecOrUnderscore))
}

// ^[-+]?0x[0-9a-fA-F_]+$
func isHex11(s string) bool {
	s = trimSign(s)
	return len(s) > 2 && s[:2] == "0x" && isDigits(s[2:], isHexOrUnderscore)
}

// skipNumber returns the offset in s after (?:[0-9][0-9_]*)?(?:\.[0-9_]*)?
// and whether it met the dot.
func skipNumber(s string) (int, bool) {
	i := 0
	if i < len(s) && isDec(s[i]) {
		for i++; i < len(s) && isDecOrUnderscore(s[i]); i++ {
		}
	}
	if i == len(s) || s[i] != '.' {
		return i, false
	}
	for i++; i < len(s) && isDecOrUnderscore(s[i]); i++ {
	}
	return i, true
}

// ^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$
func isExp11(s string) bool {
	s = trimSign(s)
	i, _ := skipNumber(s)
	if i == len(s) || (s[i] != 'e' && s[i] != 'E') {
		return false
	}
	return isDigits(trimSign(s[i+1:]), isDec)
}

// ^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$
func isFloat11(s string) bool {
	s = trimSign(s)
	i, dot := skipNumber(s)
	return dot && i == len(s)
}

// skipTime returns the offset in s after [0-9][0-9_]*(?::[0-5]?[0-9])+,
// -1 when s does not start so.
func skipTime(s string) int {
	if s == "" || !isDec(s[0]) {
		return -1
	}
	i := 1
	for i < len(s) && isDecOrUnderscore(s[i]) {
		i++
	}
	groups := 0
	for i < len(s) && s[i] == ':' {
		j := i + 1
		for j < len(s) && isDec(s[j]) && j-i <= 2 {
			j++
		}
		switch n := j - i - 1; {
		case n == 1, n == 2 && s[i+1] <= '5':
		default:
			return -1
		}
		if j < len(s) && isDec(s[j]) {
			return -1 // a third digit
		}
		i = j
		groups++
	}
	if groups == 0 {
		return -1
	}
	return i
}

// ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$
func isTimeInt11(s string) bool {
	s = trimSign(s)
	return skipTime(s) == len(s)
}

// ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$
func isTimeFloat11(s string) bool {
	s = trimSign(s)
	i := skipTime(s)
	return i >= 0 && i < len(s) && s[i] == '.' && (i+1 == len(s) || isDigits(s[i+1:], isDecOrUnderscore))
}

// digitsAt returns the offset after the run of at least lo and at most hi
// digits at s[i:], -1 when there are fewer than lo or more than hi.
func digitsAt(s string, i, lo, hi int) int {
	j := i
	for j < len(s) && isDec(s[j]) {
		j++
	}
	if j-i < lo || j-i > hi {
		return -1
	}
	return j
}

// matchTimestamp is FindStringSubmatch of
//
//	^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})
//	(?:(?:t|T|[ \t]+)([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(\.[0-9]+)?)
//	(?:[ \t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?)?$
//
// nil when s does not match.
func matchTimestamp(s string) []string {
	m := make([]string, 9)
	m[0] = s
	at := 0
	for k, run := range [][2]int{{4, 4}, {1, 2}, {1, 2}} {
		if k > 0 {
			if at == len(s) || s[at] != '-' {
				return nil
			}
			at++
		}
		end := digitsAt(s, at, run[0], run[1])
		if end < 0 {
			return nil
		}
		m[k+1], at = s[at:end], end
	}
	if at == len(s) {
		return m
	}
	if !matchTime(s[at:], m) {
		return nil
	}
	return m
}

// matchTime matches the time of a timestamp, from its separator on, into
// the groups m[4] to m[8].
func matchTime(s string, m []string) bool {
	at := 0
	switch {
	case s[0] == 't' || s[0] == 'T':
		at = 1
	default:
		for at < len(s) && (s[at] == ' ' || s[at] == '\t') {
			at++
		}
		if at == 0 {
			return false
		}
	}
	for k := 4; k <= 6; k++ {
		if k > 4 {
			if at == len(s) || s[at] != ':' {
				return false
			}
			at++
		}
		end := digitsAt(s, at, 1, 2)
		if end < 0 {
			return false
		}
		m[k], at = s[at:end], end
	}
	if at+1 < len(s) && s[at] == '.' && isDec(s[at+1]) {
		end := digitsAt(s, at+1, 1, len(s))
		m[6], m[7] = m[6]+s[at:end], s[at:end]
		at = end
	}
	return matchZone(s[at:], m)
}

// matchZone matches what follows a timestamp's seconds: nothing, or
// [ \t]* and a zone, into m[8].
func matchZone(rest string, m []string) bool {
	if rest == "" {
		return true
	}
	for rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
		rest = rest[1:]
	}
	if !isZone(rest) {
		return false
	}
	m[8] = rest
	return true
}

// isZone reports whether s is Z|[-+][012]?[0-9](?::[0-9]{2})?.
func isZone(s string) bool {
	if s == "Z" {
		return true
	}
	if s == "" || (s[0] != '-' && s[0] != '+') {
		return false
	}
	s = s[1:]
	h := digitsAt(s, 0, 1, 2)
	switch {
	case h < 0:
		return false
	case h == 2 && s[0] > '2':
		return false
	}
	s = s[h:]
	return s == "" || (len(s) == 3 && s[0] == ':' && isDec(s[1]) && isDec(s[2]))
}
