package script

import (
	"fmt"
	"io"

	"corruption/engine"
	"corruption/engine/cmdkit"
)

// Replay replays a scenario script (docs/CORRUPTIA.md, "Scripts"), told round by round to tell
// when it is not nil, and sums it up (a *Result, as replay --json prints it). It also says
// what the game waits for when the script stops before its end ("seat 2's proposal", "every
// senator's vote"), and the illegal move that stopped it; a script that is malformed or that
// the game cannot set up gives no result, only its error.
func Replay(data []byte, tell io.Writer) (result any, waits string, err error) {
	run := func(sc *Script) (*Result, error) { return sc.Run((&Narrator{W: tell}).Event) }
	return cmdkit.Replay(data, Parse, run, (*Result).waits)
}

// waits says what the game waits for: "seat 2's proposal", "every senator's vote" ("" once
// it is over).
func (r *Result) waits() string {
	switch {
	case r.Next == nil:
		return ""
	case r.Next.Seat < 0:
		return "every senator's vote"
	}
	return fmt.Sprintf("seat %d's %s", r.Next.Seat, r.Next.Decision)
}

// LogNarrator tells a saved table's game as Narrator tells a script's: round by round, each
// event in its words (the events say everything a narrator needs, whatever the configuration
// and the players).
func LogNarrator(w io.Writer, _ []byte, _ int) func(engine.Event) {
	return (&Narrator{W: w}).Event
}
