package corruptia_test

// Rule tests: negotiation, voting, resolution, public opinion and the absent senators' swaps
// (the rule sheet's phases 3 to 6), on tables the bots bring to the state wanted.

import (
	"slices"
	"testing"

	"corruption/engine"
	"corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
)

func pass(k *kit, seat int) {
	k.t.Helper()
	if err := k.move(seat, corruptia.Move{Kind: corruptia.MovePass}); err != nil {
		k.t.Fatal(err)
	}
}

// passAll passes the responses due until the active senator decides.
func passAll(k *kit) {
	k.t.Helper()
	for k.next().Kind == corruptia.DecideRespond {
		pass(k, k.next().Seat)
	}
}

// TestOffers: another senator offers employees of its reserve, no more than it holds; the
// active senator's amendment may use them; an approved bill takes them from their reserve, a
// rejected one leaves them there; amendments end at the table's bound, then the vote must be
// called.
func TestOffers(t *testing.T) {
	for _, approve := range []bool{true, false} {
		k := find(t, 3, func(k *kit) bool {
			d := k.next()
			v := k.obs().View(-1)
			return d.Kind == corruptia.DecideRespond && v.Reserve[d.Seat] == 3 && v.Offers[d.Seat] == 0 && v.AmendsLeft == 3
		})
		r, active := k.next().Seat, k.obs().View(-1).Active
		for i := range 3 {
			if err := k.move(r, corruptia.Move{Kind: corruptia.MoveOffer}); err != nil {
				t.Fatalf("offer %d: %v", i+1, err)
			}
		}
		wantFault(t, k.move(r, corruptia.Move{Kind: corruptia.MoveOffer}), r, "all 3 in its reserve are offered")
		passAll(k)
		av := k.games[active].View(active)
		var amend corruptia.Proposal
		found := false
		for _, p := range av.Proposals(nil) {
			if !found && countWorker(p, employee(r)) == 2 {
				amend, found = p, true
			}
		}
		if !found {
			t.Fatal("no amendment uses two offered employees")
		}
		for i := range 3 {
			a, err := k.games[active].Action(active, corruptia.Move{Kind: corruptia.MoveAmend, Proposal: amend})
			if err != nil {
				t.Fatalf("amendment %d: %v", i+1, err)
			}
			k.mustApply(engine.Input{Kind: engine.InMove, Seat: active, Move: a.Move})
			k.table()
			passAll(k)
		}
		wantFault(t, k.move(active, corruptia.Move{Kind: corruptia.MoveAmend, Proposal: amend}), active, "must call the vote")
		if err := k.move(active, corruptia.Move{Kind: corruptia.MoveCall}); err != nil {
			t.Fatal(err)
		}
		progLen := len(k.obs().View(-1).Program)
		vote := corruptia.VoteNo
		if approve {
			vote = corruptia.VoteYes
		}
		if err := k.votes(slices.Repeat([]corruptia.Vote{vote}, 3)...); err != nil {
			t.Fatal(err)
		}
		v := k.obs().View(-1)
		switch {
		case approve && (v.Reserve[r] != 1 || len(v.Program) != progLen+1 || v.Program[progLen].Employees[r] != 2):
			t.Fatalf("approved: seat %d keeps %d employees, the new bill has %v", r, v.Reserve[r], v.Program[len(v.Program)-1].Employees)
		case !approve && (v.Reserve[r] != 3 || len(v.Program) != progLen):
			t.Fatalf("rejected: seat %d keeps %d employees, the program has %d bills (was %d)", r, v.Reserve[r], len(v.Program), progLen)
		case v.Offers[r] != 0:
			t.Fatalf("the offers outlast the turn")
		}
	}
}

