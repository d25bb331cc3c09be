package ui

import (
	"context"
	"errors"
	"sync"
	"time"

	"corruption/engine"
)

// Errors of Human.submit that say the move came at the wrong time rather than being illegal.
var (
	// ErrNotAsked: no decision of the person's is due.
	ErrNotAsked = errors.New("it is not your turn: nothing to decide now")
	// errStale: the move answers a decision that is no longer the one due.
	errStale = errors.New("that choice was for an earlier decision: look at the table again")
)

// Human is an engine.Player for a person: Decide publishes the decision due and blocks until
// the page brings a legal move for it (or ctx ends). It knows no game: a board's Move checks and
// encodes the person's move. The zero value is not usable: use NewHuman.
type Human struct {
	mu       sync.Mutex
	pending  *pending
	lastID   int
	onChange func()           // told when a decision starts or ends (must not call back into Human)
	now      func() time.Time // the clock (the server's, default time.Now)
}

type pending struct {
	asked
	reply chan engine.Action
}

// asked is a decision that waits for the person.
type asked struct {
	ID    int         // increases with every decision asked
	Game  engine.Game // the game the decision was asked with (read only)
	Seat  int         // the person's seat
	Since time.Time   // when it was asked
}

// NewHuman makes a Human. onChange, if not nil, is called (without locks held) whenever a
// decision is asked or answered.
func NewHuman(onChange func()) *Human { return &Human{onChange: onChange} }

// Decide publishes the decision g waits for from seat and waits for the person's move.
func (h *Human) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	h.mu.Lock()
	h.lastID++
	since := time.Now()
	if h.now != nil {
		since = h.now()
	}
	p := &pending{asked: asked{ID: h.lastID, Game: g, Seat: seat, Since: since}, reply: make(chan engine.Action, 1)}
	h.pending = p
	h.mu.Unlock()
	h.changed()
	select {
	case a := <-p.reply:
		return a, nil
	case <-ctx.Done():
		h.mu.Lock()
		if h.pending == p {
			h.pending = nil
		}
		h.mu.Unlock()
		h.changed()
		return engine.Action{}, ctx.Err()
	}
}

// current returns the decision that waits for the person, if any.
func (h *Human) current() (asked, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.pending == nil {
		return asked{}, false
	}
	return h.pending.asked, true
}

// submit answers the pending decision with m. id is the asked.ID the move answers, or 0 for
// whatever is pending. An illegal move is refused with the reason, and the decision stays
// pending.
func (h *Human) submit(id int, m Move) error {
	h.mu.Lock()
	p := h.pending
	switch {
	case p == nil:
		h.mu.Unlock()
		return ErrNotAsked
	case id != 0 && id != p.ID:
		h.mu.Unlock()
		return errStale
	}
	a, err := m.Action(p.Game, p.Seat)
	if err != nil {
		h.mu.Unlock()
		return err
	}
	h.pending = nil
	p.reply <- a // buffered, and only ever sent once: pending was cleared under the lock
	h.mu.Unlock()
	h.changed()
	return nil
}

func (h *Human) changed() {
	if h.onChange != nil {
		h.onChange()
	}
}
