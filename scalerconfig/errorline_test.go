package scalerconfig

import (
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxErrorText is the most bytes Error writes, as its doc says.
const maxErrorText = 24000

// TestShown escapes and cuts each part of a problem's line.
func TestShown(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		max      int
		want     string
	}{
		{"printable ASCII", `scalers[0].env["A B"]: C:\kici`, 64, `scalers[0].env["A B"]: C:\kici`},
		{"controls", "a\tb\nc\r\x00\x1b[31m\x7f", 64, `a\tb\nc\r\x00\x1b[31m\x7f`},
		{"C1 and other runes Go does not print", "\u0085\u009b\u00a0\u202e\u2028", 64, `\u0085\u009b\u00a0\u202e\u2028`},
		{"invalid UTF-8", "a\xffb\xe2\x82", 64, `a\xffb\xe2\x82`},
		{"printable beyond ASCII", "gpu-é-€-😀", 64, "gpu-é-€-😀"},
		{"exactly max", strings.Repeat("a", 16), 16, strings.Repeat("a", 16)},
		{"one more than max", strings.Repeat("a", 8) + "b" + strings.Repeat("c", 8), 16, "aaaaaaaa... (17 bytes) ...cccccccc"},
		{"escapes count", "\n\n\n\n\n\n\n\n\n", 16, `\n\n\n\n... (9 bytes) ...\n\n\n\n`},
		{"an escape is never cut", "a\n\n\n\n\n\n\n\nb", 16, `a\n\n\n... (10 bytes) ...\n\n\nb`},
		{"a rune is never cut", strings.Repeat("€", 10), 16, "€€... (30 bytes) ...€€"},
		{"10 MB", "head" + strings.Repeat("x", 10<<20) + "tail", 16, "headxxxx... (10485768 bytes) ...xxxxtail"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, shown(tt.in, tt.max))
		})
	}
}

// TestErrorManyProblems writes the 300,000 problems of a 1.2 MB file (a
// scalers list of 300,000 numbers): Error writes 20 of them and says how
// many more, Problems keeps them all. The problems are built as Load
// builds them (TestErrorProblemsOfLoad checks that on fewer).
func TestErrorManyProblems(t *testing.T) {
	e := &Error{Problems: make([]Problem, 300000)}
	for i := range e.Problems {
		e.Problems[i] = numberItem(i)
	}
	start := time.Now()
	text := e.Error()
	took := time.Since(start)
	whole := 0 // what Error wrote before it was bounded: every problem's String
	for _, p := range e.Problems {
		whole += 1 + len(p.String())
	}
	t.Logf("%d problems: Error() writes %d bytes in %v; all the lines would be %d bytes", len(e.Problems), len(text), took, whole)
	lines := strings.Split(text, "\n")
	require.Len(t, lines, 22)
	assert.Equal(t, "scalerconfig.Load: 300000 problems", lines[0])
	assert.Equal(t, "s.yaml:3:3: scalers[0]: Invalid input: expected object, received number", lines[1])
	assert.Equal(t, e.Problems[19].String(), lines[20])
	assert.Equal(t, "and 299980 more", lines[21])
	assert.Less(t, len(text), 2000)
}

// numberItem is the problem of the item i of a scalers list of numbers,
// one a line from line 3.
func numberItem(i int) Problem {
	return Problem{File: "s.yaml", Line: 3 + i, Column: 3, Path: "scalers[" + strconv.Itoa(i) + "]",
		Message: "Invalid input: expected object, received number", Code: "invalid_type"}
}

// TestErrorProblemsOfLoad loads a scalers list of 3,000 numbers: the
// problems TestErrorManyProblems writes are Load's.
func TestErrorProblemsOfLoad(t *testing.T) {
	t.Parallel()
	src := "version: 1\nscalers:\n" + strings.Repeat("- 1\n", 3000)
	_, err := Load(fstest.MapFS{"s.yaml": {Data: []byte(src)}}, "s.yaml", "")
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Len(t, e.Problems, 3000)
	for i, p := range e.Problems {
		require.Equal(t, numberItem(i), p)
	}
	assert.True(t, strings.HasSuffix(err.Error(), "\nand 2980 more"))
}

