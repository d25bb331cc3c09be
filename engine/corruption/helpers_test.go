package corruption_test

// Helpers shared by the engine's tests: scenario scripts written as JSON (the format of
// engine/corruption/script, issue 2) and run through script.Parse and Run, and the checks made on the state
// they reach.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"corruption/engine/corruption"
	"corruption/engine/corruption/script"
)

// game is a scenario: the header of a script and its moves, each a JSON object.
type game struct {
	players int    // 0 is 3
	variant string // "" is standard
	lbb     bool
	deck    []string // top of the deck; completed with the other contracts in RULES.md order
	first   int
	moves   []string
}

// fullDeck completes top with every other contract, in the order of the table in RULES.md.
func fullDeck(top ...string) []string {
	seen := map[string]bool{}
	out := append([]string(nil), top...)
	for _, c := range top {
		seen[c] = true
	}
	for _, ci := range corruption.DefaultDeck {
		if !seen[ci.ID] {
			out = append(out, ci.ID)
		}
	}
	return out
}

// JSON writes the scenario as a script.
func (g game) JSON() string {
	if g.players == 0 {
		g.players = 3
	}
	variant := g.variant
	if variant == "" {
		variant = "standard"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `{"players": %d, "variant": %q, "little_black_book": %t, "deck": [`, g.players, variant, g.lbb)
	for i, c := range fullDeck(g.deck...) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", c)
	}
	fmt.Fprintf(&b, "],\n\"first\": %d, \"moves\": [\n", g.first)
	b.WriteString(strings.Join(g.moves, ",\n"))
	b.WriteString("\n]}")
	return b.String()
}

// turns writes one round's placements in turn order: seat first, then clockwise. hands[s] lists
// seat s's cards in the order it plays them, as "card:place" separated by spaces
// ("10000:school 4000:swiss:city"). Writing stops at the first seat with nothing left to play,
// so a round can be cut short.
func turns(first int, hands ...string) []string {
	n := len(hands)
	lists := make([][]string, n)
	for s, h := range hands {
		lists[s] = strings.Fields(h)
	}
	var out []string
	for k := 0; ; k++ {
		s := (first + k) % n
		if k/n >= len(lists[s]) {
			return out
		}
		card, on, ok := strings.Cut(lists[s][k/n], ":")
		if !ok {
			panic("turns: want card:place, got " + lists[s][k/n])
		}
		out = append(out, fmt.Sprintf(`{"seat": %d, "card": %q, "on": %q}`, s, card, on))
	}
}

// moves joins lists of moves.
func moves(parts ...any) []string {
	var out []string
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			out = append(out, p)
		case []string:
			out = append(out, p...)
		default:
			panic(fmt.Sprintf("moves: %T", p))
		}
	}
	return out
}

// run parses and replays the scenario, collecting events. A parse error fails the test: every
// scenario must be well-formed, whatever its moves do.
func run(t *testing.T, g game) (*corruption.State, []corruption.Event, error) {
	t.Helper()
	sc, err := script.Parse([]byte(g.JSON()))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, g.JSON())
	}
	var evs []corruption.Event
	s, err := sc.Run(corruption.WithEvents(func(e corruption.Event) { evs = append(evs, e) }))
	if s == nil {
		t.Fatalf("run: no state: %v", err)
	}
	return s, evs, err
}

// mustParse parses the scenario's script.
func mustParse(t *testing.T, g game) *script.Script {
	t.Helper()
	sc, err := script.Parse([]byte(g.JSON()))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, g.JSON())
	}
	return sc
}

// mustRun is run for scenarios that must replay without error.
func mustRun(t *testing.T, g game) (*corruption.State, []corruption.Event) {
	t.Helper()
	s, evs, err := run(t, g)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	return s, evs
}

// outcome is what a scenario must reach. Zero fields are not checked, except where noted.
type outcome struct {
	err      string   // the replay error must start with this; "" means no error
	errHas   string   // and contain this
	round    int      // State.Round
	first    *int     // this round's first player
	next     string   // Next, as written by decision
	scores   []int    // total value won, by seat
	won      []string // contracts won, by seat, space-separated ids in the order won
	deferred *string  // ids of the deferred contracts on the table, in table order
	table    *string  // ids of every contract on the table, in table order
	winners  []int    // checked when over is set
	over     bool     // the game must be over (and winners checked)
}

