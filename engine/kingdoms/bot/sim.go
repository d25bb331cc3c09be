package bot

import (
	"fmt"
	"math/rand/v2"

	"corruption/engine"
	"corruption/engine/botkit"
	"corruption/engine/kingdoms"
)

// SimConfig describes a batch of games among bots, played in memory (kingdoms.Local).
type SimConfig struct {
	Games   int
	Players int
	Rules   kingdoms.Config
	// Bots are the bot kinds, dealt to seats in turn: with ["heuristic","random"] and 4 players,
	// seats 0 and 2 are heuristic. The seating rotates by one seat every game so that every
	// kind plays from every seat.
	Bots []string
	// Think is a strong bot's budget, in playouts a decision (0: ThinkSimulate).
	Think int
	Seed  uint64
	// Show, when set, is given game 0's events as they happen.
	Show func(kingdoms.Event)
}

// Tally is the record of one bot kind, seat, place in turn order or corporation.
type Tally = botkit.Tally

// SimResult is what a batch of games gave.
type SimResult struct {
	Games         int              `json:"games"`
	Players       int              `json:"players"`
	Rules         string           `json:"rules"`
	botkit.Totals                  // seed, by bot kind, by seat
	ByPosition    []Tally          `json:"by_position"` // by place in turn order: 0 is the starting player
	ByCorp        map[string]Tally `json:"by_corporation"`
	MeanRounds    float64          `json:"mean_rounds"`
	Seconds       float64          `json:"seconds"`
	GamesPerSec   float64          `json:"games_per_second"`
	config        kingdoms.Config  // the rules played, for Report's words
}

// Simulate plays the batch over the machine's cores (botkit.Batch.Run); as each game's setup
// and bots come from the seed and the game's number alone, the results are the same on any
// machine.
func Simulate(sc SimConfig) (*SimResult, error) {
	b := sc.batch()
	if err := b.Check(); err != nil {
		return nil, err
	}
	if err := sc.Rules.Check(sc.Players); err != nil {
		return nil, err
	}
	type outcome struct {
		scores []kingdoms.Score
		wins   []float64
		corps  []int
		first  int
		rounds int
		err    error
	}
	outcomes := make([]outcome, sc.Games)
	res := &SimResult{Games: sc.Games, Players: sc.Players, Rules: sc.Rules.String(), config: sc.Rules,
		Totals: botkit.NewTotals(sc.Seed, sc.Players), ByPosition: make([]Tally, sc.Players),
		ByCorp: map[string]Tally{}}
	res.Seconds, res.GamesPerSec = b.Run(func(g int) {
		o := &outcomes[g]
		game, err := sc.play(b, g, nil)
		if err != nil {
			o.err = fmt.Errorf("game %d: %w", g, err)
			return
		}
		v := game.View(-1)
		o.scores, o.corps, o.first, o.rounds = v.Scores, v.Corporations, v.First, v.Round
		o.wins = botkit.Shares(sc.Players, game.Outcome().Winners)
	})
	for g, o := range outcomes {
		if o.err != nil {
			return nil, o.err
		}
		res.MeanRounds += float64(o.rounds) / float64(sc.Games)
		for seat := range sc.Players {
			total, win := o.scores[seat].Total, o.wins[seat]
			res.Add(b.Kind(g, seat), seat, total, win)
			res.ByPosition[(seat-o.first+sc.Players)%sc.Players].Add(total, win)
			corp := kingdoms.Corporations()[o.corps[seat]].ID
			t := res.ByCorp[corp]
			t.Add(total, win)
			res.ByCorp[corp] = t
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

// GameSetup is the setup of game g of a batch seeded with seed.
func GameSetup(c kingdoms.Config, players int, seed uint64, g int) kingdoms.Setup {
	return kingdoms.RandomSetup(c, players, rand.New(rand.NewPCG(seed, uint64(g))))
}

// Again plays game g of the batch again, as Simulate played it, telling record each move (to
// write it down as a script).
func (sc SimConfig) Again(g int, record func(kingdoms.Move)) error {
	_, err := sc.play(sc.batch(), g, record)
	return err
}

// play plays game g to the end, telling record each move.
func (sc *SimConfig) play(b *botkit.Batch[Bot], g int, record func(kingdoms.Move)) (*kingdoms.Game, error) {
	bots, err := b.GameBots(g)
	if err != nil {
		return nil, err
	}
	var onEvent func(engine.Event)
	if g == 0 && sc.Show != nil {
		onEvent = func(e engine.Event) { sc.Show(e.Data.(kingdoms.Event)) }
	}
	l, err := kingdoms.NewLocal(sc.Rules, sc.Players, GameSetup(sc.Rules, sc.Players, sc.Seed, g), onEvent)
	if err != nil {
		return nil, err
	}
	return l.Game(), Play(l, bots, record)
}

// Play plays a local game to the end with one bot per seat; record, when not nil, is told
// every move that was made.
func Play(l *kingdoms.Local, bots []Bot, record func(kingdoms.Move)) error {
	if len(bots) != l.Game().Players() {
		return fmt.Errorf("play: %d bots for %d seats", len(bots), l.Game().Players())
	}
	for {
		d, err := l.Next()
		if err != nil {
			return err
		}
		switch d.Kind {
		case kingdoms.DecideNothing:
			return nil
		default:
			if err := play(l, bots[d.Seat], d.Seat, record); err != nil {
				return err
			}
		}
	}
}

func play(l *kingdoms.Local, b Bot, seat int, record func(kingdoms.Move)) error {
	m := b.Decide(l.Game().View(seat))
	if err := l.Play(m); err != nil {
		return fmt.Errorf("%s bot at seat %d: %s: %w", b.Name(), seat, m, err)
	}
	if record != nil {
		record(m)
	}
	return nil
}
