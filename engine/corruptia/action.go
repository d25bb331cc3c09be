package corruptia

import (
	"fmt"

	"corruption/engine"
)

// Action is seat's engine.Action for the move m, due now: its encoding. The move is first
// tried on a copy of this node's game, and checked against what only this node knows (the
// bills of its own hand), so that a node never signs a move the others would refuse once its
// bills are shown.
func (g *Game) Action(seat int, m Move) (engine.Action, error) {
	st := g.Due()
	if st.Kind != engine.StepMove || st.Seat != seat {
		return engine.Action{}, fmt.Errorf("action: seat %d cannot move: the game waits for %s", seat, g.waits())
	}
	b, err := EncodeMove(m)
	if err != nil {
		return engine.Action{}, fmt.Errorf("action: %w", err)
	}
	if err := g.clone().Apply(engine.Input{Kind: engine.InMove, Seat: seat, Move: b}); err != nil {
		return engine.Action{}, fmt.Errorf("action: %w", err)
	}
	switch m.Kind {
	case MovePropose, MoveAmend:
		p := m.Proposal
		if held := g.known(g.hands[seat][p.Slot]); held != p.Bill {
			return engine.Action{}, fmt.Errorf("action: seat %d: %w", seat, errNotHeld(p.Bill, p.Slot, held))
		}
	case MoveNoBill:
		hand := make([]handCard, len(g.hands[seat]))
		for i, h := range g.hands[seat] {
			hand[i] = handCard{Deck: h.Deck, Pos: h.Pos, Bill: g.known(h)}
		}
		if p, ok := g.anyProposal(seat, hand); ok {
			return engine.Action{}, fmt.Errorf("action: seat %d could propose %s at %s", seat, p.Bill, p.At)
		}
	}
	return engine.Action{Move: b}, nil
}

// VoteAction is seat's engine.Action for its vote v at the StepChoose due.
func (g *Game) VoteAction(seat int, v Vote) (engine.Action, error) {
	st := g.Due()
	if st.Kind != engine.StepChoose {
		return engine.Action{}, fmt.Errorf("action: seat %d cannot vote: the game waits for %s", seat, g.waits())
	}
	if err := g.CheckChoice(seat, []byte(v.String())); err != nil {
		return engine.Action{}, fmt.Errorf("action: %w", err)
	}
	return engine.Action{Hidden: [][]byte{[]byte(v.String())}}, nil
}
