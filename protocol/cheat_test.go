package protocol_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"corruption/crypto"
	"corruption/engine/corruption"
	"corruption/protocol"
)

// Bad logs: each testdata/bad/NAME.log is a golden log that a cheating seat or a tamperer
// changed, and NAME.expect the verdict an audit must give: the seat blamed (-1 for nobody),
// the seq of the first failing entry and a piece of the problem. TestBadLogs audits each one
// and, where entries reach a table, feeds the same entries to a live node of every honest seat
// in lockstep: each must reach the same verdict (or reject the same entry and carry on).
//
// The logs are made from the golden logs by the builders below (go test ./protocol/ -run
// TestBadLogs -update): by editing an entry and having its author sign it again (the fixture
// holds every key), or by playing the table again with one seat's node taken over by a hook.

// badWant is what the audit of a bad log must say.
type badWant struct {
	verdict string // "cheat", "equivocation", or "none" (the log is refused, nobody is blamed)
	blamed  int
	seq     int64
	problem string // a piece of the audit's problem
	// waiting is, for a log that just stops, the seat the table waits for (else -1).
	waiting int
}

// live says how live nodes meet a bad log.
type live uint8

const (
	liveNone    live = iota // no entry reaches a table (a damaged file)
	liveVerdict             // every honest node halts with the audit's verdict
	liveReject              // every node rejects the entry, blames nobody, and carries on
)

type badLog struct {
	name  string
	base  string // the golden log it is made from
	about string
	live  live
	build func(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant)
}

var badLogs = []badLog{
	{"changed-faceup-card", "standard-3", "a face-up card changed to a bribe its author had already played this round, signed again by the author", liveVerdict, buildChangedFaceUp},
	{"changed-card-unsigned", "standard-3", "the same face-up card changed in a copy of the log without its author's key: the signature breaks", liveReject, buildChangedUnsigned},
	{"dropped-entry", "standard-3", "an entry dropped from the middle of a complete log", liveReject, buildDropped},
	{"duplicated-record", "standard-3", "a record written twice in a row", liveReject, buildDuplicated},
	{"swapped-signatures", "standard-3", "two consecutive entries with their signatures exchanged", liveReject, buildSwappedSigs},
	{"out-of-turn", "standard-3", "a seat signs a placement when another seat is due", liveReject, buildOutOfTurn},
	{"replayed-entry", "standard-3", "an entry of another table of the same players, replayed byte for byte", liveReject, buildReplayedEntry},
	{"replayed-key-proof", "standard-3", "a key proof from another table of the same players, signed into this one by its author", liveVerdict, buildReplayedKey},
	{"replayed-shuffle-proof", "standard-3", "a shuffle (same deck, its proof made for another table of the same players) signed into this one", liveVerdict, buildReplayedShuffle},
	{"shuffle-duplicate-card", "standard-3", "a shuffle whose output deck repeats a ciphertext, with the honest proof copied", liveVerdict, buildShuffleDup},
	{"shuffle-swap-cards", "standard-3", "a shuffle whose output deck has two ciphertexts swapped, with the honest proof copied", liveVerdict, buildShuffleSwap},
	{"wrong-share", "standard-3", "a decryption share for another contract of the deal (two shares swapped)", liveVerdict, buildWrongShare},
	{"signoff-wrong-digest", "standard-3", "a sign-off of a digest that is not the game's", liveVerdict, buildWrongSignOff},
	{"equivocation", "standard-3", "a seat signs a second, different placement for a seq it already wrote", liveVerdict, buildEquivocation},
	{"opened-to-other-card", "standard-3", "a face-down card opened to another card (the opening's card changed, the reveal signed again)", liveVerdict, buildOpenedOther},
	{"openings-swapped", "standard-3", "a reveal with the openings of two of its author's cards exchanged", liveVerdict, buildOpeningsSwapped},
	{"placed-twice", "standard-3", "a bribe placed face down on a Swiss account when its author had already played it this round", liveVerdict, buildPlacedTwice},
	{"character-on-swiss", "standard-3", "a character placed face down on a Swiss account", liveVerdict, buildCharacterOnSwiss},
	{"character-used-earlier", "standard-3", "a character placed face down that its author used up in an earlier round", liveVerdict, buildCharacterUsedEarlier},
	{"peek-without-book", "standard-3", "a peek at a table played without the little black book", liveVerdict, buildPeekWithoutBook},
	{"lying-answer", "freestud-lbb-4", "a sealed answer to a peek that holds a made-up opening of another card; the peeker blames it", liveVerdict, buildLyingAnswer},
	{"garbage-answer", "freestud-lbb-4", "a sealed answer to a peek changed after it was sealed: its proof fails and convicts its author at once, with no blame", liveVerdict, buildGarbageAnswer},
	{"false-blame", "freestud-lbb-4", "a peeker blames an honest answer", liveVerdict, buildFalseBlame},
	{"bad-blame-proof", "freestud-lbb-4", "a peeker blames an honest answer with a proof that does not verify", liveVerdict, buildBadBlameProof},
	{"missing-signature", "standard-3", "an entry whose signature is all zeros, in a copy of a complete log", liveReject, buildMissingSig},
	{"incomplete", "standard-3", "a log cut between two records: the audit names the seat the table waits for, and blames nobody", liveNone, buildIncomplete},
	{"genesis-tampered", "standard-3", "the genesis's roster changed and signed again: the table id is no longer its hash", liveNone, buildGenesisTampered},
	{"truncated", "standard-3", "a complete log cut in the middle of its last record", liveNone, buildTruncated},
	{"garbage-appended", "standard-3", "junk bytes after a complete log", liveNone, buildGarbageAppended},
	{"bad-checksum", "standard-3", "a byte flipped inside a record", liveNone, buildBadChecksum},
}

