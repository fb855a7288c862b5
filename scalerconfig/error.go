package scalerconfig

import (
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/internal/jsstr"
	"github.com/kicikit/kicikit/internal/yamljs"
	"github.com/kicikit/kicikit/internal/zod"
)

// Error is what Load returns when the orchestrator would refuse the
// config. It holds every problem, in the order the orchestrator finds
// them. errors.As reads it from Load's error.
type Error struct {
	Problems []Problem // every problem, in the order of the orchestrator's validation; never empty
	// Omitted is how many problems the config has past Problems, counted
	// but not kept. It is zero but for a load with [ScanOptions.MaxProblems].
	Omitted int
}

// Problem is one reason the orchestrator would refuse a config.
type Problem struct {
	File         string // the file, named as Pos.File names it
	Line, Column int    // 1-based; a missing key is placed at the mapping that lacks it
	Path         string // the orchestrator's form: scalers[0].labelSets[1].image; "" for the file itself
	Message      string // the orchestrator's message, word for word

	// Code is the kind of problem. It is zod's issue code: invalid_type,
	// invalid_value, too_small, too_big, unrecognized_keys, invalid_union
	// or custom. It is "yaml" for a file the YAML parser refuses. It is
	// "TypeError" for a file the orchestrator's loader itself fails on.
	Code string
	// Reasons say why each form of an invalid_union ("Invalid input")
	// failed, such as "flat form: cpus: Too big: expected number to be <=256".
	Reasons []string
	// Suggestions name the key a misspelt key was likely meant to be, in
	// the mapping the problem is about. They are nil when no key is close.
	//
	//   - unrecognized_keys: each unknown key close to an allowed key, with
	//     that key.
	//   - A missing key: the mapping's unknown keys closest to it. That is a
	//     required key, or one a rule asks for, such as a container label
	//     set's image.
	//   - invalid_union, a resources block neither form reads: each unknown
	//     key a form found that is close to one it allows (cpu for cpus).
	//
	// So maxAgnets: 2 gets two problems that name each other. Both the
	// unknown key maxAgnets and the missing key maxAgents get {maxAgnets,
	// maxAgents}. Keys are close when equal but for case, or within a
	// small edit distance. Keys a stripping object drops silently count
	// too: scaler: where scalers: is meant gets a suggestion. Message stays
	// the orchestrator's own. String and Error add [Problem.DidYouMean].
	Suggestions []Suggestion
	// Hint says how to write what the orchestrator asks for, where the
	// config shows it, for the refusals of [Rules016]: a flat resources
	// block's nested form ("nest them: resources: {limits: {cpus: 2}}"),
	// the platform a scaler with a plain platform label is to declare, or
	// why its label sets need a scaler each. It is "" for the other
	// problems. String and Error leave it out.
	Hint string
	// Fix, when not nil, is the edit that clears the problem, for a
	// refusal of Rules016 the config leaves no choice about: a flat
	// resources block of cpus and memory alone, or a scaler whose label
	// sets all name the one platform. [ApplyFixes] makes it. The problems
	// of one scaler's labels have the same Fix.
	Fix *Fix
}

// String returns "file:line:column: path: message", the whole problem.
// The path is left out when empty. [Problem.DidYouMean] follows the
// message, after "; ", when there are suggestions. Nothing is cut or escaped.
// [Error.Error] writes a shorter, escaped line for each of the first
// problems.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		b.WriteString(":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column))
	}
	b.WriteString(": ")
	if p.Path != "" {
		b.WriteString(p.Path + ": ")
	}
	b.WriteString(p.Message)
	if hint := p.DidYouMean(); hint != "" {
		b.WriteString("; " + hint)
	}
	return b.String()
}

// Error returns "scalerconfig.Load: N problem(s)", then the first 20
// problems, one a line. Each line is "file:line:column: path: message",
// as [Problem.String] writes it, so an editor jumps to each. With more
// problems, Omitted included, a last line says "and N more".
//
// The text is one line per problem and under 24,000 bytes, whatever the
// config holds. Each part of a line (the file, the path, the message) is
// escaped as strconv.Quote escapes it: control characters (C0, DEL, C1),
// other runes Go does not print, and invalid UTF-8 (\n, \x1b, \u0085,
// \xff). '"' and '\' stay as they are. A part whose escaped text passes
// 256 bytes (the file, the path) or 512 (the message) is cut in the
// middle. Its first and last halves stay, around "... (N bytes) ...", N
// being its length. So the start names the thing, and a message's end
// says what is wrong.
func (e *Error) Error() string {
	var b strings.Builder
	all := len(e.Problems) + max(e.Omitted, 0)
	b.WriteString("scalerconfig.Load: " + strconv.Itoa(all) + " problem")
	if all != 1 {
		b.WriteString("s")
	}
	shown := e.Problems[:min(len(e.Problems), maxShownProblems)]
	for _, p := range shown {
		b.WriteString("\n" + p.line())
	}
	if len(shown) < all {
		b.WriteString("\nand " + strconv.Itoa(all-len(shown)) + " more")
	}
	return b.String()
}

