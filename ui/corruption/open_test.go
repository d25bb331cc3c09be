package corruption

import (
	"strings"
	"testing"

	rules "corruption/engine/corruption"
)

// TestOpenSeatCards: once the person's node knows another seat's face-down card without having
// peeked at it (that seat is open: its player left and every node rebuilt its secret,
// protocol/depart.go), the board drawn for the person shows it, marked known; the face-down
// cards of the other seats stay hidden.
func TestOpenSeatCards(t *testing.T) {
	names := []string{"ann", "bob", "cy"}
	tb := newTable(t, 3, rules.Standard, false)
	tb.play("1000 monument", "1000 library", "1000 firehouse", "2000 library")
	bobs := tb.refs
	tb.play("2000 firehouse", "2000 police") // cards 5 (bob's) and 6 (cy's), face down
	draw := func() map[int]cardState {
		g, ok := Board{}.Draw(tb.game(0), 0, names).Game.(*gameState)
		if !ok {
			t.Fatal("no game drawn")
		}
		cards := map[int]cardState{}
		for _, c := range g.Cards {
			cards[c.Index] = c
		}
		return cards
	}
	if text := (Board{}).Show(tb.game(0), 0, names); strings.Contains(text, "known: its player left") {
		t.Errorf("the terminal marks a card known before any seat is open:\n%s", text)
	}
	for i, c := range draw() {
		if c.Known || (c.Card != "" && !c.Mine && !c.Revealed) {
			t.Errorf("before bob's seat is open, card %d: %+v", i, c)
		}
	}
	tb.learn(0, bobs) // ann's node learns bob's card, as it does when bob's seat opens
	cards := draw()
	if c := cards[5]; c.Seat != 1 || c.Card != "2000" || !c.Known || c.Revealed || c.Label == "" {
		t.Errorf("bob's face-down card 5, once his seat is open: %+v", c)
	}
	if c := cards[6]; c.Seat != 2 || c.Card != "" || c.Known {
		t.Errorf("cy's face-down card 6: %+v", c)
	}
	if c := cards[4]; !c.Mine || c.Card != "2000" || c.Known {
		t.Errorf("ann's own face-down card 4: %+v", c)
	}
	// The terminal too: "#5 bob $2,000 (known: its player left)".
	if text := (Board{}).Show(tb.game(0), 0, names); !strings.Contains(text, "#5 bob $2,000 (known: its player left)") {
		t.Errorf("the terminal does not show bob's card 5 as known:\n%s", text)
	}
}
