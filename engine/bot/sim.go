package bot

import (
	"fmt"
	"math/rand/v2"
	"time"

	"corruption/engine"
)

// SimConfig describes a batch of engine-only games among bots.
type SimConfig struct {
	Games   int
	Players int
	Variant engine.Variant
	LBB     bool
	// Bots are the bot kinds, dealt to seats in turn: with ["heuristic","random"] and 4
	// players, seats 0 and 2 are heuristic. The seating rotates by one seat every game so that
	// every kind plays from every seat.
	Bots []string
	Seed uint64
	// Show, when set, is given game 0's events as they happen.
	Show func(engine.Event)
	// ShowMove, when set, is given game 0's moves as they are applied.
	ShowMove func(engine.Move)
	// Attach, when set, is given game 0's state when it is created.
	Attach func(*engine.State)
}

// Tally is the record of one bot kind or one seat.
type Tally struct {
	Games     int     `json:"games"`
	Wins      float64 `json:"wins"` // a win shared by k players counts 1/k
	WinRate   float64 `json:"win_rate"`
	MeanScore float64 `json:"mean_score"`
	total     float64
}

func (t *Tally) add(score int, win float64) {
	t.Games++
	t.Wins += win
	t.total += float64(score)
	t.WinRate = t.Wins / float64(t.Games)
	t.MeanScore = t.total / float64(t.Games)
}

// SimResult is what a batch of games gave.
type SimResult struct {
	Games       int              `json:"games"`
	Players     int              `json:"players"`
	Variant     string           `json:"variant"`
	LBB         bool             `json:"little_black_book"`
	Seed        uint64           `json:"seed"`
	ByBot       map[string]Tally `json:"by_bot"`
	BySeat      []Tally          `json:"by_seat"`
	Seconds     float64          `json:"seconds"`
	GamesPerSec float64          `json:"games_per_second"`
}

// GameConfig is the configuration of game g of a batch seeded with seed: a shuffled deck and
// a random first player.
func GameConfig(players int, variant engine.Variant, lbb bool, seed uint64, g int) engine.Config {
	rng := rand.New(rand.NewPCG(seed, uint64(g)))
	deck := make([]engine.Contract, engine.NumContracts)
	for i, j := range rng.Perm(engine.NumContracts) {
		deck[i] = engine.Contract(j)
	}
	return engine.Config{Players: players, Variant: variant, LittleBlackBook: lbb, Deck: deck, First: rng.IntN(players)}
}

// Simulate plays a batch of games.
func Simulate(sc SimConfig) (*SimResult, error) {
	if sc.Games < 1 {
		return nil, fmt.Errorf("games: %d, want at least 1", sc.Games)
	}
	if len(sc.Bots) == 0 {
		sc.Bots = []string{"heuristic", "random"}
	}
	res := &SimResult{Games: sc.Games, Players: sc.Players, Variant: sc.Variant.String(), LBB: sc.LBB,
		Seed: sc.Seed, ByBot: map[string]Tally{}, BySeat: make([]Tally, sc.Players)}
	bots := make([]Bot, sc.Players)
	kinds := make([]string, sc.Players)
	start := time.Now()
	for g := 0; g < sc.Games; g++ {
		cfg := GameConfig(sc.Players, sc.Variant, sc.LBB, sc.Seed, g)
		for seat := range bots {
			kinds[seat] = sc.Bots[(seat+g)%len(sc.Bots)]
			b, err := New(kinds[seat], sc.Seed^uint64(g)<<8^uint64(seat))
			if err != nil {
				return nil, err
			}
			bots[seat] = b
		}
		var opts []engine.Option
		var record func(engine.Move)
		if g == 0 {
			if sc.Attach != nil {
				opts = append(opts, engine.Option(sc.Attach))
			}
			opts = append(opts, engine.WithEvents(sc.Show))
			record = sc.ShowMove
		}
		s, err := engine.New(cfg, opts...)
		if err != nil {
			return nil, err
		}
		if err := Play(s, bots, record); err != nil {
			return nil, fmt.Errorf("game %d: %w", g, err)
		}
		winners := s.Winners()
		for seat := range bots {
			score, _ := s.Score(seat)
			win := 0.0
			for _, w := range winners {
				if w == seat {
					win = 1 / float64(len(winners))
				}
			}
			t := res.ByBot[kinds[seat]]
			t.add(score, win)
			res.ByBot[kinds[seat]] = t
			res.BySeat[seat].add(score, win)
		}
	}
	res.Seconds = time.Since(start).Seconds()
	if res.Seconds > 0 {
		res.GamesPerSec = float64(sc.Games) / res.Seconds
	}
	return res, nil
}
