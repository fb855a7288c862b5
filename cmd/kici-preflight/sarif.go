package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/kicikit/kicikit/cmd/kici-preflight/internal/sarif"
	"github.com/kicikit/kicikit/internal/jsstr"
	"github.com/kicikit/kicikit/scalerconfig"
)

// maxSARIFResults is the most results GitHub code scanning keeps of one
// run; it drops the others.
const maxSARIFResults = 5000

// ruleIndex is the index of code's rule in rules.
func ruleIndex(code string) int {
	for i, r := range rules {
		if r.Code == code {
			return i
		}
	}
	panic("kici-preflight: no SARIF rule for finding code " + code)
}

// writeSARIF writes a SARIF 2.1.0 log of one run: every diag at its file,
// with the region of the image value and the pin as a fix. When failure is
// not nil the run did not succeed, and says why. It writes the results one
// by one, so that a large config does not hold the whole log in memory.
func writeSARIF(w *bufio.Writer, c *check, failure error) error {
	diags := c.remaining()
	kept := keep(diags)
	head, tail, err := sarifFrame(c.version, failure, len(diags)-len(kept), len(diags))
	if err != nil {
		return err
	}
	w.WriteString(head)
	enc := newEncoder(resultIndent, "  ")
	n := 0
	for _, d := range diags {
		if !kept[d] {
			continue
		}
		b, err := enc.encode(c.result(d))
		if err != nil {
			return err
		}
		if n > 0 {
			w.WriteByte(',')
		}
		w.WriteString("\n" + resultIndent)
		w.Write(b)
		n++
	}
	if n > 0 {
		w.WriteString("\n" + resultIndent[2:])
	}
	w.WriteString(tail)
	return w.Flush()
}

// resultIndent is the indentation of a result in the log: in the results
// of the run, in the runs of the log.
const resultIndent = "        "

// resultsKey is the results field of the run when it has none, as the
// log's indented encoding writes it.
const resultsKey = `"results": []`

// sarifFrame is the log around the results, as one encoding of the whole
// log would write it: head ends with the results' "[", tail begins with
// their "]". cut of total diags are left out of the results.
func sarifFrame(version buildVersion, failure error, cut, total int) (head, tail string, err error) {
	run := sarif.Run{
		Tool:        sarif.Tool{Driver: driver(version)},
		Invocations: []sarif.Invocation{{ExecutionSuccessful: failure == nil}},
		ColumnKind:  "utf16CodeUnits",
		Results:     []sarif.Result{},
	}
	inv := &run.Invocations[0]
	if failure != nil {
		inv.Notifications = append(inv.Notifications, notification("error", failure.Error()))
	}
	if cut > 0 {
		inv.Notifications = append(inv.Notifications, notification("warning", fmt.Sprintf(
			"%d of %d results left out: GitHub code scanning keeps %d results of a run; the errors are kept first", cut, total, maxSARIFResults)))
	}
	b, err := newEncoder("", "  ").encode(sarif.Log{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarif.Run{run}})
	if err != nil {
		return "", "", err
	}
	// The results are the run's last field, and a string's quotes are
	// escaped: the last such key is the results'.
	s := string(b) + "\n"
	i := strings.LastIndex(s, resultsKey) + len(resultsKey) - 1
	return s[:i], s[i:], nil
}

// keep returns the diags that fit in one run, as GitHub would rank them:
// errors first, then warnings, each in config order; the others are marked
// cut.
func keep(diags []*diag) map[*diag]bool {
	kept := make(map[*diag]bool, min(len(diags), maxSARIFResults))
	for _, sev := range []string{"error", "warning"} {
		for _, d := range diags {
			if d.severity == sev && len(kept) < maxSARIFResults {
				kept[d] = true
			}
		}
	}
	for _, d := range diags {
		d.cut = !kept[d]
	}
	return kept
}

func countCut(diags []*diag) int {
	n := 0
	for _, d := range diags {
		if d.cut {
			n++
		}
	}
	return n
}

// driver is the tool's description: the program's name and version
// (semanticVersion only for a released module version, which is one),
// and its rules.
func driver(version buildVersion) sarif.Driver {
	d := sarif.Driver{Name: "kici-preflight", Version: version.String(), SemanticVersion: version.semantic(), InformationURI: "https://github.com/kicikit/kicikit"}
	for _, r := range rules {
		sr := sarif.Rule{ID: r.Code, Name: r.Name, ShortDescription: sarif.Text{Text: r.Summary}, FullDescription: sarif.Text{Text: r.Summary + " " + r.Help}}
		sr.Help.Text = r.Help
		sr.Help.Markdown = "**" + r.Summary + "**\n\n" + r.Help
		sr.DefaultConfiguration.Level = r.Severity
		d.Rules = append(d.Rules, sr)
	}
	return d
}

func notification(level, text string) sarif.Notification {
	return sarif.Notification{Level: level, Message: sarif.Text{Text: text}}
}

func (c *check) result(d *diag) sarif.Result {
	r := sarif.Result{RuleID: d.code, RuleIndex: ruleIndex(d.code), Level: d.severity, Message: sarif.Text{Text: d.message()}}
	src := c.in.fsys.files[d.pos.File]
	loc := sarif.Location{PhysicalLocation: sarif.Physical{ArtifactLocation: sarif.ArtifactOf(d.shownFile, c.opts.windows)}}
	if d.pos.IsValid() {
		loc.PhysicalLocation.Region = region(src, d.pos, d.end)
	}
	r.Locations = []sarif.Location{loc}
	if d.pin != nil {
		image := d.pin.Image
		r.Fixes = []sarif.Fix{{
			Description: sarif.Text{Text: "Set image to " + image + "."},
			ArtifactChanges: []sarif.ArtifactChange{{
				ArtifactLocation: loc.PhysicalLocation.ArtifactLocation,
				Replacements: []sarif.Replacement{{
					DeletedRegion:   *region(src, d.pin.Pos, d.pin.End),
					InsertedContent: sarif.Text{Text: d.pin.Text},
				}},
			}},
		}}
	}
	return r
}

// region is the region from pos to end (the zero Pos: pos's line alone),
// with columns in UTF-16 code units, as the run's columnKind says.
func region(src []byte, pos, end scalerconfig.Pos) *sarif.Region {
	r := &sarif.Region{StartLine: pos.Line, StartColumn: utf16Column(src, pos)}
	if end.IsValid() {
		r.EndLine, r.EndColumn = end.Line, utf16Column(src, end)
	}
	return r
}

// utf16Column is p's column counted in UTF-16 code units of its line, as
// a JavaScript editor counts it.
func utf16Column(src []byte, p scalerconfig.Pos) int {
	start := p.Offset - (p.Column - 1)
	if src == nil || start < 0 || p.Offset > len(src) {
		return p.Column
	}
	var line jsstr.UTF16Counter
	line.Add(src[start:p.Offset])
	return 1 + int(line.End())
}
