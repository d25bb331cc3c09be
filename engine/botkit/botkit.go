// Package botkit is what every game's bot package (engine/*/bot) would otherwise write again:
// the kinds of bot a game offers and how one is made from a seed, the adapter that seats a
// bot at a table of the kit (engine.Player), the strong bot's search state, and the batch of
// simulated games (bots dealt to seats, the games spread over the machine's cores, a tally of
// wins and scores). A game's bot package keeps what is its own: its views, its moves, its
// heuristic, its determinizer and its statistics.
package botkit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"corruption/engine"
)

// Named is what every game's bot has: its kind's name.
type Named interface{ Name() string }

// Rand is a bot's random source, drawn from its seed alone.
func Rand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// Fork is a random source of its own for a bot's helper, drawn from r.
func Fork(r *rand.Rand) *rand.Rand { return rand.New(rand.NewPCG(r.Uint64(), r.Uint64())) }

// Kind is one kind of bot of a game: its name, and how one is made from its random source and
// a strong bot's budget (think, in playouts a decision; never 0 here).
type Kind[B any] struct {
	Name string
	Make func(r *rand.Rand, think int) B
}

// Kinds are the kinds of bot a game offers, in the order its help lists them, with a strong
// bot's budgets at a person's table and in a simulation.
type Kinds[B any] struct {
	List             []Kind[B]
	Person, Simulate int
	// Seat seats a bot at a table of the kit (with the game's own Player).
	Seat func(B) engine.Player
	// More, when set, makes a kind that List does not name (a tuning test's variants), and
	// says whether it knows it.
	More func(kind string, r *rand.Rand) (B, bool)
}

// Names are the kinds' names, in order.
func (k *Kinds[B]) Names() []string {
	names := make([]string, len(k.List))
	for i, kind := range k.List {
		names[i] = kind.Name
	}
	return names
}

// New makes a bot of the named kind with its own random source seeded by seed; think is a
// strong bot's budget (0: Person).
func (k *Kinds[B]) New(kind string, seed uint64, think int) (B, error) {
	if think <= 0 {
		think = k.Person
	}
	for _, c := range k.List {
		if c.Name == kind {
			return c.Make(Rand(seed), think), nil
		}
	}
	if k.More != nil {
		if b, ok := k.More(kind, Rand(seed)); ok {
			return b, nil
		}
	}
	var none B
	return none, fmt.Errorf("unknown bot kind %q (want %s)", kind, strings.Join(k.Names(), ", "))
}

// Levels are the kinds of bot a game offers when its easy bot is its heuristic bot half of
// whose decisions are its random bot's: "heuristic" (the normal level), "random", "strong"
// (the hard level, which searches: think playouts a decision) and "easy" (a Mix of the
// heuristic and the random bot, made a B by ease).
func Levels[B any](heuristic, random func(r *rand.Rand) B, strong func(r *rand.Rand, think int) B, ease func(Mix[B]) B) []Kind[B] {
	return []Kind[B]{
		{Name: "heuristic", Make: func(r *rand.Rand, _ int) B { return heuristic(r) }},
		{Name: "random", Make: func(r *rand.Rand, _ int) B { return random(r) }},
		{Name: "strong", Make: strong},
		{Name: "easy", Make: func(r *rand.Rand, _ int) B { return ease(NewMix(heuristic(r), random(r), r)) }},
	}
}

// Player is a bot of the named kind, seeded, seated by Seat: think is a strong bot's budget
// (0: Person).
func (k *Kinds[B]) Player(kind string, seed uint64, think int) (engine.Player, error) {
	b, err := k.New(kind, seed, think)
	if err != nil {
		return nil, err
	}
	return k.Seat(b), nil
}

// Player seats a game's bot at a table of the kit: it hands act the node's copy of the game
// (a G, which the game's engine.Game must be) and the bot's seat, and act answers with the
// action of the move the bot chooses (the game's encoder refuses an illegal move rather than
// sign it). game names the game in the error a wrong game gives.
//
// A bot that searches (one with AtTable, as a Searcher has) is capped at TimeCap a decision.
func Player[G engine.Game](b Named, game string, act func(g G, seat int) (engine.Action, error)) engine.Player {
	if s, ok := b.(interface{ AtTable() }); ok {
		s.AtTable()
	}
	return player[G]{b, game, act}
}

type player[G engine.Game] struct {
	b    Named
	game string
	act  func(G, int) (engine.Action, error)
}

func (p player[G]) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	if err := ctx.Err(); err != nil {
		return engine.Action{}, err
	}
	gg, ok := g.(G)
	if !ok {
		return engine.Action{}, fmt.Errorf("%s bot: the game is a %T, not %s", p.b.Name(), g, p.game)
	}
	a, err := p.act(gg, seat)
	if err != nil {
		return engine.Action{}, fmt.Errorf("%s bot at seat %d: %w", p.b.Name(), seat, err)
	}
	return a, nil
}

// StandIn registers, for the game of that id, the kind of bot that plays a seat whose player
// left (engine.RegisterStandIn), seeded by the table for each decision.
func StandIn[B any](game string, k *Kinds[B], kind string) {
	engine.RegisterStandIn(game, engine.StandInPlayer(func(seed uint64) (engine.Player, error) {
		return k.Player(kind, seed, 0)
	}))
}

// Mix is a bot of two: for each decision a coin says which decides (the easy level: the
// heuristic bot, half of whose decisions are the random bot's).
type Mix[B any] struct {
	a, b B
	rng  *rand.Rand
}

// NewMix mixes a and b, tossing coins with rng.
func NewMix[B any](a, b B, rng *rand.Rand) Mix[B] { return Mix[B]{a, b, rng} }

// Pick tosses the coin: a or b, one chance in two each.
func (m *Mix[B]) Pick() B {
	if m.rng.IntN(2) == 0 {
		return m.b
	}
	return m.a
}

// Helpers draws the random sources of a strong bot's helpers from rng: policy's (one a seat,
// the playouts' bots) after the ranker's, which it returns. mk makes one from its source.
func Helpers[H any](rng *rand.Rand, policy []H, mk func(*rand.Rand) H) H {
	ranker := mk(Fork(rng))
	for s := range policy {
		policy[s] = mk(Fork(rng))
	}
	return ranker
}
