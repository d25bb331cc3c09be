package script

import (
	"fmt"
	"io"

	"corruption/engine"
)

// Replay replays a scenario script (docs/CORRUPTIA.md, "Scripts"), told round by round to tell
// when it is not nil, and sums it up (a *Result, as replay --json prints it). It also says
// what the game waits for when the script stops before its end ("seat 2's proposal", "every
// senator's vote"), and the illegal move that stopped it; a script that is malformed or that
// the game cannot set up gives no result, only its error.
func Replay(data []byte, tell io.Writer) (result any, waits string, err error) {
	sc, err := Parse(data)
	if err != nil {
		return nil, "", err
	}
	var onEvent func(engine.Event)
	if tell != nil {
		onEvent = (&Narrator{W: tell}).Event
	}
	res, err := sc.Run(onEvent)
	if res == nil {
		return nil, "", err
	}
	if n := res.Next; n != nil {
		waits = "every senator's vote"
		if n.Seat >= 0 {
			waits = fmt.Sprintf("seat %d's %s", n.Seat, n.Decision)
		}
	}
	return res, waits, err
}

// LogNarrator tells a saved table's game as Narrator tells a script's: round by round, each
// event in its words (the events say everything a narrator needs, whatever the configuration
// and the players).
func LogNarrator(w io.Writer, _ []byte, _ int) func(engine.Event) {
	return (&Narrator{W: w}).Event
}
