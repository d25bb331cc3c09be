package main

import (
	"bytes"
	"context"
	"corruption/protocol"
	"corruption/protocol/tablenet"
	"corruption/ui"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// What a laptop offers its phones beyond relaying (tablenet.SeatProto, tablenet.BotsProto): the
// seat demo --phones gives to the first phone that asks, and bots at the tables phones create
// from their lobby (host, play --phones).

// seatGift is the person's seat of demo --phones: the first phone that asks gets it, and the
// same phone (its seat's key) again after a reload; any other is told to choose in its lobby.
type seatGift struct {
	wish  tablenet.Wish
	notef func(string, ...any)
	mu    sync.Mutex
	key   ed25519.PublicKey
	taken chan struct{} // closed when a phone took the seat
}

func newSeatGift(w tablenet.Wish, notef func(string, ...any)) *seatGift {
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
		return nil, tablenet.NoSeat("the seat went to another phone")
	}
	return json.Marshal(g.wish)
}

// holdsTheRest says whether held seats of players, this machine's, are every seat but one at a
// table that could escrow.
func holdsTheRest(players, held int) bool {
	return players >= protocol.MinEscrowSeats && held == players-1
}

// seatKey is the key of the phone that took the seat (nil before).
func (g *seatGift) seatKey() ed25519.PublicKey {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.key
}

// noSeat is the seat service of play and host: phones choose their tables in their lobby.
func noSeat(string, []byte) ([]byte, error) {
	return nil, tablenet.NoSeat("choose a table in the lobby")
}

// maxPhoneTables bounds the tables at which a laptop's bots sit at its phones' asking, and
// perPhoneTables those of one phone (its seat's key, the same across its reconnections).
const (
	maxPhoneTables = 4
	perPhoneTables = 2
)

// phoneBots seats bots of this machine at the tables phones create and ask bots for.
type phoneBots struct {
	ctx   context.Context
	s     *session
	clock tableClock
	mu    sync.Mutex
	bots  map[string]*localBots        // by table
	owner map[string]ed25519.PublicKey // by table: the seat that asked
	held  map[string]int               // by table: how many bots sit there
}

func newPhoneBots(ctx context.Context, s *session, clock tableClock) *phoneBots {
	return &phoneBots{ctx: ctx, s: s, clock: clock, bots: map[string]*localBots{}, owner: map[string]ed25519.PublicKey{},
		held: map[string]int{}}
}

// at is how many bots of this machine sit at table at a phone's asking.
func (p *phoneBots) at(table string) int {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pruneLocked()
	return p.held[table]
}

func (p *phoneBots) serve(from string, req []byte) ([]byte, error) {
	seat, ok := p.s.hub.Key(from)
	if !ok {
		return nil, errors.New("bots: this phone did not say who it is (its page is of an older release: reload it)")
	}
	var w tablenet.Wish
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
	// The person of this machine at that table counts with its bots: together they may not
	// hold every seat but the phone's at a table that escrows (docs/SECURITY.md, "A seat in
	// the browser").
	person := 0
	if sits, escrow := p.s.personAt(w.Table); sits {
		person = 1
		if escrow && holdsTheRest(w.Players, w.Bots+1) {
			return nil, fmt.Errorf("this machine's player sits at table %q: with %d %s of this machine, it would hold every seat but yours at a table that escrows, and could read your cards; ask for fewer bots", w.Table, w.Bots, plural(w.Bots, "bot", "bots"))
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pruneLocked()
	mine := 0
	for _, k := range p.owner {
		if k.Equal(seat) {
			mine++
		}
	}
	switch {
	case p.bots[w.Table] != nil:
		return nil, fmt.Errorf("bots of this machine sit at table %q already", w.Table)
	case mine >= perPhoneTables:
		return nil, fmt.Errorf("bots of this machine sit at %d tables of yours already, the most one phone may ask for", perPhoneTables)
	case len(p.bots) >= maxPhoneTables:
		return nil, fmt.Errorf("bots of this machine sit at %d tables already, the most it runs", maxPhoneTables)
	}
	if err := p.startLocked(&w, person); err != nil {
		return nil, err
	}
	p.owner[w.Table], p.held[w.Table] = seat, w.Bots
	p.s.notef("%d %s at table %q, which a phone created", w.Bots, plural(w.Bots, "bot sits", "bots sit"), w.Table)
	return json.Marshal(w)
}

// plural is one or many, by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// startLocked starts the bots of w and, with --data, keeps w beside their data, so that a
// restarted host resumes them (resume). It sets w's escrow and clock to the bots': no escrow
// where they and the person (person: 1 when the person sits there) hold every seat but one.
func (p *phoneBots) startLocked(w *tablenet.Wish, person int) error {
	choice := ui.TableChoice{Table: w.Table, Game: w.Game, Players: w.Players, Config: w.Config, Bots: w.Bots}
	clock := p.clock
	clock.escrow = escrowFor(clock.escrow, w.Players, w.Bots+person, p.s.notef, w.Table)
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
		var w tablenet.Wish
		if err == nil {
			err = json.Unmarshal(b, &w)
		}
		if err == nil && p.bots[w.Table] == nil && len(p.bots) < maxPhoneTables {
			if err = p.startLocked(&w, 0); err == nil {
				p.held[w.Table] = w.Bots
			}
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
			delete(p.owner, t)
			delete(p.held, t)
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
	if escrow && holdsTheRest(players, held) {
		notef("table %q does not escrow: this machine holds every seat but one, and escrow would let it read the last one's cards", table)
		return false
	}
	return escrow
}
