package corruption

import "fmt"

// Phase is the part of a round the game is in.
type Phase uint8

const (
	PhaseDeal       Phase = iota // the round's six contracts are to be dealt
	PhaseFaceUp                  // free stud: the first player is choosing the face-up positions
	PhaseCorruption              // players place their cards in turn
	PhaseReveal                  // face-down cards are being revealed (hidden-card games only)
	PhaseAwarding                // the five awarding steps
	PhaseOver                    // the game has ended
)

var phaseNames = [...]string{"deal", "face-up choice", "corruption", "reveal", "awarding", "over"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("phase(%d)", uint8(p))
}

// Play is one card placed this round, in global play order.
type Play struct {
	Seat   int
	Card   Card // CardUnknown while this state has not been told the card
	Spot   Spot
	Pos    int  // 1..6: its place in its owner's sequence this round
	FaceUp bool // placed face up: its card is public from the start
	// Revealed is set once the card is public: at placement when face up, at the reveal otherwise.
	Revealed bool
	// PeekedBy is the set of seats (bit s for seat s) that spent a little-black-book peek on it.
	PeekedBy uint8
	// Awarding marks.
	Assigned   Contract // a Swiss bribe's contract, once assigned (valid when IsAssigned)
	IsAssigned bool
	Dead       bool // a character killed by a hit man
	Removed    bool // a bribe removed by a reporter
	checked    bool // the card has passed the in-hand checks
}

// Contract status.
const (
	inDeck uint8 = iota
	onTable
	won
)

type contractState struct {
	status   uint8
	body     Body
	deferred bool // passed over by at least one awarding phase
	// per round
	cancelled bool
	winner    int8  // seat, when won
	wonOrder  uint8 // 1 + order of the award among all awards of the game
}

type hand struct {
	bribesUsed uint8    // bit per bribe placed this round (cards known to this state)
	chars      [3]uint8 // DA, reporters and hit men left (cards known to this state)
	charsStart [3]uint8 // characters left when the round began (public)
	placed     uint8    // cards placed this round
	peeks      uint8    // little-black-book peeks left
	score      int      // total value of contracts won
	won        uint8    // number of contracts won
}

// MaxPlays is the most cards placed in a round (seven players, six cards each).
const MaxPlays = MaxPlayers * CardsPerRound

// State is one game of Corruption. The zero value is not usable: start games with New or
// NewHidden. States are plain values: Clone copies one.
type State struct {
	cfg    Config
	hidden bool // face-down cards may be unknown until revealed

	round      int // 1..4
	phase      Phase
	first      int                    // this round's first player
	faceUp     Positions              // this round's face-up positions
	dealt      int                    // contracts dealt so far
	dealOrder  [NumContracts]Contract // the contracts dealt so far, in deal order
	awards     int                    // contracts won so far
	peekedTurn bool                   // the player to place has already peeked this turn

	contracts [NumContracts]contractState
	hands     [MaxPlayers]hand
	plays     [MaxPlays]Play
	nplays    int

	step   int // awarding step 1..5
	cursor int // awarding: index of the next play to consider in this step

	// OnEvent, when set, is told what happens as it happens (for logs and front ends). It must
	// not call back into the state.
	OnEvent func(Event)
}

// Option adjusts a new game.
type Option func(*State)

// WithHiddenCards starts a game in which face-down cards may be placed as CardUnknown and are
// revealed by Reveal moves after the last placement (the network game). Every face-down card
// must then be revealed, known or not. Without it, every placement must name its card.
func WithHiddenCards() Option { return func(s *State) { s.hidden = true } }

// WithEvents has fn told everything that happens, from the first deal on (see State.OnEvent).
func WithEvents(fn func(Event)) Option { return func(s *State) { s.OnEvent = fn } }

// New starts a game.
func New(cfg Config, opts ...Option) (*State, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Deck != nil {
		cfg.Deck = append([]Contract(nil), cfg.Deck...)
	}
	s := &State{cfg: cfg, round: 1, first: cfg.First}
	for _, o := range opts {
		o(s)
	}
	for i := 0; i < cfg.Players; i++ {
		h := &s.hands[i]
		if cfg.Variant != Closed {
			h.chars = [3]uint8{1, 2, 1}
		}
		h.charsStart = h.chars
		if cfg.LittleBlackBook {
			h.peeks = PeeksPerGame
		}
	}
	s.advance()
	return s, nil
}

// Clone returns an independent copy of the state (OnEvent included).
func (s *State) Clone() *State {
	c := *s
	return &c
}

// Config is the game's configuration.
func (s *State) Config() Config { return s.cfg }

// Hidden reports whether the state was started by NewHidden.
func (s *State) Hidden() bool { return s.hidden }

// Round is the current round, 1..4 (4 once the game is over).
func (s *State) Round() int { return s.round }

// Phase is the current phase.
func (s *State) Phase() Phase { return s.phase }

// First is this round's first player.
func (s *State) First() int { return s.first }

// FaceUp is this round's face-up positions (for free stud, once chosen).
func (s *State) FaceUp() Positions { return s.faceUp }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.phase == PhaseOver }

// NumPlays is the number of cards placed so far this round.
func (s *State) NumPlays() int { return s.nplays }

