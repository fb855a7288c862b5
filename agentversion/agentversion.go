package agentversion

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/internal/jsstr"
)

// Version is a release version MAJOR.MINOR.PATCH. Versions compare with ==.
// The zero Version is 0.0.0, a valid version.
type Version struct {
	Major uint64 // the first part: 0 in 0.20.0
	Minor uint64 // the second part: 20 in 0.20.0
	Patch uint64 // the third part: 0 in 0.20.0
}

// Parse parses s as a release version. It trims white space from both
// ends and drops everything from the first "-". The rest must be three
// dot-separated parts of ASCII digits. The package documentation gives the
// grammar.
//
// A leading "v" is not accepted. [Compare] and [ParseTarget] strip one
// before they parse. On failure Parse returns the zero Version and a
// [*ParseError].
func Parse(s string) (Version, error) {
	v, r := parse(s, false)
	if r != 0 {
		return Version{}, &ParseError{Func: "Parse", Input: s, Reason: r}
	}
	return v, nil
}

// MustParse is like [Parse] but panics when s is not a version. It is
// intended for use in tests with hard-coded strings.
func MustParse(s string) Version {
	v, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return v
}

// ParseTarget reads s as the release an upgrade installs. It trims white
// space from both ends, drops one leading "v", and reads the rest with
// [Parse]. This is the orchestrator's targetVersion in
// checkContainerAgentImages.
//
// The text it returns is the one the orchestrator prints in its messages.
// That is s trimmed and without the "v", with any "-suffix" kept. So
// " v0.20.0-rc.1\n" is 0.20.0 with the text "0.20.0-rc.1". The text is not
// trimmed again after the "v" goes: "v 0.20.0" has the text " 0.20.0".
//
// Unlike [Compare], ParseTarget trims before it drops the "v". So " v1.2.3"
// is a target. On failure it returns the zero Version, "" and a
// [*ParseError] naming ParseTarget and the whole of s.
func ParseTarget(s string) (v Version, text string, err error) {
	text = jsstr.Trim(s)
	v, r := parseRelease(text)
	if r != 0 {
		return Version{}, "", &ParseError{Func: "ParseTarget", Input: s, Reason: r}
	}
	return v, strings.TrimPrefix(text, "v"), nil
}

// Compare compares the release versions a and b. It returns -1 when a is
// an older release than b, 0 when they are the same release, and +1 when a
// is newer. It is the orchestrator's compareReleases.
//
// Each side first loses one leading "v", then [Parse] reads it. The "v"
// goes before any white space is trimmed. So "v 1.2.3" is a version to
// Compare, and " v1.2.3" is not. When either side is not a version, Compare
// returns 0 and a [*CompareError] naming the side or sides that failed.
func Compare(a, b string) (int, error) {
	va, ra := parseRelease(a)
	vb, rb := parseRelease(b)
	if ra != 0 || rb != 0 {
		return 0, newCompareError(a, b, ra, rb)
	}
	return va.Compare(vb), nil
}

// Compare returns an integer comparing v and w. The result is -1 when v is
// an older release than w, 0 when they are equal, and +1 when v is newer.
// Major, then minor, then patch decide.
func (v Version) Compare(w Version) int {
	if c := cmp.Compare(v.Major, w.Major); c != 0 {
		return c
	}
	if c := cmp.Compare(v.Minor, w.Minor); c != 0 {
		return c
	}
	return cmp.Compare(v.Patch, w.Patch)
}

// Less reports whether v is an older release than w.
func (v Version) Less(w Version) bool {
	return v.Compare(w) < 0
}

// String returns v as "MAJOR.MINOR.PATCH", in decimal without leading
// zeros. [Parse] reads this canonical form back as v.
func (v Version) String() string {
	var buf [3*20 + 2]byte
	return string(v.appendTo(buf[:0]))
}

// Semver returns v as "vMAJOR.MINOR.PATCH". This is the canonical form of
// golang.org/x/mod/semver, so the result can be passed to that package.
func (v Version) Semver() string {
	var buf [1 + 3*20 + 2]byte
	return string(v.appendTo(append(buf[:0], 'v')))
}

// AppendText implements [encoding.TextAppender]: it appends the form that
// [Version.String] returns to b.
func (v Version) AppendText(b []byte) ([]byte, error) {
	return v.appendTo(b), nil
}

// MarshalText implements [encoding.TextMarshaler], with the form that
// [Version.String] returns.
func (v Version) MarshalText() ([]byte, error) {
	return v.appendTo(make([]byte, 0, 3*20+2)), nil
}

// UnmarshalText implements [encoding.TextUnmarshaler] with [Parse]. On error
// it leaves v unchanged.
func (v *Version) UnmarshalText(text []byte) error {
	w, err := Parse(string(text))
	if err != nil {
		return err
	}
	*v = w
	return nil
}

func (v Version) appendTo(b []byte) []byte {
	b = strconv.AppendUint(b, v.Major, 10)
	b = append(b, '.')
	b = strconv.AppendUint(b, v.Minor, 10)
	b = append(b, '.')
	return strconv.AppendUint(b, v.Patch, 10)
}

// parseRelease is the step Compare and ParseTarget share: one leading "v"
// goes, then Parse reads the rest.
func parseRelease(s string) (Version, Reason) {
	return parse(s, true)
}

// parse is Parse without the error value, so that it never allocates, and
// with one leading "v" dropped first when dropV is set. It reads s in one
// pass. The reasons take precedence in the order the orchestrator checks
// them: the part count first, then the digits, then (the orchestrator has
// no such limit) the range.
func parse(s string, dropV bool) (Version, Reason) {
	if dropV && s != "" && s[0] == 'v' {
		s = s[1:]
	}
	if s = jsstr.Trim(s); s == "" {
		return Version{}, ErrEmpty
	}
	var parts [3]uint64
	var n uint64
	dots, digits := 0, 0
	notDigits, overflow := false, false
	for i := 0; i < len(s) && s[i] != '-'; i++ {
		if d := uint64(s[i] - '0'); d <= 9 {
			overflow = overflow || n > (1<<64-1-d)/10
			n = n*10 + d
			digits++
			continue
		}
		if s[i] != '.' {
			notDigits = true
			continue
		}
		if dots == 2 {
			return Version{}, ErrPartCount
		}
		notDigits = notDigits || digits == 0
		parts[dots] = n
		dots++
		n, digits = 0, 0
	}
	if r := reason(dots, notDigits || digits == 0, overflow); r != 0 {
		return Version{}, r
	}
	return Version{parts[0], parts[1], n}, 0
}

// reason is parse's verdict once the scan is done, in the order of
// precedence; 0 for a version.
func reason(dots int, notDigits, overflow bool) Reason {
	switch {
	case dots != 2:
		return ErrPartCount
	case notDigits:
		return ErrNotDigits
	case overflow:
		return ErrRange
	}
	return 0
}
