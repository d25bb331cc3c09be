// Command crosscheck type-checks the corruption command and everything it imports for other
// platforms, from source, without compiling: what scripts/test.sh runs instead of a build of
// each release target (each build compiled libp2p and the standard library again: about 230 s
// of CPU a target with a cold build cache, where crosscheck takes about 3).
//
//	go run ./scripts/crosscheck [-pkg ./cmd/corruption] linux/arm64 darwin/amd64 ...
//
// What it promises: for each GOOS/GOARCH given, it asks `go list -deps` which files build there
// (CGO_ENABLED=0, as scripts/release.sh builds), parses them, and checks every package in
// dependency order with go/types, with that platform's sizes and each module's language
// version: this module's packages whole, the others (the standard library, the modules of
// go.mod) by their declarations, which is all of them this module's code sees. It prints every
// error, prefixed by the platform, and exits 1 if there is one. It sees what a build of that
// platform would see in this module's source: a name that does not exist there (a syscall of
// another system), a function that a build constraint leaves out, a constant that overflows
// there, an import cycle. It does not see what only the compiler's back end or the linker
// would, nor a dependency's function body that does not build on a platform: those come with a
// change of go.mod (a new version of a dependency), and scripts/release.sh builds every target
// for real.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// listed is what go list says of one package.
type listed struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	ImportMap  map[string]string
	Standard   bool
	Module     *struct {
		GoVersion string
		Main      bool
	}
	Error *struct{ Err string }
}

func main() {
	pkg := flag.String("pkg", "./cmd/corruption", "the package to check, with everything it imports")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: crosscheck [-pkg PATTERN] GOOS/GOARCH...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	// The platforms are independent: check them side by side, and print each one's errors together.
	type result struct {
		errs []string
		n    int
		err  error
	}
	results := make([]result, flag.NArg())
	var wg sync.WaitGroup
	for i, target := range flag.Args() {
		goos, goarch, ok := strings.Cut(target, "/")
		if !ok || goos == "" || goarch == "" {
			fmt.Fprintf(os.Stderr, "crosscheck: %q is not GOOS/GOARCH\n", target)
			os.Exit(2)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &results[i]
			r.n, r.errs, r.err = check(*pkg, goos, goarch)
		}()
	}
	wg.Wait()
	failed := false
	for i, target := range flag.Args() {
		r := results[i]
		switch {
		case r.err != nil:
			fmt.Fprintf(os.Stderr, "%s: %v\n", target, r.err)
			failed = true
		case len(r.errs) > 0:
			for _, e := range r.errs {
				fmt.Fprintf(os.Stderr, "%s: %s\n", target, e)
			}
			failed = true
		default:
			fmt.Printf("%s: %d packages check\n", target, r.n)
		}
	}
	if failed {
		os.Exit(1)
	}
}

// check type-checks pattern and its dependencies for goos/goarch: the number of packages, and
// the type errors found.
func check(pattern, goos, goarch string) (int, []string, error) {
	pkgs, err := list(pattern, goos, goarch)
	if err != nil {
		return 0, nil, err
	}
	sizes := types.SizesFor("gc", goarch)
	if sizes == nil {
		return 0, nil, fmt.Errorf("unknown GOARCH %q", goarch)
	}
	checked := map[string]*types.Package{"unsafe": types.Unsafe}
	var errs []string
	for _, p := range pkgs {
		if p.ImportPath == "unsafe" {
			continue
		}
		if p.Error != nil {
			errs = append(errs, fmt.Sprintf("%s: %s", p.ImportPath, p.Error.Err))
			continue
		}
		if len(p.CgoFiles) > 0 {
			errs = append(errs, fmt.Sprintf("%s: has cgo files with CGO_ENABLED=0", p.ImportPath))
			continue
		}
		files := make([]*ast.File, 0, len(p.GoFiles))
		for _, name := range p.GoFiles {
			f, err := parse(filepath.Join(p.Dir, name))
			if err != nil {
				errs = append(errs, err.Error())
				continue
			}
			files = append(files, f)
		}
		conf := types.Config{
			Importer: importer{checked, p.ImportMap},
			Sizes:    sizes,
			Error:    func(err error) { errs = append(errs, err.Error()) },
			// Of the standard library and the other modules, the declarations only: what this
			// module's code sees of them.
			IgnoreFuncBodies: p.Module == nil || !p.Module.Main,
		}
		if !p.Standard && p.Module != nil && p.Module.GoVersion != "" {
			conf.GoVersion = "go" + p.Module.GoVersion
		}
		// The errors go to conf.Error; a package with errors is still used by its importers,
		// as the compiler would stop at the first but go/types reports them all.
		tp, _ := conf.Check(p.ImportPath, fset, files, nil)
		checked[p.ImportPath] = tp
	}
	return len(pkgs), errs, nil
}

// The files, parsed once for every platform (most files build on every one): go/types only
// reads a syntax tree, so the platforms' checks share them.
var (
	fset   = token.NewFileSet()
	parsed sync.Map // path -> *parsing
)

type parsing struct {
	once sync.Once
	f    *ast.File
	err  error
}

func parse(path string) (*ast.File, error) {
	v, _ := parsed.LoadOrStore(path, &parsing{})
	p := v.(*parsing)
	p.once.Do(func() { p.f, p.err = parser.ParseFile(fset, path, nil, parser.SkipObjectResolution) })
	return p.f, p.err
}

// list runs go list -deps for the platform: the packages in dependency order (each after
// everything it imports).
func list(pattern, goos, goarch string) ([]listed, error) {
	cmd := exec.Command("go", "list", "-e", "-deps",
		"-json=ImportPath,Dir,GoFiles,CgoFiles,ImportMap,Standard,Module,Error", pattern)
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list's output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// importer finds the packages already checked, by the path an import names in the importing
// package (translated by its ImportMap: vendored packages of the standard library).
type importer struct {
	checked map[string]*types.Package
	mapped  map[string]string
}

func (im importer) Import(path string) (*types.Package, error) {
	if to, ok := im.mapped[path]; ok {
		path = to
	}
	if p := im.checked[path]; p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("package %s was not checked before its importer", path)
}
