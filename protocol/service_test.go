package protocol_test

import (
	"bytes"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/protocol"
)

// The hidden-information services, one at a time, through the toy in lockstep worlds: each
// does what it promises for an honest table, and each way of cheating at it ends the table with
// one verdict, the same on every node and in the audit of the log.

func toyWorldSpec(n int) worldSpec {
	return worldSpec{name: "toy", about: "the toy", game: toyID, config: []byte{1}, players: n,
		bot: func(int) engine.Player { return toyBot{} }}
}

// TestToyWorld: the toy completes in lockstep; its decisions read back from its log replay it
// byte for byte; every node's private knowledge is what the services promise.
func TestToyWorld(t *testing.T) {
	t.Parallel()
	for n := 2; n <= 5; n++ {
		w := newWorld(t, toyWorldSpec(n), "")
		if v := w.play(t, w.botDecider(t), nil); v != nil {
			t.Fatalf("%d seats: an honest table halts: %v", n, v)
		}
		if rep := auditBytes(t, logBytes(t, w.log)); !rep.Valid {
			t.Fatalf("%d seats: audit %+v", n, rep)
		}
		script, err := protocol.Decisions(w.log)
		if err != nil {
			t.Fatal(err)
		}
		again := newWorld(t, toyWorldSpec(n), "")
		if v := again.play(t, scriptDecider(t, script), nil); v != nil || !bytes.Equal(logBytes(t, again.log), logBytes(t, w.log)) {
			t.Fatalf("%d seats: replaying the log's decisions does not write the same log (%v)", n, v)
		}
		obs := w.obs.Game().(*toy)
		for seat, tb := range w.tables {
			g := tb.Game().(*toy)
			for s := range n {
				// A private deal: a seat knows its own cards, and the first player's once shown.
				knows := g.hand[s][0] >= 0
				if want := s == seat || s == obs.first; knows != want {
					t.Errorf("%d seats: seat %d's node knows seat %d's cards: %v, want %v", n, seat, s, knows, want)
				}
			}
			if obs.hand[seat][0] >= 0 && seat != obs.first {
				t.Errorf("the observer knows seat %d's private cards", seat)
			}
			// The peek: the hidden card reached its owner and the peeker, nobody else (until
			// its opening, which the public state holds).
			if knows, want := g.hidden >= 0, seat == obs.first || seat == obs.peekedBy; knows != want {
				t.Errorf("%d seats: seat %d's node knows the hidden card: %v, want %v", n, seat, knows, want)
			}
		}
		if n := countKinds(w.log); n[protocol.KindAnswer] != 1 || n[protocol.KindCommit] == 0 {
			t.Errorf("the toy wrote %d answers and %d commits", n[protocol.KindAnswer], n[protocol.KindCommit])
		}
	}
}

func auditBytes(t *testing.T, b []byte) *protocol.Report {
	t.Helper()
	rep, err := protocol.Audit(bytes.NewReader(b), engine.Options{})
	if err != nil {
		t.Fatalf("audit: %v", err)
	}
	return rep
}

// toyCheat takes over one seat's entry of one kind, the first time it is due.
type toyCheat struct {
	name   string
	kind   protocol.Kind
	cheat  func(t *testing.T, w *world, seat int) *protocol.Entry
	blamed func(w *world, cheater int) int // the seat the verdict must name (default the cheater)
	reason string                          // a word the verdict's reason must hold
}

