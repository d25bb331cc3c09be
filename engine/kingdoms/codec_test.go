package kingdoms_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
)

// TestEveryLegalMoveRoundTrips: every move Legal lists, in many games, encodes and decodes to
// itself (votes and discards travel as hidden values and are not encoded).
func TestEveryLegalMoveRoundTrips(t *testing.T) {
	kinds := map[kingdoms.MoveKind]int{}
	for g := range 20 {
		n := 2 + g%5
		l, err := kingdoms.NewLocal(kingdoms.Advanced, n, bot.GameSetup(kingdoms.Advanced, n, 9, g), nil)
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]bot.Bot, n)
		for s := range bots {
			bots[s], _ = bot.New("random", uint64(g*10+s))
		}
		for {
			d, err := l.Next()
			if err != nil {
				t.Fatal(err)
			}
			if d.Kind == kingdoms.DecideNothing {
				break
			}
			seat := d.Seat
			for _, m := range l.Game().Legal(seat) {
				kinds[m.Kind]++
				if m.Kind == kingdoms.MoveVote || m.Kind == kingdoms.MoveDiscard {
					continue
				}
				b, err := kingdoms.EncodeMove(m)
				if err != nil {
					t.Fatalf("%s: %v", m, err)
				}
				back, err := kingdoms.DecodeMove(m.Seat, b)
				if err != nil || !reflect.DeepEqual(back, m) {
					t.Fatalf("%s: encoded %v, decoded %s (%v)", m, b, back, err)
				}
			}
			if err := l.Play(bots[seat].Decide(l.Game().View(seat))); err != nil {
				t.Fatal(err)
			}
		}
	}
	for k := kingdoms.MoveTake; k <= kingdoms.MovePass; k++ {
		if kinds[k] == 0 {
			t.Errorf("no legal %s move in 20 games", k)
		}
	}
}

func TestDecodeMoveErrors(t *testing.T) {
	for _, tc := range []struct {
		b    []byte
		want string
	}{
		{[]byte{0}, "unknown kind 0"},
		{[]byte{99}, "unknown kind 99"},
		{[]byte{byte(kingdoms.MoveTake)}, "take: 0 bytes of arguments, want 1"},
		{[]byte{byte(kingdoms.MoveTake), 50}, "favor 50 is out of range"},
		{[]byte{byte(kingdoms.MovePlace), 1, 6}, "bill 6 is out of range"},
		{[]byte{byte(kingdoms.MoveInfluence), 3, 4, 0xff}, "waive 4 is out of range"},
		{[]byte{byte(kingdoms.MoveInfluence), 3, 0, 0xff, 0}, "4 bytes of arguments, want 3"},
		{[]byte{byte(kingdoms.MoveChaos), 36, 0}, "card 36 is no chaos card"},
		{[]byte{byte(kingdoms.MoveChaos)}, "0 bytes of arguments, want at least 2"},
		{[]byte{byte(kingdoms.MovePick), 0, 0xff, 0xff, 0xff, 4}, "minion 4 is out of range"},
		{[]byte{byte(kingdoms.MoveVote)}, "unknown kind 9"},
	} {
		_, err := kingdoms.DecodeMove(0, tc.b)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error that says %q", tc.b, err, tc.want)
		}
	}
}

// FuzzDecodeMove: DecodeMove never panics, and whatever it accepts, EncodeMove gives back byte
// for byte. Run: go test -run='^$' -fuzz='^FuzzDecodeMove$' -fuzztime=5000x ./engine/kingdoms/
func FuzzDecodeMove(f *testing.F) {
	for _, b := range [][]byte{{}, {1, 3}, {2, 10, 1}, {3, 7, 2, 0xff}, {3, 7, 0, 2}, {4, 5}, {5, 0, 1}, {5, 5, 0, 3},
		{5, 9, 2, 1, 0}, {6, 4, 0xff, 0xff, 0xff, 0xff}, {6, 4, 3, 2, 9, 1}, {7, 24}, {8}, {9}, {5, 33, 1, 1}} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := kingdoms.DecodeMove(2, b)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an empty error")
			}
			return
		}
		back, err := kingdoms.EncodeMove(m)
		if err != nil || !bytes.Equal(back, b) {
			t.Fatalf("%v decodes to %s, which encodes to %v (%v)", b, m, back, err)
		}
		_ = m.String()
	})
}

// FuzzDecodeConfig: DecodeConfig never panics, and whatever it accepts, EncodeConfig gives back.
func FuzzDecodeConfig(f *testing.F) {
	for _, b := range [][]byte{{0}, {1}, {2}, {3}, {4}, {7}, {8}, {}, {0, 0}} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := kingdoms.DecodeConfig(b)
		if err == nil && !bytes.Equal(kingdoms.EncodeConfig(c), b) {
			t.Fatalf("%v decodes to %+v", b, c)
		}
	})
}
