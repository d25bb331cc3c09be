package corruption_test

// Corruption on the table kit: the registry entry and its configuration, and whole games
// through enginetest's table, held to the same games played directly on a State with full
// information, and to what each seat's node may know.

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/engine/enginetest"
)

func TestRulesRegistered(t *testing.T) {
	r, err := engine.Lookup("corruption")
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := r.Players(); r.ID() != "corruption" || r.Name() != "Corruption" || lo != 3 || hi != 7 {
		t.Errorf("rules %q %q for %d..%d players", r.ID(), r.Name(), lo, hi)
	}
	cfg := corruption.EncodeConfig(corruption.Standard, false)
	for _, n := range []int{2, 8} {
		if err := r.CheckConfig(cfg, n); err == nil || !strings.Contains(err.Error(), "players") {
			t.Errorf("%d players: %v", n, err)
		}
	}
	if _, err := r.New([]byte{9, 0}, 3, engine.Options{}); err == nil {
		t.Error("New accepted a bad configuration")
	}
}

func TestConfigCodec(t *testing.T) {
	accepted := 0
	for v := 0; v < 256; v++ {
		for f := 0; f < 256; f++ {
			b := []byte{byte(v), byte(f)}
			variant, lbb, err := corruption.DecodeConfig(b)
			if err != nil {
				continue
			}
			accepted++
			if got := corruption.EncodeConfig(variant, lbb); !slices.Equal(got, b) {
				t.Errorf("DecodeConfig(%v) = %s %t, which encodes as %v", b, variant, lbb, got)
			}
		}
	}
	if accepted != 7 { // four variants, three of them with the little black book
		t.Errorf("%d configurations accepted, want 7", accepted)
	}
	for _, tc := range []struct {
		b    []byte
		want string
	}{
		{nil, "0 bytes"},
		{[]byte{0}, "1 bytes"},
		{[]byte{0, 0, 0}, "3 bytes"},
		{[]byte{4, 0}, "unknown variant 4"},
		{[]byte{0, 2}, "unknown flags 0x02"},
		{[]byte{1, 0x81}, "unknown flags 0x80"},
		{[]byte{3, 1}, "closed variant"},
	} {
		if _, _, err := corruption.DecodeConfig(tc.b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("DecodeConfig(%v): %v, want an error that says %q", tc.b, err, tc.want)
		}
	}
	r := corruption.Rules{}
	for _, tc := range []struct {
		b    []byte
		want string
	}{
		{corruption.EncodeConfig(corruption.Standard, false), "standard"},
		{corruption.EncodeConfig(corruption.FreeStud, true), "free stud, with the little black book"},
		{corruption.EncodeConfig(corruption.DownTheRiver, false), "down the river"},
		{[]byte{3, 1}, "invalid (config: the little black book is not played with the closed variant)"},
	} {
		if got := r.DescribeConfig(tc.b); got != tc.want {
			t.Errorf("DescribeConfig(%v) = %q, want %q", tc.b, got, tc.want)
		}
	}
}

// kitBots are the bots of game g of a table of n: heuristic and random seats in turn, shifted
// by the game, each seeded by the game and its seat.
func kitBots(n int, g uint64) []bot.Bot {
	bots := make([]bot.Bot, n)
	for seat := range bots {
		b, err := bot.New(bot.Kinds[(seat+int(g))%len(bot.Kinds)], g<<8|uint64(seat))
		if err != nil {
			panic(err)
		}
		bots[seat] = b
	}
	return bots
}

// recorder is a bot that writes down the moves it makes.
type recorder struct {
	bot.Bot
	moves *[]corruption.Move
}

func (r recorder) Decide(v corruption.View) corruption.Move {
	m := r.Bot.Decide(v)
	*r.moves = append(*r.moves, m)
	return m
}

// kitRun is a game played through the kit, and what a direct game needs to be the same game.
type kitRun struct {
	res   *enginetest.Result
	first int
	deck  []corruption.Contract // the contracts in the order dealt
	moves []corruption.Move     // the seats' moves, in order
	peeks int                   // peeks answered
}

