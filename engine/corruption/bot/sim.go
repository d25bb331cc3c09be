package bot

import (
	"fmt"
	"math/rand/v2"

	"corruption/engine/botkit"
	"corruption/engine/corruption"
)

// SimConfig describes a batch of engine-only games among bots.
type SimConfig struct {
	Games   int
	Players int
	Variant corruption.Variant
	LBB     bool
	// Bots are the bot kinds, dealt to seats in turn: with ["heuristic","random"] and 4
	// players, seats 0 and 2 are heuristic. The seating rotates by one seat every game so that
	// every kind plays from every seat.
	Bots []string
	// Think is a strong bot's budget, in playouts a decision (0: ThinkSimulate).
	Think int
	Seed  uint64
	// Show, when set, is given game 0's events as they happen.
	Show func(corruption.Event)
	// ShowMove, when set, is given game 0's moves as they are applied.
	ShowMove func(corruption.Move)
	// Attach, when set, is given game 0's state when it is created.
	Attach func(*corruption.State)
}

// Tally is the record of one bot kind or one seat.
type Tally = botkit.Tally

// SimResult is what a batch of games gave.
type SimResult struct {
	Games         int     `json:"games"`
	Players       int     `json:"players"`
	Variant       string  `json:"variant"`
	LBB           bool    `json:"little_black_book"`
	botkit.Totals         // seed, by bot kind, by seat
	Seconds       float64 `json:"seconds"`
	GamesPerSec   float64 `json:"games_per_second"`
}

// GameConfig is the configuration of game g of a batch seeded with seed: a shuffled deck and
// a random first player.
func GameConfig(players int, variant corruption.Variant, lbb bool, seed uint64, g int) corruption.Config {
	rng := rand.New(rand.NewPCG(seed, uint64(g)))
	deck := make([]corruption.Contract, corruption.NumContracts)
	for i, j := range rng.Perm(corruption.NumContracts) {
		deck[i] = corruption.Contract(j)
	}
	return corruption.Config{Players: players, Variant: variant, LittleBlackBook: lbb, Deck: deck, First: rng.IntN(players)}
}

// Simulate plays the batch over the machine's cores (botkit.Batch.Run); as each game's deck, first player
// and bots come from the seed and the game's number alone, the results are the same on any
// machine.
func Simulate(sc SimConfig) (*SimResult, error) {
	b := sc.batch()
	if err := b.Check(); err != nil {
		return nil, err
	}
	if err := (&corruption.Config{Players: sc.Players, Variant: sc.Variant, LittleBlackBook: sc.LBB}).Validate(); err != nil {
		return nil, err
	}
	type outcome struct {
		scores [corruption.MaxPlayers]int
		wins   []float64
		err    error
	}
	outcomes := make([]outcome, sc.Games)
	res := &SimResult{Games: sc.Games, Players: sc.Players, Variant: sc.Variant.String(), LBB: sc.LBB,
		Totals: botkit.NewTotals(sc.Seed, sc.Players)}
	res.Seconds, res.GamesPerSec = b.Run(func(g int) {
		o := &outcomes[g]
		s, err := sc.play(b, g, sc.shown(g))
		if err != nil {
			o.err = err
			return
		}
		for seat := range sc.Players {
			o.scores[seat], _ = s.Score(seat)
		}
		o.wins = botkit.Shares(sc.Players, s.Winners())
	})
	for g, o := range outcomes {
		if o.err != nil {
			return nil, fmt.Errorf("game %d: %w", g, o.err)
		}
		for seat := range sc.Players {
			res.Add(b.Kind(g, seat), seat, o.scores[seat], o.wins[seat])
		}
	}
	return res, nil
}

// batch is the simulation's bots and seeds, as the kit deals them.
func (sc *SimConfig) batch() *botkit.Batch[Bot] {
	return &botkit.Batch[Bot]{Kinds: kinds, Games: sc.Games, Players: sc.Players, Bots: sc.Bots, Think: sc.Think, Seed: sc.Seed}
}

// GameBots are game g's bots, fresh, one a seat, as Simulate seats them: with them and the
// game's setup, bot.Play plays game g of the batch again, move for move (to record it).
func (sc SimConfig) GameBots(g int) ([]Bot, error) { return sc.batch().GameBots(g) }

// Again plays game g of the batch again, as Simulate played it, telling record each move (to
// write it down as a script).
func (sc SimConfig) Again(g int, record func(corruption.Move)) error {
	_, err := sc.play(sc.batch(), g, record)
	return err
}

// shown is what is told of game g's moves: ShowMove, of game 0.
func (sc *SimConfig) shown(g int) func(corruption.Move) {
	if g == 0 {
		return sc.ShowMove
	}
	return nil
}

// play plays game g with fresh bots, telling record each move.
func (sc *SimConfig) play(b *botkit.Batch[Bot], g int, record func(corruption.Move)) (*corruption.State, error) {
	cfg := GameConfig(sc.Players, sc.Variant, sc.LBB, sc.Seed, g)
	bots, err := b.GameBots(g)
	if err != nil {
		return nil, err
	}
	var opts []corruption.Option
	if g == 0 {
		if sc.Attach != nil {
			opts = append(opts, corruption.Option(sc.Attach))
		}
		if sc.Show != nil {
			opts = append(opts, corruption.WithEvents(sc.Show))
		}
	}
	s, err := corruption.New(cfg, opts...)
	if err != nil {
		return nil, err
	}
	return s, Play(s, bots, record)
}
