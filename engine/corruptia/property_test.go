package corruptia_test

// Property tests: whole games through engine/enginetest (one copy per seat and an observer,
// the way the network table plays them), held after every input to what never changes:
// bills, officials and employees conserved; views that show a seat nothing it may not see;
// public opinion as the rule says; and at the end scores recomputed another way.

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
	"corruption/engine/enginetest"
)

func players(n int, seed uint64, kinds ...string) []engine.Player {
	ps := make([]engine.Player, n)
	for s := range ps {
		b, _ := bot.New(kinds[s%len(kinds)], seed<<4|uint64(s))
		ps[s] = bot.Player(b)
	}
	return ps
}

func defaultConfig() []byte {
	b, _ := corruptia.EncodeConfig(corruptia.DefaultConfig())
	return b
}

// TestKitGames plays games of 2 to 5 senators, among heuristic bots, random bots and both.
func TestKitGames(t *testing.T) {
	games := uint64(6)
	if testing.Short() {
		games = 2
	}
	for n := corruptia.MinPlayers; n <= corruptia.MaxPlayers; n++ {
		for _, kinds := range [][]string{{"heuristic", "random"}, {"random"}, {"heuristic"}} {
			t.Run(fmt.Sprintf("%d %s", n, strings.Join(kinds, "+")), func(t *testing.T) {
				t.Parallel()
				for seed := range games {
					w := &watcher{}
					res, err := enginetest.Play(corruptia.Rules{}, defaultConfig(), players(n, seed, kinds...), seed, enginetest.Watch(w.check))
					if err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					if err := checkEnd(res); err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
				}
			})
		}
	}
}

// watcher checks every input of a game.
type watcher struct{ prev *corruptia.View }

func (w *watcher) check(tn enginetest.Turn) error {
	obs := tn.Observer.(*corruptia.Game)
	pub := obs.View(-1)
	if err := conserved(pub); err != nil {
		return err
	}
	if err := noLeak(tn, pub); err != nil {
		return err
	}
	if err := opinion(w.prev, pub); err != nil {
		return err
	}
	w.prev = pub
	return nil
}

// conserved: 18 officials once the program starts (six a starting bill before), three
// employees a senator in reserves or on bills, 90 bills in the program, the pile, hands, the
// deck and the bills set aside, each in one place.
func conserved(v *corruptia.View) error {
	officials, employees := 0, 0
	for _, p := range v.Program {
		for _, k := range p.Officials {
			officials += k
		}
		for _, k := range p.Employees {
			employees += k
		}
	}
	for s := range v.Players {
		employees += v.Reserve[s]
		if v.Approval[s] < 0 {
			return fmt.Errorf("seat %d has %d approval tokens", s, v.Approval[s])
		}
	}
	if want := 6 * min(len(v.Program), 3); officials != want {
		return fmt.Errorf("%d officials in the program, want %d", officials, want)
	}
	if employees != 3*v.Players {
		return fmt.Errorf("%d employees, want %d", employees, 3*v.Players)
	}
	if v.Round == 0 {
		return nil
	}
	cards := len(v.Program) + len(v.Pile) + v.DeckLeft + corruptia.SetAside(v.Players)
	var seen []corruptia.Bill
	for _, p := range v.Program {
		seen = append(seen, p.Bill)
	}
	seen = append(seen, v.Pile...)
	for _, h := range v.Hands {
		cards += len(h)
		for _, b := range h {
			if b != corruptia.Unknown {
				seen = append(seen, b)
			}
		}
	}
	if cards != corruptia.NumBills {
		return fmt.Errorf("%d bills in the program, the pile, the hands, the deck and set aside, want 90", cards)
	}
	slices.Sort(seen)
	if len(slices.Compact(slices.Clone(seen))) != len(seen) {
		return fmt.Errorf("a bill is in two places: %v", seen)
	}
	return nil
}

// noLeak: a seat's node sees its own hand and its opening discard, and of every other hand
// what all see; the observer sees what all see.
func noLeak(tn enginetest.Turn, pub *corruptia.View) error {
	for s, eg := range tn.Seats {
		g := eg.(*corruptia.Game)
		mine := g.View(s)
		for o := range pub.Players {
			if o == s {
				if slices.Contains(mine.Hands[s], corruptia.Unknown) {
					return fmt.Errorf("seat %d does not know its own hand %v", s, mine.Hands[s])
				}
				continue
			}
			if !slices.Equal(mine.Hands[o], pub.Hands[o]) {
				return fmt.Errorf("seat %d sees seat %d's hand as %v, all see %v", s, o, mine.Hands[o], pub.Hands[o])
			}
			if v := g.View(o); v.Opening != corruptia.Unknown || !slices.Equal(v.Hands[o], pub.Hands[o]) {
				return fmt.Errorf("seat %d's node knows seat %d's bills", s, o)
			}
		}
		if tn.Observer.(*corruptia.Game).View(s).Opening != corruptia.Unknown || !slices.Equal(tn.Observer.(*corruptia.Game).View(s).Hands[s], pub.Hands[s]) {
			return fmt.Errorf("the observer knows seat %d's bills", s)
		}
	}
	return nil
}