// TestBlackmail: a blackmail card on a senator with approval presses it to vote as demanded;
// the card leaves the game; nobody else may blackmail that senator this turn.
func TestBlackmail(t *testing.T) {
	var r, target int
	k := find(t, 4, func(k *kit) bool {
		d := k.next()
		if d.Kind != corruptia.DecideRespond {
			return false
		}
		v := k.obs().View(-1)
		for tg := range 4 {
			if tg != d.Seat && tg != v.Active && v.Holds[d.Seat][tg] && v.Holds[v.Active][tg] && v.Approval[tg] > 0 && v.Pressed[tg] == corruptia.VoteNone {
				r, target = d.Seat, tg
				return true
			}
		}
		return false
	})
	active := k.obs().View(-1).Active
	if err := k.move(r, corruptia.Move{Kind: corruptia.MoveBlackmail, Target: target, Demand: corruptia.VoteNo}); err != nil {
		t.Fatal(err)
	}
	v := k.obs().View(-1)
	if v.Holds[r][target] || v.Pressed[target] != corruptia.VoteNo || v.PressedBy[target] != r {
		t.Fatalf("after the blackmail: holds %v, pressed %v by %v", v.Holds[r][target], v.Pressed[target], v.PressedBy[target])
	}
	e := k.events[len(k.events)-1]
	if e.Kind != corruptia.EventBlackmail || e.Title != corruptia.BlackmailTitle(r, target, 4) {
		t.Fatalf("told %s", e)
	}
	wantFault(t, k.move(r, corruptia.Move{Kind: corruptia.MoveBlackmail, Target: target, Demand: corruptia.VoteYes}), r, "holds no blackmail card on seat")
	passAll(k)
	wantFault(t, k.move(active, corruptia.Move{Kind: corruptia.MoveBlackmail, Target: target, Demand: corruptia.VoteYes}), active, "this turn already")
	if err := k.move(active, corruptia.Move{Kind: corruptia.MoveCall}); err != nil {
		t.Fatal(err)
	}
	v = k.obs().View(-1)
	before, die, b := v.Approval[target], v.Die, v.Proposal.Bill
	votes := slices.Repeat([]corruptia.Vote{corruptia.VoteNo}, 4)
	votes[target] = corruptia.VoteYes // ignores the blackmail
	if err := k.votes(votes...); err != nil {
		t.Fatal(err)
	}
	want := corruptia.Opinion(die, b, corruptia.VoteYes, corruptia.VoteNo, before)
	if after := k.obs().View(-1).Approval[target]; after != want.Approval || !want.Ignored {
		t.Fatalf("seat %d ignored a blackmail: approval %d -> %d, want %+v", target, before, after, want)
	}
}

// TestResolution: a yes majority puts the bill in the program with its workers, a no majority
// discards it face up and its workers stay, a tie is settled by the presidential token.
func TestResolution(t *testing.T) {
	Y, N := corruptia.VoteYes, corruptia.VoteNo
	for _, c := range []struct {
		name     string
		players  int
		votes    []corruptia.Vote
		toss     int // -1: no toss
		approved bool
	}{
		{"yes majority", 3, []corruptia.Vote{Y, Y, N}, -1, true},
		{"no majority", 3, []corruptia.Vote{N, Y, N}, -1, false},
		{"a tie, the token approves", 4, []corruptia.Vote{Y, N, Y, N}, 1, true},
		{"a tie, the token rejects", 2, []corruptia.Vote{Y, N}, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := find(t, c.players, func(k *kit) bool { return k.next().Kind == corruptia.DecideVote })
			before := k.obs().View(-1)
			p, active := *before.Proposal, before.Active
			if err := k.votes(c.votes...); err != nil {
				t.Fatal(err)
			}
			if c.toss >= 0 {
				if k.obs().Drawing() != corruptia.DrawToss {
					t.Fatal("a tie, and no toss")
				}
				k.mustApply(engine.Input{Kind: engine.InRandom, Ints: []int{c.toss}})
			}
			v := k.obs().View(-1)
			if len(v.Hands[active]) != len(before.Hands[active])-1 {
				t.Fatalf("the proposer's hand went from %d to %d bills", len(before.Hands[active]), len(v.Hands[active]))
			}
			if !c.approved {
				if len(v.Program) != len(before.Program) || v.Pile[len(v.Pile)-1] != p.Bill || !slices.Equal(v.Reserve, before.Reserve) {
					t.Fatalf("rejected %s: program %d bills, pile ends %v", p.Bill, len(v.Program), v.Pile)
				}
				return
			}
			got := v.Program[len(v.Program)-1]
			if len(v.Program) != len(before.Program)+1 || got.Bill != p.Bill || got.At != p.At || got.Workers() != 3 {
				t.Fatalf("approved %s at %s: the program ends with %+v", p.Bill, p.At, got)
			}
			for _, w := range p.Workers {
				if !w.Employee && v.Program[w.From].Officials[w.Income] >= before.Program[w.From].Officials[w.Income] {
					t.Errorf("the $%d official did not leave %s", w.Income, before.Program[w.From].Bill)
				}
			}
		})
	}
}

