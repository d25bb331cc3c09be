package protocol

import (
	"fmt"

	"corruption/crypto"
	"corruption/engine"
	"corruption/protocol/internal/wire"
)

// Decks. A deck is a sequence of ElGamal ciphertexts under the joint key; card id i is the
// point crypto.CardPoint(i). The game builds a deck from known cards (each encrypted with
// randomness zero, so anyone can check it) and from cards of other decks (their ciphertexts,
// still hidden), then has it shuffled: every seat in turn permutes and re-encrypts it and
// proves it did (crypto.Shuffle), so that after the last shuffle nobody, not even all but one
// seat together, knows the order.
//
// A deal decrypts positions of a deck: every seat publishes its decryption share of each
// position with a proof (crypto.DecryptShare), and all the shares together give the card,
// face up. A private deal leaves out the recipient's shares: only it can finish the
// decryption, with its own key, without publishing anything; it may show the card later by
// publishing its shares (StepShow), which anyone checks. Undealt cards stay unreadable:
// their ciphertexts need every seat's share.

// decks is the table's decks and what was dealt to one seat.
type decks struct {
	deck      [engine.MaxDecks]crypto.Deck
	dealt     map[engine.DeckCard]*privateDeal
	cardRange int // one more than the largest card id in any deck
	// mixedAt is, by deck and position, whether the position holds a card nobody has seen: the
	// deck was shuffled since it was built (or the card was copied from such a position) and
	// no share of the position was published since. A reshuffle after a cut re-encrypts and
	// permutes these (cut.go).
	mixedAt [engine.MaxDecks][]bool
}

// privateDeal is a card dealt to one seat: the others' shares, which the recipient's own
// share completes when it shows the card.
type privateDeal struct {
	ct     crypto.Ciphertext // the card's ciphertext when it was dealt
	to     int
	shares []*crypto.Share // by seat; nil at the recipient
}

func (d *decks) init() { d.dealt = map[engine.DeckCard]*privateDeal{} }

func (d *decks) checkDeck(id int) error {
	if id < 0 || id >= engine.MaxDecks {
		return fmt.Errorf("deck %d: decks are 0 to %d", id, engine.MaxDecks-1)
	}
	if len(d.deck[id]) == 0 {
		return fmt.Errorf("deck %d has no cards", id)
	}
	return nil
}

func (d *decks) checkPositions(id int, ps []int) error {
	if err := d.checkDeck(id); err != nil {
		return err
	}
	if len(ps) == 0 || len(ps) > engine.MaxDeckSize {
		return fmt.Errorf("%d positions", len(ps))
	}
	seen := map[int]bool{}
	for _, p := range ps {
		if p < 0 || p >= len(d.deck[id]) || seen[p] {
			return fmt.Errorf("position %d of deck %d (of %d cards) is out of range or listed twice", p, id, len(d.deck[id]))
		}
		seen[p] = true
	}
	return nil
}

// build performs a StepBuild: known cards, encrypted with randomness zero, then copies of
// other decks' ciphertexts.
func (d *decks) build(st engine.Step) error {
	if st.Deck < 0 || st.Deck >= engine.MaxDecks {
		return fmt.Errorf("decks are 0 to %d", engine.MaxDecks-1)
	}
	var out crypto.Deck
	var mixed []bool
	if st.Keep {
		out = append(out, d.deck[st.Deck]...)
		mixed = append(mixed, d.mixedAt[st.Deck]...)
	}
	for _, c := range st.Cards {
		if c < 0 || c >= engine.MaxDeckSize {
			return fmt.Errorf("card id %d is not 0 to %d", c, engine.MaxDeckSize-1)
		}
		one, err := crypto.CanonicalCard(c)
		if err != nil {
			return err
		}
		out = append(out, *one)
		mixed = append(mixed, false)
		d.cardRange = max(d.cardRange, c+1)
	}
	for _, f := range st.From {
		if f.Deck < 0 || f.Deck >= engine.MaxDecks || f.Pos < 0 || f.Pos >= len(d.deck[f.Deck]) {
			return fmt.Errorf("card %d of deck %d does not exist", f.Pos, f.Deck)
		}
		out = append(out, d.deck[f.Deck][f.Pos])
		mixed = append(mixed, d.isMixed(f.Deck, f.Pos))
	}
	// A copied card lives on in its new deck: its old position is no longer one to mix (in the
	// deck built, when it keeps its cards; a deck replaced is gone).
	for _, f := range st.From {
		switch {
		case f.Deck != st.Deck:
			d.unmix(f.Deck, f.Pos)
		case st.Keep:
			mixed[f.Pos] = false
		}
	}
	if len(out) == 0 || len(out) > engine.MaxDeckSize {
		return fmt.Errorf("a deck of %d cards (1 to %d)", len(out), engine.MaxDeckSize)
	}
	d.deck[st.Deck] = out
	d.mixedAt[st.Deck] = mixed
	// Deals of the old deck's positions no longer stand for the new deck's.
	for k := range d.dealt {
		if k.Deck == st.Deck && !st.Keep {
			delete(d.dealt, k)
		}
	}
	return nil
}