func intp(i int) *int       { return &i }
func strp(s string) *string { return &s }

// decision writes a Decision as "kind seat" or "kind seat #index": "place 1", "remove 2 #7",
// "none".
func decision(d corruption.Decision) string {
	switch {
	case d.Kind == corruption.DecideNothing:
		return "none"
	case d.Kind == corruption.DecideDeal:
		return "deal"
	case d.Index > 0:
		return fmt.Sprintf("%s %d #%d", d.Kind, d.Seat, d.Index)
	}
	return fmt.Sprintf("%s %d", d.Kind, d.Seat)
}

func ids(cs []corruption.Contract) string {
	var ss []string
	for _, c := range cs {
		ss = append(ss, c.String())
	}
	return strings.Join(ss, " ")
}

func deferredIDs(s *corruption.State) string {
	var out []corruption.Contract
	for _, c := range s.Table() {
		if s.Deferred(c) {
			out = append(out, c)
		}
	}
	return ids(out)
}

func check(t *testing.T, s *corruption.State, err error, want outcome) {
	t.Helper()
	switch {
	case want.err == "" && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case want.err != "" && err == nil:
		t.Fatalf("no error, want %q", want.err)
	case want.err != "" && !strings.HasPrefix(err.Error(), want.err):
		t.Fatalf("error %q, want it to start with %q", err, want.err)
	}
	if want.err != "" {
		var me *corruption.MoveError
		if !errors.As(err, &me) && !errors.Is(err, corruption.ErrGameOver) {
			t.Errorf("error %q is neither a *corruption.MoveError nor corruption.ErrGameOver", err)
		}
	}
	if want.round != 0 && s.Round() != want.round {
		t.Errorf("round %d, want %d", s.Round(), want.round)
	}
	if want.first != nil && s.First() != *want.first {
		t.Errorf("first player %d, want %d", s.First(), *want.first)
	}
	if want.next != "" {
		if got := decision(s.Next()); got != want.next {
			t.Errorf("next %q, want %q", got, want.next)
		}
	}
	for seat, v := range want.scores {
		if got, _ := s.Score(seat); got != v {
			t.Errorf("seat %d scores %d, want %d", seat, got, v)
		}
	}
	for seat, w := range want.won {
		got := ids(s.Won(seat))
		if got != w {
			t.Errorf("seat %d won [%s], want [%s]", seat, got, w)
		}
		if _, n := s.Score(seat); n != len(strings.Fields(w)) {
			t.Errorf("seat %d has %d contracts, want %d", seat, n, len(strings.Fields(w)))
		}
	}
	if want.deferred != nil {
		if got := deferredIDs(s); got != *want.deferred {
			t.Errorf("deferred [%s], want [%s]", got, *want.deferred)
		}
	}
	if want.table != nil {
		if got := ids(s.Table()); got != *want.table {
			t.Errorf("table [%s], want [%s]", got, *want.table)
		}
	}
	if want.over != s.Over() {
		t.Errorf("over %t, want %t", s.Over(), want.over)
	}
	if want.over {
		got := s.Winners()
		if len(got) == 0 && len(want.winners) == 0 {
			return
		}
		if !reflect.DeepEqual(got, want.winners) {
			t.Errorf("winners %v, want %v", got, want.winners)
		}
	}
}

// eventsOf keeps the events of the given kinds, written briefly for comparisons:
// "cancelled opera", "awarded monument 0", "removed 2 #7 #1" (seat, reporter, bribe),
// "killed 0 #3 #5" (seat, hit man, victim), "assigned 0 #5 monument", "passed 1 #4",
// "deferred firehouse".
func eventsOf(evs []corruption.Event, kinds ...corruption.EventKind) []string {
	var out []string
	for _, e := range evs {
		keep := false
		for _, k := range kinds {
			keep = keep || e.Kind == k
		}
		if !keep {
			continue
		}
		switch e.Kind {
		case corruption.EventCancelled:
			out = append(out, "cancelled "+e.Contract.String())
		case corruption.EventAwarded:
			out = append(out, fmt.Sprintf("awarded %s %d", e.Contract, e.Seat))
		case corruption.EventDeferred:
			out = append(out, "deferred "+e.Contract.String())
		case corruption.EventRemoved:
			out = append(out, fmt.Sprintf("removed %d #%d #%d", e.Seat, e.Index, e.Target))
		case corruption.EventKilled:
			out = append(out, fmt.Sprintf("killed %d #%d #%d", e.Seat, e.Index, e.Target))
		case corruption.EventAssigned:
			out = append(out, fmt.Sprintf("assigned %d #%d %s", e.Seat, e.Index, e.Contract))
		case corruption.EventPassed:
			out = append(out, fmt.Sprintf("passed %d #%d", e.Seat, e.Index))
		default:
			out = append(out, fmt.Sprintf("%d", e.Kind))
		}
	}
	return out
}

