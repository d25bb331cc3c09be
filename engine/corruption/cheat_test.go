package corruption_test

// Cheats through the kit's interface: each input a cheating seat (or a broken table) could
// send is refused, by every node, with a *engine.Fault naming the seat at fault (or a plain
// error when no seat's input broke the rules), and leaves every node's game as it was.

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/corruption"
)

// kitTable is a 3-player standard game fed by hand: the copies of seats 0, 1, 2 and an
// observer's (at index 3). Seat 0 leads; contracts 0..5 are dealt (school, monument; library,
// firehouse; police, postoffice).
type kitTable struct {
	t      *testing.T
	games  []*corruption.Game
	ref    int                // the next ref
	events []corruption.Event // the observer's
}

const noFault = -9 // reject: a plain error, not a *engine.Fault

func newKitTable(t *testing.T, v corruption.Variant, lbb bool) *kitTable {
	k := &kitTable{t: t}
	for i := range 4 {
		var opt engine.Options
		if i == 3 {
			opt.OnEvent = func(e engine.Event) { k.events = append(k.events, e.Data.(corruption.Event)) }
		}
		g, err := corruption.Rules{}.New(corruption.EncodeConfig(v, lbb), 3, opt)
		if err != nil {
			t.Fatal(err)
		}
		k.games = append(k.games, g.(*corruption.Game))
	}
	k.apply(engine.Input{Kind: engine.InRandom, Ints: []int{0}})
	k.apply(engine.Input{Kind: engine.InBuilt})
	k.apply(engine.Input{Kind: engine.InShuffled})
	k.apply(engine.Input{Kind: engine.InDealt, Positions: []int{0, 1, 2, 3, 4, 5}, To: -1, Cards: []int{0, 1, 2, 3, 4, 5}})
	return k
}

func (k *kitTable) apply(in engine.Input) {
	k.t.Helper()
	for i, g := range k.games {
		if err := g.Apply(in); err != nil {
			k.t.Fatalf("copy %d: %s input: %v", i, in.Kind, err)
		}
	}
	for i, g := range k.games {
		if g.Digest() != k.games[3].Digest() {
			k.t.Fatalf("after a %s input, copy %d's digest differs", in.Kind, i)
		}
	}
}

// move is seat's move m, as a raw input with refs.
func (k *kitTable) move(seat int, m corruption.Move, refs ...int) engine.Input {
	k.t.Helper()
	m.Seat = seat
	b, err := corruption.EncodeMove(m)
	if err != nil {
		k.t.Fatal(err)
	}
	return engine.Input{Kind: engine.InMove, Seat: seat, Move: b, Refs: refs}
}

func place(on corruption.Spot, c corruption.Card) corruption.Move {
	return corruption.Move{Kind: corruption.MovePlace, Spot: on, Card: c}
}

// place has seat's own copy make the action for card on spot, as its node would, feeds it to
// every copy, and tells the seat's copy its hidden value.
func (k *kitTable) place(seat int, c corruption.Card, on string) {
	k.t.Helper()
	a, err := k.games[seat].Action(corruption.Move{Kind: corruption.MovePlace, Seat: seat, Spot: spot(k.t, on), Card: c})
	if err != nil {
		k.t.Fatal(err)
	}
	in := engine.Input{Kind: engine.InMove, Seat: seat, Move: a.Move}
	if len(a.Hidden) > 0 {
		in.Refs = []int{k.ref}
		k.ref++
	}
	k.apply(in)
	for i, v := range a.Hidden {
		if err := k.games[seat].LearnValue(in.Refs[i], v); err != nil {
			k.t.Fatal(err)
		}
	}
}

// reject feeds in to the copies (all when none are named), each of which must refuse it as
// a fault of seat (or with a plain error, for noFault) and stay exactly as it was.
func (k *kitTable) reject(in engine.Input, seat int, why string, copies ...int) {
	k.t.Helper()
	if len(copies) == 0 {
		copies = []int{0, 1, 2, 3}
	}
	for _, i := range copies {
		g := k.games[i]
		before, digest := g.Clone(), g.Digest()
		err := g.Apply(in)
		var f *engine.Fault
		switch {
		case err == nil:
			k.t.Fatalf("%s: copy %d accepted it", why, i)
		case seat == noFault && errors.As(err, &f):
			k.t.Errorf("%s: copy %d: %v is a fault of seat %d, want a plain error", why, i, err, f.Seat)
		case seat != noFault && (!errors.As(err, &f) || f.Seat != seat):
			k.t.Errorf("%s: copy %d: %v, want a fault of seat %d", why, i, err, seat)
		}
		if g.Digest() != digest || !reflect.DeepEqual(before, g.Clone()) {
			k.t.Fatalf("%s: copy %d changed although it refused the input (%v)", why, i, err)
		}
	}
}

