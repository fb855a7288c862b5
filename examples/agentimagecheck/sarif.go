package main

import (
	"path/filepath"

	"github.com/kicikit/kicikit/imageref"
)

// rules describes every finding code, in the order SARIF's ruleIndex counts.
var rules = []sarifRule{
	rule(imageref.CodeMovingTag, "MovingTag", "warning",
		"The agent image has no tag or the tag latest, and the pull policy IfNotPresent: a host keeps the image it already pulled, so an upgrade does not change the agents."),
	rule(imageref.CodeOlderPin, "OlderPin", "warning",
		"The agent image is pinned to a release older than the upgrade target, so the agents keep running it."),
	rule(imageref.CodeNeverPull, "NeverPull", "warning",
		"The agent image has the pull policy Never and does not name the target release: each host runs whatever image it has."),
	rule(imageref.CodeFloatingTag, "FloatingTag", "warning",
		"The agent image has a tag that is not a release (stable, main, 0.20) and the pull policy IfNotPresent: it moves like latest, and nothing tells which release runs."),
	rule(imageref.CodeInvalidImage, "InvalidImage", "error",
		"The agent image is not a valid reference: Docker refuses it, and the scaler cannot start agents for the label set."),
}

func rule(id, name, level, text string) sarifRule {
	r := sarifRule{ID: id, Name: name, ShortDescription: sarifText{text}}
	r.DefaultConfiguration.Level = level
	return r
}

// sarifLog is a SARIF 2.1.0 log of one run that reported findings, each at
// the label set it is about.
func sarifLog(findings []imageref.Finding) sarif {
	results := make([]sarifResult, len(findings))
	for i, f := range findings {
		index := ruleIndex(f.Code())
		results[i] = sarifResult{
			RuleID:    f.Code(),
			RuleIndex: index,
			Level:     rules[index].DefaultConfiguration.Level,
			Message:   sarifText{f.Message()},
			Locations: []sarifLocation{location(f.LabelSet())},
		}
	}
	return sarif{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool:    sarifTool{Driver: sarifDriver{Name: "agentimagecheck", InformationURI: "https://github.com/kicikit/kicikit", Rules: rules}},
			Results: results,
		}},
	}
}

func ruleIndex(code string) int {
	for i, r := range rules {
		if r.ID == code {
			return i
		}
	}
	panic("agentimagecheck: no SARIF rule for finding code " + code)
}

// location is where the label set s is declared: the line of its image, or
// of the label set when it has none.
func location(s imageref.Site) sarifLocation {
	p := s.ImagePos
	if !p.IsValid() {
		p = s.Pos
	}
	var l sarifLocation
	l.PhysicalLocation.ArtifactLocation.URI = filepath.ToSlash(p.File)
	if p.IsValid() {
		l.PhysicalLocation.Region = &sarifRegion{StartLine: p.Line}
	}
	return l
}

type sarif struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string    `json:"id"`
	Name                 string    `json:"name"`
	ShortDescription     sarifText `json:"shortDescription"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
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
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region *sarifRegion `json:"region,omitempty"`
	} `json:"physicalLocation"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}
