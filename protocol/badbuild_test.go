package protocol_test

import (
	"fmt"
	"testing"

	"corruption/crypto"
	"corruption/engine/corruption"
	"corruption/protocol"
)

// The bad logs and their builders (see badlogs_test.go).
var badLogs = []badLog{
	{"changed-faceup-card", "standard-3", "a face-up card changed to a bribe its author had already played this round, signed again by the author", liveVerdict, buildChangedFaceUp},
	{"changed-card-unsigned", "standard-3", "the same face-up card changed in a copy of the log without its author's key: the signature breaks", liveReject, buildChangedUnsigned},
	{"dropped-entry", "standard-3", "an entry dropped from the middle of a complete log", liveReject, buildDropped},
	{"duplicated-record", "standard-3", "a record written twice in a row", liveReject, buildDuplicated},
	{"swapped-signatures", "standard-3", "two consecutive entries with their signatures exchanged", liveReject, buildSwappedSigs},
	{"out-of-turn", "standard-3", "a seat signs a placement when another seat is due", liveReject, buildOutOfTurn},
	{"replayed-entry", "standard-3", "an entry of another table of the same players, replayed byte for byte", liveReject, buildReplayedEntry},
	{"replayed-key-proof", "standard-3", "a key entry from another table of the same players, signed into this one by its author", liveVerdict, buildReplayedKey},
	{"replayed-shuffle-proof", "standard-3", "a shuffle (same deck, its proof made for another table of the same players) signed into this one", liveVerdict, buildReplayedShuffle},
	{"shuffle-duplicate-card", "standard-3", "a shuffle whose output deck repeats a ciphertext, with the honest proof copied", liveVerdict, buildShuffleDup},
	{"shuffle-swap-cards", "standard-3", "a shuffle whose output deck has two ciphertexts swapped, with the honest proof copied", liveVerdict, buildShuffleSwap},
	{"wrong-share", "standard-3", "a decryption share for another contract of the deal (two shares swapped)", liveVerdict, buildWrongShare},
	{"random-off-chain", "standard-3", "a joint-randomness reveal of the game that does not follow its author's chain", liveVerdict, buildRandomOffChain},
	{"order-off-chain", "standard-3", "the last reveal of the seat order's draw, which does not follow its author's chain", liveVerdict, buildOrderOffChain},
	{"signoff-wrong-digest", "standard-3", "a sign-off of a digest that is not the game's", liveVerdict, buildWrongSignOff},
	{"wrong-kind", "standard-3", "a sign-off written where the seat's move is due", liveVerdict, buildWrongKind},
	{"equivocation", "standard-3", "a seat signs a second, different placement for a seq it already wrote", liveVerdict, buildEquivocation},
	{"opened-to-other-card", "standard-3", "a face-down card opened to another card (the opening's card changed, the open entry signed again)", liveVerdict, buildOpenedOther},
	{"openings-swapped", "standard-3", "an open entry with the openings of two of its author's cards exchanged", liveVerdict, buildOpeningsSwapped},
	{"placed-twice", "standard-3", "a bribe placed face down on a Swiss account when its author had already played it this round", liveVerdict, buildPlacedTwice},
	{"character-on-swiss", "standard-3", "a character placed face down on a Swiss account", liveVerdict, buildCharacterOnSwiss},
	{"character-used-earlier", "standard-3", "a character placed face down that its author used up in an earlier round", liveVerdict, buildCharacterUsedEarlier},
	{"peek-without-book", "standard-3", "a peek (a move entry) at a table played without the little black book", liveVerdict, buildPeekWithoutBook},
	{"lying-answer", "freestud-lbb-4", "a sealed answer to a peek that holds an opening of another card; the peeker blames it", liveVerdict, buildLyingAnswer},
	{"garbage-answer", "freestud-lbb-4", "a sealed answer to a peek changed after it was sealed: its proof fails and convicts its author at once, with no blame", liveVerdict, buildGarbageAnswer},
	{"false-blame", "freestud-lbb-4", "a peeker blames an honest answer", liveVerdict, buildFalseBlame},
	{"bad-blame-proof", "freestud-lbb-4", "a peeker blames an honest answer with a proof that does not verify", liveVerdict, buildBadBlameProof},
	{"toy-choice-opened-other", "toy-3", "a simultaneous choice opened to another value than the one committed", liveVerdict, buildToyChoiceOther},
	{"toy-private-deal-wrong-share", "toy-3", "a decryption share of a card dealt to another seat alone, for the wrong card (two shares swapped)", liveVerdict, buildToyPrivateShare},
	{"toy-show-wrong-share", "toy-3", "a seat shows its privately dealt cards with its two shares swapped", liveVerdict, buildToyShowShare},
	{"toy-hidden-not-held", "toy-3", "a hidden move value committed to a card its author does not hold, caught at its opening", liveVerdict, buildToyHiddenNotHeld},
	{"missing-signature", "standard-3", "an entry whose signature is all zeros, in a copy of a complete log", liveReject, buildMissingSig},
	{"incomplete", "standard-3", "a log cut between two records: the audit names the seat the table waits for, and blames nobody", liveNone, buildIncomplete},
	{"genesis-tampered", "standard-3", "the genesis's roster changed and signed again: the table id is no longer its hash", liveNone, buildGenesisTampered},
	{"truncated", "standard-3", "a complete log cut in the middle of its last record", liveNone, buildTruncated},
	{"garbage-appended", "standard-3", "junk bytes after a complete log", liveNone, buildGarbageAppended},
	{"bad-checksum", "standard-3", "a byte flipped inside a record", liveNone, buildBadChecksum},
}

