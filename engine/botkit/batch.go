package botkit

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultBots are the kinds a simulation deals to the seats when it is given none.
var DefaultBots = []string{"heuristic", "random"}

// Batch is a batch of simulated games as every game's simulation describes it: its bots are
// kinds dealt to the seats in turn (with ["heuristic","random"] and 4 players, seats 0 and 2
// are heuristic), the seating rotated one seat a game so that every kind plays from every
// seat; think is a strong bot's budget (0: the game's Simulate); each bot is seeded from the
// batch's seed, its game and its seat.
type Batch[B any] struct {
	Kinds          *Kinds[B]
	Games, Players int
	Bots           []string
	Think          int
	Seed           uint64
}

// Check says what is wrong with the batch's count or its kinds, and gives the kinds dealt
// (DefaultBots when none are given).
func (b *Batch[B]) Check() error {
	if b.Games < 1 {
		return fmt.Errorf("games: %d, want at least 1", b.Games)
	}
	if len(b.Bots) == 0 {
		b.Bots = DefaultBots
	}
	for _, k := range b.Bots {
		if _, err := b.Kinds.New(k, 0, 1); err != nil {
			return err
		}
	}
	return nil
}

// Kind is the bot kind at seat in game g.
func (b *Batch[B]) Kind(g, seat int) string {
	bots := b.Bots
	if len(bots) == 0 {
		bots = DefaultBots
	}
	return bots[(seat+g)%len(bots)]
}

// Bot is the bot at seat in game g, fresh.
func (b *Batch[B]) Bot(g, seat int) (B, error) {
	think := b.Think
	if think <= 0 {
		think = b.Kinds.Simulate
	}
	return b.Kinds.New(b.Kind(g, seat), b.Seed^uint64(g)<<8^uint64(seat), think)
}

// Bots are game g's bots, fresh, one a seat: with them and the game's setup, a game's Play
// plays game g of the batch again, move for move.
func (b *Batch[B]) GameBots(g int) ([]B, error) {
	bots := make([]B, b.Players)
	for seat := range bots {
		bot, err := b.Bot(g, seat)
		if err != nil {
			return nil, err
		}
		bots[seat] = bot
	}
	return bots, nil
}

// Run plays every game of the batch with play, spread over the machine's cores (the results
// do not depend on how many there are as long as play draws from the seed and the game's
// number alone), and says how long it took: seconds, and games a second.
func (b *Batch[B]) Run(play func(g int)) (seconds, perSecond float64) {
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range min(runtime.GOMAXPROCS(0), b.Games) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				g := int(next.Add(1) - 1)
				if g >= b.Games {
					return
				}
				play(g)
			}
		}()
	}
	wg.Wait()
	seconds = time.Since(start).Seconds()
	if seconds > 0 {
		perSecond = float64(b.Games) / seconds
	}
	return seconds, perSecond
}

// Tally is the record of one bot kind, one seat or one place.
type Tally struct {
	Games     int     `json:"games"`
	Wins      float64 `json:"wins"` // a win shared by k players counts 1/k
	WinRate   float64 `json:"win_rate"`
	MeanScore float64 `json:"mean_score"`
	total     float64
}

// Add counts one game with that score and that share of the win.
func (t *Tally) Add(score int, win float64) {
	t.Games++
	t.Wins += win
	t.total += float64(score)
	t.WinRate = t.Wins / float64(t.Games)
	t.MeanScore = t.total / float64(t.Games)
}

// Totals are what every batch's results say after the game's own configuration: the seed,
// and the tallies by bot kind and by seat. A game's SimResult embeds them where they fall in
// its JSON (encoding/json gives their fields in its place).
type Totals struct {
	Seed   uint64           `json:"seed"`
	ByBot  map[string]Tally `json:"by_bot"`
	BySeat []Tally          `json:"by_seat"`
}

// NewTotals are the empty totals of a batch seeded with seed, at tables of players.
func NewTotals(seed uint64, players int) Totals {
	return Totals{Seed: seed, ByBot: map[string]Tally{}, BySeat: make([]Tally, players)}
}

// Add counts one game of kind's at seat (AddTo).
func (t *Totals) Add(kind string, seat, score int, win float64) {
	AddTo(t.ByBot, t.BySeat, kind, seat, score, win)
}

// AddTo counts one game of kind's at seat in by (by kind) and bySeat.
func AddTo(byKind map[string]Tally, bySeat []Tally, kind string, seat, score int, win float64) {
	t := byKind[kind]
	t.Add(score, win)
	byKind[kind] = t
	bySeat[seat].Add(score, win)
}

// Shares are each seat's share of a win shared by winners: 1/k for each of k winners.
func Shares(players int, winners []int) []float64 {
	w := make([]float64, players)
	for _, s := range winners {
		w[s] = 1 / float64(len(winners))
	}
	return w
}
