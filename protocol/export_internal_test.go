package protocol

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"corruption/crypto"
	"corruption/engine"
	"corruption/protocol/internal/wire"
)

// Test-only doors into the package, for the cheat tests and the fuzz targets: a cheating seat
// needs its own node's secrets and the body encoders to sign entries that an honest node never
// writes. Every name ends in ForTest.

// ElGamalKeyForTest is the node's ElGamal private key at its table.
func ElGamalKeyForTest(s *Self) (*crypto.PrivateKey, error) { return s.elgamalKey() }

// ElGamalPublicForTest is seat's published ElGamal key (nil before its key entry).
func ElGamalPublicForTest(t *Table, seat int) *crypto.PublicKey {
	if seat < 0 || seat >= len(t.pubs) {
		return nil
	}
	return t.pubs[seat]
}

// NextRefForTest is the ref the next hidden value will get.
func NextRefForTest(t *Table) int { return len(t.values) }

// HiddenForTest is a commitment to value as the node's hidden value ref, with its note, as a
// move entry carries it.
func HiddenForTest(t *Table, ref int, value []byte) ([]byte, error) {
	c, err := t.self.hide(t, ref, value)
	if err != nil {
		return nil, err
	}
	w := wire.Writer{}
	c.write(&w)
	return w.B, nil
}

// OpeningForTest is an opening of the node's commitment at ref to value (which opens it only
// if value is what the node committed to).
func OpeningForTest(t *Table, ref int, value []byte) ([]byte, error) {
	_, o, err := crypto.Commit(t.self.rand("commit %d", ref), t.hiddenCtx(), t.self.seat, 0, ref, value)
	if err != nil {
		return nil, err
	}
	return o.Bytes(), nil
}

// MoveBodyForTest encodes a move with hidden values (each from HiddenForTest).
func MoveBodyForTest(move []byte, hidden ...[]byte) []byte {
	w := wire.Writer{}
	w.Bytes(move)
	w.U8(uint8(len(hidden)))
	for _, h := range hidden {
		w.Fixed(h)
	}
	return w.B
}

// OpenBodyForTest encodes openings (each from OpeningForTest).
func OpenBodyForTest(openings ...[]byte) []byte {
	w := wire.Writer{}
	w.U8(uint8(len(openings)))
	for _, o := range openings {
		w.Bytes(o)
	}
	return w.B
}

// AnswerForTest seals an opening (from OpeningForTest) as the answer to the peek under way.
func AnswerForTest(t *Table, opening []byte) ([]byte, error) {
	st := &t.step
	box, err := crypto.Seal(t.self.rand("lie"), t.stepCtx(), t.self.seat, st.To, t.pubs[st.To], padAnswer(opening))
	if err != nil {
		return nil, err
	}
	return box.Bytes(), nil
}

// BlameForTest is the node's blame of the answer to its peek, whatever the answer.
func BlameForTest(t *Table) ([]byte, error) { return t.self.blameBody(t) }

// SharesForTest is the node's shares for the step under way, as it would write them.
func SharesForTest(t *Table) ([]byte, error) { return t.self.sharesBody(t) }

// StepForTest is the step under way.
func StepForTest(t *Table) engine.Step { return t.step.Step }

// ParseMoveBodyForTest decodes a move entry's body: the game's move and its hidden values, each
// as HiddenForTest encodes it (commitment then note).
func ParseMoveBodyForTest(p []byte) (move []byte, hidden [][]byte, err error) {
	b, err := parseMoveBody(p)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range b.hidden {
		w := wire.Writer{}
		c.write(&w)
		hidden = append(hidden, w.B)
	}
	return b.move, hidden, nil
}

// ParseOpenBodyForTest decodes an open entry's body: its openings.
func ParseOpenBodyForTest(p []byte) ([][]byte, error) {
	if len(p) == 0 {
		return nil, errors.New("an empty open body")
	}
	b, err := parseOpenBody(p, int(p[0]))
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, o := range b.openings {
		out = append(out, o.Bytes())
	}
	return out, nil
}

// ShuffleBodyForTest encodes a shuffle.
func ShuffleBodyForTest(deck crypto.Deck, proof *crypto.ShuffleProof) []byte {
	return (&shuffleBody{deck: deck, proof: proof}).marshal()
}

