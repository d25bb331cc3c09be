package protocol

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"corruption/engine"
)

// Report is what an audit of a log found.
type Report struct {
	Outcome
	Valid bool `json:"valid"`
	// Problem is the first thing wrong with the log ("" when valid): a verdict, a bad entry, a
	// truncated file or an incomplete table.
	Problem string `json:"problem,omitempty"`
	// Blamed is the seat at fault, or -1.
	Blamed int `json:"blamed"`
	// WaitingFor is, for a log that simply stops, the seat the table was waiting for (-1
	// otherwise). A stopped log is no proof against it: the copy may just be cut short.
	WaitingFor int `json:"waiting_for"`
	// At is the seq of the first failing entry, or -1.
	At int64 `json:"at"`
	// Names are the players' names by seat, and Roster each seat's place in the genesis
	// roster (by which the chat names a speaker), as far as the log goes (nil when it has no
	// table). The JSON report leaves them out.
	Names  []string `json:"-"`
	Roster []int    `json:"-"`
}

// forkAfterConviction reports whether err refuses e, the entry right after a conviction's proof,
// for not chaining to it.
func forkAfterConviction(t *Table, e *Entry, err error) bool {
	var rj *RejectError
	cs := t.Convictions()
	return errors.As(err, &rj) && rj.chain && len(cs) > 0 && cs[len(cs)-1].Seq+1 == e.Seq && e.Seq == t.Len()
}

// Audit checks a saved log with no secret: every signature, the chain, every key, shuffle,
// share and blame proof, every commitment against its opening, and every rule by replaying
// the game. A log is valid when it holds a complete table (every seat signed off the final
// digest) and nothing else. opts are given to the game (to follow its events).
func Audit(r io.Reader, opts engine.Options) (*Report, error) {
	rep := &Report{Blamed: -1, At: -1, WaitingFor: -1}
	lr, err := NewLogReader(r)
	if err != nil {
		return nil, err
	}
	first, _, rerr := lr.Next()
	if first == nil {
		if rerr == nil || rerr == io.EOF {
			rerr = errors.New("the log has no entries")
		}
		return nil, rerr
	}
	t, err := NewTable(first, nil, opts)
	if err != nil {
		rep.Problem, rep.At = err.Error(), 0
		return rep, nil
	}
	rep.Table = t.g.Name
	defer func() {
		for _, m := range t.Players() {
			rep.Names = append(rep.Names, m.Name)
		}
		rep.Roster = t.RosterOrder()
	}()
	// The log is read as it is checked, one record at a time: memory stays bounded by the
	// table's own size, whatever the file holds.
	var notes []*Note
	for {
		e, note, err := lr.Next()
		if err == io.EOF {
			rerr = nil
			break
		}
		if err != nil {
			rerr = err
			break
		}
		if note != nil {
			notes = append(notes, note)
			continue
		}
		err = t.Append(e)
		var v *Verdict
		var gap *GapError
		switch {
		case err == nil, errors.As(err, &v), errors.Is(err, ErrHalted):
			// After a verdict the rest of the log is its evidence: a second version of the
			// offending entry turns a cheat into an equivocation.
			continue
		case errors.As(err, &gap):
			rep.Problem, rep.At = fmt.Sprintf("entry %d is missing: the log goes from entry %d to entry %d", gap.Have, gap.Have-1, gap.Got), int64(gap.Have)
		case errors.Is(err, ErrDuplicate):
			rep.Problem, rep.At = fmt.Sprintf("entry %d appears twice", e.Seq), int64(e.Seq)
		case errors.Is(err, ErrDone):
			rep.Problem, rep.At = fmt.Sprintf("entry %d follows the end of the table (every seat had signed off)", e.Seq), int64(e.Seq)
		case forkAfterConviction(t, e, err):
			// The log goes on from another version of the entry that convicted a seat: that
			// seat signed the cheat the log holds, and the table this log comes from went on
			// from another entry there (the file was changed, or the seat signed both).
			c := t.Convictions()[len(t.Convictions())-1]
			rep.Problem = fmt.Sprintf("entry %d: seat %d cheated: %s; entry %d does not chain to that entry: the log goes on from another version of it",
				c.Seq, c.Seat, c.Reason, e.Seq)
			rep.At, rep.Blamed = int64(c.Seq), c.Seat
		default:
			rep.Problem, rep.At = err.Error(), int64(e.Seq)
		}
		fillOutcome(&rep.Outcome, t)
		return rep, nil
	}
	fillOutcome(&rep.Outcome, t)
	rep.Seat = -1
	switch {
	case rerr != nil:
		rep.Problem, rep.At = rerr.Error(), int64(t.Len())
	case t.Verdict() != nil:
		v := t.Verdict()
		rep.Problem, rep.Blamed, rep.At = v.Error(), v.Seat, int64(v.Seq)
	case !t.Done():
		rep.WaitingFor, _ = t.Due()
		rep.Problem, rep.At = fmt.Sprintf("the log is incomplete: it stops after entry %d, with the table waiting for %s", t.Len()-1, t.DueString()), int64(t.Len())
		for _, n := range notes {
			v := n.Verdict
			if n.Table == t.id && n.Writer >= 0 && n.Writer < len(t.keys) && n.Verify(t.keys[n.Writer]) &&
				v.Seq == t.Len() && v.Seat == rep.WaitingFor && n.Writer != v.Seat {
				rep.Problem = fmt.Sprintf("%s (noted by seat %d)", v.Error(), n.Writer)
				rep.Blamed = v.Seat
				fillOutcome(&rep.Outcome, t)
				rep.Outcome.Verdict = &v
				break
			}
		}
	default:
		rep.Valid = true
	}
	return rep, nil
}

// AuditChecked is Audit for the saved log of a table that t checked entry by entry as they
// came, as a node's table does: every signature, proof and rule, by the same Append an audit
// replays. When the log holds exactly t's entries (each one's hash, signature included, in
// order, and no note) and t ended as a valid log ends (every seat signed off, no verdict), a
// full audit would replay the same entries through the same checks: the report is made from t
// without checking every proof a second time. Any other log (cut short, changed, holding a
// note, or of a table that halted) is audited in full. A seat audits its saved log when its
// table ends (package seat): this spares a phone a second check of the whole table, a second
// of its time at a table of seven (docs/PERFORMANCE.md). The log's words stay checked: it is
// the file the player keeps, read back.
func AuditChecked(log []byte, t *Table, opts engine.Options) (*Report, error) {
	if rep := t.reportSame(log); rep != nil {
		return rep, nil
	}
	return Audit(bytes.NewReader(log), opts)
}

// reportSame is the report of a valid audit of log, made from t, when log holds exactly t's
// entries and t ended with every seat signed off and no verdict; nil otherwise.
func (t *Table) reportSame(log []byte) *Report {
	if t == nil || !t.Done() || t.Verdict() != nil {
		return nil
	}
	lr, err := NewLogReader(bytes.NewReader(log))
	if err != nil {
		return nil
	}
	n := 0
	for {
		e, note, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil || note != nil || e == nil || n >= len(t.entries) || e.Hash() != t.entries[n].Hash() {
			return nil
		}
		n++
	}
	if n != len(t.entries) {
		return nil
	}
	rep := &Report{Valid: true, Blamed: -1, At: -1, WaitingFor: -1}
	rep.Table = t.g.Name
	fillOutcome(&rep.Outcome, t)
	rep.Seat = -1
	for _, m := range t.Players() {
		rep.Names = append(rep.Names, m.Name)
	}
	rep.Roster = t.RosterOrder()
	return rep
}
