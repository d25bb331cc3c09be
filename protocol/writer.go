package protocol

import (
	"errors"
	"fmt"

	"corruption/crypto"
	"corruption/engine"
	"corruption/protocol/internal/wire"
)

// The writer of the node's own entries. Everything but the player's decisions is automatic:
// keys, random reveals, shuffles, shares, openings, answers, blames and sign-offs. Every random
// choice comes from Self.rand with a label that names its purpose and step, so a restarted node
// rebuilds the same secrets and rewrites the same bytes.

// ErrNotDue is NextEntry's answer when the node's seat is not the one due.
var ErrNotDue = errors.New("this node's seat is not due")

// NeedsDecision reports whether the entry due from this node is the player's decision (a move,
// or a simultaneous choice), which NextEntry takes as an argument.
func (t *Table) NeedsDecision() bool {
	seat, kinds := t.Due()
	if t.self == nil || seat != t.self.seat {
		return false
	}
	if a := t.answer; a != nil && a.to == seat && a.bad != nil {
		return false // it blames instead
	}
	return kinds[0] == KindMove || kinds[0] == KindCommit
}

// NextEntry builds and signs the node's next entry when its seat is due. act is the player's
// decision, used when NeedsDecision says one is due (ignored otherwise). It returns ErrNotDue
// when another seat is due.
func (t *Table) NextEntry(act engine.Action) (*Entry, error) {
	s := t.self
	if s == nil {
		return nil, errors.New("an observer writes no entries")
	}
	seat, kinds := t.Due()
	if seat != s.seat {
		return nil, ErrNotDue
	}
	kind, body, err := t.body(s, kinds[0], act)
	if err != nil {
		return nil, err
	}
	e := &Entry{Version: t.Version(), Table: t.id, Seq: t.Len(), Prev: t.head, Seat: s.seat, Kind: kind, Body: body}
	e.Sign(s.Identity)
	return e, nil
}

// body is the entry of kind due from s (this node's seat, or an open seat): its kind (a blame
// or a complaint may take the place of the kind due) and its body.
func (t *Table) body(s *Self, kind Kind, act engine.Action) (Kind, []byte, error) {
	var body []byte
	var err error
	if t.reshuffleDue() == s.seat {
		body, err = s.reshuffleBody(t) // after a cut (cut.go)
	} else if a := t.answer; a != nil && a.to == s.seat && a.bad != nil {
		kind = KindBlame
		body, err = s.blameBody(t)
	} else if s == t.self && t.complains() {
		kind = KindComplaint
		body, err = s.complaintBody(t, t.badDealer)
	} else {
		switch kind {
		case KindKey:
			body, err = s.keyBody(t)
		case KindEscrow:
			body, err = s.escrowBody(t)
		case KindRandom:
			body, err = s.randomBody(t)
		case KindShuffle:
			body, err = s.shuffleBody(t)
		case KindShares:
			body, err = s.sharesBody(t)
		case KindMove:
			body, err = s.moveBody(t, act)
		case KindOpen:
			body, err = s.openBody(t)
		case KindAnswer:
			body, err = s.answerBody(t)
		case KindCommit:
			body, err = s.commitBody(t, act)
		case KindRelease:
			body, err = s.releaseBody(t)
		case KindSignOff:
			d := t.game.Digest()
			body = d[:]
		default:
			err = fmt.Errorf("nothing to write for %s", kind)
		}
	}
	return kind, body, err
}

// CheckAction says whether the player's decision is one the node may sign now: the game
// accepts the move and each hidden value (checked on a copy of the game), and the sizes fit.
func (t *Table) CheckAction(act engine.Action) error {
	if t.self == nil {
		return ErrNotDue
	}
	return t.checkAction(t.self.seat, act)
}

