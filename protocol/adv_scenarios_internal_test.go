package protocol

import (
	"bytes"
	"crypto/ed25519"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"corruption/crypto"
	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/protocol/memnet"
)

// The scenarios of the live cheater harness, and what the honest nodes must conclude
// (docs/SECURITY.md quotes TestCheaters's totals).

func advScenarios() []advScenario {
	std := func(name string, players, cheater int, forge advForge) advScenario {
		return advScenario{name: name, players: players, cheater: cheater, variant: corruption.Standard, forge: forge}
	}
	faulty := memnet.Faults{Drop: 0.05, Duplicate: 0.05, Reorder: 0.1, MaxDelay: 2 * time.Millisecond}
	withFaults := func(sc advScenario) advScenario {
		sc.name += "+faults"
		sc.faults = faulty
		return sc
	}
	completes := func(sc advScenario) advScenario { sc.complete = true; return sc }
	// A cheat caught in the game's play, at a table of three seats or more: the cheater's seat
	// is opened and the others play on (convict.go).
	on := func(sc advScenario) advScenario { sc.playsOn = true; return sc }
	steered := func(sc advScenario, steer func(*advCheater) advSteer) advScenario {
		sc.steer = steer
		return sc
	}
	// With the little black book, the honest players peek at the cheater's cards.
	book := func(sc advScenario) advScenario {
		sc.lbb, sc.honest = true, func(c *advCheater) advSteer { return advPeekAt(c.seat) }
		return sc
	}
	toy := func(sc advScenario) advScenario { sc.toy = true; return sc }
	first := func(k Kind, f advForge) advForge { return advFirst(advKind(k), f) }
	blamer := std("blame-false", 4, 2, advFalseBlame)
	blamer.lbb, blamer.steer = true, func(*advCheater) advSteer { return advPeekAt(func() int { return -1 }) }
	list := []advScenario{
		// An equivocation: the log is cut at the twins, and the others play on (cut.go).
		on(std("equivocation-broadcast", 4, 1, first(KindShuffle, advEquivocateBroadcast))),
		on(std("equivocation-split", 4, 2, advFirst(advFaceDown, advEquivocateSplit))),
		std("signature-forged", 3, 1, first(KindKey, advForgedSig)),
		std("signature-missing", 3, 2, first(KindMove, advMissingSig)),
		completes(std("signature-impersonation", 4, 1, advImpersonate)),
		completes(std("out-of-turn", 4, 3, advOutOfTurn)),
		std("replay-other-table", 3, 0, first(KindKey, advReplayOther)),
		on(std("shuffle-swap", 4, 2, first(KindShuffle, advShuffleChange(func(d crypto.Deck) { d[0], d[1] = d[1], d[0] })))),
		on(std("shuffle-duplicate", 4, 0, first(KindShuffle, advShuffleChange(func(d crypto.Deck) { d[1] = d[0] })))),
		on(std("shuffle-proof-from-other-table", 3, 1, first(KindShuffle, advShuffleOtherTable))),
		on(std("deal-wrong-share", 4, 3, first(KindShares, advWrongShare))),
		on(std("deal-wrong-share-to-one-then-loss", 4, 3, first(KindShares, advShareToOne))),
		on(std("random-off-chain", 3, 1, advFirst(advGameRandom, advRandomOffChain))),
		std("order-reveal-off-chain", 3, 1, first(KindRandom, advRandomOffChain)),
		on(std("reveal-other-card", 3, 1, first(KindOpen, advOpenOther))),
		// A card placed face down against the rules: refused at its reveal, the seat convicted,
		// and the stand-in's card revealed in its place (convict.go, "Replacing what the game
		// refused").
		on(std("place-twice-in-round", 4, 1, advCommitCheat(advPlacedTwice))),
		on(steered(std("place-character-on-swiss", 3, 2, advCommitCheat(advSwissCharacter)), advSteerSwiss)),
		on(steered(std("place-character-used-earlier", 3, 0, advCommitCheat(advUsedEarlier)), advSteerCharacters)),
		on(book(std("answer-lying", 4, 1, first(KindAnswer, advLyingAnswer(advAnswerLie))))),
		on(book(std("answer-garbage", 3, 2, first(KindAnswer, advLyingAnswer(advAnswerGarbage))))),
		on(book(std("answer-oracle", 4, 3, first(KindAnswer, advLyingAnswer(advAnswerOracle))))),
		on(blamer),
		on(toy(std("choice-opened-other", 3, 1, first(KindOpen, advOpenOther)))),
		on(toy(std("deal-private-wrong-share", 3, 2, first(KindShares, advWrongShare)))),
		std("silent-at-shuffle", 4, 2, first(KindShuffle, advSilent)),
		std("silent-before-reveal", 4, 1, first(KindOpen, advSilent)),
		// The last in the roster reveals last for the seat order's draw, knowing every other
		// reveal (so the order) before its own: it refuses.
		std("silent-last-random-reveal", 3, 2, advFirst(advLastOrderReveal, advSilent)),
		// The escrow (escrow.go; the harness's tables all have it).
		std("escrow-bad-share", 4, 1, first(KindEscrow, advEscrowBadShare)),
		std("escrow-other-secret", 4, 2, first(KindEscrow, advEscrowOtherSecret)),
		std("escrow-silent-dealer", 3, 1, first(KindEscrow, advSilent)),
		std("escrow-false-complaint", 4, 3, advFirst(advOrderReveal, advFalseComplaint)),
	}
	poison := completes(std("sync-poisoned-answers", 4, 2, func(_ *advCheater, e *Entry) ([]advSend, error) { return advPass(e) }))
	poison.setup = advPoisonSync
	list = append(list, poison)
	for _, name := range []string{"equivocation-broadcast", "shuffle-duplicate", "place-twice-in-round", "answer-lying", "silent-before-reveal"} {
		if testing.Short() {
			break // -short (the race pass) plays each cheat once, on a perfect network
		}
		for _, sc := range list {
			if sc.name == name {
				list = append(list, withFaults(sc))
			}
		}
	}
	if raceDetector {
		list = firstOfEachKind(list)
		// A cheat the table plays on from plays the whole game after it: under the race
		// detector three of them (a proof that fails, a lie a blame proves, and twins that
		// cut the honest nodes' logs) stand for the others, which run the same
		// steps (convict.go, cut.go).
		list = slices.DeleteFunc(list, func(sc advScenario) bool {
			return sc.playsOn && sc.name != "shuffle-swap" && sc.name != "answer-lying" && sc.name != "equivocation-broadcast"
		})
	}
	return list
}