// learnFails has copy i refuse to learn value behind ref, and stay as it was.
func (k *kitTable) learnFails(i, ref int, value, want string) {
	k.t.Helper()
	g := k.games[i]
	before := g.Clone()
	if err := g.LearnValue(ref, []byte(value)); err == nil || !strings.Contains(err.Error(), want) {
		k.t.Errorf("copy %d learns ref %d as %q: %v, want an error that says %q", i, ref, value, err, want)
	}
	if !reflect.DeepEqual(before, g.Clone()) {
		k.t.Fatalf("copy %d changed although it refused ref %d as %q", i, ref, value)
	}
}

// open is the opening due, with values.
func (k *kitTable) open(values ...string) engine.Input {
	st := k.games[3].Due()
	if st.Kind != engine.StepOpen {
		k.t.Fatalf("the game waits for %+v, not an opening", st)
	}
	in := engine.Input{Kind: engine.InOpened, Seat: st.Seat, Refs: st.Refs}
	for _, v := range values {
		in.Values = append(in.Values, []byte(v))
	}
	return in
}

var (
	swissCity   = corruption.SwissSpot(corruption.City)
	school      = corruption.ContractSpot(0)
	monument    = corruption.ContractSpot(1)
	U           = corruption.CardUnknown
	placeUnseen = place(school, U)
)

func TestKitPlacementCheats(t *testing.T) {
	k := newKitTable(t, corruption.Standard, false)
	// Round 1 of standard: each seat's first card is face up, the others face down.
	k.reject(k.move(0, place(school, corruption.Bribe1000), 0), 0, "a hidden value on a face-up placement")
	k.reject(k.move(0, placeUnseen, 0), 0, "a face-up card placed face down")
	k.reject(k.move(1, place(monument, corruption.Bribe1000)), 1, "a move out of turn")
	k.reject(engine.Input{Kind: engine.InMove, Seat: 0, Move: []byte{3, 0}}, 0, "an undecodable move")
	k.reject(engine.Input{Kind: engine.InMove, Seat: 7, Move: []byte{7}}, noFault, "a move by no seat")
	k.reject(engine.Input{Kind: engine.InRandom, Ints: []int{1}}, noFault, "an input that answers no step due")
	k.place(0, corruption.Bribe1000, "school")
	k.reject(k.move(1, place(corruption.SwissSpot(corruption.County), corruption.Bribe2000)), 1, "a card shown on a Swiss account")
	k.place(1, corruption.Bribe1000, "monument")
	k.place(2, corruption.Bribe1000, "police")

	k.reject(k.move(0, place(school, corruption.Bribe2000)), 0, "a face-down card shown")
	k.reject(k.move(0, placeUnseen), 0, "a face-down placement without a ref")
	k.reject(k.move(0, placeUnseen, 0, 1), 0, "a face-down placement with two refs")
	k.reject(k.move(0, placeUnseen, -1), noFault, "a ref that is not new")

	// Seat 0 places a card face down on a Swiss account; its own node checks the card.
	k.apply(k.move(0, place(swissCity, U), 0))
	k.ref = 1
	k.learnFails(0, 0, "da", "characters go only under contracts")
	k.learnFails(0, 0, "1000", "already played its $1,000 bribe")
	k.learnFails(0, 0, "5000", "unknown card")
	k.learnFails(0, 1, "2000", "ref 1 is no face-down card")
	hand := len(k.games[0].View(0).Hand())
	digest := k.games[0].Digest()
	if err := k.games[0].LearnValue(0, []byte("2000")); err != nil {
		t.Fatal(err)
	}
	if err := k.games[0].LearnValue(0, []byte("2000")); err != nil {
		t.Errorf("learning the same card again: %v", err)
	}
	k.learnFails(0, 0, "4000", "already known as 2000")
	if p, _ := k.games[0].View(0).Play(4); p.Card != corruption.Bribe2000 || len(k.games[0].View(0).Hand()) != hand-1 || k.games[0].Digest() != digest {
		t.Errorf("after learning its card: %+v, hand %v, digest changed %t", p, k.games[0].View(0).Hand(), k.games[0].Digest() != digest)
	}
	if p, _ := k.games[3].State().PlayAt(4); p.Card != U {
		t.Errorf("the observer knows seat 0's face-down card: %+v", p)
	}

	// A node never makes an illegal action of its own.
	for _, tc := range []struct {
		seat int
		m    corruption.Move
		want string
	}{
		{1, place(corruption.SwissSpot(corruption.County), corruption.Bribe1000), "already played"},
		{1, place(monument, U), "must name the card"},
		{1, place(corruption.SwissSpot(corruption.County), corruption.DA), "characters go only under contracts"},
		{0, place(school, corruption.Bribe4000), "waits for seat 1"},
		{1, corruption.Move{Kind: corruption.MoveDeal}, "not a seat's move"},
		{1, corruption.Move{Kind: corruption.MovePeek, Index: 4}, "without the little black book"},
	} {
		tc.m.Seat = tc.seat
		if _, err := k.games[1].Action(tc.m); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Action(%v): %v, want an error that says %q", tc.m, err, tc.want)
		}
	}
	a, err := k.games[1].Action(corruption.Move{Kind: corruption.MovePlace, Seat: 1, Spot: monument, Card: corruption.Reporter})
	if want := []byte{3, 1, 0}; err != nil || !slices.Equal(a.Move, want) || len(a.Hidden) != 1 || string(a.Hidden[0]) != "reporter" {
		t.Errorf("a face-down reporter: %+v (%v), want move %v and the hidden value reporter", a, err, want)
	}
	if err := k.games[1].LearnCard(0, 0, 0); err == nil {
		t.Error("LearnCard: no error")
	}
}

