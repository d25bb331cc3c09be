package botkit

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"corruption/engine"
)

// named is a toy bot: its kind and the first number its random source drew.
type named struct {
	kind  string
	first uint64
	think int
}

func (n *named) Name() string { return n.kind }

func toyKinds() *Kinds[*named] {
	mk := func(kind string) Kind[*named] {
		return Kind[*named]{Name: kind, Make: func(r *rand.Rand, think int) *named { return &named{kind, r.Uint64(), think} }}
	}
	return &Kinds[*named]{List: []Kind[*named]{mk("heuristic"), mk("random"), mk("strong")}, Person: 300, Simulate: 100,
		More: func(kind string, r *rand.Rand) (*named, bool) {
			if kind != "variant" {
				return nil, false
			}
			return &named{kind, r.Uint64(), 0}, true
		}}
}

func TestKindsNew(t *testing.T) {
	k := toyKinds()
	a, err := k.New("random", 7, 0)
	if err != nil || a.kind != "random" || a.think != 300 {
		t.Fatalf("New(random, 7, 0) = %+v, %v; want a random bot thinking Person (300)", a, err)
	}
	b, _ := k.New("random", 7, 5)
	c, _ := k.New("random", 8, 5)
	if a.first != b.first || a.first == c.first || b.think != 5 {
		t.Errorf("seeds: 7 gives %d and %d, 8 gives %d; think 5 gave %d", a.first, b.first, c.first, b.think)
	}
	if v, err := k.New("variant", 1, 0); err != nil || v.kind != "variant" {
		t.Errorf("a kind More knows: %+v, %v", v, err)
	}
	_, err = k.New("clever", 1, 0)
	if err == nil || !strings.Contains(err.Error(), `"clever"`) || !strings.Contains(err.Error(), "heuristic, random, strong") {
		t.Errorf("an unknown kind: %v, want its name and the kinds known", err)
	}
	if got := strings.Join(k.Names(), " "); got != "heuristic random strong" {
		t.Errorf("Names = %q", got)
	}
}

// toyGame is an engine.Game of no game: Player must refuse it.
type toyGame struct{ engine.Game }

type otherGame struct{ engine.Game }

func TestPlayer(t *testing.T) {
	b := &named{kind: "heuristic"}
	p := Player(b, "Toy", func(g *toyGame, seat int) (engine.Action, error) {
		if seat == 2 {
			return engine.Action{}, errors.New("no such move")
		}
		return engine.Action{Move: []byte{byte(seat)}}, nil
	})
	ctx := context.Background()
	if a, err := p.Decide(ctx, &toyGame{}, 1); err != nil || len(a.Move) != 1 || a.Move[0] != 1 {
		t.Errorf("seat 1: %v, %v", a, err)
	}
	if _, err := p.Decide(ctx, &toyGame{}, 2); err == nil || err.Error() != "heuristic bot at seat 2: no such move" {
		t.Errorf("a refused move: %v, want it named with the bot and its seat", err)
	}
	if _, err := p.Decide(ctx, &otherGame{}, 0); err == nil || !strings.Contains(err.Error(), "not Toy") {
		t.Errorf("another game: %v", err)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := p.Decide(done, &toyGame{}, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled decision: %v", err)
	}
}

func TestOrElse(t *testing.T) {
	decide := func(fail bool) (m int) {
		defer OrElse(&m, func() int { return 2 })
		if fail {
			panic("a sample the rules refuse")
		}
		return 1
	}
	if got := decide(false); got != 1 {
		t.Errorf("a search that ends: %d, want its move", got)
	}
	if got := decide(true); got != 2 {
		t.Errorf("a search that panics: %d, want the fallback's", got)
	}
}

func TestBatch(t *testing.T) {
	b := &Batch[*named]{Kinds: toyKinds(), Games: 40, Players: 3, Seed: 9}
	if err := b.Check(); err != nil {
		t.Fatal(err)
	}
	if got := b.Kind(1, 0) + " " + b.Kind(1, 1) + " " + b.Kind(2, 0); got != "random heuristic heuristic" {
		t.Errorf("kinds dealt in game 1 seats 0-1 and game 2 seat 0: %q", got)
	}
	bots, err := b.GameBots(3)
	if err != nil || len(bots) != 3 || bots[0].think != 100 {
		t.Fatalf("game 3's bots: %+v, %v (want 3, thinking Simulate)", bots, err)
	}
	again, _ := b.GameBots(3)
	other, _ := b.GameBots(4)
	if bots[1].first != again[1].first || bots[1].first == other[1].first {
		t.Errorf("game 3 seat 1 drew %d then %d; game 4 %d", bots[1].first, again[1].first, other[1].first)
	}
	var played [40]atomic.Int32
	b.Run(func(g int) { played[g].Add(1) })
	for g := range played {
		if n := played[g].Load(); n != 1 {
			t.Errorf("game %d played %d times", g, n)
		}
	}
	bad := &Batch[*named]{Kinds: toyKinds(), Games: 1, Players: 3, Bots: []string{"random", "clever"}}
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "clever") {
		t.Errorf("a batch with an unknown kind: %v", err)
	}
	if err := (&Batch[*named]{Kinds: toyKinds()}).Check(); err == nil || !strings.Contains(err.Error(), "games: 0") {
		t.Errorf("a batch of no game: %v", err)
	}
}

func TestTally(t *testing.T) {
	byKind, bySeat := map[string]Tally{}, make([]Tally, 2)
	w := Shares(2, []int{0, 1})
	AddTo(byKind, bySeat, "random", 0, 10, w[0])
	AddTo(byKind, bySeat, "random", 1, 20, w[1])
	AddTo(byKind, bySeat, "random", 0, 30, Shares(2, []int{0})[0])
	r := byKind["random"]
	if r.Games != 3 || r.Wins != 2 || r.MeanScore != 20 || r.WinRate != 2.0/3 {
		t.Errorf("random: %+v", r)
	}
	if s := bySeat[0]; s.Games != 2 || s.Wins != 1.5 || s.MeanScore != 20 {
		t.Errorf("seat 0: %+v", s)
	}
}
