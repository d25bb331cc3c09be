// Package bot holds computer players for Corrupted Kingdoms. A bot sees only its seat's
// kingdoms.View (public information, its own shareholder and chaos cards) and answers the
// decision due with one kingdoms.Move. Player makes a bot an engine.Player for the table kit;
// Simulate plays many games among bots in memory.
package bot

import (
	"math/rand/v2"

	"corruption/engine"
	"corruption/engine/botkit"
	"corruption/engine/kingdoms"
)

// Bot is a computer player.
type Bot interface {
	// Name is the bot's kind: "random", "heuristic".
	Name() string
	// Decide answers v.Next, which must be the view's seat's to make (or, at a vote, include
	// it), with one of v.Legal().
	Decide(v kingdoms.View) kingdoms.Move
}

// kinds are every kind New accepts (botkit.Levels), and a strong bot's budgets.
var kinds = &botkit.Kinds[Bot]{List: botkit.Levels(
	func(r *rand.Rand) Bot { return &Heuristic{rng: r} }, func(r *rand.Rand) Bot { return &Random{rng: r} },
	func(r *rand.Rand, think int) Bot { return NewStrong(r, think) }, func(m botkit.Mix[Bot]) Bot { return &Easy{m} },
), Person: ThinkPerson, Simulate: ThinkSimulate, Seat: Player, More: variant}

// Kinds lists the bot kinds simulate plays by default; the network table seats the first.
var Kinds = botkit.DefaultBots

// variants are heuristic bots with other weights, known to New by name (tests only).
var variants = map[string]params{}

func variant(kind string, r *rand.Rand) (Bot, bool) {
	p, ok := variants[kind]
	if !ok {
		return nil, false
	}
	return &Heuristic{rng: r, p: &p}, true
}

// New makes a bot of the named kind, with its own random source seeded by seed; a strong bot
// thinks ThinkPerson playouts a decision.
func New(kind string, seed uint64) (Bot, error) { return kinds.New(kind, seed, 0) }

// NewPlayer is a bot of the named kind, seeded, as an engine.Player.
func NewPlayer(kind string, seed uint64) (engine.Player, error) { return kinds.Player(kind, seed, 0) }

// ThinkingPlayer is NewPlayer with a strong bot's budget: think playouts a decision (0:
// ThinkPerson).
func ThinkingPlayer(kind string, seed uint64, think int) (engine.Player, error) {
	return kinds.Player(kind, seed, think)
}

// Easy is the easy level: the heuristic bot, but half of its decisions are the random bot's.
type Easy struct{ botkit.Mix[Bot] }

func (b *Easy) Name() string                         { return "easy" }
func (b *Easy) Decide(v kingdoms.View) kingdoms.Move { return b.Pick().Decide(v) }

// Random plays a random legal move: first a random kind of move among those it may make, then
// a random move of that kind, so that rare kinds (a vote call) are not drowned by common ones.
type Random struct{ rng *rand.Rand }

func (b *Random) Name() string { return "random" }

func (b *Random) Decide(v kingdoms.View) kingdoms.Move {
	legal := v.Legal()
	var byKind [16][]kingdoms.Move
	var kinds []kingdoms.MoveKind
	for _, m := range legal {
		if len(byKind[m.Kind]) == 0 {
			kinds = append(kinds, m.Kind)
		}
		byKind[m.Kind] = append(byKind[m.Kind], m)
	}
	if len(kinds) == 0 {
		return kingdoms.PassMove(v.Seat)
	}
	ms := byKind[kinds[b.rng.IntN(len(kinds))]]
	return ms[b.rng.IntN(len(ms))]
}

// Player makes b an engine.Player for a table of the kit: it gives b its seat's View of the
// node's copy of the game and turns the move b chooses into an engine.Action with
// kingdoms.Game.Action, which refuses an illegal move rather than sign it.
func Player(b Bot) engine.Player {
	return botkit.Player(b, "Corrupted Kingdoms", func(g *kingdoms.Game, seat int) (engine.Action, error) {
		return g.Action(b.Decide(g.View(seat)))
	})
}
