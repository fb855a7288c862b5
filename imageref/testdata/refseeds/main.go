// Command refseeds writes ../distribution-refs.json: the strings of
// github.com/distribution/reference's own tests, which seed imageref's
// differential fuzz target. Run it from the imageref folder:
//
//	go run ./testdata/refseeds
//
// It reads the test files of the version go.mod requires from the module
// cache, and keeps every string in a test table or slice (the inputs and
// their expected names, tags and digests), in the order they appear, each
// once. A string written as a concatenation or with strings.Repeat is
// evaluated, so the length-limit cases are there at their full length.
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

const module = "github.com/distribution/reference"

var files = []string{"reference_test.go", "normalize_test.go", "regexp_test.go"}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "refseeds:", err)
		os.Exit(1)
	}
}

func run() error {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}\t{{.Version}}", module).Output()
	if err != nil {
		return fmt.Errorf("go list -m %s: %w", module, err)
	}
	dir, version, _ := strings.Cut(strings.TrimSpace(string(out)), "\t")
	seen := map[string]bool{}
	seeds := []string{}
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, 0)
		if err != nil {
			return err
		}
		for _, s := range tableStrings(f) {
			if !seen[s] {
				seen[s] = true
				seeds = append(seeds, s)
			}
		}
	}
	b, err := json.MarshalIndent(struct {
		Source string   `json:"source"`
		Seeds  []string `json:"seeds"`
	}{module + "@" + version + " " + strings.Join(files, ", "), seeds}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile("testdata/distribution-refs.json", append(b, '\n'), 0o644)
}

// tableStrings returns the strings of f's composite literals: elements and
// field values that are string expressions refseeds can evaluate.
func tableStrings(f *ast.File) []string {
	var found []string
	add := func(e ast.Expr) {
		if s, ok := eval(e); ok {
			found = append(found, s)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.CompositeLit); ok {
			for _, e := range lit.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				add(e)
			}
		}
		return true
	})
	return found
}

// eval evaluates a string literal, a sum of string expressions, or a call
// of strings.Repeat with an integer literal count.
func eval(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		x, okX := eval(e.X)
		y, okY := eval(e.Y)
		return x + y, e.Op == token.ADD && okX && okY
	case *ast.CallExpr:
		sel, ok := e.Fun.(*ast.SelectorExpr)
		if !ok || len(e.Args) != 2 || sel.Sel.Name != "Repeat" {
			return "", false
		}
		if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "strings" {
			return "", false
		}
		s, ok := eval(e.Args[0])
		n, isInt := e.Args[1].(*ast.BasicLit)
		if !ok || !isInt || n.Kind != token.INT {
			return "", false
		}
		count, err := strconv.Atoi(n.Value)
		return strings.Repeat(s, count), err == nil
	}
	return "", false
}
