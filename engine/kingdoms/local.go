package kingdoms

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"corruption/engine"
)

// Local plays a game in memory with full information, for simulations, scripts and tests: it
// performs the table's steps itself, with the random and hidden parts taken from a Setup, and
// feeds one Game the very inputs a table would. That Game learns every seat's secrets, each
// kept as that seat's: View(seat) still shows a seat only what it may see.

// Setup is everything random or hidden that a table's joint randomness and shuffles would give.
type Setup struct {
	Corporations []int   // by seat, distinct
	First        int     // the starting player
	FavorDeck    []int   // the favors in play, top first: FavorsPerType of each type
	PleasureDeck []int   // all 25 guilty pleasures, top first
	Shareholders [][]int // each seat's shareholder cards (ShareholderCards each), all distinct
	Chaos        [][]int // with chaos cards: each seat's, as dealt (ChaosDrawn of its corporation's)
}

// RandomSetup draws a setup from rng.
func RandomSetup(c Config, players int, rng *rand.Rand) Setup {
	s := Setup{Corporations: rng.Perm(NumCorporations)[:players], First: rng.IntN(players)}
	k := FavorsPerType(players)
	for t := range NumFavorTypes {
		ids := favorsOfType(t)
		for _, i := range rng.Perm(len(ids))[:k] {
			s.FavorDeck = append(s.FavorDeck, ids[i])
		}
	}
	rng.Shuffle(len(s.FavorDeck), func(i, j int) { s.FavorDeck[i], s.FavorDeck[j] = s.FavorDeck[j], s.FavorDeck[i] })
	s.PleasureDeck = rng.Perm(NumPleasures)
	shares, n := rng.Perm(NumShareholders), ShareholderCards(players)
	for seat := range players {
		s.Shareholders = append(s.Shareholders, shares[seat*n:seat*n+n])
		if c.Chaos {
			cards := corporations[s.Corporations[seat]].Chaos
			var hand []int
			for _, i := range rng.Perm(ChaosPerCorp)[:ChaosDrawn(players)] {
				hand = append(hand, cards[i])
			}
			s.Chaos = append(s.Chaos, hand)
		}
	}
	return s
}

// Check says what is wrong with s for a table of players playing c.
func (s Setup) Check(c Config, players int) error {
	if len(s.Corporations) != players || !distinct(s.Corporations, NumCorporations) {
		return fmt.Errorf("corporations: %v is not %d distinct corporations", s.Corporations, players)
	}
	if s.First < 0 || s.First >= players {
		return fmt.Errorf("first: seat %d is not between 0 and %d", s.First, players-1)
	}
	k := FavorsPerType(players)
	var count [NumFavorTypes]int
	for _, f := range s.FavorDeck {
		if f >= 0 && f < NumFavors {
			count[favors[f].Type]++
		}
	}
	if len(s.FavorDeck) != k*int(NumFavorTypes) || !distinct(s.FavorDeck, NumFavors) || slices.Max(count[:]) != k {
		return fmt.Errorf("favor deck: want %d distinct favors, %d of each type", k*int(NumFavorTypes), k)
	}
	if len(s.PleasureDeck) != NumPleasures || !distinct(s.PleasureDeck, NumPleasures) {
		return fmt.Errorf("pleasure deck: want all %d guilty pleasures once each", NumPleasures)
	}
	if len(s.Shareholders) != players || !distinct(slices.Concat(s.Shareholders...), NumShareholders) {
		return fmt.Errorf("shareholders: want %d distinct cards for each of %d seats", ShareholderCards(players), players)
	}
	for seat, sh := range s.Shareholders {
		if len(sh) != ShareholderCards(players) {
			return fmt.Errorf("shareholders: seat %d has %d cards, want %d", seat, len(sh), ShareholderCards(players))
		}
	}
	if !c.Chaos {
		if s.Chaos != nil {
			return fmt.Errorf("chaos: this game has no chaos cards")
		}
		return nil
	}
	if len(s.Chaos) != players {
		return fmt.Errorf("chaos: want the cards of %d seats", players)
	}
	for seat, hand := range s.Chaos {
		if len(hand) != ChaosDrawn(players) || !distinct(hand, NumChaos) {
			return fmt.Errorf("chaos: seat %d has %d cards, want %d distinct", seat, len(hand), ChaosDrawn(players))
		}
		for _, card := range hand {
			if chaosCards[card].Corp != s.Corporations[seat] {
				return fmt.Errorf("chaos: seat %d's %s is not %s's card", seat, chaosID(card), corporations[s.Corporations[seat]].ID)
			}
		}
	}
	return nil
}

