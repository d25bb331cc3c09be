package protocol_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/kingdoms"
	"corruption/protocol"
)

// Corrupted Kingdoms' bad logs: the cheats of issue 14 that apply on the kit, made from the
// golden log kingdoms-advanced-4 (kingdoms_golden_test.go) and checked by TestBadLogs: the
// audit's verdict, and the same verdict on a live node of every honest seat fed the log in
// lockstep.
var kingdomsBadLogs = []badLog{
	{"kingdoms-vote-opened-other", kingdomsGold, "a secret vote opened to the other choice than the one committed (the opening's value changed, the open entry signed again)", liveVerdict, buildKingdomsVoteOther},
	{"kingdoms-chaos-not-held", kingdomsGold, "a chaos card of its corporation its author does not hold, claimed from a position that holds another: the show of the position convicts it", liveVerdict, buildKingdomsChaosNotHeld},
	{"kingdoms-shareholder-shown-falsely", kingdomsGold, "a shareholder card shown at the end with the decryption share of another seat's shareholder card", liveVerdict, buildKingdomsShareholderFalse},
	{"kingdoms-favor-without-action", kingdomsGold, "a favor placed by a seat whose actions are spent, when it is to take a guilty pleasure", liveVerdict, buildKingdomsFavorNoAction},
	{"kingdoms-third-action", kingdomsGold, "a favor placed by a seat after its two actions, when the next seat is due: refused as out of turn", liveReject, buildKingdomsThirdAction},
	{"kingdoms-leader-without-minions", kingdomsGold, "a leader influenced by a seat that cannot pay its cost", liveVerdict, buildKingdomsLeaderNoMinions},
}

// kingdomsShareholderDeck is the shareholder cards' deck of a Corrupted Kingdoms table
// (engine/kingdoms: five decks of favors by type, the favor deck, the guilty pleasures, then
// it; the chaos decks follow, one a seat).
const kingdomsShareholderDeck = int(kingdoms.NumFavorTypes) + 2

func kingdomsOf(tb *protocol.Table) *kingdoms.Game { return tb.Game().(*kingdoms.Game) }

func kingdomsBody(t testing.TB, m kingdoms.Move) []byte {
	b, err := kingdoms.EncodeMove(m)
	if err != nil {
		t.Fatal(err)
	}
	return protocol.MoveBodyForTest(b)
}

// publicVerdict is what every node's game says of m now, on public information (nil: legal).
func publicVerdict(t testing.TB, g *kingdoms.Game, m kingdoms.Move) error {
	b, err := kingdoms.EncodeMove(m)
	if err != nil {
		t.Fatal(err)
	}
	return g.Clone().Apply(engine.Input{Kind: engine.InMove, Seat: m.Seat, Move: b})
}

// editMove makes the golden log's entry seq carry m instead, signed again by its author; the
// game must refuse it with want.
func (k *badKit) editMove(t testing.TB, seq int, m kingdoms.Move, want string) ([]*protocol.Entry, []byte, badWant) {
	e := copyEntry(k.entries[seq])
	e.Body = kingdomsBody(t, m)
	return withEntry(k.entries[:seq], k.resign(e)), nil, cheat(e.Seat, e.Seq, want)
}

func buildKingdomsVoteOther(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := 0
	k.walk(t, func(obs *protocol.Table, e *protocol.Entry) {
		if seq == 0 && e.Kind == protocol.KindOpen && protocol.StepForTest(obs).Kind == engine.StepChoose {
			seq = int(e.Seq)
		}
	})
	if seq == 0 {
		t.Fatal("no vote opened in the golden log")
	}
	e := copyEntry(k.entries[seq])
	ops, err := protocol.ParseOpenBodyForTest(e.Body)
	if err != nil || len(ops) != 1 {
		t.Fatalf("%s: %d openings, %v", e, len(ops), err)
	}
	other := "no"
	if string(ops[0][32:]) == "no" {
		other = "yes"
	}
	ops[0] = append(ops[0][:32:32], other...) // the same nonce, the other vote
	e.Body = protocol.OpenBodyForTest(ops...)
	return withEntry(k.entries[:seq], k.resign(e)), nil, cheat(e.Seat, e.Seq, "does not match its commitment")
}

