package corruptia

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"

	"corruption/engine"
)

// The decks a game asks the table for.
const (
	DeckBills   = 0 // the 90 bills, shuffled; the last SetAside(players) positions are never dealt
	DeckRebuilt = 1 // the rest of the bills and the starting bills sent back, shuffled again
	DeckPile    = 2 // the opening discards, shuffled so that nobody knows whose each is
	NumDecks    = 3
)

type stage uint8

const (
	stFirst       stage = iota // StepRandom: the first player
	stBuild                    // StepBuild: the bill deck
	stShuffle                  // StepShuffle: the bill deck
	stStart                    // StepDeal face up: starting bills, until three fit
	stRebuild                  // StepBuild: the rest of the deck and the bills sent back
	stReshuffle                // StepShuffle: that deck
	stHands                    // StepDeal to a seat: four bills
	stDiscard                  // StepMove: an opening discard
	stPile                     // StepBuild: the opening discards
	stPileShuffle              // StepShuffle: them
	stPileDeal                 // StepDeal face up: them, the discard pile
	stRoundDeal                // StepDeal to a seat: two bills
	stRoundFaceUp              // StepDeal face up: three bills to the discard pile
	stDie                      // StepRandom: the people's die
	stPropose                  // StepMove: the active senator's proposal
	stShowBill                 // StepShow: the proposed bill
	stRespond                  // StepMove (a response): offers, blackmail
	stNegotiate                // StepMove: the active senator amends, blackmails or calls the vote
	stVote                     // StepChoose: the votes
	stToss                     // StepRandom: the presidential token, on a tie
	stSwap                     // StepMove (a response): an absent senator's swap
	stShowSwap                 // StepShow: the bill it gives up
	stShowHand                 // StepShow: the hand of a senator with no bill to propose
	stFinal                    // StepShow: the hands at the end
	stOver
)

// handCard is a bill in a senator's hand as every node knows it: where it was dealt, and the
// bill once it has been shown.
type handCard struct {
	Deck, Pos int  // the position it was dealt from to the senator alone; Deck -1: taken face up
	Bill      Bill // Unknown until shown
}

// turnState is what lasts one turn.
type turnState struct {
	active    int
	die       Die
	proposed  bool
	prop      Proposal
	amends    int // amendments made
	resp      int // responders done in this response round
	offers    [MaxPlayers]int
	pressed   [MaxPlayers]Vote // the blackmail demand on each senator, VoteNone if none
	pressedBy [MaxPlayers]int
	votes     [MaxPlayers]Vote
	swapIdx   int  // the absent senator deciding its swap, by its place clockwise from the active one
	swap      Move // a swap waiting for its bill to be shown
}

// Game is one game of Corruptia: an engine.Game, and the whole rule book. Start it with
// Rules.New or NewGame. Apply judges every input on public information only; what this node
// alone knows (its own bills, through LearnCard) is kept apart and never changes the Digest.
type Game struct {
	n       int
	cfg     Config
	onEvent func(engine.Event)

	stage  stage
	setups int // setups begun: one more each time the playable deck runs out at the start
	first  int // the presidential token: this round's first player (-1 before the draw)
	round  int // 1 to Rounds; 0 during the setup
	turn   int // turns over this round
	count  int // seats dealt, discards made: the progress of a stage

	draw      int    // the deck bills are drawn from
	next, end int    // its next position, and the end of its playable part
	returned  []Bill // starting bills that did not fit, going back into the deck

	program  Program
	hands    [MaxPlayers][]handCard
	opening  [MaxPlayers]handCard // each senator's opening discard, face down
	pile     []Bill
	approval [MaxPlayers]int
	reserve  [MaxPlayers]int
	holds    [MaxPlayers][MaxPlayers]bool // holds[h][t]: h holds an unused blackmail card on t

	t    turnState
	last turnState // the last turn that came to a vote, for views

	learnt [2][NumBills]Bill // private: bills dealt to this node, by draw deck and position
}

// NewGame starts a game of players with configuration c; onEvent, if not nil, is told what
// happens (see Event).
func NewGame(c Config, players int, onEvent func(engine.Event)) (*Game, error) {
	if c.Amendments < 0 { // a table's configuration holds 0 to 9 (EncodeConfig); a script, any bound
		return nil, fmt.Errorf("amendments: %d a turn, want 0 or more", c.Amendments)
	}
	if players < MinPlayers || players > MaxPlayers {
		return nil, fmt.Errorf("players: %d is not between %d and %d", players, MinPlayers, MaxPlayers)
	}
	g := &Game{n: players, cfg: c, onEvent: onEvent, first: -1}
	for s := range g.opening {
		g.opening[s] = handCard{Deck: -1, Pos: -1, Bill: Unknown}
	}
	for s := range players {
		g.reserve[s] = EmployeesEach
		for t := range players {
			g.holds[s][t] = s != t
		}
	}
	for d := range g.learnt {
		for p := range g.learnt[d] {
			g.learnt[d][p] = Unknown
		}
	}
	g.t.die, g.last.die = DieNone, DieNone
	return g, nil
}

// Returned lists the starting bills that did not fit and go back into the deck, until they
// are shuffled into it.
func (g *Game) Returned() []Bill { return slices.Clone(g.returned) }

