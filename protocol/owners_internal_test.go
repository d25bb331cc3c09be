package protocol

import (
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"testing"

	"os/exec"

	"strings"
)

// states are the types that hold a table's or a node's state. Each file that declares one owns
// its fields: no other file of the package sets them (docs/ARCHITECTURE.md, "protocol/: who may
// change what"). A field of Table or Node whose type is one of them (Table.step, Node.pause) is
// owned by that type's file.
var states = []string{
	"Table", "keyring", "seating", "decks", "hidden", "escrow", "departs", "convicts", "cuts", "stepState", "Self",
	"pendingAnswer", "leaving", "privateDeal", "hiddenValue", "recorded",
	"Node", "former", "syncer", "sharedLog", "watcher", "confirmation", "departing", "pauser",
	"chatRoom", "reporter", "told", "backoff",
}

// TestStatesOwnedByTheirFile type-checks the package's sources and fails on every statement of
// one file that sets a field of a state another file owns (an assignment to it, to an element of
// it, an increment, a delete or clear, or its address taken), and on every method of a state
// declared outside its file (but for Table's, Self's and Node's, which each service's file has).
func TestStatesOwnedByTheirFile(t *testing.T) {
	fset := token.NewFileSet()
	if build.Default.GOROOT == "" {
		// A test binary built with -trimpath (scripts/test.sh) does not know its GOROOT; the
		// importer below reads the standard library's sources from there.
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			t.Fatalf("go env GOROOT: %v", err)
		}
		build.Default.GOROOT = strings.TrimSpace(string(out))
	}
	bp, err := build.Default.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("corruption/protocol", fset, files, info)
	if err != nil {
		t.Fatalf("type-checking the package: %v", err)
	}
	fileOf := func(p token.Pos) string { return filepath.Base(fset.Position(p).Filename) }

	// The owner of each field of a state.
	isState := map[string]bool{}
	for _, s := range states {
		isState[s] = true
	}
	owner := map[*types.Var]string{}
	for _, name := range states {
		obj := pkg.Scope().Lookup(name)
		if obj == nil {
			t.Fatalf("state %s is not a type of the package any more: update the list", name)
		}
		st, ok := obj.Type().Underlying().(*types.Struct)
		if !ok {
			t.Fatalf("state %s is not a struct", name)
		}
		for i := range st.NumFields() {
			f := st.Field(i)
			if f.Embedded() {
				if n, ok := f.Type().(*types.Named); ok && n.Obj().Pkg() == pkg && !isState[n.Obj().Name()] {
					t.Errorf("%s embeds %s, which is not in the list of states", name, n.Obj().Name())
				}
				continue
			}
			owner[f] = fileOf(f.Pos())
			if n, ok := f.Type().(*types.Named); ok && isState[n.Obj().Name()] {
				owner[f] = fileOf(n.Obj().Pos())
			}
		}
	}

	var bad []string
	// A state's methods are in its file, but for the three whose methods are the services',
	// file by file: Table's (applying), Self's (writing the node's bodies) and Node's.
	spread := map[string]bool{"Table": true, "Self": true, "Node": true}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil {
				continue
			}
			obj, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			recv := obj.Signature().Recv().Type()
			if p, ok := recv.(*types.Pointer); ok {
				recv = p.Elem()
			}
			n, ok := recv.(*types.Named)
			if !ok || !isState[n.Obj().Name()] || spread[n.Obj().Name()] {
				continue
			}
			if want := fileOf(n.Obj().Pos()); fileOf(fd.Pos()) != want {
				bad = append(bad, fset.Position(fd.Pos()).String()+": method "+fd.Name.Name+" of "+n.Obj().Name()+" is not in "+want)
			}
		}
	}
	for _, f := range files {
		file := fileOf(f.Pos())
		set := func(e ast.Expr) {
			for {
				switch x := e.(type) {
				case *ast.ParenExpr:
					e = x.X
				case *ast.IndexExpr:
					e = x.X
				case *ast.StarExpr:
					e = x.X
				case *ast.SelectorExpr:
					if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
						if v, ok := sel.Obj().(*types.Var); ok && owner[v] != "" && owner[v] != file {
							bad = append(bad, fset.Position(x.Pos()).String()+": sets "+v.Name()+", which "+owner[v]+" owns")
						}
					}
					e = x.X
				default:
					return
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.AssignStmt:
				for _, l := range s.Lhs {
					set(l)
				}
			case *ast.IncDecStmt:
				set(s.X)
			case *ast.UnaryExpr:
				if s.Op == token.AND {
					set(s.X)
				}
			case *ast.CallExpr:
				if id, ok := s.Fun.(*ast.Ident); ok && (id.Name == "delete" || id.Name == "clear") && len(s.Args) > 0 {
					set(s.Args[0])
				}
			}
			return true
		})
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}
