package protocol_test

import (
	"bytes"
	"os"
	"slices"
	"sync"
	"testing"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/engine/kingdoms"
	"corruption/protocol"
	advcheat "corruption/protocol/cheat"
	"corruption/protocol/memnet"
)

// TestConvictionLive is the matrix of convictions on the in-memory network: real nodes of each
// game, one of which cheats as protocol/cheat says (the adversary build's bot --cheat), at a
// table of four that escrows (and Corruptia and Corrupted Kingdoms at two, which cannot). Every
// honest node must end the same: at four, the game played to its end on one log with the
// cheater convicted and its seat open (an equivocation too, from version 5: the log cut at the
// twins, cut.go), or, for the kinds that blame nobody (a bad signature, silence), nobody
// convicted and the silent seat opened as after a departure; at two, a halt naming it, the other
// seat the winner by forfeit. A cell whose game never offers the cheat is said and not counted.
// The test command plays a slice chosen by a seed it prints (CORRUPTION_CONVICT_SEED plays it
// again); CORRUPTION_CONVICT_MATRIX=1 plays every cell, those that blame nobody too.
func TestConvictionLive(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games among live nodes: the lockstep matrix (TestConvictionMatrix) runs in -short")
	}
	t.Parallel()
	type cell struct {
		name string
		spec gameSpec
		kind string
	}
	corruptiaCfg := corruptiaSpec(2, "heuristic", 0).config
	games := []struct {
		name string
		spec func(n int) gameSpec
		twos bool
	}{
		{"corruption", func(n int) gameSpec { return corruptionSpec(n, corruption.FreeStud, true, 70) }, false},
		{"corruptia", func(n int) gameSpec { s := corruptiaSpec(n, "heuristic", 71); s.config = corruptiaCfg; return s }, true},
		{"kingdoms", func(n int) gameSpec { return kingdomsSpec(n, kingdoms.Advanced, "heuristic", 72) }, true},
	}
	kinds := []string{"garbage-shuffle", "garbage-shares", "garbage-move", "garbage-open", "garbage-answer", "garbage-commit",
		"garbage-random@2", "bad-signoff", "out-of-turn-kind", "equivocate"}
	if os.Getenv("CORRUPTION_CONVICT_MATRIX") != "" {
		// The kinds that blame nobody wait out the seat's time on a real clock (some 20 s a
		// cell): the whole matrix plays them; the test command's slice leaves them to
		// TestCheaters, which plays silences on a fake clock.
		kinds = append(kinds, "bad-signature", "silent")
	}
	var cells []cell
	for _, g := range games {
		for _, k := range kinds {
			cells = append(cells, cell{g.name + "-4/" + k, g.spec(4), k})
		}
		if g.twos {
			for _, k := range []string{"garbage-shares", "garbage-move"} {
				cells = append(cells, cell{g.name + "-2/" + k, g.spec(2), k})
			}
		}
	}
	cells = convictSlice(t, "live matrix", cells, 2)
	var mu sync.Mutex
	var run, offered int
	t.Cleanup(func() {
		t.Logf("live cells run %d; of them, %d whose game offered the cheat, each checked", run, offered)
	})
	sem := make(chan struct{}, 3) // the games mostly wait
	for i, c := range cells {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			sem <- struct{}{}
			defer func() { <-sem }()
			ok := liveCell(t, c.spec, c.kind, uint64(900+i))
			mu.Lock()
			run++
			if ok {
				offered++
			}
			mu.Unlock()
		})
	}
}

// liveCell plays one cell: node 1 cheats as kind says. It reports whether the cheat was played.
func liveCell(t *testing.T, spec gameSpec, kind string, seed uint64) bool {
	const cheater = 1
	ch, err := advcheat.Parse(kind)
	if err != nil {
		t.Fatal(err)
	}
	spec.adjust = func(i int, cfg *protocol.NodeConfig) {
		cfg.Escrow = spec.players >= protocol.MinEscrowSeats
		if i == cheater {
			cfg.Tamper = ch.Tamper(cfg.Identity)
		}
	}
	net := memnet.New(seed, memnet.Faults{})
	defer net.Close()
	runs := playNodes(t, net, spec)
	if fired, _ := ch.Fired(); !fired {
		t.Logf("the game never offered the cheat %s", kind)
		return false
	}
	_, at := ch.Fired()
	seat := runs[cheater].out.Seat
	var ref []byte
	for i, r := range runs {
		if i == cheater {
			continue
		}
		if r.err != nil {
			t.Fatalf("node %d: %v", i, r.err)
		}
		b, err := os.ReadFile(r.dir + "/tables/t/log")
		if err != nil {
			t.Fatal(err)
		}
		rep, err := protocol.Audit(bytes.NewReader(b), engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		o := r.out
		switch {
		case kind == "bad-signature" || kind == "silent":
			// Bytes anyone could send, or nothing: they blame nobody, and the seat, silent, is
			// opened as after a departure.
			if !o.Finished || o.Verdict != nil || len(o.Convicted) != 0 || !slices.Contains(o.Open, seat) || !rep.Valid || len(rep.Convicted) != 0 {
				t.Fatalf("node %d: finished %v, verdict %v, convicted %v, open %v, audit valid %v (%s); want the game played on without seat %d, opened as silent, nobody convicted",
					i, o.Finished, o.Verdict, o.Convicted, o.Open, rep.Valid, rep.Problem, seat)
			}
			if ref == nil {
				ref = b
			} else if !bytes.Equal(ref, b) {
				t.Fatalf("node %d's log differs from the first honest node's", i)
			}
			continue
		case spec.players < 3:
			if o.Verdict == nil || o.Verdict.Seat != seat || !o.Forfeit || !slices.Equal(o.Winners, []int{1 - seat}) || !rep.Forfeit {
				t.Fatalf("node %d: verdict %v, forfeit %v, winners %v; want a halt naming seat %d, the other the winner by forfeit", i, o.Verdict, o.Forfeit, o.Winners, seat)
			}
			continue
		}
		if len(o.Convicted) == 1 && o.Convicted[0].Seq != at {
			t.Fatalf("node %d: convicted %v; the cheat was at entry %d", i, o.Convicted, at)
		}
		if kind == "equivocate" && len(o.Convicted) == 1 && o.Convicted[0].What != "equivocation" {
			t.Fatalf("node %d: convicted %v; want an equivocation", i, o.Convicted)
		}
		if !o.Finished || o.Verdict != nil || len(o.Convicted) != 1 || o.Convicted[0].Seat != seat || !slices.Contains(o.Open, seat) || !rep.Valid {
			// A cheat before the game is under way (a random reveal for the seat order, say)
			// still halts, naming the cheater.
			if o.Verdict != nil && o.Verdict.Seat == seat && o.Verdict.Seq == at && !o.Finished && rep.Blamed == seat {
				t.Logf("the cheat at entry %d halted the table (%v): it came where no seat can be opened", at, o.Verdict)
				continue
			}
			t.Fatalf("node %d: finished %v, verdict %v, convicted %v, open %v, audit valid %v (%s); want the game played on without seat %d",
				i, o.Finished, o.Verdict, o.Convicted, o.Open, rep.Valid, rep.Problem, seat)
		}
		if ref == nil {
			ref = b
		} else if !bytes.Equal(ref, b) {
			t.Fatalf("node %d's log differs from the first honest node's", i)
		}
	}
	t.Logf("seat %d cheated (%s) at entry %d", seat, kind, at)
	return true
}
