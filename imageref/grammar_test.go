package imageref

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/distribution/reference"
	godigest "github.com/opencontainers/go-digest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reference package's exported regular expressions, anchored: the
// productions of grammar.go must match exactly what they match.
var (
	anchoredDomainRegexp     = anchor(reference.DomainRegexp)
	anchoredTagRegexp        = anchor(reference.TagRegexp)
	anchoredDigestRegexp     = anchor(reference.DigestRegexp)
	anchoredNameRegexp       = anchor(reference.NameRegexp)
	anchoredIdentifierRegexp = anchor(reference.IdentifierRegexp)
)

func anchor(r *regexp.Regexp) *regexp.Regexp {
	return regexp.MustCompile(`^(?:` + r.String() + `)$`)
}

// distributionRefs returns the strings of distribution/reference's own
// tests, which testdata/refseeds extracted.
func distributionRefs(t testing.TB) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/distribution-refs.json")
	require.NoError(t, err)
	var file struct{ Seeds []string }
	require.NoError(t, json.Unmarshal(b, &file))
	require.NotEmpty(t, file.Seeds)
	return file.Seeds
}

// FuzzParseDifferential holds Parse to reference.ParseNormalizedNamed, on
// a string the fuzzer mutates from distribution/reference's own test
// references, and on a reference that generate builds from the grammar as
// recipe steers it: the same verdict, and the same parts or the same error
// and Reason (checkParse).
func FuzzParseDifferential(f *testing.F) {
	recipes := [][]byte{nil, {1, 2, 3, 4, 5, 6, 7, 8, 9}, []byte("kici-agent:0.20.0"), {9, 200, 31, 7, 255, 3, 64, 1, 1, 2}}
	for i, s := range distributionRefs(f) {
		f.Add(s, recipes[i%len(recipes)])
	}
	addRefSeeds(func(s string) { f.Add(s, []byte(s)) })
	f.Fuzz(func(t *testing.T, s string, recipe []byte) {
		checkParse(t, s)
		checkParse(t, generate(recipe))
	})
}

// FuzzGrammar holds each production of grammar.go to the regular
// expression it stands for, on the strings of FuzzParseDifferential.
func FuzzGrammar(f *testing.F) {
	for _, s := range distributionRefs(f) {
		f.Add(s)
	}
	addRefSeeds(func(s string) { f.Add(s) })
	f.Fuzz(checkGrammar)
}

// checkGrammar checks each production of grammar.go, and go-digest's
// validation by hand, against what it stands for, on all of s.
func checkGrammar(t *testing.T, s string) {
	t.Helper()
	whole := func(n int) bool { return s != "" && n == len(s) }
	for _, c := range []struct {
		what      string
		got, want bool
	}{
		{"domain-and-port", isDomainAndPort(s), anchoredDomainRegexp.MatchString(s)},
		{"tag", whole(tagLen(s)), anchoredTagRegexp.MatchString(s)},
		{"digest", whole(digestLen(s)), anchoredDigestRegexp.MatchString(s)},
		{"name", matchesName(s), anchoredNameRegexp.MatchString(s)},
		{"identifier", isIdentifier(s), anchoredIdentifierRegexp.MatchString(s)},
		{"go-digest's DigestRegexp", whole(goDigestLen(s)), godigest.DigestRegexpAnchored.MatchString(s)},
		{"changesInLowerCase", changesInLowerCase(s), strings.ToLower(s) != s},
	} {
		require.Equal(t, c.want, c.got, "%q: %s", s, c.what)
	}
	got, want := validateDigest(s), godigest.Digest(s).Validate()
	require.True(t, sameError(got, want), "validateDigest(%q) = %v, go-digest says %v", s, got, want)
	checkMatch(t, s)
}

// matchesName reports whether all of s is a name: [ domain-and-port "/" ]
// remote-name.
func matchesName(s string) bool {
	first, rest, ok := strings.Cut(s, "/")
	if ok && isDomainAndPort(first) && rest != "" && remoteNameLen(rest) == len(rest) {
		return true
	}
	return s != "" && remoteNameLen(s) == len(s)
}

// checkMatch checks step 4 on s, read as a domain and a remainder split at
// its first "/", against the reference package's ReferenceRegexp and, where
// reference.Parse accepts s, the path it reads.
func checkMatch(t *testing.T, s string) {
	t.Helper()
	first, rest, ok := strings.Cut(s, "/")
	var m match
	if ok {
		m, ok = normalized{domain: first, remainder: rest}.match()
	} else {
		m, ok = matchTail(s)
	}
	sub := reference.ReferenceRegexp.FindStringSubmatch(s)
	require.Equal(t, sub != nil, ok, "%q: match %+v; ReferenceRegexp %q", s, m, sub)
	if ok {
		require.Equal(t, []string{sub[2], sub[3]}, []string{m.tag, m.digest}, "%q: the tag and digest of match %+v; ReferenceRegexp's", s, m)
	}
	if ref, err := reference.Parse(s); err == nil {
		named, isNamed := ref.(reference.Named)
		require.True(t, isNamed, "%q: reference.Parse reads %#v", s, ref)
		require.Equal(t, len(reference.Path(named)), m.pathLen, "%q: match %+v; reference.Parse reads %#v", s, m, ref)
	}
}

