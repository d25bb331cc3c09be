package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"corruption/p2p/bridge"
	"corruption/ui"
)

// What a laptop offers its phones beyond relaying (bridge.SeatProto, bridge.BotsProto): the
// seat demo --phones gives to the first phone that asks, and bots at the tables phones create
// from their lobby (host, play --phones).

// seatGift is the person's seat of demo --phones: the first phone that asks gets it, and the
// same phone (its seat's key) again after a reload; any other is told to choose in its lobby.
type seatGift struct {
	wish  bridge.Wish
	notef func(string, ...any)
	mu    sync.Mutex
	key   ed25519.PublicKey
	taken chan struct{} // closed when a phone took the seat
}

func newSeatGift(w bridge.Wish, notef func(string, ...any)) *seatGift {
	return &seatGift{wish: w, notef: notef, taken: make(chan struct{})}
}

func (g *seatGift) serve(from string, req []byte) ([]byte, error) {
	if len(req) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("a seat request holds the seat's %d-byte key, not %d bytes", ed25519.PublicKeySize, len(req))
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.key == nil:
		g.key = bytes.Clone(req)
		close(g.taken)
		g.notef("a phone took the seat at table %q", g.wish.Table)
	case !bytes.Equal(g.key, req):
		return nil, bridge.NoSeat("the seat went to another phone")
	}
	return json.Marshal(g.wish)
}

// seatKey is the key of the phone that took the seat (nil before).
func (g *seatGift) seatKey() ed25519.PublicKey {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.key
}

// noSeat is the seat service of play and host: phones choose their tables in their lobby.
func noSeat(string, []byte) ([]byte, error) {
	return nil, bridge.NoSeat("choose a table in the lobby")
}

// maxPhoneTables bounds the tables at which a laptop's bots sit at its phones' asking.
const maxPhoneTables = 4

// phoneBots seats bots of this machine at the tables phones create and ask bots for.
type phoneBots struct {
	ctx   context.Context
	s     *session
	clock tableClock
	mu    sync.Mutex
	bots  map[string]*localBots // by table
}

func newPhoneBots(ctx context.Context, s *session, clock tableClock) *phoneBots {
	return &phoneBots{ctx: ctx, s: s, clock: clock, bots: map[string]*localBots{}}
}

func (p *phoneBots) serve(from string, req []byte) ([]byte, error) {
	var w bridge.Wish
	dec := json.NewDecoder(bytes.NewReader(req))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("a request for bots: %v", err)
	}
	choice := ui.TableChoice{Table: w.Table, Game: w.Game, Players: w.Players, Config: w.Config, Bots: w.Bots}
	if w.Bots < 1 {
		return nil, fmt.Errorf("bots: %d, ask for 1 or more", w.Bots)
	}
	if err := ui.CheckTable(choice, w.Bots); err != nil {
		return nil, err
	}
	if games[w.Game] == nil {
		return nil, fmt.Errorf("this build has no bots of %q", w.Game)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pruneLocked()
	if p.bots[w.Table] != nil {
		return nil, fmt.Errorf("bots of this machine sit at table %q already", w.Table)
	}
	if len(p.bots) >= maxPhoneTables {
		return nil, fmt.Errorf("bots of this machine sit at %d tables already, the most it runs", maxPhoneTables)
	}
	if err := p.startLocked(&w); err != nil {
		return nil, err
	}
	p.s.notef("%d bots sit at table %q, which a phone created", w.Bots, w.Table)
	return json.Marshal(w)
}

// startLocked starts the bots of w and, with --data, keeps w beside their data, so that a
// restarted host resumes them (resume). It sets w's escrow and clock to the bots'.
func (p *phoneBots) startLocked(w *bridge.Wish) error {
	choice := ui.TableChoice{Table: w.Table, Game: w.Game, Players: w.Players, Config: w.Config, Bots: w.Bots}
	clock := p.clock
	clock.escrow = escrowFor(clock.escrow, w.Players, w.Bots, p.s.notef, w.Table)
	w.Escrow, w.TimeoutMS, w.AllowanceMS, w.BankMS = clock.escrow, clock.timeout.Milliseconds(), clock.allowance.Milliseconds(), clock.bank.Milliseconds()
	dir := "phones-" + w.Table
	if d := p.s.cfg.data; d != "" {
		b, _ := json.Marshal(w)
		path := filepath.Join(d, "bots", dir)
		if err := os.MkdirAll(path, 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(path, wishFile), b, 0o600); err != nil {
			return err
		}
	}
	b, err := startLocalBots(p.ctx, p.s, playConfig{clock: clock}, choice, dir)
	if err != nil {
		return err
	}
	p.bots[w.Table] = b
	return nil
}

// wishFile keeps, beside the bots of a phone's table, the table they sit at.
const wishFile = "wish.json"

// resume starts again the bots of the phones' tables kept in the data directory (a host
// restarted with its --data): a bot whose table is over ends at once.
func (p *phoneBots) resume() {
	d := p.s.cfg.data
	if d == "" {
		return
	}
	paths, _ := filepath.Glob(filepath.Join(d, "bots", "phones-*", wishFile))
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, path := range paths {
		b, err := os.ReadFile(path)
		var w bridge.Wish
		if err == nil {
			err = json.Unmarshal(b, &w)
		}
		if err == nil && p.bots[w.Table] == nil && len(p.bots) < maxPhoneTables {
			err = p.startLocked(&w)
		}
		if err != nil {
			p.s.notef("cannot resume the bots of %s: %v", filepath.Dir(path), err)
		}
	}
}

// pruneLocked stops the bots whose table is over.
func (p *phoneBots) pruneLocked() {
	for t, b := range p.bots {
		if b.finished() {
			b.stop()
			delete(p.bots, t)
		}
	}
}

// stop stops every bot.
func (p *phoneBots) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for t, b := range p.bots {
		b.stop()
		delete(p.bots, t)
	}
}

// escrowFor is whether a table at which this machine holds held seats of players (its bots,
// and its person's seat) may escrow: not when those are every seat but one, since escrow would
// let this machine rebuild the last seat's key (docs/SECURITY.md, "A seat in the browser").
// (A machine that holds every seat, demo's, reads nobody else's cards.)
func escrowFor(escrow bool, players, held int, notef func(string, ...any), table string) bool {
	if escrow && players >= 3 && held == players-1 {
		notef("table %q does not escrow: this machine holds every seat but one, and escrow would let it read the last one's cards", table)
		return false
	}
	return escrow
}
