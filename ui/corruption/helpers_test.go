package corruption

import (
	"testing"

	"corruption/engine"
	rules "corruption/engine/corruption"
)

// table plays Corruption on the kit by hand, the way the network table would: one copy of the
// game per seat (that seat's node), every input given to every copy, and a seat's hidden values
// learnt by its own copy only (and by a peeker's, once answered). The deck is in index order and
// seat 0 plays first: City Hall gets school and monument, the County Seat library and
// firehouse, the Capitol police and postoffice.
type table struct {
	t      *testing.T
	seats  []*rules.Game
	values map[int][]byte // every hidden value, by ref
	refs   int            // the next ref
}

func newTable(t *testing.T, n int, v rules.Variant, lbb bool) *table {
	t.Helper()
	tb := &table{t: t, values: map[int][]byte{}}
	for range n {
		g, err := rules.Rules{}.New(rules.EncodeConfig(v, lbb), n, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tb.seats = append(tb.seats, g.(*rules.Game))
	}
	tb.apply(engine.Input{Kind: engine.InRandom, Ints: []int{0}})
	tb.advance()
	return tb
}

func (tb *table) apply(in engine.Input) {
	tb.t.Helper()
	for seat, g := range tb.seats {
		if err := g.Apply(in); err != nil {
			tb.t.Fatalf("seat %d's copy refuses %s: %v", seat, in.Kind, err)
		}
	}
}

func (tb *table) learn(seat, ref int) {
	tb.t.Helper()
	if err := tb.seats[seat].LearnValue(ref, tb.values[ref]); err != nil {
		tb.t.Fatalf("seat %d cannot learn ref %d: %v", seat, ref, err)
	}
}

// advance performs the steps no seat decides (building, shuffling, dealing, opening,
// answering a peek) until a move is due or the game is over.
func (tb *table) advance() {
	tb.t.Helper()
	for {
		st := tb.seats[0].Due()
		switch st.Kind {
		case engine.StepMove, engine.StepOver:
			return
		case engine.StepBuild:
			tb.apply(engine.Input{Kind: engine.InBuilt, Deck: st.Deck})
		case engine.StepShuffle:
			tb.apply(engine.Input{Kind: engine.InShuffled, Deck: st.Deck})
		case engine.StepDeal:
			tb.apply(engine.Input{Kind: engine.InDealt, Deck: st.Deck, To: -1, Positions: st.Positions, Cards: st.Positions})
		case engine.StepOpen:
			in := engine.Input{Kind: engine.InOpened, Seat: st.Seat, Refs: st.Refs}
			for _, ref := range st.Refs {
				in.Values = append(in.Values, tb.values[ref])
			}
			tb.apply(in)
		case engine.StepAnswer:
			tb.apply(engine.Input{Kind: engine.InAnswered, Seat: st.Seat, To: st.To, Refs: st.Refs})
			tb.learn(st.To, st.Refs[0])
		default:
			tb.t.Fatalf("the table cannot perform %v", st.Kind)
		}
	}
}

// play makes the typed moves, each by the seat due.
func (tb *table) play(moves ...string) {
	tb.t.Helper()
	for _, line := range moves {
		st := tb.seats[0].Due()
		if st.Kind != engine.StepMove {
			tb.t.Fatalf("%q: the game waits for %v", line, st.Kind)
		}
		m, err := parseMove(line)
		if err != nil {
			tb.t.Fatalf("%q: %v", line, err)
		}
		m.Seat = st.Seat
		a, err := tb.seats[st.Seat].Action(m)
		if err != nil {
			tb.t.Fatalf("%q: %v", line, err)
		}
		in := engine.Input{Kind: engine.InMove, Seat: st.Seat, Move: a.Move}
		for _, h := range a.Hidden {
			tb.values[tb.refs] = h
			in.Refs = append(in.Refs, tb.refs)
			tb.refs++
		}
		tb.apply(in)
		for _, ref := range in.Refs {
			tb.learn(st.Seat, ref)
		}
		tb.advance()
	}
}

// view is seat's view of its own copy.
func (tb *table) view(seat int) rules.View { return tb.seats[seat].View(seat) }

// game is a copy of seat's game, as its node would give it to a front end.
func (tb *table) game(seat int) engine.Game { return tb.seats[seat].Clone() }