// shuffled is a random contract deck.
func shuffled(rng *rand.Rand) []corruption.Contract {
	deck := make([]corruption.Contract, corruption.NumContracts)
	for i, j := range rng.Perm(corruption.NumContracts) {
		deck[i] = corruption.Contract(j)
	}
	return deck
}

func contract(t testing.TB, id string) corruption.Contract {
	t.Helper()
	c, err := corruption.ParseContract(id)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func spot(t testing.TB, id string) corruption.Spot {
	t.Helper()
	s, err := corruption.ParseSpot(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// snapshot is everything a rejected move must leave alone: the whole state (compared deeply,
// unexported fields included, with the event callback set aside), its digest, Next, the cards
// played and what each seat holds.
type snapshot struct {
	state   *corruption.State // nil in a light snapshot
	digest  [32]byte
	next    corruption.Decision
	plays   []corruption.Play
	private string
}

func snap(s *corruption.State) snapshot {
	sn := snapLight(s)
	sn.state = s.Clone()
	sn.state.OnEvent = nil
	return sn
}

// snapLight is snap without the deep copy of the state (cheaper, for the many moves of the
// property tests): the seats' hands, peeks, scores and characters stand for it.
func snapLight(s *corruption.State) snapshot {
	sn := snapshot{digest: s.Digest(), next: s.Next()}
	for i := 1; ; i++ {
		p, ok := s.PlayAt(i)
		if !ok {
			break
		}
		sn.plays = append(sn.plays, p)
	}
	b := []byte{byte(s.Round()), byte(s.Phase()), byte(s.First()), byte(s.FaceUp()), byte(s.NumPlays())}
	for _, c := range s.Table() {
		b = append(b, byte(c))
	}
	for seat := 0; seat < s.Config().Players; seat++ {
		v, n := s.Score(seat)
		da, rep, hm := s.CharactersLeft(seat)
		b = append(b, 0xff, byte(s.PeeksLeft(seat)), byte(s.Placed(seat)), byte(n), byte(da), byte(rep), byte(hm))
		b = binary.BigEndian.AppendUint32(b, uint32(v))
		for _, c := range s.Hand(seat) {
			b = append(b, byte(c))
		}
		b = append(b, 0xfe)
		for _, c := range s.Won(seat) {
			b = append(b, byte(c))
		}
	}
	sn.private = string(b)
	return sn
}

// same reports what differs between two snapshots ("" when nothing).
func (a snapshot) same(b snapshot) string {
	switch {
	case a.digest != b.digest:
		return "digest changed"
	case a.next != b.next:
		return fmt.Sprintf("Next changed from %v to %v", a.next, b.next)
	case !slices.Equal(a.plays, b.plays):
		return "the cards played (PlayAt) changed"
	case a.private != b.private:
		return fmt.Sprintf("the state changed (hands, scores, peeks or table) from %x to %x", a.private, b.private)
	case a.state != nil && b.state != nil && !reflect.DeepEqual(*a.state, *b.state):
		return "the state changed"
	}
	return ""
}

// rngFor is a deterministic random source for a test.
func rngFor(a, b uint64) *rand.Rand { return rand.New(rand.NewPCG(a, b)) }

// parseOnly parses a script.
func parseOnly(s string) (*script.Script, error) { return script.Parse([]byte(s)) }

// naturalDeck is the deck in the order of RULES.md's table.
func naturalDeck(t testing.TB) []corruption.Contract {
	var deck []corruption.Contract
	for _, id := range fullDeck() {
		deck = append(deck, contract(t, id))
	}
	return deck
}
