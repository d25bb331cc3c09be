package kingdoms

import (
	"encoding/binary"
	"fmt"
	"slices"

	"corruption/engine"
)

// Votes, as "Voting Mechanics" gives them: every player who controls an eligible voter votes in
// secret, all at once (a simultaneous choice); then, with chaos cards, each player who may
// answers the revealed votes; then the votes are counted and the bill resolved. A bill that
// passes gives one guilty pleasure to each player with a favor on it, in the order of their
// markers from top to bottom, with the bill's bonus; then the favors go to their owners' score
// piles, and the display is dealt anew.

// vote is the vote under way.
type vote struct {
	bill              int8 // -1 when no vote is under way
	caller            int8 // a seat, callAuto or callFinal
	nseats            int8
	seats             [MaxPlayers]int8 // the seats that vote, in turn order from the player whose turn it is
	votes             [MaxPlayers]int8 // by seat: 1 yes, 0 no, -1 not voting
	extraYes, extraNo int8             // votes added by chaos cards
	veto              bool             // a chaos card tabled the bill
	cycled            bool             // the seat picking now has used its environment bonus
}

func (v *vote) seatList() []int {
	s := make([]int, v.nseats)
	for i := range s {
		s[i] = int(v.seats[i])
	}
	return s
}

func (v *vote) append(b []byte) []byte {
	b = append(b, byte(v.bill), byte(v.caller), byte(v.nseats))
	b = appendI8s(b, v.seats[:])
	b = appendI8s(b, v.votes[:])
	return binary.LittleEndian.AppendUint32(b, uint32(uint8(v.extraYes))|uint32(uint8(v.extraNo))<<8|
		uint32(bit(v.veto))<<16|uint32(bit(v.cycled))<<24)
}

// VoteResult is how a vote ends.
type VoteResult uint8

const (
	Passed VoteResult = iota // a majority for: the bill passes into law
	Failed                   // a majority against: its favors are discarded
	Tabled                   // a tie (or a veto): the favors stay
)

func (r VoteResult) String() string { return [...]string{"passes", "fails", "is tabled"}[r] }

// voters lists the eligible voters on a bill of kingdom k: the senators at the table and k's
// leaders (its monarch votes too).
func (g *Game) voters(k int) []int {
	var ls []int
	for s := range SenateBoards(g.n) {
		ls = append(ls, senates[s].Leaders...)
	}
	return append(ls, kingdoms[k].Leaders...)
}

// startVote calls a vote on bill: the seats controlling an eligible voter vote, the seats that
// may answer do, and the vote is resolved. A bill without favors has no vote (final voting).
func (g *Game) startVote(bill, caller int) {
	p := &g.p
	if len(p.bills[bill]) == 0 {
		return
	}
	v := vote{bill: int8(bill), caller: int8(caller), votes: [MaxPlayers]int8{-1, -1, -1, -1, -1, -1}}
	k := BillKingdom(bill)
	var voting [MaxPlayers]bool
	for _, l := range g.voters(k) {
		if c := p.control[l]; c >= 0 {
			voting[c] = true
		}
	}
	if c := p.monarch[k]; c >= 0 {
		voting[c] = true
	}
	var ts []task
	for i := range g.n {
		s := (int(p.turn) + i) % g.n
		if voting[s] {
			v.seats[v.nseats], v.nseats = int8(s), v.nseats+1
		}
		if g.cfg.Chaos {
			ts = append(ts, task{kind: taskAnswer, a: int8(s)})
		}
	}
	p.vote = v
	g.emit(Event{Kind: EventCall, Seat: caller, Bill: bill, Seats: v.seatList()})
	if v.nseats > 0 {
		ts = append([]task{{kind: taskChoose}}, ts...)
	}
	g.push(append(ts, task{kind: taskResolve})...)
}

// applyVotes takes the opened votes.
func (g *Game) applyVotes(st engine.Step, in engine.Input) error {
	if !slices.Equal(in.Seats, st.Seats) || len(in.Values) != len(st.Seats) || len(in.Refs) != len(st.Seats) {
		return fmt.Errorf("votes of seats %v (%d values, %d refs), but the game waits for the votes of seats %v",
			in.Seats, len(in.Values), len(in.Refs), st.Seats)
	}
	last := g.p.lastRef
	for _, ref := range in.Refs {
		if ref <= int(last) {
			return fmt.Errorf("ref %d is not new (the last was %d)", ref, last)
		}
		last = int32(ref)
	}
	v := &g.p.vote
	for i, s := range st.Seats {
		yes, err := decodeVote(in.Values[i])
		if err != nil {
			return engine.Faultf(s, "seat %d's vote on %s is %q: %v", s, BillID(int(v.bill)), in.Values[i], err)
		}
		v.votes[s] = int8(bit(yes))
	}
	g.p.lastRef = last
	g.pop()
	votes := make([]int, g.n)
	for s := range votes {
		votes[s] = int(v.votes[s])
	}
	g.emit(Event{Kind: EventVotes, Bill: int(v.bill), Votes: votes})
	return nil
}

// CheckChoice says whether seat may vote value now: it is one of the seats voting, and value is
// "yes" or "no". The table asks before the seat commits.
func (g *Game) CheckChoice(seat int, value []byte) error {
	st := g.Due()
	if st.Kind != engine.StepChoose || !slices.Contains(st.Seats, seat) {
		return fmt.Errorf("seat %d has no vote to cast now", seat)
	}
	_, err := decodeVote(value)
	return err
}

