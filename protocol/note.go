package protocol

import (
	"crypto/ed25519"
	"fmt"

	"corruption/protocol/internal/wire"
)

// A Note is a node's signed statement, kept at the end of its log file, that it ended the
// table with an abandonment verdict: the seat due at entry Seq stayed silent past the timeout.
// It is not part of the chain (no seat was due to write it) and proves only what its writer
// saw; an audit of the log reports the same verdict on its strength, and says whose note it is.
type Note struct {
	Writer  int // the seat of the node that wrote it
	Table   [32]byte
	Verdict Verdict
	Sig     [ed25519.SignatureSize]byte
}

const noteMagic = 0xAB // first byte of a note record (entries begin with their version, 1)
const noteDomain = "corruption/note/v1\x00"

func (n *Note) unsigned() []byte {
	w := wire.Writer{B: []byte{noteMagic}}
	w.U8(uint8(n.Writer))
	w.Fixed(n.Table[:])
	w.U8(uint8(n.Verdict.Kind))
	w.U64(n.Verdict.Seq)
	w.U8(uint8(n.Verdict.Seat))
	w.Str(n.Verdict.Reason)
	return w.B
}

// Marshal is the note's encoding.
func (n *Note) Marshal() []byte { return append(n.unsigned(), n.Sig[:]...) }

func (n *Note) sign(key ed25519.PrivateKey) {
	copy(n.Sig[:], ed25519.Sign(key, append([]byte(noteDomain), n.unsigned()...)))
}

// Verify checks the note's signature against its writer's key.
func (n *Note) Verify(pub ed25519.PublicKey) bool {
	return len(pub) == ed25519.PublicKeySize && ed25519.Verify(pub, append([]byte(noteDomain), n.unsigned()...), n.Sig[:])
}

// ParseNote decodes a note strictly.
func ParseNote(b []byte) (*Note, error) {
	r := wire.Reader{B: b}
	if m := r.U8(); r.Err == nil && m != noteMagic {
		return nil, fmt.Errorf("malformed note: not a note")
	}
	n := &Note{Writer: int(r.U8())}
	r.Fixed(n.Table[:])
	n.Verdict.Kind = VerdictKind(r.U8())
	n.Verdict.Seq = r.U64()
	n.Verdict.Seat = int(r.U8())
	n.Verdict.Reason = r.Str(1024, "note reason")
	r.Fixed(n.Sig[:])
	if err := r.Done("note"); err != nil {
		return nil, err
	}
	if n.Verdict.Kind != VerdictAbandoned {
		return nil, fmt.Errorf("malformed note: verdict %s cannot be a note", n.Verdict.Kind)
	}
	return n, nil
}

// NewNote signs a note of an abandonment verdict reached by this node.
func NewNote(t *Table, self *Self, v *Verdict) *Note {
	n := &Note{Writer: self.seat, Table: t.id, Verdict: *v}
	n.sign(self.Identity)
	return n
}
