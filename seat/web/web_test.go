package web

import (
	"bytes"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"corruption/seat/web/internal/build"
)

var rebuild = flag.Bool("wasm.rebuild", false, "TestWasmReproducible: rebuild the browser seat and compare its bytes with the committed ones (minutes)")

// budget is the most the .wasm may weigh as transferred (issue 24).
const budget = 6 << 20

// TestWasmFresh: the committed .wasm was built from the sources as they are: the digest of
// its inputs (every Go and embedded file of the module's packages that cmd/seat depends on for
// js/wasm, the other modules' versions, the Go version) is the one recorded beside it. When
// it fails: go generate ./seat/web, and commit what it changes.
func TestWasmFresh(t *testing.T) {
	root, err := build.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	digest, have, err := build.Inputs(root)
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(wasmInputs)
	if len(f) != 2 {
		t.Fatalf("seat.wasm.inputs: %q is not DIGEST GOVERSION", wasmInputs)
	}
	if pin, err := build.Pinned(root); err == nil && have != pin && have != f[1] {
		t.Skipf("this is %s; the committed .wasm is checked with the pinned %s", have, pin)
	}
	if digest != f[0] || have != f[1] {
		t.Fatalf("the browser seat's .wasm is stale: its inputs are %s with %s, it was built from %s with %s: run go generate ./seat/web and commit what it changes", digest[:12], have, f[0][:12], f[1])
	}
}

// TestWasmDigest: the .wasm's recorded digest is the digest of the committed .wasm, and it
// keeps to its budget as transferred.
func TestWasmDigest(t *testing.T) {
	raw, err := wasm()
	if err != nil {
		t.Fatal(err)
	}
	if got := build.Sum(raw); got != Digest() {
		t.Fatalf("seat.wasm.sha256 says %s, the .wasm's is %s", Digest(), got)
	}
	if !bytes.HasPrefix(raw, []byte("\x00asm")) {
		t.Fatal("seat.wasm.gz does not hold WebAssembly")
	}
	if r, gz := Size(); gz > budget {
		t.Fatalf("the .wasm weighs %d bytes as transferred (%d raw): over its budget of %d", gz, r, budget)
	}
}

// TestWasmReproducible (the long check, -wasm.rebuild): building the browser seat again gives
// the committed bytes, raw and compressed.
func TestWasmReproducible(t *testing.T) {
	if !*rebuild {
		t.Skip("the long check: go test ./seat/web -run TestWasmReproducible -args -wasm.rebuild")
	}
	root, err := build.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := build.Build(root)
	if err != nil {
		t.Fatal(err)
	}
	if got := build.Sum(raw); got != Digest() {
		t.Fatalf("the rebuilt .wasm's digest is %s, the committed one's %s", got, Digest())
	}
	if !bytes.Equal(build.Gzip(raw), wasmGz) {
		t.Fatal("the rebuilt .wasm compresses to other bytes than seat.wasm.gz")
	}
}

func get(t *testing.T, h http.Handler, path string, hdr ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w.Result()
}

// TestHandler: the phones' handler serves the seat's page (its scripts in order, WebAssembly
// allowed, no eval), the .wasm (gzipped or whole, with its digest as ETag), the page's static
// files, and nothing else: no /api/.
func TestHandler(t *testing.T) {
	h, err := Handler()
	if err != nil {
		t.Fatal(err)
	}
	r := get(t, h, "/?t=token")
	page, _ := io.ReadAll(r.Body)
	if r.StatusCode != 200 {
		t.Fatalf("GET /: %d", r.StatusCode)
	}
	csp := r.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "'wasm-unsafe-eval'") || strings.Contains(csp, "'unsafe-eval'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("the page's policy %q: want WebAssembly allowed and no eval nor inline script", csp)
	}
	i, j, k := bytes.Index(page, []byte(IDBPath)), bytes.Index(page, []byte(WasmExecPath)), bytes.Index(page, []byte(LoaderPath))
	if i < 0 || j < i || k < j {
		t.Errorf("the page loads the seat's scripts out of order (%d, %d, %d)", i, j, k)
	}
	if bytes.Contains(page, []byte(`src="/static/app.js"`)) {
		t.Error("the page loads app.js before the seat is ready")
	}
	r = get(t, h, WasmPath, "Accept-Encoding", "br, gzip")
	b, _ := io.ReadAll(r.Body)
	if r.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(b, wasmGz) || r.Header.Get("Content-Type") != "application/wasm" {
		t.Errorf("the .wasm to a client that takes gzip: %q, %q, %d bytes", r.Header.Get("Content-Encoding"), r.Header.Get("Content-Type"), len(b))
	}
	r = get(t, h, WasmPath)
	b, _ = io.ReadAll(r.Body)
	if r.Header.Get("Content-Encoding") != "" || build.Sum(b) != Digest() {
		t.Errorf("the .wasm to a client that takes no gzip: encoding %q, digest %s, want %s", r.Header.Get("Content-Encoding"), build.Sum(b), Digest())
	}
	if r = get(t, h, WasmPath, "If-None-Match", `"`+Digest()+`"`); r.StatusCode != http.StatusNotModified {
		t.Errorf("the .wasm revalidated: %d, want 304", r.StatusCode)
	}
	for _, p := range []string{IDBPath, WasmExecPath, LoaderPath, "/static/app.js", "/static/api.js", "/static/boards/kingdoms/board.js"} {
		if r := get(t, h, p); r.StatusCode != 200 {
			t.Errorf("GET %s: %d", p, r.StatusCode)
		}
	}
	for _, p := range []string{"/api/state", "/api/events", "/bridge", "/seat/", "/seat/other.js", "/seat.wasm/x"} {
		if r := get(t, h, p); r.StatusCode != 404 {
			t.Errorf("GET %s: %d, want 404", p, r.StatusCode)
		}
	}
}
