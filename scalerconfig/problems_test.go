package scalerconfig

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/yamljs"
	"github.com/kicikit/kicikit/internal/zod"
)

// TestProblemsShareMessages: the problems of a file that has thousands of
// them with one message hold that message once, not a copy each, and every
// issue is let go as it becomes a Problem. A list of scalars as the
// scalers has one problem an item.
func TestProblemsShareMessages(t *testing.T) {
	t.Parallel()
	const n = 1000
	src := "version: 1\nscalers: [" + strings.Repeat("a, ", n-1) + "a]\n"
	_, err := Load(fstest.MapFS{"s.yaml": {Data: []byte(src)}}, "s.yaml", "")
	var e *Error
	require.True(t, errors.As(err, &e), "%v", err)
	require.Len(t, e.Problems, n)
	first := e.Problems[0]
	assert.Equal(t, "Invalid input: expected object, received string", first.Message)
	for i, p := range e.Problems {
		assert.Equal(t, first.Message, p.Message, "problem %d", i)
		assert.Same(t, unsafe.StringData(first.Message), unsafe.StringData(p.Message), "problem %d has a copy of the message", i)
	}
}

// TestProblemsLetIssuesGo: turning a validation's issues into Problems
// leaves none of them reachable from the list it was given, so that the
// two lists never stand whole side by side.
func TestProblemsLetIssuesGo(t *testing.T) {
	t.Parallel()
	root, err := yamljs.Parse([]byte("version: 1\nscalers: [a, b, {name: x}]\n"))
	require.NoError(t, err)
	m := &merged{main: "s.yaml", root: root}
	p := zod.Payload{Value: m.validationRoot()}
	configSchema(reading{}).Run(&p)
	issues := p.Issues
	require.NotEmpty(t, issues)
	got, thrown := m.problems(issues)
	assert.False(t, thrown)
	assert.Len(t, got, len(issues))
	for i, iss := range issues {
		assert.Nil(t, iss, "issue %d is still held", i)
	}
	assert.Same(t, unsafe.StringData(got[0].Message), unsafe.StringData(got[1].Message))
}

// TestMaxProblemsKeepsTheFirst: a load that keeps at most k problems keeps
// the first k of those a load without a limit gives, in their order and
// field for field, and counts the others in Omitted: for every config of
// the node-answered cases that the orchestrator refuses, and configs of
// many problems of every kind (types, enums, ranges, unknown keys, missing
// keys, a resources union, refinements over label sets, a TypeError after
// many), each read whole and by groups.
func TestMaxProblemsKeepsTheFirst(t *testing.T) {
	t.Parallel()
	type config struct {
		name  string
		fsys  fstest.MapFS
		main  string
		dir   string
		parse parser
	}
	var configs []config
	for _, c := range readLoadCases(t) {
		if len(c.Want.Issues) > 0 {
			configs = append(configs, config{c.Name, c.fsOf(), c.Main, c.Dir, yamljs.Parse})
		}
	}
	many := manyProblems()
	configs = append(configs,
		config{name: "many", fsys: fstest.MapFS{"s.yaml": {Data: []byte(many)}}, main: "s.yaml", parse: yamljs.Parse},
		config{name: "many with a drop-in", fsys: fstest.MapFS{
			"s.yaml":      {Data: []byte(many)},
			"d/a.yaml":    {Data: []byte("scalers: [1, 2, {name: x}]\nversion: 2\n")},
			"d/b.yaml":    {Data: []byte(many)},
			"d/skip.json": {Data: []byte("{")},
		}, main: "s.yaml", dir: "d", parse: yamljs.Parse},
		config{name: "scalars", fsys: fstest.MapFS{"s.yaml": {Data: []byte("version: 1\nscalers: [" + strings.Repeat("a, ", 99) + "a]\n")}}, main: "s.yaml", parse: yamljs.Parse},
		config{name: "TypeError after many", fsys: fstest.MapFS{"s.yaml": {Data: []byte(many + "  - name: t\n    type: container\n    maxAgents: 1\n    labelSets: [{labels: {length: !!merge <<}, image: x}]\n")}}, main: "s.yaml", parse: yamljs.Parse},
	)
	n := 0
	for _, c := range configs {
		_, werr := load(c.fsys, c.main, c.dir, c.parse, false)
		var want *Error
		if !errors.As(werr, &want) {
			continue
		}
		require.Zero(t, want.Omitted, c.name)
		for _, byItem := range []bool{false, true} {
			for _, k := range []int{1, 2, 3, 5, 17, 100} {
				_, err := scan(files{fsys: c.fsys}, c.main, c.dir, c.parse, byItem, ScanOptions{MaxProblems: k}, nil)
				var got *Error
				require.ErrorAs(t, err, &got, "%s: k %d", c.name, k)
				kept := min(k, len(want.Problems))
				assert.Equal(t, want.Problems[:kept], got.Problems, "%s: k %d", c.name, k)
				assert.Equal(t, len(want.Problems)-kept, got.Omitted, "%s: k %d", c.name, k)
				// The text counts them all; it lists those kept, up to 20.
				lines := strings.Split(got.Error(), "\n")
				wantLines := strings.Split(want.Error(), "\n")
				assert.Equal(t, wantLines[0], lines[0], "%s: k %d: the count", c.name, k)
				shown := min(kept, maxShownProblems)
				assert.Equal(t, wantLines[1:1+shown], lines[1:1+shown], "%s: k %d", c.name, k)
				if shown < len(want.Problems) {
					assert.Equal(t, []string{"and " + strconv.Itoa(len(want.Problems)-shown) + " more"}, lines[1+shown:], "%s: k %d", c.name, k)
				} else {
					assert.Len(t, lines, 1+shown, "%s: k %d", c.name, k)
				}
				n++
			}
		}
	}
	assert.Greater(t, n, 12*100, "cases compared")
}

