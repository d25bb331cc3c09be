// Package engine is the contract between a game and the table that plays it.
//
// A table (package protocol) knows a game only through the interfaces here, the way
// hashicorp/raft knows its application only through an FSM: a Game is a deterministic state
// machine that says what it waits for (Due), takes public inputs (Apply), and is told what this
// node alone may see (LearnValue, LearnCard). The table keeps the log, the signatures, the
// clock and the cryptography; the game keeps the rules. A game never calls cryptography: when
// it needs hidden information (a shuffled deck, a card dealt to one seat, a face-down choice, a
// secret vote, a die), it asks for it by data, with a Step, and the table performs it with the
// same code for every game and hands back the result as an Input.
//
// Each game lives in a package of its own (engine/corruption, ...) and registers its Rules
// under an id; the table's genesis names the game and carries its canonical configuration.
//
// Determinism is the game's promise: the same inputs in the same order give the same Digest on
// every node, whatever each node learned privately, and Apply accepts or refuses an input the
// same way on every node: its verdict depends on public inputs only. (The one exception the
// table allows: a seat's own node may refuse that seat's own move for what only it knows, since
// it never signs such a move; every other node then judges the move when it is opened.)
//
// The table's promises to a game:
//   - Refs number the hidden values of a table from 0, increasing, across the whole game, in
//     the order they are committed (a move's values in their order; a choice's in Seats order).
//   - LearnValue and LearnCard come right after the input that committed, dealt or answered
//     the value, before the next input, on a node replaying its log after a restart too.
//   - At a StepChoose the Action is exactly one hidden value and no move; at a StepMove an
//     empty Action (a pass) is allowed only when the step is a response.
//
// The package uses the standard library only.
package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Rules is a game as the table sees it before it starts: how to check a configuration and how
// to start a game. Configurations are canonical bytes, so that nodes compare them byte for
// byte and the genesis pins them.
type Rules interface {
	// ID is the game's id in the registry and the genesis: "corruption".
	ID() string
	// Name is the game's name for people: "Corruption".
	Name() string
	// Players is the range of table sizes the game is played with.
	Players() (min, max int)
	// CheckConfig says what is wrong with a configuration for a table of players, or nil.
	// Decoding is strict: whatever it accepts is the canonical encoding.
	CheckConfig(config []byte, players int) error
	// DescribeConfig is a configuration in words ("free stud, with the little black book").
	DescribeConfig(config []byte) string
	// New starts a game. The configuration has passed CheckConfig.
	New(config []byte, players int, opt Options) (Game, error)
}

// Options are what the table gives a game when it starts it.
type Options struct {
	// OnEvent, if set, is told what happens in the game as it happens, for narration and
	// front ends. It is called from Apply and must not call back into the game.
	OnEvent func(Event)
}

// An Event is something that happened in a game: the game's own typed value (for a board
// that knows the game) and its words (for a log that does not).
type Event struct {
	Text string
	Data any
}

// Game is one game in progress. Apply and the Learn methods are called by one goroutine at a
// time; a Clone may be used by another.
type Game interface {
	// Due says what the game waits for now.
	Due() Step
	// Apply feeds one public input: a seat's move, or the result of a step the table
	// performed. Every node applies the same inputs in the same order. It applies the input
	// whole or not at all; an error that is a *Fault names the seat at fault.
	Apply(in Input) error
	// LearnValue tells this node the hidden value behind ref: its own, or another seat's
	// that a peek's answer showed. LearnCard tells it the card at pos of deck, dealt to this
	// node's seat alone. Neither changes the public state: the Digest stays the same.
	LearnValue(ref int, value []byte) error
	LearnCard(deck, pos, card int) error
	// Digest is a hash of the public state: equal on every node after the same inputs.
	Digest() [32]byte
	// Outcome is the result once Due says the game is over (zero before).
	Outcome() Outcome
	// Clone is an independent copy, without the OnEvent callback.
	Clone() Game
}

// Outcome is how a game ended.
type Outcome struct {
	Over    bool
	Scores  []int // by seat, in the game's unit
	Winners []int // seats, ascending
}

// StepKind is the kind of thing a game waits for.
type StepKind uint8

