package jsstr

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUTF16CounterLikeNode counts the UTF-16 code units of every case of
// testdata/utf16.json, which testdata/gen/utf16.mjs writes with node's own
// decoding: whole, split at every byte, and inside ASCII runs long enough
// for the eight-byte steps.
func TestUTF16CounterLikeNode(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/utf16.json")
	require.NoError(t, err)
	var table struct {
		Cases []struct {
			Hex   string `json:"hex"`
			Units int64  `json:"units"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &table))
	require.Greater(t, len(table.Cases), 7000)
	for _, c := range table.Cases {
		b, err := hex.DecodeString(c.Hex)
		require.NoError(t, err)
		for split := 0; split <= len(b); split++ {
			var n UTF16Counter
			n.Add(b[:split])
			n.Add(b[split:])
			require.LessOrEqual(t, n.Units(), c.Units, "%s split at %d: before the end", c.Hex, split)
			require.Equal(t, c.Units, n.End(), "%s split at %d", c.Hex, split)
		}
		var n UTF16Counter
		n.Add([]byte(strings.Repeat("a", 13) + string(b) + strings.Repeat("b", 9)))
		require.Equal(t, c.Units+22, n.End(), "%s inside ASCII", c.Hex)
	}
}

// TestUTF16Len measures strings as JavaScript does: each of node's strings
// of testdata/strings.json, lone surrogates included, written as the YAML
// reader holds them, and characters of each UTF-8 length.
func TestUTF16Len(t *testing.T) {
	t.Parallel()
	cases, _ := readNodeStrings(t)
	for _, c := range cases {
		assert.Equal(t, len(c.In), UTF16Len(wtf8(c.In)), "%U", c.In)
	}
	tests := []struct {
		name string
		s    string
		want int
	}{
		{name: "empty", s: "", want: 0},
		{name: "ASCII", s: "kici-agent:1.2.3", want: 16},
		{name: "two bytes", s: "é", want: 1},
		{name: "three bytes", s: "€\uFEFF", want: 2},
		{name: "four bytes", s: "😀", want: 2},
		{name: "long mixed", s: strings.Repeat("ab😀é", 100), want: 500},
		{name: "lone surrogate", s: "a\xED\xA0\x80b", want: 3},
		{name: "invalid byte", s: "a\xFFb", want: 3},
		{name: "cut sequence", s: "a\xE2\x82", want: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, UTF16Len(tt.s))
			if utf8.ValidString(tt.s) {
				assert.Equal(t, len(utf16.Encode([]rune(tt.s))), UTF16Len(tt.s), "Go's own count")
			}
		})
	}
}

// TestUTF16CounterSurrogates: the counter reads a surrogate's three bytes
// as node decodes them, three invalid parts, where UTF16Len reads one
// unit.
func TestUTF16CounterSurrogates(t *testing.T) {
	t.Parallel()
	var c UTF16Counter
	c.Add([]byte("\xED\xA0\x80"))
	assert.Equal(t, int64(3), c.End())
	assert.Equal(t, 1, UTF16Len("\xED\xA0\x80"))
}
