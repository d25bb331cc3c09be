package script

import (
	"fmt"
	"io"

	"corruption/engine/botkit"
	"corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
)

// Tell has the batch's first game told to w by a Narrator, after a line that says what is
// played and who sits where.
func Tell(sc *bot.SimConfig, w io.Writer) {
	fmt.Fprintf(w, "Game 1 of %d: %d senators, %s; seats: %s\n", sc.Games, sc.Players, configWords(sc.Config), botkit.Seating(sc.Bots, sc.Players))
	sc.Show = (&Narrator{W: w}).Event
}

// configWords is a batch's configuration in words: "up to 3 amendments a turn".
func configWords(c *corruptia.Config) string {
	if c == nil {
		d := corruptia.DefaultConfig()
		c = &d
	}
	enc, _ := corruptia.EncodeConfig(*c)
	return corruptia.Rules{}.DescribeConfig(enc)
}

// Recorded is game g of the batch, as bot.Simulate played it (its bots and its draws), as a
// script.
func Recorded(sc bot.SimConfig, g int) (*Script, error) {
	bots, err := sc.GameBots(g)
	if err != nil {
		return nil, err
	}
	cfg := corruptia.DefaultConfig()
	if sc.Config != nil {
		cfg = *sc.Config
	}
	return RecordFrom(sc.Players, cfg, bots, corruptia.Seeded(sc.Seed, uint64(g)))
}
