// Package bot holds computer players for Corruptia, and Simulate, which plays many games among
// them. A bot sees only its seat's corruptia.View (its own bills, and what is public) and
// answers the decision due with a corruptia.Move, or a corruptia.Vote when the senators vote.
//
// Blackmail policies: the random bot votes at random and so ignores blackmail as often as not;
// the heuristic bot honours a blackmail unless voting otherwise is worth more to it than the
// approval token it would lose (5 points).
package bot

import (
	"math/rand/v2"

	"corruption/engine/botkit"
	"corruption/engine/corruptia"
)

// Bot is a computer player.
type Bot interface {
	// Name is the bot's kind: "random", "heuristic".
	Name() string
	// Decide answers v.Next, a move of v.Seat's: a discard, a proposal, a response, a
	// negotiation move or a swap. It returns a legal move.
	Decide(v *corruptia.View) corruptia.Move
	// Vote is v.Seat's vote on the proposal under negotiation: yes, no, or absent (with an
	// approval token).
	Vote(v *corruptia.View) corruptia.Vote
}

// kinds are every kind New accepts (botkit.Levels), and a strong bot's budgets.
var kinds = &botkit.Kinds[Bot]{List: botkit.Levels(
	func(r *rand.Rand) Bot { return &Heuristic{rng: r} }, func(r *rand.Rand) Bot { return &Random{rng: r} },
	func(r *rand.Rand, think int) Bot { return NewStrong(r, think) }, func(m botkit.Mix[Bot]) Bot { return &Easy{m} },
), Person: ThinkPerson, Simulate: ThinkSimulate, Seat: Player}

// Kinds lists the bot kinds simulate plays by default; the network table seats the first.
var Kinds = botkit.DefaultBots

// New makes a bot of the named kind, with its own random source seeded by seed; a strong bot
// thinks ThinkPerson playouts a decision.
func New(kind string, seed uint64) (Bot, error) { return kinds.New(kind, seed, 0) }

// Easy is the easy level: the heuristic bot, but half of its decisions and votes are the
// random bot's.
type Easy struct{ botkit.Mix[Bot] }

func (b *Easy) Name() string                            { return "easy" }
func (b *Easy) Decide(v *corruptia.View) corruptia.Move { return b.Pick().Decide(v) }
func (b *Easy) Vote(v *corruptia.View) corruptia.Vote   { return b.Pick().Vote(v) }

// Random plays a random legal move: a random bill of its hand at a random legal place with
// random workers, random responses, random votes.
type Random struct{ rng *rand.Rand }

func (b *Random) Name() string { return "random" }

func (b *Random) Decide(v *corruptia.View) corruptia.Move {
	switch v.Next.Kind {
	case corruptia.DecideDiscard:
		return corruptia.Move{Kind: corruptia.MoveDiscard, Slot: b.rng.IntN(len(v.Hand()))}
	case corruptia.DecidePropose:
		if p, ok := b.proposal(v); ok {
			return corruptia.Move{Kind: corruptia.MovePropose, Proposal: p}
		}
		return corruptia.Move{Kind: corruptia.MoveNoBill}
	case corruptia.DecideRespond:
		switch b.rng.IntN(5) {
		case 0:
			if v.Offers[v.Seat] < v.Reserve[v.Seat] {
				return corruptia.Move{Kind: corruptia.MoveOffer}
			}
		case 1:
			if m, ok := b.blackmail(v); ok {
				return m
			}
		}
		return corruptia.Move{Kind: corruptia.MovePass}
	case corruptia.DecideNegotiate:
		switch b.rng.IntN(6) {
		case 0:
			if p, ok := b.proposal(v); ok && v.AmendsLeft > 0 {
				return corruptia.Move{Kind: corruptia.MoveAmend, Proposal: p}
			}
		case 1:
			if m, ok := b.blackmail(v); ok {
				return m
			}
		}
		return corruptia.Move{Kind: corruptia.MoveCall}
	case corruptia.DecideSwap:
		hand := v.Hand()
		if b.rng.IntN(2) == 0 || len(v.Pile) == 0 {
			return corruptia.Move{Kind: corruptia.MovePass}
		}
		return corruptia.Move{Kind: corruptia.MoveSwap, Slot: b.rng.IntN(len(hand)), Take: v.Pile[b.rng.IntN(len(v.Pile))]}
	}
	return corruptia.Move{Kind: corruptia.MovePass}
}

// proposal is a random bill of the hand, put at a random legal place with random workers.
func (b *Random) proposal(v *corruptia.View) (corruptia.Proposal, bool) {
	hand := v.Hand()
	for _, slot := range b.rng.Perm(len(hand)) {
		ps := corruptia.Proposals(v.Program, hand[slot], slot, v.Seat, v.Players, v.Reserve[v.Seat], offers(v), nil)
		if len(ps) > 0 {
			return ps[b.rng.IntN(len(ps))], true
		}
	}
	return corruptia.Proposal{}, false
}

func (b *Random) blackmail(v *corruptia.View) (corruptia.Move, bool) {
	ts := targets(v)
	if len(ts) == 0 {
		return corruptia.Move{}, false
	}
	return corruptia.Move{Kind: corruptia.MoveBlackmail, Target: ts[b.rng.IntN(len(ts))], Demand: corruptia.VoteYes + corruptia.Vote(b.rng.IntN(2))}, true
}

func (b *Random) Vote(v *corruptia.View) corruptia.Vote {
	k := 2
	if v.Approval[v.Seat] > 0 {
		k = 3
	}
	return corruptia.VoteYes + corruptia.Vote(b.rng.IntN(k))
}

// offers are the employees offered for the proposal under negotiation, by seat.
func offers(v *corruptia.View) [corruptia.MaxPlayers]int {
	var o [corruptia.MaxPlayers]int
	if v.Proposal != nil {
		copy(o[:], v.Offers)
	}
	return o
}

// targets are the senators v.Seat may blackmail now.
func targets(v *corruptia.View) []int {
	var ts []int
	for t := range v.Players {
		if t != v.Seat && v.Holds[v.Seat][t] && v.Approval[t] > 0 && v.Pressed[t] == corruptia.VoteNone {
			ts = append(ts, t)
		}
	}
	return ts
}
