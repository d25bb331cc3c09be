package bot

import (
	"fmt"

	"corruption/engine"
	"corruption/engine/botkit"
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
type Tally = botkit.Tally

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
	Games         int     `json:"games"`
	Players       int     `json:"players"`
	Config        string  `json:"config"`
	botkit.Totals         // seed, by bot kind, by seat
	ByPlace       []Tally `json:"by_place"` // by place in round 1: place 0 held the presidential token first
	Stats         Stats   `json:"stats"`
	Seconds       float64 `json:"seconds"`
	GamesPerSec   float64 `json:"games_per_second"`
}

type outcome struct {
	first int
	score [corruptia.MaxPlayers]int
	win   [corruptia.MaxPlayers]float64
	stats Stats
	err   error
}

// Simulate plays the batch over the machine's cores (botkit.Batch.Run); as each game's deck, draws
// and bots come from the seed and the game's number alone, the results are the same on any
// machine.
func Simulate(sc SimConfig) (*SimResult, error) {
	b := sc.batch()
	if err := b.Check(); err != nil {
		return nil, err
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
	outcomes := make([]outcome, sc.Games)
	res := &SimResult{Games: sc.Games, Players: sc.Players, Config: corruptia.Rules{}.DescribeConfig(enc),
		Totals: botkit.NewTotals(sc.Seed, sc.Players), ByPlace: make([]Tally, sc.Players)}
	res.Seconds, res.GamesPerSec = b.Run(func(g int) { outcomes[g] = sc.play(b, g, cfg) })
	for g, o := range outcomes {
		if o.err != nil {
			return nil, fmt.Errorf("game %d: %w", g, o.err)
		}
		for seat := range sc.Players {
			res.Add(b.Kind(g, seat), seat, o.score[seat], o.win[seat])
			place := (seat - o.first + sc.Players) % sc.Players
			res.ByPlace[place].Add(o.score[seat], o.win[seat])
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

// batch is the simulation's bots and seeds, as the kit deals them.
func (sc *SimConfig) batch() *botkit.Batch[Bot] {
	return &botkit.Batch[Bot]{Kinds: kinds, Games: sc.Games, Players: sc.Players, Bots: sc.Bots, Think: sc.Think, Seed: sc.Seed}
}

// GameBots are game g's bots, fresh, one a seat, as Simulate seats them: with them and the
// game's setup, bot.Play plays game g of the batch again, move for move (to record it).
func (sc SimConfig) GameBots(g int) ([]Bot, error) { return sc.batch().GameBots(g) }

// play plays game g.
func (sc *SimConfig) play(b *botkit.Batch[Bot], g int, cfg corruptia.Config) (o outcome) {
	bots, err := b.GameBots(g)
	if err != nil {
		o.err = err
		return o
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
	copy(o.win[:], botkit.Shares(sc.Players, out.Winners))
	o.stats.WinScore = float64(out.Scores[out.Winners[0]])
	return o
}