// Score is the total value of the contracts seat has won, and how many.
func (s *State) Score(seat int) (value, contracts int) {
	if seat < 0 || seat >= s.cfg.Players {
		return 0, 0
	}
	return s.hands[seat].score, int(s.hands[seat].won)
}

// Won lists the contracts seat has won, in the order it won them.
func (s *State) Won(seat int) []Contract {
	var out []Contract
	for o := 1; o <= s.awards; o++ {
		for c := range s.contracts {
			cs := &s.contracts[c]
			if cs.status == won && int(cs.wonOrder) == o && int(cs.winner) == seat {
				out = append(out, Contract(c))
			}
		}
	}
	return out
}

// Table lists the contracts on the table, left to right: by body, then in the order dealt
// (so deferred contracts come before new ones).
func (s *State) Table() []Contract {
	var buf [NumContracts]Contract
	return append([]Contract(nil), s.table(buf[:0])...)
}

func (s *State) table(buf []Contract) []Contract {
	for b := Body(0); b < NumBodies; b++ {
		for _, c := range s.dealOrder[:s.dealt] {
			if cs := &s.contracts[c]; cs.status == onTable && cs.body == b {
				buf = append(buf, c)
			}
		}
	}
	return buf
}

// ContractBody is the body a dealt contract lies under (City for a contract not dealt).
func (s *State) ContractBody(c Contract) Body {
	if int(c) >= NumContracts {
		return City
	}
	return s.contracts[c].body
}

// OnTable reports whether contract c is on the table, open for bribes.
func (s *State) OnTable(c Contract) bool {
	return int(c) < NumContracts && s.contracts[c].status == onTable
}

// Deferred reports whether contract c is on the table after an awarding phase passed it over.
func (s *State) Deferred(c Contract) bool {
	return s.OnTable(c) && s.contracts[c].deferred
}

// Cancelled reports whether contract c was cancelled by a district attorney in this round's
// awarding phase.
func (s *State) Cancelled(c Contract) bool {
	return int(c) < NumContracts && s.contracts[c].cancelled
}

// Winner is the seat that won contract c, or -1.
func (s *State) Winner(c Contract) int {
	if int(c) < NumContracts && s.contracts[c].status == won {
		return int(s.contracts[c].winner)
	}
	return -1
}

// Winners lists the seats that won the game (several on a tie); empty until the game is over.
func (s *State) Winners() []int {
	if s.phase != PhaseOver {
		return []int{}
	}
	best, most := -1, -1
	var out []int
	for seat := 0; seat < s.cfg.Players; seat++ {
		h := &s.hands[seat]
		switch {
		case h.score > best || (h.score == best && int(h.won) > most):
			best, most = h.score, int(h.won)
			out = append(out[:0], seat)
		case h.score == best && int(h.won) == most:
			out = append(out, seat)
		}
	}
	return out
}

// PlayAt returns the card placed at 1-based index i in this round's global play order, as this
// state knows it (the Card may be CardUnknown in a hidden-card game).
func (s *State) PlayAt(i int) (Play, bool) {
	if i < 1 || i > s.nplays {
		return Play{}, false
	}
	return s.plays[i-1], true
}

// turnSeat is the seat whose turn it is to place, during the corruption phase.
func (s *State) turnSeat() int { return (s.first + s.nplays) % s.cfg.Players }

// Learn tells the state the card behind a face-down play that this node has learnt privately
// (the answer to its own little-black-book peek, checked against its commitment). It changes
// nothing public: the Digest is the same before and after.
func (s *State) Learn(index int, card Card) error {
	if index < 1 || index > s.nplays {
		return fmt.Errorf("learn: there is no card %d this round", index)
	}
	if card == CardUnknown || card >= numCards {
		return fmt.Errorf("learn: card %d: not a card", index)
	}
	p := &s.plays[index-1]
	if p.Card != CardUnknown && p.Card != card {
		return fmt.Errorf("learn: card %d is already known as %s, not %s", index, p.Card, card)
	}
	p.Card = card
	return nil
}

// LearnOwn tells the state the card behind one of this node's own face-down plays (index is
// 1-based, this round's play order), as the node commits to it. The card is checked as a
// placement would check it (in its owner's hand, not played twice this round, no character on
// a Swiss account) and taken out of the owner's hand, so that the owner's View shows its true
// hand; at the reveal it is then only compared. Learning the same card again does nothing. It
// changes nothing public: the Digest is the same before and after.
func (s *State) LearnOwn(index int, card Card) error {
	if index < 1 || index > s.nplays {
		return fmt.Errorf("learn: there is no card %d this round", index)
	}
	if card == CardUnknown || card >= numCards {
		return fmt.Errorf("learn: card %d: not a card", index)
	}
	p := &s.plays[index-1]
	switch {
	case p.checked && p.Card == card:
		return nil
	case p.checked || p.Card != CardUnknown:
		return fmt.Errorf("learn: card %d is already known as %s, not %s", index, p.Card, card)
	}
	if e := s.checkInHand(p.Seat, card, p.Spot); e != nil {
		return fmt.Errorf("learn: card %d: %s", index, e.Msg)
	}
	s.useCard(p.Seat, card)
	p.Card, p.checked = card, true
	return nil
}
