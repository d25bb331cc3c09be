package kingdoms

import (
	"context"
	"fmt"
	"testing"

	"corruption/engine"
	"corruption/engine/enginetest"
	rules "corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
)

var names = []string{"ann", "bob", "cy", "dee", "eve", "fay"}

// table is a table size and rules the tests play.
type table struct {
	players int
	rules   rules.Config
	bots    string // heuristic or random
}

func (tb table) String() string { return fmt.Sprintf("%d-%s-%s", tb.players, tb.rules, tb.bots) }

// tables are every table size and set of rules, with both kinds of bot.
var tables = []table{
	{2, rules.Advanced, "heuristic"}, {3, rules.Basic, "random"}, {4, rules.Advanced, "random"},
	{5, rules.Config{Bonuses: true}, "heuristic"}, {6, rules.Config{Chaos: true}, "random"}, {4, rules.Advanced, "heuristic"},
}

// inspector is a seat's player: look sees the seat's own copy of the game at each of its
// decisions, then a bot decides.
type inspector struct {
	bot  engine.Player
	look func(g *rules.Game, seat int)
}

func (p inspector) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	if p.look != nil {
		p.look(g.(*rules.Game), seat)
	}
	return p.bot.Decide(ctx, g, seat)
}

// play plays a game of tb on the kit in memory (enginetest: one copy of the game per seat, told
// only what that seat may know), with look shown every decision and watch every input.
func play(t *testing.T, tb table, seed uint64, look func(g *rules.Game, seat int), opts ...enginetest.Option) *enginetest.Result {
	t.Helper()
	players := make([]engine.Player, tb.players)
	for i := range players {
		b, err := bot.New(tb.bots, seed+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		players[i] = inspector{bot.Player(b), look}
	}
	res, err := enginetest.Play(rules.Rules{}, rules.EncodeConfig(tb.rules), players, seed, opts...)
	if err != nil {
		t.Fatalf("%s: %v", tb, err)
	}
	return res
}
