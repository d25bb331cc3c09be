package enginetest_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/enginetest"
)

func toyPlayers(n int, pl toyPlayer) []engine.Player {
	ps := make([]engine.Player, n)
	for i := range ps {
		ps[i] = toyPlayer{}
	}
	ps[0] = pl
	return ps
}

// TestToyGames plays the toy at every size with many seeds: it ends, every step kind is
// performed, the shuffled deck is a permutation, and every copy learns what it may and no more.
func TestToyGames(t *testing.T) {
	for n := 2; n <= 4; n++ {
		for seed := uint64(0); seed < 40; seed++ {
			kinds := map[engine.StepKind]bool{}
			cards := map[int]bool{}
			lead := -1
			watch := func(tn enginetest.Turn) error {
				kinds[tn.Step.Kind] = true
				if tn.Input.Kind == engine.InRandom {
					lead = tn.Input.Ints[0]
				}
				if tn.Input.Kind == engine.InDealt || tn.Input.Kind == engine.InShown {
					for _, c := range tn.Input.Cards {
						cards[c] = true
					}
				}
				return checkToyPrivacy(tn)
			}
			res, err := enginetest.Play(toyRules{}, []byte{modeFair}, toyPlayers(n, toyPlayer{}), seed, enginetest.Watch(watch))
			if err != nil {
				t.Fatalf("%d players, seed %d: %v", n, seed, err)
			}
			if !res.Outcome.Over || len(res.Outcome.Winners) == 0 || len(res.Seats) != n {
				t.Fatalf("%d players, seed %d: result %+v", n, seed, res)
			}
			for k := engine.StepRandom; k <= engine.StepChoose; k++ {
				if want := k != engine.StepAnswer || lead%2 == 0; kinds[k] != want { // only even seats claim
					t.Errorf("%d players, seed %d, lead %d: a %s step: %t, want %t", n, seed, lead, k, kinds[k], want)
				}
			}
			// The pot, every seat's card (shown at the end) and the extra card (deck 0's
			// position n+1, dealt from deck 1) are distinct: the shuffle is a permutation.
			delete(cards, -1)
			if len(cards) != n+2 {
				t.Errorf("%d players, seed %d: the dealt and shown cards are %v, want %d distinct", n, seed, cards, n+2)
			}
		}
	}
}

// checkToyPrivacy: a seat's copy knows the card dealt to it alone and no other; the hidden
// values it knows are its own claim and the lead's claim when it was answered to it; the
// observer knows nothing.
func checkToyPrivacy(tn enginetest.Turn) error {
	if o := tn.Observer.(*toy); len(o.mine) != 0 || len(o.seen) != 0 {
		return fmt.Errorf("the observer knows cards %v and values %v", o.mine, o.seen)
	}
	for seat, eg := range tn.Seats {
		g := eg.(*toy)
		for pos := range g.mine {
			if pos != 1+seat {
				return fmt.Errorf("seat %d knows deck 0 position %d", seat, pos)
			}
		}
		for ref := range g.seen {
			own := g.pub.Claims[seat] == ref
			answered := g.pub.Answered && g.pub.Claims[g.pub.Lead] == ref && seat == (g.pub.Lead+1)%g.n
			if !own && !answered {
				return fmt.Errorf("seat %d knows ref %d, neither its own nor answered to it", seat, ref)
			}
		}
		if c := g.pub.Claims[seat]; c >= 0 && g.seen[c] == nil {
			return fmt.Errorf("seat %d does not know its own claim", seat)
		}
		if c := g.pub.Claims[g.pub.Lead]; g.pub.Answered && seat == (g.pub.Lead+1)%g.n && g.seen[c] == nil {
			return fmt.Errorf("seat %d does not know the lead's claim answered to it", seat)
		}
	}
	return nil
}

func TestSameSeedSameGame(t *testing.T) {
	digests := map[[32]byte]bool{}
	for seed := uint64(0); seed < 10; seed++ {
		a, err := enginetest.Play(toyRules{}, []byte{modeFair}, toyPlayers(3, toyPlayer{}), seed)
		if err != nil {
			t.Fatal(err)
		}
		b, err := enginetest.Play(toyRules{}, []byte{modeFair}, toyPlayers(3, toyPlayer{}), seed)
		if err != nil {
			t.Fatal(err)
		}
		if a.Digest != b.Digest || !slices.Equal(a.Outcome.Scores, b.Outcome.Scores) {
			t.Errorf("seed %d: two games differ: %+v, %+v", seed, a.Outcome, b.Outcome)
		}
		digests[a.Digest] = true
	}
	if len(digests) < 5 {
		t.Errorf("10 seeds gave %d different games", len(digests))
	}
}

// TestBrokenGames: the table catches each kind of broken game or player, and says what broke.
func TestBrokenGames(t *testing.T) {
	for _, tc := range []struct {
		name  string
		mode  byte
		pl    toyPlayer
		opts  []enginetest.Option
		want  string
		fault int // the seat a *engine.Fault must name, or -1
	}{
		{"a digest of private knowledge", modeLeaky, toyPlayer{}, nil, "digest", -1},
		{"a game that never ends", modeStall, toyPlayer{}, []enginetest.Option{enginetest.MaxInputs(200)}, "not over after 200 inputs", -1},
		{"a show of another seat's card", modeBadShow, toyPlayer{}, nil, "not dealt to it alone", -1},
		{"a lie caught at the show", modeFair, toyPlayer{liar: true}, nil, "claimed", 0},
		{"too many hidden values", modeFair, toyPlayer{extra: 1}, nil, "more than 1", 0},
		{"a watcher's error", modeFair, toyPlayer{}, []enginetest.Option{enginetest.Watch(func(tn enginetest.Turn) error {
			if tn.N == 5 {
				return errors.New("seen enough")
			}
			return nil
		})}, "input 5 (", -1},
	} {
		_, err := enginetest.Play(toyRules{}, []byte{tc.mode}, toyPlayers(3, tc.pl), 1, tc.opts...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one that says %q", tc.name, err, tc.want)
			continue
		}
		var f *engine.Fault
		if got := errors.As(err, &f); got != (tc.fault >= 0) || (got && f.Seat != tc.fault) {
			t.Errorf("%s: error %v: is a fault %t (%+v), want a fault of seat %d", tc.name, err, got, f, tc.fault)
		}
	}
}

func TestBadSetup(t *testing.T) {
	if _, err := enginetest.Play(toyRules{}, []byte{modeFair}, toyPlayers(5, toyPlayer{}), 1); err == nil || !strings.Contains(err.Error(), "5 players") {
		t.Errorf("5 players at a game of 2 to 4: %v", err)
	}
	if _, err := enginetest.Play(toyRules{}, []byte{numModes}, toyPlayers(2, toyPlayer{}), 1); err == nil || !strings.Contains(err.Error(), "config") {
		t.Errorf("a bad configuration: %v", err)
	}
}
