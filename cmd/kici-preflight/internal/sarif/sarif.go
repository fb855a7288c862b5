// Package sarif holds the parts of a SARIF 2.1.0 log that kici-preflight
// writes, as encoding/json writes them.
package sarif

import (
	"path/filepath"
	"strings"
)

// SrcRoot is the uriBaseId of a relative path: the folder the program ran
// in, which is the repository's root in a CI job.
const SrcRoot = "%SRCROOT%"

// ArtifactOf is the location of a file as SARIF names it: an absolute path
// as a file: URI, a relative one relative to %SRCROOT%, each segment
// percent-encoded.
func ArtifactOf(shown string, windows bool) Artifact {
	p := shown
	if windows {
		p = strings.ReplaceAll(p, `\`, "/")
	}
	switch {
	case windows && len(p) >= 3 && p[1] == ':' && p[2] == '/':
		return Artifact{URI: "file:///" + p[:2] + encodePath(p[2:])}
	case windows && strings.HasPrefix(p, "//"):
		return Artifact{URI: "file:" + encodePath(p)} // a UNC path: file://server/share/...
	case !windows && filepath.IsAbs(p):
		return Artifact{URI: "file://" + encodePath(p)}
	}
	return Artifact{URI: encodePath(p), URIBaseID: SrcRoot}
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

// Log is a SARIF 2.1.0 log.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is a run of the tool.
type Run struct {
	Tool        Tool         `json:"tool"`
	Invocations []Invocation `json:"invocations"`
	ColumnKind  string       `json:"columnKind"`
	Results     []Result     `json:"results"`
}

// Tool is the tool that ran.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver describes the tool: its name, version and rules.
type Driver struct {
	Name            string `json:"name"`
	Version         string `json:"version"`
	SemanticVersion string `json:"semanticVersion,omitempty"`
	InformationURI  string `json:"informationUri"`
	Rules           []Rule `json:"rules"`
}

// Rule describes one kind of result.
type Rule struct {
	ID               string `json:"id"`
	Name             string `json:"name"`
	ShortDescription Text   `json:"shortDescription"`
	FullDescription  Text   `json:"fullDescription"`
	Help             struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown"`
	} `json:"help"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
}

// Invocation is how the run went.
type Invocation struct {
	ExecutionSuccessful bool           `json:"executionSuccessful"`
	Notifications       []Notification `json:"toolExecutionNotifications,omitempty"`
}

// Notification is a message about the run.
type Notification struct {
	Level   string `json:"level"`
	Message Text   `json:"message"`
}

// Text is a message.
type Text struct {
	Text string `json:"text"`
}

// Result is one finding.
type Result struct {
	RuleID    string     `json:"ruleId"`
	RuleIndex int        `json:"ruleIndex"`
	Level     string     `json:"level"`
	Message   Text       `json:"message"`
	Locations []Location `json:"locations"`
	Fixes     []Fix      `json:"fixes,omitempty"`
}

// Location is where a result is.
type Location struct {
	PhysicalLocation Physical `json:"physicalLocation"`
}

// Physical is a file and a region of it.
type Physical struct {
	ArtifactLocation Artifact `json:"artifactLocation"`
	Region           *Region  `json:"region,omitempty"`
}

// Artifact names a file.
type Artifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// Region is a span of a file, its columns in UTF-16 code units.
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// Fix is a change that fixes a result.
type Fix struct {
	Description     Text             `json:"description"`
	ArtifactChanges []ArtifactChange `json:"artifactChanges"`
}

// ArtifactChange is the change of one file.
type ArtifactChange struct {
	ArtifactLocation Artifact      `json:"artifactLocation"`
	Replacements     []Replacement `json:"replacements"`
}

// Replacement replaces a region with new text.
type Replacement struct {
	DeletedRegion   Region `json:"deletedRegion"`
	InsertedContent Text   `json:"insertedContent"`
}