func playKit(k tableKind, g uint64, watch func(enginetest.Turn) error, opts ...enginetest.Option) (*kitRun, error) {
	run := &kitRun{first: -1}
	var players []engine.Player
	for _, b := range kitBots(k.players, g) {
		players = append(players, bot.Player(recorder{b, &run.moves}))
	}
	record := func(tn enginetest.Turn) error {
		switch tn.Input.Kind {
		case engine.InRandom:
			run.first = tn.Input.Ints[0]
		case engine.InDealt:
			for _, c := range tn.Input.Cards {
				run.deck = append(run.deck, corruption.Contract(c))
			}
		case engine.InAnswered:
			run.peeks++
		}
		if watch != nil {
			return watch(tn)
		}
		return nil
	}
	opts = append(opts, enginetest.Watch(record))
	res, err := enginetest.Play(corruption.Rules{}, corruption.EncodeConfig(k.variant, k.lbb), players, g, opts...)
	run.res = res
	return run, err
}

// TestKitGames plays many games through the kit, every seat's node knowing only what it may,
// and holds each to the same game played directly with full information: the same first player
// and deck, and the same bots, must make the same moves and reach the same end.
func TestKitGames(t *testing.T) {
	games := uint64(8)
	if testing.Short() {
		games = 2
	}
	for ki, k := range tableKinds() { // 3..7 players, every variant, with and without the book
		t.Run(k.String(), func(t *testing.T) {
			t.Parallel()
			peeks := 0
			for g := uint64(ki) << 16; g < uint64(ki)<<16+games; g++ {
				run, err := playKit(k, g, checkKnowledge)
				if err != nil {
					t.Fatalf("game %#x: %v", g, err)
				}
				if err := sameAsDirect(k, g, run); err != nil {
					t.Fatalf("game %#x: %v", g, err)
				}
				peeks += run.peeks
			}
			if k.lbb && peeks == 0 {
				t.Errorf("%d games with the little black book and no peek answered", games)
			}
		})
	}
}

// sameAsDirect plays the game of run again on a plain State with full information and fresh
// bots seeded alike, and compares the moves, the final digest and the outcome.
func sameAsDirect(k tableKind, g uint64, run *kitRun) error {
	if len(run.deck) != corruption.NumContracts {
		return fmt.Errorf("the kit dealt %d contracts", len(run.deck))
	}
	s, err := corruption.New(corruption.Config{Players: k.players, Variant: k.variant, LittleBlackBook: k.lbb, Deck: run.deck, First: run.first})
	if err != nil {
		return err
	}
	var moves []corruption.Move
	if err := bot.Play(s, kitBots(k.players, g), func(m corruption.Move) { moves = append(moves, m) }); err != nil {
		return err
	}
	for i := range min(len(moves), len(run.moves)) {
		if moves[i] != run.moves[i] {
			return fmt.Errorf("move %d: %s through the kit, %s directly", i+1, run.moves[i], moves[i])
		}
	}
	if len(moves) != len(run.moves) {
		return fmt.Errorf("%d moves through the kit, %d directly", len(run.moves), len(moves))
	}
	for seat, eg := range append(slices.Clone(run.res.Seats), run.res.Observer) {
		if d := eg.(*corruption.Game).State().Digest(); d != s.Digest() {
			return fmt.Errorf("copy %d's final state digest differs from the direct game's", seat)
		}
	}
	out := run.res.Outcome
	for seat := range k.players {
		if v, _ := s.Score(seat); out.Scores[seat] != v {
			return fmt.Errorf("seat %d scores %d through the kit, %d directly", seat, out.Scores[seat], v)
		}
	}
	if !slices.Equal(out.Winners, s.Winners()) {
		return fmt.Errorf("winners %v through the kit, %v directly", out.Winners, s.Winners())
	}
	return nil
}

