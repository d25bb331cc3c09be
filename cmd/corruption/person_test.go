package main

import (
	"context"
	"io"
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
		pc := playConfig{game: corruptionGame, clock: tableClock{timeout: time.Minute, wait: time.Minute, escrow: true}}
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
