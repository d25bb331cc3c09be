package corruption_test

// The move codec: every move kind round-trips, the decoder is strict and canonical, and its
// errors name the problem. Short fuzz runs:
//
//	go test -run='^$' -fuzz='^FuzzDecodeMove$' -fuzztime=3000x ./engine/corruption/

import (
	"slices"
	"strings"
	"testing"

	"corruption/engine/corruption"
)

func TestMoveCodecRoundTrip(t *testing.T) {
	for _, m := range []corruption.Move{
		{Kind: corruption.MoveFaceUp, Seat: 2, Positions: 0b101001},
		{Kind: corruption.MoveFaceUp, Seat: 0},
		{Kind: corruption.MovePeek, Seat: 1, Index: 7},
		{Kind: corruption.MovePlace, Seat: 3, Spot: corruption.ContractSpot(23), Card: corruption.Bribe10000},
		{Kind: corruption.MovePlace, Seat: 3, Spot: corruption.SwissCapitol, Card: corruption.CardUnknown},
		{Kind: corruption.MovePlace, Seat: 6, Spot: 0, Card: corruption.HitMan},
		{Kind: corruption.MoveAssign, Seat: 4, Contract: 17},
		{Kind: corruption.MoveKill, Seat: 5, Index: 42},
		{Kind: corruption.MoveRemove, Seat: 0, Index: 1},
		{Kind: corruption.MovePass, Seat: 2},
	} {
		b, err := corruption.EncodeMove(m)
		if err != nil {
			t.Errorf("%v: %v", m, err)
			continue
		}
		got, err := corruption.DecodeMove(m.Seat, b)
		if err != nil || got != m {
			t.Errorf("%v encodes as %v, which decodes as %v (%v)", m, b, got, err)
		}
	}
}

// TestMoveCodecCanonical decodes every encoding of up to three bytes: whatever decodes encodes
// back to the same bytes, and each kind accepts exactly its range of arguments.
func TestMoveCodecCanonical(t *testing.T) {
	accepted := map[corruption.MoveKind]int{}
	try := func(b []byte) {
		m, err := corruption.DecodeMove(1, b)
		if err != nil {
			return
		}
		accepted[m.Kind]++
		if got, err := corruption.EncodeMove(m); err != nil || !slices.Equal(got, b) {
			t.Fatalf("%v decodes as %v, which encodes as %v (%v)", b, m, got, err)
		}
	}
	for k := 0; k < 256; k++ {
		try([]byte{byte(k)})
		for a := 0; a < 256; a++ {
			try([]byte{byte(k), byte(a)})
			for c := 0; c < 256 && k < 10; c++ {
				try([]byte{byte(k), byte(a), byte(c)})
			}
		}
	}
	want := map[corruption.MoveKind]int{
		corruption.MoveFaceUp: 64, corruption.MovePeek: corruption.MaxPlays, corruption.MoveKill: corruption.MaxPlays,
		corruption.MoveRemove: corruption.MaxPlays, corruption.MoveAssign: corruption.NumContracts,
		corruption.MovePlace: 27 * 10, corruption.MovePass: 1,
	}
	for k, n := range want {
		if accepted[k] != n {
			t.Errorf("%s: %d encodings accepted, want %d", k, accepted[k], n)
		}
	}
	if len(accepted) != len(want) {
		t.Errorf("kinds accepted: %v", accepted)
	}
}

func TestMoveCodecErrors(t *testing.T) {
	for _, tc := range []struct {
		b    []byte
		want string
	}{
		{nil, "empty"},
		{[]byte{0}, "unknown kind 0"},
		{[]byte{8}, "unknown kind 8"},
		{[]byte{7, 0}, "pass: 1 bytes of arguments, want 0"},
		{[]byte{3, 0}, "place: 1 bytes of arguments, want 2"},
		{[]byte{2}, "peek: 0 bytes of arguments, want 1"},
		{[]byte{1, 0x40}, "positions 0x40 outside 1..6"},
		{[]byte{2, 0}, "peek: card 0 is not between 1 and 42"},
		{[]byte{5, 43}, "kill: card 43"},
		{[]byte{6, 255}, "remove: card 255"},
		{[]byte{3, 27, 1}, "spot 27 is no place"},
		{[]byte{3, 0, 10}, "card 10 is no card"},
		{[]byte{4, 24}, "contract 24 is no contract"},
	} {
		if _, err := corruption.DecodeMove(0, tc.b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("DecodeMove(%v): %v, want an error that says %q", tc.b, err, tc.want)
		}
	}
	for _, m := range []corruption.Move{{Kind: corruption.MoveDeal}, {Kind: corruption.MoveReveal, Index: 1, Card: 1}, {Kind: 99}} {
		if _, err := corruption.EncodeMove(m); err == nil || !strings.Contains(err.Error(), "not a seat's move") {
			t.Errorf("EncodeMove(%v): %v", m, err)
		}
	}
}

func FuzzDecodeMove(f *testing.F) {
	for _, b := range [][]byte{{}, {1, 7}, {2, 3}, {3, 24, 0}, {3, 5, 9}, {4, 23}, {5, 42}, {6, 1}, {7}, {7, 0}, {3, 27, 1}, {9, 9, 9}} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := corruption.DecodeMove(3, b)
		if err != nil {
			return
		}
		got, err := corruption.EncodeMove(m)
		if err != nil || !slices.Equal(got, b) {
			t.Fatalf("%v decodes as %v, which encodes as %v (%v)", b, m, got, err)
		}
		if m2, err := corruption.DecodeMove(3, got); err != nil || m2 != m {
			t.Fatalf("%v decodes as %v, then as %v (%v)", b, m, m2, err)
		}
	})
}
