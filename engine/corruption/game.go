package corruption

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"

	"corruption/engine"
)

// Corruption on the table kit (package engine). Rules registers the game under "corruption";
// Game is one game at a table: a State started WithHiddenCards, and what the table must do for
// it, step by step:
//
//  1. draw the first player (StepRandom over the seats);
//  2. build the contract deck, contracts 0..23, and shuffle it (StepBuild, StepShuffle);
//  3. each round, deal the next six contracts face up (StepDeal);
//  4. let the seats decide (StepMove): a face-down placement carries its card as the move's one
//     hidden value, its name as ParseCard reads it ("4000", "da");
//  5. after a little-black-book peek, have the peeked card's owner answer the peeker
//     (StepAnswer), who learns the card and then places as usual;
//  6. after the last placement, have each seat open all its face-down cards of the round, in
//     play order (StepOpen), which are then checked: in hand, not played twice, no character
//     on a Swiss account; all of a seat's cards are accepted or none.
//
// A node learns its own face-down cards (LearnValue) as it commits to them, and checks them
// then, so that it never signs an illegal card; its View shows its true hand. What a node learnt
// changes what it accepts only from a seat that cheats in a way the others see later: a seat
// showing face up a card it already placed face down (which Action refuses to make) is refused
// by its own node at once and convicted by the others at its opening; an opening that differs
// from what a peek's answer showed (which the table's proofs rule out) is refused by the peeker.

func init() { engine.Register(Rules{}) }

// Rules is Corruption as the table kit knows it: id "corruption", 3 to 7 players, and the
// configuration EncodeConfig makes. The zero value is ready to use.
type Rules struct{}

func (Rules) ID() string              { return "corruption" }
func (Rules) Name() string            { return "Corruption" }
func (Rules) Players() (min, max int) { return MinPlayers, MaxPlayers }

// CheckConfig says what is wrong with a configuration (see DecodeConfig) or a table size.
func (Rules) CheckConfig(config []byte, players int) error {
	if _, _, err := DecodeConfig(config); err != nil {
		return err
	}
	if players < MinPlayers || players > MaxPlayers {
		return fmt.Errorf("players: %d is not between %d and %d", players, MinPlayers, MaxPlayers)
	}
	return nil
}

// DescribeConfig is a configuration in words: "standard", "free stud, with the little black
// book".
func (Rules) DescribeConfig(config []byte) string {
	v, lbb, err := DecodeConfig(config)
	if err != nil {
		return fmt.Sprintf("invalid (%v)", err)
	}
	s := strings.ReplaceAll(v.String(), "-", " ")
	if lbb {
		s += ", with the little black book"
	}
	return s
}

// New starts a game: a *Game.
func (r Rules) New(config []byte, players int, opt engine.Options) (engine.Game, error) {
	if err := r.CheckConfig(config, players); err != nil {
		return nil, err
	}
	v, lbb, _ := DecodeConfig(config)
	return &Game{players: players, variant: v, lbb: lbb, lastRef: -1, onEvent: opt.OnEvent}, nil
}

// stage is where a Game is before its State takes over.
type stage uint8

const (
	stageFirst   stage = iota // the first player is to be drawn
	stageBuild                // the contract deck is to be built
	stageShuffle              // and shuffled
	stagePlay                 // the State says what comes next
)

// Game is one game of Corruption at a table: an engine.Game. Start it with Rules.New.
type Game struct {
	players int
	variant Variant
	lbb     bool
	stage   stage
	s       *State // nil until the first player is drawn

	refs     [MaxPlays]int  // the hidden value behind each play of this round (-1: face up)
	answered [MaxPlays]bool // a peek at the play was answered
	peek     int            // the card (1-based) of a peek not yet answered, else 0
	lastRef  int            // the last ref committed, -1 before the first

	onEvent func(engine.Event)
}

// State is the game's state as this node knows it, nil before the first player is drawn. It
// is the game's own: read it, do not apply moves to it.
func (g *Game) State() *State { return g.s }

// View is seat's view of the game, for bots and front ends. The game must have started
// (State() is not nil).
func (g *Game) View(seat int) View { return g.s.View(seat) }