// manyProblems is a config of hundreds of problems of every kind: types,
// enums, ranges, unknown keys, missing keys, a resources union,
// refinements, each scaler's after issues that let the checks run.
func manyProblems() string {
	var many strings.Builder
	many.WriteString("version: 0\nglobalMaxAgents: -1\nsurprise: 1\nscalers:\n")
	for i := range 40 {
		fmt.Fprintf(&many, "  - name: s%d\n    type: %s\n    maxAgents: %s\n    labelSets:\n", i%3, []string{"container", "nope", "bare-metal"}[i%3], []string{"2", "x", "-2", "300"}[i%4])
		switch i % 4 {
		case 0: // issues that let the checks run, then one that does not
			fmt.Fprintf(&many, "      - {labels: [kici:x, l%d], image: a, extra: 1}\n      - {labels: [Kici:y], image: b, extra: 2, imagePullPolicy: 3}\n", i)
		case 1:
			fmt.Fprintf(&many, "      - {labels: [kici:x], image: a, extra: 1, machinePool: nowhere}\n")
		default:
			fmt.Fprintf(&many, "      - labels: [kici:x, %d]\n        imagee: a\n        resources: {limits: {cpus: 999}, cpu: 1}\n", i)
			fmt.Fprintf(&many, "      - labels: []\n        image: 7\n        imagePullPolicy: Sometimes\n")
		}
	}
	return many.String()
}

// TestMaxProblemsHoldsFew: with a limit, the validation of a config of
// thousands of problems holds the limit's issues, not one a problem: the
// others are counted as they come, each let go.
func TestMaxProblemsHoldsFew(t *testing.T) {
	t.Parallel()
	const n, k = 10_000, 10
	root, err := yamljs.Parse([]byte("version: 1\nscalers: [" + strings.Repeat("a, ", n-1) + "a]\n"))
	require.NoError(t, err)
	m := &merged{main: "s.yaml", root: root}
	p := zod.Payload{Value: m.validationRoot(), Limit: k}
	configSchema(reading{}).Run(&p)
	assert.Len(t, p.Issues, k)
	assert.Equal(t, n-k, p.Dropped())
	e := m.refusal(&p)
	assert.Len(t, e.Problems, k)
	assert.Equal(t, n-k, e.Omitted)
	assert.Equal(t, "scalers[9]", e.Problems[k-1].Path)
}

// TestMaxProblemsByGroupsHoldsFew: the read by groups, which only asks
// whether the config has an issue before it reads it whole, holds no more
// than the whole read does under a limit: a top level of 200,000 problems
// beside one scaler held every issue (twice the whole read's peak heap).
func TestMaxProblemsByGroupsHoldsFew(t *testing.T) {
	n := 200_000
	if raceDetector {
		n = 50_000
	}
	src := []byte("version: 1\nscalers:\n- {}\nmachinePools: [" + strings.Repeat("1,", n) + "1]\n")
	fsys := fstest.MapFS{"s.yaml": {Data: src}}
	peak := func(byItem bool) uint64 {
		var err error
		p := peakHeap(func() {
			_, err = scan(files{fsys: fsys}, "s.yaml", "", yamljs.Parse, byItem, ScanOptions{MaxProblems: 10}, nil)
		})
		var e *Error
		require.ErrorAs(t, err, &e)
		require.Len(t, e.Problems, 10)
		assert.Equal(t, n+1+4-10, e.Omitted, "the machine pools' problems and the scaler's")
		return p
	}
	byGroups, whole := peak(true), peak(false)
	t.Logf("peak heap: %d KB by groups, %d KB whole", byGroups>>10, whole>>10)
	assert.Less(t, float64(byGroups), 1.3*float64(whole))
}
