package corruption_test

// Property tests: thousands of random games, with random bots, for every variant (with and
// without the little black book) and every player count, held to the reference model of
// reference_test.go, and replayed from their recorded scripts.

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/engine/corruption/script"
)

type tableKind struct {
	players int
	variant corruption.Variant
	lbb     bool
}

func (k tableKind) String() string {
	s := fmt.Sprintf("%dp-%s", k.players, k.variant)
	if k.lbb {
		s += "-lbb"
	}
	return s
}

// tableKinds is every player count with every variant, with and without the little black book
// (which the closed variant does not allow).
func tableKinds() []tableKind {
	var out []tableKind
	for n := corruption.MinPlayers; n <= corruption.MaxPlayers; n++ {
		for _, v := range []corruption.Variant{corruption.Standard, corruption.DownTheRiver, corruption.FreeStud, corruption.Closed} {
			out = append(out, tableKind{n, v, false})
			if v != corruption.Closed {
				out = append(out, tableKind{n, v, true})
			}
		}
	}
	return out
}

func (k tableKind) config(seed uint64) corruption.Config {
	rng := rngFor(seed, 0xdec)
	return corruption.Config{Players: k.players, Variant: k.variant, LittleBlackBook: k.lbb, Deck: shuffled(rng), First: rng.IntN(k.players)}
}

func randomBots(n int, seed uint64) []bot.Bot {
	bots := make([]bot.Bot, n)
	for i := range bots {
		bots[i] = bot.NewRandom(rngFor(seed, uint64(i)))
	}
	return bots
}

func TestRandomGames(t *testing.T) {
	games := 90
	if testing.Short() {
		games = 10
	}
	for ki, k := range tableKinds() {
		t.Run(k.String(), func(t *testing.T) {
			t.Parallel()
			for g := 0; g < games; g++ {
				seed := uint64(ki)<<32 | uint64(g)
				if err := playChecked(k.config(seed), seed, g%10 == 0, nil); err != nil {
					t.Fatalf("game %d (seed %#x): %v", g, seed, err)
				}
			}
		})
	}
}

// playChecked plays one random game, checking it move by move against the reference model (and,
// with views, every seat's view at every step), then checks the end of the game and the replay
// of its recorded script. probe, if not nil, is called before every move.
func playChecked(cfg corruption.Config, seed uint64, views bool, probe func(*corruption.State, *ref) error) error {
	var evs []corruption.Event
	s, err := corruption.New(cfg, corruption.WithEvents(func(e corruption.Event) { evs = append(evs, e) }))
	if err != nil {
		return err
	}
	model := newRef(cfg)
	bots := randomBots(cfg.Players, seed)
	var recorded []corruption.Move
	for step := 0; !s.Over(); step++ {
		if step > 2000 {
			return fmt.Errorf("the game does not end")
		}
		d := s.Next()
		if d.Seat < 0 || d.Seat >= cfg.Players {
			return fmt.Errorf("Next %v", d)
		}
		if probe != nil {
			if err := probe(s, model); err != nil {
				return fmt.Errorf("round %d, move %d: %w", s.Round(), len(recorded)+1, err)
			}
		}
		if views {
			if err := checkViews(s, model); err != nil {
				return fmt.Errorf("round %d, move %d: %w", s.Round(), len(recorded)+1, err)
			}
		}
		if d.Kind == corruption.DecidePlace && s.First() != model.first {
			return fmt.Errorf("round %d is led by seat %d, want seat %d", s.Round(), s.First(), model.first)
		}
		m := bots[d.Seat].Decide(s.View(d.Seat))
		round := s.Round()
		if err := s.Apply(m); err != nil {
			return fmt.Errorf("round %d: %s: %w", round, m, err)
		}
		recorded = append(recorded, m)
		if err := model.move(d, m); err != nil {
			return fmt.Errorf("round %d, move %d (%s): the engine accepted what the rules forbid: %w", round, len(recorded), m, err)
		}
		if m.Kind == corruption.MovePlace {
			var e corruption.Event
			for _, x := range evs {
				if x.Kind == corruption.EventPlaced {
					e = x
				}
			}
			want := model.plays[len(model.plays)-1]
			if e.Index != len(model.plays) || (e.Card != corruption.CardUnknown) != want.up || (want.up && e.Card != want.card) {
				return fmt.Errorf("round %d, card %d (seat %d, position %d, on %s): placed as %+v, want face up %t",
					round, len(model.plays), want.seat, want.pos, want.spot, e, want.up)
			}
		}
		if s.Round() == round && !s.Over() {
			continue
		}
		// The round is over: the engine's awards must be the model's.
		res, err := model.award()
		if err != nil {
			return fmt.Errorf("round %d: %w", round, err)
		}
		got := roundResult{winners: map[corruption.Contract]int{}, cancelled: map[corruption.Contract]bool{}}
		for _, e := range evs {
			switch e.Kind {
			case corruption.EventAwarded:
				got.winners[e.Contract] = e.Seat
			case corruption.EventCancelled:
				got.cancelled[e.Contract] = true
			case corruption.EventKilled:
				got.kills++
			}
		}
		if !reflect.DeepEqual(got, res) {
			return fmt.Errorf("round %d: the engine awarded %v, cancelled %v, killed %d; the rules give %v, %v, %d",
				round, got.winners, got.cancelled, got.kills, res.winners, res.cancelled, res.kills)
		}
		evs = evs[:0]
		model.endRound(res)
	}
	if err := checkEnd(s, model, recorded); err != nil {
		return err
	}
	if probe != nil {
		return probe(s, model)
	}
	return nil
}