// LearnValue tells this node the card behind ref: one of its own face-down cards, which it
// checks and takes out of its hand (State.LearnOwn; an illegal card is an error, and the table
// must then not sign it), or a card a peek's answer showed it (State.Learn). A node learns its
// own cards as it commits to them, before any peek at them can be answered. The Digest does
// not change.
func (g *Game) LearnValue(ref int, value []byte) error {
	i := -1
	for k := 0; g.s != nil && k < g.s.nplays; k++ {
		if g.refs[k] == ref && ref >= 0 {
			i = k
		}
	}
	if i < 0 {
		return fmt.Errorf("learn: ref %d is no face-down card of this round", ref)
	}
	c, err := ParseCard(string(value))
	if err != nil {
		return fmt.Errorf("learn: ref %d (card %d): %v", ref, i+1, err)
	}
	if g.answered[i] && !g.s.plays[i].checked {
		return g.s.Learn(i+1, c)
	}
	return g.s.LearnOwn(i+1, c)
}

// LearnCard is an error: Corruption deals no card to one seat alone.
func (g *Game) LearnCard(deck, pos, card int) error {
	return fmt.Errorf("learn: deck %d position %d: Corruption deals no card privately", deck, pos)
}

// Digest is a hash of the public state: the table's configuration and stage, the refs of this
// round's face-down cards and the peeks answered, and the State's public encoding (see
// State.AppendPublic).
func (g *Game) Digest() [32]byte {
	b := make([]byte, 0, 1024)
	b = append(b, "corruption/kit 1"...)
	b = append(b, byte(g.stage), byte(g.players), byte(g.variant), boolByte(g.lbb))
	if g.s != nil {
		b = append(b, byte(g.peek))
		b = binary.AppendVarint(b, int64(g.lastRef))
		for i := 0; i < g.s.nplays; i++ {
			b = binary.AppendVarint(b, int64(g.refs[i]))
			b = append(b, boolByte(g.answered[i]))
		}
		b = g.s.AppendPublic(b)
	}
	return sha256.Sum256(b)
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// Outcome is the end of the game: every seat's total value of contracts won, in dollars, and
// the winners. It is zero before the end.
func (g *Game) Outcome() engine.Outcome {
	if g.s == nil || !g.s.Over() {
		return engine.Outcome{}
	}
	scores := make([]int, g.players)
	for seat := range scores {
		scores[seat], _ = g.s.Score(seat)
	}
	return engine.Outcome{Over: true, Scores: scores, Winners: g.s.Winners()}
}

// Clone is an independent copy, without the OnEvent callback.
func (g *Game) Clone() engine.Game {
	c := *g
	c.onEvent = nil
	if g.s != nil {
		c.s = g.s.Clone()
		c.s.OnEvent = nil
	}
	return &c
}

// Action is seat m.Seat's engine.Action for the move m, due now: its encoding, and for a
// face-down placement the card as the hidden value. The move is first tried on a copy of this
// node's state, which knows the seat's own cards, so that a node never signs an illegal move.
func (g *Game) Action(m Move) (engine.Action, error) {
	st := g.Due()
	if st.Kind != engine.StepMove {
		what := "nothing (the game is over)"
		if _, ok := inputFor[st.Kind]; ok {
			what = g.waits(st)
		}
		return engine.Action{}, fmt.Errorf("action: the game waits for %s, not a move", what)
	}
	if m.Seat != st.Seat {
		return engine.Action{}, fmt.Errorf("action: seat %d cannot move: the game waits for %s", m.Seat, g.waits(st))
	}
	if _, err := EncodeMove(m); err != nil {
		return engine.Action{}, fmt.Errorf("action: %w", err)
	}
	faceDown := m.Kind == MovePlace && (m.Spot.IsSwiss() || !g.s.NextFaceUp(m.Seat))
	if faceDown && m.Card == CardUnknown {
		return engine.Action{}, fmt.Errorf("action: seat %d must name the card it places face down", m.Seat)
	}
	t := g.s.Clone()
	t.OnEvent = nil
	if err := t.Apply(m); err != nil {
		return engine.Action{}, fmt.Errorf("action: %w", err)
	}
	var a engine.Action
	if faceDown {
		a.Hidden = [][]byte{[]byte(m.Card.String())}
		m.Card = CardUnknown
	}
	a.Move, _ = EncodeMove(m)
	return a, nil
}
