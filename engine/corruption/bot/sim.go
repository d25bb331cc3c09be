package bot

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

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
func GameConfig(players int, variant corruption.Variant, lbb bool, seed uint64, g int) corruption.Config {
	rng := rand.New(rand.NewPCG(seed, uint64(g)))
	deck := make([]corruption.Contract, corruption.NumContracts)
	for i, j := range rng.Perm(corruption.NumContracts) {
		deck[i] = corruption.Contract(j)
	}
	return corruption.Config{Players: players, Variant: variant, LittleBlackBook: lbb, Deck: deck, First: rng.IntN(players)}
}

// Simulate plays a batch of games, spread over the machine's cores. The results do not depend
// on how many cores there are: each game's deck, first player and bots come from the seed and
// the game's number alone.
func Simulate(sc SimConfig) (*SimResult, error) {
	if sc.Games < 1 {
		return nil, fmt.Errorf("games: %d, want at least 1", sc.Games)
	}
	if len(sc.Bots) == 0 {
		sc.Bots = []string{"heuristic", "random"}
	}
	for _, k := range sc.Bots {
		if _, err := New(k, 0); err != nil {
			return nil, err
		}
	}
	if err := (&corruption.Config{Players: sc.Players, Variant: sc.Variant, LittleBlackBook: sc.LBB}).Validate(); err != nil {
		return nil, err
	}
	type outcome struct {
		scores [corruption.MaxPlayers]int
		wins   [corruption.MaxPlayers]float64
		err    error
	}
	outcomes := make([]outcome, sc.Games)
	workers := min(runtime.GOMAXPROCS(0), sc.Games)
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bots := make([]Bot, sc.Players)
			for {
				g := int(next.Add(1) - 1)
				if g >= sc.Games {
					return
				}
				o := &outcomes[g]
				s, err := sc.play(g, bots)
				if err != nil {
					o.err = err
					continue
				}
				winners := s.Winners()
				for seat := range bots {
					o.scores[seat], _ = s.Score(seat)
				}
				for _, w := range winners {
					o.wins[w] = 1 / float64(len(winners))
				}
			}
		}()
	}
	wg.Wait()
	res := &SimResult{Games: sc.Games, Players: sc.Players, Variant: sc.Variant.String(), LBB: sc.LBB,
		Seed: sc.Seed, ByBot: map[string]Tally{}, BySeat: make([]Tally, sc.Players)}
	res.Seconds = time.Since(start).Seconds()
	if res.Seconds > 0 {
		res.GamesPerSec = float64(sc.Games) / res.Seconds
	}
	for g, o := range outcomes {
		if o.err != nil {
			return nil, fmt.Errorf("game %d: %w", g, o.err)
		}
		for seat := 0; seat < sc.Players; seat++ {
			kind := sc.kind(g, seat)
			t := res.ByBot[kind]
			t.add(o.scores[seat], o.wins[seat])
			res.ByBot[kind] = t
			res.BySeat[seat].add(o.scores[seat], o.wins[seat])
		}
	}
	return res, nil
}

// kind is the bot kind at seat in game g: the list dealt in turn, rotated one seat a game.
func (sc *SimConfig) kind(g, seat int) string { return sc.Bots[(seat+g)%len(sc.Bots)] }

// gameBot is the bot at seat in game g: of its kind, seeded from the batch's seed, the game
// and the seat.
func (sc *SimConfig) gameBot(g, seat int) (Bot, error) {
	think := sc.Think
	if think <= 0 {
		think = ThinkSimulate
	}
	return NewThinking(sc.kind(g, seat), sc.Seed^uint64(g)<<8^uint64(seat), think)
}

// GameBots are game g's bots, fresh, one a seat, as Simulate seats them: with them and the
// game's setup, bot.Play plays game g of the batch again, move for move (to record it).
func (sc SimConfig) GameBots(g int) ([]Bot, error) {
	if len(sc.Bots) == 0 {
		sc.Bots = []string{"heuristic", "random"}
	}
	bots := make([]Bot, sc.Players)
	for seat := range bots {
		b, err := sc.gameBot(g, seat)
		if err != nil {
			return nil, err
		}
		bots[seat] = b
	}
	return bots, nil
}

// play plays game g with fresh bots (bots is reused storage).
func (sc *SimConfig) play(g int, bots []Bot) (*corruption.State, error) {
	cfg := GameConfig(sc.Players, sc.Variant, sc.LBB, sc.Seed, g)
	for seat := range bots {
		b, err := sc.gameBot(g, seat)
		if err != nil {
			return nil, err
		}
		bots[seat] = b
	}
	var opts []corruption.Option
	var record func(corruption.Move)
	if g == 0 {
		if sc.Attach != nil {
			opts = append(opts, corruption.Option(sc.Attach))
		}
		if sc.Show != nil {
			opts = append(opts, corruption.WithEvents(sc.Show))
		}
		record = sc.ShowMove
	}
	s, err := corruption.New(cfg, opts...)
	if err != nil {
		return nil, err
	}
	return s, Play(s, bots, record)
}
