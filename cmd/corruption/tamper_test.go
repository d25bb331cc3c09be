package main

// Tampered copies of a good table log, and what corruption audit must say of each.
//
// The log file (docs/PROTOCOL.md, protocol/logfile.go): the magic line protocol.LogMagic
// ("corruption log v2\n"), then per entry a record: u32 big-endian length, the entry's
// canonical encoding, u32 big-endian CRC-32C of the encoding. splitLog reads that layout
// itself; protocol.ParseEntry is used only to find entries of a kind and to encode a changed
// one. The logs are fresh ones, of the table the test just played: no fixture to regenerate.

import (
	"bytes"
	"crypto/ed25519"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"path/filepath"
	"strings"
	"testing"

	"corruption/engine/corruption"
	"corruption/protocol"
)

const logMagic = protocol.LogMagic

// splitLog splits a log file into its records' entry encodings. rest is what follows the last
// complete record; ok is false if the file does not start with the magic line.
func splitLog(data []byte) (recs [][]byte, rest []byte, ok bool) {
	if !bytes.HasPrefix(data, []byte(logMagic)) {
		return nil, data, false
	}
	data = data[len(logMagic):]
	for len(data) >= 4 {
		n := int(binary.BigEndian.Uint32(data))
		if len(data) < 4+n+4 {
			break
		}
		recs = append(recs, data[4:4+n])
		data = data[4+n+4:]
	}
	return recs, data, true
}

// joinLog writes records back into a log file. crcs, when not nil, gives a record's checksum
// instead of the right one.
func joinLog(recs [][]byte, crcs map[int]uint32) []byte {
	b := []byte(logMagic)
	for i, r := range recs {
		b = binary.BigEndian.AppendUint32(b, uint32(len(r)))
		b = append(b, r...)
		sum, ok := crcs[i]
		if !ok {
			sum = crc32.Checksum(r, crc32.MakeTable(crc32.Castagnoli))
		}
		b = binary.BigEndian.AppendUint32(b, sum)
	}
	return b
}

func parseRecords(t *testing.T, recs [][]byte) []*protocol.Entry {
	t.Helper()
	es := make([]*protocol.Entry, len(recs))
	for i, r := range recs {
		e, err := protocol.ParseEntry(r)
		if err != nil {
			t.Fatalf("record %d of a good log: %v", i+1, err)
		}
		if e.Seq != uint64(i) {
			t.Fatalf("record %d holds entry %d", i+1, e.Seq)
		}
		es[i] = e
	}
	return es
}

// A move entry's body: the game's move (u32 length, then the move), then how many hidden values
// it commits to (u8) and their commitments. Corruption's placement is three bytes: its code
// (3), the spot and the card, 0 when face down (the card is then the hidden value).
const (
	placeCode = 3
	placeCard = 4 + 2 // the card's byte in a placement's body
)

// faceUpPlacement finds the n-th (from 0) face-up placement of the log.
func faceUpPlacement(t *testing.T, es []*protocol.Entry, n int) *protocol.Entry {
	t.Helper()
	for _, e := range es {
		if isFaceUpPlacement(e) {
			if n == 0 {
				return e
			}
			n--
		}
	}
	t.Fatalf("the log has too few face-up placements")
	return nil
}

// isFaceUpPlacement reports whether e is a move that places a card face up.
func isFaceUpPlacement(e *protocol.Entry) bool {
	b := e.Body
	return e.Kind == protocol.KindMove && len(b) == 8 && binary.BigEndian.Uint32(b) == 3 && b[4] == placeCode && b[placeCard] != 0 && b[7] == 0
}

// otherCard is a card other than c, of the same sort.
func otherCard(c corruption.Card) corruption.Card {
	for i, b := range corruption.Bribes {
		if b == c {
			return corruption.Bribes[(i+1)%len(corruption.Bribes)]
		}
	}
	return corruption.Bribe10000
}

