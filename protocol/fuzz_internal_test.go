package protocol

import (
	"bytes"
	"crypto/ed25519"
	"testing"

	"corruption/protocol/internal/wire"
)

// Fuzz targets for the decoders the table's peers reach that Check does not: the answer to a
// fetch (a batch of entries), the request for one (served from the shared log), and the notes
// at the end of a log file.

func batchSeeds(f *testing.F) [][]byte {
	e1 := &Entry{Seq: 1, Kind: KindKey, Body: []byte{1, 2, 3}}
	e2 := &Entry{Seq: 2, Seat: 1, Kind: KindMove, Body: []byte{0, 0, 0, 1, 3, 0}}
	return [][]byte{marshalBatch(nil), marshalBatch([]*Entry{e1}), marshalBatch([]*Entry{e1, e2}), {0, 2, 0xff, 0xff}}
}

// FuzzParseBatch: whatever parseBatch accepts marshals back to the same bytes.
func FuzzParseBatch(f *testing.F) {
	for _, b := range batchSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, err := parseBatch(b)
		if err != nil {
			return
		}
		if got := marshalBatch(entries); !bytes.Equal(got, b) {
			t.Fatalf("parseBatch accepts %x, which marshals to %x", b, got)
		}
	})
}

// FuzzServe: a node answers any request with an error or a batch that parses, holding at most
// maxBatch entries from the asked seq on.
func FuzzServe(f *testing.F) {
	var id [32]byte
	id[0] = 7
	log := make([]*Entry, 100)
	for i := range log {
		log[i] = &Entry{Table: id, Seq: uint64(i), Kind: KindMove, Body: []byte{byte(i)}}
	}
	f.Add(entriesRequest(id, 0))
	f.Add(entriesRequest(id, 99))
	f.Add(entriesRequest(id, 1<<40))
	f.Add(entriesRequest([32]byte{}, 3))
	f.Add([]byte{reqEntries})
	f.Fuzz(func(t *testing.T, req []byte) {
		n := &Node{}
		n.shared, n.sharedID = log, id
		ans, err := n.serve("peer", req)
		if err != nil {
			return
		}
		entries, err := parseBatch(ans)
		if err != nil {
			t.Fatalf("the node served an answer that does not parse: %v", err)
		}
		r := wire.Reader{B: req}
		r.U8()
		r.Fixed(make([]byte, 32))
		seq := r.U64()
		if len(entries) > maxBatch || (len(entries) > 0 && entries[0].Seq != min(seq, uint64(len(log)))) {
			t.Fatalf("asked from %d, served %d entries from %d", seq, len(entries), entries[0].Seq)
		}
	})
}

// FuzzParseNote: whatever ParseNote accepts marshals back to the same bytes.
func FuzzParseNote(f *testing.F) {
	n := &Note{Writer: 1, Verdict: Verdict{Kind: VerdictAbandoned, Seq: 40, Seat: 2, Reason: "silent"}}
	f.Add(n.Marshal())
	f.Add([]byte{noteMagic})
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := ParseNote(b)
		if err != nil {
			return
		}
		if got := n.Marshal(); !bytes.Equal(got, b) {
			t.Fatalf("ParseNote accepts %x, which marshals to %x", b, got)
		}
	})
}

// FuzzMessages: a hello, a head or a left notice that decodes marshals back to the same bytes,
// and Check says of a broadcast message what its decoder says.
func FuzzMessages(f *testing.F) {
	key := ed25519.NewKeyFromSeed(make([]byte, 32))
	h := &hello{table: "t", game: "corruption", config: []byte{0, 1}, players: 4, name: "ann", key: key.Public().(ed25519.PublicKey)}
	h.sig = ed25519.Sign(key, h.unsigned())
	f.Add(h.marshal())
	f.Add((&head{seat: 2, len: 40}).marshal())
	f.Add(newLeft(key, [32]byte{7}).marshal())
	f.Add([]byte{msgHello})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 {
			return
		}
		var err error
		switch b[0] {
		case msgHello:
			var h *hello
			if h, err = parseHello(b[1:]); err == nil && !bytes.Equal(h.marshal(), b) {
				t.Fatalf("parseHello accepts %x, which marshals to %x", b, h.marshal())
			}
		case msgHead:
			var h *head
			if h, err = parseHead(b[1:]); err == nil && !bytes.Equal(h.marshal(), b) {
				t.Fatalf("parseHead accepts %x, which marshals to %x", b, h.marshal())
			}
		case msgLeft:
			var l *left
			if l, err = parseLeft(b[1:]); err == nil && !bytes.Equal(l.marshal(), b) {
				t.Fatalf("parseLeft accepts %x, which marshals to %x", b, l.marshal())
			}
		default:
			return
		}
		if Check(b) != (err == nil && len(b) <= MaxEntrySize+1) {
			t.Fatalf("Check says %v of a message its decoder says %v of", Check(b), err)
		}
	})
}
