// Command funclen reports the functions of the library packages that are
// longer than 40 lines or nest deeper than four levels, the limits issue 10
// set, unless their doc comment says why with a line
//
//	//kicikit:long <reason>
//
// Usage, from the module's root: go run .ci/funclen/main.go DIR...
// Test files and package main are not checked. It exits 1 when it reports
// anything.
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

const (
	maxLines = 40 // lines between a body's braces
	maxDepth = 4  // nested blocks of if, for, switch, select, case and func literals
)

func main() {
	bad := 0
	for _, dir := range os.Args[1:] {
		n, err := checkDir(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "funclen:", err)
			os.Exit(2)
		}
		bad += n
	}
	if bad > 0 {
		os.Exit(1)
	}
}

func checkDir(dir string) (int, error) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return 0, err
	}
	bad := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return 0, err
		}
		if f.Name.Name == "main" {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || excused(fd.Doc) {
				continue
			}
			lines := fset.Position(fd.Body.Rbrace).Line - fset.Position(fd.Body.Lbrace).Line - 1
			depth := maxNesting(fd.Body)
			if lines > maxLines || depth > maxDepth {
				fmt.Printf("%s: %s: %d lines (at most %d), nesting %d (at most %d)\n",
					fset.Position(fd.Pos()), fd.Name.Name, lines, maxLines, depth, maxDepth)
				bad++
			}
		}
	}
	return bad, nil
}

func excused(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if reason, ok := strings.CutPrefix(c.Text, "//kicikit:long "); ok && strings.TrimSpace(reason) != "" {
			return true
		}
	}
	return false
}

// maxNesting returns how deep blocks nest inside body: a statement directly
// in body is at depth 0, one inside an if in body at depth 1.
func maxNesting(body *ast.BlockStmt) int {
	deepest := 0
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		ast.Inspect(n, func(c ast.Node) bool {
			if c == n {
				return true
			}
			switch c := c.(type) {
			case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt,
				*ast.TypeSwitchStmt, *ast.SelectStmt, *ast.FuncLit:
				if depth+1 > deepest {
					deepest = depth + 1
				}
				walk(c, depth+1)
				return false
			case *ast.CaseClause, *ast.CommClause:
				return true // a case is part of its switch's level
			}
			return true
		})
	}
	walk(body, 0)
	return deepest
}
