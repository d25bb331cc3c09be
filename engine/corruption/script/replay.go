package script

import (
	"io"

	"corruption/engine/cmdkit"
)

// Replay replays a scenario script (docs/SCRIPTS.md), told round by round to tell when it is
// not nil, and sums it up (a *Summary, as replay --json prints it). It also says what the
// game waits for when it is told and stops before its end, and the illegal move that stopped
// it; a script that is malformed or whose configuration the game refuses gives no summary,
// only its error.
func Replay(data []byte, tell io.Writer) (result any, waits string, err error) {
	n := &Narrator{W: tell}
	run := func(sc *Script) (*Summary, error) {
		if tell == nil {
			return sc.Replay()
		}
		return sc.Replay(n.Option())
	}
	waiting := func(sum *Summary) string {
		if tell == nil || sum.Finished {
			return ""
		}
		return n.State.Next().String()
	}
	return cmdkit.Replay(data, Parse, run, waiting)
}
