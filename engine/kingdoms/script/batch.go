package script

import (
	"fmt"
	"io"

	"corruption/engine"
	"corruption/engine/botkit"
	k "corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
)

// Tell has the batch's first game told to w by a Narrator, after a line that says what is
// played and who sits where.
func Tell(sc *bot.SimConfig, w io.Writer) {
	fmt.Fprintf(w, "Game 1 of %d: %d players, %s; seats: %s\n", sc.Games, sc.Players, sc.Rules.Words(), botkit.Seating(sc.Bots, sc.Players))
	n := Narrator{W: w}
	sc.Show = func(e k.Event) { n.Event(engine.Event{Text: e.String(), Data: e}) }
}

// Recorded is game g of the batch, as bot.Simulate played it, as a script, its whole setup
// spelt out.
func Recorded(sc bot.SimConfig, g int) (*Script, error) {
	s := &Script{Players: sc.Players, Rules: sc.Rules, Seed: sc.Seed, Setup: bot.GameSetup(sc.Rules, sc.Players, sc.Seed, g)}
	err := sc.Again(g, func(m k.Move) { s.Moves = append(s.Moves, m) })
	return s, err
}
