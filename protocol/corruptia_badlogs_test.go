package protocol_test

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/corruptia"
	"corruption/protocol"
)

// Corruptia's bad logs: the cheats that apply to Corruptia (issue 15), each made from the
// golden log corruptia-4 (corruptia_golden_test.go) by a builder, saved under
// testdata/corruptia-bad/ with the verdict an audit must give, and fed in lockstep to a live
// node of every honest seat, which must each reach that same verdict (badlogs_test.go says how
// bad logs work). Regenerate with
//
//	go test ./protocol/ -run 'TestCorruptiaGolden|TestCorruptiaBadLogs' -update

var corruptiaBadLogs = []badLog{
	{"proposed-bill-in-pile", "corruptia-4", "a proposal of a bill that lies face up in the discard pile, not in the proposer's hand", liveVerdict, buildProposedPileBill},
	{"proposed-bill-not-held", "corruptia-4", "a proposal of a bill nobody has seen, claimed from a slot that holds another: the show of the slot convicts the proposer", liveVerdict, buildProposedNotHeld},
	{"vote-opened-other", "corruptia-4", "a vote opened to another choice than the one committed (the opening's value changed, the open entry signed again)", liveVerdict, buildVoteOpenedOther},
	{"officials-not-adjacent", "corruptia-4", "a proposal whose official comes from a bill that does not touch the new one", liveVerdict, buildOfficialsNotAdjacent},
	{"officials-wrong-income", "corruptia-4", "a proposal whose official's income is no vacancy of the bill's budget", liveVerdict, buildOfficialsWrongIncome},
	{"absent-without-token", "corruptia-4", "a vote committed as absent by a senator with no approval token, caught when the votes are opened", liveVerdict, buildAbsentWithoutToken},
	{"blackmail-no-approval", "corruptia-4", "a blackmail card played on a senator who has no public approval", liveVerdict, buildBlackmailNoApproval},
}

const corruptiaBadDir = "corruptia-bad"

func corruptiaBadPath(name, ext string) string {
	return filepath.Join("testdata", corruptiaBadDir, name+ext)
}

// TestCorruptiaBadLogs audits every Corruptia bad log (one verdict, naming the cheater, at the
// entry its .expect says) and feeds its entries to a live node of every honest seat.
func TestCorruptiaBadLogs(t *testing.T) {
	parallelUnlessUpdating(t)
	var kit *badKit
	for _, bl := range corruptiaBadLogs {
		t.Run(bl.name, func(t *testing.T) {
			if *update {
				if kit == nil {
					updateGolden(t, corruptiaGold)
					kit = kitOf(t, corruptiaGold)
				}
				entries, b, want := bl.build(t, kit)
				if b == nil {
					b = logBytes(t, entries)
				}
				writeCorruptiaBad(t, bl, b, want)
			}
			want := readCorruptiaBad(t, bl.name)
			b, err := os.ReadFile(corruptiaBadPath(bl.name, ".log"))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := protocol.Audit(bytes.NewReader(b), engine.Options{})
			if err != nil {
				t.Fatalf("audit: %v", err)
			}
			verdict := "none"
			if rep.Verdict != nil {
				verdict = rep.Verdict.Kind.String()
			}
			if rep.Valid || verdict != want.verdict || rep.Blamed != want.blamed || rep.At != want.seq ||
				!strings.Contains(rep.Problem, want.problem) || rep.WaitingFor != want.waiting {
				t.Fatalf("audit: valid %v, verdict %s, blamed %d, at %d, waiting for %d, problem %q\n"+
					"want: verdict %s, blamed %d, at %d, waiting for %d, problem containing %q",
					rep.Valid, verdict, rep.Blamed, rep.At, rep.WaitingFor, rep.Problem,
					want.verdict, want.blamed, want.seq, want.waiting, want.problem)
			}
			entries, err := protocol.ReadLog(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			checkLive(t, corruptiaGold, entries, want, bl.live)
		})
	}
}

// TestCorruptiaBadLogsComplete: every file under testdata/corruptia-bad/ is a case, and the
// other way round.
func TestCorruptiaBadLogsComplete(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", corruptiaBadDir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, bl := range corruptiaBadLogs {
		want[bl.name+".log"], want[bl.name+".expect"] = true, true
	}
	for _, f := range files {
		if !want[filepath.Base(f)] {
			t.Errorf("%s is no case of TestCorruptiaBadLogs", f)
		}
		delete(want, filepath.Base(f))
	}
	for _, f := range slices.Sorted(maps.Keys(want)) {
		t.Errorf("testdata/%s/%s is missing (run TestCorruptiaBadLogs with -update)", corruptiaBadDir, f)
	}
}

