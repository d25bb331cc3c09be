package script

import (
	"bytes"
	"fmt"
	"strings"

	"corruption/engine"
	"corruption/engine/internal/strictjson"
	k "corruption/engine/kingdoms"
)

// Marshal writes the script as JSON, its whole setup spelt out and one move per line.
// Parse(Marshal(s)) gives s back.
func (sc *Script) Marshal() ([]byte, error) {
	var b bytes.Buffer
	s := &sc.Setup
	fmt.Fprintf(&b, "{\"players\": %d, \"rules\": %q, \"seed\": %d,\n", sc.Players, sc.Rules, sc.Seed)
	names := func(ids []int, name func(int) string) string {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = name(id)
		}
		return quote(out)
	}
	corp := func(i int) string { return k.Corporations()[i].ID }
	favor := func(i int) string { return k.Favors()[i].ID }
	pleasure := func(i int) string { return k.Pleasures()[i].ID }
	share := k.ShareholderID
	card := func(i int) string { return k.ChaosCards()[i].ID }
	fmt.Fprintf(&b, " \"corporations\": %s, \"first\": %d,\n", names(s.Corporations, corp), s.First)
	fmt.Fprintf(&b, " \"favor_deck\": %s,\n", names(s.FavorDeck, favor))
	fmt.Fprintf(&b, " \"pleasure_deck\": %s,\n", names(s.PleasureDeck, pleasure))
	b.WriteString(" \"shareholders\": [")
	for i, h := range s.Shareholders {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(names(h, share))
	}
	b.WriteString("],\n")
	if sc.Rules.Chaos {
		b.WriteString(" \"chaos\": [")
		for i, h := range s.Chaos {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(names(h, card))
		}
		b.WriteString("],\n")
	}
	err := strictjson.Moves(&b, len(sc.Moves), func(b *bytes.Buffer, i int) error { return sc.appendMove(b, sc.Moves[i], sc.payOf(i)) })
	return b.Bytes(), err
}

// payOf is the minions move i pays, if it is written so (else nil).
func (sc *Script) payOf(i int) []k.Minion {
	if i < len(sc.Pay) {
		return sc.Pay[i]
	}
	return nil
}

// Run replays the script's moves from the start, with onEvent (if not nil) told every event.
// A seat's answer to a steal or to revealed votes that the script leaves out is a pass: before
// a move, every seat asked to answer passes unless the move is its answer; after the last move,
// the seats asked to answer pass too when that ends the game (a script need not end with
// passes), and otherwise the replay stops at the first answer due. An influence written with
// the minions paid (Pay) is turned into its waive and extra minion as the game then stands.
//
// It returns where the game stands; on an illegal move, where it stood before that move and a
// *ReplayError "move K: ..." (K counting the script's moves from 1), also in the Result. A
// setup the game refuses returns no Result.
func (sc *Script) Run(onEvent func(engine.Event)) (*Result, error) {
	// Whether the passes after the last move end the game is known by trying them, silently.
	res, passed, err := sc.run(nil, true)
	tail := res == nil || !passed || res.Finished
	if onEvent == nil && tail {
		return res, err
	}
	res, _, err = sc.run(onEvent, tail)
	return res, err
}

// run replays the script; with tail, the answers due after the last move are passed. It says
// whether it passed any.
func (sc *Script) run(onEvent func(engine.Event), tail bool) (*Result, bool, error) {
	tr := newTracker(sc.Players)
	cur := 0 // the script's move being played, from 1
	l, err := k.NewLocal(sc.Rules, sc.Players, sc.Setup, func(e engine.Event) {
		tr.event(e, cur)
		if onEvent != nil {
			onEvent(e)
		}
	})
	if err != nil {
		return nil, false, fmt.Errorf("setup: %w", err)
	}
	fail := func(err error) (*Result, bool, error) {
		if cur == 0 {
			return nil, false, fmt.Errorf("setup: %w", err)
		}
		res := summarize(l, tr)
		res.Error = &ReplayError{Move: cur, Err: err}
		return res, false, res.Error
	}
	for i, m := range sc.Moves {
		cur = i + 1
		if pay := sc.payOf(i); pay != nil {
			if m, err = paid(l.Game(), m, pay); err != nil {
				return fail(err)
			}
		}
		if err := l.Play(m); err != nil {
			return fail(err)
		}
		if i+1 < len(sc.Moves) {
			if err := passUntil(l, &sc.Moves[i+1]); err != nil {
				return fail(err)
			}
		}
	}
	passed := false
	if tail {
		for cur > 0 {
			d, err := l.Next()
			if err != nil {
				return fail(err)
			}
			if d.Kind != k.DecideSteal && d.Kind != k.DecideAnswer {
				break
			}
			if err := l.Play(k.PassMove(d.Seat)); err != nil {
				return fail(err)
			}
			passed = true
		}
	}
	if _, err := l.Next(); err != nil {
		return fail(err)
	}
	return summarize(l, tr), passed, nil
}