// TestOpinion: +1 for a yes to a bill of the people's department, +1 for a no in a
// revolution; -1 for ignoring a blackmail (an absence ignores it), -1 for an absence, so -2
// for both; never below zero.
func TestOpinion(t *testing.T) {
	Y, N, A, none := corruptia.VoteYes, corruptia.VoteNo, corruptia.VoteAbsent, corruptia.VoteNone
	culture := bill(t, "cul05")
	for _, c := range []struct {
		name           string
		die            corruptia.Die
		vote, demand   corruptia.Vote
		before, after  int
		gained, ignore bool
	}{
		{"a yes to the people's department", corruptia.Die(corruptia.Culture), Y, none, 0, 1, true, false},
		{"a yes to another department", corruptia.Die(corruptia.Economy), Y, none, 2, 2, false, false},
		{"a no to the people's department", corruptia.Die(corruptia.Culture), N, none, 2, 2, false, false},
		{"a no in a revolution", corruptia.Revolution, N, none, 0, 1, true, false},
		{"a yes in a revolution", corruptia.Revolution, Y, none, 1, 1, false, false},
		{"absent", corruptia.Die(corruptia.Culture), A, none, 2, 1, false, false},
		{"a blackmail honoured", corruptia.Die(corruptia.Defence), N, N, 1, 1, false, false},
		{"a blackmail ignored", corruptia.Die(corruptia.Defence), Y, N, 1, 0, false, true},
		{"ignored, but a yes to the people's department", corruptia.Die(corruptia.Culture), Y, N, 1, 1, true, true},
		{"absent and blackmailed: -2", corruptia.Die(corruptia.Defence), A, Y, 3, 1, false, true},
		{"absent and blackmailed, with one token: never below zero", corruptia.Revolution, A, N, 1, 0, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := corruptia.Opinion(c.die, culture, c.vote, c.demand, c.before)
			if o.Approval != c.after || o.Gained != c.gained || o.Ignored != c.ignore {
				t.Errorf("%+v, want %d tokens (gained %v, ignored %v)", o, c.after, c.gained, c.ignore)
			}
		})
	}
}

// TestAbsent: an absent senator (it needs a token) loses one and may then swap a bill of its
// hand for one of the discard pile, shown to all, in turn order from the active senator; it
// may pass.
func TestAbsent(t *testing.T) {
	var absent []int
	k := find(t, 4, func(k *kit) bool {
		if k.next().Kind != corruptia.DecideVote {
			return false
		}
		v := k.obs().View(-1)
		absent = absent[:0]
		for i := range 4 {
			if s := (v.Active + i) % 4; v.Approval[s] > 0 && v.Pressed[s] == corruptia.VoteNone {
				absent = append(absent, s)
			}
		}
		return len(absent) >= 2
	})
	absent = absent[:2]
	votes := slices.Repeat([]corruptia.Vote{corruptia.VoteYes}, 4)
	for _, s := range absent {
		votes[s] = corruptia.VoteAbsent
	}
	before := k.obs().View(-1)
	if err := k.votes(votes...); err != nil {
		t.Fatal(err)
	}
	k.table()
	v := k.obs().View(-1)
	for _, s := range absent {
		if v.Approval[s] != before.Approval[s]-1 {
			t.Errorf("absent seat %d: %d tokens, was %d", s, v.Approval[s], before.Approval[s])
		}
	}
	if d := k.next(); d.Kind != corruptia.DecideSwap || d.Seat != absent[0] {
		t.Fatalf("then %s, want seat %d's swap", d, absent[0])
	}
	s := absent[0]
	own := k.games[s].View(s)
	give, take := own.Hand()[0], v.Pile[0]
	if err := k.move(s, corruptia.Move{Kind: corruptia.MoveSwap, Slot: 0, Take: take}); err != nil {
		t.Fatal(err)
	}
	k.table()
	v = k.obs().View(-1)
	if !slices.Contains(v.Pile, give) || slices.Contains(v.Pile, take) || v.Hands[s][len(v.Hands[s])-1] != take {
		t.Fatalf("seat %d gave up %s and took %s: pile %v, hand as all see it %v", s, give, take, v.Pile, v.Hands[s])
	}
	if d := k.next(); d.Kind != corruptia.DecideSwap || d.Seat != absent[1] {
		t.Fatalf("then %s, want seat %d's swap", d, absent[1])
	}
	wantFault(t, k.move(absent[1], corruptia.Move{Kind: corruptia.MoveSwap, Slot: 0, Take: notInPile(v)}), absent[1], "not in the discard pile")
	pass(k, absent[1])
	if d := k.next(); d.Kind == corruptia.DecideSwap {
		t.Fatalf("a third swap: %s", d)
	}
}

func notInPile(v *corruptia.View) corruptia.Bill {
	for b := corruptia.Bill(0); ; b++ {
		if !slices.Contains(v.Pile, b) {
			return b
		}
	}
}

