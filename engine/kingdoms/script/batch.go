package script

import (
	"fmt"
	"io"

	"corruption/engine"
	"corruption/engine/botkit"
	k "corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
)

// Simulate plays the batch with bot.Simulate; when show is not nil, it tells the first game
// there with a Narrator, after a line that says what is played and who sits where.
func Simulate(sc bot.SimConfig, show io.Writer) (*bot.SimResult, error) {
	if show != nil {
		n := Narrator{W: show}
		fmt.Fprintf(show, "Game 1 of %d: %d players, %s; seats: %s\n", sc.Games, sc.Players, sc.Rules.Words(), botkit.Seating(sc.Bots, sc.Players))
		sc.Show = func(e k.Event) { n.Event(engine.Event{Text: e.String(), Data: e}) }
	}
	return bot.Simulate(sc)
}

// Recorded is game g of the batch, as bot.Simulate played it, as a script, its whole setup
// spelt out.
func Recorded(sc bot.SimConfig, g int) (*Script, error) {
	s := &Script{Players: sc.Players, Rules: sc.Rules, Seed: sc.Seed, Setup: bot.GameSetup(sc.Rules, sc.Players, sc.Seed, g)}
	err := sc.Again(g, func(m k.Move) { s.Moves = append(s.Moves, m) })
	return s, err
}
