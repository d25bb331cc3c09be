package kingdoms

import (
	"errors"
	"slices"
	"strings"
	"testing"

	rules "corruption/engine/kingdoms"
	"corruption/ui"
)

// TestEveryLegalMoveTyped: at every decision of whole games of every table size and set of
// rules, every legal move, typed as the board lists it, reads back as that very move, and the
// board encodes it as the game does; the decision lists exactly the legal moves.
func TestEveryLegalMoveTyped(t *testing.T) {
	kinds := map[rules.MoveKind]int{}
	for _, tb := range tables {
		t.Run(tb.String(), func(t *testing.T) {
			decisions := 0
			play(t, tb, 7, func(g *rules.Game, seat int) {
				v := g.View(seat)
				legal := v.Legal()
				d := buildDecision(v, teller{names, v.Seat, ""})
				if len(d.Choices) != len(legal) {
					t.Fatalf("%s: %d choices for %d legal moves", v.Next, len(d.Choices), len(legal))
				}
				decisions++
				for i, m := range legal {
					kinds[m.Kind]++
					text := formatMove(v, m)
					if d.Choices[i].Text != text || d.Choices[i].Label == "" {
						t.Fatalf("choice %d: %+v, want the text %q and words", i, d.Choices[i], text)
					}
					mv, err := Board{}.ParseText(text)
					if err != nil {
						t.Fatalf("%s: %q: %v", m, text, err)
					}
					got, err := resolve(v, mv.(move).t)
					if err != nil || got != m {
						t.Fatalf("%q reads as %v (%v), want %v", text, got, err, m)
					}
					if i%7 != 0 && m.Kind != rules.MoveChaos && m.Kind != rules.MoveDiscard {
						continue // encoding every move of every decision is slow; a sample does
					}
					a, err := mv.Action(g.Clone(), seat)
					want, werr := g.Action(m)
					if err != nil || werr != nil || string(a.Move) != string(want.Move) || len(a.Hidden) != len(want.Hidden) {
						t.Fatalf("%q: the board encodes %x %v (%v), the game %x %v (%v)", text, a.Move, a.Hidden, err, want.Move, want.Hidden, werr)
					}
				}
			})
			t.Logf("%d decisions", decisions)
		})
	}
	for k := rules.MoveTake; k <= rules.MovePass; k++ {
		if kinds[k] == 0 {
			t.Errorf("no %s move was typed: the games do not cover every kind of move", k)
		}
	}
}

// TestIllegalMoves: a move that does not answer the decision due, or breaks a rule, is refused
// with a reason in the person's words, and nothing is asked of a seat that is not due.
func TestIllegalMoves(t *testing.T) {
	seen := map[string]bool{}
	play(t, table{4, rules.Advanced, "heuristic"}, 3, func(g *rules.Game, seat int) {
		v := g.View(seat)
		d := v.Next
		try := func(text, want string) {
			t.Helper()
			mv, err := Board{}.ParseText(text)
			if err == nil {
				_, err = mv.Action(g.Clone(), seat)
			}
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q: %v, want an error with %q", d, text, err, want)
			}
			seen[want] = true
		}
		switch d.Kind {
		case rules.DecideAction:
			try("vote yes", "it is your turn to take an action")
			try("influence chancellor waive zombie", "you cannot waive a zombie")
			try("take freedom-10 and more", `"and more" is not part of the move`)
			for _, m := range v.Legal() {
				if m.Kind == rules.MoveTake {
					f := favors[m.Favor].ID
					try("place "+f+" on ashspire-2", "")
				}
			}
			if len(v.Seats[seat].Pleasures) == 0 && v.Seats[seat].Minions == [4]int{} {
				try("influence whip", "you cannot influence whip")
			}
		case rules.DecideVote:
			try("pass", "it is your turn to vote")
			try("vote maybe", `"maybe" is not a vote`)
		case rules.DecideDiscard:
			try("discard 9", "your chaos cards are numbered from 1")
		}
		// Another seat's move: nothing is asked of it.
		other := (seat + 1) % v.Players
		if ov := g.View(other); !asked(ov) {
			mv, _ := Board{}.ParseText("pass")
			if _, err := mv.Action(g.Clone(), other); !errors.Is(err, ui.ErrNotAsked) {
				t.Errorf("seat %d, not due: %v, want ErrNotAsked", other, err)
			}
		}
	})
	for _, want := range []string{"it is your turn to take an action", "it is your turn to vote", "your chaos cards are numbered from 1"} {
		if !seen[want] {
			t.Errorf("the game never offered the case %q", want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"", "type a move"},
		{"dance", `"dance" is not a move`},
		{"take", "a favor of the market (magic-4) is missing"},
		{"take magic-11", `unknown favor "magic-11"`},
		{"place magic-4", "the bill to place it on"},
		{"place magic-4 on mars-1", `unknown bill "mars-1"`},
		{"influence whip waive", "waive which minion"},
		{"influence whip extra dragon", `unknown minion "dragon"`},
		{"chaos offshore-ballots", "yes or no is missing"},
		{"chaos margin-call 9 golem", `"9" is not a seat`},
		{"pick gold/magic remove", "the leader whose marker goes"},
		{"discard nothing", `unknown chaos card "nothing"`},
	} {
		if _, err := parseMove(tt.text); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q", tt.text, err, tt.want)
		}
	}
	for _, ok := range []string{"yes", "No", "vote for", "place magic-4 grimhold-1", "PASS", "steal whip extra devil", "play recount against",
		"chaos margin-call seat 2 devil", "pick none", "pick gold/magic exchange magic-1 for magic-2", "discard 2", "take magic-4,"} {
		if _, err := parseMove(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	if slices.Contains([]string{moveSyntax}, "") {
		t.Fatal("no syntax")
	}
}
