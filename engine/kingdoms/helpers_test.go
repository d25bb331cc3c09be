package kingdoms

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"corruption/engine"
)

// Ids of components, by name, for readable tests.
func favOf(t testing.TB, id string) int  { return must(t, id, ParseFavor) }
func ldrOf(t testing.TB, id string) int  { return must(t, id, ParseLeader) }
func billOf(t testing.TB, id string) int { return must(t, id, ParseBill) }
func gpOf(t testing.TB, id string) int   { return must(t, id, ParsePleasure) }
func cardOf(t testing.TB, id string) int { return must(t, id, ParseChaos) }
func corpID(t testing.TB, id string) int { return must(t, id, ParseCorporation) }

func must(t testing.TB, id string, parse func(string) (int, error)) int {
	t.Helper()
	v, err := parse(id)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// deal is a setup for tests: the corporations by id, seat 0 first, the market's favors and the
// display's guilty pleasures first in their decks (the rest in id order), seat s holding
// shareholder card s (2s and 2s+1 for two players), and each seat the first chaos cards of its
// corporation (its last cards for hands, when given).
type deal struct {
	players  int
	rules    Config
	first    int
	corps    []string
	favors   []string   // the top of the favor deck: the market, then the refills
	displays []string   // the top of the guilty pleasure deck
	hands    [][]string // chaos hands by seat
}

func (d deal) setup(t testing.TB) Setup {
	t.Helper()
	n := d.players
	corps := d.corps
	if corps == nil {
		corps = []string{"dracobank", "eclectic", "brickler", "turk", "mainline", "gretchen"}[:n]
	}
	s := Setup{First: d.first}
	for _, c := range corps {
		s.Corporations = append(s.Corporations, corpID(t, c))
	}
	per := FavorsPerType(n)
	var count [NumFavorTypes]int
	all := favors
	for _, id := range d.favors {
		f := favOf(t, id)
		if slices.Contains(s.FavorDeck, f) {
			continue
		}
		s.FavorDeck = append(s.FavorDeck, f)
		count[all[f].Type]++
	}
	for f, fv := range all {
		if !slices.Contains(s.FavorDeck, f) && count[fv.Type] < per {
			s.FavorDeck = append(s.FavorDeck, f)
			count[fv.Type]++
		}
	}
	for _, id := range d.displays {
		s.PleasureDeck = append(s.PleasureDeck, gpOf(t, id))
	}
	for p := range NumPleasures {
		if !slices.Contains(s.PleasureDeck, p) {
			s.PleasureDeck = append(s.PleasureDeck, p)
		}
	}
	c := ShareholderCards(n)
	for seat := range n {
		s.Shareholders = append(s.Shareholders, []int{seat * c, seat*c + c - 1}[:c])
		if d.rules.Chaos {
			hand := corporations[s.Corporations[seat]].Chaos[:ChaosDrawn(n)]
			if seat < len(d.hands) {
				hand = nil
				for _, id := range d.hands[seat] {
					hand = append(hand, cardOf(t, id))
				}
			}
			s.Chaos = append(s.Chaos, slices.Clone(hand))
		}
	}
	return s
}

// table is a local game under test, with the events it told.
type table struct {
	t      testing.TB
	l      *Local
	events []Event
}

func (d deal) start(t testing.TB) *table {
	t.Helper()
	tb := &table{t: t}
	l, err := NewLocal(d.rules, d.players, d.setup(t), func(e engine.Event) { tb.events = append(tb.events, e.Data.(Event)) })
	if err != nil {
		t.Fatal(err)
	}
	tb.l = l
	if d.rules.Chaos {
		for range d.players {
			dec := tb.next()
			tb.play(DiscardMove(dec.Seat, ChaosDrawn(d.players)-1)) // the last card dealt
		}
	}
	tb.next()
	tb.events = nil
	return tb
}

func (tb *table) next() Decision {
	tb.t.Helper()
	d, err := tb.l.Next()
	if err != nil {
		tb.t.Fatal(err)
	}
	return d
}

func (tb *table) g() *Game { return tb.l.Game() }

func (tb *table) view(seat int) View {
	tb.t.Helper()
	tb.next()
	return tb.g().View(seat)
}

// play makes the moves, each of which must be legal (and listed by Legal).
func (tb *table) play(ms ...Move) {
	tb.t.Helper()
	for _, m := range ms {
		tb.next()
		if m.Kind != MoveDiscard && !slices.ContainsFunc(tb.g().Legal(m.Seat), func(x Move) bool { return reflect.DeepEqual(x, m) }) {
			tb.t.Errorf("%s is not among seat %d's legal moves", m, m.Seat)
		}
		if err := tb.l.Play(m); err != nil {
			tb.t.Fatalf("%s: %v", m, err)
		}
	}
}

// votes has the seats due to vote vote yes (the seats listed in yes) or no.
func (tb *table) votes(yes ...int) {
	tb.t.Helper()
	d := tb.next()
	if d.Kind != DecideVote {
		tb.t.Fatalf("the game waits for %s, not votes", d)
	}
	for _, s := range d.Seats {
		tb.play(VoteMove(s, slices.Contains(yes, s)))
	}
}

// passes has the seats asked to answer pass until someone else must decide.
func (tb *table) passes() {
	tb.t.Helper()
	for d := tb.next(); d.Kind == DecideAnswer || d.Kind == DecideSteal; d = tb.next() {
		tb.play(PassMove(d.Seat))
	}
}

// reject makes move m, which must be refused with an error that says want, leaving the game as
// it was.
func (tb *table) reject(m Move, want string) {
	tb.t.Helper()
	tb.next()
	before := tb.g().Digest()
	err := tb.l.Play(m)
	if err == nil || !strings.Contains(err.Error(), want) {
		tb.t.Errorf("%s: %v, want an error that says %q", m, err, want)
	}
	if tb.g().Digest() != before {
		tb.t.Errorf("%s changed the game although it was refused", m)
	}
}

// saw reports whether an event of kind was told since the last call, and forgets the events.
func (tb *table) saw(kind EventKind) bool {
	tb.next()
	ok := slices.ContainsFunc(tb.events, func(e Event) bool { return e.Kind == kind })
	tb.events = nil
	return ok
}

// expectNext checks the decision due.
func (tb *table) expectNext(kind DecisionKind, seat int) {
	tb.t.Helper()
	if d := tb.next(); d.Kind != kind || kind != DecideVote && d.Seat != seat {
		tb.t.Fatalf("the game waits for %s, want seat %d's %s", d, seat, kind)
	}
}

// give sets seat's minions (golems, goblins, devils, zombies), taking them from the supply or
// returning them to it, for tests that need a player richer than the game made it.
func (tb *table) give(seat int, ms ...int) {
	p := &tb.g().p
	for m := range NumMinions {
		want := int8(0)
		if int(m) < len(ms) {
			want = int8(ms[m])
		}
		p.supply[m] += p.minions[seat][m] - want
		p.minions[seat][m] = want
	}
}

// own gives seat the guilty pleasures (ids) and control of the leaders (ids), as if it had
// won them.
func (tb *table) own(seat int, ids ...string) {
	tb.t.Helper()
	p := &tb.g().p
	for _, id := range ids {
		if l, err := ParseLeader(id); err == nil {
			p.control[l] = int8(seat)
			if leaders[l].Kingdom >= 0 {
				tb.g().checkMonarch(leaders[l].Kingdom)
			}
			continue
		}
		g := gpOf(tb.t, id)
		for i, c := range p.display {
			if int(c) == g {
				p.display[i] = -1
			}
		}
		p.owned[seat] |= 1 << g
	}
}

func (tb *table) minions(seat int) [NumMinions]int { return tb.view(seat).Seats[seat].Minions }

func (tb *table) billFavors(b int) []BillFavor { return tb.view(-1).Bills[b].Favors }

func ids(t testing.TB, parse func(string) (int, error), names ...string) []int {
	out := []int{}
	for _, n := range names {
		out = append(out, must(t, n, parse))
	}
	return out
}

// result is the result of the last vote told.
func (tb *table) result() VoteResult {
	tb.t.Helper()
	tb.next()
	for i := len(tb.events) - 1; i >= 0; i-- {
		if tb.events[i].Kind == EventResult {
			return tb.events[i].Result
		}
	}
	tb.t.Fatal("no vote was resolved")
	return 0
}
