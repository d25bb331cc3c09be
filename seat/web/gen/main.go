// Command gen makes seat/web's committed files (go generate ./seat/web): seat.wasm.gz (the
// browser seat, cmd/seat, built reproducibly and compressed), seat.wasm.sha256 (the digest of
// the .wasm itself, as a phone receives it once decompressed, and as --version and the
// release's SHA256SUMS give it), seat.wasm.inputs (the digest of its inputs, by which a test
// finds the committed .wasm stale) and wasm_exec.js (Go's, of the same toolchain). It refuses
// to build with another Go than go.mod pins: another version makes other bytes.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"corruption/seat/web/internal/build"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	root, err := build.Root(".")
	if err != nil {
		return err
	}
	pin, err := build.Pinned(root)
	if err != nil {
		return err
	}
	have, err := build.GoVersion(root)
	if err != nil {
		return err
	}
	if have != pin {
		return fmt.Errorf("this is %s, go.mod pins %s: build the browser seat with the pinned toolchain (GOTOOLCHAIN=%s go generate ./seat/web)", have, pin, pin)
	}
	inputs, _, err := build.Inputs(root)
	if err != nil {
		return err
	}
	raw, err := build.Build(root)
	if err != nil {
		return err
	}
	exec, err := wasmExec(root)
	if err != nil {
		return err
	}
	dir := filepath.Join(root, "seat", "web")
	files := map[string][]byte{
		"seat.wasm.gz":     build.Gzip(raw),
		"seat.wasm.sha256": []byte(build.Sum(raw) + "  seat.wasm\n"),
		"seat.wasm.inputs": []byte(inputs + " " + have + "\n"),
		"wasm_exec.js":     exec,
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("seat.wasm: %d bytes, %d gzipped, sha256 %s\n", len(raw), len(files["seat.wasm.gz"]), build.Sum(raw))
	return nil
}

// wasmExec reads wasm_exec.js from the go command's GOROOT.
func wasmExec(root string) ([]byte, error) {
	gr, err := build.GOROOT(root)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(filepath.Join(gr, "lib", "wasm", "wasm_exec.js"))
}
