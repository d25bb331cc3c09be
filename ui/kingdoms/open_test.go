package kingdoms

import (
	"slices"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/enginetest"
	rules "corruption/engine/kingdoms"
	"corruption/ui/boardtest"
)

// TestOpenSeatCards: once the person's node knows another seat's secret cards (that seat is
// open: its player left and every node rebuilt its secret, protocol/depart.go, and the node's
// game learnt its shareholder cards, chaos hand and secret discard), the page and the terminal
// drawn for the person show them, marked known; every other seat's stay hidden.
func TestOpenSeatCards(t *testing.T) {
	tb := table{4, rules.Config{Chaos: true}, "heuristic"}
	type deal struct{ deck, pos int }
	var (
		ann, bob *rules.Game // seat 0's and seat 1's copies once play starts
		deals    []deal      // the cards dealt to seat 1 alone
		discard  = -1        // seat 1's chaos discard's ref
	)
	play(t, tb, 3, nil, enginetest.Watch(func(tn enginetest.Turn) error {
		in := tn.Input
		if ann != nil {
			return nil
		}
		if in.Kind == engine.InDealt && in.To == 1 {
			for _, p := range in.Positions {
				deals = append(deals, deal{in.Deck, p})
			}
		}
		if in.Kind == engine.InMove && in.Seat == 1 && len(in.Refs) > 0 && discard < 0 {
			discard = in.Refs[0]
		}
		if v := tn.Seats[1].(*rules.Game).View(1); v.Playing && v.Next.Kind == rules.DecideAction {
			ann, bob = tn.Seats[0].Clone().(*rules.Game), tn.Seats[1].Clone().(*rules.Game)
		}
		return nil
	}))
	if ann == nil || discard < 0 || len(deals) == 0 {
		t.Fatalf("no game in play with seat 1's deals (%v) and discard (ref %d)", deals, discard)
	}
	sub := names[:tb.players]
	draw := func() []seatState {
		d := Board{}.Draw(ann, 0, sub)
		var out []seatState
		for _, s := range d.Seats {
			out = append(out, s.(seatState))
		}
		return out
	}
	for s, f := range draw() {
		if f.Known != nil {
			t.Errorf("before any seat is open, seat %d's secret cards are drawn: %+v", s, f.Known)
		}
	}
	if text := (Board{}).Show(ann, 0, sub); strings.Contains(text, knownMark) {
		t.Errorf("the terminal marks cards known before any seat is open:\n%s", text)
	}

	// Ann's node learns bob's cards, as it does when bob's seat opens.
	bv := bob.View(1)
	chaosDeck := 0
	for _, d := range deals {
		chaosDeck = max(chaosDeck, d.deck) // the seat's chaos deck comes after the shareholder deck
	}
	types, c := rules.Shareholders(), rules.ShareholderCards(tb.players)
	for _, d := range deals {
		card := -1
		if d.deck == chaosDeck {
			card = bv.Hand[d.pos].Card
		} else {
			card = slices.Index(types, bv.Shareholders[d.pos%c]) // a card of that type
		}
		if err := ann.LearnCard(d.deck, d.pos, card); err != nil {
			t.Fatal(err)
		}
	}
	pos := slices.IndexFunc(bv.Hand, func(h rules.HeldCard) bool { return h.Discarded })
	if err := ann.LearnValue(discard, []byte{byte(pos)}); err != nil {
		t.Fatal(err)
	}

	seats := draw()
	k := seats[1].Known
	if k == nil {
		t.Fatal("bob's secret cards are not drawn once his seat is open")
	}
	var want []string
	for _, ty := range bv.Shareholders {
		want = append(want, ty.String())
	}
	if !slices.Equal(k.Shareholders, want) {
		t.Errorf("bob's shareholder cards drawn: %v, want %v", k.Shareholders, want)
	}
	if len(k.Hand) != len(bv.Hand) {
		t.Fatalf("bob's chaos hand drawn: %+v, he holds %+v", k.Hand, bv.Hand)
	}
	for i, h := range bv.Hand {
		if got := k.Hand[i]; got.Card != chaosCards[h.Card].ID || got.Discarded != h.Discarded {
			t.Errorf("bob's chaos card %d drawn: %+v, he holds %+v", i, got, h)
		}
	}
	for _, s := range []int{0, 2, 3} {
		if seats[s].Known != nil {
			t.Errorf("seat %d's secret cards are drawn: %+v", s, seats[s].Known)
		}
	}
	if gs := (Board{}).Draw(ann, 0, sub).Game.(*gameState); len(gs.Hand) != len(ann.View(0).Hand) {
		t.Errorf("the person's own hand changed: %+v", gs.Hand)
	}
	text := (Board{}).Show(ann, 0, sub)
	line := "Secret cards (known: its player left): shareholder"
	if !strings.Contains(text, line) || !strings.Contains(text, chaosCards[bv.Hand[pos].Card].Name+" (discarded)") {
		t.Errorf("the terminal does not show bob's secret cards as known:\n%s", text)
	}
	if n := strings.Count(text, knownMark); n != 1 {
		t.Errorf("the terminal marks %d seats' cards known, want 1:\n%s", n, text)
	}
}

// TestKnownWords: the page's mark of an open seat's cards is in each language's words.
func TestKnownWords(t *testing.T) { boardtest.HasWords(t, Board{}.Assets(), "mark.known") }
