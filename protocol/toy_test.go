package protocol_test

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"corruption/engine"
)

// The toy: a game that is not Corruption, made to use every service of the table once, so that
// the kit is proven before a second real game leans on it. The worked example of
// docs/ARCHITECTURE.md.
//
//  1. A joint draw: the first player and a die (1 to 6).
//  2. A deck of the known cards 0..9, shuffled by all; two cards dealt to each seat alone.
//  3. A simultaneous bid: each seat commits to one of its cards, then all open.
//  4. The first player hides one of its cards (a move with a hidden value); the next seat peeks
//     at it (a sealed answer); the others respond in turn, "call" or pass.
//  5. The first player shows its two cards with proof, then opens the hidden one, which must be
//     one of them.
//  6. Every seat's first card goes into a new deck, shuffled by all and dealt face up: an
//     anonymous pile (its cards are seen, not whose each is).
//
// Score: the bid card's value, plus the die for the first player; plus 1 for each "call".
type toyRules struct{}

const toyID = "toy"

func init() {
	engine.Register(toyRules{})
	// The toy bot stands in for an open seat (depart_test.go): it decides from the game alone,
	// but for its bid, which the seed picks among its two cards (so that a test can see whether
	// anyone steers the seed: TestStandInNotSteered).
	engine.RegisterStandIn(toyID, func(gg engine.Game, seat int, seed uint64) (engine.Action, error) {
		if g := gg.(*toy); g.Due().Kind == engine.StepChoose && g.hand[seat][seed%2] >= 0 {
			return engine.Action{Hidden: [][]byte{{byte(g.hand[seat][seed%2])}}}, nil
		}
		return toyBot{}.Decide(context.Background(), gg, seat)
	})
}

func (toyRules) ID() string                   { return toyID }
func (toyRules) Name() string                 { return "Toy" }
func (toyRules) Players() (int, int)          { return 2, 5 }
func (toyRules) DescribeConfig([]byte) string { return "the toy" }
func (toyRules) CheckConfig(c []byte, _ int) error {
	if len(c) != 1 || c[0] != 1 {
		return errors.New("the toy's configuration is the one byte 1")
	}
	return nil
}

func (toyRules) New(_ []byte, players int, opt engine.Options) (engine.Game, error) {
	return &toy{n: players, onEvent: opt.OnEvent, hand: make([][]int, players), bid: make([]int, players),
		bidRef: make([]int, players), calls: make([]bool, players), peekedBy: -1, hideRef: -1}, nil
}

type toyStage uint8

const (
	toyDraw toyStage = iota
	toyBuild
	toyShuffle
	toyDeal // dealing seat `dealt`
	toyBid
	toyHide
	toyAnswer
	toyRespond // seat `responder`
	toyShow
	toyOpen
	toyPile
	toyPileShuffle
	toyPileDeal
	toyOver
)

type toy struct {
	n       int
	onEvent func(engine.Event)

	stage     toyStage
	first     int
	die       int
	dealt     int     // seats dealt so far
	hand      [][]int // this node's knowledge of each seat's cards (-1 unknown)
	bid       []int   // opened bids (card ids), -1 before
	bidRef    []int
	hideRef   int
	hidden    int // the hidden card, once known here (-1)
	peekedBy  int
	responder int
	calls     []bool
	shown     []int
	opened    int
	pile      []int
}

func (g *toy) next(s int) int { return (s + 1) % g.n }

