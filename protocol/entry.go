package protocol

import (
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"

	"corruption/protocol/internal/wire"
)

// Kind is the kind of a log entry. The kinds are the table's, not a game's: a game's moves all
// travel in move entries, and every other kind is a step of a hidden-information service.
type Kind uint8

const (
	KindGenesis   Kind = 1 + iota // the table: game, configuration and roster (seat 0, seq 0)
	KindKey                       // a seat's ElGamal key with its proof, and its random chain's anchor
	KindRandom                    // a seat's next random reveal, for a joint random draw
	KindShuffle                   // a seat's shuffle of a deck, with its proof
	KindShares                    // a seat's decryption shares of dealt or shown cards, with proofs
	KindMove                      // a seat's move: the game's encoding, and commitments to hidden values
	KindOpen                      // the openings of a seat's hidden values
	KindAnswer                    // a seat's hidden value, sealed to the seat that peeked at it
	KindBlame                     // a peeker's proof that the sealed answer to its peek lied
	KindCommit                    // a seat's commitment to its simultaneous choice
	KindSignOff                   // the final state's digest, signed
	KindEscrow                    // a seat's deal of its root secret among the others (escrow.go)
	KindComplaint                 // a seat's proof that the escrow share dealt to it does not check
	KindDepart                    // a departed seat opened: every other player's agreement (depart.go)
	KindRelease                   // a staying seat's escrow share of the departed seat's key (depart.go)
	KindTwins                     // two entries one seat signed for one place: its equivocation's proof (cut.go)
	numKinds
)

var kindNames = [numKinds]string{"", "genesis", "key", "random", "shuffle", "shares", "move", "open",
	"answer", "blame", "commit", "signoff", "escrow", "complaint", "depart", "release", "twins"}

func (k Kind) String() string {
	if k > 0 && k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Entry is one signed link of a table's log.
type Entry struct {
	// Version is the protocol version the entry is written in: every entry of a table carries
	// its genesis's. 0 means this build's (EntryVersion); a decoded entry has the one it was
	// written in, so that it encodes and hashes back to the same bytes.
	Version uint8
	Table   [32]byte // the table id: SHA-256 of the genesis body
	Seq     uint64   // 0 for the genesis, then one more each entry
	Prev    [32]byte // Hash of the entry before (zero for the genesis)
	Seat    int      // the author's seat
	Kind    Kind
	Body    []byte
	Sig     [ed25519.SignatureSize]byte // the author's ed25519 signature
}

// Limits.
const (
	MaxBodySize  = 96 << 10 // the largest entry body (a 52-card shuffle is about 10 KB)
	MaxEntrySize = MaxBodySize + 256
	maxSeats     = 16
)

// The protocol's versions. 2 is the table kit, which carries any game; 3 (the second outside
// review) changed what nodes accept: a staying seat's entry built on a departing seat's own entry
// refuses its departure, the stand-in's seed comes from the open seat's rebuilt secret, a bad
// escrow share found after a departure convicts its dealer, and player names may hold no control
// or format character; 4 (issue 40) convicts a cheater and plays on without it where its seat can
// be opened; 5 settles an equivocation the same way: the log is cut at the seat's two entries,
// their proof takes their place, and the table plays on without the seat (cut.go). A node writes
// EntryVersion and sits only at
// tables of that version; it reads and audits every version from MinEntryVersion on, each by
// its own rules (docs/PROTOCOL.md, "Versions").
const (
	EntryVersion    = 5
	MinEntryVersion = 2
)

// entryVersion is the version this build writes.
const entryVersion = EntryVersion

// version is the entry's protocol version (0 is this build's).
func (e *Entry) version() uint8 {
	if e.Version == 0 {
		return entryVersion
	}
	return e.Version
}

const signDomain = "corruption/entry/v2\x00"

func (e *Entry) appendUnsigned(b []byte) []byte {
	w := wire.Writer{B: b}
	w.U8(e.version())
	w.Fixed(e.Table[:])
	w.U64(e.Seq)
	w.Fixed(e.Prev[:])
	w.U8(uint8(e.Seat))
	w.U8(uint8(e.Kind))
	w.Bytes(e.Body)
	return w.B
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
	r := wire.Reader{B: b}
	e := &Entry{}
	e.Version = r.U8()
	if r.Err == nil && (e.Version < MinEntryVersion || e.Version > EntryVersion) {
		return nil, fmt.Errorf("malformed entry: protocol version %d, want %d to %d (a node of another release)", e.Version, MinEntryVersion, EntryVersion)
	}
	r.Fixed(e.Table[:])
	e.Seq = r.U64()
	r.Fixed(e.Prev[:])
	e.Seat = int(r.U8())
	e.Kind = Kind(r.U8())
	e.Body = r.Bytes(MaxBodySize, "entry body")
	r.Fixed(e.Sig[:])
	if err := r.Done("entry"); err != nil {
		return nil, err
	}
	if e.Kind == 0 || e.Kind >= numKinds {
		return nil, fmt.Errorf("malformed entry: unknown kind %d", uint8(e.Kind))
	}
	if e.Seat >= maxSeats {
		return nil, fmt.Errorf("malformed entry: seat %d", e.Seat)
	}
	return e, nil
}

func (e *Entry) String() string {
	return fmt.Sprintf("entry %d (%s by seat %d)", e.Seq, e.Kind, e.Seat)
}