// corruptionOf is the Corruption game of a table.
func corruptionOf(tb *protocol.Table) *corruption.State {
	return tb.Game().(*corruption.Game).State()
}

// placement decodes a move entry that places a card: the move, and whether it is face down.
func placement(e *protocol.Entry) (m corruption.Move, faceDown, ok bool) {
	if e.Kind != protocol.KindMove {
		return m, false, false
	}
	move, hidden, err := protocol.ParseMoveBodyForTest(e.Body)
	if err != nil {
		return m, false, false
	}
	m, err = corruption.DecodeMove(e.Seat, move)
	if err != nil || m.Kind != corruption.MovePlace {
		return m, false, false
	}
	return m, len(hidden) == 1, true
}

func placeBody(t testing.TB, m corruption.Move, hidden ...[]byte) []byte {
	b, err := corruption.EncodeMove(m)
	if err != nil {
		t.Fatal(err)
	}
	return protocol.MoveBodyForTest(b, hidden...)
}

// faceUpChange finds a face-up card whose author had shown a bribe earlier in the same round,
// and returns its seq and that bribe.
func (k *badKit) faceUpChange(t testing.TB) (int, corruption.Card) {
	type key struct{ seat, round int }
	shown := map[key]corruption.Card{}
	seq, card := 0, corruption.CardUnknown
	k.walk(t, func(obs *protocol.Table, e *protocol.Entry) {
		m, down, ok := placement(e)
		if !ok || down || seq != 0 {
			return
		}
		kk := key{e.Seat, corruptionOf(obs).Round()}
		if b, ok := shown[kk]; ok {
			seq, card = int(e.Seq), b
		} else if m.Card.IsBribe() {
			shown[kk] = m.Card
		}
	})
	if seq == 0 {
		t.Fatal("no seat shows two face-up cards in a round")
	}
	return seq, card
}

func changeFaceUp(t testing.TB, e *protocol.Entry, card corruption.Card) {
	m, down, ok := placement(e)
	if !ok || down {
		t.Fatalf("%s is not a face-up placement", e)
	}
	m.Card = card
	e.Body = placeBody(t, m)
}

func buildChangedFaceUp(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq, card := k.faceUpChange(t)
	e := copyEntry(k.entries[seq])
	changeFaceUp(t, e, card)
	k.resign(e)
	return withEntry(k.entries[:seq], e), nil, cheat(e.Seat, e.Seq, "has already played its "+card.Words())
}

func buildChangedUnsigned(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq, card := k.faceUpChange(t)
	e := copyEntry(k.entries[seq])
	changeFaceUp(t, e, card)
	entries := withEntry(k.entries)
	entries[seq] = e
	return entries, nil, refused(e.Seq, fmt.Sprintf("bad signature for seat %d", e.Seat))
}

