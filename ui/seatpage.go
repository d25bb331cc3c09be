package ui

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
)

// The page of the browser seat. A laptop's phones listener serves a phone the same page as
// the laptop's (the shell, every game's board, the languages and rules panels), but its seat
// runs in the page itself: the page loads the seat's scripts first (the seat registers
// globalThis.corruptionSeat, api.js's in-process transport), and the seat's loader then loads
// the page's modules. The listener serves the static files and the page, never /api/.

// appModule is the tag by which index.html loads the page's modules.
const appModule = `<script type="module" src="/static/app.js"></script>`

// SeatPage is index.html for the browser seat: scripts (same-origin paths) in place of the
// page's module, which the last of them loads once the seat is ready, and the page's storage
// named "seat" until the seat names its own (api.js takes the seat's scope).
func SeatPage(scripts ...string) ([]byte, error) {
	shell, err := fs.Sub(static, "static")
	if err != nil {
		return nil, err
	}
	page, err := pageFor(shell, "seat")
	if err != nil {
		return nil, err
	}
	if !bytes.Contains(page, []byte(appModule)) {
		return nil, fmt.Errorf("the page's index.html has no %s", appModule)
	}
	var tags strings.Builder
	for _, s := range scripts {
		if !strings.HasPrefix(s, "/") || strings.ContainsAny(s, `"<>`) {
			return nil, fmt.Errorf("seat page: script %q is not a same-origin path", s)
		}
		fmt.Fprintf(&tags, `<script src="%s" defer></script>`, s)
	}
	return bytes.Replace(page, []byte(appModule), []byte(tags.String()), 1), nil
}

// Files serves the shell's static files and the boards' (GET /static/..., as Handler serves
// them) and nothing else: the page's files, for a listener that is not the page's server.
func Files(boards []Board) (http.Handler, error) {
	shell, err := fs.Sub(static, "static")
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(shell)))
	for _, b := range boards {
		if !validGameID(b.Game()) {
			return nil, fmt.Errorf("board of game %q: not a game id", b.Game())
		}
		prefix := "/static/boards/" + b.Game() + "/"
		mux.Handle("GET "+prefix, http.StripPrefix(prefix, http.FileServerFS(b.Assets())))
	}
	return mux, nil
}
