package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/kicikit/kicikit/scalerconfig"
)

// loadConfig reads the scaler config at path and, when dir is not empty,
// every *.yaml and *.yml file in dir in name order, appending their scalers
// to the config's as the orchestrator does. It reads only the fields the
// check needs, and records where each scaler, label set and image is.
func loadConfig(path, dir string) (scalerconfig.Config, error) {
	var cfg scalerconfig.Config
	if err := add(&cfg, path); err != nil {
		return scalerconfig.Config{}, err
	}
	if dir == "" {
		return cfg, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return scalerconfig.Config{}, err
	}
	for _, e := range entries { // os.ReadDir sorts by name
		ext := filepath.Ext(e.Name())
		if e.IsDir() || (ext != ".yaml" && ext != ".yml") {
			continue
		}
		if err := add(&cfg, filepath.Join(dir, e.Name())); err != nil {
			return scalerconfig.Config{}, err
		}
	}
	return cfg, nil
}

// add appends the scalers of one file.
func add(cfg *scalerconfig.Config, path string) error {
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
	var file struct {
		Scalers []yaml.Node `yaml:"scalers"`
	}
	if err := doc.Decode(&file); err != nil {
		return fmt.Errorf("%s: %s", path, oneLine(err))
	}
	src := newSource(path, data)
	for i := range file.Scalers {
		s, err := src.scaler(&file.Scalers[i])
		if err != nil {
			return fmt.Errorf("%s: %s", path, oneLine(err))
		}
		cfg.Scalers = append(cfg.Scalers, s)
	}
	return nil
}

// source is one config file, to place its nodes.
type source struct {
	file   string
	data   []byte
	starts []int // the offset of each line's first byte
}

func newSource(file string, data []byte) *source {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &source{file: file, data: data, starts: starts}
}

func (src *source) scaler(n *yaml.Node) (scalerconfig.Scaler, error) {
	var v struct {
		Name      string                  `yaml:"name"`
		Type      scalerconfig.ScalerType `yaml:"type"`
		LabelSets []yaml.Node             `yaml:"labelSets"`
	}
	if err := n.Decode(&v); err != nil {
		return scalerconfig.Scaler{}, err
	}
	s := scalerconfig.Scaler{Name: v.Name, Type: v.Type, Pos: src.at(src.offset(n))}
	for i := range v.LabelSets {
		ls, err := src.labelSet(&v.LabelSets[i])
		if err != nil {
			return scalerconfig.Scaler{}, err
		}
		s.LabelSets = append(s.LabelSets, ls)
	}
	return s, nil
}

func (src *source) labelSet(n *yaml.Node) (scalerconfig.LabelSet, error) {
	var v struct {
		Labels          []string                `yaml:"labels"`
		Image           yaml.Node               `yaml:"image"`
		ImagePullPolicy scalerconfig.PullPolicy `yaml:"imagePullPolicy"`
	}
	if err := n.Decode(&v); err != nil {
		return scalerconfig.LabelSet{}, err
	}
	ls := scalerconfig.LabelSet{Labels: v.Labels, ImagePullPolicy: v.ImagePullPolicy, Pos: src.at(src.offset(n))}
	if v.Image.Kind == 0 { // no image
		return ls, nil
	}
	if err := v.Image.Decode(&ls.Image); err != nil {
		return scalerconfig.LabelSet{}, err
	}
	start := src.offset(&v.Image)
	ls.ImagePos = src.at(start)
	if end := src.scalarEnd(start, &v.Image); end >= 0 {
		ls.ImageEnd = src.at(end)
	}
	return ls, nil
}

// offset turns a node's line and column, which yaml.v3 counts in
// characters, into a byte offset.
func (src *source) offset(n *yaml.Node) int {
	if n.Line < 1 || n.Line > len(src.starts) {
		return -1
	}
	off := src.starts[n.Line-1]
	for range n.Column - 1 {
		_, size := utf8.DecodeRune(src.data[off:])
		off += size
	}
	return off
}

// at returns the position of the byte at off, or the file alone when off
// is -1.
func (src *source) at(off int) scalerconfig.Pos {
	if off < 0 {
		return scalerconfig.Pos{File: src.file}
	}
	line := sort.Search(len(src.starts), func(i int) bool { return src.starts[i] > off })
	return scalerconfig.Pos{File: src.file, Line: line, Column: off - src.starts[line-1] + 1, Offset: off}
}

// scalarEnd returns the offset just past the source text of the scalar n
// that starts at off, its closing quote included, or -1 when it cannot
// tell (a block scalar, a tag, or a plain scalar that folds lines).
func (src *source) scalarEnd(off int, n *yaml.Node) int {
	if off < 0 {
		return -1
	}
	rest := src.data[off:]
	switch n.Style {
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		q := rest[0]
		for i := 1; i < len(rest); i++ {
			switch {
			case q == '"' && rest[i] == '\\':
				i++ // an escaped character
			case q == '\'' && rest[i] == '\'' && i+1 < len(rest) && rest[i+1] == '\'':
				i++ // '' is one quote
			case rest[i] == q:
				return off + i + 1
			}
		}
	case 0:
		if bytes.HasPrefix(rest, []byte(n.Value)) {
			return off + len(n.Value)
		}
	}
	return -1
}

// oneLine folds the several lines of a YAML type error into one.
func oneLine(err error) string {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return "yaml: " + strings.Join(te.Errors, "; ")
	}
	return err.Error()
}
