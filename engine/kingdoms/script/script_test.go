package script_test

import (
	"bytes"
	"reflect"
	"testing"

	"corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
	"corruption/engine/kingdoms/script"
)

// record plays a game among bots and returns it as a script, with its final digest.
func record(t testing.TB, rules kingdoms.Config, players int, seed uint64) (*script.Script, [32]byte) {
	t.Helper()
	setup := bot.GameSetup(rules, players, seed, 0)
	l, err := kingdoms.NewLocal(rules, players, setup, nil)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]bot.Bot, players)
	for s := range bots {
		bots[s], _ = bot.New([]string{"heuristic", "random"}[s%2], seed+uint64(s))
	}
	sc := &script.Script{Players: players, Rules: rules, Seed: seed, Setup: setup}
	if err := bot.Play(l, bots, func(m kingdoms.Move) { sc.Moves = append(sc.Moves, m) }); err != nil {
		t.Fatal(err)
	}
	return sc, l.Game().Digest()
}

func TestRecordedGamesReplay(t *testing.T) {
	for players := 2; players <= 6; players++ {
		for _, rules := range []kingdoms.Config{kingdoms.Basic, kingdoms.Advanced, {Bonuses: true}, {Chaos: true}, {Even: true}, {Bonuses: true, Chaos: true, Even: true}} {
			if rules.Check(players) != nil {
				continue
			}
			sc, digest := record(t, rules, players, uint64(players))
			data, err := sc.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			back, err := script.Parse(data)
			if err != nil {
				t.Fatalf("%d players, %s: %v\n%s", players, rules, err, data)
			}
			if !reflect.DeepEqual(back, sc) {
				t.Fatalf("%d players, %s: round trip differs", players, rules)
			}
			again, _ := back.Marshal()
			if !bytes.Equal(again, data) {
				t.Fatalf("Marshal is not stable")
			}
			res, err := back.Run(nil)
			if err != nil {
				t.Fatalf("%d players, %s: %v", players, rules, err)
			}
			if !res.Finished || res.Digest != hexDigest(digest) {
				t.Fatalf("%d players, %s: replay ends %+v", players, rules, res)
			}
		}
	}
}
