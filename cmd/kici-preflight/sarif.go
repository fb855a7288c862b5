package main

import (
	"bufio"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/kicikit/kicikit/internal/jsstr"
	"github.com/kicikit/kicikit/preflight"
	"github.com/kicikit/kicikit/scalerconfig"
)

// maxSARIFResults is the most results GitHub code scanning keeps of one
// run; it drops the others.
const maxSARIFResults = 5000

// srcRoot is the uriBaseId of a relative path: the folder the program ran
// in, which is the repository's root in a CI job.
const srcRoot = "%SRCROOT%"

// rule is one finding code, as SARIF's rules describe it.
type rule struct {
	code, name, level, short, help string
}

// rules describes every finding code, in the order SARIF's ruleIndex counts.
var rules = []rule{
	{preflight.CodeMovingTag, "MovingTag", "warning",
		"The agent image has no tag or the tag latest, and the pull policy IfNotPresent.",
		"A host that already pulled the image keeps it, so an upgrade does not change the container agents. Pin the release you upgrade to (repository:VERSION), or set imagePullPolicy: Always. The orchestrator's own upgrade check reports this."},
	{preflight.CodeOlderPin, "OlderPin", "warning",
		"The agent image is pinned to a release older than the upgrade target.",
		"The container agents keep running the older release after the upgrade. Pin the release you upgrade to (repository:VERSION). The orchestrator's own upgrade check reports this."},
	{preflight.CodeNeverPull, "NeverPull", "warning",
		"The agent image has the pull policy Never and does not name the target release.",
		"No pull is ever attempted, so each host runs whatever image it already has. Pin the release you upgrade to and pull it on every host before agents spawn from it, or set imagePullPolicy: IfNotPresent."},
	{preflight.CodeFloatingTag, "FloatingTag", "warning",
		"The agent image has a tag that is not a release (stable, main, 0.20) and the pull policy IfNotPresent.",
		"Such a tag moves like latest: each host keeps the image it pulled first, and nothing tells which agent release runs. Pin a release (repository:VERSION) or a digest (repository@sha256:DIGEST)."},
	{preflight.CodeInvalidImage, "InvalidImage", "error",
		"The agent image is not a valid image reference.",
		"Docker refuses the reference, so the container scaler cannot start agents for the label set. Correct the image."},
	{preflight.CodeInvalidMemory, "InvalidMemory", "error",
		"A resources memory is a string the orchestrator's memory parser refuses.",
		"The orchestrator loads the config, but reads a label set's or the defaults' resources memory only when it spawns an agent, and fails every spawn that reads one it cannot parse, for a scaler of any type. Write the memory as a number and one unit k, m or g (512m, 2g)."},
	{preflight.CodeInvalidLimit, "InvalidLimit", "error",
		"A container limit comes out as zero, or is more bytes than an int64 holds.",
		"A zero limit is no limit to Docker, so the container scaler's agents run without the limit the config writes; a memory limit beyond an int64 makes the container runtime refuse every spawn. Set a limit that bounds the container, or remove it."},
	{codeInvalidConfig, "InvalidConfig", "error",
		"The orchestrator would refuse to load the scaler config.",
		"The orchestrator validates the scaler config when it starts, and refuses it whole for any of these problems: the service would not start after the upgrade. Correct the value at the position shown."},
}

