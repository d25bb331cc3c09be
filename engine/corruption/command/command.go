// Package command is what the command line knows of Corruption beyond its rules
// (engine/cmdkit): its table settings, --variant and --lbb; its heuristic, random and strong
// bots; bot.Simulate's batches, told with script.Narrator; the scenario scripts of
// docs/SCRIPTS.md, replayed and recorded; the narrator of a saved log; and a score in dollars.
package command

import (
	"fmt"
	"io"

	"corruption/engine/cmdkit"
	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/engine/corruption/script"
)

// Game is Corruption on the command line.
var Game = &cmdkit.Game{
	ID: "corruption",
	Settings: []cmdkit.Setting{
		{Name: "variant", Default: "standard", Usage: "standard, down-the-river, free-stud or closed"},
		{Name: "lbb", Default: false, Usage: "play with the little black book (two peeks each; not with closed)"},
	},
	Encode:   encode,
	Bots:     bot.Kinds,
	Bot:      bot.ThinkingPlayer,
	Simulate: simulate,
	Replay:   script.Replay,
	Record:   record,
	Narrator: script.LogNarrator,
	Score:    func(n int) string { return "$" + corruption.Money(n) },
}

// encode reads --variant and --lbb.
func encode(v cmdkit.Values) ([]byte, error) {
	variant, err := corruption.ParseVariant(v.String("variant"))
	if err != nil {
		return nil, fmt.Errorf("--variant: %v", err)
	}
	lbb := v.Bool("lbb")
	if lbb && variant == corruption.Closed {
		return nil, fmt.Errorf("--lbb: the little black book cannot be played with the closed variant")
	}
	return corruption.EncodeConfig(variant, lbb), nil
}

// simulate plays the batch with bot.Simulate, the first game told to show by script.Narrator.
func simulate(b cmdkit.Batch, show io.Writer) (cmdkit.Report, error) {
	v, lbb, err := corruption.DecodeConfig(b.Config)
	if err != nil {
		return nil, err
	}
	sc := bot.SimConfig{Games: b.Games, Players: b.Players, Variant: v, LBB: lbb, Bots: b.Bots, Think: b.Think, Seed: b.Seed}
	if show != nil {
		n := &script.Narrator{W: show}
		fmt.Fprintf(show, "Game 1 of %d: %d players, %s%s; seats: %s\n", sc.Games, sc.Players, v, bot.LBBWords(lbb), cmdkit.Seating(sc.Bots, sc.Players))
		sc.Show = n.Event
		sc.Attach = func(s *corruption.State) { n.State = s }
	}
	res, err := bot.Simulate(sc)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// record plays game i of the batch again, as bot.Simulate played it, and writes it as a
// script.
func record(b cmdkit.Batch, i int) ([]byte, error) {
	v, lbb, err := corruption.DecodeConfig(b.Config)
	if err != nil {
		return nil, err
	}
	bots, err := bot.SimConfig{Players: b.Players, Bots: b.Bots, Seed: b.Seed}.GameBots(i)
	if err != nil {
		return nil, err
	}
	sc := &script.Script{Config: bot.GameConfig(b.Players, v, lbb, b.Seed, i)}
	s, err := corruption.New(sc.Config)
	if err != nil {
		return nil, err
	}
	if err := bot.Play(s, bots, func(m corruption.Move) { sc.Moves = append(sc.Moves, m) }); err != nil {
		return nil, err
	}
	return sc.Marshal()
}
