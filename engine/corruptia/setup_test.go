package corruptia_test

// Rule tests: the setup and the rounds (the rule sheet's "Game setup" and "Start of the round").

import (
	"slices"
	"testing"

	"corruption/engine"
	"corruption/engine/corruptia"
)

// TestSetAside: 44, 30, 16 or 2 bills are set aside, and the rest is exactly what a game
// draws: 3 starting bills, 4 to each senator, and each of 5 rounds 2 to each senator and 3
// face up.
func TestSetAside(t *testing.T) {
	for _, c := range []struct{ players, aside int }{{2, 44}, {3, 30}, {4, 16}, {5, 2}} {
		if got := corruptia.SetAside(c.players); got != c.aside {
			t.Errorf("%d players: %d set aside, want %d", c.players, got, c.aside)
		}
		if got := corruptia.Draws(c.players); got != corruptia.NumBills-c.aside {
			t.Errorf("%d players: a game draws %d bills, but %d are left after setting %d aside", c.players, got, corruptia.NumBills-c.aside, c.aside)
		}
	}
}

// TestCards: 90 bills, 18 a department, 6 of each income expectation in each; budgets of three
// vacancies; five parties with four blackmail cards each.
func TestCards(t *testing.T) {
	var count [corruptia.NumDepartments][4]int
	for b := corruptia.Bill(0); b < corruptia.NumBills; b++ {
		count[b.Department()][b.Income()]++
		if back, err := corruptia.ParseBill(b.String()); err != nil || back != b {
			t.Errorf("%s reads back as %v (%v)", b, back, err)
		}
		if b.Title() == "" || len(b.Budget()) != 3 {
			t.Errorf("%s: title %q, budget %v", b, b.Title(), b.Budget())
		}
	}
	for d := range count {
		for inc := 1; inc <= 3; inc++ {
			if count[d][inc] != 6 {
				t.Errorf("%s has %d bills of income %d", corruptia.Department(d), count[d][inc], inc)
			}
		}
	}
	for _, s := range []string{"cul00", "cul19", "xyz01", "cul1", "cul+1", "CUL01", ""} {
		if _, err := corruptia.ParseBill(s); err == nil {
			t.Errorf("ParseBill(%q) accepted", s)
		}
	}
	for seat := range corruptia.MaxPlayers {
		p := corruptia.PartyOf(seat)
		if p.Name == "" {
			t.Errorf("seat %d has no party", seat)
		}
		for k, c := range p.Blackmail {
			if c == "" || slices.Contains(p.Blackmail[:k], c) {
				t.Errorf("%s: blackmail card %d is %q", p.Name, k+1, c)
			}
		}
	}
	if got := corruptia.BlackmailTitle(3, 1, 4); got != corruptia.PartyOf(1).Blackmail[1] {
		t.Errorf("seat 3 holds %q on seat 1, want seat 1's party's second card (its second opponent clockwise)", got)
	}
}

// pick lists the bills of department d and income inc.
func pick(d corruptia.Department, inc int) []corruptia.Bill {
	var out []corruptia.Bill
	for b := corruptia.Bill(0); b < corruptia.NumBills; b++ {
		if b.Department() == d && b.Income() == inc {
			out = append(out, b)
		}
	}
	return out
}

// deckOf is a deck order: top first, then every other bill in id order, then last at the
// bottom.
func deckOf(top, last []corruptia.Bill) []corruptia.Bill {
	deck := slices.Clone(top)
	for b := corruptia.Bill(0); b < corruptia.NumBills; b++ {
		if !slices.Contains(top, b) && !slices.Contains(last, b) {
			deck = append(deck, b)
		}
	}
	return append(deck, last...)
}