const (
	// StepOver: the game is over; nothing more is due.
	StepOver StepKind = iota
	// StepMove: Seat decides a move. The move may carry up to Hidden values that the table
	// commits to without showing them (face-down cards); Respond says the move answers
	// another seat's and may be a pass (an empty Action).
	StepMove
	// StepRandom: integers uniform in [0, Ranges[i]) that no seat can bias, drawn jointly by
	// every seat.
	StepRandom
	// StepBuild: the table builds Deck, with no seat acting: the known cards Cards (ids,
	// visible to all) then the cards From of other decks (still hidden), appended to the
	// deck when Keep, else replacing it. Cards taken From a deck stay there too: the game
	// tracks which positions it has used.
	StepBuild
	// StepShuffle: every seat in turn permutes and re-encrypts Deck, with a proof; after it
	// nobody knows the order.
	StepShuffle
	// StepDeal: the cards at Positions of Deck are dealt: face up to all when To < 0, or to
	// seat To alone.
	StepDeal
	// StepShow: Seat shows, with proof, the cards at Positions of Deck that were dealt to it
	// alone.
	StepShow
	// StepOpen: Seat opens its hidden values Refs (in that order), which the game then checks.
	StepOpen
	// StepAnswer: Seat answers seat To's peek at its hidden value Refs[0]: the value, sealed
	// to To alone, which may prove it false. To acts next.
	StepAnswer
	// StepChoose: a simultaneous choice: every seat of Seats, in that order, commits to one
	// hidden value (it decides it, as a move), then each opens it; nobody sees a choice
	// before committing its own.
	StepChoose
	numStepKinds
)

var stepNames = [numStepKinds]string{"over", "move", "random", "build", "shuffle", "deal", "show", "open", "answer", "choose"}

func (k StepKind) String() string { return KindName(stepNames[:], uint8(k), "step") }

// Step is what a game waits for. Which fields count depends on Kind.
type Step struct {
	Kind      StepKind
	Seat      int        // StepMove, StepShow, StepOpen, StepAnswer: the seat that acts
	To        int        // StepDeal: the recipient (-1: face up); StepAnswer: the peeker
	Deck      int        // StepBuild, StepShuffle, StepDeal, StepShow
	Positions []int      // StepDeal, StepShow: positions in Deck (0 is the top)
	Refs      []int      // StepOpen, StepAnswer: hidden values, by ref
	Ranges    []int      // StepRandom
	Seats     []int      // StepChoose
	Cards     []int      // StepBuild: known cards, by id
	From      []DeckCard // StepBuild: hidden cards of other decks
	Keep      bool       // StepBuild: append to the deck instead of replacing it
	Hidden    int        // StepMove: the most hidden values the move may carry
	Respond   bool       // StepMove: a response, which may be a pass
}

// DeckCard names a card by its place: position Pos of deck Deck.
type DeckCard struct{ Deck, Pos int }

// Limits the table holds every game to.
const (
	MaxDecks       = 16
	MaxDeckSize    = 1024 // cards in a deck (and card ids)
	MaxHidden      = 16   // hidden values in one move
	MaxValueSize   = 32   // bytes in a hidden value
	MaxMoveSize    = 1024 // bytes in a move's encoding
	MaxRandomDraws = 4096 // StepRandom steps in a game
)

// InputKind says what an Input carries.
type InputKind uint8

const (
	InMove     InputKind = iota // Seat's Move, whose hidden values got Refs (an empty Move: a pass)
	InRandom                    // Ints, one per range of the StepRandom
	InBuilt                     // Deck was built as asked
	InShuffled                  // Deck was shuffled by every seat
	InDealt                     // Deck's Positions were dealt: Cards (face up) or to seat To (Cards unknown, -1)
	InShown                     // Seat showed Deck's Positions: Cards
	InOpened                    // Seat opened Refs: Values
	InAnswered                  // Seat answered To's peek at Refs[0] (To learns the value privately)
	InChosen                    // every seat of Seats committed (Refs) and opened (Values)
	numInputKinds
)

var inputNames = [numInputKinds]string{"move", "random", "built", "shuffled", "dealt", "shown", "opened", "answered", "chosen"}

func (k InputKind) String() string { return KindName(inputNames[:], uint8(k), "input") }

// Input is one public input to a game. Which fields count depends on Kind; they echo the Step
// they answer.
type Input struct {
	Kind      InputKind
	Seat      int
	To        int
	Move      []byte
	Refs      []int
	Values    [][]byte
	Ints      []int
	Deck      int
	Positions []int
	Cards     []int
	Seats     []int
}

// Fault is a game's refusal of an input, naming the seat whose input broke the rules (-1 when
// no seat's did).
type Fault struct {
	Seat int
	Msg  string
}

func (f *Fault) Error() string { return f.Msg }

// Faultf makes a Fault.
func Faultf(seat int, format string, args ...any) *Fault {
	return &Fault{Seat: seat, Msg: fmt.Sprintf(format, args...)}
}