func writeCorruptiaBad(t testing.TB, bl badLog, b []byte, want badWant) {
	if err := os.MkdirAll(filepath.Join("testdata", corruptiaBadDir), 0o755); err != nil {
		t.Fatal(err)
	}
	x := &expectFile{comment: []string{bl.about, "made by TestCorruptiaBadLogs -update from ../" + bl.base + ".log"}}
	x.set("base", bl.base)
	x.set("expect", want.verdict)
	x.set("blamed", fmt.Sprint(want.blamed))
	x.set("seq", fmt.Sprint(want.seq))
	x.set("problem", want.problem)
	x.set("waiting", fmt.Sprint(want.waiting))
	if err := os.WriteFile(corruptiaBadPath(bl.name, ".log"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(corruptiaBadPath(bl.name, ".expect"), x.bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readCorruptiaBad(t testing.TB, name string) badWant {
	path := corruptiaBadPath(name, ".expect")
	x := readExpect(t, path)
	var w badWant
	var err1, err2, err3 error
	w.verdict = x.get(t, path, "expect")
	_, err1 = fmt.Sscan(x.get(t, path, "blamed"), &w.blamed)
	_, err2 = fmt.Sscan(x.get(t, path, "seq"), &w.seq)
	w.problem = x.get(t, path, "problem")
	_, err3 = fmt.Sscan(x.get(t, path, "waiting"), &w.waiting)
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return w
}

// corruptiaOf is the Corruptia game of a table.
func corruptiaOf(tb *protocol.Table) *corruptia.Game { return tb.Game().(*corruptia.Game) }

// corruptiaMove decodes a move entry of Corruptia.
func corruptiaMove(e *protocol.Entry) (corruptia.Move, bool) {
	if e.Kind != protocol.KindMove {
		return corruptia.Move{}, false
	}
	move, _, err := protocol.ParseMoveBodyForTest(e.Body)
	if err != nil {
		return corruptia.Move{}, false
	}
	m, err := corruptia.DecodeMove(move)
	return m, err == nil
}

func corruptiaBody(t testing.TB, m corruptia.Move, hidden ...[]byte) []byte {
	b, err := corruptia.EncodeMove(m)
	if err != nil {
		t.Fatal(err)
	}
	return protocol.MoveBodyForTest(b, hidden...)
}

// firstMove finds the first move entry of the golden log for which ok holds of the move and the
// public game before it.
func (k *badKit) firstMove(t testing.TB, what string, ok func(m corruptia.Move, v *corruptia.View, e *protocol.Entry) bool) (int, corruptia.Move, *corruptia.View) {
	seq, move, view := 0, corruptia.Move{}, (*corruptia.View)(nil)
	k.walk(t, func(obs *protocol.Table, e *protocol.Entry) {
		if seq != 0 {
			return
		}
		m, isMove := corruptiaMove(e)
		if !isMove || obs.Game() == nil {
			return
		}
		if v := corruptiaOf(obs).View(-1); ok(m, v, e) {
			seq, move, view = int(e.Seq), m, v
		}
	})
	if seq == 0 {
		t.Fatalf("%s: no %s in the golden log", k.spec.name, what)
	}
	return seq, move, view
}

// forgeMove replaces the move entry at seq by m, signed by its author.
func (k *badKit) forgeMove(t testing.TB, seq int, m corruptia.Move) *protocol.Entry {
	e := copyEntry(k.entries[seq])
	e.Body = corruptiaBody(t, m)
	return k.resign(e)
}

func isProposal(m corruptia.Move) bool {
	return m.Kind == corruptia.MovePropose || m.Kind == corruptia.MoveAmend
}

func buildProposedPileBill(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq, m, v := k.firstMove(t, "proposal of a bill not shown yet", func(m corruptia.Move, v *corruptia.View, e *protocol.Entry) bool {
		return m.Kind == corruptia.MovePropose && v.Hands[e.Seat][m.Proposal.Slot] == corruptia.Unknown && len(v.Pile) > 0
	})
	bill := v.Pile[0]
	m.Proposal.Bill = bill
	e := k.forgeMove(t, seq, m)
	return withEntry(k.entries[:seq], e), nil, cheat(e.Seat, e.Seq, fmt.Sprintf("proposes %s, which is in the discard pile, not in its hand", bill))
}

func buildOfficialsNotAdjacent(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	var far int
	seq, m, _ := k.firstMove(t, "proposal with an official, and a bill that does not touch it", func(m corruptia.Move, v *corruptia.View, e *protocol.Entry) bool {
		if !isProposal(m) || m.Proposal.Workers[0].Employee {
			return false
		}
		w := m.Proposal.Workers[0]
		for i, p := range v.Program {
			if !p.At.Touches(m.Proposal.At) && p.Officials[w.Income] >= 3 {
				far = i
				return true
			}
		}
		return false
	})
	m.Proposal.Workers[0].From = far
	e := k.forgeMove(t, seq, m)
	return withEntry(k.entries[:seq], e), nil, cheat(e.Seat, e.Seq, "cannot move there")
}

func buildOfficialsWrongIncome(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	missing := func(b corruptia.Bill) int {
		for inc := 1; inc <= corruptia.Incomes; inc++ {
			if budget := b.Budget(); !slices.Contains(budget[:], inc) {
				return inc
			}
		}
		return 0
	}
	seq, m, _ := k.firstMove(t, "proposal with an official, of a bill whose budget lacks an income", func(m corruptia.Move, v *corruptia.View, e *protocol.Entry) bool {
		return isProposal(m) && !m.Proposal.Workers[0].Employee && missing(m.Proposal.Bill) != 0
	})
	inc := missing(m.Proposal.Bill)
	m.Proposal.Workers[0].Income = inc
	e := k.forgeMove(t, seq, m)
	return withEntry(k.entries[:seq], e), nil, cheat(e.Seat, e.Seq, fmt.Sprintf("has no vacancy for a $%d official", inc))
}

func buildBlackmailNoApproval(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	var target int
	seq, _, _ := k.firstMove(t, "response of a senator holding a card on one with no approval", func(m corruptia.Move, v *corruptia.View, e *protocol.Entry) bool {
		if v.Next.Kind != corruptia.DecideRespond || v.Next.Seat != e.Seat {
			return false
		}
		for s := range v.Players {
			if s != e.Seat && v.Approval[s] == 0 && v.Holds[e.Seat][s] && v.Pressed[s] == corruptia.VoteNone {
				target = s
				return true
			}
		}
		return false
	})
	e := k.forgeMove(t, seq, corruptia.Move{Kind: corruptia.MoveBlackmail, Target: target, Demand: corruptia.VoteYes})
	return withEntry(k.entries[:seq], e), nil, cheat(e.Seat, e.Seq, fmt.Sprintf("cannot blackmail seat %d: it has no public approval", target))
}

func buildVoteOpenedOther(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := k.first(t, "opening of a vote", func(e *protocol.Entry) bool { return e.Kind == protocol.KindOpen })
	e := copyEntry(k.entries[seq])
	ops, err := protocol.ParseOpenBodyForTest(e.Body)
	if err != nil || len(ops) != 1 {
		t.Fatalf("%s: %d openings, %v", e, len(ops), err)
	}
	other := "no"
	if string(ops[0][32:]) == other {
		other = "yes"
	}
	ops[0] = append(ops[0][:32:32], other...) // the same nonce, another vote
	e.Body = protocol.OpenBodyForTest(ops...)
	return withEntry(k.entries[:seq], k.resign(e)), nil, cheat(e.Seat, e.Seq, "does not match its commitment")
}

// buildProposedNotHeld plays the golden table again, and has the first senator to propose a bill
// it has not shown yet claim, from that slot, a bill nobody has seen that it does not hold, at a
// place and with workers that fit the claimed bill. Its node then shows the slot honestly.
func buildProposedNotHeld(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	w := newWorld(t, k.spec, "")
	cheater := -1
	var claimed corruptia.Bill
	h := func(w *world, seat int, kinds []protocol.Kind) *protocol.Entry {
		if cheater >= 0 || kinds[0] != protocol.KindMove || w.obs.Game() == nil {
			return nil
		}
		pub := corruptiaOf(w.obs).View(-1)
		own := corruptiaOf(w.tables[seat]).View(seat)
		if pub.Next.Kind != corruptia.DecidePropose || pub.Next.Seat != seat {
			return nil
		}
		slot := slices.Index(pub.Hands[seat], corruptia.Unknown)
		if slot < 0 {
			return nil
		}
		seen := map[corruptia.Bill]bool{}
		for _, b := range pub.Pile {
			seen[b] = true
		}
		for _, p := range pub.Program {
			seen[p.Bill] = true
		}
		for _, hand := range append(pub.Hands, own.Hand()) {
			for _, b := range hand {
				seen[b] = true
			}
		}
		for b := corruptia.Bill(0); b < corruptia.NumBills; b++ {
			if seen[b] {
				continue
			}
			ps := corruptia.Proposals(pub.Program, b, slot, seat, pub.Players, pub.Reserve[seat], [corruptia.MaxPlayers]int{}, nil)
			if len(ps) == 0 {
				continue
			}
			cheater, claimed = seat, b
			w.honest[seat] = false
			return w.sign(seat, protocol.KindMove, corruptiaBody(t, corruptia.Move{Kind: corruptia.MovePropose, Proposal: ps[0]}))
		}
		return nil
	}
	v := w.play(t, scriptDecider(t, goldScript(t, k.entries)), h)
	last := lastEntry(w.log)
	if v == nil || cheater < 0 || last.Kind != protocol.KindShares || last.Seat != cheater {
		t.Fatalf("the claim ends with verdict %v after %s (cheater %d)", v, last, cheater)
	}
	return w.log, nil, cheat(cheater, last.Seq, fmt.Sprintf("proposed %s from slot", claimed))
}

// buildAbsentWithoutToken plays the golden table again, and has the first senator to vote
// commit to "absent" while it has no approval token; its node opens it with the others.
func buildAbsentWithoutToken(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	w := newWorld(t, k.spec, "")
	cheater := -1
	h := func(w *world, seat int, kinds []protocol.Kind) *protocol.Entry {
		if cheater >= 0 || kinds[0] != protocol.KindCommit || corruptiaOf(w.obs).View(-1).Approval[seat] != 0 {
			return nil
		}
		tb := w.tables[seat]
		body, err := protocol.HiddenForTest(tb, protocol.NextRefForTest(tb), []byte(corruptia.VoteAbsent.String()))
		if err != nil {
			t.Fatal(err)
		}
		cheater = seat
		w.honest[seat] = false
		return w.sign(seat, protocol.KindCommit, body)
	}
	v := w.play(t, scriptDecider(t, goldScript(t, k.entries)), h)
	last := lastEntry(w.log)
	if v == nil || cheater < 0 || last.Kind != protocol.KindOpen {
		t.Fatalf("the absence ends with verdict %v after %s (cheater %d)", v, last, cheater)
	}
	return w.log, nil, cheat(cheater, last.Seq, "absent needs a public approval token")
}
