// Package search is the thinking of the games' strong bots: information-set Monte Carlo tree
// search over determinizations, shared by every game. It uses the standard library only.
//
// What it promises:
//   - It never sees a game's hidden state. Each playout starts from a determinization that the
//     caller samples (Sample) from what the searching seat may see: a full-information game
//     that agrees with the public state and that seat's own secrets, its other hidden parts
//     drawn at random. The game-specific samplers live beside each game's bots.
//   - It is deterministic: the same seat, sampler, budget and seed give the same move on one
//     architecture (floating point may round differently on another), unless Config.Deadline
//     cuts it short. It runs on the calling goroutine only.
//   - It is bounded: Playouts playouts at most, each one sample, one descent of the tree and one
//     rollout; the tree grows by at most one node a playout.
//
// The method is single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012) in its open-loop
// form: the tree holds the searching seat's own decisions only, keyed by its moves; the other
// seats, and everything the table draws, are played by the game's rollout policy (each game's
// heuristic bot) inside the determinization. A node's statistics therefore average over every
// hidden state and every reply the policy gave, which is what the seat can know. Each child
// counts how often it was available (a move that is legal in some determinizations only), and
// UCB1 uses that count instead of its parent's visits. Moves come best first by the game's
// prior (the heuristic's ranking); progressive widening opens them in that order, one more as
// the node's visits grow as a square root, so a small budget refines the heuristic's first
// choices rather than spreading itself over every legal move. A rollout may stop early at a
// cut-off the game chooses and return its estimate of each seat's reward.
package search

import (
	"math"
	"math/rand/v2"
	"time"
)

// Game is one determinization: a full-information copy of the game that the search may play
// on. M is the game's move, comparable so that the tree can key its nodes by it.
type Game[M comparable] interface {
	// Over reports whether the game is over.
	Over() bool
	// Mover is the seat that decides now (the game is not over): every step of the table that
	// needs no seat's decision has been performed.
	Mover() int
	// Moves appends the mover's legal moves to buf, best first by the prior.
	Moves(buf []M) []M
	// Play plays m, one of Moves, for the mover, and performs the table's steps that follow.
	Play(m M)
	// Policy is the rollout policy's move for the mover.
	Policy(r *rand.Rand) M
	// Rollout plays on with the policy to the end or to a cut-off of the game's choosing, and
	// sets rewards[s], for every seat s, to its reward in [0, 1]: its share of the win at the
	// end, an estimate of it at a cut-off.
	Rollout(r *rand.Rand, rewards []float64)
}

// Config is a search's budget and knobs.
type Config struct {
	// Playouts is the budget: how many determinizations are sampled and played out.
	Playouts int
	// Deadline, when not zero, stops the search after that long even if playouts are left (a
	// cap for a slow machine; it makes the result depend on the machine's speed).
	Deadline time.Duration
	// Explore is UCB1's exploration constant (rewards are in [0, 1]).
	Explore float64
	// Widen: a node visited n times considers its first 1+Widen*sqrt(n) moves.
	Widen float64
	// Bias is the weight of the prior's ranking in the first visits of a child: the child
	// ranked r gets Bias/((r+1)(visits+1)) more.
	Bias float64
	// Seed seeds the search's randomness: the samples and the rollouts.
	Seed uint64
}

// Defaults are the knobs the strong bots use, tuned on Corruption, Corrupted Kingdoms and
// Corruptia against their heuristic bots.
var Defaults = Config{Explore: 0.5, Widen: 1.0, Bias: 0.3}

// Stats are what one search did.
type Stats struct {
	Playouts int // playouts played
	Nodes    int // nodes in the tree
	Moves    int // moves open at the root
	Visits   int // visits of the move chosen
}

type node[M comparable] struct {
	move     M
	rank     int // the move's place in the prior's order when the node was made
	visits   int
	avail    int
	total    float64
	children []*node[M]
}

func (n *node[M]) child(m M) *node[M] {
	for _, c := range n.children {
		if c.move == m {
			return c
		}
	}
	return nil
}