// opinion: when a vote is resolved, every senator's approval is what Opinion says, but for
// tokens won when the supply of 30 is empty: tokens lost go back first, then the winners take
// theirs in turn order from the active senator.
func opinion(prev, cur *corruptia.View) error {
	if prev == nil || prev.Proposal == nil || (cur.Proposal != nil && cur.Active == prev.Active) || cur.LastBill != prev.Proposal.Bill {
		return nil
	}
	n := cur.Players
	want := make([]int, n)
	supply := corruptia.TokenSupply
	for s := range n {
		o := corruptia.Opinion(prev.Die, prev.Proposal.Bill, cur.Votes[s], prev.Pressed[s], prev.Approval[s])
		want[s] = o.Approval - boolInt(o.Gained)
		supply -= want[s]
	}
	for i := range n {
		s := (prev.Active + i) % n
		if corruptia.Opinion(prev.Die, prev.Proposal.Bill, cur.Votes[s], prev.Pressed[s], prev.Approval[s]).Gained && supply > 0 {
			want[s]++
			supply--
		}
	}
	for s := range n {
		if cur.Approval[s] != want[s] {
			return fmt.Errorf("seat %d voted %s (pressed %s, die %s, %s): approval %d -> %d, want %d",
				s, cur.Votes[s], prev.Pressed[s], prev.Die, prev.Proposal.Bill, prev.Approval[s], cur.Approval[s], want[s])
		}
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkEnd: every hand shown, the deck dealt to its last bill, and the scores and winners
// recomputed from the program by independentValues.
func checkEnd(res *enginetest.Result) error {
	pub := res.Observer.(*corruptia.Game).View(-1)
	if pub.DeckLeft != 0 {
		return fmt.Errorf("%d bills left in the deck", pub.DeckLeft)
	}
	values := independentValues(pub.Program)
	best := -1
	for s := range pub.Players {
		score := 5*pub.Approval[s] + 5*pub.Reserve[s]
		for _, b := range pub.Hands[s] {
			if !b.Valid() {
				return fmt.Errorf("seat %d's hand is not shown: %v", s, pub.Hands[s])
			}
			score += values[b.Department()]
		}
		if res.Outcome.Scores[s] != score {
			return fmt.Errorf("seat %d scores %d, recomputed %d", s, res.Outcome.Scores[s], score)
		}
		if best < 0 || score > pub.Scores[best] || score == pub.Scores[best] && pub.Approval[s] > pub.Approval[best] {
			best = s
		}
	}
	if !slices.Contains(res.Outcome.Winners, best) {
		return fmt.Errorf("winners %v, but seat %d has the best score and approval", res.Outcome.Winners, best)
	}
	return nil
}

// TestDeterminism: the same seed plays the same game, to the same digest.
func TestDeterminism(t *testing.T) {
	var digests [2][32]byte
	for i := range digests {
		res, err := enginetest.Play(corruptia.Rules{}, defaultConfig(), players(4, 3, "heuristic", "random"), 3)
		if err != nil {
			t.Fatal(err)
		}
		digests[i] = res.Digest
	}
	if digests[0] != digests[1] {
		t.Fatal("the same game reached two digests")
	}
}

// TestEvents: every event comes with its words, and a Clone tells nobody.
func TestEvents(t *testing.T) {
	kinds := map[corruptia.EventKind]bool{}
	for seed := range uint64(6) {
		_, err := enginetest.Play(corruptia.Rules{}, defaultConfig(), players(2+int(seed%4), seed, "random", "heuristic"), seed,
			enginetest.Events(func(e engine.Event) {
				ce, ok := e.Data.(corruptia.Event)
				if !ok || e.Text != ce.String() || e.Text == "" || strings.Contains(e.Text, "%!") || strings.HasPrefix(e.Text, "event(") {
					t.Fatalf("event %+v: %q", e.Data, e.Text)
				}
				kinds[ce.Kind] = true
			}))
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(kinds) < 18 {
		t.Errorf("only %d kinds of event told in six games", len(kinds))
	}
	told := 0
	g, _ := corruptia.Rules{}.New(defaultConfig(), 3, engine.Options{OnEvent: func(engine.Event) { told++ }})
	if err := g.Clone().Apply(engine.Input{Kind: engine.InRandom, Ints: []int{1}}); err != nil || told != 0 {
		t.Fatalf("a clone's input (%v) told %d events", err, told)
	}
}

// TestHostViews: a host's one copy knows every hand, yet each seat's View shows it only its
// own, and the spectator's none: what bots in a simulation are given.
func TestHostViews(t *testing.T) {
	for n := corruptia.MinPlayers; n <= corruptia.MaxPlayers; n++ {
		g, err := corruptia.NewGame(corruptia.DefaultConfig(), n, nil)
		if err != nil {
			t.Fatal(err)
		}
		h := corruptia.NewHost(g)
		checked := 0
		h.OnInput = func(engine.Step, engine.Input) {
			pub := g.View(-1)
			for s := range n {
				v := g.View(s)
				for o := range n {
					if o != s && !slices.Equal(v.Hands[o], pub.Hands[o]) {
						t.Fatalf("seat %d's view shows seat %d's hand %v, all see %v", s, o, v.Hands[o], pub.Hands[o])
					}
				}
				if slices.Contains(v.Hands[s], corruptia.Unknown) {
					t.Fatalf("seat %d's view hides its own hand: %v", s, v.Hands[s])
				}
			}
			if pub.Opening != corruptia.Unknown {
				t.Fatal("the spectator sees an opening discard")
			}
			checked++
		}
		bots := make([]bot.Bot, n)
		for s := range bots {
			bots[s], _ = bot.New("heuristic", uint64(s))
		}
		if err := bot.Play(h, corruptia.Seeded(uint64(n), 1), bots); err != nil {
			t.Fatal(err)
		}
		if checked < 100 {
			t.Fatalf("%d inputs checked", checked)
		}
	}
}
