package kingdoms

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"corruption/engine"
	rules "corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
)

// asking is a decision of a seat, on a copy of its node's game.
type asking struct {
	g        *rules.Game
	seat     int
	playable bool // it holds a chaos card it may play now
}

// answers collects answer decisions of whole games: some where the seat holds a card it may
// play, some where it does not.
func answers(t *testing.T) (with, without []asking) {
	for i := 0; i < 40 && (len(with) == 0 || len(without) == 0); i++ {
		play(t, tables[(i%3)*2%len(tables)], uint64(100+i), func(g *rules.Game, seat int) {
			if !Answering(g, seat) {
				return
			}
			a := asking{g: g.Clone().(*rules.Game), seat: seat}
			for _, m := range g.View(seat).Legal() {
				a.playable = a.playable || m.Kind == rules.MoveChaos
			}
			if a.playable {
				with = append(with, a)
			} else {
				without = append(without, a)
			}
		})
	}
	if len(with) == 0 || len(without) == 0 {
		t.Fatalf("the games gave %d answers with a playable card and %d without: want both", len(with), len(without))
	}
	return with, without
}

// fakeClock is an After that records what it is asked and fires only when told.
type fakeClock struct {
	asked []time.Duration
	fire  chan time.Time
}

func (c *fakeClock) after(d time.Duration) <-chan time.Time {
	c.asked = append(c.asked, d)
	return c.fire
}

// counting is a player that counts its decisions and plays as a bot, at once (it does not wait
// for its context).
type counting struct {
	n *atomic.Int32
	p engine.Player
}

func (c counting) Decide(_ context.Context, g engine.Game, seat int) (engine.Action, error) {
	c.n.Add(1)
	return c.p.Decide(context.Background(), g, seat)
}

// TestResponderSameDelay: an answer leaves the node exactly Delay after the table asked
// (never before: on a clock that never fires, Decide returns only when its context ends),
// whether or not the seat holds a card it may play; with "pass ahead" it is a pass and the
// player is not asked; other decisions go to the player at once.
func TestResponderSameDelay(t *testing.T) {
	with, without := answers(t)
	const delay = 3 * time.Second
	for _, ahead := range []bool{true, false} {
		for name, cases := range map[string][]asking{"with a playable card": with[:1], "without": without[:1]} {
			a := cases[0]
			b, _ := bot.New("heuristic", 1)
			var n atomic.Int32
			// A clock that never fires: Decide must wait until its context ends.
			never := &fakeClock{fire: make(chan time.Time)}
			r := &Responder{Player: counting{&n, bot.Player(b)}, Delay: delay, After: never.after}
			r.SetPassAhead(ahead)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := r.Decide(ctx, a.g.Clone(), a.seat)
				done <- err
			}()
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Errorf("%s, ahead %v: Decide returned %v before the delay was up", name, ahead, err)
			}
			// A clock that fires: the answer.
			fired := &fakeClock{fire: make(chan time.Time, 1)}
			fired.fire <- time.Time{}
			r.After = fired.after
			act, err := r.Decide(context.Background(), a.g.Clone(), a.seat)
			if err != nil {
				t.Fatal(err)
			}
			if len(never.asked) != 1 || never.asked[0] != delay || len(fired.asked) != 1 || fired.asked[0] != delay {
				t.Errorf("%s, ahead %v: the delays asked were %v and %v, want %v each", name, ahead, never.asked, fired.asked, delay)
			}
			if ahead && (n.Load() != 0 || len(act.Move) != 0 || len(act.Hidden) != 0) {
				t.Errorf("%s: passing ahead asked the player %d times and answered %+v, want a pass", name, n.Load(), act)
			}
			if !ahead && n.Load() == 0 {
				t.Errorf("%s: the player was not asked", name)
			}
		}
	}
	// Any other decision goes to the player, with no delay asked.
	var other *asking
	play(t, tables[0], 3, func(g *rules.Game, seat int) {
		if other == nil && !Answering(g, seat) {
			other = &asking{g: g.Clone().(*rules.Game), seat: seat}
		}
	})
	clock := &fakeClock{}
	b, _ := bot.New("random", 1)
	r := &Responder{Player: bot.Player(b), Delay: delay, After: clock.after}
	r.SetPassAhead(true)
	if _, err := r.Decide(context.Background(), other.g, other.seat); err != nil || len(clock.asked) != 0 {
		t.Errorf("a decision that is no answer: %v, delays asked %v", err, clock.asked)
	}
}