// changedOpening finds the first opening of a face-down bribe of four digits and returns it
// with a body where that card is another bribe. An open body: the number of openings (u8),
// then each opening (u32 length, a 32-byte nonce, the hidden value: the card's name).
func changedOpening(t *testing.T, es []*protocol.Entry) (*protocol.Entry, []byte) {
	t.Helper()
	for _, e := range es {
		if e.Kind != protocol.KindOpen || len(e.Body) < 1 {
			continue
		}
		body := append([]byte(nil), e.Body...)
		n, off := int(body[0]), 1
		for i := 0; i < n && off+4 <= len(body); i++ {
			size := int(binary.BigEndian.Uint32(body[off:]))
			if off+4+size > len(body) || size < 32 {
				break
			}
			open := body[off+4 : off+4+size]
			if card := open[32:]; len(card) == 4 && card[1] == '0' {
				if card[0] == '1' {
					card[0] = '2'
				} else {
					card[0] = '1'
				}
				return e, body
			}
			off += 4 + size
		}
	}
	t.Fatal("no opening shows a bribe of four digits")
	return nil, nil
}

// seatKeys loads the bots' identity keys from their data directories and tells which seat
// each signs for at the end of the log.
func seatKeys(t *testing.T, es []*protocol.Entry, ps []player) map[int]ed25519.PrivateKey {
	t.Helper()
	keys := map[int]ed25519.PrivateKey{}
	for _, p := range ps {
		st, err := protocol.OpenStore(p.data)
		if err != nil {
			t.Fatal(err)
		}
		key, err := st.Identity()
		if err != nil {
			t.Fatal(err)
		}
		// The last entries: the seats are drawn after the keys, and a key signs for its roster
		// index until then, for its drawn seat after.
		for i := len(es) - 1; i >= 0; i-- {
			if e := es[i]; e.Verify(key.Public().(ed25519.PublicKey)) {
				keys[e.Seat] = key
				break
			}
		}
	}
	if len(keys) != len(ps) {
		t.Fatalf("found the keys of %d seats in %d data directories", len(keys), len(ps))
	}
	return keys
}

// auditReport is what corruption audit --json prints.
type auditReport struct {
	Valid   bool   `json:"valid"`
	Problem string `json:"problem"`
	Blamed  int    `json:"blamed"`
	At      int64  `json:"at"`
}

