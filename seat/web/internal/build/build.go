// Package build makes the browser seat's WebAssembly (cmd/seat) as seat/web commits it, and
// the digest of what goes into it. Both go generate (seat/web/gen) and seat/web's tests use
// it, so that the test that finds the committed .wasm stale and the generator that refreshes
// it agree.
//
// Its promises:
//   - Build is byte for byte reproducible: -trimpath, no VCS stamp, symbols stripped, GOOS=js
//     GOARCH=wasm, CGO off, GOFLAGS empty, with the go command on PATH; the same sources, module
//     versions and Go version give the same bytes on any machine, in any directory.
//   - Gzip is deterministic (no name, no time in the header, the best compression).
//   - Inputs changes when anything that Build reads changes: the content of every file of the
//     module's own packages that cmd/seat depends on for js/wasm (Go, assembly, embedded
//     files), the version of every other module it depends on, the Go version and the build's
//     flags. The standard library is the Go version's.
package build

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Main is the package Build builds.
const Main = "corruption/cmd/seat"

// Flags are the build's flags (after "go build").
var Flags = []string{"-trimpath", "-buildvcs=false", "-ldflags=-s -w"}

func env() []string {
	return append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0", "GOFLAGS=")
}

// Root is the module's root directory (the one holding go.mod), from dir.
func Root(dir string) (string, error) {
	cmd := exec.Command("go", "env", "GOMOD")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("%s is not in a module", dir)
	}
	return filepath.Dir(mod), nil
}

// GoVersion is the go command's version (go1.26.8).
func GoVersion(root string) (string, error) {
	cmd := exec.Command("go", "env", "GOVERSION")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOVERSION: %v", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Pinned is the Go version go.mod pins (its toolchain line, else its go line), as go1.X.Y.
func Pinned(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	pin := ""
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "toolchain":
			return f[1], nil
		case len(f) == 2 && f[0] == "go":
			pin = "go" + f[1]
		}
	}
	if pin == "" {
		return "", fmt.Errorf("go.mod pins no Go version")
	}
	return pin, nil
}

// Build builds Main and returns the .wasm's bytes.
func Build(root string) ([]byte, error) {
	tmp, err := os.MkdirTemp("", "seat-wasm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "seat.wasm")
	args := append(append([]string{"build"}, Flags...), "-o", out, Main)
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = root, env()
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	return os.ReadFile(out)
}

// Gzip compresses b, deterministically, at the best compression.
func Gzip(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// Gunzip decompresses b.
func Gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// Sum is the hex SHA-256 of b.
func Sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

type listed struct {
	ImportPath string
	Dir        string
	Standard   bool
	Module     *struct {
		Path    string
		Version string
		Main    bool
		Replace *struct{ Path, Version string }
	}
	GoFiles, SFiles, EmbedFiles, IgnoredGoFiles []string
}

// Inputs is the digest of everything Build reads (see the package's promises), and the Go
// version it was taken with.
func Inputs(root string) (digest, goVersion string, err error) {
	if goVersion, err = GoVersion(root); err != nil {
		return "", "", err
	}
	cmd := exec.Command("go", "list", "-deps", "-json", Main)
	cmd.Dir, cmd.Env = root, env()
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			err = fmt.Errorf("%v: %s", err, ee.Stderr)
		}
		return "", "", fmt.Errorf("go list -deps %s: %v", Main, err)
	}
	lines := []string{"go " + goVersion, "flags " + strings.Join(Flags, " ")}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			return "", "", fmt.Errorf("go list: %v", err)
		}
		switch {
		case p.Standard:
			continue // the Go version's
		case p.Module != nil && !p.Module.Main:
			v := p.Module.Path + "@" + p.Module.Version
			if r := p.Module.Replace; r != nil {
				v += " => " + r.Path + "@" + r.Version
			}
			lines = append(lines, "pkg "+p.ImportPath+" "+v)
			continue
		}
		rel, err := filepath.Rel(root, p.Dir)
		if err != nil {
			return "", "", err
		}
		files := append(append(append([]string{}, p.GoFiles...), p.SFiles...), p.EmbedFiles...)
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(p.Dir, f))
			if err != nil {
				return "", "", err
			}
			lines = append(lines, "file "+filepath.ToSlash(filepath.Join(rel, f))+" "+Sum(b))
		}
	}
	sort.Strings(lines)
	return Sum([]byte(strings.Join(lines, "\n"))), goVersion, nil
}

// GOROOT is the go command's GOROOT.
func GOROOT(root string) (string, error) {
	cmd := exec.Command("go", "env", "GOROOT")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %v", err)
	}
	return strings.TrimSpace(string(out)), nil
}