func TestKitOpeningCheats(t *testing.T) {
	k := newKitTable(t, corruption.Standard, false)
	for _, turn := range [][3]string{
		{"1000 school", "1000 monument", "1000 police"},
		{"2000 swiss:city", "2000 monument", "2000 police"},
		{"hitman school", "4000 swiss:county", "4000 police"},
		{"4000 school", "reporter monument", "da police"},
		{"6000 school", "reporter monument", "8000 police"},
		{"8000 school", "10000 monument", "10000 police"},
	} {
		for seat, p := range turn {
			card, on, _ := strings.Cut(p, " ")
			c, err := corruption.ParseCard(card)
			if err != nil {
				t.Fatal(err)
			}
			k.place(seat, c, on)
		}
	}
	if st := k.games[3].Due(); st.Kind != engine.StepOpen || st.Seat != 0 || !slices.Equal(st.Refs, []int{0, 3, 6, 9, 12}) {
		t.Fatalf("after the placements the game waits for %+v, want seat 0 to open refs 0 3 6 9 12", st)
	}
	k.apply(k.open("2000", "hitman", "4000", "6000", "8000"))
	for _, tc := range []struct {
		values []string
		why    string
	}{
		{[]string{"5000", "4000", "reporter", "reporter", "10000"}, "a value that is not a card"},
		{[]string{"2000", "4000", "reporter", "reporter", "reporter"}, "a card not in hand (a third reporter)"},
		{[]string{"2000", "da", "reporter", "reporter", "10000"}, "a character on a Swiss account"},
		{[]string{"2000", "4000", "reporter", "reporter", "2000"}, "a card played twice"},
		{[]string{"1000", "4000", "reporter", "reporter", "10000"}, "a card played face up before"},
	} {
		k.reject(k.open(tc.values...), 1, tc.why)
	}
	k.reject(k.open("2000", "4000", "reporter", "reporter"), noFault, "four values for five refs")
	bad := k.open("2000", "4000", "reporter", "reporter", "10000")
	bad.Refs = []int{1, 4, 7, 10, 15}
	k.reject(bad, noFault, "refs that are not the ones due")
	k.apply(k.open("2000", "4000", "reporter", "reporter", "10000"))
	k.apply(k.open("2000", "4000", "da", "8000", "10000"))
	if st := k.games[3].Due(); st.Kind != engine.StepMove || st.Seat != 0 {
		t.Errorf("after the openings the game waits for %+v, want seat 0 to assign its Swiss bribe", st)
	}
}

