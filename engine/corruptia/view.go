package corruptia

import (
	"fmt"
	"slices"
)

// View is what one seat may see of a game, for bots and boards: everything public, and its own
// bills. It is a copy: it does not change as the game goes on. A View for seat -1 (or any seat
// that is not at the table) is a spectator's: public information only.
type View struct {
	Seat    int // whose view this is; -1 for a spectator
	Players int
	Config  Config
	Next    Decision
	Round   int // 1 to Rounds; 0 during the setup
	First   int // this round's first player, who holds the presidential token; -1 before the draw
	Active  int // the senator whose turn it is; -1 outside turns
	Die     Die // the people's die this turn

	Program  Program
	Values   [NumDepartments]int // what each department is worth now
	Approval []int               // approval tokens, by seat
	Reserve  []int               // employees in each reserve, by seat
	Holds    [][]bool            // Holds[h][t]: h holds an unused blackmail card on t
	Hands    [][]Bill            // each hand in order; Unknown for a bill this seat may not see
	Opening  Bill                // this seat's opening discard, if it knows it
	Pile     []Bill              // the discard pile, face up, oldest first
	DeckLeft int                 // bills still to be dealt

	// The turn under way.
	Proposal   *Proposal // the proposal under negotiation, nil if none
	Offers     []int     // employees offered for it, by seat
	Pressed    []Vote    // each senator's blackmail demand this turn (VoteNone if none)
	PressedBy  []int     // and who blackmailed it
	AmendsLeft int       // amendments the active senator may still make
	Votes      []Vote    // this turn's votes once revealed, else the last vote's (VoteNone before any)
	LastBill   Bill      // the bill of the last vote (Unknown before any)
	Absent     []bool    // absent at this turn's vote, by seat
	Scores     []int     // each score now, counting the bills this seat sees

	g *Game // the game the view was taken of, for Determinize
}

// View is seat's view of the game now.
func (g *Game) View(seat int) *View {
	v := &View{Seat: seat, Players: g.n, Config: g.cfg, Next: g.Next(), Round: g.round, First: g.first,
		Active: g.t.active, Die: g.t.die, Program: slices.Clone(g.program), Values: g.program.Values(),
		Opening: Unknown, Pile: slices.Clone(g.pile), DeckLeft: g.end - g.next, LastBill: Unknown, g: g}
	if g.stage < stStart || g.stage == stRebuild || g.stage == stReshuffle {
		v.DeckLeft = g.end - g.next + len(g.returned)
	}
	if g.stage < stDie || g.stage >= stFinal {
		v.Active = -1
	}
	mine := seat >= 0 && seat < g.n
	v.Approval, v.Reserve = slices.Clone(g.approval[:g.n]), slices.Clone(g.reserve[:g.n])
	v.Holds, v.Hands = make([][]bool, g.n), make([][]Bill, g.n)
	for s := range g.n {
		v.Holds[s] = slices.Clone(g.holds[s][:g.n])
		v.Hands[s] = make([]Bill, len(g.hands[s]))
		for i, h := range g.hands[s] {
			v.Hands[s][i] = h.Bill
			if mine && s == seat {
				v.Hands[s][i] = g.known(h)
			}
		}
	}
	if mine && g.opening[seat].Deck >= 0 {
		v.Opening = g.known(g.opening[seat])
	}
	t := &g.t
	if t.proposed && g.stage >= stPropose && g.stage <= stToss {
		p := t.prop
		v.Proposal = &p
	}
	v.Offers, v.Pressed, v.PressedBy = slices.Clone(t.offers[:g.n]), slices.Clone(t.pressed[:g.n]), slices.Clone(t.pressedBy[:g.n])
	v.AmendsLeft = g.cfg.Amendments - t.amends
	last := &g.last
	if g.stage >= stToss && g.stage <= stShowSwap {
		last = t
	}
	v.Votes, v.Absent = slices.Clone(last.votes[:g.n]), make([]bool, g.n)
	if last.proposed {
		v.LastBill = last.prop.Bill
	}
	for s, vt := range v.Votes {
		v.Absent[s] = vt == VoteAbsent
	}
	v.Scores = make([]int, g.n)
	for s := range g.n {
		v.Scores[s] = Score(v.Values, v.Approval[s], v.Reserve[s], v.Hands[s])
	}
	return v
}

// Hand is this seat's hand (nil for a spectator).
func (v *View) Hand() []Bill {
	if v.Seat < 0 || v.Seat >= v.Players {
		return nil
	}
	return v.Hands[v.Seat]
}

// CheckProposal says what is wrong with p as this seat's proposal now (or its amendment, with
// the employees offered so far), or nil. It checks the bill in slot against what this seat
// knows of its hand.
func (v *View) CheckProposal(p Proposal) error {
	hand := v.Hand()
	if p.Slot < 0 || p.Slot >= len(hand) {
		return errSlot(p.Slot, len(hand))
	}
	if hand[p.Slot] != p.Bill {
		return errNotHeld(p.Bill, p.Slot, hand[p.Slot])
	}
	return CheckProposal(v.Program, p, v.Seat, v.Players, v.Reserve[v.Seat], v.offers())
}

func (v *View) offers() [MaxPlayers]int {
	var o [MaxPlayers]int
	if v.Proposal != nil {
		copy(o[:], v.Offers)
	}
	return o
}

// Proposals lists every legal proposal this seat could make now from its hand (with the
// employees offered so far, once a proposal is on the table), appended to out.
func (v *View) Proposals(out []Proposal) []Proposal {
	for slot, b := range v.Hand() {
		if b.Valid() {
			out = Proposals(v.Program, b, slot, v.Seat, v.Players, v.Reserve[v.Seat], v.offers(), out)
		}
	}
	return out
}

func errSlot(slot, n int) error {
	return fmt.Errorf("there is no slot %d in a hand of %d bills", slot, n)
}

func errNotHeld(b Bill, slot int, held Bill) error {
	return fmt.Errorf("slot %d holds %s, not %s", slot, held, b)
}
