package corruptia

import (
	"encoding/json"
	"strings"
	"testing"

	"corruption/engine"
	rules "corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
	"corruption/engine/enginetest"
	"corruption/ui/boardtest"
)

// TestOpenSeatCards: once the person's node knows another senator's hidden bills (that seat is
// open: its player left and every node rebuilt its secret, protocol/depart.go, and the node's
// game learnt the bills dealt to it), the page and the terminal drawn for the person show that
// hand, marked known; every other senator's hand stays hidden. The game is played on the kit,
// one copy per seat, each told only its own bills.
func TestOpenSeatCards(t *testing.T) {
	const n = 3
	players := make([]engine.Player, n)
	for s := range players {
		p, err := bot.NewPlayer("heuristic", uint64(s+1))
		if err != nil {
			t.Fatal(err)
		}
		players[s] = p
	}
	config, err := rules.EncodeConfig(rules.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	type deal struct{ deck, pos int }
	var (
		ann, bob *rules.Game // seat 0's and seat 1's copies once every hand is dealt
		deals    []deal      // the bills dealt to seat 1 alone, in order
	)
	_, err = enginetest.Play(rules.Rules{}, config, players, 5, enginetest.Watch(func(tn enginetest.Turn) error {
		if ann != nil {
			return nil
		}
		in := tn.Input
		if in.Kind == engine.InDealt && in.To == 1 {
			for _, p := range in.Positions {
				deals = append(deals, deal{in.Deck, p})
			}
		}
		a, b := tn.Seats[0].(*rules.Game), tn.Seats[1].(*rules.Game)
		if v := a.View(0); v.Next.Kind == rules.DecideDiscard && len(v.Program) >= rules.StartingBills &&
			len(deals) > 0 && len(b.View(1).Hand()) == len(deals) {
			ann, bob = a.Clone().(*rules.Game), b.Clone().(*rules.Game)
		}
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	if ann == nil {
		t.Fatal("no position with every hand dealt")
	}
	names := names5[:n]
	draw := func() ([]seatState, *gameState) {
		d := Board{}.Draw(ann, 0, names)
		if _, err := json.Marshal(d); err != nil {
			t.Fatal(err)
		}
		var out []seatState
		for _, s := range d.Seats {
			out = append(out, s.(seatState))
		}
		return out, d.Game.(*gameState)
	}
	seats, _ := draw()
	for s, f := range seats {
		if f.Known != nil {
			t.Errorf("before any seat is open, seat %d's hand is drawn: %v", s, f.Known)
		}
	}
	if text := (Board{}).Show(ann, 0, names); strings.Contains(text, knownMark) {
		t.Errorf("the terminal marks a hand known before any seat is open:\n%s", text)
	}

	// Ann's node learns bob's bills, as it does when bob's seat opens.
	hand := bob.View(1).Hand()
	for i, d := range deals {
		if err := ann.LearnCard(d.deck, d.pos, int(hand[i])); err != nil {
			t.Fatal(err)
		}
	}
	seats, gs := draw()
	want := (Board{}).refsOf(hand)
	if got := seats[1].Known; len(got) != len(want) || len(want) == 0 {
		t.Fatalf("bob's hand drawn once his seat is open: %v, he holds %v", got, want)
	}
	for i := range want {
		if seats[1].Known[i] != want[i] {
			t.Errorf("bob's bill %d drawn: %+v, he holds %+v", i, seats[1].Known[i], want[i])
		}
	}
	for _, s := range []int{0, 2} {
		if seats[s].Known != nil {
			t.Errorf("seat %d's hand is drawn as known: %v", s, seats[s].Known)
		}
	}
	if mine := (Board{}).refsOf(ann.View(0).Hand()); len(gs.Hand) != len(mine) || gs.Hand[0] != mine[0] {
		t.Errorf("the person's own hand drawn: %v, want %v", gs.Hand, mine)
	}
	text := (Board{}).Show(ann, 0, names)
	if line := names[1] + "'s hand (known: its player left): " + refList(want); !strings.Contains(text, line) {
		t.Errorf("the terminal does not show %q:\n%s", line, text)
	}
	if c := strings.Count(text, knownMark); c != 1 {
		t.Errorf("the terminal marks %d hands known, want 1:\n%s", c, text)
	}
}

// knownMark marks the hand of a seat whose player left, in English.
var knownMark = words.Say("en", "mark.known")

// TestKnownWords: the page's mark of an open seat's hand is in each language's words.
func TestKnownWords(t *testing.T) { boardtest.HasWords(t, Board{}.Assets(), "mark.known") }
