package protocol

import (
	"errors"
	"fmt"

	"corruption/crypto"
	"corruption/engine"
	"corruption/protocol/internal/wire"
)

// Hidden values. A seat's face-down card, its secret vote or its hidden agenda is a hidden
// value: the seat publishes a salted commitment to it (crypto.Commit, bound to table, roster,
// seat and the value's ref), and beside it a note only it can read (a restarted node reads its
// own values back from the log). Refs number the hidden values of a table from 0, in the order
// of their commitments. The seat opens a value later (StepOpen, or the second half of a
// simultaneous choice), and every node checks the opening against the commitment before the
// game checks the value itself. A peek (StepAnswer) sends the value's opening sealed to the
// peeker alone, with a proof of knowledge of the box's key; a peeker whose answer lies proves
// it with a blame that opens the box for all.

// hidden is the table's hidden values.
type hidden struct {
	values []hiddenValue  // by ref
	mine   map[int][]byte // this node's own values, by ref
	answer *pendingAnswer // an answer to a peek, until the peeker's next entry
	// learnErr is what this node's game refused to learn privately (a bug: reported by the
	// node, never a verdict, since nobody else can see it).
	learnErr error
}

type hiddenValue struct {
	seat   int
	commit crypto.Commitment
	note   []byte // the seat's note to self: read by everyone once the seat is open
	cut    int    // the cuts before it was committed (cut.go): its nonce's and its note's
}

// pendingAnswer is an answer to a peek, which the peeker may blame with its next entry.
type pendingAnswer struct {
	from, to, ref int
	box           *crypto.SealedBox
	ctx           crypto.Context
	bad           error // on the peeker's node: why the answer is wrong
}

func (h *hidden) init() { h.mine = map[int][]byte{} }

// learnFailed keeps what this node's game refused to learn privately, for the node to report.
func (h *hidden) learnFailed(err error) { h.learnErr = errors.Join(h.learnErr, err) }

// takeLearnErr is what the game refused to learn since it was last taken.
func (h *hidden) takeLearnErr() error {
	err := h.learnErr
	h.learnErr = nil
	return err
}

func (h *hidden) checkRef(ref, seat int) error {
	if ref < 0 || ref >= len(h.values) {
		return fmt.Errorf("hidden value %d does not exist", ref)
	}
	if h.values[ref].seat != seat {
		return fmt.Errorf("hidden value %d is seat %d's, not seat %d's", ref, h.values[ref].seat, seat)
	}
	return nil
}

// hiddenCtx is the context of every commitment to a hidden value (bound to seat and ref).
func (t *Table) hiddenCtx() crypto.Context { return t.ctx.WithStep(stepHidden) }

// A committed value in an entry: the commitment, then the note to self.
const committedSize = crypto.CommitmentSize + noteSize

type committed struct {
	commit crypto.Commitment
	note   []byte
}

func (c *committed) write(w *wire.Writer) {
	w.Fixed(c.commit[:])
	w.Fixed(c.note)
}

func readCommitted(r *wire.Reader) committed {
	var c committed
	r.Fixed(c.commit[:])
	c.note = r.Take(noteSize)
	return c
}

// moveBody is a move: the game's encoding, and its hidden values' commitments.
type moveBody struct {
	move   []byte
	hidden []committed
}

func (b *moveBody) marshal() []byte {
	w := wire.Writer{}
	w.Bytes(b.move)
	w.U8(uint8(len(b.hidden)))
	for i := range b.hidden {
		b.hidden[i].write(&w)
	}
	return w.B
}

func parseMoveBody(p []byte) (*moveBody, error) {
	r := wire.Reader{B: p}
	b := &moveBody{move: r.Bytes(engine.MaxMoveSize, "move")}
	n := int(r.U8())
	if r.Err == nil && n > engine.MaxHidden {
		return nil, fmt.Errorf("malformed move entry: %d hidden values, at most %d", n, engine.MaxHidden)
	}
	for i := 0; i < n && r.Err == nil; i++ {
		b.hidden = append(b.hidden, readCommitted(&r))
	}
	if err := r.Done("move entry"); err != nil {
		return nil, err
	}
	return b, nil
}

// commit records a seat's hidden value and returns its ref; on the seat's own node it reads the
// value back from its note.
func (t *Table) commit(seat int, c committed) (int, error) {
	ref := len(t.values)
	if t.self != nil && t.self.seat == seat {
		v, err := t.self.openNote(ref, t.Cuts(), c.note)
		if err != nil {
			return 0, err
		}
		t.mine[ref] = v
	}
	t.readOpenNote(seat, ref, t.Cuts(), c.note)
	hv := hiddenValue{seat: seat, commit: c.commit, cut: t.Cuts()}
	if t.g.Escrow {
		hv.note = c.note
	}
	t.values = append(t.values, hv)
	return ref, nil
}

