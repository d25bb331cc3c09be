package kingdoms

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"

	"corruption/engine"
)

func init() { engine.Register(Rules{}) }

// Rules is Corrupted Kingdoms as the table kit knows it: id "kingdoms", 2 to 6 players, and the
// configuration EncodeConfig makes. The zero value is ready to use.
type Rules struct{}

func (Rules) ID() string              { return "kingdoms" }
func (Rules) Name() string            { return "Corrupted Kingdoms" }
func (Rules) Players() (min, max int) { return MinPlayers, MaxPlayers }

// CheckConfig says what is wrong with a configuration (see DecodeConfig) for a table size.
func (Rules) CheckConfig(config []byte, players int) error {
	c, err := DecodeConfig(config)
	if err != nil {
		return err
	}
	return c.Check(players)
}

// DescribeConfig is a configuration in words: "the advanced rules (bill bonuses and chaos cards)".
func (Rules) DescribeConfig(config []byte) string {
	c, err := DecodeConfig(config)
	if err != nil {
		return fmt.Sprintf("invalid (%v)", err)
	}
	return c.Words()
}

// New starts a game: a *Game.
func (r Rules) New(config []byte, players int, opt engine.Options) (engine.Game, error) {
	if err := r.CheckConfig(config, players); err != nil {
		return nil, err
	}
	c, _ := DecodeConfig(config)
	return NewGame(c, players, opt.OnEvent), nil
}

// Decks the game asks the table for: one per favor type (to choose the favors in play), the
// favor deck, the guilty pleasure deck, the shareholder deck, and one chaos deck per seat.
const (
	deckFavors      = int(NumFavorTypes) // decks 0..4: the favors of each type
	deckPleasures   = deckFavors + 1
	deckShareholder = deckPleasures + 1
	deckChaos       = deckShareholder + 1 // + seat
)

// SupplyPerMinion is how many minions of each type the game has (80 in all).
const SupplyPerMinion = 20

// MaxRounds bounds a game: when the last player of round MaxRounds has played, the game ends as
// if a deck ran out. The sheet needs no such rule; a table does, so that no game runs forever.
const MaxRounds = 60

// Game is one game of Corrupted Kingdoms at a table: an engine.Game. Its public state is the
// same on every node; what this node alone learnt (its shareholder cards, its chaos hand and
// discard) is kept apart and never enters the Digest or a judgement of Apply.
type Game struct {
	n       int
	cfg     Config
	steps   []engine.Step // the setup, step by step, once the corporations are drawn (read-only)
	p       pub
	k       knowledge
	onEvent func(engine.Event)

	recording bool    // Apply is under way and events are kept for onEvent
	events    []Event // the events of the input being applied
}

// NewGame starts a game of players with config c (which must pass c.Check); onEvent, if not
// nil, is told every event.
func NewGame(c Config, players int, onEvent func(engine.Event)) *Game {
	g := &Game{n: players, cfg: c, onEvent: onEvent}
	g.p.init()
	g.k.init()
	g.steps = []engine.Step{g.drawStep()}
	return g
}

// pub is the public state: everything in it is hashed by Digest.
type pub struct {
	stage   int16 // setup steps done (the setup is over when it reaches len(steps))
	corp    [MaxPlayers]int8
	first   int8
	turn    int8 // the seat whose turn it is
	actions int8 // actions left in its turn
	round   int16
	ending  EndReason // why the game is ending, once it is
	final   bool      // final voting has begun
	over    bool

	favorNext, favorLen int8 // the favor deck: the next position to draw, the cards in it
	market              [MaxPlayers]int8
	seen                uint64 // favors dealt to the market so far
	discards            uint64 // the favor discard pile
	bills               [NumBills][]onBill
	piles               [MaxPlayers]uint64 // score piles

	gpNext, gpLen int16 // the guilty pleasure deck
	display       [MaxPlayers]int8
	owned         [MaxPlayers]uint32

	minions [MaxPlayers][NumMinions]int8
	supply  [NumMinions]int8
	control [NumLeaders]int8 // each leader's controller, -1
	monarch [3]int8

	shown [MaxPlayers][2]int8 // shareholder cards shown at the end, -1 before
	hands [MaxPlayers]hand

	tasks   []task
	vote    vote
	claim   Move // the chaos card being played (Kind MoveNone when none)
	steal   steal
	lastRef int32
}

