package jsstr

import (
	"slices"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// utf16Order is the definition Compare follows, spelled out: the strings'
// UTF-16 code units, compared one by one, a prefix first.
func utf16Order(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

func TestCompare(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a, b string
		want int
	}{
		{"equal", "docker", "docker", 0},
		{"both empty", "", "", 0},
		{"empty first", "", "a", -1},
		{"prefix first", "linux", "linux-arm", -1},
		{"ASCII", "docker", "linux", -1},
		{"upper case before lower case", "Z", "a", -1},
		{"comma before letters", "a,b", "ab", -1},
		{"beyond U+FFFF before U+E000 to U+FFFF", "\U00010000", "\uFFFF", -1},
		{"beyond U+FFFF before U+E000", "x\U0001F600", "x\uE000", -1},
		{"beyond U+FFFF after U+D7FF", "\U00010000", "\uD7FF", 1},
		{"two characters beyond U+FFFF", "\U00010000", "\U0010FFFF", -1},
		{"difference inside a multi-byte character", "é", "ê", -1},
		{"invalid UTF-8 reads as U+FFFD", "\xff", "\uFFFD", 0},
		{"U+FFFD after the difference", "a\xffb", "a\xfeb", 0},
		{"invalid byte before a character beyond U+FFFF", "\xff", "\U00010000", 1},
		{"ASCII before invalid UTF-8", "a", "\x80", -1},
		{"a longer string after invalid bytes", "\xfe\xff", "\xfe", 1},
		{"a cut character against the whole one", "\xc3", "é", 1},
		{"the same lead byte, then ASCII against continuation bytes", "\xee00", "\ue000", 1},
		{"digits as characters", "10.yaml", "9.yaml", -1},
		{"a NUL after a prefix", "a", "a\x00", -1},
		{"a character beyond U+FFFF after a common prefix", "xxx\U0010FFFF", "xxx\U0010FFFF", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, Compare(tt.a, tt.b))
			assert.Equal(t, -tt.want, Compare(tt.b, tt.a))
			assert.Equal(t, tt.want, utf16Order(tt.a, tt.b), "the definition")
		})
	}
}

func FuzzCompare(f *testing.F) {
	for _, s := range []string{"", "a", "\U00010000", "\uFFFF", "é", "\xff", "a,b"} {
		f.Add(s, s+"x")
		f.Add(s, "\uE000")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		require.Equal(t, utf16Order(a, b), Compare(a, b), "Compare(%q, %q): UTF-16 order", a, b)
	})
}

func TestCompareNoAllocs(t *testing.T) {
	a, b := "kici:scaler:linux-\U0001F600", "kici:scaler:linux-\uE000"
	assert.Zero(t, testing.AllocsPerRun(100, func() { Compare(a, b) }))
}
