package protocol

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"corruption/crypto"
	"corruption/engine"
	"corruption/protocol/internal/wire"
)

// Departures (issue 12): a table that escrows its seats' root secrets plays on when a player
// leaves for good. docs/PROTOCOL.md, "Departures", is the specification; in short:
//
//  1. Agreement. The seat due at entry L is silent past its clock and bank. Each staying seat's
//     node, once that is so by its own clock (and, for the first to notice, after asking every
//     peer it reaches), signs an agreement: a Departure naming the table, L, the seat and the
//     hash of entry L−1. It carries no share. It is a promise: that node will never apply the
//     seat's own entry at L. A node that already applied that entry signs a refusal instead,
//     and never an agreement.
//  2. The depart entry. Once a node holds the agreements of every staying seat it writes entry
//     L: the departed seat's depart entry, which holds them all, sorted by seat. It is not
//     signed (its proof is the agreements inside), so every node that collects them writes the
//     very same bytes. One honest node's agreement and refusal exclude each other, so either
//     every staying seat agreed and the depart entry is the only entry L can be, or one refused
//     and it can never be written: a node that promised is then released by that refusal and
//     applies the seat's entry. From version 3, a staying seat's signed entry that builds on the
//     seat's entry L releases it too (PlayedOn): that seat applied the entry, as a refusal says.
//     A partition among the staying seats completes nothing.
//  3. The shares. Only now, with the departure final, each staying seat in seat order writes a
//     release entry: its escrow share of the departed seat's root secret, which everyone checks
//     against the dealer's commitments. The shares sealed to a seat opened before are opened by
//     everyone with that seat's key. With the last share every node rebuilds the key and checks
//     it against the published one.
//  4. The open seat. From then on the departed seat's entries are written by no one: every node
//     computes them itself, with the rebuilt secret (from which every secret of the seat
//     derives, self.go) and the game's stand-in (engine.StandIn) for its decisions, and appends
//     them unsigned. An entry of an open seat is valid only when it is byte for byte the one
//     computed, so an audit checks the stand-in's every move. The open seat's hidden values and
//     cards are known to every node from then on.
//
// A departure needs two staying seats at least (with one, a node cut off from the table could
// open the other's seat on its own), escrow, a stand-in for the game, and no departure under
// way: two seats that leave at once end the table, as a silent seat always did.

// departs is the table's departed seats and the departure under way.
type departs struct {
	open     map[int]*Self  // the open seats' rebuilt secrets, by seat
	openAt   map[int]uint64 // the seq of each open seat's depart entry
	openVals map[int][]byte // the open seats' hidden values, by ref
	leaving  *leaving       // the departure under way, from its depart entry to its last share
	promise  *Departure     // this node's agreement to a departure not yet written
	shadow   engine.Game    // the game as the open seats know it (nil before a departure)
	record   []recorded     // every input the game took, at a table that escrows
	lastAns  *pendingAnswer // the answer the input being recorded carries
	computed *Entry         // the open seat's entry last computed, for its seq
	standIns map[int]uint64 // the stand-in's decisions so far, by open seat (its seed's place)
}

// leaving is a departure between its depart entry and its last share.
type leaving struct {
	seat    int
	at      uint64
	writers []int // the staying seats, in seat order
	shares  []*crypto.EscrowShare
}

// recorded is an input the game took, with what an open seat would have learned from it.
type recorded struct {
	in     engine.Input
	deals  []*privateDeal // InDealt to one seat: by position
	answer *pendingAnswer // InAnswered
}

func (d *departs) init() {
	d.open, d.openAt, d.openVals = map[int]*Self{}, map[int]uint64{}, map[int][]byte{}
	d.standIns = map[int]uint64{}
}

// ErrPromised: the entry is the departing seat's own, which this node promised not to apply
// (it agreed to the seat's departure). A refusal from a staying seat releases the promise, and so
// does (version 3) a staying seat's entry that builds on the seat's entry (PlayedOn).
var ErrPromised = errors.New("the node agreed that this seat left: it does not apply the seat's entry unless a staying seat refuses the departure or plays on from that entry")

