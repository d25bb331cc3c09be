package kingdoms

import (
	"fmt"
	"slices"

	"corruption/engine"
)

// DecisionKind is the kind of decision due.
type DecisionKind uint8

const (
	DecideNothing DecisionKind = iota // the table acts (draws, deals, shows), or the game is over
	DecideDiscard                     // Seat discards a chaos card face down
	DecideAction                      // Seat takes an action or plays a chaos card (Actions left)
	DecideSteal                       // Seat may answer the steal of its Leader with a chaos card, or pass
	DecideAnswer                      // Seat may answer the revealed votes on Bill with a chaos card, or pass
	DecideVote                        // Seats vote on Bill, in secret and all at once
	DecidePick                        // Seat takes a guilty pleasure after Bill passed
)

var decisionNames = [...]string{"nothing", "discard", "action", "steal", "answer", "vote", "pick"}

// MarshalText writes the name String gives, for JSON.
func (k DecisionKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

func (k DecisionKind) String() string { return engine.KindName(decisionNames[:], uint8(k), "decision") }

// Decision is who must decide what.
type Decision struct {
	Kind    DecisionKind `json:"kind"`
	Seat    int          `json:"seat"`    // -1 for DecideVote and DecideNothing
	Seats   []int        `json:"seats"`   // DecideVote
	Actions int          `json:"actions"` // DecideAction
	Bill    int          `json:"bill"`    // the bill voted on (-1)
	Leader  int          `json:"leader"`  // DecideSteal (-1)
}

func (d Decision) String() string {
	switch d.Kind {
	case DecideDiscard:
		return fmt.Sprintf("seat %d to discard a chaos card", d.Seat)
	case DecideAction:
		return fmt.Sprintf("seat %d's action (%d left)", d.Seat, d.Actions)
	case DecideSteal:
		return fmt.Sprintf("seat %d to answer the steal of %s or pass", d.Seat, leaderID(d.Leader))
	case DecideAnswer:
		return fmt.Sprintf("seat %d to answer the votes on %s or pass", d.Seat, BillID(d.Bill))
	case DecideVote:
		return fmt.Sprintf("the votes of seats %v on %s", d.Seats, BillID(d.Bill))
	case DecidePick:
		return fmt.Sprintf("seat %d to take a guilty pleasure", d.Seat)
	}
	return "the table"
}

// Next is the decision due now.
func (g *Game) Next() Decision {
	st := g.Due()
	d := Decision{Kind: DecideNothing, Seat: -1, Bill: int(g.p.vote.bill), Leader: -1}
	switch {
	case st.Kind == engine.StepChoose:
		d.Kind, d.Seats = DecideVote, st.Seats
	case st.Kind != engine.StepMove:
	case int(g.p.stage) < len(g.steps):
		d.Kind, d.Seat = DecideDiscard, st.Seat
	case len(g.p.tasks) == 0:
		d.Kind, d.Seat, d.Actions = DecideAction, st.Seat, int(g.p.actions)
	default:
		d.Seat = st.Seat
		switch g.p.tasks[0].kind {
		case taskStealAnswer:
			d.Kind, d.Leader = DecideSteal, int(g.p.steal.leader)
		case taskAnswer:
			d.Kind = DecideAnswer
		default:
			d.Kind = DecidePick
		}
	}
	return d
}

// Action is the engine.Action for seat m.Seat's move m, due now: a vote becomes the choice's
// hidden value, a discard the move's hidden value, a pass the empty action. The move is first
// tried on a copy of this node's game, and a chaos card is checked against the hand this node
// knows, so that a node never signs an illegal move.
func (g *Game) Action(m Move) (engine.Action, error) {
	a, err := g.makeAction(m)
	if err != nil {
		return engine.Action{}, fmt.Errorf("action: %w", err)
	}
	return a, nil
}

func (g *Game) makeAction(m Move) (engine.Action, error) {
	d := g.Next()
	switch {
	case m.Kind == MoveVote:
		if d.Kind != DecideVote || !slices.Contains(d.Seats, m.Seat) {
			return engine.Action{}, fmt.Errorf("seat %d has no vote to cast: the game waits for %s", m.Seat, d)
		}
		v := voteNo
		if m.Yes {
			v = voteYes
		}
		return engine.Action{Hidden: [][]byte{append([]byte(nil), v...)}}, nil
	case d.Kind == DecideNothing || d.Kind == DecideVote || d.Seat != m.Seat:
		return engine.Action{}, fmt.Errorf("seat %d cannot move: the game waits for %s", m.Seat, d)
	case m.Kind == MoveDiscard:
		if d.Kind != DecideDiscard || m.Pos < 0 || m.Pos >= ChaosDrawn(g.n) {
			return engine.Action{}, fmt.Errorf("seat %d cannot discard position %d now", m.Seat, m.Pos)
		}
		return engine.Action{Move: []byte{byte(MoveDiscard)}, Hidden: [][]byte{{byte(m.Pos)}}}, nil
	}
	if m.Kind == MoveChaos {
		if err := g.inHand(m.Seat, m.Card, m.Pos); err != nil {
			return engine.Action{}, fmt.Errorf("seat %d cannot play %s: %v", m.Seat, chaosID(m.Card), err)
		}
	}
	b, err := EncodeMove(m)
	if err != nil {
		return engine.Action{}, err
	}
	t := g.clone()
	if err := t.apply(g.Due(), engine.Input{Kind: engine.InMove, Seat: m.Seat, Move: b}); err != nil {
		return engine.Action{}, err
	}
	return engine.Action{Move: b}, nil
}

// inHand checks, as far as this node knows, that seat holds card at pos and did not discard it.
func (g *Game) inHand(seat, card, pos int) error {
	if pos < 0 || pos >= ChaosDrawn(g.n) {
		return fmt.Errorf("no card of its hand is at position %d", pos)
	}
	if c := g.k.chaos[seat][pos]; c >= 0 && int(c) != card {
		return fmt.Errorf("the card at position %d of its hand is %s: a chaos card not in hand", pos, chaosID(int(c)))
	}
	if int(g.k.discard[seat]) == pos {
		return fmt.Errorf("it discarded the card at position %d", pos)
	}
	return nil
}

// Legal lists seat's legal moves now, as far as this node knows: a chaos card is listed only
// where this node knows the seat holds it. The list is empty when seat has nothing to decide.
func (g *Game) Legal(seat int) []Move {
	d := g.Next()
	var out []Move
	switch {
	case d.Kind == DecideVote && slices.Contains(d.Seats, seat):
		return []Move{VoteMove(seat, true), VoteMove(seat, false)}
	case d.Seat != seat:
		return nil
	case d.Kind == DecideDiscard:
		for pos := range ChaosDrawn(g.n) {
			out = append(out, DiscardMove(seat, pos))
		}
		return out
	case d.Kind == DecideAction:
		out = g.legalActions(seat)
		out = append(out, g.legalChaos(seat, OnTurn)...)
	case d.Kind == DecideSteal:
		out = append([]Move{PassMove(seat)}, g.legalChaos(seat, OnSteal)...)
	case d.Kind == DecideAnswer:
		out = append([]Move{PassMove(seat)}, g.legalChaos(seat, OnVote)...)
	case d.Kind == DecidePick:
		out = g.legalPicks(seat)
	}
	return out
}
