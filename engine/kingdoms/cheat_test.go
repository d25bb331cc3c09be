package kingdoms

// Cheats through the kit's interface: each input a cheating seat could send is refused by every
// node with a *engine.Fault naming that seat, and leaves every node's game as it was. The table
// here keeps one copy of the game per seat and one for an observer, each told only what its seat
// may know; a Local game, which knows everything, makes the honest inputs.

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"corruption/engine"
)

type kit struct {
	t      *testing.T
	l      *Local
	copies []*Game // by seat, then the observer
}

func newKit(t *testing.T, d deal) *kit {
	k := &kit{t: t}
	var err error
	if k.l, err = NewLocal(d.rules, d.players, d.setup(t), nil); err != nil {
		t.Fatal(err)
	}
	for range d.players + 1 {
		k.copies = append(k.copies, NewGame(d.rules, d.players, nil))
	}
	return k
}

// run performs the table's steps until a seat must decide (or, with stop, a step of that kind
// is due).
func (k *kit) run(stop ...engine.StepKind) Decision {
	k.t.Helper()
	for {
		st := k.l.g.Due()
		if st.Kind == engine.StepOver || st.Kind == engine.StepMove || st.Kind == engine.StepChoose || slices.Contains(stop, st.Kind) {
			return k.l.g.Next()
		}
		in, learn, err := k.l.perform(st)
		if err != nil {
			k.t.Fatal(err)
		}
		k.apply(in)
		for _, c := range learn {
			for _, g := range []*Game{k.l.g, k.copies[st.To]} {
				if err := g.LearnCard(st.Deck, c[0], c[1]); err != nil {
					k.t.Fatal(err)
				}
			}
		}
	}
}

// apply feeds an input the table accepts to the Local game and every copy.
func (k *kit) apply(in engine.Input) {
	k.t.Helper()
	for i, g := range append([]*Game{k.l.g}, k.copies...) {
		if err := g.Apply(in); err != nil {
			k.t.Fatalf("copy %d: %s input: %v", i-1, in.Kind, err)
		}
	}
}

// move has seat's own copy make the action for m, feeds it to every node, and tells the seat's
// copy its hidden values.
func (k *kit) move(m Move) {
	k.t.Helper()
	k.run()
	a, err := k.copies[m.Seat].Action(m)
	if err != nil {
		k.t.Fatal(err)
	}
	in := engine.Input{Kind: engine.InMove, Seat: m.Seat, Move: a.Move}
	for _, v := range a.Hidden {
		in.Refs = append(in.Refs, k.l.commit(v))
	}
	k.apply(in)
	for i, ref := range in.Refs {
		for _, g := range []*Game{k.l.g, k.copies[m.Seat]} {
			if err := g.LearnValue(ref, a.Hidden[i]); err != nil {
				k.t.Fatal(err)
			}
		}
	}
}

// raw is seat's move m as an input, as a cheat would send it (no hidden values).
func (k *kit) raw(m Move) engine.Input {
	k.t.Helper()
	b, err := EncodeMove(m)
	if err != nil {
		k.t.Fatal(err)
	}
	return engine.Input{Kind: engine.InMove, Seat: m.Seat, Move: b}
}

// reject feeds in to every node, each of which must refuse it as a fault of seat and stay as
// it was.
func (k *kit) reject(in engine.Input, seat int, why string) {
	k.t.Helper()
	for i, g := range k.copies {
		before, digest := g.clone(), g.Digest()
		err := g.Apply(in)
		var f *engine.Fault
		if !errors.As(err, &f) || f.Seat != seat || !strings.Contains(err.Error(), why) {
			k.t.Errorf("copy %d: %v, want a fault of seat %d that says %q", i, err, seat, why)
		}
		if g.Digest() != digest || !reflect.DeepEqual(before.p, g.p) {
			k.t.Fatalf("copy %d changed although it refused the input", i)
		}
	}
}