func distinct(ids []int, n int) bool {
	seen := make([]bool, n)
	for _, id := range ids {
		if id < 0 || id >= n || seen[id] {
			return false
		}
		seen[id] = true
	}
	return true
}

// Local is a game played in memory with full information. Its zero value is not usable: start
// one with NewLocal.
type Local struct {
	g      *Game
	setup  Setup
	decks  [engine.MaxDecks][]int
	values [][]byte // hidden values, by ref
	votes  [][]byte // the votes cast so far at the simultaneous vote due
	// follow is one seat's own copy of the game (nil unless Follow asked for it), fed the same
	// inputs as g but told only that seat's secrets; followed is its seat.
	follow   *Game
	followed int
}

// Follow keeps, from now on, seat's own copy of the game beside the one with full
// information: it is fed every input the table applies, but learns only the cards dealt to
// seat and the hidden values of seat's own moves, as seat's node would (its events go to
// onEvent, when not nil). It must be called before the first step; Seat returns the copy.
func (l *Local) Follow(seat int, onEvent func(engine.Event)) error {
	if seat < 0 || seat >= l.g.n {
		return fmt.Errorf("seat %d is not at a table of %d", seat, l.g.n)
	}
	if l.follow != nil || l.g.Due().Kind != engine.StepRandom || len(l.values) > 0 {
		return fmt.Errorf("a seat's copy is made before the game's first step")
	}
	l.follow, l.followed = NewGame(l.g.cfg, l.g.n, onEvent), seat
	return nil
}

// Seat is the copy Follow keeps (nil without one): read it, do not apply inputs to it.
func (l *Local) Seat() *Game { return l.follow }

// apply applies in to the game and to the followed seat's copy.
func (l *Local) apply(in engine.Input) error {
	if err := l.g.Apply(in); err != nil {
		return err
	}
	if l.follow != nil {
		return l.follow.Apply(in)
	}
	return nil
}

// NewLocal starts a game of players with config c and setup s; onEvent, if not nil, is told
// every event.
func NewLocal(c Config, players int, s Setup, onEvent func(engine.Event)) (*Local, error) {
	if err := c.Check(players); err != nil {
		return nil, err
	}
	if err := s.Check(c, players); err != nil {
		return nil, fmt.Errorf("setup: %w", err)
	}
	return &Local{g: NewGame(c, players, onEvent), setup: s}, nil
}

// Game is the game being played: read it, do not apply inputs to it.
func (l *Local) Game() *Game { return l.g }

// Next performs the table's steps until a seat must decide, and says who must decide what
// (DecideNothing once the game is over). At a simultaneous vote, Seat is the seat whose vote
// Play takes next.
func (l *Local) Next() (Decision, error) {
	for {
		st := l.g.Due()
		switch st.Kind {
		case engine.StepOver:
			return Decision{Kind: DecideNothing, Seat: -1, Bill: -1, Leader: -1}, nil
		case engine.StepMove:
			return l.g.Next(), nil
		case engine.StepChoose:
			d := l.g.Next()
			d.Seat = d.Seats[len(l.votes)]
			return d, nil
		}
		in, learn, err := l.perform(st)
		if err == nil {
			err = l.apply(in)
		}
		for _, c := range learn {
			if err == nil {
				err = l.g.LearnCard(st.Deck, c[0], c[1])
			}
			if err == nil && l.follow != nil && st.To == l.followed {
				err = l.follow.LearnCard(st.Deck, c[0], c[1])
			}
		}
		if err != nil {
			return Decision{}, fmt.Errorf("the table's %s step: %w", st.Kind, err)
		}
	}
}

