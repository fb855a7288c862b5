package yamljs

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The random corpus, testdata/random.jsonl.gz, is what the npm package yaml
// 2.9.1 returns or throws for 60,000 texts that testdata/gen/random.js
// generates from one seed: documents in every style yaml reads and
// mutants of them. It is written by
//
//	cd testdata/gen && npm ci && node gen.js --random-corpus
//
// (gen.js's randomSeed, randomDocs and randomMutants say which cases; the
// same seed writes the same file). Each line after the first is a case:
// its name, its text and yaml's answer in gen.js's compact form, joined by
// tabs.

// randomCorpusFile is the random corpus TestRandomCorpus compares with;
// gen.js --random-corpus SEED DOCS MUTANTS OUT writes others.
var randomCorpusFile = flag.String("random-corpus", "testdata/random.jsonl.gz", "the random corpus TestRandomCorpus compares with")

// randomCase is one case of the random corpus.
type randomCase struct {
	name   string
	src    []byte
	answer string
}

func loadRandomCorpus(t testing.TB) []randomCase {
	f, err := os.Open(*randomCorpusFile)
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	require.True(t, sc.Scan(), "the header line")
	var head struct {
		Yaml  string `json:"yaml"`
		Cases int    `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(sc.Bytes(), &head))
	require.Equal(t, "2.9.1", head.Yaml)
	cases := make([]randomCase, 0, head.Cases)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), "\t", 3)
		require.Len(t, parts, 3, "line %d: its fields", len(cases)+2)
		c := randomCase{name: jsonStringValue(t, parts[0]), answer: parts[2]}
		c.src = randomSource(t, parts[1])
		cases = append(cases, c)
	}
	require.NoError(t, sc.Err())
	require.Len(t, cases, head.Cases)
	return cases
}

// randomSource decodes a case's text: a JSON string, or {"b64": ...}.
func randomSource(t testing.TB, field string) []byte {
	if strings.HasPrefix(field, "{") {
		var b struct {
			B64 string `json:"b64"`
		}
		require.NoError(t, json.Unmarshal([]byte(field), &b))
		src, err := base64.StdEncoding.DecodeString(b.B64)
		require.NoError(t, err, field)
		return src
	}
	return []byte(jsonStringValue(t, field))
}

// jsonStringValue decodes a JSON string as JSON.stringify writes one of
// valid UTF-16: as Go quotes it, but for the rare escapes Go has not
// (decoded by encoding/json, which the race detector makes slow).
func jsonStringValue(t testing.TB, field string) string {
	if s, err := strconv.Unquote(field); err == nil {
		return s
	}
	var s string
	require.NoError(t, json.Unmarshal([]byte(field), &s), field)
	return s
}

// TestRandomCorpus holds Parse to every case of the random corpus: the
// same value, every node at the same place, or the same errors. The cases
// are read by as many goroutines as there are processors. With the race
// detector, which makes it several times slower, it reads every fourth
// case; without it (go test, and the CI's coverage run), every case.
func TestRandomCorpus(t *testing.T) {
	cases := loadRandomCorpus(t)
	step := 1
	if raceDetector {
		step = 4
	}
	workers := runtime.GOMAXPROCS(0)
	diffs := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w * step; i < len(cases); i += workers * step {
				c := cases[i]
				if got := randomAnswer(c.src); got != c.answer {
					diffs[w] = append(diffs[w], c.name+" "+strconv.Quote(string(c.src))+"\n  yaml:   "+c.answer+"\n  yamljs: "+got)
				}
			}
		}()
	}
	wg.Wait()
	var all []string
	for _, d := range diffs {
		all = append(all, d...)
	}
	t.Logf("%d cases read of %d, %d differ", (len(cases)+step-1)/step, len(cases), len(all))
	assert.Zero(t, len(all), "cases that differ; the first ones:\n%s", strings.Join(all[:min(len(all), 30)], "\n"))
}

// randomAnswer is Parse's answer for src in gen.js's compact form.
func randomAnswer(src []byte) string {
	var b bytes.Buffer
	n, err := Parse(src)
	var se *SyntaxError
	switch {
	case err == nil:
		b.WriteString(`["v",`)
		w := compactWriter{b: &b, ids: map[*Node]int{}, lines: lineStarts(src)}
		w.node(n)
		b.WriteByte(']')
	case errors.As(err, &se):
		b.WriteString(`["t",` + jsonString(se.Thrown) + `,[`)
		if !thrownWhileBuilding(se) {
			for i, p := range se.Problems {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`[` + jsonString(string(p.Code)) + `,` + jsonString(p.Message) + `,` + strconv.Itoa(p.Pos.off()) + `,` + strconv.Itoa(p.End.off()) + `]`)
			}
		}
		b.WriteString(`]]`)
	default:
		b.WriteString(`["error",` + jsonString(err.Error()) + `]`)
	}
	return b.String()
}

// thrownWhileBuilding reports whether the error is what parse() throws
// while it builds the value, which has no code or position in yaml.
func thrownWhileBuilding(se *SyntaxError) bool {
	switch se.Problems[0].Code {
	case ErrUnresolvedAlias, ErrAliasCount, ErrMergeSource, ErrOMapDuplicate, ErrBadAnchorName, ErrTypeError:
		return true
	}
	return false
}

// lineStarts returns the offset of every line of src.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// compactWriter writes a Node tree as gen.js's compactNode does, and
// checks that every position's line and column agree with its offset.
type compactWriter struct {
	b     *bytes.Buffer
	ids   map[*Node]int
	lines []int
}

func (w *compactWriter) pos(p Pos) string {
	line := sort.SearchInts(w.lines, p.off()+1) - 1
	if p.line() != line+1 || int(p.Column) != p.off()-w.lines[line]+1 {
		return `"bad position ` + strconv.Itoa(p.off()) + ":" + strconv.Itoa(p.line()) + ":" + strconv.Itoa(int(p.Column)) + `"`
	}
	return strconv.Itoa(p.off())
}

var compactStyles = [...]string{Plain: "p", SingleQuoted: "s", DoubleQuoted: "d", Literal: "l", Folded: "f"}

func (w *compactWriter) node(n *Node) {
	b := w.b
	switch n.Kind {
	case Seq, Map, Set, OrderedMap, Bytes, Date:
		if id, ok := w.ids[n]; ok {
			b.WriteString(`["r",` + strconv.Itoa(id) + `]`)
			return
		}
		w.ids[n] = len(w.ids) + 1
	}
	where := w.pos(n.Pos) + `,` + w.pos(n.End)
	scalar := func(t, v string) {
		b.WriteString(`["` + t + `","` + compactStyles[n.Style] + `",` + where)
		if v != "" {
			b.WriteString(`,` + v)
		}
		b.WriteByte(']')
	}
	switch n.Kind {
	case Null:
		scalar("n", "")
	case Undefined:
		scalar("u", "")
	case Bool:
		scalar("b", strconv.FormatBool(n.Bool))
	case Number:
		s := NumberString(n.Num)
		if n.Num == 0 && 1/n.Num < 0 {
			s = "-0"
		}
		scalar("f", `"`+s+`"`)
	case String:
		scalar("s", jsonString(n.Str))
	case Symbol:
		scalar("y", jsonString(n.Str))
	case Bytes:
		scalar("x", `"`+base64.StdEncoding.EncodeToString([]byte(n.Str))+`"`)
	case Date:
		scalar("d", `"`+NumberString(n.Num)+`"`)
	case Seq, Set:
		t := "a"
		if n.Kind == Set {
			t = "S"
		}
		b.WriteString(`["` + t + `",` + strconv.Itoa(w.ids[n]) + `,` + where + `,[`)
		for i, it := range n.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			w.node(it)
		}
		b.WriteString(`]]`)
	case OrderedMap:
		b.WriteString(`["M",` + strconv.Itoa(w.ids[n]) + `,` + where + `,[`)
		for i, p := range n.Pairs {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('[')
			w.node(p.KeyNode)
			b.WriteByte(',')
			w.node(p.Value)
			b.WriteByte(']')
		}
		b.WriteString(`]]`)
	default:
		b.WriteString(`["m",` + strconv.Itoa(w.ids[n]) + `,` + where + `,[`)
		for i, p := range n.Pairs {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`[` + jsonString(p.Key) + `,` + w.pos(p.KeyPos) + `,`)
			w.node(p.Value)
			b.WriteByte(']')
		}
		b.WriteString(`]]`)
	}
}
