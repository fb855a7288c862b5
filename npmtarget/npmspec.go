package npmtarget

import (
	"strconv"
	"strings"
)

// The rules by which npm reads "<package>@<version>", the package spec
// npm install -g is given for an upgrade. npm-package-arg reads it as a
// registry version, a dist-tag, a range, an alias ("npm:"), a URL, a git
// repository, a folder or a tarball, by the shape of the text after "@"; a
// folder or a tarball is installed by running its scripts as the upgrader,
// and an alias installs another package under the name. These rules accept
// a version and a dist-tag only, in a form npm cannot read as anything else,
// and a package name npm takes (validate-npm-package-name). The tables of
// testdata/npmspec, made by npm-package-arg itself, check them.

// maxSpecLen is node-semver's MAX_LENGTH: npm reads no longer string as a
// version, and nothing longer is a plausible dist-tag.
const maxSpecLen = 256

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER, the largest
// major, minor or patch number node-semver takes.
const maxSafeInteger = 1<<53 - 1

// isVersionOrTag reports whether npm reads "<name>@v" as the version v of
// the package (a semantic version, an optional "v" before it) or as its
// dist-tag v: letters, digits, ".", "_" and "-", starting with a letter,
// neither a range (such as "x", "v1" or "x.2") nor a tarball's name (such as
// "latest.tgz"). Anything else is refused, including forms npm would also
// read as a version ("=1.2.3", " 1.2.3", "01.2.3", "1.2.3beta").
func isVersionOrTag(v string) bool {
	if v == "" || len(v) > maxSpecLen {
		return false
	}
	return isSemver(v) || isDistTag(v)
}

// isSemver reports whether v is MAJOR.MINOR.PATCH, each a number without
// leading zeros up to maxSafeInteger, then optionally "-" and dot-separated
// pre-release identifiers (digits without leading zeros, or letters, digits
// and "-" with at least one non-digit), then optionally "+" and
// dot-separated build identifiers (letters, digits and "-"), all after an
// optional "v": semver.org's grammar, which node-semver reads strictly.
func isSemver(v string) bool {
	v = strings.TrimPrefix(v, "v")
	v, build, hasBuild := strings.Cut(v, "+")
	if hasBuild && !identifiers(build, false) {
		return false
	}
	v, pre, hasPre := strings.Cut(v, "-")
	if hasPre && !identifiers(pre, true) {
		return false
	}
	for i := 0; i < 3; i++ {
		part, rest, more := strings.Cut(v, ".")
		if more != (i < 2) || !safeNumber(part) {
			return false
		}
		v = rest
	}
	return true
}

// safeNumber reports whether s is a number without leading zeros that
// node-semver takes as a version part.
func safeNumber(s string) bool {
	if s == "" || len(s) > 1 && s[0] == '0' || len(s) > 16 {
		return false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return err == nil && n <= maxSafeInteger
}

// identifiers reports whether s is dot-separated non-empty identifiers of
// letters, digits and "-"; with prerelease, an all-digit identifier must
// have no leading zero.
func identifiers(s string, prerelease bool) bool {
	for _, id := range strings.Split(s, ".") {
		if id == "" || strings.Trim(id, alnum+"-") != "" {
			return false
		}
		if prerelease && strings.Trim(id, digits) == "" && len(id) > 1 && id[0] == '0' {
			return false
		}
	}
	return true
}

const (
	digits = "0123456789"
	alnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" + digits
)

// isDistTag reports whether v is a dist-tag npm reads as one.
func isDistTag(v string) bool {
	if !isLetter(v[0]) || strings.Trim(v, alnum+"._-") != "" {
		return false
	}
	return !isXRange(v) && !hasTarballSuffix(v)
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// isXRange reports whether v, made of letters, digits, ".", "_" and "-",
// reads as node-semver's loose x-range: "v"s, then one to three parts of
// digits, "x" or "X" separated by ".", then, after a third, loose
// pre-release identifiers.
func isXRange(v string) bool {
	v = strings.TrimLeft(v, "v")
	for part := 0; part < 3; part++ {
		n := len(v) - len(strings.TrimLeft(v, digits))
		if n == 0 && v != "" && (v[0] == 'x' || v[0] == 'X') {
			n = 1
		}
		if n == 0 {
			return false
		}
		v = v[n:]
		if v == "" {
			return true
		}
		if part < 2 {
			var ok bool
			if v, ok = strings.CutPrefix(v, "."); !ok {
				return false
			}
		}
	}
	return identifiers(v, false)
}

// hasTarballSuffix reports whether npm reads s, a name or a spec, as a
// tarball's file name: ".tgz", ".tar" or ".tar.gz" in any case.
func hasTarballSuffix(s string) bool {
	return hasSuffixFold(s, ".tgz") || hasSuffixFold(s, ".tar") || hasSuffixFold(s, ".tar.gz")
}

// isPackageName reports whether npm takes name as a package's name, as
// validate-npm-package-name's validForOldPackages does, and reads
// "<name>@<version>" as that package: not empty; not starting with ".", "-"
// or "_"; not node_modules or favicon.ico in any case; either only letters,
// digits and "-_.!~*'()" (what encodeURIComponent leaves as it is), not
// ending as a tarball's name does, or "@scope/name" with both parts made of
// those and the name not starting with ".".
func isPackageName(name string) bool {
	if name == "" || strings.IndexByte("._-", name[0]) >= 0 {
		return false
	}
	if l := strings.ToLower(name); l == "node_modules" || l == "favicon.ico" {
		return false
	}
	if uriSafe(name) {
		return !hasTarballSuffix(name)
	}
	scoped, ok := strings.CutPrefix(name, "@")
	if !ok {
		return false
	}
	scope, pkg, ok := strings.Cut(scoped, "/")
	return ok && scope != "" && pkg != "" && pkg[0] != '.' && uriSafe(scope) && uriSafe(pkg)
}

// uriSafe reports whether encodeURIComponent leaves s as it is.
func uriSafe(s string) bool {
	return strings.Trim(s, alnum+"-_.!~*'()") == ""
}
