package script

import (
	"fmt"
	"io"

	"corruption/engine/botkit"
	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
)

// Tell has the batch's first game told to w by a Narrator, after a line that says what is
// played and who sits where.
func Tell(sc *bot.SimConfig, w io.Writer) {
	n := &Narrator{W: w}
	fmt.Fprintf(w, "Game 1 of %d: %d players, %s%s; seats: %s\n", sc.Games, sc.Players, sc.Variant, bot.LBBWords(sc.LBB), botkit.Seating(sc.Bots, sc.Players))
	sc.Show = n.Event
	sc.Attach = func(s *corruption.State) { n.State = s }
}

// Recorded is game g of the batch, as bot.Simulate played it, as a script: its deck and
// first player, and every move.
func Recorded(sc bot.SimConfig, g int) (*Script, error) {
	s := &Script{Config: bot.GameConfig(sc.Players, sc.Variant, sc.LBB, sc.Seed, g)}
	err := sc.Again(g, func(m corruption.Move) { s.Moves = append(s.Moves, m) })
	return s, err
}