// SeatOpenedError: the table opened this node's own seat while it was away (its entry at Seq
// came too late). The node tells it, drops its late entries and watches.
type SeatOpenedError struct {
	Seq uint64
}

func (e *SeatOpenedError) Error() string {
	return fmt.Sprintf("the other players agreed that you had left at entry %d and play on, with your seat played by a bot: it cannot be taken back; you are watching the table", e.Seq)
}

// Departure is a staying seat's signed agreement that the seat due at Seq left the table (or,
// with Refuse, its refusal: it applied that seat's entry, whose hash is Entry).
type Departure struct {
	Refuse bool
	Writer int
	Table  [32]byte
	Seq    uint64
	Seat   int
	Head   [32]byte // the hash of entry Seq−1
	Entry  [32]byte // a refusal: the hash of the seat's entry Seq
	Sig    [ed25519.SignatureSize]byte
}

const departMagic = 0xAD
const departDomain = "corruption/depart/v1\x00"

func (d *Departure) unsigned() []byte {
	w := wire.Writer{B: []byte{departMagic}}
	kind := uint8(1)
	if d.Refuse {
		kind = 2
	}
	w.U8(kind)
	w.U8(uint8(d.Writer))
	w.Fixed(d.Table[:])
	w.U64(d.Seq)
	w.U8(uint8(d.Seat))
	w.Fixed(d.Head[:])
	if d.Refuse {
		w.Fixed(d.Entry[:])
	}
	return w.B
}

// Marshal is the departure's encoding.
func (d *Departure) Marshal() []byte { return append(d.unsigned(), d.Sig[:]...) }

func (d *Departure) sign(key ed25519.PrivateKey) {
	copy(d.Sig[:], ed25519.Sign(key, append([]byte(departDomain), d.unsigned()...)))
}

// Verify checks the signature against the writer's key.
func (d *Departure) Verify(pub ed25519.PublicKey) bool {
	return len(pub) == ed25519.PublicKeySize && ed25519.Verify(pub, append([]byte(departDomain), d.unsigned()...), d.Sig[:])
}

// ParseDeparture decodes a departure strictly.
func ParseDeparture(b []byte) (*Departure, error) {
	r := wire.Reader{B: b}
	if m := r.U8(); r.Err == nil && m != departMagic {
		return nil, errors.New("malformed departure: not a departure")
	}
	kind := r.U8()
	if r.Err == nil && kind != 1 && kind != 2 {
		return nil, fmt.Errorf("malformed departure: kind %d", kind)
	}
	d := &Departure{Refuse: kind == 2, Writer: int(r.U8())}
	r.Fixed(d.Table[:])
	d.Seq = r.U64()
	d.Seat = int(r.U8())
	r.Fixed(d.Head[:])
	if d.Refuse {
		r.Fixed(d.Entry[:])
	}
	r.Fixed(d.Sig[:])
	if err := r.Done("departure"); err != nil {
		return nil, err
	}
	if d.Writer >= maxSeats || d.Seat >= maxSeats || d.Writer == d.Seat {
		return nil, fmt.Errorf("malformed departure: seat %d about seat %d", d.Writer, d.Seat)
	}
	return d, nil
}

