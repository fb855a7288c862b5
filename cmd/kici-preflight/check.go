package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/agentversion"
	"github.com/kicikit/kicikit/preflight"
	"github.com/kicikit/kicikit/scalerconfig"
)

// codeInvalidConfig is the code of each problem for which the orchestrator
// would refuse to load the config.
const codeInvalidConfig = preflight.CodeInvalidConfig

// rules are the checks, in the order -h lists them and SARIF's ruleIndex
// counts them: preflight's kinds of finding, then the config's problems.
var rules = append(preflight.Kinds(), preflight.InvalidConfigKind())

// check is one run of the program.
type check struct {
	opts    options
	version buildVersion // the program's, for the JSON and SARIF outputs
	stdin   io.Reader
	out     *bufio.Writer
	in      *input
	diags   []*diag
	ignored int
	// unlisted counts the config's problems past the maxListed it lists,
	// errors that have no diag.
	unlisted int
	images   *preflight.ImageCounts // the images checked and skipped; nil when the config was not checked
	// annotationRoot is the folder -format github names files relative
	// to: GITHUB_WORKSPACE, else the working folder.
	annotationRoot string
	beforeRename   func() // a test's hook: see runHooked
	pins           *pins  // the pins, when -diff, -write or sarif needs them
	// fixed are the problems whose fixes -diff shows and -write makes
	// (fixes.go); the config read again holds them no more.
	fixed     []scalerconfig.Problem
	unfixable map[string]bool // the problems whose fixes ApplyFixes refused (problemKey), tried once
	summary   string          // the line for standard error
}

// diag is one finding or config problem, where it is, and what is to be
// done about it.
type diag struct {
	pos, end  scalerconfig.Pos // end: the image value's end, when there is one
	severity  string           // "error" or "warning"
	code      string
	finding   preflight.Finding     // nil for a config problem
	problem   *scalerconfig.Problem // nil for a finding
	pin       *scalerconfig.Replacement
	pinned    bool // -write made the pin, or the fix
	fix       bool // a problem whose fix -diff shows and -write makes
	cut       bool // left out of the SARIF log
	shownFile string
}

// message is d's message, as the library gives it, control characters
// included. It is made when it is written, not kept: a large config has
// tens of thousands of findings.
func (d *diag) message() string {
	if d.finding != nil {
		return d.finding.Message()
	}
	return problemMessage(d.problem)
}

// severity is the severity of the finding code: "error" or "warning".
func severity(code string) string {
	return rules[ruleIndex(code)].Severity
}

// scan checks the config one scaler at a time, as scalerconfig.Location.Scan reads
// it, so that the program never holds the whole config: the findings, or,
// for a config the orchestrator would refuse, its problems.
func (c *check) scan() ([]preflight.Finding, *scalerconfig.Error, error) {
	in := preflight.Input{Location: c.in.shown, TargetVersion: c.opts.target}
	findings, images, err := preflight.Scan(in, c.in.scan)
	var bad *scalerconfig.Error
	switch {
	case errors.As(err, &bad):
		return nil, bad, nil
	case err != nil:
		return nil, nil, err
	}
	c.images = &images
	return findings, nil, nil
}

// collect turns the findings or problems into diags, less the ignored
// ones, and counts the problems not listed.
func (c *check) collect(findings []preflight.Finding, refused *scalerconfig.Error) {
	var problems []scalerconfig.Problem
	if refused != nil {
		problems = refused.Problems
		if slices.Contains(c.opts.ignore, codeInvalidConfig) {
			c.ignored += refused.Omitted
		} else {
			c.unlisted = refused.Omitted
		}
	}
	for i := range c.fixed {
		p := &c.fixed[i]
		c.add(&diag{pos: scalerconfig.Pos{File: p.File, Line: p.Line, Column: p.Column}, severity: "error", code: codeInvalidConfig, problem: p, fix: true})
	}
	for i := range problems {
		p := &problems[i]
		d := &diag{
			pos:      scalerconfig.Pos{File: p.File, Line: p.Line, Column: p.Column},
			severity: "error", code: codeInvalidConfig, problem: p,
		}
		c.add(d)
	}
	ig := newIgnorer(c.in.fsys.files)
	for _, f := range findings {
		s := f.LabelSet()
		d := &diag{severity: severity(f.Code()), code: f.Code(), finding: f}
		d.pos, d.end = preflight.ValuePos(f)
		valueEnd := d.end
		if !d.pos.IsValid() {
			d.pos, d.end = s.Pos, scalerconfig.Pos{}
		}
		if ig.ignores(s, valueEnd, f.Code()) {
			c.ignored++
			continue
		}
		c.add(d)
	}
}

func (c *check) add(d *diag) {
	if slices.Contains(c.opts.ignore, d.code) {
		c.ignored++
		return
	}
	d.shownFile = c.in.name(d.pos.File)
	c.diags = append(c.diags, d)
}

// problemMessage is a problem's path and the orchestrator's message, with
// the key a misspelt key was likely meant to be, why each form of a value
// failed, and how to write what the orchestrator asks for.
func problemMessage(p *scalerconfig.Problem) string {
	m := p.Message
	if p.Path != "" {
		m = p.Path + ": " + m
	}
	if hint := p.DidYouMean(); hint != "" {
		m += "; " + hint
	}
	if len(p.Reasons) > 0 {
		m += " (" + strings.Join(p.Reasons, "; ") + ")"
	}
	if p.Hint != "" {
		m += " (" + p.Hint + ")"
	}
	return m
}

// status is the exit status the remaining findings give.
func (c *check) status() int {
	for _, d := range c.diags {
		if d.pinned {
			continue
		}
		if c.opts.threshold == "warning" || c.opts.threshold == "error" && d.severity == "error" {
			return exitFailure
		}
	}
	return exitOK
}

// remaining are the diags to report: all but those -write pinned.
func (c *check) remaining() []*diag {
	if !c.opts.write {
		return c.diags
	}
	var out []*diag
	for _, d := range c.diags {
		if !d.pinned {
			out = append(out, d)
		}
	}
	return out
}

// summarize is the summary line: what was found, ignored and pinned.
func (c *check) summarize() string {
	var errs, warns int
	for _, d := range c.remaining() {
		if d.severity == "error" {
			errs++
		} else {
			warns++
		}
	}
	s := count(errs+c.unlisted, "error") + ", " + count(warns, "warning") + ", " + strconv.Itoa(c.ignored) + " ignored"
	if c.unlisted > 0 {
		s += fmt.Sprintf("; %d problems not listed (the first %d are)", c.unlisted, maxListed)
	}
	if n := c.images; n != nil {
		what := "KiCI agent images"
		if n.Other == 1 {
			what = "a KiCI agent image"
		}
		s += "; " + count(n.Agent, "agent image") + " checked, " + count(n.Other, "image") + " skipped (not " + what + ")"
	}
	switch {
	case c.opts.target == "":
		s += "; no -target: only what holds for any release"
	default:
		_, t, _ := agentversion.ParseTarget(c.opts.target)
		s += "; target " + t
	}
	if c.opts.diff || c.opts.write {
		s += c.pins.summary(c.opts.write)
	}
	if n := countCut(c.diags); n > 0 {
		s += fmt.Sprintf("; %d results left out of the SARIF log (GitHub code scanning keeps %d a run)", n, maxSARIFResults)
	}
	return s
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
