package corruptia_test

// Cheats through the kit's interface: each input a cheating seat could send is refused, by
// every node alike, with a *engine.Fault naming that seat, and leaves every node's game as it
// was (kit.apply checks both). A seat's own node never signs such a move: Action refuses it.

import (
	"errors"
	"slices"
	"testing"

	"corruption/engine"
	"corruption/engine/corruptia"
)

// atProposal finds a table where the active senator could make a proposal that bend turns
// into a cheat, and returns it with the cheat.
func atProposal(t *testing.T, bend func(p *corruptia.Proposal, pub *corruptia.View) bool) (*kit, int, corruptia.Proposal) {
	t.Helper()
	var cheat corruptia.Proposal
	k := find(t, 3, func(k *kit) bool {
		d := k.next()
		if d.Kind != corruptia.DecidePropose {
			return false
		}
		v, pub := k.games[d.Seat].View(d.Seat), k.obs().View(-1)
		for _, p := range v.Proposals(nil) {
			if bend(&p, pub) {
				cheat = p
				return true
			}
		}
		return false
	})
	return k, k.next().Seat, cheat
}

func propose(k *kit, seat int, p corruptia.Proposal) error {
	k.t.Helper()
	return k.move(seat, corruptia.Move{Kind: corruptia.MovePropose, Proposal: p})
}

// TestCheatBillNotInHand: a proposal from a slot the hand does not have, of a bill every node
// has seen elsewhere, or of a bill other than the one the slot holds (found out when it is
// shown).
func TestCheatBillNotInHand(t *testing.T) {
	k, a, p := atProposal(t, func(p *corruptia.Proposal, pub *corruptia.View) bool {
		return pub.Hands[pub.Next.Seat][p.Slot] == corruptia.Unknown
	})
	hand := k.games[a].View(a).Hand()
	v := k.obs().View(-1)

	q := p
	q.Slot = len(hand)
	wantFault(t, propose(k, a, q), a, "which holds")

	q = p
	q.Bill = v.Pile[0]
	wantFault(t, propose(k, a, q), a, "which is in the discard pile, not in its hand")

	q = p // the same budget, a bill nobody has seen and the seat does not hold
	for b := corruptia.Bill(0); b < corruptia.NumBills; b++ {
		if b.Budget() == p.Bill.Budget() && !slices.Contains(v.Pile, b) && v.Program.Index(b) < 0 && !slices.Contains(hand, b) {
			q.Bill = b
		}
	}
	if q.Bill == p.Bill {
		t.Fatal("no bill to claim")
	}
	if _, err := k.games[a].Action(a, corruptia.Move{Kind: corruptia.MovePropose, Proposal: q}); err == nil {
		t.Fatal("the seat's own node would sign a bill it does not hold")
	}
	if err := propose(k, a, q); err != nil {
		t.Fatalf("a claim no node can check yet: %v", err)
	}
	st := k.due()
	if st.Kind != engine.StepShow || st.Seat != a {
		t.Fatalf("then %+v, want the bill shown", st)
	}
	wantFault(t, k.apply(engine.Input{Kind: engine.InShown, Seat: a, Deck: st.Deck, Positions: st.Positions, Cards: k.cards(st)}), a, "but shows")
}

// TestCheatOfficials: officials moved from a bill that does not touch the new one, or with an
// income the budget has no vacancy for, or that the bill does not have.
func TestCheatOfficials(t *testing.T) {
	for _, c := range []struct {
		name string
		bend func(p *corruptia.Proposal, pub *corruptia.View) bool
		want string
	}{
		{"from a bill that does not touch", func(p *corruptia.Proposal, pub *corruptia.View) bool {
			prog := pub.Program
			for i, w := range p.Workers {
				for j := range prog {
					if !w.Employee && !prog[j].At.Touches(p.At) && prog[j].Officials[w.Income] > 0 {
						p.Workers[i].From = j
						return true
					}
				}
			}
			return false
		}, "does not touch"},
		{"an income with no vacancy", func(p *corruptia.Proposal, pub *corruptia.View) bool {
			prog := pub.Program
			for i, w := range p.Workers {
				budget := p.Bill.Budget()
				for inc := 1; inc <= 3 && !w.Employee; inc++ {
					if !slices.Contains(budget[:], inc) && prog[w.From].Officials[inc] > 0 {
						p.Workers[i].Income = inc
						return true
					}
				}
			}
			return false
		}, "no vacancy for a $"},
		{"an income the bill has no official of", func(p *corruptia.Proposal, pub *corruptia.View) bool {
			prog := pub.Program
			budget := p.Bill.Budget()
			for i, w := range p.Workers {
				for _, inc := range budget {
					if !w.Employee && inc != w.Income && prog[w.From].Officials[inc] == 0 && countInc(p, inc) < countIn(budget[:], inc) {
						p.Workers[i].Income = inc
						return true
					}
				}
			}
			return false
		}, "0 officials of $"},
	} {
		t.Run(c.name, func(t *testing.T) {
			k, a, p := atProposal(t, c.bend)
			if _, err := k.games[a].Action(a, corruptia.Move{Kind: corruptia.MovePropose, Proposal: p}); err == nil {
				t.Fatal("the seat's own node would sign it")
			}
			wantFault(t, propose(k, a, p), a, c.want)
		})
	}
}