// pathString writes a path as zod's toDotPath does: keys joined by dots,
// indices in brackets, a key with a character beyond [A-Za-z0-9_$] quoted
// in brackets.
func pathString(path []zod.Seg) string {
	var b strings.Builder
	for _, s := range path {
		switch {
		case s.Index >= 0:
			b.WriteString("[" + strconv.Itoa(s.Index) + "]")
		case !plainKey(s.Key):
			b.WriteString("[" + jsstr.Stringify(s.Key) + "]")
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Key)
		}
	}
	return b.String()
}

func plainKey(k string) bool {
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '$') {
			return false
		}
	}
	return true
}

// refusal is the Error of a validation that found issues: the kept ones
// as Problems, the dropped ones counted; a TypeError alone, as JavaScript
// throws it and nothing else is reported.
func (m *merged) refusal(p *zod.Payload) *Error {
	problems, thrown := m.problems(p.Issues)
	if thrown {
		return &Error{Problems: problems}
	}
	return &Error{Problems: problems, Omitted: p.Dropped()}
}

// problems turns the issues of a validation into Problems, each placed in
// the file and at the node its path leads to.
//
// A file can have millions of problems, most of them with one of a few
// messages: each issue is let go as soon as it is a Problem, so that the
// two lists do not both stand whole, and the Problems share one string per
// message. thrown is true for a TypeError, the one Problem then.
func (m *merged) problems(issues []*zod.Issue) (out []Problem, thrown bool) {
	out = make([]Problem, 0, len(issues))
	root := configSchema(m.read) // for the suggestions
	messages := map[string]string{}
	for i, iss := range issues {
		issues[i] = nil
		if iss.TypeErr {
			// JavaScript throws here: nothing after it is checked.
			return []Problem{m.problem(root, iss)}, true
		}
		p := m.problem(root, iss)
		if s, ok := messages[p.Message]; ok {
			p.Message = s
		} else {
			messages[p.Message] = p.Message
		}
		out = append(out, p)
	}
	return out, false
}

func (m *merged) problem(root *zod.Schema, iss *zod.Issue) Problem {
	path := iss.Path()
	file, at := m.locate(path, iss)
	p := Problem{File: file, Line: int(at.Line), Column: int(at.Column), Path: pathString(path), Message: iss.Message, Code: iss.Code}
	p.Suggestions = m.suggestions(root, path, iss)
	if n, ok := iss.Note.(*problemNote); ok {
		p.Hint = n.hint
		if n.fixAt != nil {
			p.Fix = &Fix{Pos: Pos{File: file, Line: int(n.fixAt.Pos.Line), Column: int(n.fixAt.Pos.Column), Offset: int(n.fixAt.Pos.Offset)}, Platform: n.platform}
		}
	}
	// The resources union is the only one: its options are the two forms.
	forms := [...]string{"nested form", "flat form"}
	for i, option := range iss.Options {
		for _, o := range option {
			reason := forms[i] + ": "
			if sub := o.Path(); len(sub) > 0 {
				reason += pathString(sub) + ": "
			}
			p.Reasons = append(p.Reasons, reason+o.Message)
		}
	}
	return p
}

// locate returns the file and the position of the node path leads to, as
// far as the files have it: a missing key's mapping, an unknown key itself,
// the array item an issue names.
func (m *merged) locate(path []zod.Seg, iss *zod.Issue) (string, yamljs.Pos) {
	file, node, _ := m.walk(path)
	switch {
	case iss.Code == "unrecognized_keys" && node.Kind == yamljs.Map:
		for _, pair := range node.Pairs {
			if pair.Key == iss.Keys[0] {
				return file, pair.KeyPos
			}
		}
	case iss.At > 0 && node.Kind == yamljs.Seq:
		return file, node.Items[iss.At-1].Pos
	case strings.HasPrefix(iss.Message, "Labels with 'kici:'") && node.Kind == yamljs.Seq:
		for _, l := range node.Items {
			if l.Kind == yamljs.String && reserved(l.Str) {
				return file, l.Pos
			}
		}
	}
	return file, node.Pos
}

// walk returns the file and the node that path leads to, as far as the
// files have it, and whether that is the whole path.
func (m *merged) walk(path []zod.Seg) (file string, node *yamljs.Node, whole bool) {
	file, node = m.main, m.root
	if m.items != nil && len(path) >= 2 && path[0].Key == "scalers" && path[1].Index >= 0 {
		it := m.items[path[1].Index]
		file, node, path = it.file, it.node, path[2:]
	}
	for _, s := range path {
		next := child(node, s)
		if next == nil {
			return file, node, false
		}
		node = next
	}
	return file, node, true
}

// child is the node at s below n, or nil.
func child(n *yamljs.Node, s zod.Seg) *yamljs.Node {
	if s.Index >= 0 {
		if n.Kind == yamljs.Seq { // an index of zod's is one of the array's
			return n.Items[s.Index]
		}
		return nil
	}
	if n.Kind == yamljs.Map {
		return zod.JSValue(zod.Lookup(n, s.Key)) // yaml's undefined is where a key is absent: at its mapping
	}
	return nil
}