// gen reads a recipe a byte at a time, 0 once it has none left.
type gen struct{ recipe []byte }

func (g *gen) next() int {
	if len(g.recipe) == 0 {
		return 0
	}
	c := g.recipe[0]
	g.recipe = g.recipe[1:]
	return int(c)
}

// pick returns one of options; the first once the recipe is read.
func (g *gen) pick(options ...string) string {
	return options[g.next()%len(options)]
}

// run returns min to max bytes, each one of chars.
func (g *gen) run(chars string, minLen, maxLen int) string {
	n := minLen + g.next()%(maxLen-minLen+1)
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[g.next()%len(chars)]
	}
	return string(b)
}

// generate builds a reference from the grammar, each choice made by a byte
// of recipe: mostly what the grammar allows, and now and then a near miss
// (a character out of place, a part one byte too long), so that mutating
// the recipe explores both sides of the grammar's every edge.
func generate(recipe []byte) string {
	g := &gen{recipe: recipe}
	var b strings.Builder
	switch g.next() % 8 {
	case 0:
		return g.run("0123456789abcdef", 63, 65)
	case 1, 2:
	default:
		b.WriteString(g.domain() + "/")
	}
	b.WriteString(g.path())
	if g.next()%2 == 1 {
		b.WriteString(":" + g.tag())
	}
	if g.next()%3 == 1 {
		b.WriteString("@" + g.digest())
	}
	return b.String()
}

func (g *gen) domain() string {
	port := g.pick("", "", ":5000", ":", ":x", ":0")
	switch g.next() % 8 {
	case 0:
		return "localhost" + port
	case 1:
		return "[" + g.run("0af:F", 1, 8) + "]" + port
	case 2:
		return g.pick("docker.io", "index.docker.io", "Docker.io", "a_b.c", "library", "[::1", "A_B.c", "\u212a.io", "localhost")
	case 3:
		return strings.Repeat(g.run("ab.", 1, 4), 1+g.next()%8*16)
	}
	name := g.domainComponent()
	for range g.next() % 4 {
		name += "." + g.domainComponent()
	}
	return name + port
}

func (g *gen) domainComponent() string {
	return g.run("aZ09-", 1, 2) + g.run("aZ9--.", 0, 3) + g.run("aZ9-_", 0, 1)
}

func (g *gen) path() string {
	if g.next()%16 == 0 {
		// Near the 255-byte limit, "library/" included or not.
		return g.pick("", "a/", "library/") + strings.Repeat("a", 240+g.next()%20)
	}
	path := g.pathComponent()
	for range g.next() % 4 {
		path += g.pick("/", "/", "/", "//") + g.pathComponent()
	}
	return path
}

func (g *gen) pathComponent() string {
	c := g.run("az09", 1, 3)
	for range g.next() % 3 {
		c += g.pick(".", "_", "__", "-", "---", "___", "..", "-_", "A", "") + g.run("az09", 0, 2)
	}
	return c
}

func (g *gen) tag() string {
	if g.next()%16 == 0 {
		return g.run("aA_", 1, 1) + strings.Repeat(g.run("a.-", 1, 1), 120+g.next()%16)
	}
	return g.run("aZ9_.-", 1, 3) + g.run("aZ9_.-+ :\u212a", 0, 4)
}

func (g *gen) digest() string {
	algorithm := g.pick("sha256", "sha384", "sha512", "md5", "SHA256", "sha256+b64", "a.b_c-d", "", "9a", "sha256:")
	digits := g.pick("0123456789abcdef", "0123456789abcdef", "0aF", "0az=")
	sizes := []int{31, 32, 63, 64, 64, 65, 95, 96, 127, 128, 129}
	size := sizes[g.next()%len(sizes)]
	return algorithm + ":" + g.run(digits, size, size)
}