func (g *toy) Due() engine.Step {
	switch g.stage {
	case toyDraw:
		return engine.Step{Kind: engine.StepRandom, Ranges: []int{g.n, 6}}
	case toyBuild:
		return engine.Step{Kind: engine.StepBuild, Deck: 0, Cards: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}
	case toyShuffle:
		return engine.Step{Kind: engine.StepShuffle, Deck: 0}
	case toyDeal:
		return engine.Step{Kind: engine.StepDeal, Deck: 0, Positions: []int{2 * g.dealt, 2*g.dealt + 1}, To: g.dealt}
	case toyBid:
		seats := make([]int, g.n)
		for i := range seats {
			seats[i] = (g.first + i) % g.n
		}
		return engine.Step{Kind: engine.StepChoose, Seats: seats}
	case toyHide:
		return engine.Step{Kind: engine.StepMove, Seat: g.first, Hidden: 1}
	case toyAnswer:
		return engine.Step{Kind: engine.StepAnswer, Seat: g.first, To: g.next(g.first), Refs: []int{g.hideRef}}
	case toyRespond:
		return engine.Step{Kind: engine.StepMove, Seat: g.responder, Respond: true}
	case toyShow:
		return engine.Step{Kind: engine.StepShow, Seat: g.first, Deck: 0, Positions: []int{2 * g.first, 2*g.first + 1}}
	case toyOpen:
		return engine.Step{Kind: engine.StepOpen, Seat: g.first, Refs: []int{g.hideRef}}
	case toyPile:
		var from []engine.DeckCard
		for s := range g.n {
			from = append(from, engine.DeckCard{Deck: 0, Pos: 2 * s})
		}
		return engine.Step{Kind: engine.StepBuild, Deck: 1, From: from}
	case toyPileShuffle:
		return engine.Step{Kind: engine.StepShuffle, Deck: 1}
	case toyPileDeal:
		ps := make([]int, g.n)
		for i := range ps {
			ps[i] = i
		}
		return engine.Step{Kind: engine.StepDeal, Deck: 1, Positions: ps, To: -1}
	}
	return engine.Step{Kind: engine.StepOver}
}

func (g *toy) Apply(in engine.Input) error {
	due := g.Due()
	switch {
	case g.stage == toyDraw && in.Kind == engine.InRandom && len(in.Ints) == 2:
		g.first, g.die = in.Ints[0], in.Ints[1]+1
		g.stage = toyBuild
	case g.stage == toyBuild && in.Kind == engine.InBuilt:
		g.stage = toyShuffle
	case g.stage == toyShuffle && in.Kind == engine.InShuffled:
		g.stage = toyDeal
		for s := range g.hand {
			g.hand[s] = []int{-1, -1}
		}
		g.hidden = -1
	case g.stage == toyDeal && in.Kind == engine.InDealt && in.To == g.dealt:
		if g.dealt++; g.dealt == g.n {
			g.stage = toyBid
		}
	case g.stage == toyBid && in.Kind == engine.InChosen:
		for i, s := range in.Seats {
			if len(in.Values[i]) != 1 {
				return engine.Faultf(s, "seat %d bid %d bytes", s, len(in.Values[i]))
			}
			// Whether it holds the card is checked when its hand is shown: Apply sees public
			// inputs only (a node that knows the hand must not decide otherwise than one that
			// does not).
			g.bid[s], g.bidRef[s] = int(in.Values[i][0]), in.Refs[i]
		}
		g.stage = toyHide
	case g.stage == toyHide && in.Kind == engine.InMove && in.Seat == g.first:
		if string(in.Move) != "hide" || len(in.Refs) != 1 {
			return engine.Faultf(in.Seat, "seat %d: the move here is hide, with one hidden card", in.Seat)
		}
		g.hideRef = in.Refs[0]
		g.stage = toyAnswer
	case g.stage == toyAnswer && in.Kind == engine.InAnswered:
		g.peekedBy = in.To
		g.responder = g.next(g.first)
		g.stage = toyRespond
	case g.stage == toyRespond && in.Kind == engine.InMove && in.Seat == g.responder:
		switch string(in.Move) {
		case "call":
			g.calls[in.Seat] = true
		case "":
		default:
			return engine.Faultf(in.Seat, "seat %d: %q is neither call nor a pass", in.Seat, in.Move)
		}
		if g.responder = g.next(g.responder); g.responder == g.first {
			g.stage = toyShow
		}
	case g.stage == toyShow && in.Kind == engine.InShown && in.Seat == g.first:
		g.shown = in.Cards
		g.hand[g.first] = append([]int(nil), in.Cards...)
		if b := g.bid[g.first]; !slices.Contains(in.Cards, b) {
			return engine.Faultf(g.first, "seat %d bid card %d, which it did not hold", g.first, b)
		}
		g.stage = toyOpen
	case g.stage == toyOpen && in.Kind == engine.InOpened && in.Seat == g.first:
		if len(in.Values[0]) != 1 || !slices.Contains(g.shown, int(in.Values[0][0])) {
			return engine.Faultf(in.Seat, "seat %d hid a card it did not hold", in.Seat)
		}
		g.opened = int(in.Values[0][0])
		g.stage = toyPile
	case g.stage == toyPile && in.Kind == engine.InBuilt:
		g.stage = toyPileShuffle
	case g.stage == toyPileShuffle && in.Kind == engine.InShuffled:
		g.stage = toyPileDeal
	case g.stage == toyPileDeal && in.Kind == engine.InDealt:
		g.pile = append([]int(nil), in.Cards...)
		g.stage = toyOver
	default:
		return engine.Faultf(in.Seat, "input %s does not answer step %s", in.Kind, due.Kind)
	}
	if g.onEvent != nil {
		g.onEvent(engine.Event{Text: in.Kind.String()})
	}
	return nil
}