// firstOfEachKind keeps the first scenario of each kind of cheat, the first word of its name
// (equivocation, signature, shuffle, ...): under the race detector, which finds races in the
// code a kind of cheat runs, not in which card it forges.
func firstOfEachKind(list []advScenario) []advScenario {
	seen := map[string]bool{}
	var out []advScenario
	for _, sc := range list {
		kind, _, _ := strings.Cut(sc.name, "-")
		if !seen[kind] {
			seen[kind] = true
			out = append(out, sc)
		}
	}
	return out
}

// TestCheaters plays each cheat live (docs/SECURITY.md quotes its totals):
//
//	go test -run TestCheaters -v ./protocol/
func TestCheaters(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var tried, caught, dropped, playedOn int
	// The games mostly wait: run four at a time.
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, sc := range advScenarios() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			t.Run(sc.name, func(t *testing.T) {
				defer func() {
					mu.Lock()
					defer mu.Unlock()
					tried++
					switch {
					case t.Failed():
					case sc.complete:
						dropped++
					case sc.playsOn:
						playedOn++
					default:
						caught++
					}
				}()
				// A cheat needs a position the game may not reach: a game that ends without it
				// is played again, with another seed, up to three games.
				var runs []advRun
				var c *advCheater
				for try := range 3 {
					runs, c = advPlay(t, sc, uint64(100+i+1000*try))
					c.mu.Lock()
					fired := c.fired
					c.mu.Unlock()
					if fired > 0 {
						break
					}
					t.Logf("try %d: the game never offered the cheat its chance; playing again", try+1)
				}
				advCheck(t, sc, runs, c)
			})
		}()
	}
	wg.Wait()
	t.Logf("cheats tried %d: %d convicted with the seat opened and the game played on to one log on every honest node, valid for every audit; %d named with the same verdict on every honest node and in every audit (a seat silent in mid-game: opened, the others playing on to one log); %d dropped with the game completing identically; %d failed",
		tried, playedOn, caught, dropped, tried-playedOn-caught-dropped)
}