// checkAction checks seat's decision on a copy of its game: this node's, or the open seats'.
func (t *Table) checkAction(seat int, act engine.Action) error {
	st := t.step
	if t.stage != stagePlay || t.leaving != nil || len(st.writers) == 0 || st.writers[st.turn] != seat {
		return ErrNotDue
	}
	g := t.game
	if t.open[seat] != nil {
		g = t.shadow
	}
	if len(act.Move) > engine.MaxMoveSize {
		return fmt.Errorf("a move of %d bytes, at most %d", len(act.Move), engine.MaxMoveSize)
	}
	for _, v := range act.Hidden {
		if len(v) > engine.MaxValueSize {
			return fmt.Errorf("a hidden value of %d bytes, at most %d", len(v), engine.MaxValueSize)
		}
	}
	switch st.Kind {
	case engine.StepChoose:
		if len(act.Move) != 0 || len(act.Hidden) != 1 {
			return errors.New("a choice is one hidden value and no move")
		}
		if c, ok := g.(engine.ChoiceChecker); ok {
			return c.CheckChoice(seat, act.Hidden[0])
		}
		return nil
	case engine.StepMove:
	default:
		return fmt.Errorf("the table waits for the node's %s, not a decision", st.Kind)
	}
	if len(act.Hidden) > st.Hidden {
		return fmt.Errorf("a move with %d hidden values, at most %d here", len(act.Hidden), st.Hidden)
	}
	if len(act.Move) == 0 && (!st.Respond || len(act.Hidden) > 0) {
		return errors.New("an empty move where a pass is not allowed")
	}
	trial := g.Clone()
	in := engine.Input{Kind: engine.InMove, Seat: seat, Move: act.Move}
	for i := range act.Hidden {
		in.Refs = append(in.Refs, len(t.values)+i)
	}
	if err := trial.Apply(in); err != nil {
		return err
	}
	for i, v := range act.Hidden {
		if err := trial.LearnValue(in.Refs[i], v); err != nil {
			return err
		}
	}
	return nil
}

// hide commits the node to value as hidden value ref.
func (s *Self) hide(t *Table, ref int, value []byte) (committed, error) {
	c, _, err := crypto.Commit(s.commitRand(ref, t.Cuts()), t.hiddenCtx(), s.seat, 0, ref, value)
	if err != nil {
		return committed{}, err
	}
	note, err := s.sealNote(ref, t.Cuts(), value)
	if err != nil {
		return committed{}, err
	}
	return committed{commit: c, note: note}, nil
}

// opening rebuilds the opening of the node's own hidden value ref (or an open seat's).
func (s *Self) opening(t *Table, ref int) (*crypto.Opening, error) {
	v, ok := t.mine[ref]
	if s != t.self {
		v, ok = t.openVals[ref]
		ok = ok && t.values[ref].seat == s.seat
	}
	if !ok {
		return nil, fmt.Errorf("hidden value %d is not this node's", ref)
	}
	_, o, err := crypto.Commit(s.commitRand(ref, t.values[ref].cut), t.hiddenCtx(), s.seat, 0, ref, v)
	return o, err
}

func (s *Self) moveBody(t *Table, act engine.Action) ([]byte, error) {
	if err := t.checkAction(s.seat, act); err != nil {
		return nil, fmt.Errorf("the player's move is not one to sign: %w", err)
	}
	b := &moveBody{move: act.Move}
	for i, v := range act.Hidden {
		c, err := s.hide(t, len(t.values)+i, v)
		if err != nil {
			return nil, err
		}
		b.hidden = append(b.hidden, c)
	}
	return b.marshal(), nil
}

func (s *Self) commitBody(t *Table, act engine.Action) ([]byte, error) {
	if err := t.checkAction(s.seat, act); err != nil {
		return nil, fmt.Errorf("the player's choice is not one to sign: %w", err)
	}
	c, err := s.hide(t, len(t.values), act.Hidden[0])
	if err != nil {
		return nil, err
	}
	w := wire.Writer{}
	c.write(&w)
	return w.B, nil
}

func (s *Self) openBody(t *Table) ([]byte, error) {
	b := &openBody{}
	for _, ref := range t.step.openRefs() {
		o, err := s.opening(t, ref)
		if err != nil {
			return nil, err
		}
		b.openings = append(b.openings, o)
	}
	return b.marshal(), nil
}

func (s *Self) answerBody(t *Table) ([]byte, error) {
	st := t.step
	o, err := s.opening(t, st.Refs[0])
	if err != nil {
		return nil, err
	}
	box, err := crypto.Seal(s.rand("answer %s", st.label()), t.stepCtx(), s.seat, st.To, t.pubs[st.To], padAnswer(o.Bytes()))
	if err != nil {
		return nil, err
	}
	return box.Bytes(), nil
}

func (s *Self) blameBody(t *Table) ([]byte, error) {
	priv, err := s.elgamalKey()
	if err != nil {
		return nil, err
	}
	a := t.answer
	b, err := crypto.ProveBlame(s.rand("blame %d", a.ref), a.ctx, a.from, a.to, priv, a.box)
	if err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// parseFixed reads a body of exactly n bytes.
func parseFixed(p []byte, n int, what string) ([]byte, error) {
	r := wire.Reader{B: p}
	v := r.Take(n)
	return v, r.Done(what)
}
