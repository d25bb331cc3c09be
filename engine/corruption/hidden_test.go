package corruption_test

// Hidden-card games (corruption.WithHiddenCards): face-down cards are placed as CardUnknown and
// revealed after the last placement; the checks that need the card are made at the reveal. The
// public state, and so the digest, must be the same as in the full-information game at every
// comparable point.

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
)

// fullGame is a random full-information game: its moves, and the digest and Next after each.
type fullGame struct {
	cfg     corruption.Config
	moves   []corruption.Move
	digests [][32]byte
	nexts   []corruption.Decision
	final   *corruption.State
}

func recordGame(t testing.TB, cfg corruption.Config, seed uint64) fullGame {
	t.Helper()
	s, err := corruption.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g := fullGame{cfg: cfg, final: s}
	err = bot.Play(s, randomBots(cfg.Players, seed), func(m corruption.Move) {
		g.moves = append(g.moves, m)
		g.digests = append(g.digests, s.Digest())
		g.nexts = append(g.nexts, s.Next())
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// replayHidden replays g on a hidden-card state as the node of seat me would (me = -1: a node
// that holds no seat): it knows its own cards and the face-up ones, learns what its own peeks
// show, and reveals every face-down card after the last placement, in the order Next asks.
// Without withDeck the contracts come in MoveDeal moves. probe, if not nil, is called before
// every move.
func replayHidden(g fullGame, me int, withDeck bool, probe func(*corruption.State) error) error {
	cfg := g.cfg
	if !withDeck {
		cfg.Deck = nil
	}
	h, err := corruption.New(cfg, corruption.WithHiddenCards())
	if err != nil {
		return err
	}
	dealt := 0
	deal := func() error {
		if h.Next().Kind != corruption.DecideDeal {
			return nil
		}
		if withDeck {
			return fmt.Errorf("a game with a deck waits for a deal")
		}
		m := corruption.Move{Kind: corruption.MoveDeal}
		copy(m.Deal[:], g.cfg.Deck[dealt:dealt+corruption.ContractsPerDeal])
		dealt += corruption.ContractsPerDeal
		return h.Apply(m)
	}
	var cards []corruption.Card // this round's cards, in play order
	unknown, reveals := 0, 0
	for i, m := range g.moves {
		if probe != nil {
			if err := probe(h); err != nil {
				return err
			}
		}
		if err := deal(); err != nil {
			return err
		}
		switch m.Kind {
		case corruption.MovePlace:
			if h.NumPlays() == 0 {
				cards = cards[:0]
			}
			hm := m
			if m.Seat != me && (m.Spot.IsSwiss() || !h.NextFaceUp(m.Seat)) {
				hm.Card = corruption.CardUnknown
				unknown++
			}
			if err := h.Apply(hm); err != nil {
				return fmt.Errorf("move %d: %s: %w", i+1, hm, err)
			}
			cards = append(cards, m.Card)
			if h.Phase() == corruption.PhaseReveal {
				if len(cards) != 6*cfg.Players {
					return fmt.Errorf("reveal phase after %d cards", len(cards))
				}
				if g.nexts[i] == h.Next() && g.digests[i] == h.Digest() {
					return fmt.Errorf("the hidden state is where the full game is before any reveal")
				}
				for n := 0; h.Phase() == corruption.PhaseReveal; n++ {
					d := h.Next()
					if d.Kind != corruption.DecideReveal || n > len(cards) {
						return fmt.Errorf("reveal phase: Next %v", d)
					}
					if probe != nil {
						if err := probe(h); err != nil {
							return err
						}
					}
					p, _ := h.PlayAt(d.Index)
					if p.Seat != d.Seat || p.Revealed {
						return fmt.Errorf("Next asks seat %d to reveal card %d, which is %+v", d.Seat, d.Index, p)
					}
					if err := h.Apply(corruption.Move{Kind: corruption.MoveReveal, Seat: d.Seat, Index: d.Index, Card: cards[d.Index-1]}); err != nil {
						return fmt.Errorf("reveal %d: %w", d.Index, err)
					}
					reveals++
				}
			}
		case corruption.MovePeek:
			if err := h.Apply(m); err != nil {
				return fmt.Errorf("move %d: %s: %w", i+1, m, err)
			}
			if m.Seat == me {
				before := h.Digest()
				if err := h.Learn(m.Index, cards[m.Index-1]); err != nil {
					return fmt.Errorf("learn: %w", err)
				}
				if h.Digest() != before {
					return fmt.Errorf("Learn changed the digest")
				}
				if p, _ := h.View(me).Play(m.Index); p.Card != cards[m.Index-1] {
					return fmt.Errorf("seat %d's view does not show the card it peeked at and learnt", me)
				}
			}
		default:
			if err := h.Apply(m); err != nil {
				return fmt.Errorf("move %d: %s: %w", i+1, m, err)
			}
		}
		if err := deal(); err != nil {
			return err
		}
		if h.Digest() != g.digests[i] {
			return fmt.Errorf("after move %d (%s, round %d, %s): the digests differ", i+1, m, h.Round(), h.Phase())
		}
		if h.Next() != g.nexts[i] {
			return fmt.Errorf("after move %d: Next %v, want %v", i+1, h.Next(), g.nexts[i])
		}
	}
	if unknown == 0 || reveals < unknown {
		return fmt.Errorf("%d cards placed unknown, %d reveals", unknown, reveals)
	}
	if !h.Over() || !slices.Equal(h.Winners(), g.final.Winners()) {
		return fmt.Errorf("the hidden game ends over=%t with winners %v, want %v", h.Over(), h.Winners(), g.final.Winners())
	}
	for seat := 0; seat < cfg.Players; seat++ {
		a, an := h.Score(seat)
		b, bn := g.final.Score(seat)
		if a != b || an != bn {
			return fmt.Errorf("seat %d scores %d (%d) hidden, %d (%d) in full", seat, a, an, b, bn)
		}
	}
	return nil
}

func TestHiddenCardsReplay(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 2
	}
	for ki, k := range tableKinds() {
		t.Run(k.String(), func(t *testing.T) {
			t.Parallel()
			for gi := 0; gi < games; gi++ {
				seed := uint64(ki)<<32 | uint64(gi) | 1<<60
				g := recordGame(t, k.config(seed), seed)
				for _, me := range []int{-1, gi % k.players} {
					for _, withDeck := range []bool{true, false} {
						if err := replayHidden(g, me, withDeck, nil); err != nil {
							t.Fatalf("game %d (seed %#x), node of seat %d, deck %t: %v", gi, seed, me, withDeck, err)
						}
					}
				}
			}
		})
	}
}

// hiddenTable is a hidden-card game of 3 players (standard, deck in RULES.md order, seat 0
// first), as seen by the node of seat 0.
type hiddenTable struct {
	t *testing.T
	s *corruption.State
}

func newHiddenTable(t *testing.T) *hiddenTable {
	s, err := corruption.New(corruption.Config{Players: 3, Deck: naturalDeck(t)}, corruption.WithHiddenCards())
	if err != nil {
		t.Fatal(err)
	}
	return &hiddenTable{t, s}
}

func (h *hiddenTable) apply(m corruption.Move) {
	h.t.Helper()
	if err := h.s.Apply(m); err != nil {
		h.t.Fatalf("%s: %v", m, err)
	}
}

func (h *hiddenTable) place(seat int, card corruption.Card, on string) {
	h.t.Helper()
	h.apply(corruption.Move{Kind: corruption.MovePlace, Seat: seat, Card: card, Spot: spot(h.t, on)})
}

// reject applies a move that must be rejected with a *MoveError naming seat, and must leave the
// state as it was.
func (h *hiddenTable) reject(m corruption.Move, seat int, why string) {
	h.t.Helper()
	before := snap(h.s)
	err := h.s.Apply(m)
	var me *corruption.MoveError
	switch {
	case err == nil:
		h.t.Fatalf("%s: %s was accepted", why, m)
	case !errors.As(err, &me):
		h.t.Errorf("%s: error %v is not a *MoveError", why, err)
	case me.Seat != seat:
		h.t.Errorf("%s: error %q names seat %d, want seat %d", why, err, me.Seat, seat)
	}
	if d := before.same(snap(h.s)); d != "" {
		h.t.Errorf("%s: the rejected move changed the state: %s", why, d)
	}
}

func reveal(seat, i int, c corruption.Card) corruption.Move {
	return corruption.Move{Kind: corruption.MoveReveal, Seat: seat, Index: i, Card: c}
}

func TestHiddenCardsRevealErrors(t *testing.T) {
	h := newHiddenTable(t)
	U := corruption.CardUnknown
	// Round 1 (first cards face up). Seat 0's node knows its own cards.
	// #1 s0 $1,000 school (up)      #2 s1 $1,000 monument (up)    #3 s2 $1,000 police (up)
	// #4 s0 $2,000 swiss:city       #5 s1 ? monument ($2,000)     #6 s2 ? police ($2,000)
	// #7 s0 hit man, school         #8 s1 ? swiss:county ($4,000) #9 s2 ? police ($4,000)
	// #10.. s0 $4,000 $6,000 $8,000 on school; s1 $6,000 $8,000 $10,000 on monument; s2 the same
	// on police.
	h.place(0, corruption.Bribe1000, "school")
	h.reject(corruption.Move{Kind: corruption.MovePlace, Seat: 1, Card: U, Spot: spot(t, "monument")}, 1, "an unknown card at a face-up position")
	h.place(1, corruption.Bribe1000, "monument")
	h.place(2, corruption.Bribe1000, "police")
	h.place(0, corruption.Bribe2000, "swiss:city")
	h.place(1, U, "monument")
	h.reject(reveal(1, 5, corruption.Bribe2000), 1, "a reveal before the last placement")
	h.place(2, U, "police")
	h.place(0, corruption.HitMan, "school")
	h.place(1, U, "swiss:county")
	h.place(2, U, "police")
	for _, c := range []corruption.Card{corruption.Bribe4000, corruption.Bribe6000, corruption.Bribe8000} {
		h.place(0, c, "school")
		h.place(1, U, "monument")
		h.place(2, U, "police")
	}
	if d := h.s.Next(); d.Kind != corruption.DecideReveal || d.Seat != 0 || d.Index != 4 {
		t.Fatalf("after the placements: Next %v, want seat 0 to reveal card 4", d)
	}

	h.reject(reveal(1, 4, corruption.Bribe2000), 1, "a reveal of another seat's card")
	h.reject(reveal(0, 4, corruption.Bribe4000), 0, "a reveal that differs from the known card")
	h.reject(reveal(0, 4, U), 0, "a reveal of no card")
	h.reject(reveal(0, 1, corruption.Bribe1000), 0, "a reveal of a face-up card")
	h.reject(reveal(0, 19, corruption.Bribe1000), 0, "a reveal of card 19 of 18")
	h.reject(reveal(0, 0, corruption.Bribe1000), 0, "a reveal of card 0")
	h.apply(reveal(0, 4, corruption.Bribe2000))
	h.reject(reveal(1, 5, corruption.Bribe1000), 1, "a bribe revealed twice in a round (the other was face up)")
	h.reject(reveal(1, 5, corruption.Card(10)), 1, "a reveal of an unknown card value")
	h.apply(reveal(1, 5, corruption.Bribe2000))
	h.apply(reveal(2, 6, corruption.Bribe2000))
	h.apply(reveal(0, 7, corruption.HitMan))
	h.reject(reveal(1, 8, corruption.DA), 1, "a character on a Swiss account")
	h.reject(reveal(1, 8, corruption.Bribe2000), 1, "a bribe revealed twice in a round")
	h.apply(reveal(1, 8, corruption.Bribe4000))
	h.apply(reveal(2, 9, corruption.Bribe4000))
	h.apply(reveal(0, 10, corruption.Bribe4000))
	// Seat 1 reveals its two reporters, and then a third one; seat 2 a district attorney, and
	// then a second one.
	h.apply(reveal(1, 11, corruption.Reporter))
	h.apply(reveal(2, 12, corruption.DA))
	h.apply(reveal(0, 13, corruption.Bribe6000))
	h.apply(reveal(1, 14, corruption.Reporter))
	h.reject(reveal(2, 15, corruption.DA), 2, "a second district attorney")
	h.apply(reveal(2, 15, corruption.Bribe8000))
	h.apply(reveal(0, 16, corruption.Bribe8000))
	h.reject(reveal(1, 17, corruption.Reporter), 1, "a third reporter")
	h.reject(reveal(2, 17, corruption.Bribe10000), 2, "a reveal of another seat's card")
	h.apply(reveal(1, 17, corruption.Bribe10000))
	h.apply(reveal(2, 18, corruption.Bribe10000))
	if h.s.Phase() != corruption.PhaseAwarding {
		t.Fatalf("after the reveals: phase %s, Next %v", h.s.Phase(), h.s.Next())
	}
	h.reject(reveal(2, 18, corruption.Bribe10000), 2, "a reveal after the reveals")

	// Awarding: answer with the first option (or pass) until round 2.
	for h.s.Round() == 1 {
		d := h.s.Next()
		m := corruption.Move{Seat: d.Seat}
		switch d.Kind {
		case corruption.DecideAssign:
			m.Kind, m.Contract = corruption.MoveAssign, h.s.AssignOptions()[0]
		case corruption.DecideKill:
			m.Kind, m.Index = corruption.MoveKill, h.s.KillTargets()[0]
		case corruption.DecideRemove:
			m.Kind = corruption.MovePass
		default:
			t.Fatalf("awarding: Next %v", d)
		}
		h.apply(m)
	}
	if !h.s.Deferred(contract(t, "police")) {
		t.Errorf("police, with seat 2's revealed district attorney, is not deferred")
	}
	if da, rep, hm := h.s.CharactersLeft(1); da != 1 || rep != 0 || hm != 1 {
		t.Errorf("seat 1 has %d %d %d characters left, want 1 0 1", da, rep, hm)
	}

	// Round 2 (cards 1 and 2 face up): every face-down card is a bribe, placed unknown by the
	// other seats; seat 1 then claims a third reporter, seat 2 a second district attorney.
	for h.s.Phase() == corruption.PhaseCorruption {
		d := h.s.Next()
		pos := h.s.Placed(d.Seat) + 1
		c := corruption.Bribes[pos-1]
		if d.Seat != 0 && !h.s.NextFaceUp(d.Seat) {
			c = U
		}
		h.apply(corruption.Move{Kind: corruption.MovePlace, Seat: d.Seat, Card: c, Spot: corruption.ContractSpot(h.s.Table()[0])})
	}
	for h.s.Phase() == corruption.PhaseReveal {
		d := h.s.Next()
		p, _ := h.s.PlayAt(d.Index)
		if p.Pos == 3 && d.Seat == 1 {
			h.reject(reveal(1, d.Index, corruption.Reporter), 1, "a reporter seat 1 no longer has")
		}
		if p.Pos == 3 && d.Seat == 2 {
			h.reject(reveal(2, d.Index, corruption.DA), 2, "a district attorney played in round 1")
		}
		h.apply(reveal(d.Seat, d.Index, corruption.Bribes[p.Pos-1]))
	}
}

func TestHiddenCardsLearn(t *testing.T) {
	h := newHiddenTable(t)
	U := corruption.CardUnknown
	h.place(0, corruption.Bribe1000, "school")
	h.place(1, corruption.Bribe1000, "monument")
	h.place(2, corruption.Bribe1000, "police")
	h.place(0, corruption.Bribe2000, "school")
	h.place(1, U, "monument") // #5
	before := snap(h.s)
	if err := h.s.Learn(5, corruption.Bribe4000); err != nil {
		t.Fatal(err)
	}
	if h.s.Digest() != before.digest || h.s.Next() != before.next {
		t.Errorf("Learn changed the digest or Next")
	}
	if p, _ := h.s.PlayAt(5); p.Card != corruption.Bribe4000 || p.Revealed {
		t.Errorf("card 5 after Learn: %+v", p)
	}
	for _, bad := range []struct {
		i int
		c corruption.Card
	}{{5, corruption.Bribe6000}, {0, corruption.Bribe1000}, {6, corruption.Bribe1000}, {4, U}, {1, corruption.Bribe2000}, {5, corruption.Card(10)}} {
		d := h.s.Digest()
		if err := h.s.Learn(bad.i, bad.c); err == nil {
			t.Errorf("Learn(%d, %v) accepted", bad.i, bad.c)
		}
		if h.s.Digest() != d {
			t.Errorf("a rejected Learn(%d, %v) changed the digest", bad.i, bad.c)
		}
	}
	// Play the round out, all unknown but seat 0's; then seat 1 must reveal card 5 as learnt.
	for h.s.Phase() == corruption.PhaseCorruption {
		d := h.s.Next()
		pos := h.s.Placed(d.Seat) + 1
		c := corruption.Bribes[pos-1]
		if d.Seat != 0 && !h.s.NextFaceUp(d.Seat) {
			c = U
		}
		h.apply(corruption.Move{Kind: corruption.MovePlace, Seat: d.Seat, Card: c, Spot: corruption.ContractSpot(h.s.Table()[0])})
	}
	h.apply(reveal(0, 4, corruption.Bribe2000))
	if d := h.s.Next(); d.Kind != corruption.DecideReveal || d.Index != 5 {
		t.Fatalf("Next %v, want the reveal of card 5", d)
	}
	h.reject(reveal(1, 5, corruption.Bribe2000), 1, "a reveal that differs from the learnt card")
	h.apply(reveal(1, 5, corruption.Bribe4000))
}

func TestUnknownCardsNeedHiddenMode(t *testing.T) {
	s, err := corruption.New(corruption.Config{Players: 3, Deck: naturalDeck(t)})
	if err != nil {
		t.Fatal(err)
	}
	h := &hiddenTable{t, s}
	h.place(0, corruption.Bribe1000, "school")
	h.place(1, corruption.Bribe1000, "school")
	h.place(2, corruption.Bribe1000, "school")
	h.reject(corruption.Move{Kind: corruption.MovePlace, Seat: 0, Card: corruption.CardUnknown, Spot: spot(t, "school")}, 0,
		"an unknown card in a full-information game")
	h.reject(reveal(0, 1, corruption.Bribe1000), 0, "a reveal in a full-information game")
}
