package main

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestPlayJoinByCodeNobody: play on its lobby joins a private table by a code from the page
// (POST /api/lobby/private) with the same search as --join: with nobody announcing the code's
// nameplate, the page is told so in plain words once --wait passes, and the lobby stays (the
// person may try again); a malformed code is refused without a search.
func TestPlayJoinByCodeNobody(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := start(ctx, t, "play", "play", "--name", "ann", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--no-open", "--wait", "1s")
	api := newAPIClient(t, p.waitLine(t, openLine, 20*time.Second)[1])
	if code, body := api.post(t, "/api/lobby/private", map[string]string{"code": "2s-fn8-de6"}); code != http.StatusUnprocessableEntity || !strings.Contains(body, "No creator of a private table with that code answered in time") {
		t.Errorf("a code nobody announces: %d %s", code, body)
	}
	if code, body := api.post(t, "/api/lobby/private?lang=fr", map[string]string{"code": "2s-fn8"}); code != http.StatusUnprocessableEntity || !strings.Contains(body, "n'est pas un code d'acc") {
		t.Errorf("a malformed code: %d %s", code, body)
	}
	if code, body := api.post(t, "/api/quit", struct{}{}); code != http.StatusOK {
		t.Fatalf("leave: %d %s", code, body)
	}
	if code := p.wait(t, 30*time.Second); code != 1 || !strings.Contains(p.stderr.String(), "looking for the private table") {
		t.Errorf("leaving the lobby: exit %d\n%s", code, p.stderr.String())
	}
}