// Action is a seat's decision at a StepMove (or its choice at a StepChoose): the game's
// encoding of the public part, and the values to commit to, hidden. An empty Action at a
// response is a pass.
type Action struct {
	Move   []byte
	Hidden [][]byte
}

// ChoiceChecker is implemented by a game that can say, before a seat commits, whether a value
// is one it may choose at the StepChoose under way: the table then never signs a choice the
// game would refuse once it is opened.
type ChoiceChecker interface {
	CheckChoice(seat int, value []byte) error
}

// Player decides for one seat. g is a private copy of the game as this node knows it (its own
// hidden values and cards included, nobody else's); Decide may block, as a person thinks, and
// must return when ctx is done.
type Player interface {
	Decide(ctx context.Context, g Game, seat int) (Action, error)
}

// KindName is the name of kind k of a small enumeration (a step, a move, a decision) from its
// names, or what (k) for a kind the names do not hold: "move(12)".
func KindName(names []string, k uint8, what string) string {
	if int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("%s(%d)", what, k)
}

// The registry of games, by id.
var (
	regMu sync.RWMutex
	reg   = map[string]Rules{}
)

// Register makes a game known under its id. It panics on a second game with the same id:
// registration happens in package init functions, where that is a programming error.
func Register(r Rules) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := reg[r.ID()]; dup {
		panic("engine: game " + r.ID() + " registered twice")
	}
	reg[r.ID()] = r
}

// Lookup finds a registered game. Its error names the games this build knows.
func Lookup(id string) (Rules, error) {
	regMu.RLock()
	defer regMu.RUnlock()
	if r, ok := reg[id]; ok {
		return r, nil
	}
	return nil, fmt.Errorf("unknown game %q (this build knows %s)", id, strings.Join(gameIDs(), ", "))
}

// Games lists the ids of the registered games, sorted.
func Games() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	return gameIDs()
}

func gameIDs() []string {
	ids := make([]string, 0, len(reg))
	for id := range reg {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// A StandIn plays a seat whose player left the table for good (an open seat: see the
// protocol's departures). It must be deterministic: every node computes the open seat's
// decisions by itself and they must agree, so it decides from g (a copy of the game that knows
// the public state and the open seats' own hidden values and cards, and nothing of any other
// seat) and seed (the same on every node for one decision) alone. It returns the seat's
// decision at the StepMove or StepChoose that g waits for.
type StandIn func(g Game, seat int, seed uint64) (Action, error)

var (
	standInMu sync.RWMutex
	standIns  = map[string]StandIn{}
)

// Replacer is a game that plays on past hidden values it refused at their opening (a StepOpen
// whose values break its rules): the table convicted the seat that committed them and plays it
// by its stand-in (the protocol's convictions), and asks the game for values to take in their
// place. Replace is asked of a copy of the game that knows what a StandIn's does (the open seats'
// own hidden values and cards), at the StepOpen of seat; it returns one value for each of the
// step's refs, which the game accepts, chosen from the game and seed alone (deterministic, as a
// StandIn), or an error when the seat has none to give. A game without it halts at such a cheat.
type Replacer interface {
	Replace(seat int, seed uint64) ([][]byte, error)
}

// RegisterStandIn makes f the stand-in of the game id (a game's bot package registers one in
// its init function). A table plays on after a departure only for a game that has one. It
// panics on a second stand-in for one game.
func RegisterStandIn(id string, f StandIn) {
	standInMu.Lock()
	defer standInMu.Unlock()
	if _, dup := standIns[id]; dup {
		panic("engine: stand-in for game " + id + " registered twice")
	}
	standIns[id] = f
}

// StandInPlayer is the StandIn that asks a Player made afresh for each decision from its seed:
// newPlayer must give a player whose decisions depend on the game, the seat and the seed alone.
// This project's games use their random bot: not their heuristic bot, which weighs its moves in
// floating point, which Go may compute differently on different processors (it may fuse a
// multiply and an add), where every node must make the very same decision; the random bot uses
// integers only.
func StandInPlayer(newPlayer func(seed uint64) (Player, error)) StandIn {
	return func(g Game, seat int, seed uint64) (Action, error) {
		p, err := newPlayer(seed)
		if err != nil {
			return Action{}, err
		}
		return p.Decide(context.Background(), g, seat)
	}
}

// LookupStandIn is the stand-in of game id, or nil when it has none.
func LookupStandIn(id string) StandIn {
	standInMu.RLock()
	defer standInMu.RUnlock()
	return standIns[id]
}
