package main

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/kicikit/kicikit/agentversion"
	"github.com/kicikit/kicikit/preflight"
	"github.com/kicikit/kicikit/scalerconfig"
)

// codeInvalidConfig is the code of each problem for which the orchestrator
// would refuse to load the config.
const codeInvalidConfig = "invalid-config"

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
	beforeRename   func()       // a test's hook: see hooks
	memory         *memoryBound // counts the bytes read; nil: no bound
	pins           *pins        // the pins, when -diff, -write or sarif needs them
	summary        string       // the line for standard error
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
	pinned    bool // -write made the pin
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

func severity(code string) string {
	switch code {
	case preflight.CodeInvalidImage, preflight.CodeInvalidMemory, preflight.CodeInvalidLimit, codeInvalidConfig:
		return "error"
	}
	return "warning"
}

func (c *check) run() (int, error) {
	in, err := c.locate()
	if err != nil {
		return c.fail(err)
	}
	c.in = in
	if in.noConfig != "" {
		c.summary = in.noConfig
		return exitOK, c.report()
	}
	findings, problems, err := c.scan()
	if err != nil {
		return c.fail(err)
	}
	c.collect(findings, problems)
	if err := c.pin(); err != nil {
		return exitError, err
	}
	if err := c.report(); err != nil {
		return exitError, err
	}
	return c.status(), nil
}

// fail reports a config that cannot be read: in SARIF and JSON too, so
// that an upload step shows the error instead of failing on no file.
func (c *check) fail(err error) (int, error) {
	switch c.opts.format {
	case "sarif":
		if werr := writeSARIF(c.out, c, err); werr != nil {
			return exitError, werr
		}
	case "json":
		if werr := writeJSON(c.out, c, err); werr != nil {
			return exitError, werr
		}
	}
	return exitError, err
}

// scan checks the config one scaler at a time, as scalerconfig.Location.Scan reads
// it, so that the program never holds the whole config: the findings, or,
// for a config the orchestrator would refuse, its problems.
func (c *check) scan() ([]preflight.Finding, *scalerconfig.Error, error) {
	checker := preflight.NewChecker(preflight.Input{
		Location:      c.in.shown,
		TargetVersion: c.opts.target,
	})
	findings := []preflight.Finding{}
	cfg, problems, err := c.in.scan(func(i int, s *scalerconfig.Scaler) {
		findings = byLabelSet(findings, checker.Check(i, s), checker.CheckResources(i, s))
	})
	if err != nil || problems != nil {
		return nil, problems, err
	}
	images := checker.Counts()
	c.images = &images
	// The defaults come before the scalers in the file, as in the schema.
	return append(checker.CheckDefaults(cfg), findings...), nil, nil
}

// byLabelSet appends to dst one scaler's image and resource findings,
// each label set's together: its image's first, in config order.
func byLabelSet(dst, images, resources []preflight.Finding) []preflight.Finding {
	for len(images) > 0 || len(resources) > 0 {
		if len(resources) == 0 || len(images) > 0 && images[0].LabelSet().LabelSetIndex <= resources[0].LabelSet().LabelSetIndex {
			dst, images = append(dst, images[0]), images[1:]
		} else {
			dst, resources = append(dst, resources[0]), resources[1:]
		}
	}
	return dst
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
		d := &diag{pos: s.ImagePos, end: s.ImageEnd, severity: severity(f.Code()), code: f.Code(), finding: f}
		valueEnd := s.ImageEnd
		if at, ok := resourceAt(f); ok {
			d.pos, d.end, valueEnd = at, scalerconfig.Pos{}, scalerconfig.Pos{}
		}
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

// resourceAt is where the file writes the value a resource finding is
// about; false for the agent image findings, which are at the image.
func resourceAt(f preflight.Finding) (scalerconfig.Pos, bool) {
	switch f := f.(type) {
	case preflight.InvalidMemory:
		return f.At, true
	case preflight.InvalidLimit:
		return f.At, true
	case preflight.MovingTag, preflight.OlderPin, preflight.NeverPull, preflight.FloatingTag, preflight.InvalidImage:
	}
	return scalerconfig.Pos{}, false
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
// the key a misspelt key was likely meant to be, and why each form of a
// value failed.
func problemMessage(p *scalerconfig.Problem) string {
	m := p.Message
	if p.Path != "" {
		m = p.Path + ": " + m
	}
	if hint := p.DidYouMean(); hint != "" {
		m += " " + hint
	}
	if len(p.Reasons) > 0 {
		m += " (" + strings.Join(p.Reasons, "; ") + ")"
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

func (c *check) report() error {
	var err error
	switch {
	case c.opts.diff:
		err = c.pins.writeDiff(c.out)
	case c.opts.format == "json":
		err = writeJSON(c.out, c, nil)
	case c.opts.format == "sarif":
		err = writeSARIF(c.out, c, nil)
	case c.opts.format == "github":
		err = writeGitHub(c.out, c.remaining(), c.annotationRoot)
	default:
		err = writeText(c.out, c.remaining())
	}
	if c.summary == "" {
		c.summary = c.summarize()
	}
	return err
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

// writeText writes each diag as `file:line:col: severity: message [code]`,
// as compilers and go vet write theirs.
func writeText(w *bufio.Writer, diags []*diag) error {
	for _, d := range diags {
		w.WriteString(escape(d.shownFile))
		if d.pos.IsValid() {
			w.WriteString(":" + strconv.Itoa(d.pos.Line) + ":" + strconv.Itoa(d.pos.Column))
		}
		w.WriteString(": " + d.severity + ": " + escape(d.message()) + " [" + d.code + "]\n")
	}
	return w.Flush()
}

// writeGitHub writes each diag as a GitHub Actions workflow command, which
// annotates the file in the run and in the pull request: a file inside
// root by its path relative to it, as GitHub names a repository's files.
func writeGitHub(w *bufio.Writer, diags []*diag, root string) error {
	for _, d := range diags {
		level := "warning"
		if d.severity == "error" {
			level = "error"
		}
		w.WriteString("::" + level + " file=" + ghProperty(escape(annotationFile(d.shownFile, root))))
		if d.pos.IsValid() {
			w.WriteString(",line=" + strconv.Itoa(d.pos.Line) + ",col=" + strconv.Itoa(d.pos.Column))
		}
		if d.end.IsValid() {
			w.WriteString(",endLine=" + strconv.Itoa(d.end.Line) + ",endColumn=" + strconv.Itoa(d.end.Column))
		}
		w.WriteString(",title=" + ghProperty("kici-preflight "+d.code) + "::" + ghData(escape(d.message())+" ["+d.code+"]") + "\n")
	}
	return w.Flush()
}

// annotationFile is how a GitHub annotation names file, as the output
// names it: by its path relative to root, with slashes, when it lies
// inside root; else by its absolute path, which GitHub attaches to no file
// of a pull request but a reader can still open. root is absolute, or ""
// for none; a relative file is relative to the working folder.
func annotationFile(file, root string) string {
	if file == stdinName {
		return file
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return file
	}
	if rel, err := filepath.Rel(root, abs); err == nil && root != "" && rel != "." && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return abs
}

// ghData escapes a workflow command's message as the Actions runner reads it.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