type shuffleBody struct {
	deck  crypto.Deck
	proof *crypto.ShuffleProof
}

func (b *shuffleBody) marshal() []byte {
	w := wire.Writer{}
	w.Bytes(b.deck.Bytes())
	w.Bytes(b.proof.Bytes())
	return w.B
}

func parseShuffleBody(p []byte, size int) (*shuffleBody, error) {
	r := wire.Reader{B: p}
	db := r.Bytes(MaxBodySize, "deck")
	pb := r.Bytes(MaxBodySize, "shuffle proof")
	if err := r.Done("shuffle entry"); err != nil {
		return nil, err
	}
	deck, err := crypto.ParseDeck(db)
	if err != nil {
		return nil, fmt.Errorf("malformed shuffle entry: %w", err)
	}
	if len(deck) != size {
		return nil, fmt.Errorf("malformed shuffle entry: deck of %d cards, want %d", len(deck), size)
	}
	proof, err := crypto.ParseShuffleProof(pb)
	if err != nil {
		return nil, fmt.Errorf("malformed shuffle entry: %w", err)
	}
	return &shuffleBody{deck: deck, proof: proof}, nil
}

func (t *Table) applyShuffle(e *Entry) error {
	id := t.step.Deck
	b, err := parseShuffleBody(e.Body, len(t.deck[id]))
	if err != nil {
		return err
	}
	if err := crypto.VerifyShuffle(t.stepCtx(), e.Seat, t.joint, t.deck[id], b.deck, b.proof); err != nil {
		return fmt.Errorf("its shuffle proof does not verify: %w", err)
	}
	t.deck[id] = b.deck
	t.mixAll(id)
	return nil
}

// isMixed reports whether position p of deck id holds a card nobody has seen.
func (d *decks) isMixed(id, p int) bool { return p < len(d.mixedAt[id]) && d.mixedAt[id][p] }

// unmix notes that position p of deck id was read (a share of it published) or copied away.
func (d *decks) unmix(id, p int) {
	if p < len(d.mixedAt[id]) {
		d.mixedAt[id][p] = false
	}
}

// mixAll notes that deck id was shuffled: nobody knows any of its cards.
func (d *decks) mixAll(id int) {
	m := make([]bool, len(d.deck[id]))
	for i := range m {
		m[i] = true
	}
	d.mixedAt[id] = m
}

// mixedDecks is the decks that hold a card nobody has seen, in order.
func (d *decks) mixedDecks() []int {
	var out []int
	for id := range d.mixedAt {
		if len(d.mixed(id)) > 0 {
			out = append(out, id)
		}
	}
	return out
}

// mixed is deck id's positions that hold a card nobody has seen, in order.
func (d *decks) mixed(id int) []int {
	var out []int
	for p, m := range d.mixedAt[id] {
		if m {
			out = append(out, p)
		}
	}
	return out
}

// cards is the ciphertexts at positions ps of deck id.
func (d *decks) cards(id int, ps []int) crypto.Deck {
	out := make(crypto.Deck, len(ps))
	for i, p := range ps {
		out[i] = d.deck[id][p]
	}
	return out
}

// replace puts the ciphertexts of cs at positions ps of deck id (a reshuffle: cut.go). The
// deck is copied first: a deck is shared with the tables replayed from the same entries.
func (d *decks) replace(id int, ps []int, cs crypto.Deck) {
	deck := append(crypto.Deck(nil), d.deck[id]...)
	for i, p := range ps {
		deck[p] = cs[i]
	}
	d.deck[id] = deck
}

func marshalShares(shares []*crypto.Share) []byte {
	w := wire.Writer{}
	w.U16(uint16(len(shares)))
	for _, s := range shares {
		w.Fixed(s.Bytes())
	}
	return w.B
}

func parseShares(p []byte, want int) ([]*crypto.Share, error) {
	r := wire.Reader{B: p}
	n := int(r.U16())
	if r.Err == nil && n != want {
		return nil, fmt.Errorf("malformed shares entry: %d shares, want %d", n, want)
	}
	raw := make([][]byte, n)
	for i := range raw {
		raw[i] = r.Take(crypto.ShareSize)
	}
	if err := r.Done("shares entry"); err != nil {
		return nil, err
	}
	out := make([]*crypto.Share, n)
	for i, b := range raw {
		s, err := crypto.ParseShare(b)
		if err != nil {
			return nil, fmt.Errorf("malformed shares entry: share %d: %w", i+1, err)
		}
		out[i] = s
	}
	return out, nil
}

