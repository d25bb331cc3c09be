package ui

import (
	"errors"
	"net/http"
)

// Phones is the address at which phones sit at this machine's tables in their browsers
// (--phones), and its QR code, for the page's lobby and waiting screen.
type Phones struct {
	URL string `json:"url"`
	QR  string `json:"qr"` // a data: address of the code as a PNG ("" for none)
	// Laptop and Fingerprint are how the phones' pages name this laptop: its person's name
	// (or its machine's) and the short digest of its peer id (bridge.Fingerprint).
	Laptop      string `json:"laptop,omitempty"`
	Fingerprint string `json:"fingerprint,omitempty"`
	// Renew: the page may give phones a new address (Config.RenewPhones).
	Renew bool `json:"renew,omitempty"`
}

// SetPhones shows the phones' address on the page.
func (s *Server) SetPhones(p Phones) {
	p.Renew = s.cfg.RenewPhones != nil
	s.mu.Lock()
	s.phones = &p
	s.mu.Unlock()
	s.changed()
}

// postRenewPhones gives phones a new address (Config.RenewPhones).
func (s *Server) postRenewPhones(w http.ResponseWriter, r *http.Request) {
	if s.cfg.RenewPhones == nil {
		writeError(w, http.StatusConflict, errors.New(shellWords.Say(lang(r), "error.norenew")))
		return
	}
	if err := s.cfg.RenewPhones(); err != nil {
		writeError(w, http.StatusInternalServerError, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}
