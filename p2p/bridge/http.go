package bridge

import (
	"crypto/subtle"
	"net/http"

	"github.com/coder/websocket"
)

// Handler serves the bridge at BridgePath: a WebSocket whose query carries token (TokenParam)
// becomes a phone of the hub (Serve); a request without it, or with another, is refused with
// 403 before any upgrade. The WebSocket's origin must be the page's own (the phones listener
// serves both), which the upgrade checks.
func (h *Hub) Handler(token string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != BridgePath {
			http.NotFound(w, r)
			return
		}
		got := r.URL.Query().Get(TokenParam)
		if token == "" || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
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
