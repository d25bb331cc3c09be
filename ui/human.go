package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"corruption/engine/corruption"
)

// Errors of Human.Submit that say the move came at the wrong time rather than being illegal.
var (
	// ErrNotAsked: no decision of the person's is due.
	ErrNotAsked = errors.New("it is not your turn: nothing to decide now")
	// ErrStale: the move answers a decision that is no longer the one due.
	ErrStale = errors.New("that choice was for an earlier decision: look at the table again")
)

// Human is a protocol.Player for a person: Decide publishes the decision due and blocks until
// Submit brings a legal move for it (or ctx ends). The zero value is not usable: use NewHuman.
type Human struct {
	mu       sync.Mutex
	pending  *pending
	lastID   int
	onChange func() // told when a decision starts or ends (must not call back into Human)
}

type pending struct {
	id    int
	view  corruption.View
	at    time.Time
	reply chan corruption.Move
}

// Pending is a decision that waits for the person.
type Pending struct {
	ID    int             // increases with every decision asked
	View  corruption.View // the view the decision was asked with (read only)
	Since time.Time       // when it was asked
}

// NewHuman makes a Human. onChange, if not nil, is called (without locks held) whenever a
// decision is asked or answered.
func NewHuman(onChange func()) *Human { return &Human{onChange: onChange} }

// Decide publishes the decision v.Next() and waits for Submit.
func (h *Human) Decide(ctx context.Context, v corruption.View) (corruption.Move, error) {
	h.mu.Lock()
	h.lastID++
	p := &pending{id: h.lastID, view: v, at: time.Now(), reply: make(chan corruption.Move, 1)}
	h.pending = p
	h.mu.Unlock()
	h.changed()
	select {
	case m := <-p.reply:
		return m, nil
	case <-ctx.Done():
		h.mu.Lock()
		if h.pending == p {
			h.pending = nil
		}
		h.mu.Unlock()
		h.changed()
		return corruption.Move{}, ctx.Err()
	}
}

// Pending returns the decision that waits for the person, if any.
func (h *Human) Pending() (Pending, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.pending == nil {
		return Pending{}, false
	}
	return Pending{ID: h.pending.id, View: h.pending.view, Since: h.pending.at}, true
}

// Submit answers the pending decision with m (its Seat is filled in). id is the Pending.ID the
// move answers, or 0 for whatever is pending. An illegal move is refused with the reason, and
// the decision stays pending.
func (h *Human) Submit(id int, m corruption.Move) error {
	h.mu.Lock()
	p := h.pending
	switch {
	case p == nil:
		h.mu.Unlock()
		return ErrNotAsked
	case id != 0 && id != p.id:
		h.mu.Unlock()
		return ErrStale
	}
	m.Seat = p.view.Seat()
	if err := Check(p.view, m); err != nil {
		h.mu.Unlock()
		return err
	}
	h.pending = nil
	p.reply <- m // buffered, and only ever sent once: pending was cleared under the lock
	h.mu.Unlock()
	h.changed()
	return nil
}

func (h *Human) changed() {
	if h.onChange != nil {
		h.onChange()
	}
}

// Check reports whether m (made by v's seat) answers the decision due in v, and if not, why.
// It uses what the View says a seat may do: CanPlay, Peekable, AssignOptions, KillTargets and
// RemoveOptions.
func Check(v corruption.View, m corruption.Move) error {
	d := v.Next()
	if d.Seat != v.Seat() || d.Kind == corruption.DecideNothing {
		return ErrNotAsked
	}
	if m.Seat != v.Seat() {
		return fmt.Errorf("the move is seat %d's, and this is seat %d", m.Seat, v.Seat())
	}
	want := func(what string) error {
		return fmt.Errorf("it is your turn to %s, not to %s", what, m.Kind)
	}
	switch d.Kind {
	case corruption.DecideFaceUp:
		if m.Kind != corruption.MoveFaceUp {
			return want("choose the face-up positions")
		}
		if m.Positions&^corruption.AllPositions != 0 {
			return fmt.Errorf("face-up positions are 1 to %d", corruption.CardsPerRound)
		}
	case corruption.DecidePlace:
		switch m.Kind {
		case corruption.MovePlace:
			return v.CanPlay(m.Card, m.Spot)
		case corruption.MovePeek:
			if !d.CanPeek {
				return errors.New("you cannot peek now (no peek left, one already this turn, or nothing to peek at)")
			}
			if !slices.Contains(v.Peekable(), m.Index) {
				return fmt.Errorf("you cannot peek at card %d: peek at a face-down card under a contract, not yours, not seen yet (%s)", m.Index, indexList(v.Peekable()))
			}
		default:
			return want("place a card")
		}
	case corruption.DecideAssign:
		if m.Kind != corruption.MoveAssign {
			return want("assign your Swiss bribe")
		}
		if !slices.Contains(v.AssignOptions(), m.Contract) {
			return fmt.Errorf("your Swiss bribe (card %d) cannot go to %s: it goes to a contract on the table under its body (%s)", d.Index, m.Contract.Name(), contractList(v.AssignOptions()))
		}
	case corruption.DecideKill:
		if m.Kind != corruption.MoveKill {
			return want("choose your hit man's target")
		}
		if !slices.Contains(v.KillTargets(), m.Index) {
			return fmt.Errorf("your hit man (card %d) cannot kill card %d (targets: %s)", d.Index, m.Index, indexList(v.KillTargets()))
		}
	case corruption.DecideRemove:
		switch m.Kind {
		case corruption.MovePass:
		case corruption.MoveRemove:
			if !slices.Contains(v.RemoveOptions(), m.Index) {
				return fmt.Errorf("your reporter (card %d) cannot remove card %d (it may remove %s, or pass)", d.Index, m.Index, indexList(v.RemoveOptions()))
			}
		default:
			return want("use your reporter (remove a bribe or pass)")
		}
	default:
		return fmt.Errorf("the table waits for %s, which is not a person's to make", d)
	}
	return nil
}

func indexList(is []int) string {
	if len(is) == 0 {
		return "none"
	}
	s := ""
	for k, i := range is {
		if k > 0 {
			s += ", "
		}
		s += fmt.Sprint(i)
	}
	return "cards " + s
}

func contractList(cs []corruption.Contract) string {
	s := ""
	for k, c := range cs {
		if k > 0 {
			s += ", "
		}
		s += c.Name()
	}
	return s
}
