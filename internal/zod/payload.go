package zod

import "github.com/kicikit/kicikit/internal/yamljs"

// Cont is an issue's "continue": whether the checks after it still run.
type Cont int8

// The continues of an issue.
const (
	ContUnset Cont = iota // aborts: the issues of a type or a union
	ContTrue              // lets the checks run: ranges, lengths, refinements, unknown keys
	ContFalse             // aborts even the checks that run on an aborted value: int's type issue
)

// Opt is a schema's optionality on the way in and out (zod's optin and
// optout).
type Opt uint8

// The optionalities of a schema.
const (
	OptNone      Opt = iota // a value is required
	OptOptional             // undefined passes as it is
	OptDefaulted            // undefined becomes the default
)

// Seg is one step of an issue's path: an object's key, or an array's
// index.
type Seg struct {
	Key   string // the key, when Index is negative
	Index int    // the index, when it is 0 or more
}

// Key is the Seg of an object's key k.
func Key(k string) Seg { return Seg{Key: k, Index: -1} }

// Issue is one zod issue.
type Issue struct {
	Code    string     // zod's code: invalid_type, too_small, custom, ...
	RPath   []Seg      // the path, leaf first: parents append as the issue bubbles up
	Message string     // zod's message, or the orchestrator's
	Cont    Cont       // whether the checks after it still run
	Keys    []string   // unrecognized_keys: the keys, in the object's order
	At      int        // 1 + the index of the array item the issue is about, for its position; 0 for none
	Options [][]*Issue // invalid_union: each option's issues
	TypeErr bool       // a JavaScript TypeError, which zod does not catch
	// Note is what the rule that added the issue tells its caller beyond
	// zod's issue (scalerconfig's hint and fix of a problem); zod never
	// reads it.
	Note any
}

// Path returns the issue's path from the root: RPath reversed.
func (iss *Issue) Path() []Seg {
	path := make([]Seg, len(iss.RPath))
	for i, s := range iss.RPath {
		path[len(path)-1-i] = s
	}
	return path
}

// Payload is what a schema reads and writes: zod's { value, issues }.
// zod's payload also has an "aborted" flag, which a pipe sets when it
// stops. Only a union's option or a check on the pipe itself would read
// it, and the orchestrator's schema has neither.
type Payload struct {
	Value  *yamljs.Node // nil is undefined
	Issues []*Issue     // the issues kept, in zod's order
	Out    *Outputs     // where the output's values are made; nil: each on its own
	// Limit, when positive, is how many issues the payload keeps. Past
	// it, an issue is counted, not kept, but a TypeError is always kept.
	// Each payload keeps the first Limit issues of its own and of its
	// parts, in order. So the root keeps the first of the whole
	// validation: millions of problems are told in bounded memory.
	Limit   int
	dropped dropped
}

// dropped counts the issues a payload did not keep, and what the checks
// read of them: how many abort (zod's util.aborted), how many abort
// explicitly, and how many are not of unknown keys (which a pipe reads).
type dropped struct{ n, aborting, explicit, other int }

func (d *dropped) add(e dropped) {
	d.n += e.n
	d.aborting += e.aborting
	d.explicit += e.explicit
	d.other += e.other
}

// child is a payload for a part of p's value, with p's output and limit,
// its issues in the emptied list reuse.
func (p *Payload) child(v *yamljs.Node, reuse []*Issue) Payload {
	return Payload{Value: v, Issues: reuse[:0], Out: p.Out, Limit: p.Limit}
}

// keep appends iss to p's issues and reports true, or counts it past p's
// limit.
func (p *Payload) keep(iss *Issue) bool {
	if p.Limit <= 0 || len(p.Issues) < p.Limit || iss.TypeErr {
		p.Issues = append(p.Issues, iss)
		return true
	}
	p.dropped.n++
	if iss.Cont != ContTrue {
		p.dropped.aborting++
	}
	if iss.Cont == ContFalse {
		p.dropped.explicit++
	}
	if iss.Code != "unrecognized_keys" {
		p.dropped.other++
	}
	return false
}

// AddIssue appends iss, placed at the value's path plus rel.
func (p *Payload) AddIssue(iss *Issue, rel ...Seg) {
	if !p.keep(iss) {
		return
	}
	for i := len(rel) - 1; i >= 0; i-- {
		iss.RPath = append(iss.RPath, rel[i])
	}
}

// Clean reports whether p has no issue, kept or dropped.
func (p *Payload) Clean() bool { return len(p.Issues) == 0 && p.dropped.n == 0 }

// Dropped returns how many issues p counted past its Limit without
// keeping them.
func (p *Payload) Dropped() int { return p.dropped.n }

// mark is how many issues a payload has kept, and how many it has
// dropped that abort: where abortedSince starts.
type mark struct{ kept, aborting int }

func (p *Payload) mark() mark { return mark{len(p.Issues), p.dropped.aborting} }

// abortedSince reports whether p is aborted by an issue it got since m
// (the zero mark: any issue), as zod's util.aborted does.
func (p *Payload) abortedSince(m mark) bool {
	if p.dropped.aborting > m.aborting {
		return true
	}
	for _, iss := range p.Issues[m.kept:] {
		if iss.Cont != ContTrue {
			return true
		}
	}
	return false
}

// explicitlyAborted reports whether an issue of p forbids even the checks
// that run on an aborted value.
func (p *Payload) explicitlyAborted() bool {
	if p.dropped.explicit > 0 {
		return true
	}
	for _, iss := range p.Issues {
		if iss.Cont == ContFalse {
			return true
		}
	}
	return false
}

// prefix moves the issues of r, a child's payload, into p, under key s.
func (p *Payload) prefix(s Seg, r *Payload) {
	for _, iss := range r.Issues {
		if p.keep(iss) {
			iss.RPath = append(iss.RPath, s)
		}
	}
	p.dropped.add(r.dropped)
}