// TestStartingProgram: three bills of three departments and three incomes, six officials of
// the bill's income on each, at (0,0), (0,2), (0,4); a bill that does not fit goes back into
// the deck, which is shuffled again and still holds what the game draws; if the playable deck
// runs out first, the setup starts again.
func TestStartingProgram(t *testing.T) {
	cul1, def3, eco2 := pick(corruptia.Culture, 1)[0], pick(corruptia.Defence, 3)[0], pick(corruptia.Economy, 2)[0]
	cul1b, eco3 := pick(corruptia.Culture, 1)[1], pick(corruptia.Economy, 3)[0]
	var noThird []corruptia.Bill // economy, education and environment at $2: none is left in the playable deck
	for _, d := range []corruptia.Department{corruptia.Economy, corruptia.Education, corruptia.Environment} {
		noThird = append(noThird, pick(d, 2)...)
	}
	for _, c := range []struct {
		name     string
		players  int
		deck     []corruptia.Bill
		program  []corruptia.Bill
		returned []corruptia.Bill
		restart  bool
	}{
		{"the first three fit", 3, deckOf([]corruptia.Bill{cul1, def3, eco2}, nil), []corruptia.Bill{cul1, def3, eco2}, nil, false},
		{"same department, same income: back into the deck", 3, deckOf([]corruptia.Bill{cul1, cul1b, def3, eco3, eco2}, nil),
			[]corruptia.Bill{cul1, def3, eco2}, []corruptia.Bill{cul1b, eco3}, false},
		{"the playable deck runs out", 2, deckOf([]corruptia.Bill{cul1, def3}, noThird), nil, nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := newKit(t, c.players, 1)
			k.deck0 = c.deck
			k.mustApply(engine.Input{Kind: engine.InRandom, Ints: []int{0}})
			k.mustApply(engine.Input{Kind: engine.InBuilt, Deck: corruptia.DeckBills})
			k.decks[0] = slices.Repeat([]int{0}, corruptia.NumBills)
			for i, b := range c.deck {
				k.decks[0][i] = int(b)
			}
			k.mustApply(engine.Input{Kind: engine.InShuffled, Deck: corruptia.DeckBills})
			k.deck0 = nil
			for k.obs().View(-1).Round == 0 && len(k.obs().View(-1).Program) < 3 && !slices.ContainsFunc(k.events, isRestart) {
				st := k.due()
				k.mustApply(engine.Input{Kind: engine.InDealt, Deck: st.Deck, Positions: st.Positions, To: -1, Cards: k.cards(st)})
			}
			if c.restart {
				if st := k.due(); st.Kind != engine.StepBuild || st.Deck != corruptia.DeckBills {
					t.Fatalf("after the deck ran out the game waits for %+v, want the bill deck built again", st)
				}
				k.table()
				checkStart(t, k.obs().View(-1).Program, nil)
				return
			}
			v := k.obs().View(-1)
			checkStart(t, v.Program, c.program)
			if got := k.obs().Returned(); !slices.Equal(got, c.returned) {
				t.Fatalf("sent back %v, want %v", got, c.returned)
			}
			st := k.due()
			if c.returned == nil {
				if st.Kind != engine.StepDeal || st.Deck != corruptia.DeckBills || st.To != 0 {
					t.Fatalf("then %+v, want the hands dealt from the bill deck", st)
				}
				return
			}
			if st.Kind != engine.StepBuild || st.Deck != corruptia.DeckRebuilt || len(st.Cards) != len(c.returned) ||
				len(st.From) != corruptia.Draws(c.players)-5 {
				t.Fatalf("then %+v, want the bills sent back and the %d left built into deck 1", st, corruptia.Draws(c.players)-5)
			}
			k.table()
			if v := k.obs().View(-1); v.DeckLeft != corruptia.Draws(c.players)-3-4*c.players {
				t.Errorf("after the hands, %d bills left in the deck, want %d", v.DeckLeft, corruptia.Draws(c.players)-3-4*c.players)
			}
		})
	}
}

func isRestart(e corruptia.Event) bool { return e.Kind == corruptia.EventRestart }

func checkStart(t *testing.T, prog corruptia.Program, want []corruptia.Bill) {
	t.Helper()
	if len(prog) != 3 {
		t.Fatalf("a starting program of %d bills", len(prog))
	}
	for i, p := range prog {
		if want != nil && p.Bill != want[i] {
			t.Errorf("starting bill %d is %s, want %s", i, p.Bill, want[i])
		}
		if p.At != corruptia.StartCells[i] || p.Officials[p.Bill.Income()] != 6 || p.Workers() != 6 {
			t.Errorf("starting bill %s at %s with officials %v, want six of $%d at %s", p.Bill, p.At, p.Officials, p.Bill.Income(), corruptia.StartCells[i])
		}
		for _, o := range prog[:i] {
			if o.Bill.Department() == p.Bill.Department() || o.Bill.Income() == p.Bill.Income() {
				t.Errorf("starting bills %s and %s share a department or an income", o.Bill, p.Bill)
			}
		}
	}
}

