package protocol_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"corruption/engine"
	"corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
	"corruption/protocol"
)

// Corruptia's golden log: a whole 4-senator table of heuristic bots, played in a lockstep world
// from fixed keys and seeds (golden_test.go says how golden logs work). Regenerate it, and the
// bad logs made from it, with
//
//	go test ./protocol/ -run 'TestCorruptiaGolden|TestCorruptiaBadLogs' -update

// corruptiaWorld is a Corruptia table of heuristic bots with the default configuration.
func corruptiaWorld(name, about string, n int) worldSpec {
	config, err := corruptia.EncodeConfig(corruptia.DefaultConfig())
	if err != nil {
		panic(err)
	}
	return worldSpec{name: name, about: about, game: "corruptia", config: config, players: n,
		bot: func(seat int) engine.Player {
			p, err := bot.NewPlayer("heuristic", uint64(2000*n+seat))
			if err != nil {
				panic(err)
			}
			return p
		}}
}

var corruptiaGold = corruptiaWorld("corruptia-4", "4 senators of Corruptia, default configuration (3 amendments a turn)", 4)

// TestCorruptiaGolden plays the golden table again with the decisions of its log and compares
// the bytes, checks that the log holds what a Corruptia table must (votes committed and opened,
// bills shown, the anonymous pile built and shuffled, the die drawn), and audits it against its
// .expect.
func TestCorruptiaGolden(t *testing.T) {
	parallelUnlessUpdating(t)
	spec := corruptiaGold
	if *update {
		updateGolden(t, spec)
	}
	want, err := os.ReadFile(goldPath(spec.name))
	if err != nil {
		t.Fatalf("%v (run with -update to make it)", err)
	}
	saved, err := protocol.ReadLog(bytes.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	got := playGolden(t, spec, goldScript(t, saved))
	if b := logBytes(t, got); !bytes.Equal(b, want) {
		for i := range min(len(got), len(saved)) {
			if !bytes.Equal(got[i].Marshal(), saved[i].Marshal()) {
				t.Fatalf("the log differs from %s from %s on (now %s)", goldPath(spec.name), saved[i], got[i])
			}
		}
		t.Fatalf("the log has %d entries, %s has %d", len(got), goldPath(spec.name), len(saved))
	}
	n := countKinds(saved)
	for _, k := range []protocol.Kind{protocol.KindRandom, protocol.KindShuffle, protocol.KindShares, protocol.KindMove,
		protocol.KindCommit, protocol.KindOpen, protocol.KindSignOff} {
		if n[k] == 0 {
			t.Errorf("the golden log has no %s entry", k)
		}
	}
	// Every vote is committed by every senator, then opened: as many opens as commits.
	if n[protocol.KindCommit] == 0 || n[protocol.KindCommit] != n[protocol.KindOpen] || n[protocol.KindCommit]%spec.players != 0 {
		t.Errorf("%d commits and %d opens: want every senator's vote committed and opened", n[protocol.KindCommit], n[protocol.KindOpen])
	}

	t.Run("audit", func(t *testing.T) {
		path := filepath.Join("testdata", spec.name+".expect")
		x := readExpect(t, path)
		rep, err := protocol.Audit(bytes.NewReader(want), engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if x.get(t, path, "expect") != "valid" || !rep.Valid || !rep.Finished || rep.Blamed != -1 || rep.Verdict != nil {
			t.Fatalf("audit: %+v, %s wants %s", rep, path, x.get(t, path, "expect"))
		}
		for k, got := range map[string]string{
			"game":    rep.Game,
			"entries": fmt.Sprint(rep.Entries),
			"winners": fmt.Sprint(rep.Winners),
			"scores":  fmt.Sprint(rep.Scores),
			"digest":  rep.Digest,
		} {
			if want := x.get(t, path, k); got != want {
				t.Errorf("%s: audit says %s, want %s", k, got, want)
			}
		}
	})
}
