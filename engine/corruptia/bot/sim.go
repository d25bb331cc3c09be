package bot

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"corruption/engine"
	"corruption/engine/corruptia"
)

// maxDecisions bounds one game: a game of five senators takes a few hundred decisions.
const maxDecisions = 100000

// Play plays the game h hosts to its end among bots (one per seat), drawing from c: engine
// only, with full information (each bot still sees only its seat's View).
func Play(h *corruptia.Host, c corruptia.Chance, bots []Bot) error {
	g := h.Game()
	for range maxDecisions {
		if err := h.Run(c); err != nil {
			return err
		}
		switch st := g.Due(); st.Kind {
		case engine.StepOver:
			return nil
		case engine.StepChoose:
			votes := make([]corruptia.Vote, g.Players())
			for s := range votes {
				votes[s] = bots[s].Vote(g.View(s))
			}
			if err := h.Votes(votes); err != nil {
				return fmt.Errorf("votes %v: %w", votes, err)
			}
		default:
			m := bots[st.Seat].Decide(g.View(st.Seat))
			if err := h.Move(st.Seat, m); err != nil {
				return fmt.Errorf("%s bot at seat %d: %s: %w", bots[st.Seat].Name(), st.Seat, m, err)
			}
		}
	}
	return fmt.Errorf("the game is not over after %d decisions", maxDecisions)
}

// SimConfig describes a batch of engine-only games among bots.
type SimConfig struct {
	Games   int
	Players int
	Config  *corruptia.Config // nil: corruptia.DefaultConfig()
	// Bots are the bot kinds, dealt to seats in turn: with ["heuristic","random"] and 4
	// players, seats 0 and 2 are heuristic. The seating rotates by one seat every game so that
	// every kind plays from every seat.
	Bots []string
	// Think is a strong bot's budget, in playouts a decision (0: ThinkSimulate).
	Think int
	Seed  uint64
	// Show, when set, is told game 0's events as they happen.
	Show func(engine.Event)
}

// Tally is the record of one bot kind, one seat or one place.
type Tally struct {
	Games     int     `json:"games"`
	Wins      float64 `json:"wins"` // a win shared by k senators counts 1/k
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

// Stats are means per game of what happened.
type Stats struct {
	Approved   float64 `json:"approved"`   // bills approved
	Rejected   float64 `json:"rejected"`   // bills rejected
	Tosses     float64 `json:"tosses"`     // tied votes
	NoBill     float64 `json:"no_bill"`    // turns with no bill to propose
	Absent     float64 `json:"absent"`     // absent votes
	Swaps      float64 `json:"swaps"`      // swaps with the discard pile
	Blackmails float64 `json:"blackmails"` // blackmail cards played
	Ignored    float64 `json:"ignored"`    // blackmails ignored
	Offers     float64 `json:"offers"`     // employees offered
	Amendments float64 `json:"amendments"` // amendments made
	Restarts   float64 `json:"restarts"`   // setups started again
	Short      float64 `json:"short"`      // approval tokens not won: the supply of 30 was empty
	WinScore   float64 `json:"win_score"`  // the winning score
}

// SimResult is what a batch of games gave.
type SimResult struct {
	Games       int              `json:"games"`
	Players     int              `json:"players"`
	Config      string           `json:"config"`
	Seed        uint64           `json:"seed"`
	ByBot       map[string]Tally `json:"by_bot"`
	BySeat      []Tally          `json:"by_seat"`
	ByPlace     []Tally          `json:"by_place"` // by place in round 1: place 0 held the presidential token first
	Stats       Stats            `json:"stats"`
	Seconds     float64          `json:"seconds"`
	GamesPerSec float64          `json:"games_per_second"`
}

type outcome struct {
	first int
	score [corruptia.MaxPlayers]int
	win   [corruptia.MaxPlayers]float64
	stats Stats
	err   error
}

// Simulate plays a batch of games, spread over the machine's cores. The results do not depend
// on how many cores there are: each game's deck, draws and bots come from the seed and the
// game's number alone.
func Simulate(sc SimConfig) (*SimResult, error) {
	if sc.Games < 1 {
		return nil, fmt.Errorf("games: %d, want at least 1", sc.Games)
	}
	if sc.Players < corruptia.MinPlayers || sc.Players > corruptia.MaxPlayers {
		return nil, fmt.Errorf("players: %d, want %d to %d", sc.Players, corruptia.MinPlayers, corruptia.MaxPlayers)
	}
	cfg := corruptia.DefaultConfig()
	if sc.Config != nil {
		cfg = *sc.Config
	}
	enc, err := corruptia.EncodeConfig(cfg)
	if err != nil {
		return nil, err
	}
	if len(sc.Bots) == 0 {
		sc.Bots = []string{"heuristic", "random"}
	}
	for _, k := range sc.Bots {
		if _, err := New(k, 0); err != nil {
			return nil, err
		}
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
				outcomes[g] = sc.play(g, cfg)
			}
		}()
	}
	wg.Wait()
	res := &SimResult{Games: sc.Games, Players: sc.Players, Config: corruptia.Rules{}.DescribeConfig(enc), Seed: sc.Seed,
		ByBot: map[string]Tally{}, BySeat: make([]Tally, sc.Players), ByPlace: make([]Tally, sc.Players)}
	res.Seconds = time.Since(start).Seconds()
	if res.Seconds > 0 {
		res.GamesPerSec = float64(sc.Games) / res.Seconds
	}
	for g, o := range outcomes {
		if o.err != nil {
			return nil, fmt.Errorf("game %d: %w", g, o.err)
		}
		for seat := range sc.Players {
			kind := sc.kind(g, seat)
			t := res.ByBot[kind]
			t.add(o.score[seat], o.win[seat])
			res.ByBot[kind] = t
			res.BySeat[seat].add(o.score[seat], o.win[seat])
			place := (seat - o.first + sc.Players) % sc.Players
			res.ByPlace[place].add(o.score[seat], o.win[seat])
		}
		res.Stats.add(&o.stats, float64(sc.Games))
	}
	return res, nil
}

