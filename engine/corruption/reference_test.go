package corruption_test

// A reference model of the rules, written from RULES.md alone, that the property tests hold the
// engine to: it follows a game move by move and checks turn order, hands, face-up positions,
// peeks, the five awarding steps (with the decisions each step asks for, in global play order),
// the next first player and the winners.

import (
	"fmt"
	"maps"
	"slices"

	"corruption/engine/corruption"
)

type refPlay struct {
	seat int
	card corruption.Card
	spot corruption.Spot
	pos  int
	up   bool // face up by the rule
}

type refDecision struct {
	d corruption.Decision // what the engine asked
	m corruption.Move     // the answer
}

// ref is the reference model's view of a game.
type ref struct {
	cfg    corruption.Config
	round  int
	first  int
	faceUp []int // this round's face-up positions

	// the table: contracts open this round and their bodies
	table  []corruption.Contract
	body   map[corruption.Contract]corruption.Body
	dealt  int
	onHold map[corruption.Contract]bool // on the table (deferred or new)

	plays     []refPlay
	decisions []refDecision
	peeked    map[[2]int]bool // (seat, 1-based index) this round
	peekTurn  int             // len(plays) when the last peek of this round was made, or -1
	placed    []int           // cards placed this round, by seat
	bribes    []uint8         // bribes used this round, by seat (bit per bribe)
	chars     [][3]int        // characters left, by seat
	peeks     []int           // peeks left, by seat

	score, won []int
	winner     map[corruption.Contract]int
	placements [corruption.Rounds + 1][]int // placements per round and seat
}

func newRef(cfg corruption.Config) *ref {
	n := cfg.Players
	r := &ref{cfg: cfg, round: 1, first: cfg.First, body: map[corruption.Contract]corruption.Body{},
		onHold: map[corruption.Contract]bool{}, winner: map[corruption.Contract]int{},
		score: make([]int, n), won: make([]int, n), chars: make([][3]int, n), peeks: make([]int, n)}
	for seat := range r.chars {
		if cfg.Variant != corruption.Closed {
			r.chars[seat] = [3]int{1, 2, 1}
		}
		if cfg.LittleBlackBook {
			r.peeks[seat] = 2
		}
	}
	for i := range r.placements {
		r.placements[i] = make([]int, n)
	}
	r.startRound()
	return r
}

var refPositions = map[corruption.Variant][5][]int{
	corruption.Standard:     {nil, {1}, {1, 2}, {1, 2, 3}, {1, 2, 3, 4}},
	corruption.DownTheRiver: {nil, {3}, {3, 4}, {2, 3, 4}, {2, 3, 4, 5}},
	corruption.Closed:       {nil, {}, {}, {}, {}},
}

func (r *ref) startRound() {
	n := r.cfg.Players
	r.plays, r.decisions = nil, nil
	r.peeked = map[[2]int]bool{}
	r.peekTurn = -1
	r.placed, r.bribes = make([]int, n), make([]uint8, n)
	r.faceUp = refPositions[r.cfg.Variant][r.round]
	// Deal the next six: the 1st and 2nd under City Hall, and so on.
	for i := 0; i < 6; i++ {
		c := r.cfg.Deck[r.dealt]
		r.dealt++
		r.body[c] = corruption.Body(i / 2)
		r.onHold[c] = true
	}
	r.table = r.table[:0]
	for b := corruption.Body(0); b < corruption.NumBodies; b++ {
		for _, c := range r.cfg.Deck[:r.dealt] {
			if r.onHold[c] && r.body[c] == b {
				r.table = append(r.table, c)
			}
		}
	}
}

// clone is an independent copy of the model.
func (r *ref) clone() *ref {
	c := *r
	c.table = slices.Clone(r.table)
	c.body = maps.Clone(r.body)
	c.onHold = maps.Clone(r.onHold)
	c.plays = slices.Clone(r.plays)
	c.decisions = slices.Clone(r.decisions)
	c.peeked = maps.Clone(r.peeked)
	c.placed = slices.Clone(r.placed)
	c.bribes = slices.Clone(r.bribes)
	c.chars = slices.Clone(r.chars)
	c.peeks = slices.Clone(r.peeks)
	c.score = slices.Clone(r.score)
	c.won = slices.Clone(r.won)
	c.winner = maps.Clone(r.winner)
	for i := range c.placements {
		c.placements[i] = slices.Clone(r.placements[i])
	}
	return &c
}

// turn is the seat to place now.
func (r *ref) turn() int { return (r.first + len(r.plays)) % r.cfg.Players }

