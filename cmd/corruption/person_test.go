package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"corruption/p2p"
	"corruption/ui"
)

// TestPersonSitEscrow: at a table where the person and this machine's bots hold every seat
// but one, neither the person's seat nor its bots escrow (escrow would let this machine read
// the last seat's cards: docs/SECURITY.md); where they hold fewer, both do.
func TestPersonSitEscrow(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := openSession(ctx, sessionConfig{listen: []string{p2p.DefaultListen}, data: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	config := defaultConfig(t, "corruption")
	for _, tc := range []struct {
		players, bots int
		escrow        bool
	}{{4, 2, false}, {5, 2, true}} {
		pc := playConfig{game: games["corruption"], clock: tableClock{timeout: time.Minute, wait: time.Minute, escrow: true}}
		l := &laptopPerson{c: cli.NewContext(&cli.App{Writer: io.Discard, ErrWriter: io.Discard}, nil, nil), pc: pc, s: s, n: 1}
		choice := ui.TableChoice{Table: tableName(t), Game: "corruption", Players: tc.players, Config: config, Bots: tc.bots}
		sit, err := l.sit(ctx, choice)
		if err != nil {
			t.Fatal(err)
		}
		if sit.Clock == nil || l.bots == nil {
			t.Fatalf("%d players, %d bots: no clock (%v) or no bots (%v)", tc.players, tc.bots, sit.Clock, l.bots)
		}
		if sit.Clock.Escrow != tc.escrow || l.bots.clock.escrow != tc.escrow {
			t.Errorf("%d players, %d bots: the person escrows: %v, its bots: %v; want %v", tc.players, tc.bots, sit.Clock.Escrow, l.bots.clock.escrow, tc.escrow)
		}
		if _, escrow := s.personAt(choice.Table); escrow != tc.escrow {
			t.Errorf("%d players, %d bots: the phones' bots are told the person escrows: %v", tc.players, tc.bots, escrow)
		}
		sit.Close()
	}
}

// TestPlayLobbyEnds: the command's exit from the lobby, where the person's loop (seat.Run)
// ends with its context: the page's Quit before any table exits 0; Ctrl-C there exits 1,
// "stopped in the lobby".
func TestPlayLobbyEnds(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(t *testing.T, p *proc, api apiClient)
		code int
		says string
	}{
		{"quit", func(t *testing.T, _ *proc, api apiClient) {
			if code, body := api.post(t, "/api/quit", struct{}{}); code != http.StatusOK {
				t.Fatalf("quit: %d %s", code, body)
			}
		}, 0, ""},
		{"ctrl-c", func(t *testing.T, p *proc, _ apiClient) { p.cmd.Process.Signal(syscall.SIGINT) }, 1, "stopped in the lobby"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			p := start(ctx, t, "play", "play", "--name", "ann", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--no-open")
			api := newAPIClient(t, p.waitLine(t, openLine, 20*time.Second)[1])
			events, stop := api.events(ctx, t)
			lobby := false
			for !lobby && events.Scan() {
				var st ui.State
				line, ok := strings.CutPrefix(events.Text(), "data: ")
				lobby = ok && json.Unmarshal([]byte(line), &st) == nil && st.Mode == "lobby"
			}
			stop()
			if !lobby {
				t.Fatalf("the page never showed the lobby (%v)", events.Err())
			}
			tc.end(t, p, api)
			if code := p.wait(t, 30*time.Second); code != tc.code || !strings.Contains(p.stderr.String(), tc.says) {
				t.Errorf("exit %d, want %d and %q\n%s", code, tc.code, tc.says, p.stderr.String())
			}
		})
	}
}
