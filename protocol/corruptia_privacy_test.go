package protocol_test

import (
	"fmt"
	"testing"

	"corruption/engine/corruptia"
)

// TestCorruptiaPrivacy records every byte the nodes of whole Corruptia tables send (privacy_test.go
// says how) and shows from the recording what issue 15 asks of Corruptia's hidden information:
//   - votes: no vote (yes, no, absent) can be found before its opening, from any bytes sent
//     before it (brute force over the three votes and every 32-byte window);
//   - hands: a bill dealt to a senator alone decodes with no subset of the others' decryption
//     shares, all of them together included (at the 4-senator table, which escrows its keys, all
//     the others together could rebuild the senator's key from their sealed escrow shares:
//     TestEscrowPrivacy shows that fewer cannot), and the senator's own share is sent only when
//     it shows the bill (proposed, swapped, at the end), never for the opening discard;
//   - the deck order: no share of a position never dealt (the bills set aside, the rest of the
//     first deck once it is rebuilt) is ever sent;
//   - the anonymous pile of opening discards: it is built from the positions the senators
//     discarded, and every seat's shuffle re-encrypts every card, so that no ciphertext of the
//     pile as dealt is one of the hands' (who discarded which is not on the wire);
//   - no node's secret is ever sent.
func TestCorruptiaPrivacy(t *testing.T) {
	t.Parallel()
	votes := [][]byte{[]byte("yes"), []byte("no"), []byte("absent")}
	for _, n := range []int{2, 4} {
		if testing.Short() && n > 2 {
			continue // -short (the race pass): the table of two
		}
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			w, runs := recordGame(t, corruptiaSpec(n, "heuristic", 40+uint64(n)), 40+uint64(n))
			log := readLog(t, runs[0].dir)
			facts := readFacts(t, log)
			keys := nodeKeys(t, runs, log)
			index := newWindowIndex(w.msgs)
			values, forced := checkHidden(t, w, index, facts, votes)
			public, subsets, private, shown := checkDeals(t, w, index, facts, keys, corruptia.NumBills)
			undealt := checkUndealt(t, index, facts, keys)
			checkPile(t, facts)
			piles := 0
			for _, sh := range facts.shuffle {
				if sh.deck == corruptia.DeckPile {
					piles++
				}
			}
			checkSecrets(t, w, runs, log)
			if values == 0 || private == 0 || shown == 0 || shown == private {
				t.Fatalf("%d votes, %d bills dealt to one senator of which %d shown: want votes, and hands partly shown", values, private, shown)
			}
			if want := corruptia.SetAside(n); undealt < want {
				t.Errorf("%d undealt positions, want at least the %d bills set aside", undealt, want)
			}
			if piles != n {
				t.Errorf("%d shuffles of the anonymous pile, want one by each of the %d senators", piles, n)
			}
			checkOpeningPile(t, facts, n)
			t.Logf("%d messages sent; %d votes hidden until opened (%d brute-forced); %d bills dealt face up (%d proper subsets of shares decode to none); "+
				"%d bills dealt to one senator (%d shown later); %d positions never dealt; %d shuffles of the opening discards",
				len(w.msgs), values, forced, public, subsets, private, shown, undealt, piles)
		})
	}
}

// checkOpeningPile checks the opening discards: deck 2 holds exactly n cards, dealt face up all
// at once, and none of its ciphertexts is one of those dealt to the senators (the pile's
// shuffles re-encrypted them all).
func checkOpeningPile(t *testing.T, f *logFacts, n int) {
	pile := f.decks[corruptia.DeckPile]
	if len(pile) != n {
		t.Fatalf("the anonymous pile holds %d cards, want one discard of each of %d senators", len(pile), n)
	}
	hands := map[string]bool{}
	dealt := false
	for _, d := range f.deals {
		if d.deck == corruptia.DeckPile {
			if d.to >= 0 || d.show || len(d.positions) != n {
				t.Fatalf("the pile is dealt %d cards to %d (show %v): want all %d face up at once", len(d.positions), d.to, d.show, n)
			}
			dealt = true
			continue
		}
		if d.to >= 0 && !d.show {
			for i := range d.cts {
				hands[string(d.cts[i].Bytes())] = true
			}
		}
	}
	if !dealt {
		t.Fatal("the pile is never dealt")
	}
	for i := range pile {
		if hands[string(pile[i].Bytes())] {
			t.Fatalf("card %d of the pile is a ciphertext dealt to a senator: whose discard it was shows", i)
		}
	}
}