func TestCheats(t *testing.T) {
	chaos := deal{players: 3, rules: Advanced, favors: basicMarket,
		hands: [][]string{{"compound-interest", "offshore-ballots", "executive-retreat"}, {"power-grid", "recount", "power-play"}, {"hostile-takeover", "cement-shoes", "filibuster"}}}
	for _, tc := range []struct {
		cheat string
		run   func(t *testing.T, k *kit)
	}{
		{"a vote opened to another choice", func(t *testing.T, k *kit) {
			k.l.g.p.control[ldrOf(t, "warden")] = 0
			for _, g := range k.copies {
				g.p.control[ldrOf(t, "warden")], g.p.monarch[0] = 0, 0
			}
			k.l.g.p.monarch[0] = 0
			k.move(PlaceMove(0, favOf(t, "defense-1"), 0))
			k.move(CallMove(0, 0))
			if d := k.run(); d.Kind != DecideVote {
				t.Fatalf("%s", d)
			}
			if err := k.copies[0].CheckChoice(0, []byte("maybe")); err == nil {
				t.Errorf("the table would commit to a vote of maybe")
			}
			k.reject(engine.Input{Kind: engine.InChosen, Seats: []int{0}, Refs: []int{k.l.commit(nil)}, Values: [][]byte{[]byte("maybe")}}, 0,
				"seat 0's vote on grimhold-1 is \"maybe\"")
		}},
		{"a chaos card not in hand", func(t *testing.T, k *kit) {
			lie := ChaosMove(0, cardOf(t, "leveraged-buyout"), 0) // position 0 holds compound-interest
			lie.Leader = ldrOf(t, "chancellor")
			if _, err := k.copies[0].Action(lie); err == nil || !strings.Contains(err.Error(), "not in hand") {
				t.Errorf("its own node signs the lie: %v", err)
			}
			k.apply(k.raw(lie)) // public information cannot tell
			st := k.l.g.Due()
			if st.Kind == engine.StepOpen {
				k.apply(engine.Input{Kind: engine.InOpened, Seat: 0, Refs: st.Refs, Values: [][]byte{{2}}})
				st = k.l.g.Due()
			}
			in, _, _ := k.l.perform(st)
			k.reject(in, 0, "not the card it named")
		}},
		{"a chaos card played from the discarded position", func(t *testing.T, k *kit) {
			m := ChaosMove(0, cardOf(t, "executive-retreat"), 2)
			m.Pleasure = k.l.g.View(0).Display[0]
			k.apply(k.raw(m))
			st := k.l.g.Due()
			in, _, _ := k.l.perform(st)
			k.reject(in, 0, "which it discarded face down")
		}},
		{"a favor placed without an action left", func(t *testing.T, k *kit) {
			k.move(TakeMove(0, favOf(t, "freedom-1")))
			k.move(TakeMove(0, favOf(t, "defense-1")))
			k.run()
			k.reject(k.raw(PlaceMove(0, favOf(t, "magic-1"), 0)), 0, "seat 0 cannot move")
		}},
		{"a leader bought without the minions", func(t *testing.T, k *kit) {
			k.reject(k.raw(InfluenceMove(0, ldrOf(t, "whip"), 0, NoMinion)), 0, "it costs 1 goblin, 1 zombie")
			k.reject(k.raw(InfluenceMove(0, ldrOf(t, "chancellor"), 3, NoMinion)), 0, "may waive 0 of the cost")
		}},
		{"a discard with two hidden values", func(t *testing.T, k *kit) {}},
		{"a shareholder card shown falsely", func(t *testing.T, k *kit) {
			for _, g := range append(k.copies, k.l.g) {
				g.p.favorLen = g.p.favorNext + 1
			}
			k.move(TakeMove(0, favOf(t, "freedom-1")))
			k.run(engine.StepShow) // the last favor is drawn: the end, seat 0 shows its card...
			st := k.l.g.Due()
			if st.Kind != engine.StepShow || st.Seat != 0 {
				t.Fatalf("the game waits for %+v", st)
			}
			in, _, _ := k.l.perform(st)
			k.apply(in)
			st = k.l.g.Due() // ...and seat 1 shows seat 0's
			k.reject(engine.Input{Kind: engine.InShown, Seat: 1, Deck: st.Deck, Positions: st.Positions, Cards: in.Cards}, 1, "not a card it could hold")
			k.reject(engine.Input{Kind: engine.InShown, Seat: 1, Deck: st.Deck, Positions: st.Positions, Cards: []int{99}}, 1, "not a card it could hold")
		}},
	} {
		t.Run(tc.cheat, func(t *testing.T) {
			k := newKit(t, chaos)
			k.run()
			if tc.cheat == "a discard with two hidden values" {
				k.reject(engine.Input{Kind: engine.InMove, Seat: 0, Move: []byte{byte(MoveDiscard)}, Refs: []int{0, 1}}, 0, "carries 2 hidden values")
				k.reject(engine.Input{Kind: engine.InMove, Seat: 1, Move: []byte{byte(MoveDiscard)}, Refs: []int{0}}, 1, "seat 1 cannot move")
				return
			}
			for s := range 3 {
				k.move(DiscardMove(s, 2))
			}
			k.run()
			tc.run(t, k)
		})
	}
}