// applyShares takes a seat's decryption shares for the positions being dealt or shown.
func (t *Table) applyShares(e *Entry) error {
	st := t.step
	shares, err := parseShares(e.Body, len(st.Positions))
	if err != nil {
		return err
	}
	ctx := t.stepCtx()
	for k, sh := range shares {
		c := &t.deck[st.Deck][st.Positions[k]]
		if err := crypto.VerifyShare(ctx, e.Seat, t.pubs[e.Seat], c, sh); err != nil {
			return fmt.Errorf("its decryption share of card %d of deck %d does not verify: %w", st.Positions[k], st.Deck, err)
		}
	}
	for _, p := range st.Positions {
		t.unmix(st.Deck, p)
	}
	t.step.addShares(shares)
	return nil
}

// dealResult combines a complete deal's shares: the cards, face up; or, dealt to one seat, the
// others' shares kept for the recipient (and for its showing them later).
func (t *Table) dealResult() (engine.Input, error) {
	st := t.step
	in := engine.Input{Kind: engine.InDealt, Deck: st.Deck, Positions: st.Positions, To: st.To}
	for k, p := range st.Positions {
		c := &t.deck[st.Deck][p]
		bySeat := make([]*crypto.Share, len(t.keys))
		for turn, seat := range st.writers {
			bySeat[seat] = st.shares[turn][k]
		}
		if st.To >= 0 {
			t.dealt[engine.DeckCard{Deck: st.Deck, Pos: p}] = &privateDeal{ct: *c, to: st.To, shares: bySeat}
			in.Cards = append(in.Cards, -1)
			continue
		}
		card, err := crypto.DecodeCard(crypto.CombineShares(c, bySeat), t.cardRange)
		if err != nil {
			return in, fmt.Errorf("card %d of deck %d decrypts to no card: %w", p, st.Deck, err)
		}
		in.Cards = append(in.Cards, card)
	}
	return in, nil
}

// showResult combines the shower's shares with the others' from the private deal.
func (t *Table) showResult() (engine.Input, error) {
	st := t.step
	in := engine.Input{Kind: engine.InShown, Seat: st.Seat, Deck: st.Deck, Positions: st.Positions}
	for k, p := range st.Positions {
		d := t.dealt[engine.DeckCard{Deck: st.Deck, Pos: p}]
		all := append([]*crypto.Share(nil), d.shares...)
		all[st.Seat] = st.shares[0][k]
		card, err := crypto.DecodeCard(crypto.CombineShares(&t.deck[st.Deck][p], all), t.cardRange)
		if err != nil {
			return in, fmt.Errorf("card %d of deck %d decrypts to no card: %w", p, st.Deck, err)
		}
		in.Cards = append(in.Cards, card)
	}
	return in, nil
}

// learnDealt tells this node's game the cards dealt to it alone.
func (t *Table) learnDealt(in engine.Input) error {
	if t.self == nil || in.To != t.self.seat {
		return nil
	}
	priv, err := t.self.elgamalKey()
	if err != nil {
		return err
	}
	for _, p := range in.Positions {
		d := t.dealt[engine.DeckCard{Deck: in.Deck, Pos: p}]
		var others []*crypto.Share
		for seat, sh := range d.shares {
			if seat != d.to {
				others = append(others, sh)
			}
		}
		card, err := crypto.DecodeCard(crypto.DecryptPrivate(priv, &t.deck[in.Deck][p], others), t.cardRange)
		if err != nil {
			return fmt.Errorf("the card dealt to this node at %d of deck %d decrypts to no card: %w", p, in.Deck, err)
		}
		if err := t.game.LearnCard(in.Deck, p, card); err != nil {
			return err
		}
	}
	return nil
}

// The bodies of the node's own shuffles and shares.

func (s *Self) shuffleBody(t *Table) ([]byte, error) {
	deck, proof, err := crypto.Shuffle(s.rand("shuffle %s", t.step.label()), t.stepCtx(), s.seat, t.joint, t.deck[t.step.Deck])
	if err != nil {
		return nil, err
	}
	return (&shuffleBody{deck: deck, proof: proof}).marshal(), nil
}

func (s *Self) sharesBody(t *Table) ([]byte, error) {
	priv, err := s.elgamalKey()
	if err != nil {
		return nil, err
	}
	st := t.step
	ctx := t.stepCtx()
	shares := make([]*crypto.Share, len(st.Positions))
	for k, p := range st.Positions {
		shares[k], err = crypto.DecryptShare(s.rand("share %s %d", st.label(), k), ctx, s.seat, priv, &t.deck[st.Deck][p])
		if err != nil {
			return nil, err
		}
	}
	return marshalShares(shares), nil
}
