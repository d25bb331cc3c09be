package seat

import "time"

// Pace is how the browser seat spaces the states its page draws. The page renders on the
// seat's one thread (WebAssembly in a browser has one): while it draws a state, the seat
// checks no entry and writes none. A fixed pause between states is not enough on a slow phone,
// where drawing a large table can take longer than the pause: the page then drew after every
// entry and took most of the thread (a table of 7 on a phone, CPU throttled 4x: 400 s,
// against 3 s with every seat native). Pace's promises:
//   - After a state that took cost to draw (from handing it to the page to the page's next
//     frame), the next one waits Share times cost, at least Min and at most Max: the page
//     takes at most 1/(1+Share) of the thread while the table is busy, and a person never
//     waits more than Max for the table's news.
//   - A decision of the person's that becomes due, or that the person has just answered, cuts
//     the wait short (the seat's loop wakes on it): the person's turn is drawn at once, and so
//     is the move they tapped.
type Pace struct {
	Min, Max time.Duration
	Share    float64
}

// StatePace is the browser seat's pace.
var StatePace = Pace{Min: 200 * time.Millisecond, Max: 3 * time.Second, Share: 2}

// Wait is how long to wait after a state that took cost to draw.
func (p Pace) Wait(cost time.Duration) time.Duration {
	return min(max(time.Duration(float64(cost)*p.Share), p.Min), p.Max)
}
