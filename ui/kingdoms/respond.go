package kingdoms

import (
	"context"
	"sync/atomic"
	"time"

	"corruption/engine"
	rules "corruption/engine/kingdoms"
)

// Responder is the player adapter of the response rounds: a seat asked to answer a steal or
// the revealed votes (kingdoms.DecideSteal, DecideAnswer) sends its answer Delay after it was
// asked, never sooner, whatever it holds. With "pass ahead" set, it passes at that moment
// without asking Player; otherwise Player decides, and a quick answer waits for the rest of
// the delay. Every other decision goes to Player at once.
//
// What it promises: the time between the table asking and the answer leaving the node is
// Delay, for every automatic answer (a pass set ahead, a bot), whether or not the seat holds a
// card it may play. A person who decides answers at Delay or later: how much later is theirs
// to give away (docs/KINGDOMS.md says what still leaks).
type Responder struct {
	Player engine.Player
	Delay  time.Duration
	// After is the clock (default time.After).
	After func(time.Duration) <-chan time.Time
	ahead atomic.Bool
}

// BotAnswerDelay is how long a bot's node waits, from the moment the table asks, before it
// answers a steal or revealed votes: the same for every answer, so that its timing does not
// tell whether it held a card it could play.
const BotAnswerDelay = 100 * time.Millisecond

// SeatBot is a bot as it sits at a table: behind a Responder that answers after
// BotAnswerDelay.
func SeatBot(p engine.Player) engine.Player { return &Responder{Player: p, Delay: BotAnswerDelay} }

// SetPassAhead sets or clears "pass ahead".
func (r *Responder) SetPassAhead(on bool) { r.ahead.Store(on) }

// PassAhead reports whether "pass ahead" is set.
func (r *Responder) PassAhead() bool { return r.ahead.Load() }

// Answering reports whether g waits for seat to answer a steal or votes.
func Answering(g engine.Game, seat int) bool {
	kg, ok := g.(*rules.Game)
	if !ok {
		return false
	}
	d := kg.Next()
	return d.Seat == seat && (d.Kind == rules.DecideSteal || d.Kind == rules.DecideAnswer)
}

// Decide answers a response step after Delay, and hands every other decision to Player.
func (r *Responder) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	if !Answering(g, seat) {
		return r.Player.Decide(ctx, g, seat)
	}
	after := r.After
	if after == nil {
		after = time.After
	}
	due := after(r.Delay) // from the moment the table asked
	var act engine.Action // a pass
	if !r.PassAhead() {
		var err error
		if act, err = r.Player.Decide(ctx, g, seat); err != nil {
			return engine.Action{}, err
		}
	}
	select {
	case <-due:
		return act, nil
	case <-ctx.Done():
		return engine.Action{}, ctx.Err()
	}
}
