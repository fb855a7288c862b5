package main

import (
	"bufio"
	"bytes"
	"encoding/json"

	"github.com/kicikit/kicikit/agentversion"
)

// jsonVersion is the version of the JSON output's shape, its "version"
// field: a change that drops or renames a field raises it. It is not the
// program's version, which the "tool" object holds.
const jsonVersion = 1

// jsonHead is what the JSON object holds before its findings.
type jsonHead struct {
	Version int        `json:"version"`
	Tool    jsonTool   `json:"tool"`
	Config  jsonConfig `json:"config"`
	Target  string     `json:"target"`          // the usable target; "" for none
	Error   string     `json:"error,omitempty"` // why the config could not be read
}

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type jsonConfig struct {
	Path string `json:"path,omitempty"`
	Dir  string `json:"dir,omitempty"`
}

type jsonSummary struct {
	// Errors counts the error findings and the unlisted problems.
	Errors int `json:"errors"`
	// Unlisted counts the config's problems past the first 100,000, which
	// the findings list: errors with no finding.
	Unlisted int `json:"unlisted,omitempty"`
	Warnings int `json:"warnings"`
	Ignored  int `json:"ignored"`
	Pinned   int `json:"pinned"`
	// Fixed counts the fixes -write made for a target of 0.16.0 or later.
	Fixed int `json:"fixed,omitempty"`
	// AgentImages and OtherImages are the images checked and those skipped
	// as not KiCI agent images; absent when the config was not checked.
	AgentImages *int `json:"agentImages,omitempty"`
	OtherImages *int `json:"otherImages,omitempty"`
}

// writeJSON writes the JSON object: the format's version, the tool, the
// config and target, then each finding with its position and severity,
// then the counts. It writes the findings one by one, so that a large
// config does not hold them all in memory twice.
func writeJSON(w *bufio.Writer, c *check, failure error) error {
	head := jsonHead{Version: jsonVersion, Tool: jsonTool{"kici-preflight", c.version.String()}}
	if c.in != nil {
		head.Config = jsonConfig{Path: c.in.shown.Path, Dir: c.in.shown.Dir}
	}
	if _, t, err := agentversion.ParseTarget(c.opts.target); err == nil {
		head.Target = t
	}
	if failure != nil {
		head.Error = failure.Error()
	}
	b, err := newEncoder("", "  ").encode(head)
	if err != nil {
		return err
	}
	w.Write(b[:len(b)-2]) // without the closing "\n}"
	w.WriteString(",\n  \"findings\": [")
	var sum jsonSummary
	diags := c.remaining() // a new slice each call under -write
	enc := newEncoder("", "")
	for i, d := range diags {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString("\n    ")
		if err := writeJSONFinding(w, d, enc); err != nil {
			return err
		}
		if d.severity == "error" {
			sum.Errors++
		} else {
			sum.Warnings++
		}
	}
	if len(diags) > 0 {
		w.WriteString("\n  ")
	}
	sum.Errors += c.unlisted
	sum.Unlisted = c.unlisted
	sum.Ignored = c.ignored
	if c.images != nil {
		sum.AgentImages, sum.OtherImages = &c.images.Agent, &c.images.Other
	}
	if c.pins != nil && c.opts.write {
		sum.Pinned, sum.Fixed = c.pins.images, c.pins.fixes
	}
	b, _ = json.Marshal(sum)
	w.WriteString("],\n  \"summary\": " + string(b) + "\n}\n")
	return w.Flush()
}

// jsonPlace is where a finding is, and how severe: the fields before the
// finding's own.
type jsonPlace struct {
	File      string `json:"file"`
	Line      int    `json:"line,omitempty"`
	Column    int    `json:"column,omitempty"`
	EndLine   int    `json:"endLine,omitempty"`
	EndColumn int    `json:"endColumn,omitempty"`
	Severity  string `json:"severity"`
}