func buildDropped(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := len(k.entries) / 2
	entries := withEntry(k.entries[:seq], k.entries[seq+1:]...)
	return entries, nil, refused(uint64(seq), fmt.Sprintf("entry %d is missing", seq))
}

func buildDuplicated(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := len(k.entries) / 3
	entries := withEntry(k.entries[:seq+1], k.entries[seq:]...)
	return entries, nil, refused(uint64(seq), fmt.Sprintf("entry %d appears twice", seq))
}

func buildSwappedSigs(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := len(k.entries) / 2
	entries := withEntry(k.entries)
	a, b := copyEntry(entries[seq]), copyEntry(entries[seq+1])
	a.Sig, b.Sig = b.Sig, a.Sig
	entries[seq], entries[seq+1] = a, b
	return entries, nil, refused(a.Seq, fmt.Sprintf("bad signature for seat %d", a.Seat))
}

func buildOutOfTurn(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := k.first(t, "placement followed by another seat's", func(e *protocol.Entry) bool {
		_, _, ok := placement(e)
		_, _, next := placement(k.entries[min(int(e.Seq)+1, len(k.entries)-1)])
		return ok && next && e.Seq > 60 && k.entries[e.Seq+1].Seat != e.Seat
	})
	next := copyEntry(k.entries[seq+1]) // the next seat's placement, signed a turn early
	return withEntry(k.entries[:seq], k.at(k.entries[:seq], next)), nil, refused(uint64(seq), fmt.Sprintf("written by seat %d out of turn", next.Seat))
}

// other plays another table of the same players (same keys and table seeds, another genesis
// nonce, so another seat order) through its first deck's shuffles.
func (k *badKit) other(t testing.TB) []*protocol.Entry {
	w := newWorld(t, k.spec, "other")
	dec := w.botDecider(t)
	for countKinds(w.log)[protocol.KindShuffle] < k.spec.players {
		w.feed(t, w.write(t, dec))
	}
	return w.log
}

func buildReplayedEntry(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	o := k.other(t)
	return withEntry(k.entries[:2], o[2]), nil, refused(2, "it belongs to another table")
}

func buildReplayedKey(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	o := copyEntry(k.other(t)[2])
	return withEntry(k.entries[:2], k.at(k.entries[:2], o)), nil, cheat(o.Seat, 2, "its key proof does not verify")
}

// firstShuffle is the seq of the first shuffle: after the genesis, the keys and the draw of the
// first player.
func (k *badKit) firstShuffle(t testing.TB) int {
	return k.first(t, "shuffle", func(e *protocol.Entry) bool { return e.Kind == protocol.KindShuffle })
}

func buildReplayedShuffle(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := k.firstShuffle(t)
	seat := k.entries[seq].Seat
	player := k.order.rosterIndex(uint64(seq), seat)
	// This table's shuffled deck, with the proof the same player made at another table (where
	// the draw may have seated it elsewhere).
	other := k.other(t)
	oo := seatOrderOf(t, other)
	var o *protocol.Entry
	for _, e := range other {
		if e.Kind == protocol.KindShuffle && oo.rosterIndex(e.Seq, e.Seat) == player {
			o = copyEntry(e)
			break
		}
	}
	if o == nil {
		t.Fatalf("the other table has no shuffle by player %d", player)
	}
	mine, _, err1 := protocol.ParseShuffleBodyForTest(k.entries[seq].Body)
	_, theirs, err2 := protocol.ParseShuffleBodyForTest(o.Body)
	if err1 != nil || err2 != nil || k.entries[seq].Kind != protocol.KindShuffle {
		t.Fatalf("entry %d is not a shuffle: %v %v", seq, err1, err2)
	}
	o.Seat, o.Body = seat, protocol.ShuffleBodyForTest(mine, theirs)
	return withEntry(k.entries[:seq], k.at(k.entries[:seq], o)), nil, cheat(seat, uint64(seq), "its shuffle proof does not verify")
}