func (s *Stats) add(o *Stats, games float64) {
	s.Approved += o.Approved / games
	s.Rejected += o.Rejected / games
	s.Tosses += o.Tosses / games
	s.NoBill += o.NoBill / games
	s.Absent += o.Absent / games
	s.Swaps += o.Swaps / games
	s.Blackmails += o.Blackmails / games
	s.Ignored += o.Ignored / games
	s.Offers += o.Offers / games
	s.Amendments += o.Amendments / games
	s.Restarts += o.Restarts / games
	s.Short += o.Short / games
	s.WinScore += o.WinScore / games
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

// play plays game g.
func (sc *SimConfig) play(g int, cfg corruptia.Config) (o outcome) {
	bots := make([]Bot, sc.Players)
	for seat := range bots {
		bots[seat], _ = sc.gameBot(g, seat)
	}
	first := -1
	count := func(ev engine.Event) {
		e := ev.Data.(corruptia.Event)
		st := &o.stats
		switch e.Kind {
		case corruptia.EventFirst:
			first = e.Seat
		case corruptia.EventResolved:
			if e.Approved {
				st.Approved++
			} else {
				st.Rejected++
			}
		case corruptia.EventToss:
			st.Tosses++
		case corruptia.EventNoBill:
			st.NoBill++
		case corruptia.EventSwap:
			st.Swaps++
		case corruptia.EventBlackmail:
			st.Blackmails++
		case corruptia.EventOffer:
			st.Offers++
		case corruptia.EventRestart:
			st.Restarts++
		case corruptia.EventProposed:
			if e.Amended {
				st.Amendments++
			}
		case corruptia.EventVotes:
			for _, v := range e.Votes {
				if v == corruptia.VoteAbsent {
					st.Absent++
				}
			}
		case corruptia.EventApproval:
			if e.Ignored {
				st.Ignored++
			}
			if e.Short {
				st.Short++
			}
		}
		if g == 0 && sc.Show != nil {
			sc.Show(ev)
		}
	}
	game, err := corruptia.NewGame(cfg, sc.Players, count)
	if err != nil {
		o.err = err
		return o
	}
	if o.err = Play(corruptia.NewHost(game), corruptia.Seeded(sc.Seed, uint64(g)), bots); o.err != nil {
		return o
	}
	out := game.Outcome()
	o.first = first
	copy(o.score[:], out.Scores)
	for _, w := range out.Winners {
		o.win[w] = 1 / float64(len(out.Winners))
	}
	o.stats.WinScore = float64(out.Scores[out.Winners[0]])
	return o
}