func testTampered(t *testing.T, log []byte, out outcome, ps []player) {
	recs, rest, ok := splitLog(log)
	if !ok || len(rest) != 0 || len(recs) != out.Entries {
		t.Fatalf("the log does not split into %d records (got %d, %d bytes left, magic %t)", out.Entries, len(recs), len(rest), ok)
	}
	es := parseRecords(t, recs)
	clone := func() [][]byte {
		c := make([][]byte, len(recs))
		copy(c, recs)
		return c
	}

	type tamper struct {
		name   string
		file   []byte
		at     int64    // the first failing entry audit must name
		blamed int      // the seat it must blame, or -1
		want   []string // what the error must say
	}
	var tampers []tamper

	// A card changed inside an entry, its record's checksum left as it was.
	{
		e := faceUpPlacement(t, es, 2)
		changed := *e
		changed.Body = append([]byte(nil), e.Body...)
		changed.Body[placeCard] = byte(otherCard(corruption.Card(e.Body[placeCard])))
		rs := clone()
		rs[e.Seq] = changed.Marshal()
		crc := crc32.Checksum(recs[e.Seq], crc32.MakeTable(crc32.Castagnoli))
		tampers = append(tampers, tamper{"changed card, old checksum", joinLog(rs, map[int]uint32{int(e.Seq): crc}),
			int64(e.Seq), -1, []string{fmt.Sprintf("entry %d ", e.Seq), "checksum"}})
		// The same with the checksum made right: the signature no longer matches.
		tampers = append(tampers, tamper{"changed card, new checksum", joinLog(rs, nil),
			int64(e.Seq), -1, []string{fmt.Sprintf("entry %d ", e.Seq), "signature"}})
	}
	// An entry dropped: the next one does not follow.
	{
		k := len(recs) / 2
		rs := append(clone()[:k], recs[k+1:]...)
		tampers = append(tampers, tamper{"dropped entry", joinLog(rs, nil), int64(k), -1,
			[]string{fmt.Sprintf("entry %d is missing", k), fmt.Sprintf("from entry %d to entry %d", k-1, k+1)}})
	}
	// Two entries of different seats with their signatures swapped.
	{
		// The first face-up card, and the next one of another seat (the first two may both
		// be one seat's).
		a := faceUpPlacement(t, es, 0)
		var b *protocol.Entry
		for _, e := range es[a.Seq+1:] {
			if isFaceUpPlacement(e) && e.Seat != a.Seat {
				b = e
				break
			}
		}
		if b == nil {
			t.Fatalf("no face-up card of another seat than %d", a.Seat)
		}
		ea, eb := *a, *b
		ea.Sig, eb.Sig = b.Sig, a.Sig
		rs := clone()
		rs[a.Seq], rs[b.Seq] = ea.Marshal(), eb.Marshal()
		tampers = append(tampers, tamper{"swapped signatures", joinLog(rs, nil), int64(a.Seq), -1,
			[]string{fmt.Sprintf("entry %d ", a.Seq), "signature"}})
	}
	// The file cut in the middle of its last record.
	{
		cut := log[:len(log)-len(recs[len(recs)-1])/2]
		tampers = append(tampers, tamper{"truncated", cut, int64(len(recs) - 1), -1, []string{"truncated"}})
	}
	// Two entries in the wrong order.
	{
		k := len(recs) / 3
		rs := clone()
		rs[k], rs[k+1] = rs[k+1], rs[k]
		tampers = append(tampers, tamper{"entries swapped", joinLog(rs, nil), int64(k), -1, []string{fmt.Sprintf("entry %d is missing", k)}})
	}

	// Cards changed by their own seats, the entries signed again with the seat's key: the
	// signature checks, the rules and the commitments must not.
	keys := seatKeys(t, es, ps)
	resign := func(e *protocol.Entry, body []byte) []byte {
		changed := *e
		changed.Body = body
		changed.Sign(keys[e.Seat])
		rs := clone()
		rs[e.Seq] = changed.Marshal()
		return joinLog(rs, nil)
	}
	{
		e := faceUpPlacement(t, es, 3)
		body := append([]byte(nil), e.Body...)
		body[placeCard] = 0x7f // no such card
		tampers = append(tampers, tamper{"face-up card that does not exist, signed by its seat", resign(e, body),
			int64(e.Seq), e.Seat, []string{fmt.Sprintf("entry %d: seat %d cheated", e.Seq, e.Seat)}})
	}
	{
		e, body := changedOpening(t, es)
		tampers = append(tampers, tamper{"face-down card opened as another, signed by its seat", resign(e, body),
			int64(e.Seq), e.Seat, []string{fmt.Sprintf("entry %d: seat %d cheated", e.Seq, e.Seat)}})
	}

	dir := t.TempDir()
	for i, tt := range tampers {
		t.Run(strings.ReplaceAll(tt.name, " ", "_"), func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("tampered-%d.log", i))
			writeFile(t, path, string(tt.file))
			r := runCLI(t, "audit", path)
			t.Logf("audit: exit %d: %s", r.code, strings.TrimSpace(r.stderr))
			if r.code != 1 {
				t.Errorf("audit exits %d, want 1", r.code)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("the error does not say %q", w)
				}
			}
			if tt.blamed < 0 && strings.Contains(r.stderr, "blamed") {
				t.Errorf("a seat is blamed for what anyone could have done to the file")
			}
			if t.Failed() {
				t.Logf("%v", r)
			}

			r = runCLI(t, "audit", "--json", path)
			var rep auditReport
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatalf("audit --json: %v\n%v", err, r)
			}
			if r.code != 1 || rep.Valid || rep.Problem == "" || rep.At != tt.at || rep.Blamed != tt.blamed {
				t.Errorf("audit --json: exit %d, %+v; want exit 1, invalid at entry %d, blamed %d\n%v", r.code, rep, tt.at, tt.blamed, r)
			}

			r = runCLI(t, "replay", path)
			if r.code != 1 || !strings.Contains(r.stderr, rep.Problem) {
				t.Errorf("replay of a tampered log: exit %d, want 1 and the audit's problem %q\n%v", r.code, rep.Problem, r)
			}
		})
	}
}
