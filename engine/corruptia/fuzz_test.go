package corruptia_test

// Fuzz targets for the decoders and for Apply. Short runs:
//
//	go test -run='^$' -fuzz='^FuzzDecodeMove$' -fuzztime=5000x ./engine/corruptia/
//	go test -run='^$' -fuzz='^FuzzDecodeConfig$' -fuzztime=5000x ./engine/corruptia/
//	go test -run='^$' -fuzz='^FuzzApply$' -fuzztime=5000x ./engine/corruptia/

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"corruption/engine"
	"corruption/engine/corruptia"
)

// FuzzDecodeMove: DecodeMove never panics, and whatever it accepts EncodeMove writes back
// byte for byte.
func FuzzDecodeMove(f *testing.F) {
	for _, m := range []corruptia.Move{
		{Kind: corruptia.MovePass}, {Kind: corruptia.MoveDiscard, Slot: 3}, {Kind: corruptia.MoveNoBill},
		{Kind: corruptia.MoveOffer}, {Kind: corruptia.MoveCall}, {Kind: corruptia.MoveSwap, Slot: 2, Take: 89},
		{Kind: corruptia.MoveBlackmail, Target: 4, Demand: corruptia.VoteNo},
		{Kind: corruptia.MovePropose, Proposal: corruptia.Proposal{Slot: 1, Bill: 17, At: corruptia.Cell{Row: -1, Col: 3},
			Workers: [3]corruptia.Worker{employee(2), official(3, 1), official(1, 0)}}},
		{Kind: corruptia.MoveAmend, Proposal: corruptia.Proposal{Bill: 88, At: corruptia.Cell{Row: 127, Col: -128},
			Workers: [3]corruptia.Worker{employee(0), employee(0), employee(4)}}},
	} {
		b, err := corruptia.EncodeMove(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{2, 0, 0, 0, 0, 4, 0, 1, 0, 1, 0}) // workers out of order
	f.Add([]byte{9})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := corruptia.DecodeMove(b)
		if err != nil {
			return
		}
		back, err := corruptia.EncodeMove(m)
		if err != nil || !bytes.Equal(back, b) {
			t.Fatalf("%x decodes to %+v, which encodes to %x (%v)", b, m, back, err)
		}
	})
}

// FuzzDecodeConfig: DecodeConfig never panics, and whatever it accepts EncodeConfig writes
// back byte for byte.
func FuzzDecodeConfig(f *testing.F) {
	for _, b := range [][]byte{{1, 3}, {1, 0}, {1, 9}, {1, 10}, {2, 3}, {}, {1, 3, 0}} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := corruptia.DecodeConfig(b)
		if err != nil {
			if (corruptia.Rules{}).CheckConfig(b, 3) == nil {
				t.Fatal("CheckConfig accepts what DecodeConfig refuses")
			}
			return
		}
		back, err := corruptia.EncodeConfig(c)
		if err != nil || !bytes.Equal(back, b) {
			t.Fatalf("%x decodes to %+v, which encodes to %x (%v)", b, c, back, err)
		}
	})
}

// FuzzApply: arbitrary inputs on games under way never panic, and an input refused leaves
// every copy as it was (kit.apply checks it). The first byte picks the table and seed; then
// each byte below 0xc0 lets the table or a bot take the next step, and each byte from 0xc0
// starts an arbitrary move or vote of the next bytes.
func FuzzApply(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3})
	f.Add([]byte{7, 0xc0, 2, 1, 5, 0, 0, 1, 0, 1, 1})
	f.Add(bytes.Repeat([]byte{0x10}, 400))
	f.Add(append(bytes.Repeat([]byte{0x10}, 120), 0xc3, 'n', 'o', 0xc1, 5, 1, 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		k := newKit(t, 2+int(data[0]%4), uint64(data[0]))
		k.lenient = true
		rng := rand.New(rand.NewPCG(uint64(len(data)), 1))
		for i := 1; i < len(data) && i < 2000; i++ {
			st := k.due()
			if st.Kind == engine.StepOver {
				return
			}
			if data[i] < 0xc0 {
				if !k.tableStep() && !k.stuck {
					k.bot()
				}
				if k.stuck {
					return
				}
				continue
			}
			end := min(len(data), i+1+int(data[i]&0x0f))
			raw := data[i+1 : end]
			i = end - 1
			if st.Kind == engine.StepChoose {
				vs := make([]string, k.n)
				for s := range vs {
					vs[s] = []string{"yes", "no", "absent", string(raw)}[rng.IntN(4)]
				}
				_ = k.rawVotes(vs...)
				continue
			}
			seat := st.Seat
			if len(raw) > 0 && raw[0]&0x80 != 0 {
				seat = int(raw[0]) % k.n
			}
			before := k.snap()
			if err := k.apply(engine.Input{Kind: engine.InMove, Seat: seat, Move: raw}); err != nil && !reflect.DeepEqual(before, k.snap()) {
				t.Fatal("a refused move changed the game")
			}
		}
	})
}
