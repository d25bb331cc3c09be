package crypto

import (
	"errors"
	"fmt"
	"testing"
)

// TestKeyTableShares: a share's check gives the same verdicts without its author's key table
// (the key's first check), while the table is built (the second) and with it (the third
// and later): the honest share passes, and a random D, a response off by one, a share of
// another ciphertext and another key's table all fail. Then the tables are bounded: the
// oldest key is forgotten once keyTableSlots others were met.
func TestKeyTableShares(t *testing.T) {
	rnd := NewDetReader("key tables")
	ctx := internalContext("deal")
	priv, _ := GenerateKey(rnd)
	other, _ := GenerateKey(rnd)
	pub, otherPub := priv.Public(), other.Public()
	deck, _ := CanonicalDeck(3)
	joint := pub
	deck, _, err := Shuffle(rnd, ctx.WithStep("shuffle"), 0, joint, deck)
	if err != nil {
		t.Fatal(err)
	}
	c, c2 := &deck[0], &deck[1]
	sh, err := DecryptShare(rnd, ctx, 1, priv, c)
	if err != nil {
		t.Fatal(err)
	}
	otherSh, _ := DecryptShare(rnd, ctx, 1, other, c)
	card, _ := CardPoint(2)
	random, err := ParseShare(append(card.Bytes(), sh.Bytes()[PointSize:]...))
	if err != nil {
		t.Fatal(err)
	}
	offByOne := *sh
	offByOne.proof.s.Add(&offByOne.proof.s, scalarOne)
	hasTable := func(k *PublicKey) (known, table bool) {
		keyTables.Lock()
		defer keyTables.Unlock()
		e, ok := keyTables.m[k.enc]
		return ok, ok && e.table != nil
	}
	forget := func(k *PublicKey) {
		keyTables.Lock()
		delete(keyTables.m, k.enc)
		keyTables.Unlock()
	}
	cases := func(round string, before func()) {
		for _, c := range []struct {
			name string
			ok   bool
			run  func() error
		}{
			{"honest share", true, func() error { return VerifyShare(ctx, 1, pub, c, sh) }},
			{"the other key's honest share", true, func() error { return VerifyShare(ctx, 1, otherPub, c, otherSh) }},
			{"random D", false, func() error { return VerifyShare(ctx, 1, pub, c, random) }},
			{"response off by one", false, func() error { return VerifyShare(ctx, 1, pub, c, &offByOne) }},
			{"share of another ciphertext", false, func() error { return VerifyShare(ctx, 1, pub, c2, sh) }},
			{"share under the other key", false, func() error { return VerifyShare(ctx, 1, otherPub, c, sh) }},
		} {
			before()
			err := c.run()
			if c.ok && err != nil || !c.ok && !errors.Is(err, ErrInvalidProof) {
				t.Errorf("%s: %s: %v", round, c.name, err)
			}
		}
	}
	// Without tables: each key forgotten before each check, so each is its first.
	cases("no table", func() { forget(pub); forget(otherPub) })
	forget(pub)
	if err := VerifyShare(ctx, 1, pub, c, sh); err != nil {
		t.Fatalf("honest share, first check: %v", err)
	}
	if known, table := hasTable(pub); !known || table {
		t.Fatalf("after a first check: key known %v, with a table %v; want known, no table", known, table)
	}
	// The second check builds the table; every check after it reads it.
	if err := VerifyShare(ctx, 1, pub, c, sh); err != nil {
		t.Fatalf("honest share, the table built: %v", err)
	}
	if known, table := hasTable(pub); !known || !table {
		t.Fatalf("after a second check: key known %v, with a table %v; want a table", known, table)
	}
	keyTable(otherPub)
	cases("with tables", func() {})
	if _, table := hasTable(otherPub); !table {
		t.Fatal("the other key has no table after its checks")
	}
	// keyTableSlots keys later, pub's table is gone (and its next check starts over).
	for i := 0; i < keyTableSlots; i++ {
		k, _ := GenerateKey(NewDetReader(fmt.Sprint("filler ", i)))
		keyTable(k.Public())
	}
	if known, _ := hasTable(pub); known {
		t.Fatal("the oldest key's table is kept beyond keyTableSlots keys")
	}
	keyTables.Lock()
	n := len(keyTables.m)
	keyTables.Unlock()
	if n > keyTableSlots {
		t.Fatalf("%d keys kept, want at most %d", n, keyTableSlots)
	}
	if err := VerifyShare(ctx, 1, pub, c, sh); err != nil {
		t.Fatalf("honest share after its table was forgotten: %v", err)
	}
}
