package corruption

import (
	"crypto/sha256"
	"encoding/binary"
)

// digestVersion changes whenever the public encoding changes.
const digestVersion = 1

// Digest is a SHA-256 hash of the canonical encoding of the state's public information: what
// every seat at the table knows. Two nodes that applied the same moves have the same digest,
// whether they knew the face-down cards or not (the deck's order before it is dealt, cards not
// yet revealed, and what a peek showed are private and not part of it).
func (s *State) Digest() [32]byte {
	var buf [1024]byte
	return sha256.Sum256(s.AppendPublic(buf[:0]))
}

// AppendPublic appends the canonical encoding of the state's public information to b.
func (s *State) AppendPublic(b []byte) []byte {
	u8 := func(v int) { b = append(b, byte(v)) }
	u32 := func(v int) { b = binary.BigEndian.AppendUint32(b, uint32(v)) }
	flag := func(v bool) {
		if v {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	u8(digestVersion)
	u8(s.cfg.Players)
	u8(int(s.cfg.Variant))
	flag(s.cfg.LittleBlackBook)
	u8(s.cfg.First)
	u8(s.round)
	u8(int(s.phase))
	u8(s.first)
	u8(int(s.faceUp))
	flag(s.peekedTurn)
	u8(s.step)
	u8(s.cursor)
	u8(s.awards)
	u8(s.dealt)
	for _, c := range s.dealOrder[:s.dealt] {
		cs := &s.contracts[c]
		u8(int(c))
		u8(int(cs.status))
		u8(int(cs.body))
		flag(cs.deferred)
		flag(cs.cancelled)
		u8(int(cs.winner))
		u8(int(cs.wonOrder))
	}
	for seat := 0; seat < s.cfg.Players; seat++ {
		h := &s.hands[seat]
		u8(int(h.charsStart[0]))
		u8(int(h.charsStart[1]))
		u8(int(h.charsStart[2]))
		u8(int(h.placed))
		u8(int(h.peeks))
		u32(h.score)
		u8(int(h.won))
	}
	u8(s.nplays)
	for i := 0; i < s.nplays; i++ {
		p := &s.plays[i]
		u8(p.Seat)
		u8(int(s.publicCard(i)))
		u8(int(p.Spot))
		u8(p.Pos)
		flag(p.FaceUp)
		flag(p.Revealed)
		u8(int(p.PeekedBy))
		flag(p.IsAssigned)
		u8(int(p.Assigned))
		flag(p.Dead)
		flag(p.Removed)
	}
	return b
}
