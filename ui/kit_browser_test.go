package ui

import (
	"context"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"corruption/ui/browsertest"
)

// TestMorph runs kit.js's morph in Chromium through its cases (testdata/morph.html): what a
// redraw keeps, changes and replaces, which every page's render relies on.
func TestMorph(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser test: go test ./ui/ -run TestMorph")
	}
	path := browsertest.Need(t, false)
	shell, err := fs.Sub(static, "static")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(shell)))
	mux.HandleFunc("GET /morph.html", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, "testdata/morph.html") })
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(path), chromedp.Headless,
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.UserDataDir(t.TempDir()))
	defer cancelAlloc()
	bctx, cancelTab := chromedp.NewContext(actx)
	defer cancelTab()
	if err := chromedp.Do(bctx, chromedp.Navigate(srv.URL+"/morph.html")); err != nil {
		t.Fatal(err)
	}
	result, err := chromedp.Run(bctx, chromedp.Poll[string](`globalThis.morphResult`, chromedp.WithPollingInterval(50*time.Millisecond)))
	if err != nil {
		t.Fatal(err)
	}
	if result != "ok" {
		t.Errorf("morph:\n%s", result)
	}
}
