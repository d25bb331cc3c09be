package corruptia

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"corruption/engine"
	rules "corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
	"corruption/ui"
)

var names5 = []string{"ann", "bob", "cat", "dan", "eve"}

// typed is the bot's move m (or vote) as a person types it, from the view v of its seat.
func typed(v *rules.View, m rules.Move, vote rules.Vote, voting bool) string {
	if voting {
		return vote.String()
	}
	hand := v.Hand()
	switch m.Kind {
	case rules.MoveDiscard:
		return "discard " + hand[m.Slot].String()
	case rules.MovePropose, rules.MoveAmend:
		s := proposalText(v, m.Proposal)
		if m.Kind == rules.MoveAmend && !strings.HasPrefix(s, "amend") {
			s = "amend" + strings.TrimPrefix(s, "propose")
		}
		return s
	case rules.MoveBlackmail:
		return fmt.Sprintf("blackmail %d %s", m.Target, m.Demand)
	case rules.MoveSwap:
		return fmt.Sprintf("swap %s %s", hand[m.Slot], m.Take)
	}
	return m.Kind.String()
}

// checkLeaks fails if the page's JSON for seat shows a bill that seat may not see: a bill of
// another senator's hand that was never shown.
func checkLeaks(t *testing.T, g *rules.Game, seat int, page []byte) {
	t.Helper()
	pub := g.View(-1)
	for s := range g.Players() {
		if s == seat {
			continue
		}
		for i, b := range g.View(s).Hand() {
			if pub.Hands[s][i] == rules.Unknown && bytes.Contains(page, []byte(`"`+b.String()+`"`)) {
				t.Fatalf("seat %d's page shows %s, which is hidden in seat %d's hand:\n%s", seat, b, s, page)
			}
		}
	}
}

// page is what the shell would send seat: the drawing and the decision, as JSON, but for the
// seats' known hands. A host's game knows every senator's bills, as a node knows an open
// seat's (TestOpenSeatCards): the board draws every other seat's hand as known, and the rest of
// the page must still hide them.
func page(t *testing.T, g *rules.Game, seat int) []byte {
	t.Helper()
	b := Board{}
	d := b.Draw(g, seat, names5[:g.Players()])
	for s, f := range d.Seats {
		f := f.(seatState)
		if s == seat && f.Known != nil {
			t.Fatalf("seat %d's own hand is drawn as known: %v", seat, f.Known)
		}
		f.Known = nil
		d.Seats[s] = f
	}
	js, err := json.Marshal(struct {
		D ui.Drawing
		X any
	}{d, b.Decision(g, seat, names5[:g.Players()])})
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// TestGameThroughBoard plays whole games of 2 to 5 senators (heuristic and random bots) through
// the board: every move a bot makes is typed as a person would and read back by the board,
// which must give the very action the game makes of the bot's move; at every decision the
// board's example is a legal move; every seat's page is valid JSON that never shows another
// senator's hidden bill; every event is told in words; the terminal shows the table.
func TestGameThroughBoard(t *testing.T) {
	for n := rules.MinPlayers; n <= rules.MaxPlayers; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var told []ui.LogLine
			g, err := rules.NewGame(rules.DefaultConfig(), n, func(e engine.Event) {
				told = append(told, Board{}.Tell(e, names5[:n], 0))
			})
			if err != nil {
				t.Fatal(err)
			}
			h := rules.NewHost(g)
			chance := rules.Seeded(uint64(n), 7)
			bots := make([]bot.Bot, n)
			for s := range bots {
				bots[s], _ = bot.New([]string{"heuristic", "random"}[s%2], uint64(10*n+s))
			}
			moves, examples := 0, 0
			for step := 0; ; step++ {
				if err := h.Run(chance); err != nil {
					t.Fatal(err)
				}
				if step%7 == 0 {
					for s := range n {
						checkLeaks(t, g, s, page(t, g, s))
					}
				}
				st := g.Due()
				if st.Kind == engine.StepOver {
					break
				}
				voting := st.Kind == engine.StepChoose
				seats := []int{st.Seat}
				if voting {
					seats = st.Seats
				}
				votes := make([]rules.Vote, n)
				var chosen rules.Move
				for _, s := range seats {
					v := g.View(s)
					d := Board{}.to(names5[:n], s).buildDecision(v)
					if d == nil {
						t.Fatalf("no decision for seat %d at %s", s, v.Next)
					}
					if d.Example != "" {
						if _, err := action(t, g, s, d.Example); err != nil {
							t.Fatalf("seat %d: the example %q of decision %s is refused: %v", s, d.Example, d.Kind, err)
						}
						examples++
					}
					if out := (Board{}).Show(g, s, names5[:n]); !strings.Contains(out, "Your hand:") || !strings.Contains(out, "+") {
						t.Fatalf("the terminal does not show the table:\n%s", out)
					}
					var m rules.Move
					var want engine.Action
					if voting {
						votes[s] = bots[s].Vote(v)
						want, err = g.VoteAction(s, votes[s])
					} else {
						m = bots[s].Decide(v)
						chosen = m
						want, err = g.Action(s, m)
					}
					if err != nil {
						t.Fatalf("seat %d's bot: %v", s, err)
					}
					text := typed(v, m, votes[s], voting)
					got, err := action(t, g, s, text)
					if err != nil {
						t.Fatalf("seat %d types %q (the bot's %s): %v", s, text, m, err)
					}
					if !bytes.Equal(got.Move, want.Move) || fmt.Sprint(got.Hidden) != fmt.Sprint(want.Hidden) {
						t.Fatalf("seat %d types %q: the board makes %+v, the game %+v", s, text, got, want)
					}
					moves++
				}
				if voting {
					err = h.Votes(votes)
				} else {
					err = h.Move(st.Seat, chosen)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			for _, l := range told {
				if l.Text == "" || l.Kind == "event" || strings.Contains(l.Text, "event(") {
					t.Errorf("an event is not told in words: %+v", l)
				}
			}
			if !strings.Contains(told[len(told)-1].Text, "The game is over") {
				t.Errorf("the last event says %q", told[len(told)-1].Text)
			}
			t.Logf("%d moves typed, %d examples legal, %d events told", moves, examples, len(told))
		})
	}
}

// action reads a typed move as the terminal does and checks it for seat.
func action(t *testing.T, g *rules.Game, seat int, text string) (engine.Action, error) {
	t.Helper()
	m, err := Board{}.ParseText(text)
	if err != nil {
		return engine.Action{}, err
	}
	return m.Action(g, seat)
}
