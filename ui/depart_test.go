package ui

import (
	"strings"
	"testing"
	"time"

	"corruption/protocol"
)

// TestDepartures: the page marks each open seat (its player left, a bot plays it), says while a
// departure is being agreed and when the person's own seat was opened, and tells the table's
// promise: with escrow the others play on, without nobody can read another's cards. Each in
// the words of the page's language.
func TestDepartures(t *testing.T) {
	s, _, ts := newServer(t, 0)
	s.SetTable(TableChoice{Table: "t", Game: "pick", Players: 3, Config: []byte{0}})
	names := []string{"ann", "bob", "cy"}
	state := func(st protocol.Status, lang string) State {
		t.Helper()
		s.Update(st)
		var got State
		call(t, ts, "GET", "/api/state?lang="+lang, testKey, "", &got)
		return got
	}
	alerts := func(got State) string {
		var b strings.Builder
		for _, a := range got.Alerts {
			b.WriteString(a.Level + ": " + a.Text + "\n")
		}
		return b.String()
	}
	base := protocol.Status{Table: "t", Seat: 0, Names: names, State: newPick(3), Due: 1, DueSince: testNow, Timeout: time.Minute, Escrow: true, Leaving: -1}

	got := state(base, "en")
	if tb := got.Table; tb == nil || !tb.Escrow || !strings.Contains(tb.Promise, "the players who stay play on") || !strings.Contains(tb.Promise, "all the other players together could read your hidden cards") {
		t.Errorf("an escrow table's promise: %+v", got.Table)
	}
	for _, seat := range got.Seats {
		if seat.Open {
			t.Errorf("seat %d is open before anyone left: %+v", seat.Seat, got.Seats)
		}
	}
	if a := alerts(got); a != "" {
		t.Errorf("alerts before anyone left:\n%s", a)
	}

	st := base
	st.Leaving = 1
	if a := alerts(state(st, "en")); !strings.Contains(a, "warn: \u2068bob\u2069 (seat 1) is silent: waiting for every other player to agree to play on without them") {
		t.Errorf("a departure being agreed is not said:\n%s", a)
	}
	if a := alerts(state(st, "fr")); !strings.Contains(a, "\u2068bob\u2069 (place 1) ne répond plus : on attend que tous les autres joueurs acceptent") {
		t.Errorf("a departure being agreed, in French:\n%s", a)
	}

	st.Leaving, st.Open, st.Due = -1, []int{1}, 2
	got = state(st, "en")
	if len(got.Seats) != 3 || got.Seats[0].Open || !got.Seats[1].Open || got.Seats[2].Open {
		t.Errorf("seat 1 opened: seats %+v, want only seat 1 open", got.Seats)
	}
	if a := alerts(got); a != "" {
		t.Errorf("alerts once bob's seat is open (the seats say it):\n%s", a)
	}

	st.Open = []int{0, 1}
	if a := alerts(state(st, "es")); !strings.Contains(a, "info: Tu asiento se abrió mientras no estabas: lo juega un bot; tú solo miras.") {
		t.Errorf("the person's own seat opened is not said, in Spanish:\n%s", a)
	}
	if a := alerts(state(st, "en")); !strings.Contains(a, "Your seat was opened while you were away: a bot plays it; you are watching.") {
		t.Errorf("the person's own seat opened is not said:\n%s", a)
	}

	st.Open, st.Escrow = nil, false
	if tb := state(st, "en").Table; tb == nil || tb.Escrow || !strings.Contains(tb.Promise, "Nobody but you can ever read your hidden cards") {
		t.Errorf("a table without escrow's promise: %+v", tb)
	}
}

// TestDepartureLobby: the lobby's form says what a table the node creates promises: escrow from
// 3 seats when the node escrows (the default), never when it does not; before the table forms,
// its waiting screen says the same.
func TestDepartureLobby(t *testing.T) {
	for _, escrow := range []bool{true, false} {
		s, err := NewServer(Config{Name: "ann", Board: pickBoard{}, Human: NewHuman(nil), Key: testKey, Escrow: escrow})
		if err != nil {
			t.Fatal(err)
		}
		var got State
		s.mu.Lock()
		got.Lobby = s.lobbyState("en")
		s.mu.Unlock()
		want := map[bool]int{true: protocol.MinEscrowSeats, false: 0}[escrow]
		if got.Lobby.Escrow != want {
			t.Errorf("escrow %v: the lobby's escrow seats %d, want %d", escrow, got.Lobby.Escrow, want)
		}
		for players, on := range map[int]bool{2: false, 3: escrow, 4: escrow} {
			s.mu.Lock()
			e := s.escrow(players)
			s.mu.Unlock()
			if e != on {
				t.Errorf("escrow %v: a table of %d players the node creates escrows: %v, want %v", escrow, players, e, on)
			}
		}
		s.Close()
	}
}

