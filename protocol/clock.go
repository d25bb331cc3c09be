package protocol

import "time"

// Clock is where a node's time comes from: how long a seat has been silent, when to tick,
// how long to linger. The real clock by default; tests give a fake one (memnet.Clock) that they
// advance, so that a timeout is reached at once instead of waited for.
type Clock interface {
	Now() time.Time
	// Ticker returns a channel that delivers the time every d, and a function that stops it.
	Ticker(d time.Duration) (<-chan time.Time, func())
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Ticker(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}
