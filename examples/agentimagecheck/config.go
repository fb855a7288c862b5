package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kicikit/kicikit/imageref"
)

// origin is where a label set is declared: the file, and the line of its
// image (or of the label set itself when it names none).
type origin struct {
	File string
	Line int
}

// loaded is a scaler config merged from its files, with the origin of every
// label set: Origins[i][j] for Config.Scalers[i].LabelSets[j].
type loaded struct {
	Config  imageref.Config
	Origins [][]origin
}

// loadConfig reads the scaler config at path and, when dir is not empty,
// every *.yaml and *.yml file in dir in name order, appending their scalers
// to the config's as the orchestrator does.
func loadConfig(path, dir string) (loaded, error) {
	var l loaded
	if err := l.add(path); err != nil {
		return loaded{}, err
	}
	if dir == "" {
		return l, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return loaded{}, err
	}
	for _, e := range entries { // os.ReadDir sorts by name
		ext := filepath.Ext(e.Name())
		if e.IsDir() || (ext != ".yaml" && ext != ".yml") {
			continue
		}
		if err := l.add(filepath.Join(dir, e.Name())); err != nil {
			return loaded{}, err
		}
	}
	return l, nil
}

// add appends the scalers of one file.
func (l *loaded) add(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%s: %s", path, oneLine(err))
	}
	if len(doc.Content) == 0 { // an empty file declares nothing
		return nil
	}
	var cfg imageref.Config
	if err := doc.Decode(&cfg); err != nil {
		return fmt.Errorf("%s: %s", path, oneLine(err))
	}
	scalers := child(doc.Content[0], "scalers")
	for i, s := range cfg.Scalers {
		var sets *yaml.Node
		if scalers != nil && i < len(scalers.Content) {
			sets = child(scalers.Content[i], "labelSets")
		}
		origins := make([]origin, len(s.LabelSets))
		for j := range origins {
			origins[j].File = path
			if sets != nil && j < len(sets.Content) {
				origins[j].Line = sets.Content[j].Line
				if image := child(sets.Content[j], "image"); image != nil {
					origins[j].Line = image.Line
				}
			}
		}
		l.Origins = append(l.Origins, origins)
	}
	l.Config.Scalers = append(l.Config.Scalers, cfg.Scalers...)
	return nil
}

// child returns the value of key in a YAML mapping, or nil.
func child(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// oneLine folds the several lines of a YAML type error into one.
func oneLine(err error) string {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return "yaml: " + strings.Join(te.Errors, "; ")
	}
	return err.Error()
}
