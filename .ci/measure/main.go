// Command measure prints, for each package directory, what issue 28 asks
// to be shown: its files, lines and exported names (test files and
// generated files left out), and the words per sentence of the doc
// comments of its exported names.
//
// Usage, from the module's root: go run .ci/measure/main.go DIR...
//
// Exported names are the top-level ones: types, functions, constants and
// variables, not methods or fields. A sentence is prose ending in ".", "?"
// or "!" before a space or the comment's end; indented lines (code blocks
// and tables) are left out. The doc comments counted are those of exported
// declarations, methods, fields and constants.
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	fmt.Printf("%-24s %5s %6s %8s %9s\n", "package", "files", "lines", "exported", "words/sen")
	for _, dir := range os.Args[1:] {
		m, err := measure(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "measure:", err)
			os.Exit(2)
		}
		fmt.Printf("%-24s %5d %6d %8d %9.1f\n", dir, m.files, m.lines, m.exported, m.wordsPerSentence())
	}
}

type stats struct {
	files, lines, exported int
	words, sentences       int
}

func (s stats) wordsPerSentence() float64 {
	if s.sentences == 0 {
		return 0
	}
	return float64(s.words) / float64(s.sentences)
}

func measure(dir string) (stats, error) {
	var s stats
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return s, err
	}
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return s, err
		}
		if ast.IsGenerated(f) {
			continue
		}
		s.files++
		s.lines += fset.File(f.Pos()).LineCount()
		s.exported += exportedNames(f)
		ast.Inspect(f, func(n ast.Node) bool {
			for _, doc := range exportedDocs(n) {
				w, n := sentences(doc.Text())
				s.words += w
				s.sentences += n
			}
			return true
		})
	}
	return s, nil
}

func exportedNames(f *ast.File) int {
	n := 0
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.IsExported() {
				n++
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					if spec.Name.IsExported() {
						n++
					}
				case *ast.ValueSpec:
					for _, name := range spec.Names {
						if name.IsExported() {
							n++
						}
					}
				}
			}
		}
	}
	return n
}

// exportedDocs returns the doc comments node carries for an exported name.
func exportedDocs(node ast.Node) []*ast.CommentGroup {
	var docs []*ast.CommentGroup
	add := func(cgs ...*ast.CommentGroup) {
		for _, cg := range cgs {
			if cg != nil {
				docs = append(docs, cg)
			}
		}
	}
	switch d := node.(type) {
	case *ast.FuncDecl:
		if d.Name.IsExported() {
			add(d.Doc)
		}
	case *ast.GenDecl:
		for _, spec := range d.Specs {
			switch spec := spec.(type) {
			case *ast.TypeSpec:
				if spec.Name.IsExported() {
					if spec.Doc == nil && len(d.Specs) == 1 {
						add(d.Doc)
					}
					add(spec.Doc)
				}
			case *ast.ValueSpec:
				if spec.Names[0].IsExported() {
					if spec.Doc == nil && len(d.Specs) == 1 {
						add(d.Doc)
					}
					add(spec.Doc, spec.Comment)
				}
			}
		}
	case *ast.Field:
		if len(d.Names) > 0 && d.Names[0].IsExported() {
			add(d.Doc, d.Comment)
		}
	}
	return docs
}

// sentences counts the words and sentences of a comment's prose.
func sentences(text string) (words, count int) {
	var prose []string
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "\t") && !strings.HasPrefix(line, "  ") {
			prose = append(prose, line)
		}
	}
	t := strings.Join(prose, " ")
	start := 0
	for i := 0; i <= len(t); i++ {
		end := i == len(t)
		if !end && !(strings.IndexByte(".?!", t[i]) >= 0 && (i+1 == len(t) || t[i+1] == ' ')) {
			continue
		}
		if n := len(strings.Fields(t[start:i])); n > 0 {
			words += n
			count++
		}
		start = i + 1
	}
	return words, count
}