// advAudit audits a node's saved log.
func advAudit(t *testing.T, dir string) (*Report, []*Entry) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "tables", advTable, "log"))
	if err != nil {
		t.Fatalf("the node lost its log: %v", err)
	}
	entries, err := ReadLog(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the node's log is damaged: %v", err)
	}
	rep, err := Audit(bytes.NewReader(b), engine.Options{})
	if err != nil {
		t.Fatalf("audit: %v", err)
	}
	return rep, entries
}

// advReportKind is the verdict kind an audit report names.
func advReportKind(rep *Report) VerdictKind {
	switch {
	case strings.Contains(rep.Problem, "equivocated"):
		return VerdictEquivocation
	case strings.Contains(rep.Problem, "cheated"):
		return VerdictCheat
	case strings.Contains(rep.Problem, "abandoned"), strings.Contains(rep.Problem, "incomplete"):
		return VerdictAbandoned
	}
	return 0
}

// advCheck checks the honest nodes' ends against the scenario: identical complete games, or
// one verdict (kind, seq, seat) naming the cheater, on every node and in every saved log.
func advCheck(t *testing.T, sc advScenario, runs []advRun, c *advCheater) {
	t.Helper()
	c.mu.Lock()
	expect, fired, errs := c.expect, c.fired, c.errs
	c.mu.Unlock()
	for _, err := range errs {
		t.Errorf("cheater: %v", err)
	}
	if fired == 0 {
		t.Fatalf("the cheat was never played (the game never offered the chance)")
	}
	if !sc.complete && expect == nil {
		t.Fatalf("the cheat was played but set no expected verdict")
	}
	t.Logf("cheat played %d times; the honest nodes must conclude: %v", fired, expect)
	advNoOracleShare(t, runs, c, sc.playsOn)
	if sc.playsOn {
		advPlayedOn(t, sc, runs, expect)
		return
	}
	var want *Verdict
	if !sc.complete {
		want = expect
	}
	// A seat silent in mid-game at a table that escrows (the harness's tables all do) is not
	// named: the others agree that it left and play on with its seat open (depart.go).
	openSeat := -1
	if want != nil && want.Kind == VerdictAbandoned && advDeparts(t, runs, sc, want) {
		t.Logf("the silent seat %d can be opened: the honest nodes must play on without it", want.Seat)
		openSeat, want = want.Seat, nil
	}
	var ref []*Entry
	for i, r := range runs {
		if i == sc.cheater {
			continue
		}
		if r.err != nil {
			t.Errorf("node %d: Run: %v (a hang or a crash)", i, r.err)
			continue
		}
		rep, log := advAudit(t, r.dir)
		if seat := advSeatOf(t, log, r.key); r.out.Seat != seat {
			t.Errorf("node %d says it sat at seat %d; its log seats it at %d", i, r.out.Seat, seat)
		}
		if i == 0 && want != nil {
			t.Logf("the cheater, n%d, sat at seat %d", sc.cheater, advSeatOf(t, log, runs[sc.cheater].key))
		}
		v := r.out.Verdict
		if want == nil {
			if !r.out.Finished || v != nil {
				t.Errorf("node %d: finished %v, verdict %v; want a complete game", i, r.out.Finished, v)
				continue
			}
			if !rep.Valid {
				t.Errorf("node %d: audit of its log: %s", i, rep.Problem)
			}
			if openSeat >= 0 && !slices.Equal(r.out.Open, []int{openSeat}) {
				t.Errorf("node %d: open seats %v, want the silent seat %d", i, r.out.Open, openSeat)
			}
			if ref == nil {
				ref = log
			} else if !advSameLog(ref, log) {
				t.Errorf("node %d's log differs from the first honest node's", i)
			}
			continue
		}
		if cs := advSeatOf(t, log, runs[sc.cheater].key); want.Seat != cs {
			t.Errorf("the expected verdict names seat %d, but the cheater sits at seat %d in node %d's log", want.Seat, cs, i)
		}
		if v == nil || v.Kind != want.Kind || v.Seq != want.Seq || v.Seat != want.Seat {
			t.Errorf("node %d: verdict %v (finished %v); want %s at entry %d naming seat %d", i, v, r.out.Finished, want.Kind, want.Seq, want.Seat)
			continue
		}
		// An abandonment: the log stops where the seat was due, and either names it through
		// the node's signed note at its end, or (a copy without the note) names the seat it
		// waits for and blames nobody, since a log cut short proves nothing.
		named := rep.Blamed
		if want.Kind == VerdictAbandoned && rep.Blamed == -1 {
			named = rep.WaitingFor
		}
		if rep.Valid || named != want.Seat || rep.At != int64(want.Seq) || advReportKind(rep) != want.Kind {
			t.Errorf("node %d: audit of its log says %q (blamed %d, waiting for %d, at %d); want %s at entry %d naming seat %d",
				i, rep.Problem, rep.Blamed, rep.WaitingFor, rep.At, want.Kind, want.Seq, want.Seat)
		}
		if uint64(len(log)) < want.Seq {
			t.Errorf("node %d: its log holds %d entries, fewer than the %d before the verdict", i, len(log), want.Seq)
		}
	}
}