// jsonProblem is a config problem's own fields.
type jsonProblem struct {
	Code    string   `json:"code"`
	Message string   `json:"message"`
	Path    string   `json:"path"`
	Problem string   `json:"problem"` // the kind: zod's issue code, "yaml" or "TypeError"
	Reasons []string `json:"reasons,omitempty"`
	// Suggestions pair each misspelt key with the key it was likely meant
	// to be (scalerconfig.Problem.Suggestions).
	Suggestions []jsonSuggestion `json:"suggestions,omitempty"`
}

// jsonSuggestion is a scalerconfig.Suggestion: the key the file writes, and
// the key meant.
type jsonSuggestion struct {
	Key   string `json:"key"`
	Meant string `json:"meant"`
}

func writeJSONFinding(w *bufio.Writer, d *diag, e *encoder) error {
	place := jsonPlace{File: d.shownFile, Line: d.pos.Line, Column: d.pos.Column, Severity: d.severity}
	if d.end.IsValid() {
		place.EndLine, place.EndColumn = d.end.Line, d.end.Column
	}
	var own any = d.finding
	if d.problem != nil {
		pj := jsonProblem{Code: d.code, Message: d.message(), Path: d.problem.Path, Problem: d.problem.Code, Reasons: d.problem.Reasons}
		for _, s := range d.problem.Suggestions {
			pj.Suggestions = append(pj.Suggestions, jsonSuggestion{Key: s.Key, Meant: s.Meant})
		}
		own = pj
	}
	// One object: the place's fields, the finding's own, the pin.
	obj, err := e.append(nil, place)
	if err != nil {
		return err
	}
	obj[len(obj)-1] = ','
	at := len(obj)
	if obj, err = e.append(obj, own); err != nil {
		return err
	}
	obj = append(obj[:at], obj[at+1:len(obj)-1]...) // the own object's fields, without its braces
	if image, ok := replacement(d); ok {
		obj, _ = e.append(append(obj, `,"replacement":`...), image)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, append(obj, '}'), "    ", "  "); err != nil {
		return err
	}
	_, err = w.Write(out.Bytes())
	return err
}

// encoder is a json.Encoder without HTML escaping but with the C1 control
// characters escaped (escapeC1), writing into a buffer it keeps. Every
// JSON the program writes, SARIF's included, goes through one.
type encoder struct {
	buf bytes.Buffer
	enc *json.Encoder
	c1  []byte // the escaped copy, when there is one
}

// newEncoder returns an encoder that indents as json.MarshalIndent does
// with prefix and indent; with indent "", it does not indent.
func newEncoder(prefix, indent string) *encoder {
	e := &encoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	if indent != "" {
		e.enc.SetIndent(prefix, indent)
	}
	return e
}

// append appends v's JSON to dst.
func (e *encoder) append(dst []byte, v any) ([]byte, error) {
	b, err := e.encode(v)
	return append(dst, b...), err
}

// encode returns v's JSON without the line break an Encoder adds after it,
// in the encoder's buffers: valid until the next call.
func (e *encoder) encode(v any) ([]byte, error) {
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		return nil, err
	}
	b := bytes.TrimSuffix(e.buf.Bytes(), []byte("\n"))
	if bytes.IndexByte(b, 0xC2) < 0 {
		return b, nil // no C1 control character can be in it
	}
	e.c1 = escapeC1(e.c1[:0], b)
	return e.c1, nil
}

// escapeC1 appends to dst the JSON text b with each C1 control character
// (U+0080 to U+009F) written as \u00XX, as encoding/json writes the C0
// ones, so that no reader of the output meets them raw (a terminal reads
// U+009B as the start of an escape sequence). In UTF-8 they are the bytes
// 0xC2 0x80 to 0xC2 0x9F, and in JSON text they stand only inside strings.
func escapeC1(dst, b []byte) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(b); i++ {
		if b[i] == 0xC2 && i+1 < len(b) && 0x80 <= b[i+1] && b[i+1] <= 0x9F {
			dst = append(dst, '\\', 'u', '0', '0', hex[b[i+1]>>4], hex[b[i+1]&15])
			i++
			continue
		}
		dst = append(dst, b[i])
	}
	return dst
}

// replacement is the image d's finding advises, if any.
func replacement(d *diag) (string, bool) {
	if d.finding == nil {
		return "", false
	}
	return d.finding.Replacement()
}
