package protocol

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"

	"corruption/crypto"
	"corruption/engine"
	"corruption/protocol/internal/wire"
)

// Equivocations settled by playing on (version 5, issue 40). docs/PROTOCOL.md, "Equivocation:
// one outcome", is the specification; in short:
//
//  1. Twins. Two entries one seat signed for one seq, both chaining to the same entry (one
//     prev), are its equivocation. Only entries with one prev count: an honest seat whose entry
//     was on a branch the cut dropped writes its entry again after the cut, and its two entries
//     then chain to different entries (the first to an entry the log no longer holds), which is
//     never taken for its equivocation.
//  2. The proof takes their place. Any node that holds both twins builds the same twins entry:
//     their seat, seq and prev, the two entries' bytes (lower hash first), unsigned (the twins'
//     own signatures vouch for it). Where the seat could be opened, judged at the table as it
//     stood before the twins (convict.go), every node cuts its log there: the entries from that
//     seq on, one twin and what was built on it, are void; the twins entry takes the place; the
//     seat is convicted from it and leaves as after any conviction. A seat that signed three
//     entries for one place gives several twins entries: the lowest hash holds the place, and a
//     node that took a higher one cuts again when it sees the lower. Where the seat cannot be
//     opened, the table halts naming it, as before version 5.
//  3. The reshuffle. What the dropped branch published cannot be taken back, and different
//     nodes saw different parts of it: decryption shares of cards the log never dealt, openings,
//     chain reveals of the random draws to come. So once the seat is open, and before play
//     resumes, each staying seat in turn re-encrypts and permutes, with a proof, the cards of
//     each deck that nobody has seen (shuffled since the deck was built, never dealt: decks'
//     mixed positions, deck.go), which leaves every share of the dropped branch useless, and
//     commits to a fresh random chain, from which its reveals for the draws to come are taken;
//     hidden values committed after the cut take their nonces and notes from the cut's count
//     (self.go). Then the stand-in plays the seat from the step it broke.

// cuts is the table's cuts: the twins entries in its log, and the reshuffle after the last.
type cuts struct {
	cutsN      int          // twins entries in the log
	lastAt     uint64       // the last one's seq
	owed       bool         // the staying seats' reshuffle is due once the last cut's seat is open
	reshuffled map[int]bool // the seats that reshuffled since the last cut
	freshAt    map[int]int  // by seat: the draws completed when it committed its fresh chain
}

// Cuts is the number of times the log was cut at an equivocation: the twins entries it holds.
func (c *cuts) Cuts() int { return c.cutsN }

// freshChain reports whether seat draws from a fresh chain, and the draws completed when it
// committed it.
func (c *cuts) freshChain(seat int) (int, bool) {
	at, ok := c.freshAt[seat]
	return at, ok
}

// lastTwins is the log's last twins entry (nil when it holds none).
func (t *Table) lastTwins() *Entry {
	if t.cutsN == 0 || t.lastAt >= t.Len() {
		return nil
	}
	return t.entries[t.lastAt]
}

// TwinsEntry is the twins entry of a and b: two different entries one seat signed for one place
// (the caller checks that they are). Every node builds the same bytes from the same pair.
func TwinsEntry(a, b *Entry) *Entry {
	ha, hb := a.Hash(), b.Hash()
	if bytes.Compare(hb[:], ha[:]) < 0 {
		a, b = b, a
	}
	w := wire.Writer{}
	w.Bytes(a.Marshal())
	w.Bytes(b.Marshal())
	return &Entry{Version: a.Version, Table: a.Table, Seq: a.Seq, Prev: a.Prev, Seat: a.Seat, Kind: KindTwins, Body: w.B}
}

// Twins decodes a twins entry's two entries, lower hash first, and checks that they are two
// different entries of its seat for its place, each signed by pub.
func Twins(e *Entry, pub ed25519.PublicKey) (a, b *Entry, err error) {
	if e.Kind != KindTwins {
		return nil, nil, fmt.Errorf("a %s entry is not a twins entry", e.Kind)
	}
	if e.Sig != ([ed25519.SignatureSize]byte{}) {
		return nil, nil, errors.New("a twins entry is not signed")
	}
	r := wire.Reader{B: e.Body}
	ab := r.Bytes(MaxEntrySize, "first twin")
	bb := r.Bytes(MaxEntrySize, "second twin")
	if err := r.Done("twins entry"); err != nil {
		return nil, nil, err
	}
	if a, err = ParseEntry(ab); err == nil {
		b, err = ParseEntry(bb)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("malformed twins entry: %w", err)
	}
	for i, x := range []*Entry{a, b} {
		switch {
		case x.Table != e.Table || x.version() != e.version() || x.Seq != e.Seq || x.Prev != e.Prev || x.Seat != e.Seat:
			return nil, nil, fmt.Errorf("twin %d is not seat %d's entry for seq %d of this table after the same entry", i+1, e.Seat, e.Seq)
		case x.Kind == KindTwins || x.Kind == KindDepart || x.Kind == KindGenesis:
			return nil, nil, fmt.Errorf("twin %d is a %s entry, which no seat signs at its turn", i+1, x.Kind)
		case !x.Verify(pub):
			return nil, nil, fmt.Errorf("twin %d does not carry seat %d's signature", i+1, e.Seat)
		}
	}
	ha, hb := a.Hash(), b.Hash()
	if bytes.Compare(ha[:], hb[:]) >= 0 {
		return nil, nil, errors.New("the twins are the same entry, or not lower hash first")
	}
	return a, b, nil
}

