package enginetest_test

// A toy game that asks for every kind of step, to hold the table to its promises.
//
// Stages: draw a lead seat and a bonus (random); build deck 0 from cards 0..9 and shuffle it;
// deal the pot card face up, then one card to each seat alone; build deck 1 from card 100 and
// deck 0's next card, then append card 101 (From, Keep) and deal deck 1's second card face up;
// every seat chooses a bet 0..2 (choose); every seat, from the lead, claims its card as a hidden
// value or passes (move, a response); the lead's claim is answered to the next seat (answer);
// every claimant opens its claim (open); every seat shows its card (show), which must be the
// card it claimed. A seat scores its card plus its bet, plus 5 for a true claim.

import (
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"

	"corruption/engine"
)

// Modes, the configuration's one byte: a correct game, or one with a bug the table must catch.
const (
	modeFair    byte = iota
	modeLeaky        // the digest covers the node's private card
	modeStall        // the game never ends
	modeBadShow      // a seat is asked to show another seat's card
	numModes
)

type toyRules struct{}

func (toyRules) ID() string              { return "toy" }
func (toyRules) Name() string            { return "Toy" }
func (toyRules) Players() (min, max int) { return 2, 4 }
func (toyRules) DescribeConfig(c []byte) string {
	return fmt.Sprintf("mode %v", c)
}
func (toyRules) CheckConfig(c []byte, players int) error {
	if len(c) != 1 || c[0] >= numModes {
		return fmt.Errorf("config %v: want one mode byte", c)
	}
	return nil
}
func (toyRules) New(c []byte, players int, opt engine.Options) (engine.Game, error) {
	g := &toy{n: players, mode: c[0], mine: map[int]int{}, seen: map[int][]byte{}}
	g.pub.Claims, g.pub.Opened, g.pub.Shown = fill(players, -1), fill(players, -1), fill(players, -1)
	return g, nil
}