// checkKnowledge: after every input, a seat's node knows its own cards and, once a peek of its
// was answered, the card it peeked at; it knows no other face-down card before its reveal. The
// observer knows no face-down card at all.
func checkKnowledge(tn enginetest.Turn) error {
	for seat, eg := range append(slices.Clone(tn.Seats), tn.Observer) {
		g := eg.(*corruption.Game)
		s := g.State()
		if s == nil {
			continue
		}
		if seat == len(tn.Seats) {
			seat = -1
		}
		awaiting := g.Due().Kind == engine.StepAnswer
		for i := 1; i <= s.NumPlays(); i++ {
			p, _ := s.PlayAt(i)
			peeked := seat >= 0 && p.PeekedBy&(1<<seat) != 0
			known := p.Card != corruption.CardUnknown
			switch {
			case p.Revealed && !known:
				return fmt.Errorf("copy %d: card %d is revealed but unknown", seat, i)
			case p.Revealed:
			case p.Seat == seat && !known:
				return fmt.Errorf("seat %d does not know its own card %d", seat, i)
			case p.Seat != seat && known && !peeked:
				return fmt.Errorf("copy %d knows seat %d's face-down card %d (%s)", seat, p.Seat, i, p.Card)
			case peeked && !known && !awaiting:
				return fmt.Errorf("seat %d peeked at card %d and was answered, but does not know it", seat, i)
			}
			if seat < 0 {
				continue
			}
			if vp, _ := g.View(seat).Play(i); vp.Card != p.Card {
				return fmt.Errorf("seat %d's view of card %d is %s, its state's %s", seat, i, vp.Card, p.Card)
			}
		}
	}
	return nil
}

// TestKitEvents: the observer's OnEvent is told the game as it happens, in words and as
// corruption.Events: the same events as the direct game's, but for the order of the reveals
// (seat by seat at a table, all at once in a direct game). A Clone tells nobody.
func TestKitEvents(t *testing.T) {
	for g := uint64(0); g < 20; g++ {
		sameEvents(t, tableKind{3 + int(g%5), corruption.Variant(g % 4), g%4 != 3 && g%3 == 0}, g)
	}
	events := 0
	g, _ := corruption.Rules{}.New(corruption.EncodeConfig(corruption.Standard, false), 3, engine.Options{OnEvent: func(engine.Event) { events++ }})
	for _, in := range []engine.Input{{Kind: engine.InRandom, Ints: []int{0}}, {Kind: engine.InBuilt}, {Kind: engine.InShuffled},
		{Kind: engine.InDealt, Positions: []int{0, 1, 2, 3, 4, 5}, To: -1, Cards: []int{5, 4, 3, 2, 1, 0}}} {
		if err := g.Apply(in); err != nil {
			t.Fatal(err)
		}
	}
	c := g.Clone()
	if err := c.Apply(engine.Input{Kind: engine.InMove, Seat: 0, Move: []byte{3, 0, 1}}); err != nil || events != 6 {
		t.Errorf("a clone's move (%v): %d events told, want the 6 deals only", err, events)
	}
}

func sameEvents(t *testing.T, k tableKind, g uint64) {
	var kit, direct []corruption.Event
	run, err := playKit(k, g, nil, enginetest.Events(func(e engine.Event) {
		ce, ok := e.Data.(corruption.Event)
		if !ok || e.Text != ce.String() {
			t.Fatalf("event %+v: want a corruption.Event and its words", e)
		}
		kit = append(kit, ce)
	}))
	if err != nil {
		t.Fatal(err)
	}
	s, err := corruption.New(corruption.Config{Players: k.players, Variant: k.variant, LittleBlackBook: k.lbb, Deck: run.deck, First: run.first},
		corruption.WithEvents(func(e corruption.Event) { direct = append(direct, e) }))
	if err != nil {
		t.Fatal(err)
	}
	if err := bot.Play(s, kitBots(k.players, g), nil); err != nil {
		t.Fatal(err)
	}
	split := func(evs []corruption.Event) (others []corruption.Event, reveals int) {
		for _, e := range evs {
			if e.Kind == corruption.EventRevealed {
				reveals++
			} else {
				others = append(others, e)
			}
		}
		return others, reveals
	}
	ko, kr := split(kit)
	do, dr := split(direct)
	if !slices.Equal(ko, do) || kr != dr || kr == 0 {
		t.Errorf("%s game %d: %d events (%d reveals) at the table, %d (%d reveals) in the direct game", k, g, len(kit), kr, len(direct), dr)
	}
}

// BenchmarkKitGame is one 5-player game with the little black book through enginetest's table
// (six copies of the game). Run: go test -run='^$' -bench=KitGame ./engine/corruption/
func BenchmarkKitGame(b *testing.B) {
	k := tableKind{5, corruption.Standard, true}
	for i := range b.N {
		if _, err := playKit(k, uint64(i), nil); err != nil {
			b.Fatal(err)
		}
	}
}
