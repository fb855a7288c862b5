package scalerconfig

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRulesFor maps releases to the rules they read a config by, at each
// boundary, and refuses what is not a release.
func TestRulesFor(t *testing.T) {
	t.Parallel()
	for release, want := range map[string]Rules{
		"0.20.0": Rules016, "0.17.0": Rules016, "0.16.0": Rules016, "1.0.0": Rules016, "0.100.0": Rules016,
		" v0.16.0\t": Rules016, "0.16.0-rc.1": Rules016, "00.016.000": Rules016,
		"0.15.99": Rules014, "0.15.0": Rules014, "0.14.0": Rules014, "0.14.0-9159": Rules014,
		"0.13.9": Rules012, "0.12.0": Rules012, "0.1.24": Rules012, "0.0.0": Rules012,
	} {
		got, ok := RulesFor(release)
		assert.True(t, ok, "%q", release)
		assert.Equal(t, want, got, "%q", release)
	}
	for _, bad := range []string{"", "0.16", "0.16.0.1", "v", "vv0.16.0", "0.16.x", "0..16", "+1.0.0", "0.16.0+b",
		"0.\uFF11\u0036.0", "0.18446744073709551616.0", "-0.16.0"} {
		got, ok := RulesFor(bad)
		assert.False(t, ok, "%q", bad)
		assert.Equal(t, Rules016, got, "%q", bad)
	}
}

// TestRulesString names each rules' release and commit, and an unknown
// value as what it is.
func TestRulesString(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "0.16.0 (84ac3cd)", Rules016.String())
	assert.Equal(t, "0.14.0 (b9d436e)", Rules014.String())
	assert.Equal(t, "0.12.0 (0b46a9a)", Rules012.String())
	assert.Equal(t, "Rules(9)", Rules(9).String())
	var zero Rules
	assert.Equal(t, Rules016, zero, "the zero Rules are the newest")
}

// TestReadingOf: the options' rules and host, an unknown Rules read as the
// newest, Node's platform names as the config's.
func TestReadingOf(t *testing.T) {
	t.Parallel()
	assert.Equal(t, reading{}, readingOf(ScanOptions{}))
	assert.Equal(t, reading{rules: Rules016}, readingOf(ScanOptions{Rules: Rules(7)}))
	for os, windows := range map[string]bool{"windows": true, "win32": true, "linux": false, "macos": false, "darwin": false, "Windows": false, "": false} {
		r := readingOf(ScanOptions{Rules: Rules014, Host: Platform{OS: os, Arch: "x64"}})
		assert.Equal(t, windows, r.windows, os)
		assert.Equal(t, windows, r.batchRule(), os)
		assert.False(t, readingOf(ScanOptions{Rules: Rules012, Host: Platform{OS: os}}).batchRule(), "0.12.0 has no batch rule: %s", os)
	}
}

// TestBatchRefusal holds the Windows batch-file rule to cmd.exe's reading
// of a path: quoted when it has a space or a tab, and then only ", % and ^
// are syntax; unquoted, & | < > ( ) , ; = too. The first such character is
// named. Only a .cmd or .bat file (either case) runs through cmd.exe.
func TestBatchRefusal(t *testing.T) {
	t.Parallel()
	refused := map[string]string{
		`C:\a&b\kici.cmd`: "&", `C:\100%\kici.cmd`: "%", `C:\x^y\k.cmd`: "^", `C:\tools(1)\k.cmd`: "(",
		`C:\ci,prod\k.cmd`: ",", `C:\a;b\k.cmd`: ";", `C:\a=b\k.cmd`: "=", `C:\a|b\k.cmd`: "|", `C:\a<b\k.cmd`: "<",
		`C:\a"b\k.cmd`: `"`, `C:\a>b\k.cmd`: ">", `C:\a)b\k.cmd`: ")",
		`C:\Program Files\100%\k.cmd`: "%", `C:\Program Files\x^y\k.cmd`: "^", "C:\\tab\there\\a\"b.cmd": `"`,
		`C:\a&b%\k.BAT`: "&", `C:\a;b&c\run.Bat`: ";", `C:\x=y\K.CMD`: "=",
	}
	for path, char := range refused {
		want := `cannot run "` + path + `" as a bare-metal agent: it contains "` + char +
			`", which cmd.exe reads as syntax when it runs the batch file. Move the agent to a path without it.`
		assert.Equal(t, want, batchRefusal(path), path)
	}
	for _, path := range []string{
		`C:\Program Files (x86)\A & B, C=D\kici.cmd`, `C:\kici\service\kici-agent.cmd`, `C:\a&b\kici-agent.exe`,
		`C:\a&b\kici.cmd.txt`, `C:\a&b\kici.cm`, `.cmd`, `cmd`, "", `C:\a&b\kici.c\u00admd`, "C:\\tab\there\\(1).bat",
		`/opt/kici/kici-agent`, `C:\a&b\k.cmd `, /* a space last: not a batch file */
	} {
		assert.Empty(t, batchRefusal(path), path)
	}
	assert.True(t, strings.HasPrefix(batchRefusal(".cmd&x.cmd"), `cannot run ".cmd&x.cmd"`))
}