func TestToyCheats(t *testing.T) {
	cheats := []toyCheat{
		{name: "random reveal off its chain", kind: protocol.KindRandom, reason: "chain",
			cheat: func(t *testing.T, w *world, seat int) *protocol.Entry {
				if !w.obs.Ordered() {
					return nil // a reveal of the seat order's draw (below)
				}
				return w.sign(seat, protocol.KindRandom, bytes.Repeat([]byte{7}, 32))
			}},
		{name: "seat order reveal off its chain", kind: protocol.KindRandom, reason: "chain",
			cheat: func(t *testing.T, w *world, seat int) *protocol.Entry {
				if w.obs.Ordered() {
					return nil
				}
				return w.sign(seat, protocol.KindRandom, bytes.Repeat([]byte{7}, 32))
			}},
		{name: "a share that does not verify", kind: protocol.KindShares, reason: "does not verify",
			cheat: func(t *testing.T, w *world, seat int) *protocol.Entry {
				b, err := protocol.SharesForTest(w.tables[seat])
				if err != nil {
					t.Fatal(err)
				}
				b[len(b)-1] ^= 1
				return w.sign(seat, protocol.KindShares, b)
			}},
		{name: "a shuffle replayed from another seat", kind: protocol.KindShuffle, reason: "proof",
			cheat: func(t *testing.T, w *world, seat int) *protocol.Entry {
				// The shuffle before, signed again by this seat: it does not start from the
				// deck as it is now, and its proof is bound to its author's seat.
				for i := len(w.log) - 1; i > 0; i-- {
					if w.log[i].Kind == protocol.KindShuffle {
						return w.sign(seat, protocol.KindShuffle, w.log[i].Body)
					}
				}
				return nil
			}},
		{name: "a choice committed to a card it does not hold", kind: protocol.KindCommit, reason: "did not hold",
			cheat: func(t *testing.T, w *world, seat int) *protocol.Entry {
				tb := w.tables[seat]
				if seat != w.obs.Game().(*toy).first {
					return nil // only the first player's hand is shown, and its bid checked
				}
				g := tb.Game().(*toy)
				bad := byte(0)
				for bytes.IndexByte([]byte{byte(g.hand[seat][0]), byte(g.hand[seat][1])}, bad) >= 0 {
					bad++
				}
				h, err := protocol.HiddenForTest(tb, protocol.NextRefForTest(tb), []byte{bad})
				if err != nil {
					t.Fatal(err)
				}
				return w.sign(seat, protocol.KindCommit, h)
			}},
		{name: "a choice opened to another value", kind: protocol.KindOpen, reason: "does not match",
			cheat: func(t *testing.T, w *world, seat int) *protocol.Entry {
				tb := w.tables[seat]
				st := protocol.StepForTest(tb)
				ref := refOfChooser(w, seat)
				if st.Kind != engine.StepChoose || ref < 0 {
					return nil
				}
				o, err := protocol.OpeningForTest(tb, ref, []byte{9})
				if err != nil {
					t.Fatal(err)
				}
				return w.sign(seat, protocol.KindOpen, protocol.OpenBodyForTest(o))
			}},
		{name: "a move with more hidden values than allowed", kind: protocol.KindMove, reason: "hidden values",
			cheat: func(t *testing.T, w *world, seat int) *protocol.Entry {
				tb := w.tables[seat]
				if protocol.StepForTest(tb).Respond {
					return nil
				}
				r := protocol.NextRefForTest(tb)
				h1, _ := protocol.HiddenForTest(tb, r, []byte{1})
				h2, _ := protocol.HiddenForTest(tb, r+1, []byte{2})
				return w.sign(seat, protocol.KindMove, protocol.MoveBodyForTest([]byte("hide"), h1, h2))
			}},
		{name: "a pass where a move is due", kind: protocol.KindMove, reason: "pass",
			cheat: func(t *testing.T, w *world, seat int) *protocol.Entry {
				if protocol.StepForTest(w.tables[seat]).Respond {
					return nil
				}
				return w.sign(seat, protocol.KindMove, protocol.MoveBodyForTest(nil))
			}},
		{name: "a response the game refuses", kind: protocol.KindMove, reason: "neither call nor a pass",
			cheat: func(t *testing.T, w *world, seat int) *protocol.Entry {
				if !protocol.StepForTest(w.tables[seat]).Respond {
					return nil
				}
				return w.sign(seat, protocol.KindMove, protocol.MoveBodyForTest([]byte("raise")))
			}},
		{name: "an answer changed after sealing", kind: protocol.KindAnswer, reason: "proof",
			cheat: func(t *testing.T, w *world, seat int) *protocol.Entry {
				e := w.write(t, nil)
				b := append([]byte(nil), e.Body...)
				b[len(b)-1] ^= 1
				return w.sign(seat, protocol.KindAnswer, b)
			}},
		{name: "an answer that lies: the peeker blames it", kind: protocol.KindAnswer, reason: "not the value",
			cheat: func(t *testing.T, w *world, seat int) *protocol.Entry {
				tb := w.tables[seat]
				st := protocol.StepForTest(tb)
				o, err := protocol.OpeningForTest(tb, st.Refs[0], []byte{99})
				if err != nil {
					t.Fatal(err)
				}
				b, err := protocol.AnswerForTest(tb, o)
				if err != nil {
					t.Fatal(err)
				}
				return w.sign(seat, protocol.KindAnswer, b)
			}},
		{name: "a false blame of an honest answer", kind: protocol.KindMove, reason: "honest",
			blamed: func(w *world, cheater int) int { return cheater },
			cheat: func(t *testing.T, w *world, seat int) *protocol.Entry {
				_, kinds := w.obs.Due()
				if len(kinds) < 2 {
					return nil // not the peeker's turn after an answer
				}
				b, err := protocol.BlameForTest(w.tables[seat])
				if err != nil {
					t.Fatal(err)
				}
				return w.sign(seat, protocol.KindBlame, b)
			}},
		{name: "a card hidden that it does not hold", kind: protocol.KindMove, reason: "did not hold",
			cheat: func(t *testing.T, w *world, seat int) *protocol.Entry {
				tb := w.tables[seat]
				if protocol.StepForTest(tb).Hidden != 1 {
					return nil
				}
				h, err := protocol.HiddenForTest(tb, protocol.NextRefForTest(tb), []byte{99})
				if err != nil {
					t.Fatal(err)
				}
				return w.sign(seat, protocol.KindMove, protocol.MoveBodyForTest([]byte("hide"), h))
			}},
		{name: "a sign-off of another digest", kind: protocol.KindSignOff, reason: "digest",
			cheat: func(t *testing.T, w *world, seat int) *protocol.Entry {
				return w.sign(seat, protocol.KindSignOff, make([]byte, 32))
			}},
		{name: "a kind it may not write now", kind: protocol.KindShuffle, reason: "waits for",
			cheat: func(t *testing.T, w *world, seat int) *protocol.Entry {
				return w.sign(seat, protocol.KindSignOff, make([]byte, 32))
			}},
	}
	for _, c := range cheats {
		t.Run(c.name, func(t *testing.T) {
			runToyCheat(t, c)
		})
	}
}

