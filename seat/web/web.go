// Package web serves the browser seat to phones: the page (the laptop's page, whose seat runs
// in it), the seat's WebAssembly and its scripts. A laptop's phones listener mounts Handler
// beside the bridge; it serves nothing else (no /api/: the seat answers the page in the page).
//
// The .wasm is committed, built and compressed (seat.wasm.gz), so that `go run
// ./cmd/corruption` needs no WebAssembly build on a fresh machine. `go generate ./seat/web`
// makes it again (gen/, internal/build: reproducible, with the pinned Go); TestWasmFresh fails
// when its inputs changed since (a digest of them is committed beside it, seat.wasm.inputs),
// and the long check (go test ./seat/web -run TestWasmReproducible -args -wasm.rebuild)
// rebuilds it and compares bytes.
package web

//go:generate go run ./gen

import (
	"bytes"
	_ "embed"
	"io"
	"net/http"
	"strings"
	"sync"

	"corruption/protocol/browserstore"
	"corruption/seat/web/internal/build"
	"corruption/ui"
	"corruption/ui/games"
)

var (
	//go:embed seat.wasm.gz
	wasmGz []byte
	//go:embed seat.wasm.sha256
	wasmSum string
	//go:embed seat.wasm.inputs
	wasmInputs string
	//go:embed wasm_exec.js
	wasmExec []byte
	//go:embed static/seat.js
	loader []byte
)

// Digest is the SHA-256 (hex) of the browser seat's .wasm as a phone receives it (once
// decompressed): what `corruption --version` prints and the release's SHA256SUMS lists as
// seat.wasm.
func Digest() string { return strings.Fields(wasmSum)[0] }

// WasmGzip is the .wasm, gzip-compressed, as committed (the phones listener serves it).
func WasmGzip() []byte { return wasmGz }

// Size is the .wasm's size: raw, and as transferred (gzip).
func Size() (raw, transferred int) {
	b, _ := wasm()
	return len(b), len(wasmGz)
}

var (
	wasmOnce sync.Once
	wasmRaw  []byte
	wasmErr  error
)

// wasm is the .wasm decompressed (for a client that takes no gzip), once.
func wasm() ([]byte, error) {
	wasmOnce.Do(func() { wasmRaw, wasmErr = build.Gunzip(wasmGz) })
	return wasmRaw, wasmErr
}

// Paths the page loads, in order: the seat's storage, Go's runtime, the loader (which starts
// the .wasm at WasmPath and then the page's modules).
const (
	IDBPath      = "/seat/idb.js"
	WasmExecPath = "/seat/wasm_exec.js"
	LoaderPath   = "/seat/seat.js"
	WasmPath     = "/seat.wasm" // as cmd/corruption's phones listener serves it
)

// Boards are every game's board, as the seat shows them (ui/games).
func Boards() []ui.Board { return games.Boards() }

// pagePolicy is the page's Content-Security-Policy: the laptop page's, with WebAssembly
// allowed to compile ('wasm-unsafe-eval': no JavaScript eval).
const pagePolicy = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'"

// Handler serves the seat's page at /, its scripts and .wasm under /seat/, and the page's
// static files under /static/; anything else is 404.
func Handler() (http.Handler, error) {
	page, err := ui.SeatPage(IDBPath, WasmExecPath, LoaderPath)
	if err != nil {
		return nil, err
	}
	files, err := ui.Files(Boards())
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Security-Policy", pagePolicy)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})
	script := func(b []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			w.Header().Set("Cache-Control", "no-cache")
			w.Write(b)
		}
	}
	mux.HandleFunc("GET "+IDBPath, script([]byte(browserstore.Script)))
	mux.HandleFunc("GET "+WasmExecPath, script(wasmExec))
	mux.HandleFunc("GET "+LoaderPath, script(loader))
	mux.HandleFunc("GET "+WasmPath, serveWasm)
	mux.Handle("GET /static/", files)
	return secure(mux), nil
}

// serveWasm sends the .wasm, gzipped to a client that takes gzip, else whole. Its ETag is its
// digest: a phone that has it revalidates without fetching it again.
func serveWasm(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/wasm")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", `"`+Digest()+`"`)
	h.Set("Vary", "Accept-Encoding")
	if r.Header.Get("If-None-Match") == `"`+Digest()+`"` {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		w.Write(wasmGz)
		return
	}
	raw, err := wasm()
	if err != nil {
		http.Error(w, "the seat's .wasm in this binary is damaged: "+err.Error(), http.StatusInternalServerError)
		return
	}
	io.Copy(w, bytes.NewReader(raw))
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(enc), "gzip") && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}

// secure adds the headers every answer carries.
func secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}