// TestErrorLongName loads a config whose scaler's name is 10 MB: each
// problem quoting it is a short line, that starts with what the message
// is about and ends with what is wrong; Problem.String is the whole line.
func TestErrorLongName(t *testing.T) {
	t.Parallel()
	name := strings.Repeat("n", 10<<20)
	src := "version: 1\nscalers:\n- name: " + name + "\n  type: container\n  maxAgents: 1\n  labelSets: [{labels: [a]}]\n"
	_, err := Load(fstest.MapFS{"s.yaml": {Data: []byte(src)}}, "s.yaml", "")
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Len(t, e.Problems, 1)
	full := "s.yaml:6:15: scalers[0].labelSets[0].image: Container scaler \"" + name + "\" label set [0] requires an 'image' field"
	assert.Equal(t, full, e.Problems[0].String())

	text := e.Error()
	t.Logf("a name of %d bytes: Problem.String() is %d bytes, Error() %d", len(name), len(full), len(text))
	want := "scalerconfig.Load: 1 problem\ns.yaml:6:15: scalers[0].labelSets[0].image: Container scaler \"" +
		strings.Repeat("n", 256-len(`Container scaler "`)) + "... (" + strconv.Itoa(len(e.Problems[0].Message)) + " bytes) ..." +
		strings.Repeat("n", 256-len(`" label set [0] requires an 'image' field`)) + "\" label set [0] requires an 'image' field"
	assert.Equal(t, want, text)
}

// TestErrorControlCharacters keeps each problem on its line, whatever the
// config's values hold.
func TestErrorControlCharacters(t *testing.T) {
	t.Parallel()
	src := "version: 1\nscalers:\n- name: \"a\\nb\\e[31m\\u0085\\u202e\"\n  type: container\n  maxAgents: 1\n  labelSets: [{labels: [a]}]\n"
	_, err := Load(fstest.MapFS{"s.yaml": {Data: []byte(src)}}, "s.yaml", "")
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "scalerconfig.Load: 1 problem\n"+
		`s.yaml:6:15: scalers[0].labelSets[0].image: Container scaler "a\nb\x1b[31m\u0085\u202e" label set [0] requires an 'image' field`,
		e.Error())
}

// TestErrorBound fills every part of 25 problems with what escapes to the
// most bytes, positions with the most digits: Error stays under its
// bound.
func TestErrorBound(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("\x01", 1<<20)
	p := Problem{File: huge, Line: 1<<63 - 1, Column: -1 << 63, Path: huge, Message: huge}
	e := &Error{Problems: make([]Problem, 25)}
	for i := range e.Problems {
		e.Problems[i] = p
	}
	text := e.Error()
	assert.LessOrEqual(t, len(text), maxErrorText)
	t.Logf("the longest Error: %d bytes", len(text))
}

// FuzzErrorText checks Error on problems of any text: one line per shown
// problem and a last line for the rest, nothing but printable text and
// '\n' between lines, never more than its bound, and each line of a short
// printable problem the problem's String.
func FuzzErrorText(f *testing.F) {
	f.Add("s.yaml", "scalers[0].name", "Invalid input: expected string, received number", 3, 7, 1)
	f.Add("d/\xff.yaml", "env[\"\n\"]", strings.Repeat("\u0085", 300), 0, 0, 25)
	f.Add(strings.Repeat("€", 200), "", "a\tb", 1, -1, 21)
	f.Fuzz(func(t *testing.T, file, path, message string, line, column, n int) {
		n = max(0, n%64)
		p := Problem{File: file, Line: line, Column: column, Path: path, Message: message}
		e := &Error{Problems: make([]Problem, n)}
		for i := range e.Problems {
			e.Problems[i] = p
		}
		text := e.Error()
		require.LessOrEqual(t, len(text), maxErrorText)
		lines := strings.Split(text, "\n")
		want := min(n, maxShownProblems) + 1
		if n > maxShownProblems {
			want++
			assert.Equal(t, "and "+strconv.Itoa(n-maxShownProblems)+" more", lines[len(lines)-1])
		}
		require.Len(t, lines, want)
		for _, l := range lines {
			require.True(t, utf8.ValidString(l), l)
			for _, r := range l {
				require.True(t, strconv.IsPrint(r), "%q in %q", r, l)
			}
		}
		s := p.String()
		if n > 0 && len(s) < 200 && printableASCII(s) {
			assert.Equal(t, s, lines[1])
		}
	})
}