// Run searches seat's decision in the game that sample draws determinizations of, and returns
// the move it chose. Every sample must wait for seat's decision, with the same legal moves
// (they are seat's own and public). If seat has one legal move, or the budget is under one
// playout, it returns the prior's first move without searching.
func Run[M comparable](seat int, sample func(r *rand.Rand) Game[M], cfg Config) (M, Stats) {
	r := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0xda942042e4dd58b5))
	var st Stats
	first := sample(r)
	rootMoves := first.Moves(nil)
	if len(rootMoves) == 0 {
		var zero M
		return zero, st
	}
	st.Moves = len(rootMoves)
	if len(rootMoves) == 1 || cfg.Playouts < 1 {
		return rootMoves[0], st
	}
	root := &node[M]{}
	st.Nodes = 1
	var start time.Time
	if cfg.Deadline > 0 {
		start = time.Now()
	}
	var buf []M
	var rewards []float64
	path := make([]*node[M], 0, 16)
	for i := 0; i < cfg.Playouts; i++ {
		if cfg.Deadline > 0 && i > 0 && time.Since(start) > cfg.Deadline {
			break
		}
		g := first
		if i > 0 {
			g = sample(r)
		}
		path = append(path[:0], root)
		n := root
		for !g.Over() {
			if g.Mover() != seat {
				g.Play(g.Policy(r))
				continue
			}
			moves := rootMoves // the seat's own and public: the same in every sample
			if n != root {
				buf = g.Moves(buf[:0])
				moves = buf
			}
			if len(moves) == 1 {
				g.Play(moves[0])
				continue
			}
			c, fresh := n.choose(moves, cfg)
			if fresh {
				st.Nodes++
			}
			g.Play(c.move)
			n = c
			path = append(path, n)
			if fresh {
				break
			}
		}
		if rewards == nil {
			rewards = make([]float64, 16)
		}
		clear(rewards)
		g.Rollout(r, rewards)
		v := rewards[seat]
		for _, p := range path {
			p.visits++
			p.total += v
		}
		st.Playouts++
	}
	best := root.children[0]
	for _, c := range root.children[1:] {
		if c.visits > best.visits || (c.visits == best.visits && c.total > best.total) {
			best = c
		}
	}
	st.Visits = best.visits
	return best.move, st
}

// choose is the child of n to descend to, among moves (best first by the prior): a move not yet
// tried among the first that widening opens (fresh), or the open child with the best UCB1
// score. Every open child counts one more availability.
func (n *node[M]) choose(moves []M, cfg Config) (c *node[M], fresh bool) {
	open := 1 + int(cfg.Widen*math.Sqrt(float64(n.visits)))
	open = min(open, len(moves))
	var best *node[M]
	bestScore := math.Inf(-1)
	for rank, m := range moves[:open] {
		ch := n.child(m)
		if ch == nil {
			ch = &node[M]{move: m, rank: rank}
			n.children = append(n.children, ch)
			ch.avail++
			return ch, true
		}
		ch.avail++
		s := ch.total/float64(ch.visits) +
			cfg.Explore*math.Sqrt(math.Log(float64(ch.avail))/float64(ch.visits)) +
			cfg.Bias/float64((ch.rank+1)*(ch.visits+1))
		if s > bestScore {
			best, bestScore = ch, s
		}
	}
	return best, false
}

// Softmax sets out[s] to seat s's share of exp(score/temp) over the first len(scores) seats: an
// estimate of each seat's chance to win from scores with luck of scale temp still to come. A
// temp of 0 or less is the win itself, shared on a tie.
func Softmax(scores []float64, temp float64, out []float64) {
	top := math.Inf(-1)
	for _, s := range scores {
		top = max(top, s)
	}
	if temp <= 0 {
		k := 0
		for _, s := range scores {
			if s == top {
				k++
			}
		}
		for i, s := range scores {
			out[i] = 0
			if s == top {
				out[i] = 1 / float64(k)
			}
		}
		return
	}
	sum := 0.0
	for i, s := range scores {
		out[i] = math.Exp((s - top) / temp)
		sum += out[i]
	}
	for i := range scores {
		out[i] /= sum
	}
}
