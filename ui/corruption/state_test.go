package corruption

import (
	"slices"
	"strings"
	"testing"

	rules "corruption/engine/corruption"
)

// TestDecisionChoices: each kind of decision lists exactly the legal choices, in words.
func TestDecisionChoices(t *testing.T) {
	names := []string{"ann", "bob", "cy"}

	tb := newTable(t, 3, rules.FreeStud, false)
	d := Board{}.buildDecision(tb.view(0), names)
	if d.Kind != "faceup" || !strings.Contains(d.Prompt, "choose which positions go face up") {
		t.Errorf("free stud: %+v", d)
	}
	if g := (Board{}).buildGame(tb.view(1), names); !strings.Contains(g.FaceUpRule, "chosen by ann") || g.Next.Kind != "faceup" {
		t.Errorf("free stud, seen by bob: %q, next %+v", g.FaceUpRule, g.Next)
	}

	// A hit man under the school with two characters of others there: its owner chooses.
	tb = newTable(t, 3, rules.Standard, false)
	tb.play(
		"hitman school", "da school", "reporter school",
		"1000 monument", "1000 monument", "1000 library",
		"2000 library", "2000 firehouse", "2000 firehouse",
		"4000 police", "4000 police", "4000 postoffice",
		"6000 postoffice", "6000 library", "6000 monument",
		"8000 firehouse", "8000 postoffice", "8000 police")
	d = Board{}.buildDecision(tb.view(0), names)
	if d.Kind != "kill" || d.Index != 1 || !slices.Equal(d.Targets, []int{2, 3}) || !strings.Contains(d.Prompt, "hit man under Elementary School (card 1)") {
		t.Errorf("kill: %+v", d)
	}
	g := Board{}.buildGame(tb.view(1), names)
	if g.Next.Step != 2 || g.Next.Text != "Awarding, step 2 (hit men): ann chooses the target of the hit man, card 1" {
		t.Errorf("kill, seen by bob: %+v", g.Next)
	}

	// Placing: every card of the hand, each with the places it may go.
	tb = newTable(t, 3, rules.Standard, false)
	d = Board{}.buildDecision(tb.view(0), names)
	if d.Kind != "place" || len(d.Cards) != 9 || d.Cards[0].Card != "1000" || d.Cards[6].Card != "da" ||
		slices.Contains(d.Cards[6].Spots, "swiss:city") || !slices.Contains(d.Cards[0].Spots, "swiss:city") {
		t.Errorf("place: %+v", d)
	}
	if !strings.Contains(d.Prompt, "card 1 of 6. It goes face up under a contract") {
		t.Errorf("place prompt: %q", d.Prompt)
	}
}

func TestDescribe(t *testing.T) {
	names := []string{"ann", "bob", "cy"}
	for _, tt := range []struct {
		e    rules.Event
		want string
	}{
		{rules.Event{Kind: rules.EventPlaced, Seat: 1, Index: 4, Spot: rules.SwissCounty}, "Bob places a card face down on the County Seat Swiss account (card 4)."},
		{rules.Event{Kind: rules.EventPlaced, Seat: 0, Index: 5, Card: rules.Bribe8000, Spot: 22}, "You place an $8,000 bribe face up under Airport (card 5)."},
		{rules.Event{Kind: rules.EventKilled, Seat: 0, Index: 3, Target: 7, Contract: 1}, "Your hit man (card 3) kills card 7 under Monument."},
		{rules.Event{Kind: rules.EventRemoved, Seat: 2, Index: 9, Target: 2, Contract: 1}, "Cy's reporter (card 9) removes card 2 from Monument."},
		{rules.Event{Kind: rules.EventAssigned, Seat: 2, Index: 1, Contract: 0}, "Cy assigns their Swiss bribe (card 1) to Elementary School."},
		{rules.Event{Kind: rules.EventFaceUp, Seat: 1, Positions: 0b101}, "Bob chooses face-up positions 1 and 3 this round."},
		{rules.Event{Kind: rules.EventFaceUp, Seat: 0}, "You choose that every card goes face down this round."},
		{rules.Event{Kind: rules.EventDeferred, Contract: 23, Amount: 6000}, "Hydro-Electric Dam is tied at $6,000 and deferred."},
		{rules.Event{Kind: rules.EventRoundOver, Round: 2, Seat: 0}, "Round 2 is over; you lead round 3."},
	} {
		if got := describe(tt.e, names, 0); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.e.Kind, got, tt.want)
		}
	}
}

// TestWonInLanguages: the players' panel names the contracts each player won in the page's
// language (the results table shows the same list).
func TestWonInLanguages(t *testing.T) {
	names := []string{"ann", "bob", "cy"}
	tb := newTable(t, 3, rules.Standard, false)
	tb.play(
		"1000 school", "1000 monument", "1000 library",
		"2000 school", "2000 monument", "2000 library",
		"4000 firehouse", "4000 police", "4000 postoffice",
		"6000 firehouse", "6000 police", "6000 postoffice",
		"8000 school", "8000 monument", "8000 library",
		"10000 firehouse", "10000 police", "10000 postoffice")
	won := 0
	for _, lang := range []string{"es", "fr"} {
		d := In(lang).Draw(tb.game(0), 0, names)
		for s, f := range d.Seats {
			for i, name := range f.(seatState).Contracts {
				c := tb.view(0).Won(s)[i]
				if want := words.Say(lang, "contract."+c.String()); name != want {
					t.Errorf("%s: seat %d won %q, want %q", lang, s, name, want)
				}
				if name != c.Name() {
					won++
				}
			}
		}
	}
	if won == 0 {
		t.Fatal("no contract won whose name is not English: the test plays no awarding")
	}
}