// refOfChooser is the ref of seat's latest commitment to a choice (-1 if none): refs number
// the commitments in log order, those of moves included.
func refOfChooser(w *world, seat int) int {
	ref, count := -1, 0
	for _, e := range w.log {
		switch e.Kind {
		case protocol.KindCommit:
			if e.Seat == seat {
				ref = count
			}
			count++
		case protocol.KindMove:
			count += countHidden(e)
		}
	}
	return ref
}

func countHidden(e *protocol.Entry) int {
	// A move body: u32 length, the move, u8 count.
	if len(e.Body) < 5 {
		return 0
	}
	n := int(e.Body[0])<<24 | int(e.Body[1])<<16 | int(e.Body[2])<<8 | int(e.Body[3])
	if 4+n >= len(e.Body) {
		return 0
	}
	return int(e.Body[4+n])
}

func runToyCheat(t *testing.T, c toyCheat) {
	for n := 2; n <= 3; n++ {
		w := newWorld(t, toyWorldSpec(n), "cheat "+c.name)
		cheater, played := -1, false
		v := w.play(t, w.botDecider(t), func(w *world, seat int, kinds []protocol.Kind) *protocol.Entry {
			if played || kinds[0] != c.kind {
				return nil
			}
			e := c.cheat(t, w, seat)
			if e != nil {
				played, cheater = true, seat
				w.honest[seat] = false
			}
			return e
		})
		if !played {
			continue
		}
		want := cheater
		if c.blamed != nil {
			want = c.blamed(w, cheater)
		}
		if v == nil || v.Seat != want || !strings.Contains(v.Reason, c.reason) {
			t.Fatalf("%d seats: verdict %v, want one naming seat %d with %q", n, v, want, c.reason)
		}
		// The audit of the log (which ends with the offending entry, or the blame) agrees.
		rep := auditBytes(t, logBytes(t, w.log))
		if rep.Valid || rep.Blamed != want {
			t.Fatalf("%d seats: audit %+v, want seat %d blamed", n, rep, want)
		}
		return
	}
	t.Fatalf("the cheat %q was never played", c.name)
}
