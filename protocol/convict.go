package protocol

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"corruption/engine"
)

// Convictions (version 4, issue 40): a cheat no longer ends the game. At a table that could open
// the cheater's seat as after a departure (depart.go: escrow, the game under way, no departure
// under way, two staying seats at least, a stand-in for the game), a seat proven to cheat is a
// seat that left, with a reason. docs/PROTOCOL.md, "Convictions", is the specification; in
// short:
//
//  1. The proof. A seat's own signed entry, at its turn, that breaks a rule (a kind it may not
//     write now, a body or a proof that does not check, a move the game refuses, a signoff of
//     another digest, a blame that lies) convicts it, as it always did; so does a peeker's
//     blame that proves the answer to its peek a lie, which convicts the answer's author. Every
//     node reaches the same conviction at the same entry, as it reached the same verdict.
//  2. The entry stays, its effect does not. The offending entry goes into the log at its place,
//     as the proof; what its checks changed on their way is undone (the table replays its own
//     log without it: rewind). A true blame is a good entry and stays applied, and the answer
//     it judged is done with.
//  3. The seat leaves. From the next entry the staying seats write their escrow shares of the
//     convicted seat's key (release entries, as after a depart entry); with the last, the seat
//     is open and the game's stand-in plays it: from the step it broke, what it should have
//     done is done again by the stand-in, and its later signed entries are ignored, as an open
//     seat's always are.
//
// Whatever cannot be played on halts as before, naming the cheater: a cheat before the game is
// under way, at a table without escrow, during a departure, when fewer than two seats would
// stay, the cheats whose proof is another seat's entry (a dealer's bad escrow share, a choice
// the game refuses at its opening), a hidden value the game refuses when its own seat opens it
// (committed earlier, it is what the stand-in would open too), and, in version 4, an
// equivocation (two signed entries for one place). From version 5 an equivocation is settled by
// cutting the log at the twins, and played on the same way (cut.go).

// Conviction is a seat convicted of cheating at a table that played on without it: its seat
// opened as after a departure, the stand-in playing it from the step it broke.
type Conviction struct {
	Seat int    `json:"seat"` // the seat convicted
	Seq  uint64 `json:"seq"`  // the entry in the log that proves it: its own, or the blame of its answer
	// What is what the seat did, for words a person reads: the kind of entry it broke (its
	// answer, for a blame that proves it a lie), or "turn" for an entry of a kind it could
	// not write then.
	What   string `json:"what"`
	Reason string `json:"reason"` // what it did, in the words of the check it failed
}

func (c Conviction) String() string {
	return fmt.Sprintf("entry %d: seat %d was caught cheating: %s", c.Seq, c.Seat, c.Reason)
}

// ConvictionOf is seat's conviction among cs (a Report's, a Status's), if it was caught cheating.
func ConvictionOf(cs []Conviction, seat int) (Conviction, bool) {
	for _, c := range cs {
		if c.Seat == seat {
			return c, true
		}
	}
	return Conviction{}, false
}

// convicts is the table's convictions, in the log's order.
type convicts struct {
	list []Conviction
	// held is a choice's result the game refused for the values of a seat another seat's entry
	// convicted: it is fed once that seat is open, its values replaced (replaced).
	heldIn *engine.Input
}

// Convictions is the seats convicted of cheating and played on, in the order of the log.
func (c *convicts) Convictions() []Conviction { return slices.Clone(c.list) }

// Convicted reports whether seat was convicted of cheating (and is played by the stand-in).
func (c *convicts) Convicted(seat int) bool {
	_, ok := ConvictionOf(c.list, seat)
	return ok
}

func (c *convicts) add(cv Conviction) { c.list = append(c.list, cv) }

func (c *convicts) holdIn(in engine.Input) { c.heldIn = &in }

// Replacing what the game refused (version 5). A hidden value is committed before it is opened,
// so a seat that committed a value the game refuses at its opening cannot be played on by a
// stand-in that opens the same value. Instead, once the seat is open, the values the game
// refused are replaced: at a simultaneous choice (StepChoose) by the stand-in's own choice there,
// at an opening (StepOpen) by the values the game gives for it (engine.Replacer). The replacement
// is computed by every node from the open seat's game (the shadow) and a seed from the seat's
// rebuilt secret: the same everywhere, and nobody's to steer.

// replaceable reports whether the game's refusal of a value opened at the step under way can be
// replaced once its seat is open.
func (t *Table) replaceable() bool {
	if t.Version() < 5 || engine.LookupStandIn(t.g.Game) == nil {
		return false
	}
	if t.step.Kind == engine.StepChoose {
		return true
	}
	_, ok := t.game.(engine.Replacer)
	return ok && t.step.Kind == engine.StepOpen
}