// Open is the open seats, ascending: seats whose player left and that the stand-in plays.
func (d *departs) Open() []int {
	var out []int
	for s := range d.open {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// IsOpen reports whether seat is open.
func (d *departs) IsOpen(seat int) bool { return d.open[seat] != nil }

// OpenedAt is the seq of an open seat's depart entry.
func (d *departs) OpenedAt(seat int) (uint64, bool) {
	at, ok := d.openAt[seat]
	return at, ok
}

// staying is the seats that stay when seat leaves: neither it nor an open seat, in seat order.
func (t *Table) staying(seat int) []int {
	var out []int
	for s := range t.keys {
		if s != seat && t.open[s] == nil {
			out = append(out, s)
		}
	}
	return out
}

// Departable says whether the seat due may be opened now, if it stays silent: "" when it may,
// else why not.
func (t *Table) Departable() string {
	seat, _ := t.Due()
	if seat < 0 {
		return "no seat is due"
	}
	return t.openable(seat)
}

// openable says whether seat may be opened now, after a departure or a conviction: "" when it
// may, else why not.
func (t *Table) openable(seat int) string {
	switch {
	case !t.g.Escrow:
		return "the table does not escrow its seats' secrets"
	case t.stage != stagePlay && t.stage != stageSignOff:
		return "the game has not started"
	case t.leaving != nil:
		return fmt.Sprintf("seat %d's departure is under way", t.leaving.seat)
	case t.open[seat] != nil:
		return fmt.Sprintf("seat %d is open already", seat)
	case engine.LookupStandIn(t.g.Game) == nil:
		return fmt.Sprintf("the game %q has no stand-in to play an open seat", t.g.Game)
	case len(t.staying(seat)) < 2:
		return "fewer than two players would stay"
	}
	return ""
}

// Agreement is this node's signed agreement that the seat due left (nil for an observer).
func (t *Table) Agreement(self *Self) *Departure {
	seat, _ := t.Due()
	d := &Departure{Writer: self.seat, Table: t.id, Seq: t.Len(), Seat: seat, Head: t.head}
	d.sign(self.Identity)
	return d
}

// Refusal is this node's signed refusal of the departure of the seat that wrote entry seq.
func (t *Table) Refusal(self *Self, seq uint64) *Departure {
	e := t.entries[seq]
	d := &Departure{Refuse: true, Writer: self.seat, Table: t.id, Seq: seq, Seat: e.Seat, Head: e.Prev, Entry: e.Hash()}
	d.sign(self.Identity)
	return d
}

// Promise records this node's agreement: from now on it does not apply the departing seat's
// entry at that seq, unless Release.
func (x *departs) Promise(d *Departure) { x.promise = d }

// Promised is this node's agreement not yet written in a depart entry, or nil.
func (d *departs) Promised() *Departure { return d.promise }

// Release frees the node from its promise: a staying seat refused the departure, or played on
// from the seat's entry (PlayedOn).
func (d *departs) Release() { d.promise = nil }

// PlayedOn checks a chain of entries against this node's promise (version 3): chain[0] is the
// departing seat's own signed entry at the promised place, each next entry follows the one
// before it (seq and hash), and one of them is signed by a seat that stays. It returns the first
// such entry: that seat played on from the seat's entry, so it applied the entry and never
// agreed to the departure (or it lied, signing both), and the depart entry cannot be written
// with every staying seat's honest agreement. It releases the promise as a refusal does (nil:
// the chain proves nothing of the kind, or there is no promise).
func (t *Table) PlayedOn(chain []*Entry) *Entry {
	p := t.promise
	if p == nil || t.Version() < 3 || len(chain) < 2 {
		return nil
	}
	own := chain[0]
	if own.Table != t.id || own.Seq != p.Seq || own.Seat != p.Seat || own.Prev != p.Head || own.Kind == KindDepart ||
		!own.Verify(t.keys[p.Seat]) {
		return nil
	}
	for i := 1; i < len(chain); i++ {
		if chain[i].Table != t.id || chain[i].Seq != chain[i-1].Seq+1 || chain[i].Prev != chain[i-1].Hash() {
			return nil
		}
	}
	return t.playedOn(p.Seat, p.Seq, chain[1:])
}

// playedOn is the first of after (entries that follow seat's entry at seq, in order) signed by
// a seat that stayed when seat was due there: neither seat itself nor a seat opened before.
func (t *Table) playedOn(seat int, seq uint64, after []*Entry) *Entry {
	for _, e := range after {
		s := e.Seat
		if s == seat || s >= len(t.keys) {
			continue
		}
		if at, open := t.openAt[s]; open && at < seq {
			continue
		}
		if e.Verify(t.keys[s]) {
			return e
		}
	}
	return nil
}

// DepartEntry is the depart entry of the seat due, from every staying seat's agreement (nil
// when one is missing). Every node builds the same bytes.
func (t *Table) DepartEntry(agreements map[int]*Departure) *Entry {
	seat, _ := t.Due()
	w := wire.Writer{}
	w.U8(uint8(seat))
	stay := t.staying(seat)
	w.U8(uint8(len(stay)))
	for _, s := range stay {
		d := agreements[s]
		if d == nil || d.Refuse || d.Seq != t.Len() || d.Seat != seat || d.Head != t.head || d.Table != t.id {
			return nil
		}
		w.U8(uint8(s))
		w.Fixed(d.Sig[:])
	}
	return &Entry{Version: t.Version(), Table: t.id, Seq: t.Len(), Prev: t.head, Seat: seat, Kind: KindDepart, Body: w.B}
}

// checkUnsigned checks an entry at the place of the seat due by the departure rules, and says
// whether they apply (ok): the seat's own entry that this node promised not to apply
// (ErrPromised), a depart entry (every staying seat's agreement inside), or an open seat's entry
// (the one every node computes). Any other entry is the seat's own to sign (ok false).
func (t *Table) checkUnsigned(e *Entry) (by voucher, ok bool, err error) {
	switch p := t.promise; {
	case p != nil && p.Seq == e.Seq && p.Seat == e.Seat && e.Kind != KindDepart:
		return bySignature, true, ErrPromised
	case e.Kind == KindDepart:
		if err := t.checkDepart(e); err != nil {
			return byAgreements, true, reject(e, "%v", err)
		}
		return byAgreements, true, nil
	case e.Kind == KindTwins:
		if err := t.checkTwins(e); err != nil {
			return byTwins, true, reject(e, "%v", err)
		}
		return byTwins, true, nil
	case t.open[e.Seat] != nil:
		if err := t.checkOpenEntry(e); err != nil {
			if t.verdict != nil {
				return byStandIn, true, t.verdict
			}
			return byStandIn, true, reject(e, "%v", err)
		}
		return byStandIn, true, nil
	}
	return bySignature, false, nil
}

// checkDepart checks a depart entry for the seat due: every staying seat's agreement, and
// nothing else.
func (t *Table) checkDepart(e *Entry) error {
	if why := t.Departable(); why != "" {
		return fmt.Errorf("seat %d cannot be opened here: %s", e.Seat, why)
	}
	if e.Sig != ([ed25519.SignatureSize]byte{}) {
		return errors.New("a depart entry is not signed")
	}
	return t.checkAgreements(e, t.staying(e.Seat))
}

// checkAgreements checks a depart entry's body: its seat, then the agreement of each seat of
// stay, in that order, each valid for the entry's place in the log, and nothing else.
func (t *Table) checkAgreements(e *Entry, stay []int) error {
	r := wire.Reader{B: e.Body}
	seat := int(r.U8())
	n := int(r.U8())
	if r.Err == nil && (seat != e.Seat || n != len(stay)) {
		return fmt.Errorf("malformed depart entry: seat %d with %d agreements, want seat %d with %d", seat, n, e.Seat, len(stay))
	}
	for i := 0; i < n && r.Err == nil; i++ {
		d := &Departure{Writer: int(r.U8()), Table: t.id, Seq: e.Seq, Seat: e.Seat, Head: e.Prev}
		r.Fixed(d.Sig[:])
		if r.Err != nil {
			break
		}
		if d.Writer != stay[i] {
			return fmt.Errorf("malformed depart entry: agreement %d is seat %d's, want seat %d's", i+1, d.Writer, stay[i])
		}
		if !d.Verify(t.keys[d.Writer]) {
			return fmt.Errorf("seat %d's agreement does not verify", d.Writer)
		}
	}
	return r.Done("depart entry")
}

// applyDepart starts the departure: the staying seats write their shares next.
func (t *Table) applyDepart(e *Entry) { t.beginLeaving(e.Seat, e.Seq) }

// beginLeaving starts seat's departure at entry at (its depart entry, or the proof that
// convicted it: convict.go): the staying seats write their shares next.
func (t *Table) beginLeaving(seat int, at uint64) {
	t.leaving = &leaving{seat: seat, at: at, writers: t.staying(seat)}
	t.promise = nil
	t.computed = nil
}

// checkLateDepart takes an entry for a seq the log holds already, when it is a valid depart
// entry of this node's own seat where the log holds the seat's own entry: the others opened the
// seat while the node was away (*SeatOpenedError), and the node takes the depart entry instead
// of its late entry. From version 3, not when a seat that stayed has played on from the node's
// entry (its signed entry follows it in the log): that seat applied the entry, yet its
// agreement is in the depart entry, so some seat lied and some nodes may hold the node's entry
// and play on from it; the node stays with them (rejected, blaming nobody: PROTOCOL.md, "One
// outcome"). Any other entry: nil, for the other checks.
func (t *Table) checkLateDepart(e *Entry) error {
	if !t.openedOwn(e) {
		return nil
	}
	if t.Version() >= 3 {
		if p := t.playedOn(e.Seat, e.Seq, t.entries[e.Seq+1:]); p != nil {
			return reject(e, "it opens this node's seat at entry %d, where seat %d, whose agreement it carries, played on from this node's entry (at entry %d)", e.Seq, p.Seat, p.Seq)
		}
	}
	return &SeatOpenedError{Seq: e.Seq}
}

// openedOwn reports whether e is a valid depart entry of this node's own seat at a seq where
// the log holds the seat's own entry: the others opened the seat while the node was away.
func (t *Table) openedOwn(e *Entry) bool {
	return t.self != nil && e.Kind == KindDepart && e.Seat == t.self.seat && e.Seq > 0 && e.Seq < t.Len() &&
		t.entries[e.Seq].Seat == e.Seat && t.entries[e.Seq-1].Hash() == e.Prev &&
		t.checkAgreements(e, t.staying(e.Seat)) == nil
}

// releaseDue is the staying seat that writes its share next.
func (l *leaving) due() int { return l.writers[len(l.shares)] }

// applyRelease takes a staying seat's escrow share of the departed seat's key; with the last,
// the key is rebuilt and the seat opened.
func (t *Table) applyRelease(e *Entry, lv *leaving) error {
	deal := t.deals[t.rosterSeat[lv.seat]]
	sh, err := crypto.ParseEscrowShare(t.rosterSeat[e.Seat], e.Body)
	if err != nil {
		return fmt.Errorf("malformed release entry: %w", err)
	}
	if err := crypto.VerifyEscrowShare(deal, t.rosterSeat[lv.seat], sh); err != nil {
		return fmt.Errorf("its escrow share of seat %d's key does not check: %w", lv.seat, err)
	}
	lv.shares = append(lv.shares, sh)
	if len(lv.shares) < len(lv.writers) {
		return nil
	}
	// The shares sealed to the seats opened before: everyone opens them with their keys.
	shares := append([]*crypto.EscrowShare(nil), lv.shares...)
	for _, o := range t.Open() {
		sh, err := crypto.OpenEscrowShare(t.dealCtx, t.rosterSeat[lv.seat], t.rosterSeat[o], t.open[o].root, deal)
		if err != nil && t.Version() >= 3 {
			// Seat o's key was rebuilt and checked against its published key, and the box's proof
			// was checked with the deal: the log proves that the departing seat dealt seat o a
			// share that does not open or does not check (and that seat o, which did not
			// complain, let it pass).
			what := "that does not open"
			if errors.Is(err, crypto.ErrInvalidProof) {
				what = "that does not check against its commitments"
			}
			t.convict(lv.seat, e, "its escrow deal sealed to seat %d (open, its key rebuilt from the log) a share %s", o, what)
			return nil
		}
		if err != nil {
			t.broken(e, "seat %d's escrow share to open seat %d does not open: %v", lv.seat, o, err)
			return nil
		}
		shares = append(shares, sh)
	}
	priv, err := crypto.RecoverKey(deal, t.rosterSeat[lv.seat], t.pubs[lv.seat], shares)
	if err != nil {
		t.broken(e, "seat %d's key does not rebuild from its escrow shares: %v", lv.seat, err)
		return nil
	}
	t.leaving = nil
	t.openSeat(e, lv, priv)
	t.feedHeld(e) // a choice the seat's conviction held (convict.go)
	return nil
}

// readOpenNote reads the hidden value ref of seat from its note to self, when the seat is open.
func (d *departs) readOpenNote(seat, ref, cut int, note []byte) {
	if s := d.open[seat]; s != nil {
		if v, err := s.openNote(ref, cut, note); err == nil {
			d.openVals[ref] = v
		}
	}
}

// openSeat makes seat lv.seat open: its secrets are everyone's, its hidden values and cards
// known, and its entries computed from now on.
func (t *Table) openSeat(e *Entry, lv *leaving, priv *crypto.PrivateKey) {
	seat := lv.seat
	s := &Self{seat: seat, roster: t.rosterSeat[seat], table: t.id, root: priv}
	t.open[seat] = s
	t.openAt[seat] = lv.at
	for ref, hv := range t.values {
		if hv.seat != seat {
			continue
		}
		if v, err := s.openNote(ref, hv.cut, hv.note); err == nil {
			t.openVals[ref] = v
		}
	}
	if a := t.answer; a != nil && a.to == seat {
		a.judge(t, priv)
	}
	// The stand-in's game: every input again, with what the open seats learned from each.
	g, err := t.rules.New(t.g.Config, len(t.keys), engine.Options{})
	if err != nil {
		t.broken(e, "the game does not start again for the open seat: %v", err)
		return
	}
	for i := range t.record {
		if err := g.Apply(t.record[i].in); err != nil {
			t.broken(e, "the game refuses its own inputs again: %v", err)
			return
		}
		t.learnOpen(g, &t.record[i], nil)
	}
	t.shadow = g
	// This node's own game learns what the departed seat knew of its own (what the game can
	// still take: a card long played is no longer anyone's to learn).
	if t.game != nil {
		only := map[int]bool{seat: true}
		for i := range t.record {
			t.learnOpen(t.game, &t.record[i], only)
		}
		t.takeLearnErr() // what it refused here is what the game can no longer take
	}
}

// feedAnswered feeds the game the input of answer a, which the record keeps with it.
func (t *Table) feedAnswered(e *Entry, in engine.Input, a *pendingAnswer) error {
	t.lastAns = a
	defer func() { t.lastAns = nil }()
	return t.feed(e, in)
}

// recordInput keeps an input the game took (at a table that escrows), feeds it to the open
// seats' game, and tells both games what the open seats learn from it.
func (t *Table) recordInput(e *Entry, in engine.Input) {
	if !t.g.Escrow {
		return
	}
	rec := recorded{in: in}
	switch {
	case in.Kind == engine.InDealt && in.To >= 0:
		for _, p := range in.Positions {
			rec.deals = append(rec.deals, t.dealt[engine.DeckCard{Deck: in.Deck, Pos: p}])
		}
	case in.Kind == engine.InAnswered:
		rec.answer = t.lastAns
	}
	t.record = append(t.record, rec)
	if t.shadow == nil {
		return
	}
	if err := t.shadow.Apply(in); err != nil {
		t.broken(e, "the open seats' copy of the game refuses an input the game took: %v", err)
		return
	}
	t.learnOpen(t.shadow, &rec, nil)
	if t.game != nil {
		if err := t.learnOpen(t.game, &rec, nil); err != nil {
			t.learnFailed(err)
		}
	}
}

// learnOpen tells g what the open seats (those of only, when set) learn from rec: their own
// hidden values, the cards dealt to them alone, the answers to their peeks.
func (t *Table) learnOpen(g engine.Game, rec *recorded, only map[int]bool) error {
	in := &rec.in
	who := func(seat int) *Self {
		if only != nil && !only[seat] {
			return nil
		}
		return t.open[seat]
	}
	var errs []error
	switch in.Kind {
	case engine.InMove:
		if who(in.Seat) == nil {
			return nil
		}
		for _, ref := range in.Refs {
			if v, ok := t.openVals[ref]; ok {
				errs = append(errs, g.LearnValue(ref, v))
			}
		}
	case engine.InDealt:
		s := who(in.To)
		if in.To < 0 || s == nil {
			return nil
		}
		for k, p := range in.Positions {
			d := rec.deals[k]
			var others []*crypto.Share
			for seat, sh := range d.shares {
				if seat != d.to {
					others = append(others, sh)
				}
			}
			ct := d.ct
			card, err := crypto.DecodeCard(crypto.DecryptPrivate(s.root, &ct, others), t.cardRange)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			errs = append(errs, g.LearnCard(in.Deck, p, card))
		}
	case engine.InAnswered:
		s := who(in.To)
		if s == nil || rec.answer == nil {
			return nil
		}
		if v, err := t.openAnswer(rec.answer, s.root); err == nil {
			errs = append(errs, g.LearnValue(rec.answer.ref, v))
		}
	}
	return errors.Join(errs...)
}

// OpenDue reports whether the seat due is open: its entry is computed, not awaited.
func (t *Table) OpenDue() bool {
	seat, _ := t.Due()
	return seat >= 0 && t.open[seat] != nil
}

// OpenEntry computes the open seat's entry due (nil when the seat due is not open, or when the
// table halts computing it: a game whose stand-in fails is broken).
func (t *Table) OpenEntry() *Entry {
	seat, kinds := t.Due()
	s := t.open[seat]
	if seat < 0 || s == nil {
		return nil
	}
	if c := t.computed; c != nil && c.Seq == t.Len() && c.Prev == t.head {
		return c
	}
	var act engine.Action
	if (kinds[0] == KindMove || kinds[0] == KindCommit) && !(t.answer != nil && t.answer.to == seat && t.answer.bad != nil) {
		standIn := engine.LookupStandIn(t.g.Game)
		seed, err := t.standInSeed(seat)
		if err == nil {
			act, err = standIn(t.shadow.Clone(), seat, seed)
		}
		if err != nil {
			t.broken(t.entries[len(t.entries)-1], "the stand-in of open seat %d cannot decide: %v", seat, err)
			return nil
		}
	}
	kind, body, err := t.body(s, kinds[0], act)
	if err != nil {
		t.broken(t.entries[len(t.entries)-1], "open seat %d's entry cannot be computed: %v", seat, err)
		return nil
	}
	t.computed = &Entry{Version: t.Version(), Table: t.id, Seq: t.Len(), Prev: t.head, Seat: seat, Kind: kind, Body: body}
	return t.computed
}

// standInSeed is the stand-in's seed for open seat's decision due: the same on every node, and
// different at every decision. From version 3 it is drawn from the seat's rebuilt root secret
// (every node has it, nobody can change it) at the decision's place among the stand-in's
// decisions for the seat: fixed before any seat writes a byte of what leads to the decision.
// Version 2 hashed the table id and the last entry's hash, which the seat that wrote that entry
// could grind (its note to itself is its own to rewrite and sign again).
func (t *Table) standInSeed(seat int) (uint64, error) {
	if t.Version() < 3 {
		h := sha256.New()
		h.Write([]byte("corruption/stand-in/v1\x00"))
		h.Write(t.id[:])
		h.Write(t.head[:])
		return binary.BigEndian.Uint64(h.Sum(nil)), nil
	}
	var b [8]byte
	if _, err := io.ReadFull(t.open[seat].rand("stand-in decision %d", t.standIns[seat]), b[:]); err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint64(b[:]), nil
}

// tookStandIn notes an open seat's entry applied: a decision moves the stand-in's seed to its
// next place.
func (d *departs) tookStandIn(e *Entry) {
	d.computed = nil
	if e.Kind == KindMove || e.Kind == KindCommit {
		d.standIns[e.Seat]++
	}
}

// checkOpenEntry checks an entry of an open seat against the one computed.
func (t *Table) checkOpenEntry(e *Entry) error {
	want := t.OpenEntry()
	if want == nil {
		return errors.New("the open seat's entry cannot be computed")
	}
	if !bytes.Equal(e.Marshal(), want.Marshal()) {
		return fmt.Errorf("it is not the entry open seat %d's stand-in writes", e.Seat)
	}
	return nil
}

// releaseBody is the node's escrow share of the departing seat's key.
func (s *Self) releaseBody(t *Table) ([]byte, error) {
	lv := t.leaving
	sh := t.held[t.rosterSeat[lv.seat]]
	if sh == nil {
		return nil, fmt.Errorf("this node holds no escrow share of seat %d", lv.seat)
	}
	return sh.Bytes(), nil
}
