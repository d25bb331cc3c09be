package script

import (
	"io"

	"corruption/engine/corruption"
)

// Replay replays a scenario script (docs/SCRIPTS.md), told round by round to tell when it is
// not nil, and sums it up (a *Summary, as replay --json prints it). It also says what the
// game waits for when it is told and stops before its end, and the illegal move that stopped
// it; a script that is malformed or whose configuration the game refuses gives no summary,
// only its error.
func Replay(data []byte, tell io.Writer) (result any, waits string, err error) {
	sc, err := Parse(data)
	if err != nil {
		return nil, "", err
	}
	n := &Narrator{W: tell}
	var opts []corruption.Option
	if tell != nil {
		opts = append(opts, n.Option())
	}
	sum, err := sc.Replay(opts...)
	if sum == nil {
		return nil, "", err
	}
	if tell != nil && !sum.Finished {
		waits = n.State.Next().String()
	}
	return sum, waits, err
}
