package script

import (
	"fmt"
	"io"
	"strings"

	"corruption/engine"
	"corruption/engine/cmdkit"
	k "corruption/engine/kingdoms"
)

// Replay replays a scenario script (docs/KINGDOMS.md, "Scripts"), told event by event to tell
// when it is not nil, and sums it up (a *Result, as replay --json prints it). It also says
// what the game waits for when the script stops before its end ("seat 2's action (1 left)"),
// and the illegal move that stopped it; a script that is malformed or that the game cannot
// set up gives no result, only its error.
func Replay(data []byte, tell io.Writer) (result any, waits string, err error) {
	run := func(sc *Script) (*Result, error) { return sc.Run(Narrator{W: tell}.Event) }
	return cmdkit.Replay(data, Parse, run, (*Result).waits)
}

// waits says what the game waits for when it is not over ("" once it is).
func (r *Result) waits() string {
	if r.Finished || r.Next == nil {
		return ""
	}
	return r.Next.words()
}

// words says what a script's game waits for: "seat 2's action (1 left)".
func (n *Next) words() string {
	switch n.Decision {
	case "vote":
		ws := make([]string, len(n.Seats))
		for i, s := range n.Seats {
			ws[i] = fmt.Sprint(s)
		}
		return "the votes of seats " + strings.Join(ws, ", ")
	case "action":
		return fmt.Sprintf("seat %d's action (%d left)", n.Seat, n.Actions)
	}
	return fmt.Sprintf("seat %d to %s", n.Seat, map[string]string{"discard": "discard a chaos card", "steal": "answer a steal",
		"answer": "answer the votes", "pick": "take a guilty pleasure"}[n.Decision])
}

// LogNarrator tells a saved table's game as Narrator tells a script's, with a heading at each
// round (the events say everything it needs, whatever the configuration and the players).
func LogNarrator(w io.Writer, _ []byte, _ int) func(engine.Event) {
	n := Narrator{W: w}
	round := 0
	return func(ev engine.Event) {
		if e, ok := ev.Data.(k.Event); ok && e.Kind == k.EventTurn && e.Round != round {
			round = e.Round
			fmt.Fprintf(w, "\n== Round %d ==", round)
		}
		n.Event(ev)
	}
}