func TestValid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"familiar name", "kici-agent", true},
		{"two underscores", "a__b", true},
		{"three underscores", "a___b", false},
		{"dashes", "a---b", true},
		{"dash then underscore", "a-_b", false},
		{"two dots", "a..b", false},
		{"trailing separator", "a-", false},
		{"empty component", "a//b", false},
		{"upper-case registry", "A/b", true},
		{"upper-case path", "a/B", false},
		{"first element no registry", "a_b.c/d", true},
		{"first element neither", "a_b:c/d", false},
		{"ipv4 and port", "127.0.0.1:5000/a", true},
		{"ipv6", "[::1]/a", true},
		{"ipv6 without a path", "[::1]:5000", false},
		{"ipv6 zone", "[fe80::1%eth0]:5000/a", false},
		{"port not a number", "a.b:50x/c", false},
		{"domain component ends in a dash", "a-.com/b", false},
		{"localhost", "localhost/a", true},
		{"docker.io official", "docker.io/a", true},
		{"legacy index", "index.docker.io/a/b", true},
		{"identifier", hex64, false},
		{"identifier with a tag", hex64 + ":1", true},
		{"identifier under a registry", "docker.io/" + hex64, true},
		{"longest familiar name", strings.Repeat("a", 247), true},
		{"familiar name one too long", strings.Repeat("a", 248), false},
		{"first element counts in the path", "a_b.c/" + strings.Repeat("a", 249), true},
		{"first element counts, one too long", "a_b.c/" + strings.Repeat("a", 250), false},
		{"longest tag", "a:" + strings.Repeat("A", 128), true},
		{"tag one too long", "a:" + strings.Repeat("A", 129), false},
		{"tag starting with a dot", "a:.1", false},
		{"sha256", "a@" + sha256, true},
		{"sha384", "a@sha384:" + hex64 + hex64[:32], true},
		{"upper-case hex", "a@sha256:" + strings.ToUpper(hex64), false},
		{"unknown algorithm", "a@md5:" + hex64[:32], false},
		{"tag and digest", "a:1@" + sha256, true},
		{"digest before a tag", "a@" + sha256 + ":1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, accepts(tt.in), "the reference package")
			assert.Equal(t, tt.want, valid(tt.in))
		})
	}
}

func TestNormalizedNamedError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want error // the reference package's sentinel; nil where it accepts, or where its error is one of its own text
	}{
		{"valid", "quay.io/kici/kici-agent:0.20.0@" + sha256, nil},
		{"identifier", hex64, nil},
		{"upper-case remote name", "Kici-Agent", nil},
		{"upper-case remote name under a registry", "q.io/Kici:1", nil},
		{"upper case only in lower case's view", "A_B.c/d", reference.ErrNameContainsUppercase},
		{"invalid", "a b", reference.ErrReferenceInvalidFormat},
		{"path too long", "q.io/" + strings.Repeat("a", 256), reference.ErrNameTooLong},
		{"digest of the wrong length", "a@sha256:" + hex64[:32], godigest.ErrDigestInvalidLength},
		{"digest of an unknown algorithm", "a@md5:" + hex64[:32], godigest.ErrDigestUnsupported},
		{"digest of an algorithm go-digest cannot read", "a:1@sha256+B64:" + hex64[:32], godigest.ErrDigestInvalidFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, want := reference.ParseNormalizedNamed(tt.in)
			if tt.want != nil {
				require.Equal(t, tt.want, want, "the reference package")
			}
			got := normalizedNamedError(tt.in)
			assert.True(t, sameError(got, want), "got %v, want %v", got, want)
		})
	}
}

// TestEncodedSize checks the algorithms valid accepts against go-digest:
// those available with the hashes linked in, and their sizes.
func TestEncodedSize(t *testing.T) {
	t.Parallel()
	for _, algorithm := range []string{"sha256", "sha384", "sha512", "SHA256", "sha1", "md5", "sha512_256", "blake3", ""} {
		t.Run(algorithm, func(t *testing.T) {
			t.Parallel()
			want := 0
			if a := godigest.Algorithm(algorithm); a.Available() {
				want = 2 * a.Size()
			}
			assert.Equal(t, want, encodedSize(algorithm))
		})
	}
}

func TestChangesInLowerCase(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"empty", "", false},
		{"lower case", "kici-agent:0.20.0", false},
		{"ASCII upper case", "kici-Agent", true},
		{"lower-case non-ASCII", "ß-é", false},
		{"upper-case non-ASCII", "kici-É", true},
		{"Kelvin sign", "\u212a", true},
		{"not UTF-8", "kici-\xff", true},
		{"U+FFFD", "\ufffd", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, strings.ToLower(tt.in) != tt.in, "strings.ToLower")
			assert.Equal(t, tt.want, changesInLowerCase(tt.in))
		})
	}
}

// TestParseNoAllocs checks that Parse allocates nothing for a valid
// reference.
func TestParseNoAllocs(t *testing.T) {
	for _, s := range []string{
		"kici-agent", "quay.io/kici/kici-agent:0.20.0", "Registry:5000/a/b:Tag@" + sha256,
		"[::1]:5000/kici-agent", "a_b.c/kici-agent", "kici-agent@sha512:" + hex64 + hex64,
	} {
		t.Run(s, func(t *testing.T) {
			var err error
			assert.Zero(t, testing.AllocsPerRun(100, func() { _, err = Parse(s) }))
			assert.NoError(t, err)
		})
	}
}
