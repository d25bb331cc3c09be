package protocol_test

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"errors"
	"slices"
	"testing"

	"corruption/crypto"
	"corruption/engine"
	"corruption/protocol"
)

// What TestPrivacy reads from a complete log: the hidden values and their openings, the sealed
// answers, the deals and shows with their shares, and the shuffles. The bodies are read by
// docs/PROTOCOL.md's layouts, not by the package's decoders; an observer table replaying the
// log says which step each entry belongs to.

type hiddenFact struct {
	ref, seat int
	commit    crypto.Commitment
	opening   []byte          // nonce ‖ value, from its open entry
	opened    *protocol.Entry // the open entry
}

type answerFact struct {
	e             *protocol.Entry
	ctx           crypto.Context
	from, to, ref int
}

// dealFact is a deal (to < 0: face up; else to one seat) or a show (to is the shower).
type dealFact struct {
	show      bool
	deck, to  int
	positions []int
	cts       []crypto.Ciphertext // the dealt ciphertexts, by position
	shares    map[int][]*crypto.Share
	entries   []*protocol.Entry
}

type shuffleFact struct {
	deck    int
	in, out crypto.Deck
}

type logFacts struct {
	table   [32]byte
	roster  [][]byte
	values  []*hiddenFact
	answers []answerFact
	deals   []*dealFact
	shuffle []shuffleFact
	decks   map[int]crypto.Deck // every deck as the log ends
}

// layout readers (docs/PROTOCOL.md: "bytes" is a u32 length then the bytes)
func lpAt(t *testing.T, b []byte) (field, rest []byte) {
	if len(b) < 4 || int(binary.BigEndian.Uint32(b)) > len(b)-4 {
		t.Fatalf("a body that does not follow its layout: %x", b)
	}
	n := int(binary.BigEndian.Uint32(b))
	return b[4 : 4+n], b[4+n:]
}

const noteSize = 49 // a note to self: AES-256-GCM of the value padded to 33 bytes

