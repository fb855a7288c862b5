package zod

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPayloadLimit: a payload past its limit counts an issue instead of
// keeping it, yet what the checks read of its issues is as if it had kept
// them all: whether it is aborted (since a mark too), explicitly aborted,
// or has an issue other than unknown keys (a pipe's test), and a child's
// drops add to its parent's. A TypeError is kept past the limit.
func TestPayloadLimit(t *testing.T) {
	t.Parallel()
	unknown := &Issue{Code: "unrecognized_keys", Cont: ContTrue}
	p := Payload{Limit: 1}
	p.AddIssue(unknown)
	m := p.mark()
	p.AddIssue(&Issue{Code: "too_small", Cont: ContTrue})
	assert.False(t, p.abortedSince(mark{}))
	assert.False(t, p.explicitlyAborted())
	assert.Equal(t, dropped{n: 1, other: 1}, p.dropped)
	p.AddIssue(&Issue{Code: "invalid_type", Cont: ContFalse})
	assert.True(t, p.abortedSince(m), "a dropped issue aborts")
	assert.True(t, p.explicitlyAborted(), "a dropped issue aborts explicitly")
	assert.Equal(t, []*Issue{unknown}, p.Issues)
	assert.False(t, p.Clean())

	parent := Payload{Limit: 2}
	parent.AddIssue(&Issue{Code: "custom", Cont: ContTrue})
	parent.prefix(Seg{Index: 3}, &p)
	assert.Equal(t, []*Issue{parent.Issues[0], unknown}, parent.Issues)
	assert.Equal(t, []Seg{{Index: 3}}, unknown.RPath)
	assert.Equal(t, dropped{n: 2, aborting: 1, explicit: 1, other: 2}, parent.dropped)
	thrown := &Issue{Code: "TypeError", TypeErr: true}
	parent.AddIssue(thrown)
	assert.Equal(t, thrown, parent.Issues[2])

	// A pipe transforms a value whose only issues are unknown keys: not
	// when an issue past the limit is of another kind.
	ran := false
	pipeOf := func(codes ...string) *Schema {
		return Pipe(&Schema{Parse: func(p *Payload) {
			for _, code := range codes {
				p.AddIssue(&Issue{Code: code, Cont: ContTrue})
			}
		}}, "test", func(*Payload) { ran = true })
	}
	pipeOf("unrecognized_keys", "unrecognized_keys").Run(&Payload{Limit: 1})
	assert.True(t, ran, "unknown keys alone, one dropped, let the pipe run")
	ran = false
	pipeOf("unrecognized_keys", "custom").Run(&Payload{Limit: 1})
	assert.False(t, ran, "the dropped issue stops the pipe")
	pipeOf("unrecognized_keys", "custom").Run(&Payload{})
	assert.False(t, ran)
}
