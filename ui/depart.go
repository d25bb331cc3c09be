package ui

import (
	"errors"
	"fmt"
	"slices"

	"corruption/protocol"
)

// A player who leaves for good (protocol/depart.go), on the page and in the terminal. At a
// table that escrows its seats' secrets (the default at 3 or more seats), once a silent seat's
// departure is agreed every node plays that seat with the game's stand-in bot: the seat is
// "open". The page marks each open seat in the players' panel and the results (SeatState.Open),
// says in a banner while a departure is being agreed (Status.Leaving) and when the person's own
// seat was opened, and tells each table's promise: with escrow, the players who stay play on,
// and all the others together could read a player's cards; without, nobody could, and a player
// who leaves ends the table.

// escrowPromise is what a table promises its players, in words: with escrow at 3 or more
// seats or without.
func escrowPromise(lang string, escrow bool) string {
	if escrow {
		return shellWords.Say(lang, "escrow.on")
	}
	return shellWords.Say(lang, "escrow.off")
}

// departAlerts are the banners of departures: the seat whose departure the table is agreeing,
// and the person's own seat opened while it was away.
func departAlerts(lang string, st *protocol.Status) []Alert {
	if st.Names == nil || st.Done || st.Verdict != nil {
		return nil
	}
	var out []Alert
	switch {
	case st.Seat >= 0 && slices.Contains(st.Open, st.Seat):
		out = append(out, Alert{Level: "info", Text: shellWords.Say(lang, "open.you")})
	case st.Leaving >= 0 && st.Leaving == st.Seat:
		out = append(out, Alert{Level: "warn", Text: shellWords.Say(lang, "leaving.you")})
	}
	if st.Leaving >= 0 && st.Leaving != st.Seat {
		out = append(out, Alert{Level: "warn", Text: shellWords.Say(lang, "leaving", "name", SeatName(st.Names, st.Leaving))})
	}
	for _, c := range st.Convicted {
		out = append(out, Alert{Level: "warn", Text: caughtWords(lang, st, c)})
	}
	return out
}

// caughtWords says, in plain words, who was caught cheating, doing what, and that a bot plays
// the seat from then on (protocol/convict.go); to the cheater, that it watches.
func caughtWords(lang string, st *protocol.Status, c protocol.Conviction) string {
	name := SeatName(st.Names, c.Seat)
	key := "cheat.what." + c.What
	if _, ok := shellWords.Keys(Languages[0])[key]; !ok {
		key = "cheat.what"
	}
	what := shellWords.Say(lang, key, "name", name)
	if c.Seat == st.Seat {
		return shellWords.Say(lang, "cheat.you", "what", what)
	}
	return shellWords.Say(lang, "cheat.seat", "what", what, "name", name)
}

// convicted reports whether seat was caught cheating at st's table.
func convicted(st *protocol.Status, seat int) bool {
	_, ok := protocol.ConvictionOf(st.Convicted, seat)
	return ok
}

// openedEnding is the ending of a node whose own seat the table opened while it was away
// (a *protocol.SeatOpenedError), in plain words.
func openedEnding(lang string, err error) (string, bool) {
	var opened *protocol.SeatOpenedError
	if err == nil || !errors.As(err, &opened) {
		return "", false
	}
	return shellWords.Say(lang, "end.opened", "seq", opened.Seq), true
}

// tellDepart tells the terminal of the departures in st: the promise once the table forms, a
// departure being agreed, each seat opened, and the person's own seat opened. t.mu is held.
func (t *Terminal) tellDepart(st protocol.Status) {
	if st.Names == nil || st.State == nil {
		return
	}
	if !t.noted["promise"] {
		t.noted["promise"] = true
		fmt.Fprintln(t.out, escrowPromise(t.lang, st.Escrow))
	}
	if st.Leaving >= 0 && st.Leaving != st.Seat && !st.Done && st.Verdict == nil {
		if key := fmt.Sprintf("leaving %d", st.Leaving); !t.noted[key] {
			t.noted[key] = true
			fmt.Fprintf(t.out, "!! %s\n", shellWords.Say(t.lang, "leaving", "name", SeatName(st.Names, st.Leaving)))
		}
	}
	for _, seat := range st.Open {
		if key := fmt.Sprintf("open %d", seat); !t.noted[key] {
			t.noted[key] = true
			if c, ok := protocol.ConvictionOf(st.Convicted, seat); ok {
				fmt.Fprintf(t.out, "!! %s\n", caughtWords(t.lang, &st, c))
				continue
			}
			if seat == st.Seat {
				fmt.Fprintf(t.out, "!! %s\n", shellWords.Say(t.lang, "open.you"))
			} else {
				fmt.Fprintf(t.out, "!! %s\n", shellWords.Say(t.lang, "open.seat", "name", SeatName(st.Names, seat)))
			}
		}
	}
}

// escrow reports whether the person's table escrows: as its genesis says once the table
// forms; before, as the person's node would create it. s.mu is held.
func (s *Server) escrow(players int) bool {
	if s.haveSt && s.status.Names != nil {
		return s.status.Escrow
	}
	if c := s.choice; c != nil && 1+c.Bots == players-1 {
		return false // the person and its local bots hold every seat but one: no escrow (docs/SECURITY.md)
	}
	return s.cfg.Escrow && players >= protocol.MinEscrowSeats
}

// escrowSeats is the fewest seats at which a table the person's node creates escrows (0:
// never), for the lobby's form.
func (s *Server) escrowSeats() int {
	if !s.cfg.Escrow {
		return 0
	}
	return protocol.MinEscrowSeats
}
