// Command apisurface counts the exported identifiers of the module's
// packages: exported top-level names (funcs, types, vars, consts) and the
// exported methods of exported types, per package; with -fields, the
// exported struct fields and interface methods as well. Test files,
// internal packages and main packages are left out, because a user cannot
// import them.
//
//	go run ./internal/tools/apisurface          # one line per package, then the total
//	go run ./internal/tools/apisurface -top     # only the total
package main

import (
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	top := flag.Bool("top", false, "print only the module total")
	flag.BoolVar(&withFields, "fields", false, "count exported struct fields and interface methods too")
	flag.Parse()
	root := "."
	if flag.NArg() > 0 {
		root = flag.Arg(0)
	}
	counts, err := count(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "apisurface:", err)
		os.Exit(2)
	}
	dirs := make([]string, 0, len(counts))
	total := 0
	for d, n := range counts {
		dirs = append(dirs, d)
		total += n
	}
	sort.Strings(dirs)
	if !*top {
		for _, d := range dirs {
			fmt.Printf("%5d  %s\n", counts[d], d)
		}
	}
	fmt.Printf("%5d  total\n", total)
}

// count walks root and returns the exported identifiers per package folder.
func count(root string) (map[string]int, error) {
	out := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "internal" || name == "cmd") {
			return filepath.SkipDir
		}
		if path != root {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
		}
		n, ok, err := countDir(path)
		if err != nil {
			return err
		}
		if ok {
			out[filepath.ToSlash(path)] = n
		}
		return nil
	})
	return out, err
}

// countDir counts one folder's non-test, non-main package: the files
// go/build selects for this platform and the default build tags.
func countDir(dir string) (int, bool, error) {
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		var none *build.NoGoError
		if errors.As(err, &none) {
			return 0, false, nil
		}
		return 0, false, err
	}
	if bp.Name == "main" {
		return 0, false, nil
	}
	fset := token.NewFileSet()
	n := 0
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return 0, false, err
		}
		n += countFile(f)
	}
	return n, true, nil
}

// withFields counts the members of exported types as well (-fields).
var withFields bool

func countFile(f *ast.File) int {
	n := 0
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv == nil || receiverExported(d.Recv) {
				n++
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					n++
					if withFields {
						n += exportedMembers(s.Type)
					}
				case *ast.ValueSpec:
					for _, id := range s.Names {
						if id.IsExported() {
							n++
						}
					}
				}
			}
		}
	}
	return n
}

// receiverExported reports whether a method's receiver type is exported.
func receiverExported(fl *ast.FieldList) bool {
	if len(fl.List) == 0 {
		return false
	}
	t := fl.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}

// exportedMembers counts a struct's exported fields and an interface's
// exported methods.
func exportedMembers(t ast.Expr) int {
	n := 0
	switch x := t.(type) {
	case *ast.StructType:
		for _, f := range x.Fields.List {
			for _, id := range f.Names {
				if id.IsExported() {
					n++
				}
			}
		}
	case *ast.InterfaceType:
		for _, m := range x.Methods.List {
			for _, id := range m.Names {
				if id.IsExported() {
					n++
				}
			}
		}
	}
	return n
}
