// Package bot holds computer players for Corrupted Kingdoms. A bot sees only its seat's
// kingdoms.View (public information, its own shareholder and chaos cards) and answers the
// decision due with one kingdoms.Move. Player makes a bot an engine.Player for the table kit;
// Simulate plays many games among bots in memory.
package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"corruption/engine"
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

// Kinds lists the bot kinds simulate plays by default; the network table seats the first.
var Kinds = []string{"heuristic", "random"}

// AllKinds lists every kind New accepts.
var AllKinds = []string{"heuristic", "random", "strong", "easy"}

// variants are heuristic bots with other weights, known to New by name (tests only).
var variants = map[string]params{}

// New makes a bot of the named kind, with its own random source seeded by seed; a strong bot
// thinks ThinkPerson playouts a decision.
func New(kind string, seed uint64) (Bot, error) { return NewThinking(kind, seed, 0) }

// NewThinking is New with a strong bot's budget: think playouts a decision (0: ThinkPerson).
// Other kinds do not think.
func NewThinking(kind string, seed uint64, think int) (Bot, error) {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	switch kind {
	case "random":
		return &Random{rng: r}, nil
	case "heuristic":
		return &Heuristic{rng: r}, nil
	case "strong":
		if think <= 0 {
			think = ThinkPerson
		}
		return NewStrong(r, think), nil
	case "easy":
		return &Easy{h: &Heuristic{rng: r}, r: &Random{rng: r}, rng: r}, nil
	}
	if p, ok := variants[kind]; ok {
		return &Heuristic{rng: r, p: &p}, nil
	}
	return nil, fmt.Errorf("unknown bot kind %q (want %s)", kind, strings.Join(AllKinds, ", "))
}

// Easy is the easy level: the heuristic bot, but half of its decisions are the random bot's.
type Easy struct {
	h   *Heuristic
	r   *Random
	rng *rand.Rand
}

func (b *Easy) Name() string { return "easy" }

func (b *Easy) Decide(v kingdoms.View) kingdoms.Move {
	if b.rng.IntN(2) == 0 {
		return b.r.Decide(v)
	}
	return b.h.Decide(v)
}

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
	if s, ok := b.(*Strong); ok {
		s.cfg.Deadline = TimeCap
	}
	return player{b}
}

type player struct{ b Bot }

func (p player) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	if err := ctx.Err(); err != nil {
		return engine.Action{}, err
	}
	kg, ok := g.(*kingdoms.Game)
	if !ok {
		return engine.Action{}, fmt.Errorf("%s bot: the game is a %T, not Corrupted Kingdoms", p.b.Name(), g)
	}
	a, err := kg.Action(p.b.Decide(kg.View(seat)))
	if err != nil {
		return engine.Action{}, fmt.Errorf("%s bot at seat %d: %w", p.b.Name(), seat, err)
	}
	return a, nil
}