// passUntil has the seats asked to answer pass until next's seat is asked, when next is not an
// answer itself.
func passUntil(l *k.Local, next *k.Move) error {
	for {
		d, err := l.Next()
		if err != nil {
			return err
		}
		answer := d.Kind == k.DecideSteal || d.Kind == k.DecideAnswer
		if !answer || d.Seat == next.Seat && (next.Kind == k.MovePass || next.Kind == k.MoveChaos) {
			return nil
		}
		if err := l.Play(k.PassMove(d.Seat)); err != nil {
			return err
		}
	}
}

// paid is the influence m paying the minions pay, as g stands: the cost minions pay leaves
// out are waived, and a steal (an opponent controls the leader) pays one more of any type.
// Of two readings of one payment (a steal of a golem and a devil paying both: the golem
// waived and one more golem paid, or the devil waived and one more devil), the first waive
// is taken. A payment no waive and extra minion can make is refused here; whether the seat
// may waive that much and holds the minions, the game says.
func paid(g *k.Game, m k.Move, pay []k.Minion) (k.Move, error) {
	l := k.Leaders()[m.Leader]
	var want [k.NumMinions]int
	for _, mn := range pay {
		want[mn]++
	}
	owner := g.View(-1).Control[m.Leader]
	steal := owner >= 0 && owner != m.Seat
	extras := []k.Minion{k.NoMinion}
	if steal {
		extras = []k.Minion{k.Golem, k.Goblin, k.Devil, k.Zombie}
	}
	for waive := range uint8(4) {
		for _, extra := range extras {
			var got [k.NumMinions]int
			for i, c := range l.Cost {
				if waive&(1<<i) == 0 {
					got[c]++
				}
			}
			if extra != k.NoMinion {
				got[extra]++
			}
			if got == want {
				m.Waive, m.Minion = waive, extra
				return m, nil
			}
		}
	}
	cost := l.Cost[0].String() + " and " + l.Cost[1].String()
	if steal {
		return m, fmt.Errorf("seat %d cannot steal %s from seat %d paying %s: it costs %s (less what its guilty pleasures waive) and exactly one minion more, of any type",
			m.Seat, l.ID, owner, minionList(pay), cost)
	}
	return m, fmt.Errorf("seat %d cannot influence %s paying %s: it costs %s (less what its guilty pleasures waive), and no minion more when nobody else controls it",
		m.Seat, l.ID, minionList(pay), cost)
}

// minionList names minions paid: "golem, devil", "nothing".
func minionList(ms []k.Minion) string {
	if len(ms) == 0 {
		return "nothing"
	}
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = m.String()
	}
	return strings.Join(s, ", ")
}

// Follow replays the script and returns seat's own copy of the game where the script stops (the
// answers due between two moves passed, as Run passes them; none after the last move): the copy
// seat's node would hold, told only seat's secrets, with its events told to onEvent (when not
// nil). A seat below 0 is the seat the game then waits for (the first of a vote's seats; seat 0
// once the game is over). It returns the seat too, and the illegal move's *ReplayError, if any.
func (sc *Script) Follow(seat int, onEvent func(engine.Event)) (*k.Game, int, error) {
	if seat < 0 {
		_, d, err := sc.follow(0, nil)
		if err != nil {
			return nil, 0, err
		}
		seat = max(d.Seat, 0)
	}
	g, _, err := sc.follow(seat, onEvent)
	return g, seat, err
}

// follow replays the script with seat's copy kept: that copy, and the decision due at its end.
func (sc *Script) follow(seat int, onEvent func(engine.Event)) (*k.Game, k.Decision, error) {
	l, err := k.NewLocal(sc.Rules, sc.Players, sc.Setup, nil)
	if err == nil {
		err = l.Follow(seat, onEvent)
	}
	if err != nil {
		return nil, k.Decision{}, fmt.Errorf("setup: %w", err)
	}
	for i, m := range sc.Moves {
		if pay := sc.payOf(i); pay != nil {
			if m, err = paid(l.Game(), m, pay); err != nil {
				return nil, k.Decision{}, &ReplayError{Move: i + 1, Err: err}
			}
		}
		if err := l.Play(m); err != nil {
			return nil, k.Decision{}, &ReplayError{Move: i + 1, Err: err}
		}
		if i+1 < len(sc.Moves) {
			if err := passUntil(l, &sc.Moves[i+1]); err != nil {
				return nil, k.Decision{}, &ReplayError{Move: i + 1, Err: err}
			}
		}
	}
	d, err := l.Next()
	if err != nil {
		return nil, k.Decision{}, err
	}
	return l.Seat(), d, nil
}
