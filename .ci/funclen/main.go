// Command funclen holds the library packages to one screen a function:
// it reports every function longer than 40 lines or nesting deeper than
// four levels unless its doc comment says why with a line
//
//	//kicikit:long <reason>
//
// and, across all the packages it is given, more than 3 functions over 40
// lines, any over 60, or more than 1 nested deeper than 4, reasons or not
// (the budget of issue 19).
//
// Usage, from the module's root: go run .ci/funclen/main.go DIR...
// With FUNCLEN_NO_BUDGET=1 in the environment, a function with a reason
// is neither counted nor held to 60 lines: for internal/yamljs, which
// keeps the upstream parser's functions whole.
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

	maxLong   = 3  // functions over maxLines, with a reason
	hardLines = 60 // no function is longer, with a reason or not
	maxNested = 1  // functions deeper than maxDepth, with a reason
)

// budget counts the excused functions of every package checked.
type budget struct {
	long, nested, bad int
	noBudget          bool // reasons excuse any length, uncounted
}

func main() {
	b := budget{noBudget: os.Getenv("FUNCLEN_NO_BUDGET") == "1"}
	for _, dir := range os.Args[1:] {
		if err := b.checkDir(dir); err != nil {
			fmt.Fprintln(os.Stderr, "funclen:", err)
			os.Exit(2)
		}
	}
	if b.long > maxLong {
		fmt.Printf("%d functions over %d lines, with reasons: at most %d\n", b.long, maxLines, maxLong)
		b.bad++
	}
	if b.nested > maxNested {
		fmt.Printf("%d functions nested deeper than %d, with reasons: at most %d\n", b.nested, maxDepth, maxNested)
		b.bad++
	}
	if b.bad > 0 {
		os.Exit(1)
	}
}

func (b *budget) checkDir(dir string) error {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				b.check(fset, fd)
			}
		}
	}
	return nil
}

// check reports fd when it is over a limit without a reason, or over the
// hard one, and counts it when it has a reason.
func (b *budget) check(fset *token.FileSet, fd *ast.FuncDecl) {
	lines := fset.Position(fd.Body.Rbrace).Line - fset.Position(fd.Body.Lbrace).Line - 1
	depth := maxNesting(fd.Body)
	if lines <= maxLines && depth <= maxDepth {
		return
	}
	switch {
	case b.noBudget && excused(fd.Doc):
	case lines > hardLines:
		fmt.Printf("%s: %s: %d lines: none may be over %d\n", fset.Position(fd.Pos()), fd.Name.Name, lines, hardLines)
		b.bad++
	case excused(fd.Doc):
		if lines > maxLines {
			b.long++
		}
		if depth > maxDepth {
			b.nested++
		}
	default:
		fmt.Printf("%s: %s: %d lines (at most %d), nesting %d (at most %d)\n",
			fset.Position(fd.Pos()), fd.Name.Name, lines, maxLines, depth, maxDepth)
		b.bad++
	}
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