func (g *toy) LearnValue(ref int, v []byte) error {
	if len(v) != 1 {
		return fmt.Errorf("a toy value is one byte")
	}
	if ref == g.hideRef || g.stage == toyHide {
		g.hidden = int(v[0])
	}
	return nil
}

func (g *toy) LearnCard(deck, pos, card int) error {
	if deck != 0 || pos < 0 || pos >= 2*g.n {
		return fmt.Errorf("no card %d of deck %d is dealt privately", pos, deck)
	}
	g.hand[pos/2][pos%2] = card
	return nil
}

// CheckChoice: a bid is one of the seat's cards, as this node knows them.
func (g *toy) CheckChoice(seat int, v []byte) error {
	if len(v) != 1 || !slices.Contains(g.hand[seat], int(v[0])) {
		return fmt.Errorf("seat %d may only bid one of its cards %v", seat, g.hand[seat])
	}
	return nil
}

// Digest hashes the public state only: what every node knows.
func (g *toy) Digest() [32]byte {
	var b []byte
	put := func(v int) { b = binary.BigEndian.AppendUint64(b, uint64(int64(v))) }
	put(int(g.stage))
	put(g.first)
	put(g.die)
	put(g.dealt)
	for s := range g.n {
		put(g.bid[s])
		if g.calls[s] {
			put(1)
		}
	}
	put(g.hideRef)
	put(g.peekedBy)
	put(g.responder)
	for _, c := range g.shown {
		put(c)
	}
	put(g.opened)
	for _, c := range g.pile {
		put(c)
	}
	return sha256.Sum256(b)
}

func (g *toy) Outcome() engine.Outcome {
	if g.stage != toyOver {
		return engine.Outcome{}
	}
	o := engine.Outcome{Over: true, Scores: make([]int, g.n)}
	best := -1
	for s := range g.n {
		o.Scores[s] = g.bid[s]
		if s == g.first {
			o.Scores[s] += g.die
		}
		if g.calls[s] {
			o.Scores[s]++
		}
		best = max(best, o.Scores[s])
	}
	for s, v := range o.Scores {
		if v == best {
			o.Winners = append(o.Winners, s)
		}
	}
	return o
}

func (g *toy) Clone() engine.Game {
	c := *g
	c.onEvent = nil
	c.hand = make([][]int, g.n)
	for s := range g.hand {
		c.hand[s] = slices.Clone(g.hand[s])
	}
	c.bid, c.bidRef, c.calls = slices.Clone(g.bid), slices.Clone(g.bidRef), slices.Clone(g.calls)
	c.shown, c.pile = slices.Clone(g.shown), slices.Clone(g.pile)
	return &c
}

// toyBot plays the toy: it bids and hides its first card, and calls from odd seats.
type toyBot struct{}

func (toyBot) Decide(_ context.Context, gg engine.Game, seat int) (engine.Action, error) {
	g := gg.(*toy)
	switch d := g.Due(); {
	case d.Kind == engine.StepChoose:
		return engine.Action{Hidden: [][]byte{{byte(g.hand[seat][0])}}}, nil
	case g.stage == toyHide:
		return engine.Action{Move: []byte("hide"), Hidden: [][]byte{{byte(g.hand[seat][1])}}}, nil
	case g.stage == toyRespond && seat%2 == 1:
		return engine.Action{Move: []byte("call")}, nil
	case g.stage == toyRespond:
		return engine.Action{}, nil
	}
	return engine.Action{}, fmt.Errorf("the toy bot has nothing to decide at stage %d", g.stage)
}