// advPlayedOn checks that every honest node played the game to its end after the cheat want
// names: the cheater convicted at that entry, its seat open and played by the stand-in, the
// same log on every honest node, and that log valid for an audit, which reports the
// conviction.
func advPlayedOn(t *testing.T, sc advScenario, runs []advRun, want *Verdict) {
	t.Helper()
	if want == nil || (want.Kind != VerdictCheat && want.Kind != VerdictEquivocation) {
		t.Fatalf("a cheat the table plays on from must convict its seat; the cheater expects %v", want)
	}
	var ref []*Entry
	for i, r := range runs {
		if i == sc.cheater {
			continue
		}
		if r.err != nil {
			t.Errorf("node %d: Run: %v (a hang or a crash)", i, r.err)
			continue
		}
		rep, log := advAudit(t, r.dir)
		if cs := advSeatOf(t, log, runs[sc.cheater].key); cs != want.Seat {
			t.Errorf("the cheat names seat %d, but the cheater sits at seat %d in node %d's log", want.Seat, cs, i)
		}
		if !r.out.Finished || r.out.Verdict != nil {
			t.Errorf("node %d: finished %v, verdict %v; want the game played on to its end without seat %d", i, r.out.Finished, r.out.Verdict, want.Seat)
			continue
		}
		if !rep.Valid {
			t.Errorf("node %d: audit of its log: %s", i, rep.Problem)
		}
		for what, got := range map[string][]Conviction{"the node": r.out.Convicted, "the audit": rep.Convicted} {
			if len(got) != 1 || got[0].Seat != want.Seat || got[0].Seq != want.Seq || got[0].Reason == "" {
				t.Errorf("node %d: %s convicted %v; want seat %d at entry %d", i, what, got, want.Seat, want.Seq)
			}
		}
		if !slices.Contains(r.out.Open, want.Seat) {
			t.Errorf("node %d: open seats %v; want the cheater's seat %d played by the stand-in", i, r.out.Open, want.Seat)
		}
		if uint64(len(log)) <= want.Seq || (log[want.Seq].Seat != want.Seat && log[want.Seq].Kind != KindBlame) {
			t.Errorf("node %d: the entry that proves the cheat is not in its log at entry %d", i, want.Seq)
		} else if want.Kind == VerdictEquivocation && log[want.Seq].Kind != KindTwins {
			t.Errorf("node %d: its log holds a %s entry at entry %d; want the twins entry of the equivocation (cut.go)", i, log[want.Seq].Kind, want.Seq)
		}
		if ref == nil {
			ref = log
		} else if !advSameLog(ref, log) {
			t.Errorf("node %d's log differs from the first honest node's", i)
		}
	}
}