// Play makes seat m.Seat's move m, which must be due. A vote is one seat's of the simultaneous
// vote due, cast in the order of its seats; the votes are opened when the last is cast.
func (l *Local) Play(m Move) error {
	d, err := l.Next()
	if err != nil {
		return err
	}
	if d.Kind == DecideVote {
		if want := d.Seats[len(l.votes)]; m.Kind != MoveVote || m.Seat != want {
			return fmt.Errorf("%s, but the game waits for seat %d's vote on %s", m, want, BillID(d.Bill))
		}
		l.votes = append(l.votes, []byte(yesNo(m.Yes)))
		if len(l.votes) < len(d.Seats) {
			return nil
		}
		in := engine.Input{Kind: engine.InChosen, Seats: d.Seats, Values: l.votes}
		for _, v := range l.votes {
			in.Refs = append(in.Refs, l.commit(v))
		}
		l.votes = nil
		return l.apply(in)
	}
	a, err := l.g.makeAction(m)
	if err != nil {
		return err
	}
	in := engine.Input{Kind: engine.InMove, Seat: m.Seat, Move: a.Move}
	for _, v := range a.Hidden {
		in.Refs = append(in.Refs, l.commit(v))
	}
	if err := l.apply(in); err != nil {
		return err
	}
	for i, ref := range in.Refs {
		if err := l.g.LearnValue(ref, a.Hidden[i]); err != nil {
			return err
		}
		if l.follow != nil && m.Seat == l.followed {
			if err := l.follow.LearnValue(ref, a.Hidden[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (l *Local) commit(v []byte) int {
	l.values = append(l.values, v)
	return len(l.values) - 1
}

// perform does a table's step with the setup's randomness: the input, and the cards dealt
// privately (position, card).
func (l *Local) perform(st engine.Step) (engine.Input, [][2]int, error) {
	s := &l.setup
	switch st.Kind {
	case engine.StepRandom:
		left := upTo(NumCorporations)
		var ints []int
		for _, c := range s.Corporations {
			i := slices.Index(left, c)
			ints, left = append(ints, i), slices.Delete(left, i, i+1)
		}
		return engine.Input{Kind: engine.InRandom, Ints: append(ints, s.First)}, nil, nil
	case engine.StepBuild:
		d := slices.Clone(st.Cards)
		for _, dc := range st.From {
			d = append(d, l.decks[dc.Deck][dc.Pos])
		}
		if st.Keep {
			d = append(slices.Clone(l.decks[st.Deck]), d...)
		}
		l.decks[st.Deck] = d
		return engine.Input{Kind: engine.InBuilt, Deck: st.Deck}, nil, nil
	case engine.StepShuffle:
		order := l.order(st.Deck)
		l.decks[st.Deck] = append(order, slices.DeleteFunc(slices.Clone(l.decks[st.Deck]),
			func(c int) bool { return slices.Contains(order, c) })...)
		return engine.Input{Kind: engine.InShuffled, Deck: st.Deck}, nil, nil
	case engine.StepDeal, engine.StepShow:
		in := engine.Input{Kind: engine.InDealt, Seat: st.Seat, Deck: st.Deck, Positions: st.Positions, To: st.To}
		var learn [][2]int
		for _, p := range st.Positions {
			if p >= len(l.decks[st.Deck]) {
				return in, nil, fmt.Errorf("deck %d has no position %d", st.Deck, p)
			}
			c := l.decks[st.Deck][p]
			if st.Kind == engine.StepDeal && st.To >= 0 {
				learn, c = append(learn, [2]int{p, c}), -1
			}
			in.Cards = append(in.Cards, c)
		}
		if st.Kind == engine.StepShow {
			in.Kind = engine.InShown
		}
		return in, learn, nil
	case engine.StepOpen:
		in := engine.Input{Kind: engine.InOpened, Seat: st.Seat, Refs: st.Refs}
		for _, r := range st.Refs {
			in.Values = append(in.Values, l.values[r])
		}
		return in, nil, nil
	}
	return engine.Input{}, nil, fmt.Errorf("a %s step is not one this game asks for", st.Kind)
}

// order is the top of deck d after its shuffle, as the setup says.
func (l *Local) order(d int) []int {
	s := &l.setup
	switch {
	case d < deckFavors:
		var top []int
		for _, f := range s.FavorDeck {
			if int(favors[f].Type) == d {
				top = append(top, f)
			}
		}
		return top
	case d == deckFavors:
		return slices.Clone(s.FavorDeck)
	case d == deckPleasures:
		return slices.Clone(s.PleasureDeck)
	case d == deckShareholder:
		return slices.Concat(s.Shareholders...)
	}
	return slices.Clone(s.Chaos[d-deckChaos])
}