// TestNoBill: a senator that has no bill it may propose shows its hand and its turn ends; one
// that says so falsely is at fault once its hand is shown (and its own node never says it).
func TestNoBill(t *testing.T) {
	k := find(t, 3, func(k *kit) bool { return k.next().Kind == corruptia.DecidePropose })
	a := k.next().Seat
	if _, err := k.games[a].Action(a, corruptia.Move{Kind: corruptia.MoveNoBill}); err == nil {
		t.Fatal("a node with a bill to propose made a no-bill move")
	}
	if err := k.move(a, corruptia.Move{Kind: corruptia.MoveNoBill}); err != nil {
		t.Fatal(err)
	}
	st := k.due()
	if st.Kind != engine.StepShow || st.Seat != a {
		t.Fatalf("then %+v, want seat %d to show its hand", st, a)
	}
	wantFault(t, k.apply(engine.Input{Kind: engine.InShown, Seat: a, Deck: st.Deck, Positions: st.Positions, Cards: k.cards(st)}), a, "could propose")

	k = find(t, 4, func(k *kit) bool {
		d := k.next()
		return d.Kind == corruptia.DecidePropose && len(k.games[d.Seat].View(d.Seat).Proposals(nil)) == 0
	})
	a = k.next().Seat
	turn := k.obs().View(-1)
	k.bot()
	k.tableStep()
	if e := k.events[len(k.events)-1]; !slices.ContainsFunc(k.events, func(e corruptia.Event) bool { return e.Kind == corruptia.EventNoBill && e.Seat == a }) {
		t.Fatalf("seat %d had no bill to propose; last told: %s", a, e)
	}
	if v := k.obs().View(-1); v.Active == a && v.Round == turn.Round || len(v.Hands[a]) != len(turn.Hands[a]) {
		t.Fatalf("after seat %d's turn with no bill: active %d, %d bills in its hand", a, v.Active, len(v.Hands[a]))
	}
}

func countWorker(p corruptia.Proposal, w corruptia.Worker) int {
	n := 0
	for _, x := range p.Workers {
		if x == w {
			n++
		}
	}
	return n
}

// TestTokenSupply: no more than the 30 approval tokens of the box are ever held; when the
// supply runs short, the senators win theirs in turn order from the active one.
func TestTokenSupply(t *testing.T) {
	for seed := range uint64(400) {
		g, _ := corruptia.NewGame(corruptia.DefaultConfig(), 5, nil)
		h := corruptia.NewHost(g)
		c := corruptia.Seeded(seed, 3)
		bots := make([]bot.Bot, 5)
		for s := range bots {
			bots[s], _ = bot.New("heuristic", seed<<3|uint64(s))
		}
		for g.Next().Kind != corruptia.DecideNothing {
			if err := h.Run(c); err != nil {
				t.Fatal(err)
			}
			v := g.View(-1)
			held := 0
			for _, a := range v.Approval {
				held += a
			}
			if held > corruptia.TokenSupply {
				t.Fatalf("seed %d: %d tokens held", seed, held)
			}
			switch v.Next.Kind {
			case corruptia.DecideNothing:
			case corruptia.DecideVote:
				vote := corruptia.VoteYes
				if v.Die == corruptia.Revolution {
					vote = corruptia.VoteNo
				}
				pressed := slices.ContainsFunc(v.Pressed, func(p corruptia.Vote) bool { return p != corruptia.VoteNone })
				if held < corruptia.TokenSupply-2 || pressed || (v.Die != corruptia.Revolution && v.Die != corruptia.Die(v.Proposal.Bill.Department())) {
					votes := make([]corruptia.Vote, 5)
					for s := range votes {
						votes[s] = bots[s].Vote(g.View(s))
					}
					if err := h.Votes(votes); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err := h.Votes(slices.Repeat([]corruptia.Vote{vote}, 5)); err != nil {
					t.Fatal(err)
				}
				after := g.View(-1).Approval
				for i := range 5 {
					s := (v.Active + i) % 5
					want := v.Approval[s]
					if i < corruptia.TokenSupply-held {
						want++
					}
					if after[s] != want {
						t.Fatalf("seed %d: %d tokens held, all win one: seat %d (place %d from the active) has %d, want %d", seed, held, s, i, after[s], want)
					}
				}
				return
			default:
				if err := h.Move(v.Next.Seat, bots[v.Next.Seat].Decide(g.View(v.Next.Seat))); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	t.Fatal("no game came near the end of the supply")
}
