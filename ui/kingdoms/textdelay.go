package kingdoms

import (
	"context"
	"sync"
	"time"

	"corruption/engine"
	"corruption/ui"
)

// TextBoard is Board for a person at the terminal: like the page, it sends every answer to a
// steal or to revealed votes AnswerDelay after the table asked, never sooner, whatever the
// person holds. A quick "pass" waits out the rest of the delay, so that its timing does not
// tell whether the seat could have played a card; every other move leaves at once.
//
// The shell's terminal shows the board (Show) as soon as its node asks, then reads lines until
// one is a legal move (ParseText, then the move's Action): the delay counts from that first
// Show, and the move's Action returns once it is up. With "pass ahead" set at the terminal
// (pass ahead on), the terminal asks AutoPass first, which passes at that same moment without
// a line; docs/KINGDOMS.md says what the timing still tells.
//
// Use it by pointer; the zero value is ready to use.
type TextBoard struct {
	Board
	Delay time.Duration                        // AnswerDelay when zero
	Now   func() time.Time                     // time.Now when nil
	After func(time.Duration) <-chan time.Time // time.After when nil

	mu    sync.Mutex
	asked engine.Game // the node's copy of the game of the last answer shown
	since time.Time   // when it was first shown
}

var _ ui.AutoPasser = (*TextBoard)(nil)

func (tb *TextBoard) now() time.Time {
	if tb.Now != nil {
		return tb.Now()
	}
	return time.Now()
}

func (tb *TextBoard) delay() time.Duration {
	if tb.Delay > 0 {
		return tb.Delay
	}
	return AnswerDelay
}

// Show draws the board and the decision due, as Board does; an answer's delay starts the
// first time its decision is shown.
func (tb *TextBoard) Show(g engine.Game, seat int, names []string) string {
	if Answering(g, seat) {
		tb.mu.Lock()
		if tb.asked != g {
			tb.asked, tb.since = g, tb.now()
		}
		tb.mu.Unlock()
	}
	return tb.Board.Show(g, seat, names)
}

// ParseText reads a typed move, as Board does; an answer, once legal, leaves when its delay
// is up.
func (tb *TextBoard) ParseText(line string) (ui.Move, error) {
	m, err := tb.Board.ParseText(line)
	if err != nil {
		return nil, err
	}
	return delayedMove{m, tb}, nil
}

// AutoPass passes an answer to a steal or to revealed votes when its delay is up, as a typed
// "pass" leaves, whatever the seat holds; any other decision is not its to answer (ok false).
func (tb *TextBoard) AutoPass(ctx context.Context, g engine.Game, seat int) (engine.Action, bool, error) {
	if !Answering(g, seat) {
		return engine.Action{}, false, nil
	}
	m, err := tb.Board.ParseText("pass")
	if err != nil {
		return engine.Action{}, false, nil // the person answers (never: a pass is always an answer)
	}
	a, err := m.Action(g, seat)
	if err != nil {
		return engine.Action{}, false, nil
	}
	if err := tb.wait(ctx, g); err != nil {
		return engine.Action{}, false, err
	}
	return a, true, nil
}

// wait returns once the delay of the answer to g is up (the whole delay if g was never shown),
// or ctx is done.
func (tb *TextBoard) wait(ctx context.Context, g engine.Game) error {
	tb.mu.Lock()
	left := tb.delay()
	if tb.asked == g {
		left -= tb.now().Sub(tb.since)
	}
	tb.mu.Unlock()
	if left <= 0 {
		return nil
	}
	after := tb.After
	if after == nil {
		after = time.After
	}
	select {
	case <-after(left):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// delayedMove is a typed move whose answer waits for its delay.
type delayedMove struct {
	ui.Move
	tb *TextBoard
}

func (m delayedMove) Action(g engine.Game, seat int) (engine.Action, error) {
	a, err := m.Move.Action(g, seat)
	if err != nil || !Answering(g, seat) {
		return a, err
	}
	m.tb.wait(context.Background(), g)
	return a, nil
}

// Localize has the terminal's board speak lang (the TextBoard itself, its timing kept).
func (tb *TextBoard) Localize(lang string) any {
	tb.Board = tb.Board.Localize(lang).(Board)
	return tb
}
