package protocol

import (
	"crypto/ed25519"
	"fmt"
	"slices"

	"corruption/crypto"
	"corruption/engine"
	"errors"
)

// stage is the part of the table's life the log is in.
type stage uint8

const (
	stageKeys    stage = iota // each seat in turn: its ElGamal key and random chain
	stageEscrow               // at an escrow table, each seat in turn: its deal of its key (escrow.go)
	stageOrder                // each seat in turn: its first chain reveal, which draw the seat order
	stagePlay                 // the game, driven by its steps
	stageSignOff              // each seat in turn: the final digest
	stageDone
)

// Table is one table's log and the state it leads to: the chain of signed entries, the
// hidden-information services, and the game they feed. It validates every entry before applying
// it. It is not safe for concurrent use.
type Table struct {
	g        *Genesis
	id       [32]byte
	keys     []ed25519.PublicKey
	ctx      crypto.Context
	entries  []*Entry
	head     [32]byte
	stage    stage
	verdict  *Verdict
	evidence []*Entry // the signed entries that prove the verdict, when not in the log

	rules engine.Rules
	game  engine.Game
	opts  engine.Options
	self  *Self // nil for an observer (audit)

	keyring  // the seats' ElGamal keys and random chains
	seating  // the seat order, drawn once every key is in
	decks    // the encrypted decks and the cards dealt to one seat
	hidden   // the seats' hidden values
	escrow   // the seats' escrowed keys, at a table that escrows them
	departs  // the seats that left and are played by the game's stand-in (depart.go)
	convicts // the seats convicted of cheating and played on (convict.go)
	cuts     // the cuts at equivocations, and the reshuffle after the last (cut.go)
	step     stepState
	signoff  int
}