// move checks one move the engine accepted, made when the engine asked d. It returns an error
// when the rules say the move was illegal or was not the decision due.
func (r *ref) move(d corruption.Decision, m corruption.Move) error {
	switch m.Kind {
	case corruption.MoveFaceUp:
		if r.cfg.Variant != corruption.FreeStud || m.Seat != r.first || len(r.plays) > 0 || r.faceUp != nil {
			return fmt.Errorf("a face-up choice by seat %d is not due", m.Seat)
		}
		r.faceUp = m.Positions.List()
	case corruption.MovePeek:
		i := m.Index - 1
		switch {
		case !r.cfg.LittleBlackBook || r.peeks[m.Seat] == 0:
			return fmt.Errorf("seat %d has no peek", m.Seat)
		case m.Seat != r.turn() || len(r.plays) == 6*r.cfg.Players:
			return fmt.Errorf("seat %d peeks out of turn", m.Seat)
		case i < 0 || i >= len(r.plays):
			return fmt.Errorf("peek at card %d of %d", m.Index, len(r.plays))
		case r.plays[i].seat == m.Seat || r.plays[i].spot.IsSwiss() || r.plays[i].up:
			return fmt.Errorf("seat %d peeks at card %d: own, Swiss or face up", m.Seat, m.Index)
		}
		if r.peekTurn == len(r.plays) {
			return fmt.Errorf("seat %d peeks twice in a turn", m.Seat)
		}
		r.peeks[m.Seat]--
		r.peeked[[2]int{m.Seat, m.Index}] = true
		r.peekTurn = len(r.plays)
	case corruption.MovePlace:
		if r.cfg.Variant == corruption.FreeStud && r.faceUp == nil {
			return fmt.Errorf("a card before the face-up choice")
		}
		seat, c := m.Seat, m.Card
		switch {
		case len(r.plays) == 6*r.cfg.Players:
			return fmt.Errorf("a 7th card")
		case seat != r.turn():
			return fmt.Errorf("seat %d places out of turn (seat %d's turn)", seat, r.turn())
		case m.Spot.IsSwiss() && !c.IsBribe():
			return fmt.Errorf("seat %d places %s on %s", seat, c, m.Spot)
		case !m.Spot.IsSwiss() && !slices.Contains(r.table, m.Spot.Contract()):
			return fmt.Errorf("seat %d places under %s, not on the table", seat, m.Spot)
		case c.IsBribe() && r.bribes[seat]&(1<<(c-corruption.Bribe1000)) != 0:
			return fmt.Errorf("seat %d plays its %s twice in round %d", seat, c, r.round)
		case c.IsCharacter() && r.chars[seat][c-corruption.DA] == 0:
			return fmt.Errorf("seat %d plays a %s it does not have", seat, c)
		case !c.IsBribe() && !c.IsCharacter():
			return fmt.Errorf("seat %d plays card %d", seat, c)
		}
		if c.IsBribe() {
			r.bribes[seat] |= 1 << (c - corruption.Bribe1000)
		} else {
			r.chars[seat][c-corruption.DA]--
		}
		r.placed[seat]++
		r.placements[r.round][seat]++
		pos := r.placed[seat]
		r.plays = append(r.plays, refPlay{seat: seat, card: c, spot: m.Spot, pos: pos,
			up: slices.Contains(r.faceUp, pos) && !m.Spot.IsSwiss()})
	case corruption.MoveAssign, corruption.MoveKill, corruption.MoveRemove, corruption.MovePass:
		if len(r.plays) != 6*r.cfg.Players {
			return fmt.Errorf("%s before the end of corruption", m.Kind)
		}
		r.decisions = append(r.decisions, refDecision{d, m})
	default:
		return fmt.Errorf("unexpected %s", m.Kind)
	}
	return nil
}

// roundResult is what the awarding phase gave.
type roundResult struct {
	winners   map[corruption.Contract]int
	cancelled map[corruption.Contract]bool
	kills     int
}