// onBill is a favor under a bill, with its owner's marker.
type onBill struct{ favor, seat int8 }

// hand is the public side of a seat's chaos cards: what it played from which position, and its
// face-down discard.
type hand struct {
	played     [4]int8 // the card played from each position of its chaos deck, -1
	plays      int8
	discardRef int32 // the ref of its face-down discard, -1 before it is made
	discardPos int8  // the discarded position, once opened (at its first play), else -1
}

// steal is a steal declared and not yet resolved: the victim may answer it with a chaos card.
type steal struct {
	active         bool
	thief, victim  int8
	leader         int8
	failed, byCoup bool
}

func (p *pub) init() {
	p.first, p.turn = -1, -1
	for i := range p.corp {
		p.corp[i], p.market[i], p.display[i] = -1, -1, -1
		p.shown[i] = [2]int8{-1, -1}
		p.hands[i] = hand{played: [4]int8{-1, -1, -1, -1}, discardRef: -1, discardPos: -1}
	}
	for i := range p.control {
		p.control[i] = -1
	}
	p.monarch = [3]int8{-1, -1, -1}
	p.vote.bill = -1
	p.lastRef = -1
	for m := range p.supply {
		p.supply[m] = SupplyPerMinion
	}
}

// knowledge is what this node learnt privately: never hashed, never judged on.
type knowledge struct {
	shares  [MaxPlayers][2]int8 // the shareholder cards dealt to each seat, -1 unknown
	chaos   [MaxPlayers][4]int8 // the chaos card at each dealt position, -1 unknown
	discard [MaxPlayers]int8    // the position each seat discarded, -1 unknown
}

func (k *knowledge) init() {
	for s := range MaxPlayers {
		k.shares[s] = [2]int8{-1, -1}
		k.chaos[s] = [4]int8{-1, -1, -1, -1}
		k.discard[s] = -1
	}
}

// Clone is an independent copy, without the OnEvent callback.
func (g *Game) Clone() engine.Game { return g.clone() }

func (g *Game) clone() *Game {
	c := *g
	c.onEvent = nil
	for b := range c.p.bills {
		c.p.bills[b] = slices.Clone(g.p.bills[b])
	}
	c.p.tasks = slices.Clone(g.p.tasks)
	return &c
}

// Players is the number of seats; Config the rules played.
func (g *Game) Players() int   { return g.n }
func (g *Game) Config() Config { return g.cfg }

// Digest is a hash of the public state.
func (g *Game) Digest() [32]byte {
	var buf [640]byte
	return sha256.Sum256(g.appendPublic(buf[:0]))
}

