package kingdoms

import (
	"testing"
	"time"

	rules "corruption/engine/kingdoms"
)

// TestTextBoardDelay: at the terminal, an answer to a steal or to revealed votes waits until
// AnswerDelay after its decision was first shown, whether or not the seat holds a card it may
// play, and no longer once that is past; a move that is no answer, or an illegal one, never
// waits. The clock is fake: the test asks what the board waits for, and never waits.
func TestTextBoardDelay(t *testing.T) {
	with, without := answers(t)
	t0 := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	for name, a := range map[string]asking{"a playable card": with[0], "no playable card": without[0]} {
		now := t0
		clock := &fakeClock{fire: make(chan time.Time)}
		close(clock.fire)
		tb := &TextBoard{Now: func() time.Time { return now }, After: clock.after}
		tb.Show(a.g, a.seat, names)
		now = now.Add(time.Second)
		tb.Show(a.g, a.seat, names) // shown again ("show"): the delay still counts from the first
		m, err := tb.ParseText("pass")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Action(a.g, a.seat); err != nil {
			t.Fatalf("%s: pass: %v", name, err)
		}
		if want := AnswerDelay - time.Second; len(clock.asked) != 1 || clock.asked[0] != want {
			t.Errorf("%s: the answer waited %v, want %v", name, clock.asked, want)
		}
		if m, err := tb.ParseText("call grimhold-1"); err == nil {
			if _, err := m.Action(a.g, a.seat); err == nil {
				t.Errorf("%s: a call is taken as an answer", name)
			}
		}
		now = now.Add(AnswerDelay)
		m.Action(a.g, a.seat)
		if len(clock.asked) != 1 {
			t.Errorf("%s: an answer whose delay is past waited again: %v", name, clock.asked)
		}
	}
	// Never shown (the board did not see the ask): the whole delay.
	clock := &fakeClock{fire: make(chan time.Time)}
	close(clock.fire)
	tb := &TextBoard{After: clock.after}
	m, _ := tb.ParseText("pass")
	if _, err := m.Action(without[1%len(without)].g, without[1%len(without)].seat); err != nil || len(clock.asked) != 1 || clock.asked[0] != AnswerDelay {
		t.Errorf("an answer never shown waited %v (%v), want %v", clock.asked, err, AnswerDelay)
	}
	// A move that is no answer leaves at once.
	clock = &fakeClock{fire: make(chan time.Time)}
	tb = &TextBoard{After: clock.after}
	acted := false
	play(t, tables[0], 7, func(g *rules.Game, seat int) {
		if acted || g.Next().Kind != rules.DecideAction {
			return
		}
		acted = true
		text := buildDecision(g.View(seat), teller{names, seat, ""}).Choices[0].Text
		tb.Show(g, seat, names)
		m, err := tb.ParseText(text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if _, err := m.Action(g, seat); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
	})
	if !acted || len(clock.asked) != 0 {
		t.Errorf("an action (seen: %v) waited %v", acted, clock.asked)
	}
}
