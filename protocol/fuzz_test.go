package protocol_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"slices"
	"testing"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/protocol"
)

// Fuzz targets for every decoder and for Table.Append, seeded with real encodings from the
// golden logs. Run one long with, for example:
//
//	go test -run='^$' -fuzz='^FuzzTableAppend$' -fuzztime=10m ./protocol/

// seedEntries is one entry of each kind from each golden log.
func seedEntries(f testing.TB) []*protocol.Entry {
	var out []*protocol.Entry
	for _, spec := range goldSpecs {
		seen := map[protocol.Kind]bool{}
		for _, e := range readGolden(f, spec.name) {
			if !seen[e.Kind] {
				seen[e.Kind] = true
				out = append(out, e)
			}
		}
	}
	return out
}

func FuzzParseEntry(f *testing.F) {
	for _, e := range seedEntries(f) {
		f.Add(e.Marshal())
	}
	f.Add([]byte{2})
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := protocol.ParseEntry(b)
		if err != nil {
			return
		}
		if got := e.Marshal(); !bytes.Equal(got, b) {
			t.Fatalf("ParseEntry accepts %x, which marshals to %x", b, got)
		}
		if e2, err := protocol.ParseEntry(e.Marshal()); err != nil || e2.Hash() != e.Hash() {
			t.Fatalf("a marshalled entry does not parse back: %v", err)
		}
	})
}

func FuzzParseGenesis(f *testing.F) {
	for _, spec := range goldSpecs {
		f.Add(readGolden(f, spec.name)[0].Body)
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := protocol.ParseGenesis(b)
		if err != nil {
			return
		}
		if got := g.Marshal(); !bytes.Equal(got, b) {
			t.Fatalf("ParseGenesis accepts %x, which marshals to %x", b, got)
		}
		if err := g.Check(); err != nil {
			t.Fatalf("ParseGenesis accepts a genesis that Check refuses: %v", err)
		}
		if g.ID() != sha256.Sum256(b) {
			t.Fatal("the table id is not the hash of the body")
		}
	})
}

func FuzzReadLog(f *testing.F) {
	for _, spec := range goldSpecs {
		entries := readGolden(f, spec.name)
		b := logBytes(f, entries[:4]) // genesis and keys: small
		f.Add(b)
		f.Add(b[:len(b)-7])
	}
	// ReadLog does not check the chain: records of every kind but the big shuffles.
	var small []*protocol.Entry
	for _, e := range seedEntries(f) {
		if e.Kind != protocol.KindShuffle {
			small = append(small, e)
		}
	}
	f.Add(logBytes(f, small))
	f.Add([]byte(protocol.LogMagic + "\x00\x00\x00\x01\x02\x00\x00\x00\x00"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, err := protocol.ReadLog(bytes.NewReader(b))
		if err == nil || len(entries) > 0 {
			var buf bytes.Buffer
			if werr := protocol.WriteLog(&buf, entries); werr != nil {
				t.Fatal(werr)
			}
			if !bytes.HasPrefix(b, buf.Bytes()) {
				t.Fatalf("ReadLog returns %d entries (err %v) that do not write back to a prefix of the input", len(entries), err)
			}
			if err == nil && buf.Len() != len(b) {
				// Notes are skipped by ReadLog: the rest must be notes.
				_, notes, nerr := protocol.ReadLogNotes(bytes.NewReader(b))
				if nerr != nil || len(notes) == 0 {
					t.Fatalf("ReadLog reads %d of %d bytes without an error", buf.Len(), len(b))
				}
			}
		}
		var le *protocol.LogError
		if err != nil && !errors.As(err, &le) {
			t.Fatalf("ReadLog fails with %T %v, want a *LogError", err, err)
		}
	})
}

// checkSeeds are broadcast messages of each kind.
func checkSeeds(t testing.TB) [][]byte {
	spec := goldSpecNamed(t, "freestud-lbb-4")
	w := newWorld(t, spec, "")
	for _, e := range readGolden(t, spec.name)[1:6] {
		w.feed(t, e)
	}
	seeds := [][]byte{
		protocol.HelloMessageForTest(w.keys[1], "friday", "corruption", corruption.EncodeConfig(corruption.FreeStud, true), spec.players, "bob"),
		protocol.HelloMessageForTest(w.keys[2], "toys", toyID, []byte{1}, 3, "cat"),
		protocol.HeadMessageForTest(w.obs, 2),
		{'e'}, {'x', 1, 2}, {'a'},
	}
	for _, e := range seedEntries(t) {
		if e.Kind != protocol.KindShuffle {
			seeds = append(seeds, append([]byte{'e'}, e.Marshal()...))
		}
	}
	return seeds
}