// award resolves the awarding phase from the cards placed and the decisions the engine asked
// for, checking that the engine asked for exactly the decisions the rules call for.
func (r *ref) award() (roundResult, error) {
	res := roundResult{winners: map[corruption.Contract]int{}, cancelled: map[corruption.Contract]bool{}}
	dq := r.decisions
	pop := func(kind corruption.DecisionKind, i int) (corruption.Move, error) {
		p := r.plays[i]
		if len(dq) == 0 {
			return corruption.Move{}, fmt.Errorf("seat %d's card %d (%s on %s) calls for a %s decision; the engine asked none", p.seat, i+1, p.card, p.spot, kind)
		}
		x := dq[0]
		dq = dq[1:]
		if x.d.Kind != kind || x.d.Seat != p.seat || x.d.Index != i+1 || x.m.Seat != p.seat {
			return x.m, fmt.Errorf("the rules call for %s by seat %d on card %d; the engine asked %v, answered %v", kind, p.seat, i+1, x.d, x.m)
		}
		return x.m, nil
	}
	n := len(r.plays)
	assigned := make([]corruption.Contract, n)
	isAssigned := make([]bool, n)
	dead := make([]bool, n)
	removed := make([]bool, n)
	// 1. Swiss bribes, assigned by their owners to a contract under the same body.
	for i, p := range r.plays {
		if !p.spot.IsSwiss() {
			continue
		}
		m, err := pop(corruption.DecideAssign, i)
		if err != nil {
			return res, err
		}
		if m.Kind != corruption.MoveAssign || !slices.Contains(r.table, m.Contract) || r.body[m.Contract] != p.spot.SwissBody() {
			return res, fmt.Errorf("card %d: %v is not an assignment under %s", i+1, m, p.spot)
		}
		assigned[i], isAssigned[i] = m.Contract, true
	}
	// 2. Living hit men kill a living character under the same contract.
	for i, p := range r.plays {
		if p.card != corruption.HitMan || dead[i] {
			continue
		}
		var targets []int
		for j, q := range r.plays {
			if j != i && q.spot == p.spot && q.card.IsCharacter() && !dead[j] {
				targets = append(targets, j)
			}
		}
		switch {
		case len(targets) == 1:
			dead[targets[0]] = true
			res.kills++
		case len(targets) > 1:
			m, err := pop(corruption.DecideKill, i)
			if err != nil {
				return res, err
			}
			if m.Kind != corruption.MoveKill || !slices.Contains(targets, m.Index-1) {
				return res, fmt.Errorf("card %d: %v is not a kill among %v", i+1, m, targets)
			}
			dead[m.Index-1] = true
			res.kills++
		}
	}
	// 3. A living district attorney cancels its contract.
	for i, p := range r.plays {
		if p.card == corruption.DA && !dead[i] {
			res.cancelled[p.spot.Contract()] = true
		}
	}
	// 4. Living reporters on standing contracts remove a direct bribe, or pass.
	for i, p := range r.plays {
		if p.card != corruption.Reporter || dead[i] || res.cancelled[p.spot.Contract()] {
			continue
		}
		var opts []int
		for j, q := range r.plays {
			if q.spot == p.spot && q.card.IsBribe() && !removed[j] {
				opts = append(opts, j)
			}
		}
		if len(opts) == 0 {
			continue
		}
		m, err := pop(corruption.DecideRemove, i)
		if err != nil {
			return res, err
		}
		switch {
		case m.Kind == corruption.MovePass:
		case m.Kind == corruption.MoveRemove && slices.Contains(opts, m.Index-1):
			removed[m.Index-1] = true
		default:
			return res, fmt.Errorf("card %d: %v is neither a pass nor a removal among %v", i+1, m, opts)
		}
	}
	if len(dq) != 0 {
		return res, fmt.Errorf("the engine asked %d decisions the rules do not call for, first %v", len(dq), dq[0].d)
	}
	// 5. The highest sum wins; a tie for the highest, or no bribe, defers.
	for _, c := range r.table {
		if res.cancelled[c] {
			continue
		}
		sums := make([]int, r.cfg.Players)
		for i, p := range r.plays {
			switch {
			case p.spot == corruption.ContractSpot(c) && p.card.IsBribe() && !removed[i]:
				sums[p.seat] += p.card.Value()
			case isAssigned[i] && assigned[i] == c:
				sums[p.seat] += p.card.Value() / 2
			}
		}
		best := slices.Max(sums)
		if best > 0 && count(sums, best) == 1 {
			res.winners[c] = slices.Index(sums, best)
		}
	}
	return res, nil
}

func count(xs []int, x int) int {
	k := 0
	for _, y := range xs {
		if y == x {
			k++
		}
	}
	return k
}

// endRound applies the round's result and starts the next round (or ends the game). It returns
// the next round's first player (-1 after round 4).
func (r *ref) endRound(res roundResult) int {
	for c, seat := range res.winners {
		r.winner[c] = seat
		r.onHold[c] = false
		r.score[seat] += c.Value()
		r.won[seat]++
	}
	if r.round == corruption.Rounds {
		return -1
	}
	// The highest total value; then more contracts; then clockwise from the first player.
	best := r.first
	for k := 1; k < r.cfg.Players; k++ {
		s := (r.first + k) % r.cfg.Players
		if r.score[s] > r.score[best] || r.score[s] == r.score[best] && r.won[s] > r.won[best] {
			best = s
		}
	}
	r.first = best
	r.round++
	r.startRound()
	return best
}

// winners are the seats with the highest total value, then the most contracts.
func (r *ref) winners() []int {
	var out []int
	for s := range r.score {
		if len(out) == 0 || r.score[s] > r.score[out[0]] || r.score[s] == r.score[out[0]] && r.won[s] > r.won[out[0]] {
			out = []int{s}
		} else if r.score[s] == r.score[out[0]] && r.won[s] == r.won[out[0]] {
			out = append(out, s)
		}
	}
	return out
}

// visible reports whether seat may see card i (1-based) during corruption: its own, face up
// by the rule, or peeked at by seat.
func (r *ref) visible(seat, i int) bool {
	p := r.plays[i-1]
	return p.seat == seat || p.up || r.peeked[[2]int{seat, i}]
}
