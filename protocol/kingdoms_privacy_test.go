package protocol_test

import (
	"bytes"
	"fmt"
	"testing"

	"corruption/crypto"
	"corruption/engine"
	"corruption/engine/kingdoms"
	"corruption/protocol"
)

// kingdomsValues are every value a hidden value of Corrupted Kingdoms may take: a vote, or the
// position of a chaos discard.
var kingdomsValues = [][]byte{[]byte("yes"), []byte("no"), {0}, {1}, {2}, {3}}

// TestKingdomsPrivacy records every byte of whole Corrupted Kingdoms games (as TestPrivacy does
// for Corruption and the toy) and shows from the recording that no seat's agenda, chaos hand,
// chaos discard or vote, nor any deck's order, can be learnt from the traffic before it is
// shown:
//
//   - a vote or a chaos discard (hidden values): the nonce of its commitment is not sent before
//     its opening, and no value of the game opens the commitment with any 32 bytes sent before
//     (brute-forced for one opened value in three, every one under -long; a discard never
//     opened, its seat having played no chaos card: with any 32 bytes sent at all); the votes of a choice are all committed before any is opened;
//
//   - a shareholder or chaos card dealt to one seat: the others' shares decode to no card, and
//     the recipient's share is sent only by the show at the end (or at the card's play), never
//     for a card not played;
//
//   - a favor, guilty pleasure, shareholder or chaos card never dealt (the favors set aside, the
//     rest of each deck): no seat's share of it is ever sent; a card dealt face up needs every
//     seat's share;
//
//   - every shuffle re-encrypts every card; no node's secret is ever sent.
//
//     go test ./protocol/ -run TestKingdomsPrivacy -v
func TestKingdomsPrivacy(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n    int
		seed uint64
	}{{2, 40}, {3, 41}, {4, 42}} {
		if testing.Short() && tc.n == 4 {
			continue
		}
		t.Run(fmt.Sprintf("%d-advanced", tc.n), func(t *testing.T) {
			w, runs := recordGame(t, kingdomsSpec(tc.n, kingdoms.Advanced, "heuristic", tc.seed), tc.seed)
			log := readLog(t, runs[0].dir)
			facts := readFacts(t, log)
			keys := nodeKeys(t, runs, log)
			index := newWindowIndex(w.msgs)
			var opened, never, votes int
			t.Run("hidden", func(t *testing.T) { opened, never, votes = checkKingdomsHidden(t, w, index, facts, log) })
			var public, subsets, private, shown, undealt int
			t.Run("deals", func(t *testing.T) {
				public, subsets, private, shown = checkDeals(t, w, index, facts, keys, kingdoms.NumFavors)
			})
			t.Run("undealt", func(t *testing.T) { undealt = checkUndealt(t, index, withoutOpenCards(t, facts), keys) })
			t.Run("shuffles", func(t *testing.T) { checkPile(t, facts) })
			t.Run("secrets", func(t *testing.T) { checkSecrets(t, w, runs, log) })
			t.Logf("%d messages: %d hidden values opened after they were brute-forced in vain (%d votes), %d chaos discards never opened nor found; "+
				"%d cards dealt face up (%d proper subsets of shares decode to nothing); %d dealt to one seat, %d of them shown later; %d cards never dealt, no share of them sent",
				len(w.msgs), opened, votes, never, public, subsets, private, shown, undealt)
		})
	}
}

// withoutOpenCards is f without the cards built in the open, which everyone knows: the guilty
// pleasures that go back under the deck once seen (a build that keeps the deck and appends
// known cards, encrypted with randomness zero until the deck is shuffled again). Their
// decryption shares are the identity, sent by any message that holds 32 zero bytes.
func withoutOpenCards(t *testing.T, f *logFacts) *logFacts {
	open := map[string]bool{}
	for i := range kingdoms.NumFavors {
		c, err := crypto.CanonicalCard(i)
		if err != nil {
			t.Fatal(err)
		}
		open[string(c.Bytes())] = true
	}
	g := *f
	g.decks = map[int]crypto.Deck{}
	for id, deck := range f.decks {
		for len(deck) > 0 && open[string(deck[len(deck)-1].Bytes())] {
			deck = deck[:len(deck)-1]
		}
		g.decks[id] = deck
	}
	return &g
}

// checkKingdomsHidden brute-forces the hidden values of the game over the bytes sent before
// their opening (or ever, for a discard never opened), and checks that the votes of each choice
// were all committed before any was opened.
func checkKingdomsHidden(t *testing.T, w *wiretap, index *windowIndex, f *logFacts, log []*protocol.Entry) (opened, never, votes int) {
	if len(f.values) == 0 {
		t.Fatal("no hidden value in the game")
	}
	for k, v := range f.values {
		prefix := commitPrefix(f.table[:], f.roster, v.seat, 0, v.ref)
		end := len(w.msgs)
		if v.opened != nil {
			nonce := v.opening[:32]
			end = first(w.msgs, v.opened.Marshal())
			if end == len(w.msgs) {
				t.Fatalf("the opening of hidden value %d is not in the traffic", v.ref)
			}
			if at := first(w.msgs, nonce); at < end {
				t.Fatalf("the nonce of hidden value %d (seat %d) was sent in message %d, before its opening (message %d)", v.ref, v.seat, at, end)
			}
			if got, ok := bruteForce(prefix, v.commit, kingdomsValues, func(y func([]byte) bool) { y(nonce) }); !ok || !bytes.Equal(got, v.opening[32:]) {
				t.Fatalf("the brute force does not find value %q with its own nonce (got %q): it cannot find anything", v.opening[32:], got)
			}
			opened++
			if string(v.opening[32:]) == "yes" || string(v.opening[32:]) == "no" {
				votes++
			}
		} else {
			never++
		}
		// An opened value's nonce was not sent before its opening (above), so no window sent
		// before opens it short of a second preimage of SHA-256: as TestPrivacy does, one
		// opened value in three is brute-forced all the same (every one under -long), and
		// every value never opened, whose nonce the test does not know.
		if v.opened != nil && k%3 != 0 && !*long {
			continue
		}
		if got, ok := bruteForce(prefix, v.commit, kingdomsValues, index.before(end)); ok {
			t.Fatalf("hidden value %d (seat %d) opens to %q with bytes sent before its opening", v.ref, v.seat, got)
		}
	}
	if votes == 0 {
		t.Fatal("no vote in the game")
	}
	// Each choice: every commitment before the first opening.
	obs, err := protocol.NewTable(log[0], nil, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opening := false
	for _, e := range log[1:] {
		if obs.Game() != nil && protocol.StepForTest(obs).Kind == engine.StepChoose {
			switch e.Kind {
			case protocol.KindOpen:
				opening = true
			case protocol.KindCommit:
				if opening {
					t.Fatalf("%s: a vote committed after another was opened", e)
				}
			}
		} else {
			opening = false
		}
		if err := obs.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	return opened, never, votes
}