// CutError is Append's answer to an entry that proved an equivocation the table settles by
// cutting its log: the entries from Seq on are void, and the twins entry Proof holds Seq.
type CutError struct {
	Seq     uint64
	Seat    int
	Dropped int    // the entries the log no longer holds
	Proof   *Entry // the twins entry now at Seq
}

func (e *CutError) Error() string {
	return fmt.Sprintf("entry %d: seat %d signed two different entries for it: the log goes back to entry %d (%d entries void) and plays on without the seat",
		e.Seq, e.Seat, e.Seq, e.Dropped)
}

// checkTwins checks a twins entry at the place of the seat due (checkUnsigned).
func (t *Table) checkTwins(e *Entry) error {
	if t.Version() < 5 {
		return fmt.Errorf("a table of protocol version %d has no twins entries", t.Version())
	}
	if _, _, err := Twins(e, t.keys[e.Seat]); err != nil {
		return err
	}
	if why := t.convictable(e.Seat); why != "" {
		return fmt.Errorf("seat %d cannot be opened here: %s", e.Seat, why)
	}
	return nil
}

// applyTwins convicts the twins' seat: it leaves, and once it is open the staying seats
// reshuffle (during the game).
func (t *Table) applyTwins(e *Entry) {
	t.cutsN++
	t.lastAt = e.Seq
	t.owed = t.stage == stagePlay
	t.reshuffled = map[int]bool{}
	t.convict1(Conviction{Seat: e.Seat, Seq: e.Seq, What: "equivocation",
		Reason: fmt.Sprintf("it signed two different entries for seq %d", e.Seq)})
}

// twinsAt is the twins entry e makes with the entry the log holds at its seq: e's own if it is
// one, else the pair's; the lowest of those e allows, when it is lower than a twins entry the
// log holds there (nil when e proves nothing new).
func (t *Table) twinsAt(e *Entry) *Entry {
	have := t.entries[e.Seq]
	if e.Seat >= len(t.keys) || e.Prev != have.Prev || e.Seat != have.Seat {
		return nil
	}
	pub := t.keys[e.Seat]
	signed := func(x *Entry) bool {
		return x.Kind != KindTwins && x.Kind != KindDepart && x.Kind != KindGenesis && x.Verify(pub)
	}
	var cands []*Entry
	switch {
	case e.Kind == KindTwins:
		cands = append(cands, e) // checked below, as every candidate
	case have.Kind == KindTwins:
		// A third entry of the seat for this place: each of the proof's twins makes a pair with it.
		a, b, err := Twins(have, pub)
		if err == nil && signed(e) && e.Hash() != a.Hash() && e.Hash() != b.Hash() {
			cands = append(cands, TwinsEntry(a, e), TwinsEntry(b, e))
		}
	case signed(e) && signed(have):
		cands = append(cands, TwinsEntry(have, e))
	}
	var best *Entry
	var bh [32]byte
	for _, c := range cands {
		if _, _, err := Twins(c, pub); err != nil {
			continue // a twin no node could decode (an unknown kind, a body too large): no proof
		}
		if h := c.Hash(); best == nil || bytes.Compare(h[:], bh[:]) < 0 {
			best, bh = c, h
		}
	}
	if best == nil {
		return nil
	}
	if have.Kind == KindTwins {
		if hh := have.Hash(); bytes.Compare(bh[:], hh[:]) >= 0 {
			return nil
		}
	}
	return best
}

// cut settles the equivocation twins entry p proves: where the seat can be opened at the table
// as it stood before p's seq, the log is cut there and p takes the place (*CutError); else the
// table halts, naming the seat (*Verdict).
func (t *Table) cut(p *Entry) error {
	fresh, err := t.replayTo(p.Seq)
	if err != nil {
		t.broken(p, "the table does not replay its own log before seat %d's equivocation: %v", p.Seat, err)
		return t.verdict
	}
	if why := fresh.convictable(p.Seat); why != "" {
		a, b, err := Twins(p, t.keys[p.Seat])
		if err != nil {
			return reject(p, "%v", err)
		}
		return t.equivocated(a, b, why)
	}
	if err := fresh.Append(p); err != nil {
		return err
	}
	c := &CutError{Seq: p.Seq, Seat: p.Seat, Dropped: len(t.entries) - int(p.Seq), Proof: p}
	t.become(fresh)
	return c
}