// NewTable starts a table from its genesis entry. self is the node's own secrets (nil to
// observe, as an audit does); opts are given to the game when it starts.
func NewTable(genesis *Entry, self *Self, opts engine.Options) (*Table, error) {
	if genesis.Kind != KindGenesis || genesis.Seq != 0 || genesis.Seat != 0 || genesis.Prev != ([32]byte{}) {
		return nil, reject(genesis, "not a genesis entry (seq 0, seat 0, kind genesis, no previous hash)")
	}
	g, err := GenesisOf(genesis)
	if err != nil {
		return nil, reject(genesis, "%v", err)
	}
	if g.ID() != genesis.Table {
		return nil, reject(genesis, "its table id is not the hash of its body")
	}
	if !genesis.Verify(g.Roster[0].Key) {
		return nil, reject(genesis, "bad signature by the table's creator")
	}
	rules, err := g.Rules()
	if err != nil {
		return nil, err
	}
	t := &Table{g: g, id: genesis.Table, entries: []*Entry{genesis}, head: genesis.Hash(), self: self,
		rules: rules, opts: opts}
	t.ctx.Table = t.id[:]
	for _, m := range g.Roster {
		t.keys = append(t.keys, m.Key)
		t.ctx.Roster = append(t.ctx.Roster, []byte(m.Key))
	}
	t.seating.init(len(g.Roster))
	t.decks.init()
	t.hidden.init()
	t.escrow.init(len(g.Roster))
	t.departs.init()
	if self != nil {
		if err := self.sitAt(t.id, g.SeatOf(self.Public())); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Genesis is the table's game, configuration and roster.
func (t *Table) Genesis() *Genesis { return t.g }

// ID is the table id.
func (t *Table) ID() [32]byte { return t.id }

// Version is the table's protocol version: its genesis entry's, and every entry's.
func (t *Table) Version() uint8 { return t.g.version() }

// Len is the number of entries in the log (the next entry's seq).
func (t *Table) Len() uint64 { return uint64(len(t.entries)) }

// Started reports whether the log holds an entry past the keys: the table's game is under way
// (its setup first), and it no longer dissolves (form.go).
func (t *Table) Started() bool { return len(t.entries) > len(t.g.Roster)+1 }

// Head is the hash of the last entry.
func (t *Table) Head() [32]byte { return t.head }

// Entries returns the log's entries from seq on (shared, do not modify).
func (t *Table) Entries(from uint64) []*Entry {
	if from >= uint64(len(t.entries)) {
		return nil
	}
	return t.entries[from:]
}

// Game is the game as this node knows it (nil until every seat has written its key). It is the
// table's own: read it, or Clone it, from the goroutine that appends.
func (t *Table) Game() engine.Game { return t.game }

// Seats is the number of seats.
func (t *Table) Seats() int { return len(t.keys) }

// Verdict is why the table halted, or nil.
func (t *Table) Verdict() *Verdict { return t.verdict }

// Done reports whether every seat has signed off the game's outcome.
func (t *Table) Done() bool { return t.stage == stageDone }

// Digest is the digest of the game's public state (zero before the game starts).
func (t *Table) Digest() [32]byte {
	if t.game == nil {
		return [32]byte{}
	}
	return t.game.Digest()
}

// Due says which seat must write the next entry and which kinds it may write. It returns -1
// once the table is complete or halted.
func (t *Table) Due() (seat int, kinds []Kind) {
	if t.verdict != nil {
		return -1, nil
	}
	if t.leaving != nil {
		return t.leaving.due(), []Kind{KindRelease}
	}
	if s := t.reshuffleDue(); s >= 0 {
		return s, []Kind{KindShuffle}
	}
	switch t.stage {
	case stageKeys:
		return len(t.pubs), []Kind{KindKey}
	case stageEscrow:
		return len(t.deals), []Kind{KindEscrow}
	case stageOrder:
		if t.g.Escrow {
			return len(t.orderReveals), []Kind{KindRandom, KindComplaint}
		}
		return len(t.orderReveals), []Kind{KindRandom}
	case stageSignOff:
		return t.signoff, []Kind{KindSignOff}
	case stageDone:
		return -1, nil
	}
	seat, kind := t.step.due()
	if a := t.answer; a != nil && seat == a.to {
		return seat, []Kind{kind, KindBlame}
	}
	return seat, []Kind{kind}
}

// DueIsDecision reports whether the entry due is a player's decision (a move, or a committed
// choice), which the table's clock gives its allowance and bank.
func (t *Table) DueIsDecision() bool {
	seat, kinds := t.Due()
	if seat < 0 || t.stage != stagePlay || t.open[seat] != nil {
		return false
	}
	if a := t.answer; a != nil && a.to == seat && kinds[0] == KindMove && len(kinds) > 1 {
		return true
	}
	return kinds[0] == KindMove || kinds[0] == KindCommit
}

// DueStep is the game's step the table is performing (Kind StepOver outside play).
func (t *Table) DueStep() engine.Step {
	if t.stage != stagePlay || t.verdict != nil {
		return engine.Step{Kind: engine.StepOver}
	}
	return t.step.Step
}

// DueString describes who the table waits for, in words.
func (t *Table) DueString() string {
	seat, kinds := t.Due()
	if seat < 0 {
		if t.verdict != nil {
			return "nothing: the table has halted"
		}
		return "nothing: the table is complete"
	}
	return fmt.Sprintf("seat %d to write %s", seat, kindWords[kinds[0]])
}

var kindWords = [numKinds]string{KindKey: "its key", KindRandom: "its random reveal", KindShuffle: "its shuffle",
	KindShares: "its decryption shares", KindMove: "its move", KindOpen: "the openings of its hidden values",
	KindAnswer: "its answer to a peek", KindBlame: "a blame", KindCommit: "its hidden choice",
	KindSignOff: "its sign-off", KindEscrow: "its escrow deal", KindComplaint: "a complaint of its escrow share",
	KindDepart: "the agreement that it left", KindRelease: "its escrow share of the departed seat's key",
	KindTwins: "the proof of its two entries for one place"}

// Append validates an entry and applies it. It returns nil when the entry is applied;
// ErrDuplicate for an entry already in the log; a *GapError for an entry ahead of the log;
// a *RejectError for an entry that blames nobody; or a *Verdict when the entry proves a seat
// cheated, after which the table has halted. From version 4 a cheat at a table that can open
// the cheater's seat is applied instead (nil): the entry stays in the log as the proof and the
// seat leaves (convict.go, Convictions). In order: the entry's place in the log, who vouches for
// it, its effect on the table (or the cheat it proves), and its link into the chain.
func (t *Table) Append(e *Entry) error {
	if t.verdict != nil {
		return t.appendHalted(e)
	}
	if err := t.checkPlace(e); err != nil {
		return err
	}
	by, err := t.checkVouched(e)
	if err == nil {
		err = t.applyVouched(e, by)
	}
	if err != nil {
		return t.playOn(e, by, err) // a cheat may open the cheater's seat instead of halting (convict.go)
	}
	t.link(e)
	return t.playOnAfter(e) // a good entry may convict another seat (a blame, an escrow share)
}

// link puts e at the end of the chain.
func (t *Table) link(e *Entry) {
	t.entries = append(t.entries, e)
	t.head = e.Hash()
}

// become makes t the table fresh is (a rewind: convict.go).
func (t *Table) become(fresh *Table) { *t = *fresh }

// acquit lifts the verdict an entry reached when the table plays on instead (convict.go).
func (t *Table) acquit() { t.verdict = nil }

// checkPlace checks that e is the next entry of this table, written by the seat due: it is not
// an entry the log holds already (a duplicate, an equivocation, a departed seat's late entry),
// nor one ahead of the log, and it chains to the log's last entry.
func (t *Table) checkPlace(e *Entry) error {
	if e.Table != t.id {
		return reject(e, "it belongs to another table")
	}
	if e.version() != t.g.version() {
		return reject(e, "it is of protocol version %d, at a table of version %d", e.version(), t.g.version())
	}
	if e.Seq < uint64(len(t.entries)) {
		return t.checkPast(e)
	}
	if e.Seq > uint64(len(t.entries)) {
		return &GapError{Have: uint64(len(t.entries)), Got: e.Seq}
	}
	if t.stage == stageDone {
		return ErrDone
	}
	if e.Prev != t.head {
		err := reject(e, "it does not chain to the log's last entry").(*RejectError)
		err.chain = true
		return err
	}
	if seat, _ := t.Due(); e.Seat != seat {
		return reject(e, "written by seat %d out of turn: the table waits for %s", e.Seat, t.DueString())
	}
	return nil
}

// checkPast takes an entry for a seq the log holds already: the same entry, another signed by
// the same seat (an equivocation), or a depart entry of this node's seat where its own entry
// came too late (depart.go).
func (t *Table) checkPast(e *Entry) error {
	have := t.entries[e.Seq]
	if have.Hash() == e.Hash() {
		return ErrDuplicate
	}
	if err := t.checkLateDepart(e); err != nil {
		return err
	}
	if t.Version() >= 5 {
		// Two entries the seat signed after the same entry (or their proof): the log is cut
		// there and the table plays on without the seat, or halts where it cannot (cut.go).
		if p := t.twinsAt(e); p != nil {
			return t.cut(p)
		}
		return reject(e, "another entry holds seq %d", e.Seq)
	}
	// Two entries for one seq both signed by the seat: an equivocation. (Not a depart entry,
	// or an open seat's, which nobody signs: a seat's entry that came after the others opened
	// it is only late.)
	if e.Seat == have.Seat && e.Seat < len(t.keys) && e.Verify(t.keys[e.Seat]) && have.Verify(t.keys[e.Seat]) {
		t.evidence = []*Entry{have, e}
		return t.halt(equivocation(e))
	}
	return reject(e, "another entry holds seq %d", e.Seq)
}

// voucher is what makes an entry the seat due's: its signature, or, for the entries nobody
// signs (depart.go), every staying seat's agreement, or every node's computation of an open
// seat's entry.
type voucher uint8

const (
	bySignature  voucher = iota
	byAgreements         // a depart entry
	byStandIn            // an open seat's entry
	byTwins              // a twins entry: the two signed entries inside (cut.go)
)

// checkVouched checks who vouches for e: the departure rules first (an entry this node promised
// not to apply, a depart entry, an open seat's entry), then the seat's signature and the kinds
// it may write now.
func (t *Table) checkVouched(e *Entry) (voucher, error) {
	if by, ok, err := t.checkUnsigned(e); ok {
		return by, err
	}
	if !e.Verify(t.keys[e.Seat]) {
		return bySignature, reject(e, "bad signature for seat %d", e.Seat)
	}
	_, kinds := t.Due()
	if !slices.Contains(kinds, e.Kind) {
		return bySignature, t.cheat(e, "it wrote a %s entry when the table waits for %s", e.Kind, kindWords[kinds[0]])
	}
	return bySignature, nil
}

// applyVouched applies e. A body that breaks a rule convicts the seat that signed it; an entry
// every node computed that does not apply is the game's fault (broken).
func (t *Table) applyVouched(e *Entry, by voucher) error {
	err := t.apply(e)
	switch {
	case err == nil:
		if by == byStandIn {
			t.tookStandIn(e)
		}
		return nil
	case by == bySignature:
		verr := t.cheat(e, "%v", err)
		// The game refused the values the seat opened, which it committed to before: a
		// stand-in would have to open the very same (convict.go).
		var f *engine.Fault
		t.verdict.refused = e.Kind == KindOpen && errors.As(err, &f)
		t.verdict.committed = t.verdict.refused && !t.replaceable()
		return verr
	}
	t.broken(e, "open seat %d's computed entry does not apply: %v", e.Seat, err)
	return t.verdict
}

// apply checks an entry's body against the table and applies it. An error names what the
// author did wrong.
func (t *Table) apply(e *Entry) error {
	switch e.Kind {
	case KindKey:
		return t.applyKey(e)
	case KindSignOff:
		return t.applySignOff(e)
	case KindBlame:
		return t.applyBlame(e)
	case KindEscrow:
		return t.applyEscrow(e)
	case KindComplaint:
		return t.applyComplaint(e)
	case KindDepart:
		t.applyDepart(e)
		return nil
	case KindTwins:
		t.applyTwins(e)
		return nil
	case KindRelease:
		return t.applyRelease(e, t.leaving)
	case KindRandom:
		if t.stage == stageOrder {
			return t.applyOrder(e)
		}
	case KindShuffle:
		if t.reshuffleDue() == e.Seat {
			return t.applyReshuffle(e)
		}
	}
	return t.applyStep(e)
}

// appendHalted takes an entry after a verdict: only one that turns a cheat into an
// equivocation counts. A seat that signed two entries for one seq is found guilty of
// equivocation on every node, whichever of the two a node saw first, even when one of them also
// breaks a rule.
func (t *Table) appendHalted(e *Entry) error {
	v := t.verdict
	if v.Kind != VerdictCheat || len(t.evidence) != 1 || e.Table != t.id || e.Seq != v.Seq || e.Seat != v.Seat ||
		(t.Version() >= 5 && e.Prev != t.evidence[0].Prev) ||
		e.Hash() == t.evidence[0].Hash() || e.Seat >= len(t.keys) || !e.Verify(t.keys[e.Seat]) {
		return ErrHalted
	}
	t.evidence = append(t.evidence, e)
	t.verdict = equivocation(e)
	return t.verdict
}

// equivocated halts the table on twins a and b where the seat cannot be opened (why: cut.go).
func (t *Table) equivocated(a, b *Entry, why string) error {
	t.evidence = []*Entry{a, b}
	v := equivocation(b)
	v.Reason += " (the table cannot play on without it: " + why + ")"
	return t.halt(v)
}

func equivocation(e *Entry) *Verdict {
	return &Verdict{Kind: VerdictEquivocation, Seq: e.Seq, Seat: e.Seat,
		Reason: fmt.Sprintf("it signed two different entries for seq %d", e.Seq)}
}

// Evidence is the signed entries that prove the verdict and are not in the log: the entry that
// broke a rule, or both versions of an equivocation. Nodes keep them at the end of their log
// file and give them to peers.
func (t *Table) Evidence() []*Entry { return t.evidence }

func (t *Table) cheat(e *Entry, format string, args ...any) error {
	t.evidence = []*Entry{e}
	return t.halt(&Verdict{Kind: VerdictCheat, Seq: e.Seq, Seat: e.Seat, Reason: fmt.Sprintf(format, args...)})
}

func (t *Table) halt(v *Verdict) error {
	t.verdict = v
	return v
}

// convict halts the table blaming seat for what entry e (another seat's, good in itself)
// proves; e goes into the log as the proof.
func (t *Table) convict(seat int, e *Entry, format string, args ...any) {
	t.verdict = &Verdict{Kind: VerdictCheat, Seq: e.Seq, Seat: seat, Reason: fmt.Sprintf(format, args...)}
}

// broken halts the table: the game, not a seat, is at fault (every node reaches the same verdict
// at the same entry, since the game is deterministic).
func (t *Table) broken(e *Entry, format string, args ...any) {
	t.verdict = &Verdict{Kind: VerdictBroken, Seq: e.Seq, Seat: -1, Reason: fmt.Sprintf(format, args...)}
}

func (t *Table) verdictOrNil() error {
	if t.verdict != nil {
		return t.verdict
	}
	return nil
}

// Abandon halts the table naming the seat that is due and silent (the node's clock).
func (t *Table) Abandon(reason string) *Verdict {
	seat, _ := t.Due()
	if seat < 0 || t.verdict != nil {
		return t.verdict
	}
	t.verdict = &Verdict{Kind: VerdictAbandoned, Seq: t.Len(), Seat: seat, Reason: reason}
	return t.verdict
}

// applyKey takes a seat's ElGamal key and random chain anchor; with the last one, the game
// starts.
func (t *Table) applyKey(e *Entry) error {
	b, err := parseKeyBody(e.Body)
	if err != nil {
		return err
	}
	if err := t.addKey(t.ctx.WithStep(stepKeys), e.Seat, b); err != nil {
		return err
	}
	if len(t.pubs) < len(t.keys) {
		return nil
	}
	if err := t.setJoint(t.ctx.WithStep(stepKeys)); err != nil {
		return err
	}
	t.stage = stageOrder
	if t.g.Escrow {
		t.stage = stageEscrow
		t.escrow.begin(t.ctx.WithStep(stepEscrow))
	}
	return nil
}

// reorder puts the seats' signing keys and the proofs' roster in the drawn order (perm[seat] is
// the roster index sitting there), and finds this node's seat in it.
func (t *Table) reorder(perm []int) {
	keys, roster := t.keys, t.ctx.Roster
	t.keys, t.ctx.Roster = make([]ed25519.PublicKey, len(perm)), make([][]byte, len(perm))
	for seat, r := range perm {
		t.keys[seat], t.ctx.Roster[seat] = keys[r], roster[r]
		if t.self != nil && t.self.roster == r {
			t.self.seated(seat)
		}
	}
}

// enter moves the table to the next part of its life.
func (t *Table) enter(s stage) { t.stage = s }

// startGame starts the game once the seats are in their order; e is the entry that completed
// the order.
func (t *Table) startGame(e *Entry) error {
	game, err := t.rules.New(t.g.Config, len(t.keys), t.opts)
	if err != nil {
		return fmt.Errorf("the game does not start: %w", err)
	}
	t.game = game
	t.stage = stagePlay
	t.settle(e)
	return nil
}

func (t *Table) applySignOff(e *Entry) error {
	d, err := parseFixed(e.Body, 32, "signoff entry")
	if err != nil {
		return err
	}
	if want := t.game.Digest(); string(d) != string(want[:]) {
		return fmt.Errorf("it signed off digest %x, but the game's digest is %x", d, want)
	}
	t.signoff++
	if t.signoff == len(t.keys) {
		t.stage = stageDone
	}
	return nil
}