// notHeld is a chaos card of seat's corporation that seat does not hold, played on its turn
// from a position of its hand that holds another card, with arguments the public state takes.
func notHeld(t testing.TB, g *kingdoms.Game, seat int) (kingdoms.Move, bool) {
	v := g.View(seat)
	if !v.Config.Chaos || v.Seats[seat].ChaosLeft == 0 {
		return kingdoms.Move{}, false
	}
	held := map[int]bool{}
	for _, h := range v.Hand {
		held[h.Card] = true
	}
	cards := kingdoms.ChaosCards()
	for _, c := range kingdoms.Corporations()[v.Seats[seat].Corp].Chaos {
		if held[c] || cards[c].Effect.Timing() != kingdoms.OnTurn {
			continue
		}
		for _, h := range v.Hand {
			if h.Discarded || h.Played || h.Card < 0 {
				continue
			}
			for _, m := range chaosCandidates(v, kingdoms.ChaosMove(seat, c, h.Pos)) {
				if publicVerdict(t, g, m) == nil {
					return m, true
				}
			}
		}
	}
	return kingdoms.Move{}, false
}

// chaosCandidates are m with every argument a chaos card could take now.
func chaosCandidates(v kingdoms.View, m kingdoms.Move) []kingdoms.Move {
	out := []kingdoms.Move{m}
	with := func(set func(*kingdoms.Move)) {
		c := m
		set(&c)
		out = append(out, c)
	}
	for l := range kingdoms.NumLeaders {
		with(func(c *kingdoms.Move) { c.Leader = l })
	}
	for b := range kingdoms.NumBills {
		with(func(c *kingdoms.Move) { c.Bill = b })
		for _, f := range v.Market {
			with(func(c *kingdoms.Move) { c.Favor, c.Bill = f, b })
		}
	}
	for _, b := range v.Bills {
		for _, f := range b.Favors {
			with(func(c *kingdoms.Move) { c.Favor = f.Favor })
		}
	}
	for _, p := range v.Display {
		with(func(c *kingdoms.Move) { c.Pleasure = p })
	}
	for s := range v.Players {
		with(func(c *kingdoms.Move) { c.Target, c.Minion = s, kingdoms.Golem })
	}
	return out
}

func buildKingdomsChaosNotHeld(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	w := newWorld(t, k.spec, "")
	cheater := -1
	h := func(w *world, seat int, kinds []protocol.Kind) *protocol.Entry {
		tb := w.tables[seat]
		if cheater >= 0 || kinds[0] != protocol.KindMove || !tb.NeedsDecision() {
			return nil
		}
		g := kingdomsOf(tb)
		if d := g.Next(); d.Kind != kingdoms.DecideAction || d.Seat != seat {
			return nil
		}
		m, ok := notHeld(t, g, seat)
		if !ok {
			return nil
		}
		cheater = seat
		w.honest[seat] = false
		return w.sign(seat, protocol.KindMove, kingdomsBody(t, m))
	}
	v := w.play(t, scriptDecider(t, goldScript(t, k.entries)), h)
	last := lastEntry(w.log)
	if v == nil || cheater < 0 || last.Seat != cheater || last.Kind != protocol.KindShares {
		t.Fatalf("the chaos card not held ends with verdict %v after %s (cheater %d)", v, last, cheater)
	}
	return w.log, nil, cheat(cheater, last.Seq, "not the card it named")
}

func buildKingdomsShareholderFalse(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq, from, cheater, pos := 0, 0, -1, -1
	k.walk(t, func(obs *protocol.Table, e *protocol.Entry) {
		st := protocol.StepForTest(obs)
		if seq == 0 && e.Kind == protocol.KindShares && st.Kind == engine.StepShow && st.Deck == kingdomsShareholderDeck {
			seq, cheater, pos = int(e.Seq), e.Seat, st.Positions[0]
		}
	})
	// The share the cheater published when another seat's shareholder card was dealt to it.
	k.walk(t, func(obs *protocol.Table, e *protocol.Entry) {
		st := protocol.StepForTest(obs)
		if from == 0 && e.Kind == protocol.KindShares && e.Seat == cheater && st.Kind == engine.StepDeal && st.Deck == kingdomsShareholderDeck && st.To != cheater {
			from = int(e.Seq)
		}
	})
	if seq == 0 || from == 0 {
		t.Fatalf("no shareholder card shown (%d), or dealt to another seat (%d)", seq, from)
	}
	mine, err1 := protocol.ParseSharesBodyForTest(k.entries[seq].Body)
	theirs, err2 := protocol.ParseSharesBodyForTest(k.entries[from].Body)
	if err1 != nil || err2 != nil || len(mine) == 0 || len(theirs) == 0 {
		t.Fatalf("shares: %v %v", err1, err2)
	}
	mine[0] = theirs[0]
	e := copyEntry(k.entries[seq])
	e.Body = protocol.SharesBodyForTest(mine)
	return withEntry(k.entries[:seq], k.resign(e)), nil,
		cheat(cheater, e.Seq, fmt.Sprintf("its decryption share of card %d of deck %d does not verify", pos, kingdomsShareholderDeck))
}