// replaced is in with the values of open seat x replaced, for the game to take in place of
// those it refused; false when there is nothing to replace them with.
func (t *Table) replaced(in engine.Input, x int) (engine.Input, bool) {
	s := t.open[x]
	if s == nil || t.shadow == nil || t.Version() < 5 {
		return in, false
	}
	var b [8]byte
	if _, err := io.ReadFull(s.rand("replaced %s", t.step.label()), b[:]); err != nil {
		return in, false
	}
	seed := binary.BigEndian.Uint64(b[:])
	out := in
	switch {
	case in.Kind == engine.InChosen:
		i := slices.Index(in.Seats, x)
		standIn := engine.LookupStandIn(t.g.Game)
		if i < 0 || i >= len(in.Values) || standIn == nil {
			return in, false
		}
		act, err := standIn(t.shadow.Clone(), x, seed)
		if err != nil || len(act.Hidden) != 1 {
			return in, false
		}
		out.Values = slices.Clone(in.Values)
		out.Values[i] = act.Hidden[0]
	case in.Kind == engine.InOpened && in.Seat == x:
		r, ok := t.shadow.Clone().(engine.Replacer)
		if !ok {
			return in, false
		}
		vals, err := r.Replace(x, seed)
		if err != nil || len(vals) != len(in.Values) {
			return in, false
		}
		out.Values = vals
	default:
		return in, false
	}
	return out, true
}

// feedHeld feeds the choice held for a seat now open (its values replaced), after entry e.
func (t *Table) feedHeld(e *Entry) {
	if t.heldIn == nil || t.leaving != nil {
		return
	}
	in := *t.heldIn
	t.heldIn = nil
	if err := t.feed(e, in); err != nil {
		t.broken(e, "the game refused a choice again after its seat was opened: %v", err)
	}
}

// convictable says whether a seat convicted now may be opened and played on: "" when it may,
// else why not.
func (t *Table) convictable(seat int) string {
	if t.Version() < 4 {
		return fmt.Sprintf("a table of protocol version %d halts on a cheat", t.Version())
	}
	return t.openable(seat)
}

// playOn takes an entry that failed its checks with err. When err convicts the entry's own
// signer, at a table that may open its seat, the entry goes into the log as the proof, the
// table is as it was before it (rewind), and the seat leaves; else err stands, and the table has
// halted.
func (t *Table) playOn(e *Entry, by voucher, err error) error {
	var v *Verdict
	if !errors.As(err, &v) || v != t.verdict || v.Kind != VerdictCheat || by != bySignature || v.Seat != e.Seat ||
		v.committed || t.convictable(e.Seat) != "" {
		return err
	}
	if rerr := t.rewind(); rerr != nil {
		t.broken(e, "the table does not replay its own log after seat %d's cheat: %v", e.Seat, rerr)
		return t.verdict
	}
	what := e.Kind.String()
	switch _, kinds := t.Due(); {
	case !slices.Contains(kinds, e.Kind):
		what = "turn"
	case v.refused && t.step.Kind == engine.StepChoose:
		what = KindCommit.String() // its choice, which the rules refuse
	case v.refused:
		what = KindMove.String() // what it laid down face down, which the rules refuse
	}
	t.link(e)
	t.convict1(Conviction{Seat: e.Seat, Seq: e.Seq, What: what, Reason: v.Reason})
	return nil
}

// playOnAfter takes the verdict a good entry e reached (a blame that proves an answer a lie):
// at a table that may open the answer's author, it leaves, and the table plays on.
func (t *Table) playOnAfter(e *Entry) error {
	v := t.verdict
	if v == nil || v.Kind != VerdictCheat || e.Kind != KindBlame || v.Seat == e.Seat || t.convictable(v.Seat) != "" {
		return t.verdictOrNil()
	}
	t.acquit()
	t.answerJudged()
	t.convict1(Conviction{Seat: v.Seat, Seq: e.Seq, What: KindAnswer.String(), Reason: v.Reason})
	return nil
}

// convict1 keeps a conviction and opens the seat: its departure starts at the proof's entry.
func (t *Table) convict1(cv Conviction) {
	t.add(cv)
	t.beginLeaving(cv.Seat, cv.Seq)
}

// rewind makes t the table its own log gives, replayed from the genesis (cut.go's replayTo):
// what an entry that failed its checks changed on its way is undone. This node's promise, which
// is not in the log, is kept.
func (t *Table) rewind() error {
	fresh, err := t.replayTo(t.Len())
	if err != nil {
		return err
	}
	t.become(fresh)
	return nil
}