func readFacts(t *testing.T, log []*protocol.Entry) *logFacts {
	g, err := protocol.ParseGenesis(log[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	f := &logFacts{table: log[0].Table, decks: map[int]crypto.Deck{}}
	for _, m := range g.Roster {
		f.roster = append(f.roster, m.Key)
	}
	ordered := false
	obs, err := protocol.NewTable(log[0], nil, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	deals := map[string]*dealFact{}
	commit := func(seat int, b []byte) {
		c, err := crypto.ParseCommitment(b[:32])
		if err != nil {
			t.Fatal(err)
		}
		f.values = append(f.values, &hiddenFact{ref: len(f.values), seat: seat, commit: c})
	}
	for _, e := range log[1:] {
		var st engine.Step
		var label string
		if obs.Game() != nil {
			st, label = protocol.StepForTest(obs), protocol.StepLabelForTest(obs)
		}
		switch e.Kind {
		case protocol.KindMove: // bytes(move) ‖ u8 k ‖ k × (32-byte commitment ‖ note)
			_, rest := lpAt(t, e.Body)
			for k := range int(rest[0]) {
				commit(e.Seat, rest[1+k*(32+noteSize):])
			}
		case protocol.KindCommit: // 32-byte commitment ‖ note
			commit(e.Seat, e.Body)
		case protocol.KindOpen: // u8 k ‖ k × bytes(opening)
			refs := protocol.OpenRefsForTest(obs, e)
			rest := e.Body[1:]
			for _, ref := range refs {
				var o []byte
				o, rest = lpAt(t, rest)
				f.values[ref].opening, f.values[ref].opened = o, e
			}
		case protocol.KindAnswer:
			ctx := crypto.Context{Table: f.table[:], Roster: f.roster}.WithStep(label)
			f.answers = append(f.answers, answerFact{e: e, ctx: ctx, from: st.Seat, to: st.To, ref: st.Refs[0]})
		case protocol.KindShares: // u16 count ‖ count × 96-byte share
			d := deals[label]
			if d == nil {
				deck := protocol.DeckForTest(obs, st.Deck)
				d = &dealFact{show: st.Kind == engine.StepShow, deck: st.Deck, to: st.To, positions: st.Positions, shares: map[int][]*crypto.Share{}}
				if d.show {
					d.to = st.Seat
				}
				for _, p := range st.Positions {
					d.cts = append(d.cts, deck[p])
				}
				deals[label] = d
				f.deals = append(f.deals, d)
			}
			n := int(binary.BigEndian.Uint16(e.Body))
			for k := range n {
				sh, err := crypto.ParseShare(e.Body[2+k*crypto.ShareSize : 2+(k+1)*crypto.ShareSize])
				if err != nil {
					t.Fatal(err)
				}
				d.shares[e.Seat] = append(d.shares[e.Seat], sh)
			}
			d.entries = append(d.entries, e)
		case protocol.KindShuffle: // bytes(deck) ‖ bytes(proof)
			db, _ := lpAt(t, e.Body)
			out, err := crypto.ParseDeck(db)
			if err != nil {
				t.Fatal(err)
			}
			f.shuffle = append(f.shuffle, shuffleFact{deck: st.Deck, in: protocol.DeckForTest(obs, st.Deck), out: out})
		}
		if err := obs.Append(e); err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		if !ordered && obs.Ordered() {
			// From the draw on, every proof is bound to the roster in seat order.
			ordered, f.roster = true, nil
			for _, m := range obs.Players() {
				f.roster = append(f.roster, m.Key)
			}
		}
	}
	for d := range engine.MaxDecks {
		if deck := protocol.DeckForTest(obs, d); len(deck) > 0 {
			f.decks[d] = deck
		}
	}
	return f
}

// commitPrefix is an independent implementation of crypto/commit.go's hash, up to the nonce
// (crypto/README.md: C = SHA-256(LP(domain) ‖ LP("commit") ‖ LP(table) ‖ u64(#roster) ‖
// LP(id)… ‖ u64(seat) ‖ u64(round) ‖ u64(position) ‖ nonce ‖ LP(value))); the kit commits to
// hidden value ref as round 0, position ref.
func commitPrefix(table []byte, roster [][]byte, seat, round, pos int) []byte {
	lp := func(b, p []byte) []byte { return append(binary.BigEndian.AppendUint64(b, uint64(len(p))), p...) }
	var b []byte
	b = lp(b, []byte("corruption/crypto/v1"))
	b = lp(b, []byte("commit"))
	b = lp(b, table)
	b = binary.BigEndian.AppendUint64(b, uint64(len(roster)))
	for _, id := range roster {
		b = lp(b, id)
	}
	for _, v := range []int{seat, round, pos} {
		b = binary.BigEndian.AppendUint64(b, uint64(v))
	}
	return b
}

// bruteForce tries every value with every candidate nonce; it returns the value that opens c,
// if any.
func bruteForce(prefix []byte, c crypto.Commitment, values [][]byte, nonces func(yield func([]byte) bool)) ([]byte, bool) {
	h := sha256.New()
	h.Write(prefix)
	state, _ := h.(encoding.BinaryMarshaler).MarshalBinary()
	var tails [][]byte
	for _, v := range values {
		tails = append(tails, append(binary.BigEndian.AppendUint64(nil, uint64(len(v))), v...))
	}
	var sum [32]byte
	for nonce := range nonces {
		for k, tail := range tails {
			h.(encoding.BinaryUnmarshaler).UnmarshalBinary(state)
			h.Write(nonce)
			h.Write(tail)
			if h.Sum(sum[:0]); sum == c {
				return values[k], true
			}
		}
	}
	return nil, false
}

// windowIndex holds every distinct 32-byte window of the recorded messages, in the order they
// first appear, with the index of that message.
type windowIndex struct {
	wins  [][32]byte
	at    []int
	first map[[32]byte]int
}

func newWindowIndex(msgs [][]byte) *windowIndex {
	x := &windowIndex{first: map[[32]byte]int{}}
	for i, m := range msgs {
		for k := 0; k+32 <= len(m); k++ {
			w := [32]byte(m[k : k+32])
			if _, seen := x.first[w]; !seen {
				x.first[w] = i
				x.wins, x.at = append(x.wins, w), append(x.at, i)
			}
		}
	}
	return x
}

// before yields every distinct window first sent before message end.
func (x *windowIndex) before(end int) func(yield func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for i := range x.wins {
			if x.at[i] >= end || !yield(x.wins[i][:]) {
				return
			}
		}
	}
}

// sentAt is the first message that holds the 32 bytes p (-1: never sent).
func (x *windowIndex) sentAt(p []byte) int {
	if i, ok := x.first[[32]byte(p)]; ok {
		return i
	}
	return -1
}

// first is the index of the first recorded message containing p (len(msgs) if none).
func first(msgs [][]byte, p []byte) int {
	for i, m := range msgs {
		if bytes.Contains(m, p) {
			return i
		}
	}
	return len(msgs)
}

// shareOf is seat's decryption share x·A of c, as its node would publish it.
func shareOf(t *testing.T, k *crypto.PrivateKey, c *crypto.Ciphertext) []byte {
	sh, err := crypto.DecryptShare(newStream("privacy share"), crypto.Context{Table: []byte("x"), Roster: [][]byte{{0}}}, 0, k, c)
	if err != nil {
		t.Fatal(err)
	}
	return sh.Bytes()[:crypto.PointSize]
}

// checkDeals checks the deals: face up, every proper subset of the shares decodes to no card
// and all of them to a card, never the same twice; to one seat, the others' shares decode to no
// card, the recipient's completes the card, and is sent only by a show.
func checkDeals(t *testing.T, w *wiretap, index *windowIndex, f *logFacts, keys []*crypto.PrivateKey, cards int) (public, subsets, private, shown int) {
	n := len(keys)
	seen := map[[2]int]bool{} // (deck, card) dealt face up
	var shows []*dealFact
	for _, d := range f.deals {
		if d.show {
			shows = append(shows, d)
		}
	}
	for _, d := range f.deals {
		if d.show {
			continue
		}
		for k := range d.positions {
			c := &d.cts[k]
			if d.to < 0 && bytes.Equal(c.Bytes()[:crypto.PointSize], make([]byte, crypto.PointSize)) {
				// A known card (its first component the identity: built from its id and never
				// shuffled since, as Corrupted Kingdoms puts a cycled-back guilty pleasure
				// back) is public: any subset of shares shows it, and it may be one dealt before.
				continue
			}
			if d.to < 0 {
				for mask := 1; mask < 1<<n; mask++ {
					var some []*crypto.Share
					for seat := range n {
						if mask&(1<<seat) != 0 {
							some = append(some, d.shares[seat][k])
						}
					}
					card, err := crypto.DecodeCard(crypto.CombineShares(c, some), cards)
					if mask == 1<<n-1 {
						if err != nil || seen[[2]int{d.deck, card}] {
							t.Fatalf("deck %d position %d: all shares decode to %d (%v), or to a card dealt before", d.deck, d.positions[k], card, err)
						}
						seen[[2]int{d.deck, card}] = true
						public++
						continue
					}
					if !errors.Is(err, crypto.ErrNotACard) {
						t.Fatalf("deck %d position %d: the shares of seats %b alone decode to card %d", d.deck, d.positions[k], mask, card)
					}
					subsets++
				}
				continue
			}
			var others []*crypto.Share
			for seat := range n {
				if seat != d.to {
					others = append(others, d.shares[seat][k])
				}
			}
			if card, err := crypto.DecodeCard(crypto.CombineShares(c, others), cards); !errors.Is(err, crypto.ErrNotACard) {
				t.Fatalf("deck %d position %d, dealt to seat %d: the others' shares alone decode to card %d", d.deck, d.positions[k], d.to, card)
			}
			if _, err := crypto.DecodeCard(crypto.DecryptPrivate(keys[d.to], c, others), cards); err != nil {
				t.Fatalf("deck %d position %d: the recipient cannot read the card dealt to it: %v", d.deck, d.positions[k], err)
			}
			private++
			mine := shareOf(t, keys[d.to], c)
			at := index.sentAt(mine)
			var show *dealFact
			for _, s := range shows {
				if s.deck == d.deck && s.to == d.to && slices.Contains(s.positions, d.positions[k]) {
					show = s
				}
			}
			switch {
			case show == nil && at >= 0:
				t.Fatalf("seat %d's share of the card dealt to it alone (deck %d position %d) was sent, and the card was never shown", d.to, d.deck, d.positions[k])
			case show != nil && (at < 0 || at < first(w.msgs, show.entries[0].Marshal())):
				t.Fatalf("seat %d's share of the card dealt to it alone (deck %d position %d) was sent before its show (message %d)", d.to, d.deck, d.positions[k], at)
			case show != nil:
				shown++
			}
		}
	}
	return public, subsets, private, shown
}

// checkUndealt checks that no seat's decryption share of a card never dealt is ever sent (and,
// as a control, that the shares of the cards dealt face up are).
func checkUndealt(t *testing.T, index *windowIndex, f *logFacts, keys []*crypto.PrivateKey) int {
	dealt := map[[2]int]bool{}
	for _, d := range f.deals {
		for _, p := range d.positions {
			dealt[[2]int{d.deck, p}] = true
		}
	}
	undealt, control := 0, 0
	for id, deck := range f.decks {
		for p := range deck {
			for seat, k := range keys {
				at := index.sentAt(shareOf(t, k, &deck[p]))
				switch {
				case !dealt[[2]int{id, p}] && at >= 0:
					t.Fatalf("seat %d's decryption share of undealt card %d of deck %d was sent in message %d", seat, p, id, at)
				case dealt[[2]int{id, p}] && at >= 0:
					control++
				}
			}
			if !dealt[[2]int{id, p}] {
				undealt++
			}
		}
	}
	if control == 0 {
		t.Fatal("no share of a dealt card found on the wire: the search cannot find anything")
	}
	return undealt
}

// checkPile checks that the shuffles of every deck built from another deck's cards (an
// anonymous pile) re-encrypt every card: no point of a shuffle's input is in its output, and no
// point of the pile as it ends is in any other deck.
func checkPile(t *testing.T, f *logFacts) int {
	points := func(d crypto.Deck) map[string]bool {
		m := map[string]bool{}
		for i := range d {
			b := d[i].Bytes()
			m[string(b[:crypto.PointSize])], m[string(b[crypto.PointSize:])] = true, true
		}
		return m
	}
	n := 0
	for _, s := range f.shuffle {
		in := points(s.in)
		for p := range points(s.out) {
			if in[p] {
				t.Fatalf("a shuffle of deck %d leaves a point of its input in its output", s.deck)
			}
		}
		if s.deck != 0 {
			n++
		}
	}
	for id, deck := range f.decks {
		for other, od := range f.decks {
			if other == id {
				continue
			}
			o := points(od)
			for p := range points(deck) {
				if o[p] {
					t.Fatalf("deck %d and deck %d share a ciphertext point", id, other)
				}
			}
		}
	}
	return n
}

// checkSecrets checks that no node's secrets were ever sent.
func checkSecrets(t *testing.T, w *wiretap, runs []nodeRun, log []*protocol.Entry) {
	for i, r := range runs {
		secrets, _ := nodeSecrets(t, r.dir, log)
		for what, s := range secrets {
			if at := first(w.msgs, s); at < len(w.msgs) {
				t.Fatalf("node %d's %s was sent in message %d", i, what, at)
			}
		}
		if len(secrets) < 5 {
			t.Fatalf("node %d: only %d secrets to look for", i, len(secrets))
		}
	}
}
