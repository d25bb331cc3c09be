package bot

import (
	"fmt"

	"corruption/engine/corruption"
)

// Play plays s to the end with one bot per seat (full-information games, where moves come from
// nowhere else). record, when not nil, is told every move that was applied.
func Play(s *corruption.State, bots []Bot, record func(corruption.Move)) error {
	if len(bots) != s.Config().Players {
		return fmt.Errorf("play: %d bots for %d seats", len(bots), s.Config().Players)
	}
	for !s.Over() {
		d := s.Next()
		if d.Seat < 0 {
			return fmt.Errorf("play: the game waits for %s, which no bot can give", d)
		}
		m := bots[d.Seat].Decide(s.View(d.Seat))
		if err := s.Apply(m); err != nil {
			return fmt.Errorf("play: %s bot at seat %d: %s: %w", bots[d.Seat].Name(), d.Seat, m, err)
		}
		if record != nil {
			record(m)
		}
	}
	return nil
}
