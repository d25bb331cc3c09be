package bridge

import (
	"crypto/subtle"
	"net/http"

	"github.com/coder/websocket"
)

// Handler serves the bridge at BridgePath: a WebSocket whose query carries the token that
// token returns now (TokenParam) becomes a phone of the hub (Serve); a request without it, or
// with another (an old one: the laptop drew a new one), is refused with 403 before any
// upgrade. The WebSocket's origin must be the page's own (the phones listener serves both),
// which the upgrade checks.
func (h *Hub) Handler(token func() string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != BridgePath {
			http.NotFound(w, r)
			return
		}
		got, want := r.URL.Query().Get(TokenParam), token()
		if want == "" || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
			http.Error(w, "wrong or missing token: open the address the laptop prints", http.StatusForbidden)
			return
		}
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return // Accept answered the request
		}
		if err := h.Serve(WebSocket(c)); err != nil {
			h.logf("bridge: %v", err)
		}
	})
}