// TestCheckSeeds checks that FuzzCheck's seeds hold a good message of each kind, and that
// Check refuses each of them cut short.
func TestCheckSeeds(t *testing.T) {
	ok := map[byte]bool{}
	for _, m := range checkSeeds(t) {
		if protocol.Check(m) {
			ok[m[0]] = true
			if protocol.Check(m[:len(m)-1]) {
				t.Errorf("Check passes a %q message cut short", m[0])
			}
		}
	}
	for _, k := range []byte("hae") {
		if !ok[k] {
			t.Errorf("no seed of kind %q passes Check", k)
		}
	}
}

// FuzzCheck: whatever Check passes decodes, by the decoder of its kind (hello and head through
// ParseAnnouncement and the entry decoder; Check is what a network validator runs before the
// node's loop decodes the message again).
func FuzzCheck(f *testing.F) {
	for _, m := range checkSeeds(f) {
		f.Add(m)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !protocol.Check(b) {
			return
		}
		switch b[0] {
		case 'e':
			if _, err := protocol.ParseEntry(b[1:]); err != nil {
				t.Fatalf("Check passes an entry ParseEntry refuses: %v", err)
			}
		case 'h':
			if _, err := protocol.ParseAnnouncement(b); err != nil {
				t.Fatalf("Check passes a hello ParseAnnouncement refuses: %v", err)
			}
		case 'a':
		default:
			t.Fatalf("Check passes a message of kind %q", b[0])
		}
	})
}

// FuzzParseAnnouncement: a lobby message that parses says the same once signed again (the
// signature covers every field), and never names a key of the wrong size.
func FuzzParseAnnouncement(f *testing.F) {
	for _, m := range checkSeeds(f)[:2] {
		f.Add(m)
	}
	f.Add([]byte{'h'})
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := protocol.ParseAnnouncement(b)
		if err != nil {
			return
		}
		if len(a.Key) != 32 || !protocol.Check(b) {
			t.Fatalf("an announcement with a key of %d bytes, or that Check refuses", len(a.Key))
		}
	})
}