// ParseShuffleBodyForTest decodes a shuffle, whatever the size of its deck.
func ParseShuffleBodyForTest(p []byte) (crypto.Deck, *crypto.ShuffleProof, error) {
	r := wire.Reader{B: p}
	deck, err := crypto.ParseDeck(r.Bytes(MaxBodySize, "deck"))
	if err != nil {
		return nil, nil, err
	}
	b, err := parseShuffleBody(p, len(deck))
	if err != nil {
		return nil, nil, err
	}
	return b.deck, b.proof, nil
}

// SharesBodyForTest encodes a seat's decryption shares.
func SharesBodyForTest(shares []*crypto.Share) []byte { return marshalShares(shares) }

// ParseSharesBodyForTest decodes a seat's decryption shares.
func ParseSharesBodyForTest(p []byte) ([]*crypto.Share, error) {
	if len(p) < 2 {
		return nil, errors.New("a short shares body")
	}
	return parseShares(p, int(p[0])<<8|int(p[1]))
}

// HelloMessageForTest is the broadcast message of a node that wants a seat at table.
func HelloMessageForTest(key ed25519.PrivateKey, table, game string, config []byte, players int, name string) []byte {
	h := &hello{table: table, game: game, config: config, players: players, name: name, key: key.Public().(ed25519.PublicKey)}
	h.sig = ed25519.Sign(key, h.unsigned())
	return h.marshal()
}

// HeadMessageForTest is the head announcement of seat's node at table t.
func HeadMessageForTest(t *Table, seat int) []byte {
	return (&head{table: t.id, seat: seat, len: t.Len(), hash: t.head, digest: t.Digest()}).marshal()
}

// OpenRefsForTest is the refs the open entry e would open at t now (nil for another entry).
func OpenRefsForTest(t *Table, e *Entry) []int { return t.openRefsIf(e) }

// StepLabelForTest is the label that binds the proofs of the step under way ("shuffle 7").
func StepLabelForTest(t *Table) string { return t.step.label() }

// DeckForTest is deck id as the table holds it now.
func DeckForTest(t *Table, id int) crypto.Deck { return append(crypto.Deck(nil), t.deck[id]...) }

// CloneForTest copies a table, so that a fuzz target can try entries on a copy of a table it
// built once. The copy shares nothing that Append changes: every slice and map the services
// write in place, and the node's own secrets (a seat's place is written into them when the
// order is drawn, and again at a cut). TestCloneForTest holds it so as the table grows fields.
func CloneForTest(t *Table) *Table {
	c := *t
	c.entries = slices.Clone(t.entries)
	c.evidence = slices.Clone(t.evidence)
	c.keys = slices.Clone(t.keys)
	c.self = cloneSelf(t.self)
	if t.game != nil {
		c.game = t.game.Clone()
	}
	if t.verdict != nil {
		v := *t.verdict
		c.verdict = &v
	}
	// keyring
	c.proofs = slices.Clone(t.proofs)
	c.pubs = slices.Clone(t.pubs)
	c.chains = slices.Clone(t.chains)
	// seating
	c.rosterSeat = slices.Clone(t.rosterSeat)
	c.orderReveals = slices.Clone(t.orderReveals)
	// decks
	for id := range t.deck {
		c.deck[id] = slices.Clone(t.deck[id])
		c.mixedAt[id] = slices.Clone(t.mixedAt[id])
	}
	c.dealt = make(map[engine.DeckCard]*privateDeal, len(t.dealt))
	for k, d := range t.dealt {
		c.dealt[k] = clonePrivateDeal(d)
	}
	// hidden
	c.values = slices.Clone(t.values)
	c.mine = maps.Clone(t.mine)
	c.answer = cloneAnswer(t.answer)
	// escrow
	c.deals = slices.Clone(t.deals)
	c.held = slices.Clone(t.held)
	// departs
	c.open = make(map[int]*Self, len(t.open))
	for seat, s := range t.open {
		c.open[seat] = cloneSelf(s)
	}
	c.openAt = maps.Clone(t.openAt)
	c.openVals = maps.Clone(t.openVals)
	c.standIns = maps.Clone(t.standIns)
	if t.leaving != nil {
		l := *t.leaving
		l.writers, l.shares = slices.Clone(l.writers), slices.Clone(l.shares)
		c.leaving = &l
	}
	if t.promise != nil {
		p := *t.promise
		c.promise = &p
	}
	if t.shadow != nil {
		c.shadow = t.shadow.Clone()
	}
	c.record = make([]recorded, len(t.record))
	for i, r := range t.record {
		r.deals = slices.Clone(r.deals)
		for j, d := range r.deals {
			r.deals[j] = clonePrivateDeal(d)
		}
		r.answer = cloneAnswer(r.answer)
		c.record[i] = r
	}
	c.lastAns = cloneAnswer(t.lastAns)
	// convicts
	c.list = slices.Clone(t.list)
	if t.heldIn != nil {
		in := *t.heldIn
		c.heldIn = &in
	}
	// cuts
	c.reshuffled = maps.Clone(t.reshuffled)
	c.freshAt = maps.Clone(t.freshAt)
	// the step under way
	c.step.writers = slices.Clone(t.step.writers)
	c.step.reveals = slices.Clone(t.step.reveals)
	c.step.shares = make([][]*crypto.Share, len(t.step.shares))
	for i, sh := range t.step.shares {
		c.step.shares[i] = slices.Clone(sh)
	}
	c.step.refs = slices.Clone(t.step.refs)
	c.step.values = slices.Clone(t.step.values)
	return &c
}