// badKit is what the builders work from: a golden log and the keys of its players.
type badKit struct {
	spec    goldSpec
	entries []*protocol.Entry
	world   *goldWorld // a fresh world of the golden table (keys, seeds, nodes)
}

func newBadKit(t testing.TB, base string) *badKit {
	spec := goldSpecNamed(t, base)
	if *update {
		updateGolden(t, spec)
	}
	k := &badKit{spec: spec, entries: readGolden(t, base), world: newGoldWorld(t, spec, "")}
	if k.entries[0].Hash() != k.world.genesis.Hash() {
		t.Fatalf("%s: the golden genesis is not the fixture's (run TestGoldenLogs with -update first)", base)
	}
	return k
}

func copyEntry(e *protocol.Entry) *protocol.Entry {
	c := *e
	c.Body = append([]byte(nil), e.Body...)
	return &c
}

// resign signs e again with its author's key.
func (k *badKit) resign(e *protocol.Entry) *protocol.Entry {
	e.Sign(k.world.keys[e.Seat])
	return e
}

// at makes e the entry after prefix, signed by its author.
func (k *badKit) at(prefix []*protocol.Entry, e *protocol.Entry) *protocol.Entry {
	e.Table, e.Seq, e.Prev = prefix[0].Table, uint64(len(prefix)), prefix[len(prefix)-1].Hash()
	return k.resign(e)
}

func withEntry(prefix []*protocol.Entry, e ...*protocol.Entry) []*protocol.Entry {
	return append(append([]*protocol.Entry(nil), prefix...), e...)
}

