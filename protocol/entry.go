package protocol

import (
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
)

// Kind is the kind of a log entry.
type Kind uint8

const (
	KindGenesis Kind = 1 + iota // the table: configuration and roster (seat 0, seq 0)
	KindKey                     // a seat's ElGamal key with its proof, and its random commitment
	KindRandom                  // a seat's reveal of its joint-randomness value
	KindShuffle                 // a seat's shuffle of the contract deck, with its proof
	KindShares                  // a seat's decryption shares for the round's six contracts
	KindFaceUp                  // free stud: the round's face-up positions
	KindPeek                    // little black book: a peek at a face-down card
	KindAnswer                  // the peeked card's owner: its opening, sealed to the peeker
	KindPlace                   // a placement: the card face up, or its commitment
	KindReveal                  // the openings of all the author's face-down cards this round
	KindAward                   // an awarding decision: assign, kill, remove or pass
	KindBlame                   // the peeker's proof that a sealed answer lied
	KindSignOff                 // the final state's digest, signed
	numKinds
)

var kindNames = [numKinds]string{"", "genesis", "key", "random", "shuffle", "shares", "faceup", "peek",
	"answer", "place", "reveal", "award", "blame", "signoff"}

func (k Kind) String() string {
	if k > 0 && k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Entry is one signed link of a table's log.
type Entry struct {
	Table [32]byte // the table id: SHA-256 of the genesis body
	Seq   uint64   // 0 for the genesis, then one more each entry
	Prev  [32]byte // Hash of the entry before (zero for the genesis)
	Seat  int      // the author's seat
	Kind  Kind
	Body  []byte
	Sig   [ed25519.SignatureSize]byte // the author's ed25519 signature
}

// Limits.
const (
	MaxBodySize  = 64 << 10 // the largest entry body (a shuffle is about 12 KB)
	MaxEntrySize = MaxBodySize + 256
)

const entryVersion = 1
const signDomain = "corruption/entry/v1\x00"

func (e *Entry) appendUnsigned(b []byte) []byte {
	w := writer{b}
	w.u8(entryVersion)
	w.fixed(e.Table[:])
	w.u64(e.Seq)
	w.fixed(e.Prev[:])
	w.u8(uint8(e.Seat))
	w.u8(uint8(e.Kind))
	w.bytes(e.Body)
	return w.b
}

// Marshal is the entry's canonical encoding.
func (e *Entry) Marshal() []byte {
	b := e.appendUnsigned(make([]byte, 0, 128+len(e.Body)))
	return append(b, e.Sig[:]...)
}

// Hash is SHA-256 of the entry's canonical encoding (signature included).
func (e *Entry) Hash() [32]byte { return sha256.Sum256(e.Marshal()) }

// Sign signs the entry with its author's identity key.
func (e *Entry) Sign(key ed25519.PrivateKey) {
	msg := e.appendUnsigned([]byte(signDomain))
	copy(e.Sig[:], ed25519.Sign(key, msg))
}

// Verify checks the entry's signature against its author's identity key.
func (e *Entry) Verify(pub ed25519.PublicKey) bool {
	if len(pub) != ed25519.PublicKeySize {
		return false
	}
	return ed25519.Verify(pub, e.appendUnsigned([]byte(signDomain)), e.Sig[:])
}

// ParseEntry decodes an entry strictly.
func ParseEntry(b []byte) (*Entry, error) {
	if len(b) > MaxEntrySize {
		return nil, fmt.Errorf("malformed entry: %d bytes is more than %d", len(b), MaxEntrySize)
	}
	r := reader{b: b}
	e := &Entry{}
	if v := r.u8(); r.err == nil && v != entryVersion {
		return nil, fmt.Errorf("malformed entry: version %d, want %d", v, entryVersion)
	}
	r.fixed(e.Table[:])
	e.Seq = r.u64()
	r.fixed(e.Prev[:])
	e.Seat = int(r.u8())
	e.Kind = Kind(r.u8())
	e.Body = r.bytes(MaxBodySize, "entry body")
	r.fixed(e.Sig[:])
	if err := r.done("entry"); err != nil {
		return nil, err
	}
	if e.Kind == 0 || e.Kind >= numKinds {
		return nil, fmt.Errorf("malformed entry: unknown kind %d", uint8(e.Kind))
	}
	if e.Seat >= 16 {
		return nil, fmt.Errorf("malformed entry: seat %d", e.Seat)
	}
	return e, nil
}

func (e *Entry) String() string {
	return fmt.Sprintf("entry %d (%s by seat %d)", e.Seq, e.Kind, e.Seat)
}
