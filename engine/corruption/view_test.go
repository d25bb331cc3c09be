package corruption_test

// View(seat) (issue 2): never another seat's face-down card before the reveal, except what the
// seat's own peeks showed; its own cards always; everything once revealed; not the deck.

import (
	"testing"

	"corruption/engine/corruption"
)

func TestViewsAtEveryStep(t *testing.T) {
	// Every seat's view at every step of random games, against the full state and the reference
	// model's rule of who sees what (checkViews in property_test.go).
	games := 4
	if testing.Short() {
		games = 1
	}
	for ki, k := range tableKinds() {
		t.Run(k.String(), func(t *testing.T) {
			t.Parallel()
			for g := 0; g < games; g++ {
				seed := uint64(ki)<<32 | uint64(g) | 3<<60
				if err := playChecked(k.config(seed), seed, true, nil); err != nil {
					t.Fatalf("game %d (seed %#x): %v", g, seed, err)
				}
			}
		})
	}
}

func TestViewHidesTheDeck(t *testing.T) {
	deck := naturalDeck(t)
	s, err := corruption.New(corruption.Config{Players: 4, Deck: deck, First: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.Config().Deck == nil {
		t.Fatal("the state's own Config has no deck")
	}
	for seat := 0; seat < 4; seat++ {
		c := s.View(seat).Config()
		if c.Deck != nil {
			t.Errorf("seat %d's view shows the deck", seat)
		}
		if c.Players != 4 || c.First != 2 {
			t.Errorf("seat %d's view: %+v", seat, c)
		}
	}
	// Changing the config passed in does not change the game.
	deck[6], deck[7] = deck[7], deck[6]
	if got := s.Config().Deck[6]; got != contract(t, "courthouse") {
		t.Errorf("the game's deck changed with the caller's slice: card 7 is %s", got)
	}
}

func TestViewOfOwnAndRevealedCards(t *testing.T) {
	// Round 1 (standard): #1 seat 0's $1,000 face up, #2 seat 1's $8,000 on a Swiss account,
	// #3 seat 2's district attorney face up, #4 seat 0's $2,000 face down.
	s, _ := mustRun(t, game{moves: turns(0, "1000:school 2000:school", "8000:swiss:city", "da:monument")})
	want := map[int][4]corruption.Card{ // seat -> what it sees of cards 1..4
		0: {corruption.Bribe1000, corruption.CardUnknown, corruption.DA, corruption.Bribe2000},
		1: {corruption.Bribe1000, corruption.Bribe8000, corruption.DA, corruption.CardUnknown},
		2: {corruption.Bribe1000, corruption.CardUnknown, corruption.DA, corruption.CardUnknown},
	}
	for seat, cards := range want {
		v := s.View(seat)
		for i, c := range cards {
			if p, ok := v.Play(i + 1); !ok || p.Card != c {
				t.Errorf("seat %d sees card %d as %v, want %v", seat, i+1, p.Card, c)
			}
			if v.Sees(i+1) != (c != corruption.CardUnknown) {
				t.Errorf("seat %d: Sees(%d) %t", seat, i+1, v.Sees(i+1))
			}
		}
		if _, ok := v.Play(5); ok {
			t.Errorf("seat %d sees a card 5", seat)
		}
		if _, ok := v.Play(0); ok {
			t.Errorf("seat %d sees a card 0", seat)
		}
	}
}

// Bad input never panics (STYLE.md, "Our habits"): the accessors take any seat, index or
// contract. A seat that is not at the table (a spectator's node, say) sees only public cards.
func TestAccessorsTakeAnyArgument(t *testing.T) {
	s, _ := mustRun(t, game{moves: turns(0, "1000:school 2000:school", "1000:monument", "1000:police")})
	// #4 is seat 0's face-down $2,000.
	for _, seat := range []int{-1, -8, 3, 7, 200} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("seat %d: panic: %v", seat, r)
				}
			}()
			v := s.View(seat)
			if p, ok := v.Play(4); !ok || p.Card != corruption.CardUnknown {
				t.Errorf("View(%d) sees card 4 as %v", seat, p.Card)
			}
			if p, _ := v.Play(1); p.Card != corruption.Bribe1000 {
				t.Errorf("View(%d) does not see the face-up card 1", seat)
			}
			_ = v.Sees(4)
			_ = v.Hand()
			_ = v.NextFaceUp()
			_ = v.Peekable()
			_ = v.CanPlay(corruption.Bribe1000, 0)
			_, _ = s.Score(seat)
			_ = s.Won(seat)
			_ = s.Hand(seat)
			_, _, _ = s.CharactersLeft(seat)
			_ = s.PeeksLeft(seat)
			_ = s.Placed(seat)
			_ = s.NextFaceUp(seat)
			_ = s.Peekable(seat)
			_ = s.CanPlay(seat, corruption.Bribe1000, 0)
		}()
	}
	for _, c := range []corruption.Contract{24, 25, 99, 255} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("contract %d: panic: %v", c, r)
				}
			}()
			_ = s.ContractBody(c)
			_ = s.View(0).ContractBody(c)
			_, _, _, _ = s.OnTable(c), s.Deferred(c), s.Cancelled(c), s.Winner(c)
			_ = c.String() + c.Name()
			_ = c.Value()
		}()
	}
	for _, i := range []int{-1, 0, 5, 100} {
		if _, ok := s.PlayAt(i); ok {
			t.Errorf("PlayAt(%d) found a card", i)
		}
		if _, ok := s.View(0).Play(i); ok {
			t.Errorf("View(0).Play(%d) found a card", i)
		}
	}
}
