// Package bot holds computer players for Corruption. A bot sees only its seat's corruption.View and
// answers the decision due with one corruption.Move; it never sees another seat's face-down cards.
package bot

import (
	"math/rand/v2"

	"corruption/engine/botkit"
	"corruption/engine/corruption"
)

// Bot is a computer player.
type Bot interface {
	// Name is the bot's kind: "random", "heuristic".
	Name() string
	// Decide answers v.Next(), which must be v.Seat()'s to make. When a peek is allowed it may
	// return a MovePeek first and will be asked again for its placement.
	Decide(v corruption.View) corruption.Move
}

// kinds are every kind New accepts, and a strong bot's budgets.
var kinds = &botkit.Kinds[Bot]{List: []botkit.Kind[Bot]{
	{Name: "heuristic", Make: func(r *rand.Rand, _ int) Bot { return NewHeuristic(r) }},
	{Name: "random", Make: func(r *rand.Rand, _ int) Bot { return &Random{rng: r} }},
	{Name: "strong", Make: func(r *rand.Rand, think int) Bot { return NewStrong(r, think) }},
	{Name: "easy", Make: func(r *rand.Rand, _ int) Bot { return &Easy{Random{rng: r}} }},
}, Person: ThinkPerson, Simulate: ThinkSimulate, Seat: Player}

// Kinds lists the bot kinds simulate plays by default; the network table seats the first.
var Kinds = botkit.DefaultBots

// New makes a bot of the named kind, with its own random source seeded by seed; a strong bot
// thinks ThinkPerson playouts a decision.
func New(kind string, seed uint64) (Bot, error) { return kinds.New(kind, seed, 0) }

// Easy is the easy level: the random bot. In Corruption a heuristic bot that plays at random
// only some of the time is no easy opponent: three heuristic bots chase the same contracts, and
// a bot that goes elsewhere wins them; half random, it won 41% of 400 games against three
// heuristic bots, three quarters random 32%, all random 13% (docs/PERFORMANCE.md).
type Easy struct{ Random }

func (b *Easy) Name() string { return "easy" }

// Random plays a random legal move: for a placement, a random card from its hand on a random
// place where that card may go.
type Random struct {
	rng *rand.Rand
}

// NewRandom makes a random bot drawing from rng.
func NewRandom(rng *rand.Rand) *Random { return &Random{rng: rng} }

func (b *Random) Name() string { return "random" }

func (b *Random) Decide(v corruption.View) corruption.Move {
	d := v.Next()
	m := corruption.Move{Seat: v.Seat()}
	switch d.Kind {
	case corruption.DecideFaceUp:
		m.Kind, m.Positions = corruption.MoveFaceUp, corruption.Positions(b.rng.IntN(64))
	case corruption.DecidePlace:
		if d.CanPeek && b.rng.IntN(4) == 0 {
			if ps := v.Peekable(); len(ps) > 0 {
				m.Kind, m.Index = corruption.MovePeek, ps[b.rng.IntN(len(ps))]
				return m
			}
		}
		var hb [10]corruption.Card
		hand := v.AppendHand(hb[:0])
		m.Kind, m.Card = corruption.MovePlace, hand[b.rng.IntN(len(hand))]
		var tb [corruption.NumContracts]corruption.Contract
		table := v.AppendTable(tb[:0])
		n := len(table)
		if m.Card.IsBribe() {
			n += corruption.NumBodies
		}
		if k := b.rng.IntN(n); k < len(table) {
			m.Spot = corruption.ContractSpot(table[k])
		} else {
			m.Spot = corruption.SwissSpot(corruption.Body(k - len(table)))
		}
	case corruption.DecideAssign:
		opts := v.AssignOptions()
		m.Kind, m.Contract = corruption.MoveAssign, opts[b.rng.IntN(len(opts))]
	case corruption.DecideKill:
		ts := v.KillTargets()
		m.Kind, m.Index = corruption.MoveKill, ts[b.rng.IntN(len(ts))]
	case corruption.DecideRemove:
		opts := v.RemoveOptions()
		if k := b.rng.IntN(len(opts) + 1); k < len(opts) {
			m.Kind, m.Index = corruption.MoveRemove, opts[k]
		} else {
			m.Kind = corruption.MovePass
		}
	}
	return m
}