func cloneSelf(s *Self) *Self {
	if s == nil {
		return nil
	}
	c := *s
	return &c
}

func clonePrivateDeal(d *privateDeal) *privateDeal {
	if d == nil {
		return nil
	}
	c := *d
	c.shares = slices.Clone(d.shares)
	return &c
}

func cloneAnswer(a *pendingAnswer) *pendingAnswer {
	if a == nil {
		return nil
	}
	c := *a
	return &c
}

// SecretsForTest lists the secrets of the seat whose identity and table seed are given, at the
// table whose log is entries, that must never be sent: its ElGamal private key and the first 32
// bytes of every secret stream it drew from for the entries of the log (key proof, random
// chain, note key, shuffles, shares, sealed answers, blames). The streams of commitment nonces
// are left out: an opening publishes its nonce, by design. It also returns the ElGamal public
// key, for the caller to check against the seat's key entry.
func SecretsForTest(entries []*Entry, identity ed25519.PrivateKey, seed [32]byte) (map[string][]byte, []byte, error) {
	if len(entries) == 0 {
		return nil, nil, errors.New("no entries")
	}
	s := NewSelf(identity, seed)
	if _, err := NewTable(entries[0], s, engine.Options{}); err != nil {
		return nil, nil, err
	}
	k, err := s.elgamalKey()
	if err != nil {
		return nil, nil, err
	}
	out := map[string][]byte{"elgamal key": k.Bytes()}
	stream := func(r io.Reader) []byte {
		b := make([]byte, 32)
		io.ReadFull(r, b)
		return b
	}
	out["elgamal key stream"] = stream(newPRF(s.Seed[:], s.table, "elgamal key"))
	labels := []string{"key proof", "random chain", "self note key"}
	obs, err := NewTable(entries[0], nil, engine.Options{})
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries[1:] {
		seat := s.roster // its seat: its roster index until the order is drawn
		if obs.Ordered() {
			seat = slices.IndexFunc(obs.Players(), func(m Member) bool { return m.Key.Equal(s.Public()) })
		}
		if e.Seat == seat && obs.stage == stagePlay {
			st := obs.step.label()
			switch e.Kind {
			case KindShuffle:
				labels = append(labels, "shuffle "+st)
			case KindShares:
				for k := range obs.step.Positions {
					labels = append(labels, fmt.Sprintf("share %s %d", st, k))
				}
			case KindAnswer:
				labels = append(labels, "answer "+st)
			case KindBlame:
				labels = append(labels, fmt.Sprintf("blame %d", obs.answer.ref))
			}
		}
		if err := obs.Append(e); err != nil {
			break
		}
	}
	for _, l := range labels {
		out["stream "+l] = stream(s.rand("%s", l))
	}
	return out, k.Public().Bytes(), nil
}

// HiddenValueForTest is the node's own hidden value ref, as it committed to it.
func HiddenValueForTest(t *Table, ref int) ([]byte, bool) {
	v, ok := t.mine[ref]
	return v, ok
}

// HelloForTest is a signed hello of protocol version v, as a node of that release sends it.
func HelloForTest(v uint8, table, game string, config []byte, players int, name string, key ed25519.PrivateKey) []byte {
	h := &hello{version: v, table: table, game: game, config: config, players: players, name: name, key: key.Public().(ed25519.PublicKey)}
	h.sig = ed25519.Sign(key, h.unsigned())
	return h.marshal()
}

// RaceDetectorForTest: the tests run under the race detector (race_on_internal_test.go).
const RaceDetectorForTest = raceDetector

// ReportSameForTest is AuditChecked's report made from t without a second check, or nil when
// it audits log in full.
func ReportSameForTest(t *Table, log []byte) *Report { return t.reportSame(log) }
