package corruptia

import (
	"fmt"
	"strings"
)

// EventKind says what happened.
type EventKind uint8

const (
	EventFirst     EventKind = iota // Seat holds the presidential token first
	EventStartBill                  // Bill opens the program at At, with six officials
	EventNoFit                      // Bill does not fit the starting program and goes back into the deck
	EventRestart                    // the playable deck ran out before three starting bills fit: the setup starts again
	EventReturned                   // Bills, sent back, are shuffled into the rest of the deck
	EventDealt                      // Seat is dealt Count bills
	EventDiscarded                  // Seat discards one of its bills face down
	EventFaceUp                     // Bills go face up to the discard pile (Opening: the opening discards)
	EventRound                      // round Round begins; Seat holds the presidential token
	EventDie                        // Seat's people's die shows Die (Reroll: in round 1, R is rolled again)
	EventProposed                   // Seat proposes (Amended: amends to) Bill at At with Workers from Sources
	EventShown                      // Seat shows the bill it proposed
	EventNoBill                     // Seat has no bill it may propose: its turn ends
	EventOffer                      // Seat offers an employee for the proposal (Count offered in all)
	EventBlackmail                  // Seat plays blackmail card Title on Target: vote Vote
	EventPass                       // Seat passes
	EventCall                       // Seat calls the vote
	EventVotes                      // the votes are revealed, by seat
	EventToss                       // the presidential token is tossed: Approved or not
	EventResolved                   // Seat's Bill is approved (joins the program at At) or rejected (to the pile)
	EventApproval                   // Seat gains or loses Count approval tokens, now Approval
	EventSwap                       // Seat, absent, gives up Bill and takes Take from the pile
	EventEnd                        // the five rounds are over: hands are shown
	EventHand                       // Seat shows Bills (Final: at the end of the game)
	EventOver                       // the game is over: Scores, Winners
)

// Event is one thing that happened, for logs and front ends.
type Event struct {
	Kind     EventKind
	Round    int
	Seat     int
	Target   int
	Count    int
	Approval int
	Bill     Bill
	Take     Bill
	Bills    []Bill
	At       Cell
	Die      Die
	Vote     Vote
	Votes    []Vote
	Workers  [WorkersPerBill]Worker
	Sources  [WorkersPerBill]Bill // the bill each official comes from (Unknown for an employee)
	Near     [6]Bill              // EventStartBill, EventProposed, EventResolved: the program's bills touching At then (Program.Near)
	Title    string
	Scores   []int
	Winners  []int
	Amended  bool
	Approved bool
	Reroll   bool
	Opening  bool
	Final    bool
	Ignored  bool // EventApproval: Seat ignored a blackmail
	Gained   bool // EventApproval: Seat's vote earned a token
	Short    bool // EventApproval: but the supply of tokens was empty
}