// TestTerminalDepartures: the terminal tells the table's promise once it forms, a departure
// being agreed, each seat opened (once each), and the person's own seat opened; a node whose
// seat was opened while it was away ends in plain words.
func TestTerminalDepartures(t *testing.T) {
	var out strings.Builder
	term := NewTerminal(pickBoard{}, strings.NewReader(""), &out)
	defer term.Close()
	names := []string{"ann", "bob", "cy"}
	st := protocol.Status{Table: "t", Seat: 0, Names: names, State: newPick(3), Escrow: true, Leaving: -1}
	term.Update(st)
	st.Leaving = 2
	term.Update(st)
	term.Update(st)
	st.Leaving, st.Open = -1, []int{2}
	term.Update(st)
	term.Update(st)
	st.Open = []int{0, 2}
	term.Update(st)
	term.Finish(Result{Err: &protocol.SeatOpenedError{Seq: 12}})
	for w, n := range map[string]int{
		"If a player leaves for good, the players who stay play on":                                             1,
		"!! \u2068cy\u2069 (seat 2) is silent: waiting for every other player to agree to play on without them": 1,
		"!! \u2068cy\u2069 (seat 2) left: the other players agreed to play on, and a bot plays that seat.":      1,
		"!! Your seat was opened while you were away: a bot plays it; you are watching.":                        1,
		"The other players agreed that you had left (at entry 12)":                                              1,
	} {
		if got := strings.Count(out.String(), w); got != n {
			t.Errorf("the terminal says %q %d times, want %d:\n%s", w, got, n, out.String())
		}
	}
	if strings.Contains(out.String(), "SeatOpened") || strings.Contains(out.String(), "it cannot be taken back (you may watch") {
		t.Errorf("the terminal shows the error rather than words for a player:\n%s", out.String())
	}
}

// TestCaught: a seat caught cheating (protocol/convict.go) is said in plain words, in each
// language, on the page (a banner, and the seat's mark) and in the terminal: who, doing what,
// and that a bot plays the seat from then on; the cheater is told it watches. Every kind of
// entry a conviction can name has its words in every language.
func TestCaught(t *testing.T) {
	names := []string{"ann", "bob", "cy"}
	for _, what := range []string{"shuffle", "shares", "move", "open", "answer", "blame", "commit", "random", "signoff", "turn", "equivocation"} {
		for _, lang := range Languages {
			if _, ok := shellWords.Keys(lang)["cheat.what."+what]; !ok {
				t.Errorf("%s has no words for a cheat in a %s entry", lang, what)
			}
		}
	}
	st := &protocol.Status{Table: "t", Seat: 0, Names: names, State: newPick(3), Escrow: true, Leaving: -1,
		Open: []int{2}, Convicted: []protocol.Conviction{{Seat: 2, Seq: 30, What: "shuffle", Reason: "malformed shuffle entry"}}}
	for lang, want := range map[string]string{
		"en": "cy's shuffle could not be proven: cy was caught cheating; a bot plays that seat from here.",
		"es": "el barajado de cy no se pudo probar: pillaron a cy haciendo trampa; un bot juega ese asiento desde ahora.",
		"fr": "le mélange de cy n'a pas pu être prouvé : cy a été pris à tricher ; un bot joue cette place désormais.",
	} {
		var said []string
		for _, a := range departAlerts(lang, st) {
			said = append(said, a.Text)
		}
		if len(said) != 1 || !strings.Contains(said[0], want) {
			t.Errorf("%s: the page says %q; want %q", lang, said, want)
		}
	}
	me := *st
	me.Seat = 2
	if a := departAlerts("en", &me); len(a) < 1 || !strings.Contains(a[len(a)-1].Text, "you were caught cheating. A bot plays your seat; you are watching.") {
		t.Errorf("the cheater's page says %v", a)
	}
	if !convicted(st, 2) || convicted(st, 1) {
		t.Error("the seats' marks: seat 2 is the one caught")
	}
	var out strings.Builder
	term := NewTerminal(pickBoard{}, strings.NewReader(""), &out)
	defer term.Close()
	term.Update(*st)
	term.Update(*st)
	if w := "!! \u2068cy\u2069 (seat 2)'s shuffle could not be proven: \u2068cy\u2069 (seat 2) was caught cheating"; strings.Count(out.String(), w) != 1 {
		t.Errorf("the terminal says:\n%s\nwant once: %q", out.String(), w)
	}
}