// TestSetup: each senator has 3 employees, a blackmail card on each opponent, no approval, and
// 4 bills of which it discards one; the discards are built into a pile of their own, shuffled
// and dealt face up, and no input or event says whose each is.
func TestSetup(t *testing.T) {
	for n := corruptia.MinPlayers; n <= corruptia.MaxPlayers; n++ {
		k := newKit(t, n, uint64(n))
		k.until(func() bool { return k.next().Kind == corruptia.DecideDiscard })
		v := k.obs().View(-1)
		for s := range n {
			if len(v.Hands[s]) != 4 || v.Reserve[s] != 3 || v.Approval[s] != 0 {
				t.Fatalf("seat %d: %d bills, %d employees, %d tokens", s, len(v.Hands[s]), v.Reserve[s], v.Approval[s])
			}
			for o := range n {
				if v.Holds[s][o] != (s != o) {
					t.Fatalf("seat %d holds a card on seat %d: %v", s, o, v.Holds[s][o])
				}
			}
		}
		for range n {
			d := k.next()
			if err := k.move(d.Seat, corruptia.Move{Kind: corruptia.MoveDiscard, Slot: d.Seat % 4}); err != nil {
				t.Fatal(err)
			}
		}
		st := k.due()
		if st.Kind != engine.StepBuild || st.Deck != corruptia.DeckPile || len(st.From) != n || len(st.Cards) != 0 {
			t.Fatalf("%d players: after the discards, %+v; want the anonymous pile built from the %d discards", n, st, n)
		}
		for i, dc := range st.From {
			if dc.Deck != corruptia.DeckBills && dc.Deck != corruptia.DeckRebuilt || slices.Contains(st.From[:i], dc) {
				t.Fatalf("the pile is built from %v", st.From)
			}
		}
		k.table()
		i := slices.IndexFunc(k.events, func(e corruptia.Event) bool { return e.Kind == corruptia.EventFaceUp && e.Opening })
		if i < 0 || len(k.events[i].Bills) != n {
			t.Fatalf("%d players: no opening pile of %d bills told", n, n)
		}
		for s := range n {
			own := k.games[s].View(s)
			if len(own.Hand()) != 3+2 || !slices.Contains(own.Pile, own.Opening) {
				t.Errorf("seat %d: %d bills in hand, its discard %s not in the pile %v", s, len(own.Hand()), own.Opening, own.Pile)
			}
			if o := k.obs().View(s); o.Opening != corruptia.Unknown {
				t.Errorf("the observer knows seat %d's discard", s)
			}
		}
	}
}

// TestRounds: each round the first player deals 2 bills to every senator, in turn order from
// itself, and 3 face up to the discard pile; the presidential token passes clockwise; there
// are five rounds, each of a turn per senator.
func TestRounds(t *testing.T) {
	k := newKit(t, 4, 9)
	k.until(func() bool { return false })
	first, round := -1, 0
	turns := 0
	for i, e := range k.events {
		switch e.Kind {
		case corruptia.EventFirst:
			first = e.Seat
		case corruptia.EventRound:
			round++
			if e.Round != round || e.Seat != (first+round-1)%4 {
				t.Fatalf("round %d told as round %d with seat %d first, want seat %d", round, e.Round, e.Seat, (first+round-1)%4)
			}
			for j := range 4 {
				d := k.events[i+1+j]
				if d.Kind != corruptia.EventDealt || d.Seat != (e.Seat+j)%4 || d.Count != 2 {
					t.Fatalf("round %d: deal %d is %s", round, j, d)
				}
			}
			if f := k.events[i+5]; f.Kind != corruptia.EventFaceUp || len(f.Bills) != 3 {
				t.Fatalf("round %d: then %s, want 3 bills face up", round, f)
			}
		case corruptia.EventDie:
			if !e.Reroll {
				turns++
			}
		}
	}
	if round != corruptia.Rounds || turns != corruptia.Rounds*4 {
		t.Fatalf("%d rounds, %d turns; want 5 and 20", round, turns)
	}
	if v := k.obs().View(-1); v.DeckLeft != 0 {
		t.Errorf("%d bills left undealt at the end", v.DeckLeft)
	}
}

// TestDie: R in round 1 is rolled again; in a later round it is the revolution.
func TestDie(t *testing.T) {
	k := newKit(t, 3, 4)
	k.until(func() bool { return k.obs().Drawing() == corruptia.DrawDie })
	k.mustApply(engine.Input{Kind: engine.InRandom, Ints: []int{int(corruptia.Revolution)}})
	if k.obs().Drawing() != corruptia.DrawDie {
		t.Fatal("R in round 1 was not rolled again")
	}
	k.mustApply(engine.Input{Kind: engine.InRandom, Ints: []int{int(corruptia.Education)}})
	if v := k.obs().View(-1); v.Die != corruptia.Die(corruptia.Education) || v.Next.Kind != corruptia.DecidePropose {
		t.Fatalf("die %s, next %s", v.Die, v.Next)
	}
	k.until(func() bool { return k.obs().View(-1).Round == 2 && k.obs().Drawing() == corruptia.DrawDie })
	k.mustApply(engine.Input{Kind: engine.InRandom, Ints: []int{int(corruptia.Revolution)}})
	if v := k.obs().View(-1); v.Die != corruptia.Revolution || v.Next.Kind != corruptia.DecidePropose {
		t.Fatalf("round 2: die %s, next %s; want the revolution", v.Die, v.Next)
	}
	if err := k.apply(engine.Input{Kind: engine.InRandom, Ints: []int{6}}); err == nil {
		t.Fatal("a draw was taken where a move is due")
	}
}