// FuzzTableAppend feeds a table, at some point of a golden log (free stud with the little
// black book, or the toy), one entry: raw bytes, or a kind and body that the test signs as the
// due seat (or another), for the next seq or one already written. The table never panics; an
// entry it refuses without a verdict changes nothing (the log's next entry still goes in); one
// it takes or that halts it does what it says. Each execution works on a copy of a table built
// once.
func FuzzTableAppend(f *testing.F) {
	logs := []string{"freestud-lbb-4", "toy-3"}
	type fixture struct {
		spec    worldSpec
		entries []*protocol.Entry
		w       *world // not fed: its keys stay in roster order
		order   seatOrder
		// snaps[node][at] is the table after entries[:at] as node (a seat's node, or the
		// observer for the last), made in one pass per node when first needed.
		snaps [][]*protocol.Table
	}
	fx := make([]*fixture, len(logs))
	for i, name := range logs {
		spec := goldSpecNamed(f, name)
		fx[i] = &fixture{spec: spec, entries: readGolden(f, name), w: newWorld(f, spec, "")}
		fx[i].order = seatOrderOf(f, fx[i].entries)
		fx[i].snaps = make([][]*protocol.Table, spec.players+1)
	}
	target := func(t testing.TB, x *fixture, at, node int) *protocol.Table {
		n := x.spec.players
		if x.snaps[node] == nil {
			var self *protocol.Self
			if node < n {
				self = protocol.NewSelf(x.w.rosterKeys[node], x.w.selves[node].Seed)
			}
			tb, err := protocol.NewTable(x.entries[0], self, engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			x.snaps[node] = make([]*protocol.Table, len(x.entries)+1)
			for i, e := range x.entries[1:] {
				x.snaps[node][i+1] = protocol.CloneForTest(tb)
				if err := tb.Append(e); err != nil {
					t.Fatal(err)
				}
			}
			x.snaps[node][len(x.entries)] = tb
		}
		return protocol.CloneForTest(x.snaps[node][at])
	}

	// Seeds: at each kind's first entry, that entry (as raw bytes, and as kind and body the test
	// signs), a twin, and a blame of the first answer.
	for li, x := range fx {
		n := x.spec.players
		seen := map[protocol.Kind]bool{}
		for at, e := range x.entries[1:] {
			at++
			if seen[e.Kind] {
				continue
			}
			seen[e.Kind] = true
			f.Add(uint8(li), uint16(at), uint8(0), uint8(n), uint8(e.Kind), uint8(0), e.Body)
			f.Add(uint8(li), uint16(at), uint8(1), uint8(n), uint8(0), uint8(0), e.Marshal())
			f.Add(uint8(li), uint16(at+1), uint8(3), uint8(n), uint8(e.Kind), uint8(0), append(bytes.Clone(e.Body), 0))
			if e.Kind == protocol.KindAnswer {
				peeker := x.entries[at+1]
				tb := target(f, x, at+1, x.order.rosterIndex(peeker.Seq, peeker.Seat)) // the peeker's node, after the answer
				bl, err := protocol.BlameForTest(tb)
				if err != nil {
					f.Fatal(err)
				}
				f.Add(uint8(li), uint16(at+1), uint8(0), uint8(n), uint8(protocol.KindBlame), uint8(0), bl)
			}
		}
		f.Add(uint8(li), uint16(len(x.entries)), uint8(0), uint8(n), uint8(protocol.KindSignOff), uint8(0), make([]byte, 32))
	}

	f.Fuzz(func(t *testing.T, which uint8, at16 uint16, mode, node, kind, seat uint8, data []byte) {
		x := fx[int(which)%len(fx)]
		n, entries := x.spec.players, x.entries
		at := int(at16)
		if at < 1 || at > len(entries) {
			at = 1 + at%len(entries)
		}
		tb := target(t, x, at, int(node)%(n+1))
		due, kinds := tb.Due()
		author := due
		if author < 0 || mode&4 != 0 {
			author = int(seat) % n
		}
		var e *protocol.Entry
		switch mode % 4 {
		case 0: // kind and body, signed by the author, for the next seq
			e = &protocol.Entry{Table: tb.ID(), Seq: tb.Len(), Prev: tb.Head(), Seat: author, Kind: protocol.Kind(kind), Body: data}
			e.Sign(seatKey(tb, x.w.rosterKeys, author))
		case 1: // raw bytes
			var err error
			if e, err = protocol.ParseEntry(data); err != nil {
				return
			}
		case 2: // for a seq ahead, or already written (a twin)
			seq := (uint64(seat) * 7) % (tb.Len() + 2)
			var prev [32]byte
			if seq > 0 && seq <= tb.Len() {
				prev = entries[seq-1].Hash()
			}
			e = &protocol.Entry{Table: tb.ID(), Seq: seq, Prev: prev, Seat: author, Kind: protocol.Kind(kind), Body: data}
			e.Sign(seatKey(tb, x.w.rosterKeys, author))
		case 3: // a twin of the last entry, by its author
			last := entries[at-1]
			e = &protocol.Entry{Table: tb.ID(), Seq: last.Seq, Prev: last.Prev, Seat: last.Seat, Kind: protocol.Kind(kind), Body: data}
			e.Sign(x.w.rosterKeys[x.order.rosterIndex(last.Seq, last.Seat)])
		}
		len0, head0, digest0 := tb.Len(), tb.Head(), tb.Digest()
		err := tb.Append(e)
		var v *protocol.Verdict
		switch {
		case err == nil:
			if tb.Len() != len0+1 || tb.Head() != e.Hash() {
				t.Fatalf("%s taken, but the log is %d long with head %x", e, tb.Len(), tb.Head())
			}
		case errors.As(err, &v):
			if tb.Verdict() != v {
				t.Fatalf("Append returns verdict %v, the table has %v", v, tb.Verdict())
			}
			if s, _ := tb.Due(); s != -1 || v.Seat < -1 || v.Seat >= n || (v.Seat < 0 && v.Kind != protocol.VerdictBroken) {
				t.Fatalf("after verdict %v the table waits for seat %d", v, s)
			}
		default:
			seat1, kinds1 := tb.Due()
			if tb.Len() != len0 || tb.Head() != head0 || seat1 != due || !slices.Equal(kinds1, kinds) || tb.Verdict() != nil || tb.Digest() != digest0 {
				t.Fatalf("%s refused (%v), but the table changed: len %d -> %d, due %d%v -> %d%v, verdict %v",
					e, err, len0, tb.Len(), due, kinds, seat1, kinds1, tb.Verdict())
			}
			if at < len(entries) && tb.Len() == uint64(at) {
				if err := tb.Append(entries[at]); err != nil {
					t.Fatalf("after refusing %s (%v), the table refuses the log's next entry: %v", e, err, err)
				}
			}
		}
	})
}

// FuzzTwins: a twins entry's body (cut.go) decodes strictly: never a panic, and a body it takes
// is the one TwinsEntry builds from the two entries it holds (their order and bytes canonical),
// both the seat's, for the entry's place.
func FuzzTwins(f *testing.F) {
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	pub := key.Public().(ed25519.PublicKey)
	place := protocol.Entry{Table: [32]byte{1}, Seq: 9, Prev: [32]byte{2}, Seat: 1}
	a, b := place, place
	a.Kind, a.Body = protocol.KindMove, []byte{1}
	b.Kind, b.Body = protocol.KindShares, []byte{2, 3}
	a.Sign(key)
	b.Sign(key)
	f.Add(protocol.TwinsEntry(&a, &b).Body)
	f.Add(protocol.TwinsEntry(&a, &a).Body)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, body []byte) {
		e := place
		e.Kind, e.Body = protocol.KindTwins, body
		x, y, err := protocol.Twins(&e, pub)
		if err != nil {
			return
		}
		if !bytes.Equal(protocol.TwinsEntry(y, x).Body, body) || x.Seat != e.Seat || x.Seq != e.Seq || y.Prev != e.Prev {
			t.Fatalf("a twins body taken that TwinsEntry does not build: %x", body)
		}
	})
}