// checkViews compares every seat's view with the full state: a seat sees its own cards, the
// face-up ones and those it peeked at, and everything once awarding has begun; the rest is
// CardUnknown.
func checkViews(s *corruption.State, model *ref) error {
	n := s.Config().Players
	if s.NumPlays() != len(model.plays) {
		return fmt.Errorf("%d cards on the table, want %d", s.NumPlays(), len(model.plays))
	}
	revealed := s.Phase() == corruption.PhaseAwarding
	for seat := 0; seat < n; seat++ {
		v := s.View(seat)
		if v.Config().Deck != nil {
			return fmt.Errorf("seat %d's view shows the deck's order", seat)
		}
		if v.NumPlays() != len(model.plays) {
			return fmt.Errorf("seat %d's view has %d cards", seat, v.NumPlays())
		}
		for i := 1; i <= len(model.plays); i++ {
			full, _ := s.PlayAt(i)
			mp := model.plays[i-1]
			if full.Card != mp.card || full.Seat != mp.seat || full.Spot != mp.spot || full.Pos != mp.pos || full.FaceUp != mp.up {
				return fmt.Errorf("card %d is %+v, want %+v", i, full, mp)
			}
			vp, ok := v.Play(i)
			want := full
			if !revealed && !model.visible(seat, i) {
				want.Card = corruption.CardUnknown
			}
			if !ok || vp != want {
				return fmt.Errorf("seat %d sees card %d as %+v, want %+v", seat, i, vp, want)
			}
		}
		if _, ok := v.Play(len(model.plays) + 1); ok {
			return fmt.Errorf("seat %d's view has a card %d", seat, len(model.plays)+1)
		}
		var hand []corruption.Card
		for _, b := range corruption.Bribes {
			if model.bribes[seat]&(1<<(b-corruption.Bribe1000)) == 0 {
				hand = append(hand, b)
			}
		}
		for k, c := range corruption.Characters {
			for j := 0; j < model.chars[seat][k]; j++ {
				hand = append(hand, c)
			}
		}
		if got := v.Hand(); !slices.Equal(got, hand) {
			return fmt.Errorf("seat %d's hand is %v, want %v", seat, got, hand)
		}
	}
	return nil
}

// checkEnd checks a finished game: 6 placements per player per round, the scores, the winners,
// every contract in one place, and the replay of the recorded script.
func checkEnd(s *corruption.State, model *ref, recorded []corruption.Move) error {
	cfg := s.Config()
	if !s.Over() || s.Round() != corruption.Rounds {
		return fmt.Errorf("the game ended in round %d", s.Round())
	}
	for r := 1; r <= corruption.Rounds; r++ {
		for seat, k := range model.placements[r] {
			if k != corruption.CardsPerRound {
				return fmt.Errorf("round %d: seat %d placed %d cards", r, seat, k)
			}
		}
	}
	if got := s.Winners(); !slices.Equal(got, model.winners()) {
		return fmt.Errorf("winners %v, want %v (scores %v)", got, model.winners(), model.score)
	}
	total := 0
	for seat := 0; seat < cfg.Players; seat++ {
		v, k := s.Score(seat)
		if v != model.score[seat] || k != model.won[seat] {
			return fmt.Errorf("seat %d scores %d with %d contracts, want %d with %d", seat, v, k, model.score[seat], model.won[seat])
		}
		sum := 0
		for _, c := range s.Won(seat) {
			if s.Winner(c) != seat {
				return fmt.Errorf("%s is in seat %d's contracts but won by %d", c, seat, s.Winner(c))
			}
			sum += c.Value()
		}
		if sum != v || len(s.Won(seat)) != k {
			return fmt.Errorf("seat %d's contracts add up to %d, its score is %d", seat, sum, v)
		}
		total += v
	}
	for c := corruption.Contract(0); c < corruption.NumContracts; c++ {
		w := s.Winner(c)
		if w != model.winnerOf(c) {
			return fmt.Errorf("%s won by %d, want %d", c, w, model.winnerOf(c))
		}
		switch {
		case w >= 0 && s.OnTable(c):
			return fmt.Errorf("%s is won and on the table", c)
		case w < 0 && !s.Deferred(c):
			return fmt.Errorf("%s is neither won nor deferred (all 24 are dealt by round 4)", c)
		case w < 0:
			total += c.Value()
		}
	}
	if total != 12000000 {
		return fmt.Errorf("won and deferred contracts add up to %d", total)
	}
	// The recorded script parses back identical and replays to the same state.
	sc := &script.Script{Config: cfg, Moves: recorded}
	data, err := sc.Marshal()
	if err != nil {
		return fmt.Errorf("marshal: %w", err)
	}
	back, err := script.Parse(data)
	if err != nil {
		return fmt.Errorf("the recorded script does not parse: %w", err)
	}
	if !reflect.DeepEqual(back, sc) {
		return fmt.Errorf("the recorded script parses back different")
	}
	replay, err := back.Run()
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	if replay.Digest() != s.Digest() || !slices.Equal(replay.Winners(), s.Winners()) {
		return fmt.Errorf("the replay ends with another digest")
	}
	return nil
}

func (r *ref) winnerOf(c corruption.Contract) int {
	if w, ok := r.winner[c]; ok {
		return w
	}
	return -1
}