func (e Event) String() string {
	switch e.Kind {
	case EventFirst:
		return fmt.Sprintf("seat %d holds the presidential token", e.Seat)
	case EventStartBill:
		return fmt.Sprintf("%s opens the government program at %s with six $%d officials", billWords(e.Bill), e.At, e.Bill.Income())
	case EventNoFit:
		return fmt.Sprintf("%s does not fit the starting program and goes back into the deck", billWords(e.Bill))
	case EventRestart:
		return "the deck ran out before three starting bills fit: the setup starts again"
	case EventReturned:
		return fmt.Sprintf("%s are shuffled back into the deck", billList(e.Bills))
	case EventDealt:
		return fmt.Sprintf("seat %d is dealt %d bills", e.Seat, e.Count)
	case EventDiscarded:
		return fmt.Sprintf("seat %d discards a bill face down", e.Seat)
	case EventFaceUp:
		if e.Opening {
			return fmt.Sprintf("the opening discards, shuffled, are %s", billList(e.Bills))
		}
		return fmt.Sprintf("%s are discarded face up", billList(e.Bills))
	case EventRound:
		return fmt.Sprintf("round %d: seat %d holds the presidential token", e.Round, e.Seat)
	case EventDie:
		if e.Reroll {
			return fmt.Sprintf("seat %d's people's die shows R in round 1 and is rolled again", e.Seat)
		}
		if e.Die == Revolution {
			return fmt.Sprintf("seat %d's people's die shows R: revolution", e.Seat)
		}
		return fmt.Sprintf("seat %d's people's die shows %s", e.Seat, e.Die)
	case EventProposed:
		verb := "proposes"
		if e.Amended {
			verb = "amends its proposal to"
		}
		return fmt.Sprintf("seat %d %s %s at %s with %s", e.Seat, verb, billWords(e.Bill), e.At, e.workers())
	case EventShown:
		return fmt.Sprintf("seat %d shows %s", e.Seat, billWords(e.Bill))
	case EventNoBill:
		return fmt.Sprintf("seat %d has no bill it may propose: its turn ends", e.Seat)
	case EventOffer:
		return fmt.Sprintf("seat %d offers an employee for the proposal (%d offered)", e.Seat, e.Count)
	case EventBlackmail:
		return fmt.Sprintf("seat %d plays %q on seat %d: vote %s", e.Seat, e.Title, e.Target, e.Vote)
	case EventPass:
		return fmt.Sprintf("seat %d passes", e.Seat)
	case EventCall:
		return fmt.Sprintf("seat %d calls the vote", e.Seat)
	case EventVotes:
		vs := make([]string, len(e.Votes))
		for s, v := range e.Votes {
			vs[s] = fmt.Sprintf("seat %d %s", s, v)
		}
		return "the votes: " + strings.Join(vs, ", ")
	case EventToss:
		return fmt.Sprintf("a tie: seat %d tosses the presidential token, which %s", e.Seat, map[bool]string{true: "approves", false: "rejects"}[e.Approved])
	case EventResolved:
		if e.Approved {
			return fmt.Sprintf("%s is approved and joins the program at %s", billWords(e.Bill), e.At)
		}
		return fmt.Sprintf("%s is rejected and goes to the discard pile", billWords(e.Bill))
	case EventApproval:
		switch {
		case e.Count > 0:
			return fmt.Sprintf("seat %d gains %s (%s): %d now", e.Seat, tokens(e.Count), e.reasons(), e.Approval)
		case e.Count < 0:
			return fmt.Sprintf("seat %d loses %s (%s): %d now", e.Seat, tokens(e.Count), e.reasons(), e.Approval)
		}
		return fmt.Sprintf("seat %d keeps its %s (%s)", e.Seat, tokens(e.Approval), e.reasons())
	case EventSwap:
		return fmt.Sprintf("seat %d gives up %s and takes %s from the discard pile", e.Seat, billWords(e.Bill), billWords(e.Take))
	case EventEnd:
		return "the fifth round is over: the senators show their hands"
	case EventHand:
		if e.Final {
			return fmt.Sprintf("seat %d shows its hand: %s", e.Seat, billList(e.Bills))
		}
		return fmt.Sprintf("seat %d shows its hand to prove it has no bill to propose: %s", e.Seat, billList(e.Bills))
	case EventOver:
		return fmt.Sprintf("the game is over: scores %v, %s", e.Scores, winnerWords(e.Winners))
	}
	return fmt.Sprintf("event(%d)", e.Kind)
}

func (e Event) workers() string {
	ws := make([]string, len(e.Workers))
	for i, w := range e.Workers {
		if w.Employee {
			ws[i] = fmt.Sprintf("seat %d's employee", w.From)
		} else {
			ws[i] = fmt.Sprintf("a $%d official from %s", w.Income, e.Sources[i])
		}
	}
	return strings.Join(ws, ", ")
}

func (e Event) reasons() string {
	var rs []string
	switch {
	case e.Gained && e.Vote == VoteYes:
		rs = append(rs, "a yes to the people's "+e.Die.String())
	case e.Gained:
		rs = append(rs, "a no during the revolution")
	}
	if e.Short {
		rs = append(rs, "but no token is left in the supply")
	}
	if e.Vote == VoteAbsent {
		rs = append(rs, "absent")
	}
	if e.Ignored {
		rs = append(rs, "ignored a blackmail")
	}
	return strings.Join(rs, ", ")
}

func tokens(n int) string {
	if n < 0 {
		n = -n
	}
	if n == 1 {
		return "1 approval token"
	}
	if n == 0 {
		return "no approval token"
	}
	return fmt.Sprintf("%d approval tokens", n)
}

func billWords(b Bill) string {
	if !b.Valid() {
		return b.String()
	}
	return fmt.Sprintf("%s (%s, %s)", b, b.Title(), b.Department())
}

func billList(bs []Bill) string {
	ws := make([]string, len(bs))
	for i, b := range bs {
		ws[i] = b.String()
	}
	return strings.Join(ws, ", ")
}

func winnerWords(ws []int) string {
	if len(ws) == 1 {
		return fmt.Sprintf("seat %d wins", ws[0])
	}
	s := make([]string, len(ws))
	for i, w := range ws {
		s[i] = fmt.Sprint(w)
	}
	return "seats " + strings.Join(s, " and ") + " share the win"
}