func TestKitPeek(t *testing.T) {
	k := newKitTable(t, corruption.Standard, true)
	k.place(0, corruption.Bribe1000, "school")
	k.place(1, corruption.Bribe1000, "monument")
	k.place(2, corruption.Bribe1000, "police")
	k.place(0, corruption.Bribe8000, "school")
	k.apply(k.move(1, corruption.Move{Kind: corruption.MovePeek, Index: 4}))
	want := engine.Step{Kind: engine.StepAnswer, Seat: 0, To: 1, Refs: []int{0}}
	if st := k.games[3].Due(); !reflect.DeepEqual(st, want) {
		t.Fatalf("after the peek the game waits for %+v, want %+v", st, want)
	}
	k.reject(k.move(1, place(monument, U), 1), 1, "a placement before the answer")
	k.reject(engine.Input{Kind: engine.InAnswered, Seat: 0, To: 2, Refs: []int{0}}, noFault, "an answer to the wrong seat")
	k.apply(engine.Input{Kind: engine.InAnswered, Seat: 0, To: 1, Refs: []int{0}})
	digest := k.games[1].Digest()
	if err := k.games[1].LearnValue(0, []byte("8000")); err != nil {
		t.Fatal(err)
	}
	k.learnFails(1, 0, "6000", "already known as 8000")
	for i, g := range k.games {
		p, _ := g.State().PlayAt(4)
		if known := p.Card == corruption.Bribe8000; known != (i == 0 || i == 1) {
			t.Errorf("copy %d knows card 4 as %s", i, p.Card)
		}
	}
	if k.games[1].Digest() != digest {
		t.Error("learning a peeked card changed the digest")
	}
	if st := k.games[3].Due(); st.Kind != engine.StepMove || st.Seat != 1 {
		t.Errorf("after the answer the game waits for %+v, want seat 1 to place", st)
	}
}

// TestKitRoundEndsAtOpening: when the last opening of a round leaves nothing to decide, the
// round is awarded and ends within the opening input; its events keep their round.
func TestKitRoundEndsAtOpening(t *testing.T) {
	k := newKitTable(t, corruption.Closed, false)
	for _, c := range corruption.Bribes {
		for seat, on := range []string{"school", "library", "police"} {
			k.place(seat, c, on)
		}
	}
	for range 3 {
		k.apply(k.open("1000", "2000", "4000", "6000", "8000", "10000"))
	}
	if st := k.games[3].Due(); st.Kind != engine.StepDeal || k.games[3].State().Round() != 2 {
		t.Fatalf("after the openings the game waits for %+v in round %d, want round 2's deal", st, k.games[3].State().Round())
	}
	awarded := 0
	for _, e := range k.events {
		if e.Kind == corruption.EventAwarded || e.Kind == corruption.EventRevealed {
			awarded++
			if e.Round != 1 {
				t.Errorf("%s: round %d, want 1", e, e.Round)
			}
		}
	}
	if awarded != 3+18 {
		t.Errorf("%d awards and reveals told, want 3 and 18", awarded)
	}
}

func TestKitDealFaults(t *testing.T) {
	g, _ := corruption.Rules{}.New(corruption.EncodeConfig(corruption.Closed, false), 5, engine.Options{})
	if err := g.LearnValue(0, []byte("1000")); err == nil {
		t.Error("LearnValue before the game starts: no error")
	}
	for _, in := range []engine.Input{{Kind: engine.InRandom, Ints: []int{4}}, {Kind: engine.InBuilt}, {Kind: engine.InShuffled}} {
		if err := g.Apply(in); err != nil {
			t.Fatal(err)
		}
	}
	k := &kitTable{t: t, games: []*corruption.Game{g.(*corruption.Game)}}
	pos := []int{0, 1, 2, 3, 4, 5}
	k.reject(engine.Input{Kind: engine.InDealt, Positions: pos, To: -1, Cards: []int{0, 1, 2, 3, 4, 24}}, -1, "a card that is no contract", 0)
	k.reject(engine.Input{Kind: engine.InDealt, Positions: pos, To: -1, Cards: []int{0, 1, 2, 3, 4, 0}}, -1, "a contract dealt twice", 0)
	k.reject(engine.Input{Kind: engine.InDealt, Positions: pos[1:], To: -1, Cards: []int{0, 1, 2, 3, 4}}, noFault, "the wrong positions", 0)
	k.reject(engine.Input{Kind: engine.InDealt, Positions: pos, To: 2, Cards: []int{-1, -1, -1, -1, -1, -1}}, noFault, "a private deal", 0)
}
