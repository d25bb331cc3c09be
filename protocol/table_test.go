package protocol_test

import (
	"crypto/ed25519"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/protocol"
)

// detRand is a deterministic io.Reader for tests.
type detRand struct{ r *rand.ChaCha8 }

func newDetRand(seed uint64) *detRand {
	var s [32]byte
	s[0] = byte(seed)
	s[1] = byte(seed >> 8)
	return &detRand{rand.NewChaCha8(s)}
}
func (d *detRand) Read(p []byte) (int, error) { return d.r.Read(p) }

type fixture struct {
	tables []*protocol.Table
	bots   []bot.Bot
}

func newFixture(t testing.TB, n int, v corruption.Variant, lbb bool, seed uint64) (*fixture, *protocol.Entry) {
	r := newDetRand(seed)
	keys := make([]ed25519.PrivateKey, n)
	g := &protocol.Genesis{Name: "test", Variant: v, LBB: lbb, Timeout: time.Minute}
	for i := range keys {
		_, keys[i], _ = ed25519.GenerateKey(r)
		g.Roster = append(g.Roster, protocol.Member{Name: fmt.Sprintf("p%d", i), Key: keys[i].Public().(ed25519.PublicKey)})
	}
	gen, err := protocol.NewGenesis(r, keys[0], g)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{}
	for i := range keys {
		var seed [32]byte
		r.Read(seed[:])
		tb, err := protocol.NewTable(gen, protocol.NewSelf(keys[i], seed))
		if err != nil {
			t.Fatal(err)
		}
		f.tables = append(f.tables, tb)
		b, _ := bot.New("heuristic", uint64(i)+uint64(seed[0]))
		f.bots = append(f.bots, b)
	}
	return f, gen
}

// run plays the table to the end, in lockstep: the due seat writes, every table applies.
func (f *fixture) run(t testing.TB) []*protocol.Entry {
	var log []*protocol.Entry
	for steps := 0; ; steps++ {
		if steps > 5000 {
			t.Fatal("table does not finish")
		}
		seat, _ := f.tables[0].Due()
		if seat < 0 {
			break
		}
		tb := f.tables[seat]
		e, err := tb.NextEntry(func(v corruption.View) (corruption.Move, bool) { return f.bots[seat].Decide(v), true })
		if err != nil || e == nil {
			t.Fatalf("seat %d cannot write at %s: %v", seat, tb.DueString(), err)
		}
		for i, other := range f.tables {
			if err := other.Append(e); err != nil {
				t.Fatalf("table %d rejects %s: %v", i, e, err)
			}
		}
		log = append(log, e)
	}
	return log
}

func TestTableLockstep(t *testing.T) {
	for _, tc := range []struct {
		n   int
		v   corruption.Variant
		lbb bool
	}{{3, corruption.Standard, false}, {4, corruption.FreeStud, true}, {5, corruption.DownTheRiver, true}, {7, corruption.Closed, false}} {
		t.Run(fmt.Sprintf("%d-%s-%v", tc.n, tc.v, tc.lbb), func(t *testing.T) {
			f, _ := newFixture(t, tc.n, tc.v, tc.lbb, uint64(tc.n))
			f.run(t)
			d0 := f.tables[0].Game().Digest()
			for i, tb := range f.tables {
				if !tb.Done() || tb.Verdict() != nil {
					t.Fatalf("table %d: done %v verdict %v", i, tb.Done(), tb.Verdict())
				}
				if tb.Game().Digest() != d0 {
					t.Fatalf("table %d digest differs", i)
				}
			}
			t.Logf("%d entries, winners %v", f.tables[0].Len(), f.tables[0].Game().Winners())
		})
	}
}
