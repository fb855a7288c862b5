package npmtarget

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The rows below are node's own test vectors for path.posix and path.win32
// dirname and join, carried over from the nodejs/node repository:
// test/parallel/test-path-dirname.js and test/parallel/test-path-join.js
// (MIT licence). The rows that pass a URL object instead of a string
// (url.pathToFileURL, new URL) have no counterpart here and are left out.

var nodePosixDirname = []struct{ in, want string }{
	{"/a/b/", "/a"},
	{"/a/b", "/a"},
	{"/a", "/"},
	{"", "."},
	{"/", "/"},
	{"////", "/"},
	{"//a", "//"},
	{"foo", "."},
}

var nodeWin32Dirname = []struct{ in, want string }{
	{`c:\`, `c:\`},
	{`c:\foo`, `c:\`},
	{`c:\foo\`, `c:\`},
	{`c:\foo\bar`, `c:\foo`},
	{`c:\foo\bar\`, `c:\foo`},
	{`c:\foo\bar\baz`, `c:\foo\bar`},
	{`c:\foo bar\baz`, `c:\foo bar`},
	{`\`, `\`},
	{`\foo`, `\`},
	{`\foo\`, `\`},
	{`\foo\bar`, `\foo`},
	{`\foo\bar\`, `\foo`},
	{`\foo\bar\baz`, `\foo\bar`},
	{`\foo bar\baz`, `\foo bar`},
	{`c:`, `c:`},
	{`c:foo`, `c:`},
	{`c:foo\`, `c:`},
	{`c:foo\bar`, `c:foo`},
	{`c:foo\bar\`, `c:foo`},
	{`c:foo\bar\baz`, `c:foo\bar`},
	{`c:foo bar\baz`, `c:foo bar`},
	{`file:stream`, `.`},
	{`dir\file:stream`, `dir`},
	{`\\unc\share`, `\\unc\share`},
	{`\\unc\share\foo`, `\\unc\share\`},
	{`\\unc\share\foo\`, `\\unc\share\`},
	{`\\unc\share\foo\bar`, `\\unc\share\foo`},
	{`\\unc\share\foo\bar\`, `\\unc\share\foo`},
	{`\\unc\share\foo\bar\baz`, `\\unc\share\foo\bar`},
	{`/a/b/`, `/a`},
	{`/a/b`, `/a`},
	{`/a`, `/`},
	{``, `.`},
	{`/`, `/`},
	{`////`, `/`},
	{`foo`, `.`},
}

// nodeJoin holds the rows node checks with both path.posix.join and
// path.win32.join. For win32 node accepts the result with "\" read as "/".
var nodeJoin = []struct {
	in   []string
	want string
}{
	{[]string{".", "x/b", "..", "/b/c.js"}, "x/b/c.js"},
	{[]string{}, "."},
	{[]string{"/.", "x/b", "..", "/b/c.js"}, "/x/b/c.js"},
	{[]string{"/foo", "../../../bar"}, "/bar"},
	{[]string{"foo", "../../../bar"}, "../../bar"},
	{[]string{"foo/", "../../../bar"}, "../../bar"},
	{[]string{"foo/x", "../../../bar"}, "../bar"},
	{[]string{"foo/x", "./bar"}, "foo/x/bar"},
	{[]string{"foo/x/", "./bar"}, "foo/x/bar"},
	{[]string{"foo/x/", ".", "bar"}, "foo/x/bar"},
	{[]string{"./"}, "./"},
	{[]string{".", "./"}, "./"},
	{[]string{".", ".", "."}, "."},
	{[]string{".", "./", "."}, "."},
	{[]string{".", "/./", "."}, "."},
	{[]string{".", "/////./", "."}, "."},
	{[]string{"."}, "."},
	{[]string{"", "."}, "."},
	{[]string{"", "foo"}, "foo"},
	{[]string{"foo", "/bar"}, "foo/bar"},
	{[]string{"", "/foo"}, "/foo"},
	{[]string{"", "", "/foo"}, "/foo"},
	{[]string{"", "", "foo"}, "foo"},
	{[]string{"foo", ""}, "foo"},
	{[]string{"foo/", ""}, "foo/"},
	{[]string{"foo", "", "/bar"}, "foo/bar"},
	{[]string{"./", "..", "/foo"}, "../foo"},
	{[]string{"./", "..", "..", "/foo"}, "../../foo"},
	{[]string{".", "..", "..", "/foo"}, "../../foo"},
	{[]string{"", "..", "..", "/foo"}, "../../foo"},
	{[]string{"/"}, "/"},
	{[]string{"/", "."}, "/"},
	{[]string{"/", ".."}, "/"},
	{[]string{"/", "..", ".."}, "/"},
	{[]string{""}, "."},
	{[]string{"", ""}, "."},
	{[]string{" /foo"}, " /foo"},
	{[]string{" ", "foo"}, " /foo"},
	{[]string{" ", "."}, " "},
	{[]string{" ", "/"}, " /"},
	{[]string{" ", ""}, " "},
	{[]string{"/", "foo"}, "/foo"},
	{[]string{"/", "/foo"}, "/foo"},
	{[]string{"/", "//foo"}, "/foo"},
	{[]string{"/", "", "/foo"}, "/foo"},
	{[]string{"", "/", "foo"}, "/foo"},
	{[]string{"", "/", "/foo"}, "/foo"},
}

// nodeWin32Join holds node's Windows-only join rows.
var nodeWin32Join = []struct {
	in   []string
	want string
}{
	// UNC path expected
	{[]string{`//foo/bar`}, `\\foo\bar\`},
	{[]string{`\/foo/bar`}, `\\foo\bar\`},
	{[]string{`\\foo/bar`}, `\\foo\bar\`},
	// UNC path expected - server and share separate
	{[]string{`//foo`, `bar`}, `\\foo\bar\`},
	{[]string{`//foo/`, `bar`}, `\\foo\bar\`},
	{[]string{`//foo`, `/bar`}, `\\foo\bar\`},
	// UNC path expected - questionable
	{[]string{`//foo`, ``, `bar`}, `\\foo\bar\`},
	{[]string{`//foo/`, ``, `bar`}, `\\foo\bar\`},
	{[]string{`//foo/`, ``, `/bar`}, `\\foo\bar\`},
	// UNC path expected - even more questionable
	{[]string{``, `//foo`, `bar`}, `\\foo\bar\`},
	{[]string{``, `//foo/`, `bar`}, `\\foo\bar\`},
	{[]string{``, `//foo/`, `/bar`}, `\\foo\bar\`},
	// No UNC path expected (no double slash in first component)
	{[]string{`\`, `foo/bar`}, `\foo\bar`},
	{[]string{`\`, `/foo/bar`}, `\foo\bar`},
	{[]string{``, `/`, `/foo/bar`}, `\foo\bar`},
	// No UNC path expected (no non-slashes in first component - questionable)
	{[]string{`//`, `foo/bar`}, `\foo\bar`},
	{[]string{`//`, `/foo/bar`}, `\foo\bar`},
	{[]string{`\\`, `/`, `/foo/bar`}, `\foo\bar`},
	{[]string{`//`}, `\`},
	// No UNC path expected (share name missing - questionable).
	{[]string{`//foo`}, `\foo`},
	{[]string{`//foo/`}, `\foo\`},
	{[]string{`//foo`, `/`}, `\foo\`},
	{[]string{`//foo`, ``, `/`}, `\foo\`},
	// No UNC path expected (too many leading slashes - questionable)
	{[]string{`///foo/bar`}, `\foo\bar`},
	{[]string{`////foo`, `bar`}, `\foo\bar`},
	{[]string{`\\\/foo/bar`}, `\foo\bar`},
	// Drive-relative vs drive-absolute paths. This merely describes the
	// status quo, rather than being obviously right
	{[]string{`c:`}, `c:.`},
	{[]string{`c:.`}, `c:.`},
	{[]string{`c:`, ``}, `c:.`},
	{[]string{``, `c:`}, `c:.`},
	{[]string{`c:.`, `/`}, `c:.\`},
	{[]string{`c:.`, `file`}, `c:file`},
	{[]string{`c:`, `/`}, `c:\`},
	{[]string{`c:`, `file`}, `c:\file`},
}

func TestNodeDirnameVectors(t *testing.T) {
	t.Parallel()
	for _, tt := range nodePosixDirname {
		t.Run("posix "+strconv.Quote(tt.in), func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, dirname(false, tt.in))
		})
	}
	for _, tt := range nodeWin32Dirname {
		t.Run("win32 "+strconv.Quote(tt.in), func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, dirname(true, tt.in))
		})
	}
}

func TestNodeJoinVectors(t *testing.T) {
	t.Parallel()
	for _, tt := range nodeJoin {
		t.Run(fmt.Sprintf("%q", tt.in), func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, join(false, tt.in...), "posix")
			// node's own check: the win32 result matches as it is or with "\" read as "/".
			got := join(true, tt.in...)
			if got != tt.want {
				assert.Equal(t, tt.want, strings.ReplaceAll(got, `\`, "/"), "win32 %q", got)
			}
		})
	}
	for _, tt := range nodeWin32Join {
		t.Run(fmt.Sprintf("win32 %q", tt.in), func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, join(true, tt.in...))
		})
	}
}

func TestSplitSegments(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", []string{""}},
		{"a separator alone", "/", []string{"", ""}},
		{"both separators", `a\b/c`, []string{"a", "b", "c"}},
		{"runs of separators", `//a\\`, []string{"", "", "a", "", ""}},
		{"non-ASCII", "é/ü", []string{"é", "ü"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, splitSegments(tt.in))
		})
	}
}

// TestNodeEdges covers the branches node's vectors and seed.json leave out;
// the expected values are node v20.20.2's.
func TestNodeEdges(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, got, want string
	}{
		{"CVE-2024-36139: not drive C", join(true, "x", "..", "C:foo"), `.\C:foo`},
		{"a drive after ..", join(true, "a:", "..", "b:"), `a:\b:`},
		{"win32 normalize of nothing", win32Normalize(""), "."},
		{"posix normalize of nothing", posixNormalize(""), "."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.got)
		})
	}
}

// TestNodePathBoundaries covers boundaries that node's vectors and seed.json
// step over: a ".." that must stay after a popped segment; a reserved device
// name before U+10000, the first code point outside the BMP, whose surrogate
// pair JavaScript's slice cuts in half, and before U+FFFF, the last inside
// it; and the ends of the drive-letter range. The expected values are node
// v20.20.2's.
func TestNodePathBoundaries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		windows bool
		join    []string // nil: dirname of in
		in      string
		want    string
	}{
		{"posix join keeps .. behind a popped segment", false, []string{"../a/../.."}, "", "../.."},
		{"posix npm-cli.js two levels above a relative node", false, []string{"../a/..", "..", "lib", "node_modules", "npm", "bin", "npm-cli.js"}, "", "../../lib/node_modules/npm/bin/npm-cli.js"},
		{"win32 join keeps .. behind a popped segment", true, []string{`..\a\..\..`}, "", `..\..`},
		{"win32 reserved name, then U+10000", true, []string{"CON\U00010000"}, "", "CON\U00010000"},
		{"win32 reserved name, then U+FFFF", true, []string{"CON\uffff"}, "", `.\CON` + "\uffff"},
		{"win32 dirname on drive A", true, nil, `A:\nodejs\node.exe`, `A:\nodejs`},
		{"win32 dirname on drive Z", true, nil, `Z:\node.exe`, `Z:\`},
		{"win32 dirname on drive z", true, nil, `z:\node.exe`, `z:\`},
		{"win32 dirname, @ is no drive", true, nil, `@:\node.exe`, `@:`},
		{"win32 dirname, [ is no drive", true, nil, `[:\node.exe`, `[:`},
		{"win32 dirname, ` is no drive", true, nil, "`:\\node.exe", "`:"},
		{"win32 dirname, { is no drive", true, nil, `{:\node.exe`, `{:`},
		{"win32 join on drive A", true, []string{`A:\nodejs`, "npm.cmd"}, "", `A:\nodejs\npm.cmd`},
		{"win32 join on drive z", true, []string{`z:\nodejs`, "npm.cmd"}, "", `z:\nodejs\npm.cmd`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.join == nil {
				assert.Equal(t, tc.want, dirname(tc.windows, tc.in))
				return
			}
			assert.Equal(t, tc.want, join(tc.windows, tc.join...))
		})
	}
}