// Players is the number of senators.
func (g *Game) Players() int { return g.n }

// Config is the game's configuration.
func (g *Game) Config() Config { return g.cfg }

// LearnCard tells this node the bill at pos of deck, dealt to its seat alone. The Digest does
// not change.
func (g *Game) LearnCard(deck, pos, card int) error {
	if deck != g.draw || pos < 0 || pos >= g.next || card < 0 || card >= NumBills {
		return fmt.Errorf("learn: position %d of deck %d (bill %d) was not dealt to a seat alone", pos, deck, card)
	}
	for s := range g.n {
		for _, h := range g.hands[s] {
			if h.Deck == deck && h.Pos == pos {
				g.learnt[deck][pos] = Bill(card)
				return nil
			}
		}
		if o := g.opening[s]; o.Deck == deck && o.Pos == pos && g.stage <= stPileDeal {
			g.learnt[deck][pos] = Bill(card)
			return nil
		}
	}
	return fmt.Errorf("learn: position %d of deck %d is in no hand", pos, deck)
}

// LearnValue accepts this node's own vote, which changes nothing: the game commits no other
// hidden value.
func (g *Game) LearnValue(ref int, value []byte) error {
	if _, err := ParseVote(string(value)); err != nil {
		return fmt.Errorf("learn: ref %d: %w", ref, err)
	}
	return nil
}

// known is the bill of hand card h as this node knows it: shown, or learnt.
func (g *Game) known(h handCard) Bill {
	if h.Bill != Unknown || h.Deck < 0 || h.Deck > 1 {
		return h.Bill
	}
	return g.learnt[h.Deck][h.Pos]
}

// Outcome is the end of the game: every senator's score and the winners; zero before the end.
func (g *Game) Outcome() engine.Outcome {
	if g.stage != stOver {
		return engine.Outcome{}
	}
	scores, approval := g.Scores(), g.approval[:g.n]
	return engine.Outcome{Over: true, Scores: scores, Winners: Winners(scores, approval)}
}

// Scores is each senator's score now, counting the bills of its hand that every node has seen
// (all of them, once the game is over).
func (g *Game) Scores() []int {
	v := g.program.Values()
	out := make([]int, g.n)
	for s := range out {
		out[s] = Score(v, g.approval[s], g.reserve[s], g.publicHand(s))
	}
	return out
}

func (g *Game) publicHand(seat int) []Bill {
	hand := make([]Bill, len(g.hands[seat]))
	for i, h := range g.hands[seat] {
		hand[i] = h.Bill
	}
	return hand
}

// Clone is an independent copy, without the OnEvent callback.
func (g *Game) Clone() engine.Game { return g.clone() }

func (g *Game) clone() *Game {
	c := *g
	c.onEvent = nil
	c.returned = slices.Clone(g.returned)
	c.program = slices.Clone(g.program)
	c.pile = slices.Clone(g.pile)
	for s := range g.hands {
		c.hands[s] = slices.Clone(g.hands[s])
	}
	return &c
}

// Digest is a hash of the public state: everything but what this node learnt privately.
func (g *Game) Digest() [32]byte {
	e := enc{b: make([]byte, 0, 1024)}
	e.b = append(e.b, "corruptia 1"...)
	e.ints(g.n, g.cfg.Amendments, int(g.stage), g.setups, g.first, g.round, g.turn, g.count, g.draw, g.next, g.end, len(g.returned))
	for _, r := range g.returned {
		e.int(int(r))
	}
	e.int(len(g.program))
	for i := range g.program {
		p := &g.program[i]
		e.ints(int(p.Bill), p.At.Row, p.At.Col)
		e.ints(p.Officials[:]...)
		e.ints(p.Employees[:]...)
	}
	for s := range g.n {
		e.ints(g.approval[s], g.reserve[s], len(g.hands[s]), g.opening[s].Deck, g.opening[s].Pos)
		for _, h := range g.hands[s] {
			e.ints(h.Deck, h.Pos, int(h.Bill))
		}
		for t := range g.n {
			e.int(boolInt(g.holds[s][t]))
		}
	}
	e.int(len(g.pile))
	for _, c := range g.pile {
		e.int(int(c))
	}
	e.turn(&g.t)
	e.turn(&g.last)
	return sha256.Sum256(e.b)
}

// enc writes a digest's integers.
type enc struct{ b []byte }

func (e *enc) int(v int) { e.b = binary.AppendVarint(e.b, int64(v)) }

func (e *enc) ints(vs ...int) {
	for _, v := range vs {
		e.int(v)
	}
}

func (e *enc) turn(t *turnState) {
	e.ints(t.active, int(t.die), boolInt(t.proposed), t.amends, t.resp, t.swapIdx)
	e.proposal(t.prop)
	e.ints(int(t.swap.Kind), t.swap.Slot, int(t.swap.Take))
	for s := range MaxPlayers {
		e.ints(t.offers[s], int(t.pressed[s]), t.pressedBy[s], int(t.votes[s]))
	}
}

func (e *enc) proposal(p Proposal) {
	e.ints(p.Slot, int(p.Bill), p.At.Row, p.At.Col)
	for _, w := range p.Workers {
		e.ints(boolInt(w.Employee), w.Income, w.From)
	}
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}
