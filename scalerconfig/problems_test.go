package scalerconfig

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/yamljs"
)

// TestProblemsShareMessages: the problems of a file that has thousands of
// them with one message hold that message once, not a copy each, and every
// issue is let go as it becomes a Problem. A list of scalars as the
// scalers has one problem an item.
func TestProblemsShareMessages(t *testing.T) {
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
	root, err := yamljs.Parse([]byte("version: 1\nscalers: [a, b, {name: x}]\n"))
	require.NoError(t, err)
	m := &merged{main: "s.yaml", root: root}
	p := payload{value: m.validationRoot()}
	configSchema().run(&p)
	issues := p.issues
	require.NotEmpty(t, issues)
	got := m.problems(issues)
	assert.Len(t, got, len(issues))
	for i, iss := range issues {
		assert.Nil(t, iss, "issue %d is still held", i)
	}
	assert.Same(t, unsafe.StringData(got[0].Message), unsafe.StringData(got[1].Message))
}