func (g *Game) appendPublic(b []byte) []byte {
	p := &g.p
	b = append(b, "kingdoms 1"...)
	b = append(b, byte(g.n), EncodeConfig(g.cfg)[0])
	b = binary.AppendVarint(b, int64(p.stage))
	b = appendI8s(b, p.corp[:])
	b = append(b, byte(p.first), byte(p.turn), byte(p.actions), byte(p.ending), bit(p.final), bit(p.over))
	b = binary.AppendVarint(b, int64(p.round))
	b = append(b, byte(p.favorNext), byte(p.favorLen))
	b = appendI8s(b, p.market[:])
	b = binary.LittleEndian.AppendUint64(b, p.seen)
	b = binary.LittleEndian.AppendUint64(b, p.discards)
	for _, bill := range p.bills {
		b = append(b, byte(len(bill)))
		for _, f := range bill {
			b = append(b, byte(f.favor), byte(f.seat))
		}
	}
	for _, pile := range p.piles {
		b = binary.LittleEndian.AppendUint64(b, pile)
	}
	b = binary.AppendVarint(b, int64(p.gpNext))
	b = binary.AppendVarint(b, int64(p.gpLen))
	b = appendI8s(b, p.display[:])
	for s := range p.owned {
		b = binary.LittleEndian.AppendUint32(b, p.owned[s])
		b = appendI8s(b, p.minions[s][:])
		b = appendI8s(b, p.shown[s][:])
		h := &p.hands[s]
		b = appendI8s(b, h.played[:])
		b = append(b, byte(h.plays), byte(h.discardPos))
		b = binary.AppendVarint(b, int64(h.discardRef))
	}
	b = appendI8s(b, p.supply[:])
	b = appendI8s(b, p.control[:])
	b = appendI8s(b, p.monarch[:])
	b = append(b, byte(len(p.tasks)))
	for _, t := range p.tasks {
		b = append(b, byte(t.kind), byte(t.a), byte(t.b))
	}
	b = p.vote.append(b)
	if p.claim.Kind != MoveNone {
		enc, _ := EncodeMove(p.claim)
		b = append(b, byte(p.claim.Seat), byte(len(enc)))
		b = append(b, enc...)
	}
	st := &p.steal
	b = append(b, bit(st.active), byte(st.thief), byte(st.victim), byte(st.leader), bit(st.failed), bit(st.byCoup))
	return binary.AppendVarint(b, int64(p.lastRef))
}

func appendI8s[T ~int8 | ~uint8](b []byte, s []T) []byte {
	for _, v := range s {
		b = append(b, byte(v))
	}
	return b
}

func bit(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// LearnValue tells this node the hidden value behind ref: a seat's face-down chaos discard (the
// position it discarded, one byte), which its own node learns as it commits to it. It is an
// error for any other ref or an impossible position, so that a node never signs such a discard.
// The Digest does not change.
func (g *Game) LearnValue(ref int, value []byte) error {
	for s := range g.n {
		if h := &g.p.hands[s]; h.discardRef >= 0 && int(h.discardRef) == ref {
			pos, err := g.discardPos(value)
			if err != nil {
				return fmt.Errorf("learn: ref %d (seat %d's chaos discard): %v", ref, s, err)
			}
			g.k.discard[s] = int8(pos)
			return nil
		}
	}
	return fmt.Errorf("learn: ref %d is no chaos discard", ref)
}

// discardPos reads a discard's hidden value: one byte, a position dealt to the seat.
func (g *Game) discardPos(v []byte) (int, error) {
	if len(v) != 1 || int(v[0]) >= ChaosDrawn(g.n) {
		return 0, fmt.Errorf("a discard is one byte, a position 0 to %d, not %q", ChaosDrawn(g.n)-1, v)
	}
	return int(v[0]), nil
}

// LearnCard tells this node a card dealt to one seat alone: a shareholder card or a chaos card.
// The game knows which seat it was dealt to (the deal was public).
func (g *Game) LearnCard(deck, pos, card int) error {
	switch {
	case deck == deckShareholder:
		c := ShareholderCards(g.n)
		seat := pos / c
		if pos < 0 || seat >= g.n || card < 0 || card >= NumShareholders || g.p.stage < g.dealtAt(deck, seat) {
			return fmt.Errorf("learn: shareholder deck position %d (card %d) was not dealt", pos, card)
		}
		g.k.shares[seat][pos%c] = int8(card)
		return nil
	case deck >= deckChaos && deck < deckChaos+g.n:
		seat := deck - deckChaos
		corp := int(g.p.corp[seat])
		if pos < 0 || pos >= ChaosDrawn(g.n) || card < 0 || card >= NumChaos || chaosCards[card].Corp != corp ||
			g.p.stage < g.dealtAt(deck, seat) {
			return fmt.Errorf("learn: chaos deck %d position %d (card %d) was not dealt to seat %d", deck, pos, card, seat)
		}
		g.k.chaos[seat][pos] = int8(card)
		return nil
	}
	return fmt.Errorf("learn: deck %d position %d: no card of it is dealt privately", deck, pos)
}
