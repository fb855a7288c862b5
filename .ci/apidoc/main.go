// Command apidoc reports every exported name of the library packages that
// has no doc comment: functions, methods of exported types, types,
// constants and variables (a comment on their group counts), struct fields
// and interface methods (a comment on the line counts). An empty comment
// ("//") is no comment.
//
// Usage, from the module's root: go run .ci/apidoc/main.go DIR...
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

func main() {
	bad := 0
	for _, dir := range os.Args[1:] {
		n, err := checkDir(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "apidoc:", err)
			os.Exit(2)
		}
		bad += n
	}
	if bad > 0 {
		fmt.Printf("%d exported names without a doc comment\n", bad)
		os.Exit(1)
	}
}

// checker reports the undocumented names of one file.
type checker struct {
	fset *token.FileSet
	bad  int
}

func checkDir(dir string) (int, error) {
	c := &checker{fset: token.NewFileSet()}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return 0, err
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(c.fset, name, nil, parser.ParseComments)
		if err != nil {
			return 0, err
		}
		if f.Name.Name == "main" {
			continue
		}
		for _, d := range f.Decls {
			c.decl(d)
		}
	}
	return c.bad, nil
}

func documented(groups ...*ast.CommentGroup) bool {
	for _, g := range groups {
		if g != nil && strings.TrimSpace(g.Text()) != "" {
			return true
		}
	}
	return false
}

func (c *checker) report(pos token.Pos, what string) {
	fmt.Printf("%s: %s has no doc comment\n", c.fset.Position(pos), what)
	c.bad++
}

func (c *checker) decl(d ast.Decl) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Name.IsExported() && exportedRecv(d) && !documented(d.Doc) {
			c.report(d.Pos(), d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			c.spec(d, s)
		}
	}
}

// exportedRecv reports whether fd is a function, or a method of an
// exported type: a method of an unexported one is not in the docs.
func exportedRecv(fd *ast.FuncDecl) bool {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return true
	}
	t := fd.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	if idx, ok := t.(*ast.IndexExpr); ok {
		t = idx.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}

func (c *checker) spec(d *ast.GenDecl, s ast.Spec) {
	switch s := s.(type) {
	case *ast.TypeSpec:
		if !s.Name.IsExported() {
			return
		}
		if !documented(s.Doc, d.Doc) {
			c.report(s.Pos(), s.Name.Name)
		}
		c.members(s.Name.Name, s.Type)
	case *ast.ValueSpec:
		for _, n := range s.Names {
			if n.IsExported() && !documented(s.Doc, s.Comment, d.Doc) {
				c.report(n.Pos(), n.Name)
			}
		}
	}
}

// members reports the undocumented exported fields of a struct type and
// methods of an interface type.
func (c *checker) members(typ string, t ast.Expr) {
	var list *ast.FieldList
	switch t := t.(type) {
	case *ast.StructType:
		list = t.Fields
	case *ast.InterfaceType:
		list = t.Methods
	default:
		return
	}
	for _, f := range list.List {
		for _, n := range f.Names {
			if n.IsExported() && !documented(f.Doc, f.Comment) {
				c.report(n.Pos(), typ+"."+n.Name)
			}
		}
	}
}
