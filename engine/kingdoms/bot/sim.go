package bot

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"corruption/engine"
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
	Rules       string           `json:"rules"`
	Seed        uint64           `json:"seed"`
	ByBot       map[string]Tally `json:"by_bot"`
	BySeat      []Tally          `json:"by_seat"`
	ByPosition  []Tally          `json:"by_position"` // by place in turn order: 0 is the starting player
	ByCorp      map[string]Tally `json:"by_corporation"`
	MeanRounds  float64          `json:"mean_rounds"`
	Seconds     float64          `json:"seconds"`
	GamesPerSec float64          `json:"games_per_second"`
}

// Simulate plays a batch of games, spread over the machine's cores. The results do not depend
// on how many cores there are: each game's setup and bots come from the seed and the game's
// number alone.
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
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range min(runtime.GOMAXPROCS(0), sc.Games) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				g := int(next.Add(1) - 1)
				if g >= sc.Games {
					return
				}
				o := &outcomes[g]
				game, err := sc.play(g)
				if err != nil {
					o.err = fmt.Errorf("game %d: %w", g, err)
					continue
				}
				v := game.View(-1)
				o.scores, o.corps, o.first, o.rounds = v.Scores, v.Corporations, v.First, v.Round
				out := game.Outcome()
				o.wins = make([]float64, sc.Players)
				for _, w := range out.Winners {
					o.wins[w] = 1 / float64(len(out.Winners))
				}
			}
		}()
	}
	wg.Wait()
	res := &SimResult{Games: sc.Games, Players: sc.Players, Rules: sc.Rules.String(), Seed: sc.Seed,
		ByBot: map[string]Tally{}, BySeat: make([]Tally, sc.Players), ByPosition: make([]Tally, sc.Players),
		ByCorp: map[string]Tally{}}
	res.Seconds = time.Since(start).Seconds()
	if res.Seconds > 0 {
		res.GamesPerSec = float64(sc.Games) / res.Seconds
	}
	for g, o := range outcomes {
		if o.err != nil {
			return nil, o.err
		}
		res.MeanRounds += float64(o.rounds) / float64(sc.Games)
		for seat := range sc.Players {
			total, win := o.scores[seat].Total, o.wins[seat]
			kind := sc.kind(g, seat)
			t := res.ByBot[kind]
			t.add(total, win)
			res.ByBot[kind] = t
			res.BySeat[seat].add(total, win)
			res.ByPosition[(seat-o.first+sc.Players)%sc.Players].add(total, win)
			corp := kingdoms.Corporations()[o.corps[seat]].ID
			t = res.ByCorp[corp]
			t.add(total, win)
			res.ByCorp[corp] = t
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

// GameSetup is the setup of game g of a batch seeded with seed.
func GameSetup(c kingdoms.Config, players int, seed uint64, g int) kingdoms.Setup {
	return kingdoms.RandomSetup(c, players, rand.New(rand.NewPCG(seed, uint64(g))))
}

// play plays game g to the end.
func (sc *SimConfig) play(g int) (*kingdoms.Game, error) {
	bots := make([]Bot, sc.Players)
	for seat := range bots {
		bots[seat], _ = sc.gameBot(g, seat)
	}
	var onEvent func(engine.Event)
	if g == 0 && sc.Show != nil {
		onEvent = func(e engine.Event) { sc.Show(e.Data.(kingdoms.Event)) }
	}
	l, err := kingdoms.NewLocal(sc.Rules, sc.Players, GameSetup(sc.Rules, sc.Players, sc.Seed, g), onEvent)
	if err != nil {
		return nil, err
	}
	return l.Game(), Play(l, bots, nil)
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