// spentPick is the first entry where a seat whose turn's actions are spent (its last action
// called a vote that passed) is to take a guilty pleasure.
func (k *badKit) spentPick(t testing.TB) (int, *kingdoms.Game) {
	seq, spent := 0, -1
	var at *kingdoms.Game
	k.walk(t, func(obs *protocol.Table, e *protocol.Entry) {
		if seq != 0 || obs.Game() == nil || e.Kind != protocol.KindMove {
			return
		}
		g := kingdomsOf(obs)
		switch d := g.Next(); {
		case d.Kind == kingdoms.DecideAction && d.Seat == e.Seat:
			spent = -1
			if d.Actions == 1 {
				spent = e.Seat
			}
		case d.Kind == kingdoms.DecidePick && d.Seat == e.Seat && e.Seat == spent:
			seq, at = int(e.Seq), g.Clone().(*kingdoms.Game)
		}
	})
	if seq == 0 {
		t.Fatal("no seat takes a guilty pleasure after its last action in the golden log")
	}
	return seq, at
}

func buildKingdomsFavorNoAction(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq, g := k.spentPick(t)
	v := g.View(-1)
	i := slices.IndexFunc(v.Market, func(f int) bool { return f >= 0 })
	m := kingdoms.PlaceMove(k.entries[seq].Seat, v.Market[i], 0)
	const want = "it takes a guilty pleasure"
	if err := publicVerdict(t, g, m); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("the game says %v of %s", err, m)
	}
	return k.editMove(t, seq, m, want)
}

func buildKingdomsThirdAction(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq, last := 0, -1
	var market []int
	k.walk(t, func(obs *protocol.Table, e *protocol.Entry) {
		if seq != 0 || obs.Game() == nil || e.Kind != protocol.KindMove {
			return
		}
		switch d := kingdomsOf(obs).Next(); {
		case d.Kind != kingdoms.DecideAction || d.Seat != e.Seat:
		case last >= 0 && e.Seat != last:
			seq, market = int(e.Seq), kingdomsOf(obs).View(-1).Market // the next seat's turn
		default:
			last = -1
			if d.Actions == 1 {
				last = e.Seat // its last action
			}
		}
	})
	if seq == 0 {
		t.Fatal("no turn follows another in the golden log")
	}
	i := slices.IndexFunc(market, func(f int) bool { return f >= 0 })
	e := &protocol.Entry{Seat: last, Kind: protocol.KindMove, Body: kingdomsBody(t, kingdoms.PlaceMove(last, market[i], 0))}
	prefix := k.entries[:seq]
	return withEntry(prefix, k.at(prefix, e)), nil, refused(uint64(seq), fmt.Sprintf("written by seat %d out of turn", last))
}

func buildKingdomsLeaderNoMinions(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	var m kingdoms.Move
	seq := 0
	k.walk(t, func(obs *protocol.Table, e *protocol.Entry) {
		if seq != 0 || obs.Game() == nil || e.Kind != protocol.KindMove {
			return
		}
		g := kingdomsOf(obs)
		if d := g.Next(); d.Kind != kingdoms.DecideAction || d.Seat != e.Seat {
			return
		}
		v := g.View(-1)
		for l := range kingdoms.NumLeaders {
			if !kingdoms.InPlay(l, v.Players) || v.Control[l] == e.Seat {
				continue
			}
			try := kingdoms.InfluenceMove(e.Seat, l, 0, kingdoms.NoMinion)
			if v.Control[l] >= 0 {
				try.Minion = kingdoms.Golem
			}
			if err := publicVerdict(t, g, try); err != nil && strings.Contains(err.Error(), "it costs") {
				m, seq = try, int(e.Seq)
				return
			}
		}
	})
	if seq == 0 {
		t.Fatal("no seat in the golden log ever lacks the minions for a leader")
	}
	return k.editMove(t, seq, m, "it costs")
}