// applyMove takes a seat's move: its hidden values are committed, and the game plays it.
func (t *Table) applyMove(e *Entry) error {
	b, err := parseMoveBody(e.Body)
	if err != nil {
		return err
	}
	if len(b.hidden) > t.step.Hidden {
		return fmt.Errorf("its move carries %d hidden values, at most %d here", len(b.hidden), t.step.Hidden)
	}
	if len(b.move) == 0 && (!t.step.Respond || len(b.hidden) > 0) {
		return errors.New("an empty move where a pass is not allowed")
	}
	t.endAnswer(e)
	in := engine.Input{Kind: engine.InMove, Seat: e.Seat, Move: b.move}
	for _, c := range b.hidden {
		ref, err := t.commit(e.Seat, c)
		if err != nil {
			return err
		}
		in.Refs = append(in.Refs, ref)
	}
	return t.feed(e, in)
}

type openBody struct{ openings []*crypto.Opening }

func (b *openBody) marshal() []byte {
	w := wire.Writer{}
	w.U8(uint8(len(b.openings)))
	for _, o := range b.openings {
		w.Bytes(o.Bytes())
	}
	return w.B
}

func parseOpenBody(p []byte, want int) (*openBody, error) {
	r := wire.Reader{B: p}
	n := int(r.U8())
	if r.Err == nil && n != want {
		return nil, fmt.Errorf("malformed open entry: %d openings, want %d", n, want)
	}
	var raw [][]byte
	for i := 0; i < n && r.Err == nil; i++ {
		raw = append(raw, r.Bytes(32+engine.MaxValueSize, "opening"))
	}
	if err := r.Done("open entry"); err != nil {
		return nil, err
	}
	b := &openBody{}
	for i, ob := range raw {
		o, err := crypto.ParseOpening(ob)
		if err != nil {
			return nil, fmt.Errorf("malformed open entry: opening %d: %w", i+1, err)
		}
		b.openings = append(b.openings, o)
	}
	return b, nil
}

// applyOpen checks a seat's openings against its commitments; the game checks the values when
// the step completes.
func (t *Table) applyOpen(e *Entry) error {
	refs := t.step.openRefs()
	b, err := parseOpenBody(e.Body, len(refs))
	if err != nil {
		return err
	}
	t.endAnswer(e)
	for k, ref := range refs {
		v, err := crypto.VerifyOpening(t.hiddenCtx(), e.Seat, 0, ref, t.values[ref].commit, b.openings[k])
		if err != nil {
			return fmt.Errorf("hidden value %d: %w", ref, err)
		}
		t.step.addValue(v)
	}
	return nil
}

// applyCommit takes a seat's commitment to its simultaneous choice.
func (t *Table) applyCommit(e *Entry) error {
	r := wire.Reader{B: e.Body}
	c := readCommitted(&r)
	if err := r.Done("commit entry"); err != nil {
		return err
	}
	t.endAnswer(e)
	ref, err := t.commit(e.Seat, c)
	if err != nil {
		return err
	}
	t.step.addRef(ref)
	return nil
}

// answerSize is the size of every sealed answer's plaintext: the opening padded, so that the
// box's size says nothing of the value.
const answerSize = 1 + 32 + engine.MaxValueSize

func padAnswer(opening []byte) []byte {
	b := make([]byte, answerSize)
	b[0] = byte(len(opening))
	copy(b[1:], opening)
	return b
}

func unpadAnswer(b []byte) ([]byte, error) {
	if len(b) != answerSize || int(b[0]) > answerSize-1 {
		return nil, errors.New("the answer is not a padded opening")
	}
	n := int(b[0])
	for _, z := range b[1+n:] {
		if z != 0 {
			return nil, errors.New("the answer's padding is not zero")
		}
	}
	return b[1 : 1+n], nil
}

