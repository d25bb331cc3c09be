package corruption_test

// FuzzApply: arbitrary moves on a fresh game never panic, and a rejected move leaves the state
// unchanged. Short runs: go test -run='^$' -fuzz='^FuzzApply$' -fuzztime=20s ./engine/corruption/

import (
	"bytes"
	"errors"
	"testing"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
)

// fuzzGame decodes data into a game and a sequence of moves, and plays them. The first byte is
// the table (players, variant, little black book, hidden cards, deck given or dealt), the second
// the deck's order and the first player. Then each byte below 0xa0 is "the legal move a random
// bot would make, drawn with this byte" (so that games get somewhere), and each byte from 0xa0
// starts an arbitrary move of 6 bytes: kind, seat, card, spot or contract, index, positions.
func fuzzGame(t *testing.T, data []byte) {
	if len(data) < 2 {
		return
	}
	b0, b1 := data[0], data[1]
	n := 3 + int(b0%5)
	v := corruption.Variant(b0 / 5 % 4)
	hidden := b0&0x40 != 0
	cfg := corruption.Config{Players: n, Variant: v, LittleBlackBook: v != corruption.Closed && b0&0x20 != 0,
		Deck: shuffled(rngFor(uint64(b1), 0)), First: int(b1) % n}
	deck := cfg.Deck
	var opts []corruption.Option
	if hidden {
		opts = append(opts, corruption.WithHiddenCards())
		if b0&0x80 != 0 {
			cfg.Deck = nil
		}
	}
	s, err := corruption.New(cfg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	data = data[2:]
	for steps := 0; len(data) > 0 && steps < 600; steps++ {
		var m corruption.Move
		legal := data[0] < 0xa0
		if legal {
			m = fuzzLegal(s, deck, data[0])
			data = data[1:]
		} else {
			var b [6]byte
			copy(b[:], data)
			data = data[min(6, len(data)):]
			m = corruption.Move{Kind: corruption.MoveKind(b[0] % 12), Seat: int(int8(b[1])) % 9, Card: corruption.Card(b[2] % 12),
				Spot: corruption.Spot(b[3] % 30), Contract: corruption.Contract(b[3] % 27), Index: int(int8(b[4])) % 50,
				Positions: corruption.Positions(b[5])}
			for i := range m.Deal {
				m.Deal[i] = corruption.Contract((int(b[3]) + 5*i) % 26)
			}
		}
		before := snapLight(s)
		err := s.Apply(m)
		if err == nil {
			continue
		}
		if legal && !s.Over() {
			t.Fatalf("the legal move %v was rejected: %v", m, err)
		}
		var me *corruption.MoveError
		if !errors.As(err, &me) && !errors.Is(err, corruption.ErrGameOver) {
			t.Fatalf("%v: error %v is neither a *MoveError nor ErrGameOver", m, err)
		}
		if d := before.same(snapLight(s)); d != "" {
			t.Fatalf("%v was rejected (%v) but %s", m, err, d)
		}
	}
}

// fuzzLegal is a legal move at s: a random bot's, a deal of the next contracts, or a reveal
// (bots name their cards, so those are known; arbitrary moves may place unknown ones).
func fuzzLegal(s *corruption.State, deck []corruption.Contract, b byte) corruption.Move {
	d := s.Next()
	switch d.Kind {
	case corruption.DecideNothing:
		return corruption.Move{}
	case corruption.DecideDeal:
		m := corruption.Move{Kind: corruption.MoveDeal}
		k := 0
		for _, c := range deck {
			if !s.OnTable(c) && s.Winner(c) < 0 && k < len(m.Deal) {
				m.Deal[k] = c
				k++
			}
		}
		return m
	case corruption.DecideReveal:
		p, _ := s.PlayAt(d.Index)
		m := corruption.Move{Kind: corruption.MoveReveal, Seat: d.Seat, Index: d.Index, Card: p.Card}
		// A card placed unknown by an arbitrary move: the first card that may be revealed (there
		// is always a bribe the seat has not played this round).
		for c := corruption.Bribe1000; p.Card == corruption.CardUnknown && c <= corruption.HitMan; c++ {
			m.Card = c
			if s.Clone().Apply(m) == nil {
				break
			}
		}
		return m
	}
	return bot.NewRandom(rngFor(uint64(b), 1)).Decide(s.View(d.Seat))
}

func FuzzApply(f *testing.F) {
	f.Add([]byte{0, 0})
	f.Add(append([]byte{0, 1}, bytes.Repeat([]byte{7}, 300)...))                     // a whole 3-player standard game
	f.Add(append([]byte{4 + 5*2 + 0x20, 9}, bytes.Repeat([]byte{3, 0x11}, 200)...))  // 7 players, free stud, lbb
	f.Add(append([]byte{1 + 5*1 + 0x40 + 0x80, 5}, bytes.Repeat([]byte{1}, 400)...)) // hidden, dealt, down the river
	f.Add([]byte{2 + 5*3, 3, 0xa0, 0, 7, 24, 1, 0, 0xa3, 1, 1, 0, 0, 0, 9, 9})       // closed: a DA on a Swiss account...
	f.Add(append(append([]byte{0x40, 2}, bytes.Repeat([]byte{5}, 18)...), 0xa3, 1, 8, 25, 5, 0, 0xa3, 0, 1, 3, 1, 0))
	f.Fuzz(fuzzGame)
}

// The seeds run as a plain test too, and so do some longer random inputs.
func TestApplyArbitraryMoves(t *testing.T) {
	rng := rngFor(99, 99)
	for i := 0; i < 300; i++ {
		data := make([]byte, 50+rng.IntN(500))
		for j := range data {
			if rng.IntN(4) == 0 {
				data[j] = byte(0xa0 + rng.IntN(0x60))
			} else {
				data[j] = byte(rng.IntN(256))
			}
		}
		data[0] = byte(rng.IntN(256))
		fuzzGame(t, data)
	}
}