func (k *badKit) badShuffle(t testing.TB, seat int, change func(crypto.Deck)) ([]*protocol.Entry, []byte, badWant) {
	seq := k.firstShuffle(t) + seat
	e := copyEntry(k.entries[seq])
	deck, proof, err := protocol.ParseShuffleBodyForTest(e.Body)
	if err != nil || e.Seat != seat {
		t.Fatalf("entry %d is not seat %d's shuffle: %v", seq, seat, err)
	}
	change(deck)
	e.Body = protocol.ShuffleBodyForTest(deck, proof)
	k.resign(e)
	return withEntry(k.entries[:seq], e), nil, cheat(seat, uint64(seq), "its shuffle proof does not verify")
}

func buildShuffleDup(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	return k.badShuffle(t, 1, func(d crypto.Deck) { d[5] = d[9] })
}

func buildShuffleSwap(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	return k.badShuffle(t, 2, func(d crypto.Deck) { d[0], d[len(d)-1] = d[len(d)-1], d[0] })
}

// swapShares swaps the first two shares of the shares entry at seq: the proof of the first
// then fails, for the first position the step deals.
func (k *badKit) swapShares(t testing.TB, seq int) ([]*protocol.Entry, []byte, badWant) {
	var pos int
	k.walk(t, func(obs *protocol.Table, e *protocol.Entry) {
		if int(e.Seq) == seq {
			pos = protocol.StepForTest(obs).Positions[0]
		}
	})
	e := copyEntry(k.entries[seq])
	shares, err := protocol.ParseSharesBodyForTest(e.Body)
	if err != nil || len(shares) < 2 {
		t.Fatalf("%s: %d shares, %v", e, len(shares), err)
	}
	shares[0], shares[1] = shares[1], shares[0]
	e.Body = protocol.SharesBodyForTest(shares)
	k.resign(e)
	return withEntry(k.entries[:seq], e), nil, cheat(e.Seat, e.Seq, fmt.Sprintf("its decryption share of card %d of deck 0 does not verify", pos))
}

func buildWrongShare(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	n := 0
	seq := k.first(t, "shares of round 2", func(e *protocol.Entry) bool {
		if e.Kind == protocol.KindShares {
			n++
		}
		return n == 2*k.spec.players
	})
	return k.swapShares(t, seq)
}

func buildRandomOffChain(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := k.first(t, "random reveal of the game", func(e *protocol.Entry) bool {
		return e.Kind == protocol.KindRandom && e.Seat == 1 && e.Seq > k.order.drawnAt
	})
	return k.offChain(t, seq)
}

// buildOrderOffChain: the last reveal of the seat order's draw, which its author may write
// knowing every other reveal, does not follow its chain.
func buildOrderOffChain(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	if k.entries[k.order.drawnAt].Kind != protocol.KindRandom {
		t.Fatalf("%s does not draw the seat order", lastEntry(k.entries[:k.order.drawnAt+1]))
	}
	return k.offChain(t, int(k.order.drawnAt))
}

// offChain replaces the random reveal at seq by 32 bytes that do not follow its author's chain.
func (k *badKit) offChain(t testing.TB, seq int) ([]*protocol.Entry, []byte, badWant) {
	e := copyEntry(k.entries[seq])
	newStream("off the chain").Read(e.Body)
	k.resign(e)
	return withEntry(k.entries[:seq], e), nil, cheat(e.Seat, e.Seq, "its random reveal does not follow its chain")
}

func buildWrongSignOff(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := len(k.entries) - 1
	e := copyEntry(k.entries[seq])
	if e.Kind != protocol.KindSignOff {
		t.Fatalf("%s is not a sign-off", e)
	}
	e.Body[0] ^= 1
	k.resign(e)
	return withEntry(k.entries[:seq], e), nil, cheat(e.Seat, e.Seq, "it signed off digest")
}

func buildWrongKind(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := k.faceDown(t, 40)
	e := copyEntry(k.entries[seq])
	e.Kind, e.Body = protocol.KindSignOff, make([]byte, 32)
	return withEntry(k.entries[:seq], k.resign(e)), nil, cheat(e.Seat, e.Seq, "it wrote a signoff entry when the table waits for its move")
}

// faceDown finds a face-down placement at or after from.
func (k *badKit) faceDown(t testing.TB, from uint64) int {
	return k.first(t, "face-down placement", func(e *protocol.Entry) bool {
		_, down, ok := placement(e)
		return ok && down && e.Seq >= from
	})
}