// advDeparts reports whether the abandonment want would be a departure instead: at the place
// it names, in an honest node's log, the table could open the silent seat.
func advDeparts(t *testing.T, runs []advRun, sc advScenario, want *Verdict) bool {
	t.Helper()
	for i, r := range runs {
		if i == sc.cheater || r.err != nil {
			continue
		}
		_, log := advAudit(t, r.dir)
		obs, err := NewTable(log[0], nil, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range log[1:] {
			if obs.Len() == want.Seq || obs.Append(e) != nil {
				break
			}
		}
		return obs.Len() == want.Seq && obs.Departable() == ""
	}
	return false
}

// advSeatOf is the seat of the player with key at the table of log: as the log draws the seat
// order, or its roster index if the log stops before the draw.
func advSeatOf(t *testing.T, log []*Entry, key ed25519.PublicKey) int {
	t.Helper()
	obs, err := NewTable(log[0], nil, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range log[1:] {
		if obs.Append(e) != nil || obs.Ordered() {
			break
		}
	}
	return slices.IndexFunc(obs.Players(), func(m Member) bool { return m.Key.Equal(key) })
}

func advSameLog(a, b []*Entry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Hash() != b[i].Hash() {
			return false
		}
	}
	return true
}

// advNoOracleShare checks that no node's log holds x·A, for any node's ElGamal key x and any
// point A an oracle answer put in a sealed box: the blame of such a box must never publish a
// decryption share of an undealt card (issue 9). No blame may be published at all: every node
// convicts such an answer by itself. When the table played on (playedOn), the log is read up to
// the cheater's seat's opening: a card dealt face up later publishes its shares, as it must.
func advNoOracleShare(t *testing.T, runs []advRun, c *advCheater, playedOn bool) {
	t.Helper()
	c.mu.Lock()
	points, expect := c.oracleA, c.expect
	c.mu.Unlock()
	if len(points) == 0 {
		return
	}
	var logs, scan [][]byte
	for _, r := range runs {
		b, err := os.ReadFile(filepath.Join(r.dir, "tables", advTable, "log"))
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, b)
		if playedOn && expect != nil {
			entries, err := ReadLog(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			var upTo []byte
			for _, e := range entries {
				if e.Seq > expect.Seq && e.Kind != KindRelease {
					break
				}
				upTo = append(upTo, e.Marshal()...)
			}
			b = upTo
		}
		scan = append(scan, b)
	}
	// By node: node i is roster index i, so its key entry is entry 1+i.
	for node, r := range runs {
		entries, err := ReadLog(bytes.NewReader(logs[node]))
		if err != nil || len(entries) == 0 {
			t.Fatalf("node %d's log: %v", node, err)
		}
		for _, e := range entries {
			if e.Kind == KindBlame {
				t.Errorf("%v: a blame was published for an answer every node could convict by itself", e)
			}
		}
		idSeed, err1 := os.ReadFile(filepath.Join(r.dir, "identity"))
		tseed, err2 := os.ReadFile(filepath.Join(r.dir, "tables", advTable, "seed"))
		if err1 != nil || err2 != nil {
			t.Fatalf("node %d's secrets: %v %v", node, err1, err2)
		}
		s := NewSelf(ed25519.NewKeyFromSeed(idSeed), [32]byte(tseed))
		if _, err := NewTable(entries[0], s, engine.Options{}); err != nil {
			t.Fatal(err)
		}
		priv, err := s.elgamalKey()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(priv.Public().Bytes(), entries[1+node].Body[4:4+crypto.PointSize]) {
			t.Fatalf("node %d: the key derived here is not the one its key entry published", node)
		}
		for _, a := range points {
			ct, err := crypto.ParseCiphertext(append(bytes.Clone(a), a...))
			if err != nil {
				t.Fatal(err)
			}
			sh, err := crypto.DecryptShare(advRand(1, "oracle"), crypto.Context{Table: []byte("x"), Roster: [][]byte{{0}}}, 0, priv, ct)
			if err != nil {
				t.Fatal(err)
			}
			share := sh.Bytes()[:crypto.PointSize] // x·A
			for holder, b := range scan {
				if bytes.Contains(b, share) {
					t.Errorf("node %d's log holds node %d's decryption share x·A of the point an answer asked it to blame", holder, node)
				}
			}
		}
	}
}