func ruleIndex(code string) int {
	for i, r := range rules {
		if r.code == code {
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
	run := sarifRun{
		Tool:        sarifTool{Driver: driver(version)},
		Invocations: []sarifInvocation{{ExecutionSuccessful: failure == nil}},
		ColumnKind:  "utf16CodeUnits",
		Results:     []sarifResult{},
	}
	inv := &run.Invocations[0]
	if failure != nil {
		inv.Notifications = append(inv.Notifications, notification("error", failure.Error()))
	}
	if cut > 0 {
		inv.Notifications = append(inv.Notifications, notification("warning", fmt.Sprintf(
			"%d of %d results left out: GitHub code scanning keeps %d results of a run; the errors are kept first", cut, total, maxSARIFResults)))
	}
	b, err := newEncoder("", "  ").encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
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
func driver(version buildVersion) sarifDriver {
	d := sarifDriver{Name: "kici-preflight", Version: version.String(), SemanticVersion: version.semantic(), InformationURI: "https://github.com/kicikit/kicikit"}
	for _, r := range rules {
		sr := sarifRule{ID: r.code, Name: r.name, ShortDescription: sarifText{r.short}, FullDescription: sarifText{r.short + " " + r.help}}
		sr.Help.Text = r.help
		sr.Help.Markdown = "**" + r.short + "**\n\n" + r.help
		sr.DefaultConfiguration.Level = r.level
		d.Rules = append(d.Rules, sr)
	}
	return d
}

func notification(level, text string) sarifNotification {
	return sarifNotification{Level: level, Message: sarifText{text}}
}

func (c *check) result(d *diag) sarifResult {
	r := sarifResult{RuleID: d.code, RuleIndex: ruleIndex(d.code), Level: d.severity, Message: sarifText{d.message()}}
	src := c.in.fsys.files[d.pos.File]
	loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: artifact(d.shownFile, c.opts.windows)}}
	if d.pos.IsValid() {
		loc.PhysicalLocation.Region = region(src, d.pos, d.end)
	}
	r.Locations = []sarifLocation{loc}
	if d.pin != nil {
		image := d.pin.Image
		r.Fixes = []sarifFix{{
			Description: sarifText{"Set image to " + image + "."},
			ArtifactChanges: []sarifArtifactChange{{
				ArtifactLocation: loc.PhysicalLocation.ArtifactLocation,
				Replacements: []sarifReplacement{{
					DeletedRegion:   *region(src, d.pin.Pos, d.pin.End),
					InsertedContent: sarifText{d.pin.Text},
				}},
			}},
		}}
	}
	return r
}

// region is the region from pos to end (the zero Pos: pos's line alone),
// with columns in UTF-16 code units, as the run's columnKind says.
func region(src []byte, pos, end scalerconfig.Pos) *sarifRegion {
	r := &sarifRegion{StartLine: pos.Line, StartColumn: utf16Column(src, pos)}
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

// artifact is the location of a file as SARIF names it: an absolute path
// as a file: URI, a relative one relative to %SRCROOT%, each segment
// percent-encoded.
func artifact(shown string, windows bool) sarifArtifact {
	p := shown
	if windows {
		p = strings.ReplaceAll(p, `\`, "/")
	}
	switch {
	case windows && len(p) >= 3 && p[1] == ':' && p[2] == '/':
		return sarifArtifact{URI: "file:///" + p[:2] + encodePath(p[2:])}
	case windows && strings.HasPrefix(p, "//"):
		return sarifArtifact{URI: "file:" + encodePath(p)} // a UNC path: file://server/share/...
	case !windows && filepath.IsAbs(p):
		return sarifArtifact{URI: "file://" + encodePath(p)}
	}
	return sarifArtifact{URI: encodePath(p), URIBaseID: srcRoot}
}

// encodePath percent-encodes every byte of p that may not stand in a URI
// path as it is, ":" included (so that a relative path never reads as a
// scheme).
func encodePath(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~!$&'()*+,;=@/", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteString("%" + hex[c>>4:c>>4+1] + hex[c&15:c&15+1])
	}
	return b.String()
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	ColumnKind  string            `json:"columnKind"`
	Results     []sarifResult     `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string    `json:"id"`
	Name             string    `json:"name"`
	ShortDescription sarifText `json:"shortDescription"`
	FullDescription  sarifText `json:"fullDescription"`
	Help             struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown"`
	} `json:"help"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string    `json:"level"`
	Message sarifText `json:"message"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
	Fixes     []sarifFix      `json:"fixes,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent sarifText   `json:"insertedContent"`
}