// applyAnswer takes the sealed answer to a peek. Every node checks that its author knows the
// box's key (a box built on another point would make the peeker's blame publish its decryption
// share of that point); the peeker's node opens it and checks it.
func (t *Table) applyAnswer(e *Entry) error {
	box, err := crypto.ParseSealedBox(e.Body)
	if err != nil {
		return fmt.Errorf("malformed answer entry: %w", err)
	}
	st := t.step
	ctx := t.stepCtx()
	if err := crypto.VerifySealedBox(ctx, st.Seat, st.To, t.pubs[st.To], box); err != nil {
		return fmt.Errorf("its sealed answer to seat %d's peek: %w", st.To, err)
	}
	t.endAnswer(e)
	a := &pendingAnswer{from: st.Seat, to: st.To, ref: st.Refs[0], box: box, ctx: ctx}
	in := engine.Input{Kind: engine.InAnswered, Seat: st.Seat, To: st.To, Refs: st.Refs}
	err = t.feedAnswered(e, in, a)
	if err != nil {
		return err
	}
	t.answer = a
	if o := t.open[a.to]; o != nil {
		a.judge(t, o.root) // the open seat blames a lie as its player would have
	}
	if t.self != nil && t.self.seat == a.to && t.verdict == nil {
		// Only an answer that does not open the commitment is blamed: the blame proves exactly
		// that. A value the game finds wrong is the answerer's to defend at its opening.
		priv, err := t.self.elgamalKey()
		if err != nil {
			return err
		}
		if v, err := t.openAnswer(a, priv); err != nil {
			a.bad = err
		} else if err := t.game.LearnValue(a.ref, v); err != nil {
			t.learnFailed(err)
		}
	}
	return nil
}

// openAnswer is the peeker's check of the answer to its peek: the box opens with its key and
// holds an opening of the peeked value's commitment.
func (t *Table) openAnswer(a *pendingAnswer, priv *crypto.PrivateKey) ([]byte, error) {
	msg, err := crypto.Unseal(a.ctx, a.from, a.to, priv, a.box)
	if err != nil {
		return nil, err
	}
	return t.checkAnswer(a, msg)
}

// judge opens a with the peeker's key, priv, and keeps why the answer is wrong, if it is.
func (a *pendingAnswer) judge(t *Table, priv *crypto.PrivateKey) { _, a.bad = t.openAnswer(a, priv) }

// checkAnswer checks that msg is an opening of the peeked value's commitment, and reads it.
func (t *Table) checkAnswer(a *pendingAnswer, msg []byte) ([]byte, error) {
	raw, err := unpadAnswer(msg)
	if err != nil {
		return nil, err
	}
	o, err := crypto.ParseOpening(raw)
	if err != nil {
		return nil, err
	}
	return crypto.VerifyOpening(t.hiddenCtx(), a.from, 0, a.ref, t.values[a.ref].commit, o)
}

// endAnswer ends the window in which a peeker may blame the answer to its peek: its next entry.
func (h *hidden) endAnswer(e *Entry) {
	if h.answer != nil && e.Seat == h.answer.to {
		h.answer = nil
	}
}

// answerJudged is done with the answer a blame proved a lie (its author convicted, the table
// playing on: convict.go).
func (h *hidden) answerJudged() { h.answer = nil }

// applyBlame judges the peeker's claim that the answer to its peek lied. Either way the table
// halts: the blame convicts the answer's author, or the false blame its own.
func (t *Table) applyBlame(e *Entry) error {
	bl, err := crypto.ParseBlame(e.Body)
	if err != nil {
		return fmt.Errorf("malformed blame entry: %w", err)
	}
	a := t.answer
	msg, err := crypto.VerifyBlame(a.ctx, a.from, a.to, t.pubs[a.to], a.box, bl)
	switch {
	case errors.Is(err, crypto.ErrDecrypt):
		t.convict(a.from, e, "its sealed answer to seat %d's peek at hidden value %d does not decrypt", a.to, a.ref)
		return nil
	case err != nil:
		return fmt.Errorf("its blame of seat %d does not verify: %w", a.from, err)
	}
	if _, err := t.checkAnswer(a, msg); err != nil {
		t.convict(a.from, e, "its answer to seat %d's peek at hidden value %d is not the value it committed to: %v", a.to, a.ref, err)
		return nil
	}
	return fmt.Errorf("it blamed seat %d's answer, which is honest", a.from)
}

// learnResult tells this node's game what it alone may know of a step's result: its own
// hidden values, and the cards dealt to it.
func (t *Table) learnResult(in engine.Input) {
	if t.self == nil {
		return
	}
	var err error
	switch in.Kind {
	case engine.InMove:
		if in.Seat == t.self.seat {
			for _, ref := range in.Refs {
				if err = t.game.LearnValue(ref, t.mine[ref]); err != nil {
					break
				}
			}
		}
	case engine.InDealt:
		err = t.learnDealt(in)
	}
	if err != nil {
		// Its own node checked the move before signing it, and the deal's proofs verified:
		// this is a bug, which the node reports; the public game goes on.
		t.learnFailed(err)
	}
}
