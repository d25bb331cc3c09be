package main

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"corruption/ui"
)

// TestPlayJoinByCodeNobody: play on its lobby joins a private table by a code from the page
// (POST /api/lobby/private) with the same search as --join: with nobody announcing the code's
// nameplate, the page is told so in plain words once its limit passes (--wait, when shorter
// than ui.DefaultJoinLimit), and the lobby stays (the person may try again); a malformed code
// is refused without a search.
func TestPlayJoinByCodeNobody(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := start(ctx, t, "play", "play", "--name", "ann", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--no-open", "--wait", "1s")
	api := newAPIClient(t, p.waitLine(t, openLine, 20*time.Second)[1])
	if code, body := api.post(t, "/api/lobby/private", map[string]string{"code": "2s-fn8-de6"}); code != http.StatusUnprocessableEntity || !strings.Contains(body, "No table with that code answered within 1 s") {
		t.Errorf("a code nobody announces: %d %s", code, body)
	}
	if code, body := api.post(t, "/api/lobby/private?lang=fr", map[string]string{"code": "2s-fn8"}); code != http.StatusUnprocessableEntity || !strings.Contains(body, "n'est pas un code d'acc") {
		t.Errorf("a malformed code: %d %s", code, body)
	}
	if code, body := api.post(t, "/api/quit", struct{}{}); code != http.StatusOK {
		t.Fatalf("leave: %d %s", code, body)
	}
	if code := p.wait(t, 30*time.Second); code != 0 || !strings.Contains(p.stderr.String(), "looking for the private table") {
		t.Errorf("quitting in the lobby: exit %d, want 0 (no table played)\n%s", code, p.stderr.String())
	}
}

// TestPlayLobbyGames: play's lobby offers every game, --game's chosen at first, with the
// bots of --bots in its form; Quit stops the program in the lobby, exit 0 (no table played).
func TestPlayLobbyGames(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := start(ctx, t, "play", "play", "--game", "kingdoms", "--bots", "2", "--name", "ann", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--no-open")
	api := newAPIClient(t, p.waitLine(t, openLine, 20*time.Second)[1])
	req, _ := http.NewRequestWithContext(ctx, "GET", api.base+"/api/state", nil)
	req.Header.Set("X-Corruption-Key", api.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var st ui.State
	err = json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if err != nil || st.Lobby == nil {
		t.Fatalf("the state: %v %+v", err, st)
	}
	var ids []string
	for _, g := range st.Lobby.Games {
		ids = append(ids, g.Game)
	}
	if lb := st.Lobby; lb.Game != "kingdoms" || strings.Join(ids, ",") != strings.Join(playable(), ",") || lb.Bots != 2 || lb.Defaults.Players != 3 {
		t.Errorf("the lobby: game %q of %v, %d bots, %d players", lb.Game, ids, lb.Bots, lb.Defaults.Players)
	}
	if code, body := api.post(t, "/api/quit", struct{}{}); code != http.StatusOK {
		t.Fatalf("leave: %d %s", code, body)
	}
	if code := p.wait(t, 30*time.Second); code != 0 {
		t.Errorf("quitting in the lobby: exit %d, want 0\n%s", code, p.stderr.String())
	}
}