// Tally counts the votes on the bill under way: each eligible voter a player controls votes as
// that player did; an uncontrolled kingdom leader or monarch votes yes if the bill holds a favor
// of its preferred type, else no; an uncontrolled senator votes no. Chaos cards add their votes.
func (g *Game) tally() (yes, no int) {
	p := &g.p
	v := &p.vote
	bill := int(v.bill)
	cast := func(controller int, prefers FavorType, senator bool) {
		switch {
		case controller >= 0 && v.votes[controller] == 1:
			yes++
		case controller >= 0 || senator || !g.billHas(bill, prefers):
			no++
		default:
			yes++
		}
	}
	k := BillKingdom(bill)
	for _, l := range g.voters(k) {
		cast(int(p.control[l]), leaders[l].Prefers, leaders[l].Senate >= 0)
	}
	cast(int(p.monarch[k]), kingdoms[k].Prefers, false)
	return yes + int(v.extraYes), no + int(v.extraNo)
}

// billHas reports whether bill holds a favor of type t.
func (g *Game) billHas(bill int, t FavorType) bool {
	for _, f := range g.p.bills[bill] {
		if favors[f.favor].Type == t {
			return true
		}
	}
	return false
}

// BillType is the type of bill's first favor, which decides its bonus.
func (g *Game) BillType(bill int) (FavorType, bool) {
	if len(g.p.bills[bill]) == 0 {
		return 0, false
	}
	return favors[g.p.bills[bill][0].favor].Type, true
}

// resolveVote counts the votes and resolves the bill. With bill bonuses, a freedom bill passes
// on a tie.
func (g *Game) resolveVote() {
	p := &g.p
	v := &p.vote
	bill := int(v.bill)
	yes, no := g.tally()
	t, _ := g.BillType(bill)
	r := Tabled
	switch {
	case v.veto:
	case yes > no:
		r = Passed
	case no > yes:
		r = Failed
	case g.cfg.Bonuses && t == Freedom:
		r = Passed
	}
	g.emit(Event{Kind: EventResult, Bill: bill, Yes: yes, No: no, Result: r, Veto: v.veto})
	switch r {
	case Passed:
		var ts []task
		for _, s := range g.pickOrder(bill) {
			ts = append(ts, task{kind: taskPick, a: int8(s)})
		}
		g.push(append(ts, task{kind: taskCollect}, task{kind: taskReturn}, task{kind: taskRedraw})...)
		return
	case Failed:
		for _, f := range p.bills[bill] {
			p.discards |= 1 << f.favor
		}
		g.emit(Event{Kind: EventBillDiscarded, Bill: bill, Count: len(p.bills[bill])})
		p.bills[bill] = nil
	}
	p.vote = vote{bill: -1}
}

// pickOrder lists the seats with a favor on bill in the order they take their guilty pleasures:
// the order of their (first) markers from top to bottom, or, with the house rules "even", from
// bottom to top (each seat at the place of its lowest marker).
func (g *Game) pickOrder(bill int) []int {
	var seen [MaxPlayers]bool
	var out []int
	on := g.p.bills[bill]
	for i := range on {
		if g.cfg.Even { // the house rules "even": from the bottom marker up
			i = len(on) - 1 - i
		}
		if s := on[i].seat; !seen[s] {
			seen[s] = true
			out = append(out, int(s))
		}
	}
	return out
}

// unclaimed lists the guilty pleasures left in the display, in display order.
func (g *Game) unclaimed() []int {
	var out []int
	for _, c := range g.p.display[:g.n] {
		if c >= 0 {
			out = append(out, int(c))
		}
	}
	return out
}

func (g *Game) displayed() int {
	n := 0
	for _, c := range g.p.display[:g.n] {
		if c >= 0 {
			n++
		}
	}
	return n
}

// redrawCount is how many guilty pleasures a new display takes: as many as players, or what is
// left in the deck.
func (g *Game) redrawCount() int { return min(g.n, int(g.p.gpLen-g.p.gpNext)) }

// applyReveal takes a seat's shareholder cards, shown with proof at the end.
func (g *Game) applyReveal(st engine.Step, in engine.Input) error {
	seat := st.Seat
	if in.Seat != seat || in.Deck != st.Deck || !slices.Equal(in.Positions, st.Positions) || len(in.Cards) != len(st.Positions) {
		return fmt.Errorf("seat %d showed deck %d positions %v, but the game waits for %s", in.Seat, in.Deck, in.Positions, g.waits(st))
	}
	for i, c := range in.Cards {
		if c < 0 || c >= NumShareholders || slices.Contains(in.Cards[:i], c) || g.shownBy(c) >= 0 {
			return engine.Faultf(seat, "seat %d shows shareholder card %d, which is not a card it could hold", seat, c)
		}
	}
	var types []FavorType
	for i, c := range in.Cards {
		g.p.shown[seat][i] = int8(c)
		types = append(types, shareholders[c])
	}
	g.emit(Event{Kind: EventShareholders, Seat: seat, Types: types})
	g.pop()
	return nil
}

// shownBy is the seat that showed shareholder card c, or -1.
func (g *Game) shownBy(c int) int {
	for s := range g.n {
		if slices.Contains(g.p.shown[s][:], int8(c)) {
			return s
		}
	}
	return -1
}