// replayTo is the table the log's first seq entries give, replayed from the genesis, with this
// node's promise when it is for one of them; the game's events are not told again.
func (t *Table) replayTo(seq uint64) (*Table, error) {
	opts, mute := t.opts, new(bool)
	if tell := opts.OnEvent; tell != nil {
		opts.OnEvent = func(ev engine.Event) {
			if !*mute {
				tell(ev)
			}
		}
	}
	*mute = true
	defer func() { *mute = false }()
	fresh, err := NewTable(t.entries[0], t.self, opts)
	if err != nil {
		return nil, err
	}
	for _, e := range t.entries[1:seq] {
		if err := fresh.Append(e); err != nil {
			return nil, fmt.Errorf("entry %d: %w", e.Seq, err)
		}
	}
	if p := t.Promised(); p != nil && p.Seq <= seq {
		fresh.Promise(p)
	}
	return fresh, nil
}

// The reshuffle.

// reshuffleDue is the staying seat that reshuffles next (-1 when none is due): the lowest seat
// that is neither open nor done, once the cut's seat is open.
func (t *Table) reshuffleDue() int {
	if !t.owed || t.leaving != nil {
		return -1
	}
	for s := range t.keys {
		if t.open[s] == nil && !t.reshuffled[s] {
			return s
		}
	}
	return -1
}

// reshuffleCtx binds a reshuffle's proofs to the cut and the deck.
func (t *Table) reshuffleCtx(deck int) crypto.Context {
	return t.ctx.WithStep(fmt.Sprintf("reshuffle after cut %d deck %d", t.cutsN, deck))
}

// reshuffleBody is a reshuffle entry: for each deck with mixed positions (decks.mixedDecks), the
// new ciphertexts of those positions and the shuffle's proof; then the anchor of the seat's
// fresh random chain.
type reshuffleBody struct {
	decks  []shuffleBody
	anchor crypto.RandomCommitment
}

func (b *reshuffleBody) marshal() []byte {
	w := wire.Writer{}
	for i := range b.decks {
		w.Bytes(b.decks[i].marshal())
	}
	w.Fixed(b.anchor.Bytes())
	return w.B
}

func (t *Table) parseReshuffle(p []byte) (*reshuffleBody, error) {
	r := wire.Reader{B: p}
	b := &reshuffleBody{}
	for _, id := range t.mixedDecks() {
		sb, err := parseShuffleBody(r.Bytes(MaxBodySize, "deck"), len(t.mixed(id)))
		if r.Err != nil {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("malformed reshuffle entry: deck %d: %w", id, err)
		}
		b.decks = append(b.decks, *sb)
	}
	ab := r.Take(crypto.RandomSize)
	if err := r.Done("reshuffle entry"); err != nil {
		return nil, err
	}
	anchor, err := crypto.ParseRandomCommitment(ab)
	if err != nil {
		return nil, fmt.Errorf("malformed reshuffle entry: %w", err)
	}
	b.anchor = anchor
	return b, nil
}

// applyReshuffle takes a staying seat's reshuffle: each deck's mixed positions, re-encrypted and
// permuted with a proof, and its fresh chain's anchor.
func (t *Table) applyReshuffle(e *Entry) error {
	b, err := t.parseReshuffle(e.Body)
	if err != nil {
		return err
	}
	ids := t.mixedDecks()
	ps := make([][]int, len(ids))
	for i, id := range ids {
		ps[i] = t.mixed(id)
		if err := crypto.VerifyShuffle(t.reshuffleCtx(id), e.Seat, t.joint, t.cards(id, ps[i]), b.decks[i].deck, b.decks[i].proof); err != nil {
			return fmt.Errorf("its reshuffle proof of deck %d does not verify: %w", id, err)
		}
	}
	for i, id := range ids {
		t.replace(id, ps[i], b.decks[i].deck)
	}
	t.anchorChain(e.Seat, b.anchor)
	if t.freshAt == nil {
		t.freshAt = map[int]int{}
	}
	t.freshAt[e.Seat] = t.draws
	t.reshuffled[e.Seat] = true
	if t.reshuffleDue() < 0 {
		t.owed = false
	}
	return nil
}

// reshuffleBody is the node's reshuffle entry.
func (s *Self) reshuffleBody(t *Table) ([]byte, error) {
	b := &reshuffleBody{}
	for _, id := range t.mixedDecks() {
		deck, proof, err := crypto.Shuffle(s.rand("reshuffle after cut %d deck %d", t.cutsN, id), t.reshuffleCtx(id), s.seat, t.joint, t.cards(id, t.mixed(id)))
		if err != nil {
			return nil, err
		}
		b.decks = append(b.decks, shuffleBody{deck: deck, proof: proof})
	}
	chain, err := s.freshChain(t.ctx, t.cutsN)
	if err != nil {
		return nil, err
	}
	b.anchor = chain.Anchor()
	return b.marshal(), nil
}