// walk replays the golden log on an observer and calls fn with the state before each entry.
func (k *badKit) walk(t testing.TB, fn func(obs *protocol.Table, e *protocol.Entry)) {
	obs, err := protocol.NewTable(k.entries[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range k.entries[1:] {
		fn(obs, e)
		if err := obs.Append(e); err != nil {
			t.Fatal(err)
		}
	}
}

func (k *badKit) first(t testing.TB, what string, ok func(e *protocol.Entry) bool) int {
	for i, e := range k.entries {
		if ok(e) {
			return i
		}
	}
	t.Fatalf("%s: no %s in the golden log", k.spec.name, what)
	return 0
}

func cheat(seat int, seq uint64, problem string) badWant {
	return badWant{"cheat", seat, int64(seq), problem, -1}
}

func refused(seq uint64, problem string) badWant { return badWant{"none", -1, int64(seq), problem, -1} }

// faceUpChange finds a face-up card whose author had shown a bribe earlier in the same round,
// and returns its seq and that bribe.
func (k *badKit) faceUpChange(t testing.TB) (int, corruption.Card) {
	type key struct{ seat, round int }
	shown := map[key]corruption.Card{}
	seq, card := 0, corruption.CardUnknown
	k.walk(t, func(obs *protocol.Table, e *protocol.Entry) {
		if e.Kind != protocol.KindPlace || seq != 0 {
			return
		}
		_, up, c, _, err := protocol.ParsePlaceBodyForTest(e.Body)
		if err != nil {
			t.Fatal(err)
		}
		kk := key{e.Seat, obs.Game().Round()}
		if b, ok := shown[kk]; ok && up {
			seq, card = int(e.Seq), b
		} else if up && c.IsBribe() {
			shown[kk] = c
		}
	})
	if seq == 0 {
		t.Fatal("no seat shows two face-up cards in a round")
	}
	return seq, card
}

func changeFaceUp(t testing.TB, e *protocol.Entry, card corruption.Card) {
	spot, up, _, commit, err := protocol.ParsePlaceBodyForTest(e.Body)
	if err != nil || !up {
		t.Fatalf("%s is not a face-up placement", e)
	}
	e.Body = protocol.PlaceBodyForTest(spot, true, card, commit)
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
	seq := k.first(t, "placement", func(e *protocol.Entry) bool { return e.Kind == protocol.KindPlace && e.Seq > 60 })
	next := copyEntry(k.entries[seq+1]) // the next seat's placement, signed a turn early
	if next.Kind != protocol.KindPlace || next.Seat == k.entries[seq].Seat {
		t.Fatalf("%s is not the next seat's placement", next)
	}
	return withEntry(k.entries[:seq], k.at(k.entries[:seq], next)), nil, refused(uint64(seq), fmt.Sprintf("written by seat %d out of turn", next.Seat))
}

// other plays another table of the same players (same keys and table seeds, another genesis
// nonce) through its shuffles.
func (k *badKit) other(t testing.TB) []*protocol.Entry {
	w := newGoldWorld(t, k.spec, "other")
	for w.obs.Game() == nil || len(w.log) < 1+3*k.spec.players {
		w.feed(t, w.write(t, w.botDecider))
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

func buildReplayedShuffle(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := 1 + 2*k.spec.players // the first shuffle
	// This table's shuffled deck, with the proof the same seat made at another table.
	o := copyEntry(k.other(t)[seq])
	mine, _, err1 := protocol.ParseShuffleBodyForTest(k.entries[seq].Body)
	_, theirs, err2 := protocol.ParseShuffleBodyForTest(o.Body)
	if err1 != nil || err2 != nil || o.Kind != protocol.KindShuffle {
		t.Fatalf("entry %d is not a shuffle: %v %v", seq, err1, err2)
	}
	o.Body = protocol.ShuffleBodyForTest(mine, theirs)
	return withEntry(k.entries[:seq], k.at(k.entries[:seq], o)), nil, cheat(o.Seat, uint64(seq), "its shuffle proof does not verify")
}

func (k *badKit) badShuffle(t testing.TB, seat int, change func(crypto.Deck)) ([]*protocol.Entry, []byte, badWant) {
	seq := 1 + 2*k.spec.players + seat
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

func buildWrongShare(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	n := 0
	seq := k.first(t, "shares of round 2", func(e *protocol.Entry) bool {
		if e.Kind == protocol.KindShares {
			n++
		}
		return n == k.spec.players+k.spec.players
	})
	e := copyEntry(k.entries[seq])
	shares, err := protocol.ParseSharesBodyForTest(e.Body)
	if err != nil {
		t.Fatal(err)
	}
	shares[0], shares[1] = shares[1], shares[0]
	e.Body = protocol.SharesBodyForTest(shares)
	k.resign(e)
	return withEntry(k.entries[:seq], e), nil, cheat(e.Seat, e.Seq, "its decryption share for contract 1 of the deal does not verify")
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

// faceDown finds a face-down placement after from.
func (k *badKit) faceDown(t testing.TB, from uint64) int {
	return k.first(t, "face-down placement", func(e *protocol.Entry) bool {
		if e.Kind != protocol.KindPlace || e.Seq < from {
			return false
		}
		_, up, _, _, err := protocol.ParsePlaceBodyForTest(e.Body)
		return err == nil && !up
	})
}

func buildEquivocation(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := k.faceDown(t, 60)
	twin := copyEntry(k.entries[seq])
	spot, _, _, commit, _ := protocol.ParsePlaceBodyForTest(twin.Body)
	commit[0] ^= 1 // another commitment: a legal entry too, had it come first
	twin.Body = protocol.PlaceBodyForTest(spot, false, 0, commit)
	k.resign(twin)
	return withEntry(k.entries[:seq+4], twin), nil,
		badWant{"equivocation", twin.Seat, int64(seq), fmt.Sprintf("it signed two different entries for seq %d", seq), -1}
}

// badReveal changes the first reveal of at least two cards, one of them a bribe.
func (k *badKit) badReveal(t testing.TB, change func(idx []int, ops []*crypto.Opening)) ([]*protocol.Entry, []byte, badWant) {
	seq := k.first(t, "reveal of two cards", func(e *protocol.Entry) bool {
		if e.Kind != protocol.KindReveal {
			return false
		}
		idx, ops, err := protocol.ParseRevealBodyForTest(e.Body)
		if err != nil || len(idx) < 2 {
			return false
		}
		c, err := corruption.ParseCard(string(ops[0].Card()))
		return err == nil && c.IsBribe()
	})
	e := copyEntry(k.entries[seq])
	idx, ops, _ := protocol.ParseRevealBodyForTest(e.Body)
	change(idx, ops)
	e.Body = protocol.RevealBodyForTest(idx, ops)
	k.resign(e)
	return withEntry(k.entries[:seq], e), nil, cheat(e.Seat, e.Seq, "does not match its commitment")
}

func buildOpenedOther(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	return k.badReveal(t, func(_ []int, ops []*crypto.Opening) {
		b := ops[0].Bytes()
		card := corruption.Bribe10000
		if string(b[32:]) == card.String() {
			card = corruption.Bribe1000
		}
		o, err := crypto.ParseOpening(append(b[:32:32], card.String()...)) // same nonce, another card
		if err != nil {
			t.Fatal(err)
		}
		ops[0] = o
	})
}

func buildOpeningsSwapped(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	return k.badReveal(t, func(_ []int, ops []*crypto.Opening) { ops[0], ops[1] = ops[1], ops[0] })
}

func buildPeekWithoutBook(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := k.faceDown(t, 60)
	e := copyEntry(k.entries[seq])
	e.Kind, e.Body = protocol.KindPeek, []byte{1}
	return withEntry(k.entries[:seq], k.resign(e)), nil, cheat(e.Seat, e.Seq, "it wrote a peek entry")
}

// takeOver plays the golden table again with the decisions of its log, and lets place choose a
// seat's last placement of a round (card and spot: the card is committed face down, with a nonce
// the seat's node does not know). The seat's node is then taken over: the hook writes its reveal
// with the chosen card's opening. It returns the log up to the verdict.
func (k *badKit) takeOver(t testing.TB, place func(w *goldWorld, seat int) (corruption.Card, corruption.Spot, bool)) ([]*protocol.Entry, int) {
	w := newGoldWorld(t, k.spec, "")
	cheater, index := -1, 0
	var opening *crypto.Opening
	h := func(w *goldWorld, seat int, kinds []protocol.Kind) *protocol.Entry {
		g := w.obs.Game()
		switch {
		case cheater < 0 && kinds[0] == protocol.KindPlace && g.Placed(seat) == corruption.CardsPerRound-1:
			card, spot, ok := place(w, seat)
			if !ok {
				return nil
			}
			var c crypto.Commitment
			var err error
			c, opening, err = crypto.Commit(newStream("cheat %s", k.spec.name), protocol.CardsContextForTest(w.obs), seat, g.Round(), corruption.CardsPerRound, []byte(card.String()))
			if err != nil {
				t.Fatal(err)
			}
			cheater, index = seat, g.NumPlays()+1
			w.honest[seat] = false
			return w.sign(seat, protocol.KindPlace, protocol.PlaceBodyForTest(spot, false, 0, c))
		case seat == cheater && kinds[0] == protocol.KindReveal:
			var idx []int
			var ops []*crypto.Opening
			for i := 1; i <= g.NumPlays(); i++ {
				p, _ := g.PlayAt(i)
				if p.Seat != seat || p.Revealed {
					continue
				}
				o := opening
				if i != index {
					var err error
					if o, err = protocol.OpeningForTest(w.tables[seat], i); err != nil {
						t.Fatal(err)
					}
				}
				idx, ops = append(idx, i), append(ops, o)
			}
			return w.sign(seat, protocol.KindReveal, protocol.RevealBodyForTest(idx, ops))
		}
		return nil
	}
	v := w.play(t, scriptDecider(t, scriptOf(t, k.entries)), h)
	if v == nil || cheater < 0 {
		t.Fatalf("the take-over ends without a verdict (cheater %d)", cheater)
	}
	return w.log, cheater
}

func lastEntry(entries []*protocol.Entry) *protocol.Entry { return entries[len(entries)-1] }

func buildPlacedTwice(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	var card corruption.Card
	entries, seat := k.takeOver(t, func(w *goldWorld, seat int) (corruption.Card, corruption.Spot, bool) {
		if w.obs.Game().Round() != 2 {
			return 0, 0, false
		}
		hand := w.tables[seat].Game().View(seat).Hand()
		for _, c := range corruption.Bribes {
			if !slices.Contains(hand, c) {
				card = c
				return c, corruption.SwissSpot(1), true
			}
		}
		return 0, 0, false
	})
	return entries, nil, cheat(seat, lastEntry(entries).Seq, "has already played its "+card.Words()+" this round")
}

func buildCharacterOnSwiss(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	entries, seat := k.takeOver(t, func(w *goldWorld, seat int) (corruption.Card, corruption.Spot, bool) {
		if w.obs.Game().Round() != 2 {
			return 0, 0, false
		}
		for _, c := range w.tables[seat].Game().View(seat).Hand() {
			if c.IsCharacter() {
				return c, corruption.SwissSpot(0), true
			}
		}
		return 0, 0, false
	})
	return entries, nil, cheat(seat, lastEntry(entries).Seq, "characters go only under contracts")
}

func buildCharacterUsedEarlier(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	var card corruption.Card
	entries, seat := k.takeOver(t, func(w *goldWorld, seat int) (corruption.Card, corruption.Spot, bool) {
		g := w.obs.Game()
		if g.Round() < 2 {
			return 0, 0, false
		}
		// Characters used up in earlier rounds: none left, and none shown or hidden this round.
		var this [3]int
		for i := 1; i <= g.NumPlays(); i++ {
			if p, _ := w.tables[seat].Game().PlayAt(i); p.Seat == seat && p.Card.IsCharacter() {
				this[p.Card-corruption.DA]++
			}
		}
		da, rep, hit := w.tables[seat].Game().CharactersLeft(seat)
		for i, left := range []int{da, rep, hit} {
			if left == 0 && this[i] == 0 {
				card = corruption.Characters[i]
				return card, corruption.ContractSpot(g.Table()[0]), true
			}
		}
		return 0, 0, false
	})
	return entries, nil, cheat(seat, lastEntry(entries).Seq, fmt.Sprintf("seat %d has no %s left", seat, card.Words()))
}

// answerHook has the answerer of the table's first peek write the box seal makes instead of
// its honest answer.
func answerHook(seal func(w *goldWorld, round, index, answerer, peeker int) []byte) (hook, *int) {
	answerer := -1
	return func(w *goldWorld, seat int, kinds []protocol.Kind) *protocol.Entry {
		if answerer >= 0 || kinds[0] != protocol.KindAnswer {
			return nil
		}
		peek := lastEntry(w.log)
		answerer = seat
		w.honest[seat] = false
		return w.sign(seat, protocol.KindAnswer, seal(w, w.obs.Game().Round(), int(peek.Body[0]), seat, peek.Seat))
	}, &answerer
}

func sealTo(t testing.TB, w *goldWorld, round, index, from, to int, msg []byte) []byte {
	box, err := crypto.Seal(newStream("cheat seal"), protocol.PeekContextForTest(w.obs, round, index), from, to,
		protocol.ElGamalPublicForTest(w.obs, to), protocol.PadAnswerForTest(msg))
	if err != nil {
		t.Fatal(err)
	}
	return box.Bytes()
}

func (k *badKit) lie(t testing.TB, seal func(w *goldWorld, round, index, answerer, peeker int) []byte, problem string) ([]*protocol.Entry, []byte, badWant) {
	w := newGoldWorld(t, k.spec, "")
	h, answerer := answerHook(seal)
	v := w.play(t, scriptDecider(t, scriptOf(t, k.entries)), h)
	last := lastEntry(w.log)
	switch {
	case v == nil:
		t.Fatalf("the lie ends with no verdict, after %s", last)
	case last.Kind == protocol.KindBlame: // the peeker's blame convicts the answerer
	case last.Kind == protocol.KindAnswer && v.Seq == last.Seq:
		// The answer convicts its author by itself, and ends the log as its evidence.
	default:
		t.Fatalf("the lie ends with %v, after %s", v, last)
	}
	return w.log, nil, cheat(*answerer, last.Seq, problem)
}

func buildLyingAnswer(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	return k.lie(t, func(w *goldWorld, round, index, from, to int) []byte {
		var nonce [32]byte
		newStream("cheat nonce").Read(nonce[:])
		return sealTo(t, w, round, index, from, to, append(nonce[:], "10000"...))
	}, "is not the card it placed")
}

func buildGarbageAnswer(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	return k.lie(t, func(w *goldWorld, round, index, from, to int) []byte {
		b := sealTo(t, w, round, index, from, to, []byte("whatever"))
		b[len(b)-1] ^= 1 // break the tag: the box's proof, which covers it, fails
		return b
	}, "proof of its ephemeral key")
}

func buildFalseBlame(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	return k.blame(t, func([]byte) {}, "which is honest")
}

func buildBadBlameProof(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	return k.blame(t, func(b []byte) { b[crypto.PointSize] ^= 1 }, "does not verify")
}

// blame has the first peeker to get an (honest) answer blame it, with change applied to its
// blame's bytes.
func (k *badKit) blame(t testing.TB, change func([]byte), problem string) ([]*protocol.Entry, []byte, badWant) {
	w := newGoldWorld(t, k.spec, "")
	blamer := -1
	h := func(w *goldWorld, seat int, kinds []protocol.Kind) *protocol.Entry {
		if blamer >= 0 || len(kinds) < 2 || kinds[1] != protocol.KindBlame {
			return nil
		}
		answer, peek := w.log[len(w.log)-1], w.log[len(w.log)-2]
		box, err := crypto.ParseSealedBox(answer.Body)
		if err != nil {
			t.Fatal(err)
		}
		priv, err := protocol.ElGamalKeyForTest(w.selves[seat])
		if err != nil {
			t.Fatal(err)
		}
		ctx := protocol.PeekContextForTest(w.obs, w.obs.Game().Round(), int(peek.Body[0]))
		bl, err := crypto.ProveBlame(newStream("cheat blame"), ctx, answer.Seat, seat, priv, box)
		if err != nil {
			t.Fatal(err)
		}
		blamer = seat
		w.honest[seat] = false
		b := bl.Bytes()
		change(b)
		return w.sign(seat, protocol.KindBlame, b)
	}
	v := w.play(t, scriptDecider(t, scriptOf(t, k.entries)), h)
	if v == nil {
		t.Fatal("the false blame ends without a verdict")
	}
	return w.log, nil, cheat(blamer, lastEntry(w.log).Seq, problem)
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

func badPath(name, ext string) string { return filepath.Join("testdata", "bad", name+ext) }

func writeBad(t testing.TB, bl badLog, b []byte, want badWant) {
	if err := os.MkdirAll(filepath.Join("testdata", "bad"), 0o755); err != nil {
		t.Fatal(err)
	}
	x := &expectFile{comment: []string{bl.about, "made by TestBadLogs -update from ../" + bl.base + ".log"}}
	x.set("base", bl.base)
	x.set("expect", want.verdict)
	x.set("blamed", fmt.Sprint(want.blamed))
	x.set("seq", fmt.Sprint(want.seq))
	x.set("problem", want.problem)
	x.set("waiting", fmt.Sprint(want.waiting))
	if err := os.WriteFile(badPath(bl.name, ".log"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(badPath(bl.name, ".expect"), x.bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readBadWant(t testing.TB, name string) badWant {
	path := badPath(name, ".expect")
	x := readExpect(t, path)
	var w badWant
	var err1, err2, err3 error
	w.verdict = x.get(t, path, "expect")
	w.blamed, err1 = strconv.Atoi(x.get(t, path, "blamed"))
	w.seq, err2 = strconv.ParseInt(x.get(t, path, "seq"), 10, 64)
	w.problem = x.get(t, path, "problem")
	w.waiting, err3 = strconv.Atoi(x.get(t, path, "waiting"))
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return w
}

// TestBadLogs audits every bad log, and feeds its entries to live nodes.
func TestBadLogs(t *testing.T) {
	kits := map[string]*badKit{}
	for _, bl := range badLogs {
		t.Run(bl.name, func(t *testing.T) {
			if *update {
				if kits[bl.base] == nil {
					kits[bl.base] = newBadKit(t, bl.base)
				}
				entries, b, want := bl.build(t, kits[bl.base])
				if b == nil {
					b = logBytes(t, entries)
				}
				writeBad(t, bl, b, want)
			}
			want := readBadWant(t, bl.name)
			b, err := os.ReadFile(badPath(bl.name, ".log"))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := protocol.Audit(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("audit: %v", err)
			}
			verdict := "none"
			if rep.Verdict != nil {
				verdict = rep.Verdict.Kind.String()
			}
			if rep.Valid || verdict != want.verdict || rep.Blamed != want.blamed || rep.At != want.seq ||
				!strings.Contains(rep.Problem, want.problem) || rep.WaitingFor != want.waiting {
				t.Fatalf("audit: valid %v, verdict %s, blamed %d, at %d, waiting for %d, problem %q\n"+
					"want: verdict %s, blamed %d, at %d, waiting for %d, problem containing %q",
					rep.Valid, verdict, rep.Blamed, rep.At, rep.WaitingFor, rep.Problem,
					want.verdict, want.blamed, want.seq, want.waiting, want.problem)
			}
			if bl.live == liveNone {
				return
			}
			entries, err := protocol.ReadLog(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			checkLive(t, goldSpecNamed(t, bl.base), entries, want, bl.live)
		})
	}
}

// checkLive feeds entries in lockstep to a node of every seat but the blamed one, and checks that
// each reaches want: the same verdict, or the same rejection after which it carries on.
func checkLive(t *testing.T, spec goldSpec, entries []*protocol.Entry, want badWant, how live) {
	w := newGoldWorld(t, spec, "")
	if entries[0].Hash() != w.genesis.Hash() {
		t.Fatal("the bad log's genesis is not the fixture's")
	}
	golden := readGolden(t, spec.name)
	for seat, tb := range w.tables {
		if seat == want.blamed {
			continue
		}
		for _, e := range entries[1:] {
			if e.Kind == protocol.KindBlame && e.Seat == seat {
				// The peeker's own node writes this very blame.
				mine, err := tb.NextEntry(func(corruption.View) (corruption.Move, bool) {
					t.Fatal("asked to decide")
					return corruption.Move{}, false
				})
				if err != nil || mine == nil || !bytes.Equal(mine.Marshal(), e.Marshal()) {
					t.Fatalf("seat %d's node does not write the blame %s itself: %v %v", seat, e, mine, err)
				}
			}
			len0, head0 := tb.Len(), tb.Head()
			err := tb.Append(e)
			var v *protocol.Verdict
			switch {
			case err == nil:
				continue
			case errors.As(err, &v):
				if how != liveVerdict || v.Kind.String() != want.verdict || v.Seat != want.blamed || int64(v.Seq) != want.seq {
					t.Fatalf("seat %d's node: %v; want %s of seat %d at %d", seat, v, want.verdict, want.blamed, want.seq)
				}
			default:
				var gap *protocol.GapError
				if errors.As(err, &gap) && int64(gap.Have) == want.seq {
					e = golden[want.seq] // the missing entry
				}
				if how != liveReject || int64(e.Seq) != want.seq || tb.Verdict() != nil || tb.Len() != len0 || tb.Head() != head0 {
					t.Fatalf("seat %d's node refuses %s: %v (verdict %v, len %d -> %d); want the audit's %+v", seat, e, err, tb.Verdict(), len0, tb.Len(), want)
				}
				// It carries on with the honest entry.
				if err := tb.Append(golden[tb.Len()]); err != nil {
					t.Fatalf("seat %d's node does not carry on after refusing %s: %v", seat, e, err)
				}
			}
			break
		}
		if v := tb.Verdict(); (how == liveVerdict) != (v != nil) {
			t.Fatalf("seat %d's node ends with verdict %v", seat, v)
		}
	}
}

// TestEquivocationDelivery has a seat sign two entries for one seq and delivers them to the
// honest nodes in both orders (each node relays what halted it, so every node sees both).
// Every node must end with the same verdict, whichever twin it saw first.
func TestEquivocationDelivery(t *testing.T) {
	k := newBadKit(t, "standard-3")
	seq := k.faceDown(t, 60)
	orig := k.entries[seq]
	spot, _, _, commit, err := protocol.ParsePlaceBodyForTest(orig.Body)
	if err != nil {
		t.Fatal(err)
	}
	twin := func(change func(e *protocol.Entry)) *protocol.Entry {
		e := copyEntry(orig)
		change(e)
		return k.resign(e)
	}
	for _, tc := range []struct {
		name string
		twin *protocol.Entry
	}{
		{"legal twin", twin(func(e *protocol.Entry) {
			c := commit
			c[0] ^= 1
			e.Body = protocol.PlaceBodyForTest(spot, false, 0, c)
		})},
		{"twin off the chain", twin(func(e *protocol.Entry) { e.Prev[0] ^= 1 })},
		// The card shown face up where it must be face down: a cheat if it comes first.
		{"illegal twin", twin(func(e *protocol.Entry) {
			e.Body = protocol.PlaceBodyForTest(spot, true, corruption.Bribe1000, crypto.Commitment{})
		})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var verdicts []string
			for first := range 2 {
				w := newGoldWorld(t, k.spec, "")
				pair := []*protocol.Entry{orig, tc.twin}
				a, b := pair[first], pair[1-first]
				for seat, tb := range w.tables {
					if seat == orig.Seat {
						continue
					}
					for _, e := range k.entries[1:seq] {
						if err := tb.Append(e); err != nil {
							t.Fatal(err)
						}
					}
					// a, then b, then a again (relayed by a node that b halted), then the log
					// that follows the original. A halted node keeps listening for a while (its
					// linger), so it hears the twin it missed.
					for _, e := range append([]*protocol.Entry{a, b, a}, k.entries[seq+1:]...) {
						tb.Append(e)
					}
					v := tb.Verdict()
					if v == nil {
						t.Fatalf("seat %d's node, given the %s first, ends without a verdict", seat, []string{"original", "twin"}[first])
					}
					verdicts = append(verdicts, fmt.Sprintf("%s of seat %d at %d", v.Kind, v.Seat, v.Seq))
				}
			}
			for _, v := range verdicts {
				if v != verdicts[0] || !strings.Contains(v, fmt.Sprintf("seat %d at %d", orig.Seat, seq)) {
					t.Fatalf("the honest nodes' verdicts depend on which twin came first: %v (original first for the first %d)", verdicts, len(verdicts)/2)
				}
			}
		})
	}
}
