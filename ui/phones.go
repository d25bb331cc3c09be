package ui

// Phones is the address at which phones sit at this machine's tables in their browsers
// (--phones), and its QR code, for the page's lobby and waiting screen.
type Phones struct {
	URL string `json:"url"`
	QR  string `json:"qr"` // a data: address of the code as a PNG ("" for none)
}

// SetPhones shows the phones' address on the page.
func (s *Server) SetPhones(p Phones) {
	s.mu.Lock()
	s.phones = &p
	s.mu.Unlock()
	s.changed()
}