func fill(n, v int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// pub is the toy's public state: all of it goes into the digest.
type pub struct {
	Stage, Turn       int
	Lead, Bonus       int
	Pot, Extra        int
	Bets              []int
	Claims            []int // each seat's claim's ref, -1: it passed
	Opened, Shown     []int
	Answered, Learned bool
}

type toy struct {
	n    int
	mode byte
	pub  pub
	mine map[int]int    // private: the cards dealt to this node, by position
	seen map[int][]byte // private: the hidden values this node learnt, by ref
}

func (g *toy) Due() engine.Step {
	p, n := &g.pub, g.n
	seat := (p.Lead + p.Turn) % n
	switch p.Stage {
	case 0:
		return engine.Step{Kind: engine.StepRandom, Ranges: []int{n, 3}}
	case 1:
		return engine.Step{Kind: engine.StepBuild, Cards: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}
	case 2:
		return engine.Step{Kind: engine.StepShuffle}
	case 3:
		return engine.Step{Kind: engine.StepDeal, Positions: []int{0}, To: -1}
	case 4:
		return engine.Step{Kind: engine.StepDeal, Positions: []int{1 + p.Turn}, To: p.Turn}
	case 5:
		return engine.Step{Kind: engine.StepBuild, Deck: 1, Cards: []int{100}, From: []engine.DeckCard{{Deck: 0, Pos: n + 1}}}
	case 6:
		return engine.Step{Kind: engine.StepBuild, Deck: 1, Cards: []int{101}, Keep: true}
	case 7:
		return engine.Step{Kind: engine.StepDeal, Deck: 1, Positions: []int{1}, To: -1}
	case 8:
		seats := make([]int, n)
		for i := range seats {
			seats[i] = (p.Lead + i) % n
		}
		return engine.Step{Kind: engine.StepChoose, Seats: seats}
	case 9:
		return engine.Step{Kind: engine.StepMove, Seat: seat, Hidden: 1, Respond: true}
	case 10:
		return engine.Step{Kind: engine.StepAnswer, Seat: p.Lead, To: (p.Lead + 1) % n, Refs: []int{p.Claims[p.Lead]}}
	case 11:
		return engine.Step{Kind: engine.StepOpen, Seat: p.Turn, Refs: []int{p.Claims[p.Turn]}}
	case 12:
		show := p.Turn
		if g.mode == modeBadShow {
			show = (show + 1) % n
		}
		return engine.Step{Kind: engine.StepShow, Seat: p.Turn, Positions: []int{1 + show}}
	}
	if g.mode == modeStall {
		return engine.Step{Kind: engine.StepBuild, Deck: 2, Cards: []int{1}}
	}
	return engine.Step{Kind: engine.StepOver}
}

// stageKinds is the input each stage takes.
var stageKinds = []engine.InputKind{engine.InRandom, engine.InBuilt, engine.InShuffled, engine.InDealt, engine.InDealt,
	engine.InBuilt, engine.InBuilt, engine.InDealt, engine.InChosen, engine.InMove, engine.InAnswered, engine.InOpened,
	engine.InShown, engine.InBuilt}

func (g *toy) Apply(in engine.Input) error {
	p := &g.pub
	if in.Kind != stageKinds[min(p.Stage, len(stageKinds)-1)] {
		return fmt.Errorf("a %s input at stage %d", in.Kind, p.Stage)
	}
	switch p.Stage {
	case 0:
		p.Lead, p.Bonus = in.Ints[0], in.Ints[1]
	case 3:
		p.Pot = in.Cards[0]
	case 7:
		p.Extra = in.Cards[0]
	case 8:
		for _, v := range in.Values {
			p.Bets = append(p.Bets, int(v[0]))
		}
	case 9:
		seat := (p.Lead + p.Turn) % g.n
		switch {
		case string(in.Move) == "claim" && len(in.Refs) == 1:
			p.Claims[seat] = in.Refs[0]
		case len(in.Move) != 0 || len(in.Refs) != 0:
			return engine.Faultf(seat, "seat %d's move %q with %d refs is neither a claim nor a pass", seat, in.Move, len(in.Refs))
		}
	case 10:
		p.Answered = true
	case 11:
		p.Opened[p.Turn] = int(in.Values[0][0])
	case 12:
		if c := in.Cards[0]; p.Opened[p.Turn] >= 0 && p.Opened[p.Turn] != c {
			return engine.Faultf(p.Turn, "seat %d claimed %d but shows %d", p.Turn, p.Opened[p.Turn], c)
		}
		p.Shown[p.Turn] = in.Cards[0]
	}
	g.advance()
	return nil
}

// advance moves to the next turn or stage, skipping the turns with nothing to do.
func (g *toy) advance() {
	p := &g.pub
	perSeat := p.Stage == 4 || p.Stage == 9 || p.Stage == 11 || p.Stage == 12
	if p.Turn++; !perSeat || p.Turn == g.n {
		p.Stage, p.Turn = p.Stage+1, 0
	}
	for {
		switch {
		case p.Stage == 10 && p.Claims[p.Lead] < 0:
			p.Stage++
		case p.Stage == 11 && p.Turn < g.n && p.Claims[p.Turn] < 0:
			p.Turn++
		case p.Stage == 11 && p.Turn == g.n:
			p.Stage, p.Turn = 12, 0
		default:
			return
		}
	}
}

func (g *toy) LearnValue(ref int, v []byte) error { g.seen[ref] = v; return nil }
func (g *toy) LearnCard(deck, pos, card int) error {
	if deck != 0 {
		return fmt.Errorf("deck %d", deck)
	}
	g.mine[pos] = card
	return nil
}

func (g *toy) Digest() [32]byte {
	s := fmt.Sprintf("%+v", g.pub)
	if g.mode == modeLeaky {
		s += fmt.Sprint(g.mine)
	}
	return sha256.Sum256([]byte(s))
}

func (g *toy) Outcome() engine.Outcome {
	p := &g.pub
	if p.Stage < 13 {
		return engine.Outcome{}
	}
	o := engine.Outcome{Over: true, Scores: make([]int, g.n)}
	for s := range o.Scores {
		o.Scores[s] = p.Shown[s] + p.Bets[(s-p.Lead+g.n)%g.n]
		if p.Opened[s] >= 0 {
			o.Scores[s] += 5
		}
	}
	best := slices.Max(o.Scores)
	for s, v := range o.Scores {
		if v == best {
			o.Winners = append(o.Winners, s)
		}
	}
	return o
}

func (g *toy) Clone() engine.Game {
	c := *g
	c.pub.Bets, c.pub.Claims = slices.Clone(g.pub.Bets), slices.Clone(g.pub.Claims)
	c.pub.Opened, c.pub.Shown = slices.Clone(g.pub.Opened), slices.Clone(g.pub.Shown)
	c.mine, c.seen = maps.Clone(g.mine), maps.Clone(g.seen)
	return &c
}

// toyPlayer bets seat%3, and claims its card when its seat is even (a liar claims the next
// card); odd seats pass. extra adds that many hidden values to a claim.
type toyPlayer struct {
	liar  bool
	extra int
}

func (pl toyPlayer) Decide(ctx context.Context, eg engine.Game, seat int) (engine.Action, error) {
	g := eg.(*toy)
	switch g.pub.Stage {
	case 8:
		return engine.Action{Hidden: [][]byte{{byte(seat % 3)}}}, nil
	case 9:
		if seat%2 == 1 {
			return engine.Action{}, nil
		}
		card, ok := g.mine[1+seat]
		if !ok {
			return engine.Action{}, fmt.Errorf("seat %d does not know its card", seat)
		}
		if pl.liar {
			card++
		}
		a := engine.Action{Move: []byte("claim"), Hidden: [][]byte{{byte(card)}}}
		for range pl.extra {
			a.Hidden = append(a.Hidden, []byte{0})
		}
		return a, nil
	}
	return engine.Action{}, fmt.Errorf("seat %d asked to decide at stage %d", seat, g.pub.Stage)
}