func buildEquivocation(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := k.faceDown(t, 60)
	twin := copyEntry(k.entries[seq])
	move, hidden, _ := protocol.ParseMoveBodyForTest(twin.Body)
	hidden[0][0] ^= 1 // another commitment: a legal entry too, had it come first
	twin.Body = protocol.MoveBodyForTest(move, hidden[0])
	k.resign(twin)
	return withEntry(k.entries[:seq+4], twin), nil,
		badWant{"equivocation", twin.Seat, int64(seq), fmt.Sprintf("it signed two different entries for seq %d", seq), -1}
}

// badOpening changes the first open entry of at least two values, the first a bribe.
func (k *badKit) badOpening(t testing.TB, change func(ops [][]byte)) ([]*protocol.Entry, []byte, badWant) {
	seq := k.first(t, "opening of two cards", func(e *protocol.Entry) bool {
		if e.Kind != protocol.KindOpen {
			return false
		}
		ops, err := protocol.ParseOpenBodyForTest(e.Body)
		if err != nil || len(ops) < 2 {
			return false
		}
		c, err := corruption.ParseCard(string(ops[0][32:]))
		return err == nil && c.IsBribe()
	})
	e := copyEntry(k.entries[seq])
	ops, _ := protocol.ParseOpenBodyForTest(e.Body)
	change(ops)
	e.Body = protocol.OpenBodyForTest(ops...)
	k.resign(e)
	return withEntry(k.entries[:seq], e), nil, cheat(e.Seat, e.Seq, "does not match its commitment")
}

func buildOpenedOther(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	return k.badOpening(t, func(ops [][]byte) {
		card := corruption.Bribe10000
		if string(ops[0][32:]) == card.String() {
			card = corruption.Bribe1000
		}
		ops[0] = append(ops[0][:32:32], card.String()...) // same nonce, another card
	})
}

func buildOpeningsSwapped(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	return k.badOpening(t, func(ops [][]byte) { ops[0], ops[1] = ops[1], ops[0] })
}

func buildPeekWithoutBook(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := k.faceDown(t, 60)
	e := copyEntry(k.entries[seq])
	e.Body = placeBody(t, corruption.Move{Kind: corruption.MovePeek, Seat: e.Seat, Index: 1})
	return withEntry(k.entries[:seq], k.resign(e)), nil, cheat(e.Seat, e.Seq, "played without the little black book")
}

func buildMissingSig(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := k.faceDown(t, 30)
	entries := withEntry(k.entries)
	e := copyEntry(entries[seq])
	e.Sig = [64]byte{}
	entries[seq] = e
	return entries, nil, refused(e.Seq, fmt.Sprintf("bad signature for seat %d", e.Seat))
}

// buildIncomplete cuts a log between two records: nothing shows the cut, so the audit can
// only say which seat the table waits for, and blame nobody.
func buildIncomplete(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := k.faceDown(t, 50)
	return k.entries[:seq], nil, badWant{"none", -1, int64(seq), "the log is incomplete", k.entries[seq].Seat}
}

func buildGenesisTampered(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	g, err := protocol.ParseGenesis(k.entries[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	g.Roster[1].Name = "mallory"
	e := copyEntry(k.entries[0])
	e.Body = g.Marshal()
	entries := withEntry(k.entries)
	entries[0] = k.resign(e)
	return entries, nil, refused(0, "its table id is not the hash of its body")
}

func buildTruncated(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	b := logBytes(t, k.entries)
	return nil, b[:len(b)-10], refused(uint64(len(k.entries)-1), "truncated")
}

func buildGarbageAppended(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	junk := make([]byte, 37)
	newStream("junk").Read(junk)
	junk[0] = 0xff
	return nil, append(logBytes(t, k.entries), junk...), refused(uint64(len(k.entries)), "larger than an entry can be")
}

func buildBadChecksum(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := len(k.entries) / 2
	b := logBytes(t, k.entries)
	off := len(logBytes(t, k.entries[:seq])) + 4 + 100 // inside record seq+1
	b[off] ^= 0x10
	return nil, b, refused(uint64(seq), "checksum mismatch")
}