func countInc(p *corruptia.Proposal, inc int) int {
	n := 0
	for _, w := range p.Workers {
		if !w.Employee && w.Income == inc {
			n++
		}
	}
	return n
}

func countIn(xs []int, x int) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

// TestCheatVotes: a vote opened to a value that is not a choice, and an absence without an
// approval token.
func TestCheatVotes(t *testing.T) {
	var broke int
	k := find(t, 3, func(k *kit) bool {
		v := k.obs().View(-1)
		broke = slices.Index(v.Approval, 0)
		return k.next().Kind == corruptia.DecideVote && broke >= 0
	})
	ok := []string{"yes", "no", "yes"}
	for _, bad := range []string{"maybe", "", "YES", "yes "} {
		vs := slices.Clone(ok)
		vs[2] = bad
		wantFault(t, k.rawVotes(vs...), 2, "not a vote")
	}
	vs := slices.Clone(ok)
	vs[broke] = "absent"
	wantFault(t, k.rawVotes(vs...), broke, "absent needs a public approval token")
	if err := k.obs().CheckChoice(broke, []byte("absent")); err == nil {
		t.Fatal("CheckChoice lets a senator with no token be absent")
	}
	if _, err := k.games[broke].VoteAction(broke, corruptia.VoteAbsent); err == nil {
		t.Fatal("the seat's own node would sign an absence without a token")
	}
	if err := k.rawVotes(ok...); err != nil {
		t.Fatal(err)
	}
}

// TestCheatBlackmail: a blackmail card played on a senator with no approval.
func TestCheatBlackmail(t *testing.T) {
	var target int
	k := find(t, 3, func(k *kit) bool {
		d := k.next()
		if d.Kind != corruptia.DecideRespond {
			return false
		}
		v := k.obs().View(-1)
		target = (d.Seat + 1) % 3
		return v.Approval[target] == 0 && v.Holds[d.Seat][target]
	})
	r := k.next().Seat
	wantFault(t, k.move(r, corruptia.Move{Kind: corruptia.MoveBlackmail, Target: target, Demand: corruptia.VoteYes}), r, "has no public approval")
	wantFault(t, k.move(r, corruptia.Move{Kind: corruptia.MoveBlackmail, Target: r, Demand: corruptia.VoteYes}), r, "cannot blackmail seat")
	if _, err := k.games[r].Action(r, corruptia.Move{Kind: corruptia.MoveBlackmail, Target: target, Demand: corruptia.VoteNo}); err == nil {
		t.Fatal("the seat's own node would sign it")
	}
}

// TestCheatOutOfTurn: a move by a seat whose turn it is not, a pass where none is allowed, a
// move with hidden values, a move that does not decode; and a table's input that does not
// answer the step due is a plain error, nobody's fault.
func TestCheatOutOfTurn(t *testing.T) {
	k := find(t, 3, func(k *kit) bool { return k.next().Kind == corruptia.DecidePropose })
	a := k.next().Seat
	other := (a + 1) % 3
	wantFault(t, k.move(other, corruptia.Move{Kind: corruptia.MoveCall}), other, "cannot move")
	wantFault(t, k.move(a, corruptia.Move{Kind: corruptia.MovePass}), a, "passed")
	wantFault(t, k.move(a, corruptia.Move{Kind: corruptia.MoveOffer}), a, "waits for its proposal")
	wantFault(t, k.apply(engine.Input{Kind: engine.InMove, Seat: a, Move: []byte{2, 0}}), a, "bytes of arguments")
	wantFault(t, k.apply(engine.Input{Kind: engine.InMove, Seat: a, Move: []byte{7}, Refs: []int{5}}), a, "hidden values")
	err := k.apply(engine.Input{Kind: engine.InRandom, Ints: []int{1}})
	var f *engine.Fault
	if err == nil || errors.As(err, &f) {
		t.Fatalf("a draw where a move is due: %v, want a plain error", err)
	}
}
