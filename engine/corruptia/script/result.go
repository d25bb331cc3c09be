package script

import (
	"encoding/hex"
	"fmt"
	"io"

	"corruption/engine"
	"corruption/engine/corruptia"
	"corruption/engine/internal/strictjson"
)

// Result is where a game stands, as `corruption replay --game corruptia --json` prints it.
// The first five keys are every game's; the rest are Corruptia's own. Hands are shown in full:
// a script has full information.
type Result struct {
	Finished    bool           `json:"finished"`
	Scores      []int          `json:"scores"`  // by seat, counting every hand in full
	Winners     []int          `json:"winners"` // empty until the game is over
	End         *End           `json:"end"`     // how the game ended; null until it is over
	Error       *ReplayError   `json:"error"`   // the entry that stopped the replay; null if none
	Round       int            `json:"round"`   // 1 to 5; 0 during the setup
	First       int            `json:"first"`   // the senator holding the presidential token
	Approval    []int          `json:"approval"`
	Employees   []int          `json:"employees"` // in each reserve
	Departments map[string]int `json:"departments"`
	Program     []PlacedBill   `json:"program"`
	Hands       [][]string     `json:"hands"`
	Pile        []string       `json:"pile"`
	DeckLeft    int            `json:"deck_left"`
	Next        *Next          `json:"next"` // null once the game is over
	Digest      string         `json:"digest"`
}

// PlacedBill is a bill of the program with its workers.
type PlacedBill struct {
	Bill      string         `json:"bill"`
	At        [2]int         `json:"at"`
	Officials map[string]int `json:"officials"` // by income: "$1": 2
	Employees []int          `json:"employees"` // by seat
}

// Next is the decision due.
type Next struct {
	Seat     int    `json:"seat"` // -1 for the votes
	Decision string `json:"decision"`
}

// End is how a game ended: why, and the script's move (counted from 1) that ended it.
type End = strictjson.End

// EndLastRound is Corruptia's one way to end: "Once the 5th round is over". The end's entry is
// the last of the fifth round's last turn (its votes, its toss, an absent senator's swap or
// pass).
const EndLastRound = "last-round"

// ReplayError is an illegal move: the script's move (counted from 1) and why the game
// refused it.
type ReplayError = strictjson.ReplayError

// Summarize describes where g stands, with every hand g knows; Run adds End and Error.
func Summarize(g *corruptia.Game) *Result {
	n := g.Players()
	pub := g.View(-1)
	r := &Result{Finished: pub.Next.Kind == corruptia.DecideNothing, Scores: make([]int, n), Winners: []int{}, Round: pub.Round,
		First: pub.First, Approval: pub.Approval, Employees: pub.Reserve, Departments: map[string]int{},
		Program: []PlacedBill{}, Hands: make([][]string, n), Pile: names(pub.Pile), DeckLeft: pub.DeckLeft}
	for s := range n {
		hand := g.View(s).Hand()
		r.Hands[s] = names(hand)
		r.Scores[s] = corruptia.Score(pub.Values, pub.Approval[s], pub.Reserve[s], hand)
	}
	if r.Finished {
		r.Winners = corruptia.Winners(r.Scores, pub.Approval)
	} else {
		r.Next = &Next{Seat: pub.Next.Seat, Decision: pub.Next.Kind.String()}
	}
	for d, v := range pub.Values {
		r.Departments[corruptia.Department(d).String()] = v
	}
	for _, p := range pub.Program {
		pb := PlacedBill{Bill: p.Bill.String(), At: [2]int{p.At.Row, p.At.Col}, Officials: map[string]int{}, Employees: make([]int, n)}
		for inc := 1; inc <= corruptia.Incomes; inc++ {
			pb.Officials[fmt.Sprintf("$%d", inc)] = p.Officials[inc]
		}
		copy(pb.Employees, p.Employees[:n])
		r.Program = append(r.Program, pb)
	}
	d := g.Digest()
	r.Digest = hex.EncodeToString(d[:])
	return r
}

func names(bs []corruptia.Bill) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.String()
	}
	return out
}

// Narrator tells a game in words, round by round, from its events: give its Event to Run or
// to a game as OnEvent. With no W, it tells nothing.
type Narrator struct {
	W     io.Writer
	round int
}

// Event tells one event.
func (n *Narrator) Event(e engine.Event) {
	if n.W == nil {
		return // a narrator with no W tells nothing
	}
	if ce, ok := e.Data.(corruptia.Event); ok && ce.Round != n.round {
		n.round = ce.Round
		fmt.Fprintf(n.W, "\n== Round %d ==\n", ce.Round)
	}
	fmt.Fprintf(n.W, "  %s\n", e.Text)
}
