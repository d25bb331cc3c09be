package crypto_test

import (
	"errors"
	"fmt"
	"testing"

	"corruption/crypto"
)

// escrowTable is n players with keys, and seat 0's deal of its key among the others.
func escrowTable(t testing.TB, n int) (crypto.Context, []*crypto.PrivateKey, []*crypto.PublicKey) {
	t.Helper()
	ctx := testContext(n, "escrow")
	rnd := crypto.NewDetReader(fmt.Sprintf("escrow %d", n))
	var privs []*crypto.PrivateKey
	var pubs []*crypto.PublicKey
	for range n {
		k, err := crypto.GenerateKey(rnd)
		if err != nil {
			t.Fatal(err)
		}
		privs, pubs = append(privs, k), append(pubs, k.Public())
	}
	return ctx, privs, pubs
}

// TestEscrowRoundTrip: every other seat opens a share that checks; all of them together
// rebuild the dealer's key, and one fewer cannot.
func TestEscrowRoundTrip(t *testing.T) {
	for n := 3; n <= 7; n++ {
		ctx, privs, pubs := escrowTable(t, n)
		for dealer := range n {
			d, err := crypto.DealEscrow(crypto.NewDetReader("deal"), ctx, dealer, privs[dealer], pubs, n-1)
			if err != nil {
				t.Fatal(err)
			}
			parsed, err := crypto.ParseEscrowDeal(d.Bytes())
			if err != nil || string(parsed.Bytes()) != string(d.Bytes()) {
				t.Fatalf("the deal does not parse back: %v", err)
			}
			if err := crypto.VerifyEscrowDeal(ctx, dealer, pubs, n-1, parsed); err != nil {
				t.Fatalf("n %d dealer %d: %v", n, dealer, err)
			}
			var shares []*crypto.EscrowShare
			for i := range n {
				if i == dealer {
					continue
				}
				sh, err := crypto.OpenEscrowShare(ctx, dealer, i, privs[i], parsed)
				if err != nil {
					t.Fatalf("n %d: seat %d's share of seat %d: %v", n, i, dealer, err)
				}
				shares = append(shares, sh)
			}
			if _, err := crypto.RecoverKey(parsed, dealer, pubs[dealer], shares[:n-2]); err == nil {
				t.Fatalf("n %d: %d shares rebuild a key; the threshold is %d", n, n-2, n-1)
			}
			got, err := crypto.RecoverKey(parsed, dealer, pubs[dealer], shares)
			if err != nil || string(got.Bytes()) != string(privs[dealer].Bytes()) {
				t.Fatalf("n %d: all shares do not rebuild seat %d's key: %v", n, dealer, err)
			}
		}
	}
}

// TestAttackEscrowOtherSecret: a deal whose constant term is not the dealer's published key
// (escrow of another secret, to keep its real key from the others) fails for every node.
func TestAttackEscrowOtherSecret(t *testing.T) {
	ctx, _, pubs := escrowTable(t, 4)
	other, _ := crypto.GenerateKey(crypto.NewDetReader("other"))
	d, err := crypto.DealEscrow(crypto.NewDetReader("deal"), ctx, 0, other, append([]*crypto.PublicKey{other.Public()}, pubs[1:]...), 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := crypto.VerifyEscrowDeal(ctx, 0, pubs, 3, d); !errors.Is(err, crypto.ErrInvalidProof) {
		t.Fatalf("a deal of another secret: %v, want ErrInvalidProof", err)
	}
}

// TestAttackEscrowBadShare: a dealer who seals a wrong share to one seat is convicted by that
// seat's blame, and the blame reveals that box only; a false blame of a good share convicts the
// blamer; a forged blame does not verify.
func TestAttackEscrowBadShare(t *testing.T) {
	ctx, privs, pubs := escrowTable(t, 4)
	d, err := crypto.EscrowBadShareForTest(crypto.NewDetReader("bad"), ctx, 0, privs[0], pubs, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := crypto.VerifyEscrowDeal(ctx, 0, pubs, 3, d); err != nil {
		t.Fatalf("the bad share is in a well-formed deal, which must verify: %v", err)
	}
	if _, err := crypto.OpenEscrowShare(ctx, 0, 2, privs[2], d); !errors.Is(err, crypto.ErrInvalidProof) {
		t.Fatalf("the victim opens its bad share: %v, want ErrInvalidProof", err)
	}
	box, err := d.EscrowBox(2)
	if err != nil {
		t.Fatal(err)
	}
	blame, err := crypto.ProveBlame(crypto.NewDetReader("blame"), ctx, 0, 2, privs[2], box)
	if err != nil {
		t.Fatal(err)
	}
	if err := crypto.VerifyEscrowBlame(ctx, 0, 2, pubs[2], d, blame); err != nil {
		t.Fatalf("the victim's blame: %v, want it upheld", err)
	}
	// A good share, blamed.
	box1, _ := d.EscrowBox(1)
	false1, err := crypto.ProveBlame(crypto.NewDetReader("blame1"), ctx, 0, 1, privs[1], box1)
	if err != nil {
		t.Fatal(err)
	}
	if err := crypto.VerifyEscrowBlame(ctx, 0, 1, pubs[1], d, false1); err == nil || errors.Is(err, crypto.ErrInvalidProof) {
		t.Fatalf("a false blame of a good share: %v, want it rejected as false (not as a bad proof)", err)
	}
	// A blame with a proof for another box.
	if err := crypto.VerifyEscrowBlame(ctx, 0, 1, pubs[1], d, blame); !errors.Is(err, crypto.ErrInvalidProof) {
		t.Fatalf("a blame made for another box: %v, want ErrInvalidProof", err)
	}
}

// TestAttackEscrowBoxOracle: a share box built on a point whose discrete log the dealer does
// not know (the oracle of the sealed answers) fails the deal's check.
func TestAttackEscrowBoxOracle(t *testing.T) {
	ctx, privs, pubs := escrowTable(t, 3)
	d, err := crypto.DealEscrow(crypto.NewDetReader("deal"), ctx, 0, privs[0], pubs, 2)
	if err != nil {
		t.Fatal(err)
	}
	b := d.Bytes()
	// The first box starts after u8 t, t commitments, u8 n, the dealer's flag 0 and seat 1's
	// flag 1: replace its E with seat 2's public key (whose log the dealer does not know).
	off := 1 + 2*crypto.PointSize + 1 + 1 + 1
	copy(b[off:], pubs[2].Bytes())
	forged, err := crypto.ParseEscrowDeal(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := crypto.VerifyEscrowDeal(ctx, 0, pubs, 2, forged); !errors.Is(err, crypto.ErrInvalidProof) {
		t.Fatalf("a box on another point: %v, want ErrInvalidProof", err)
	}
}

func FuzzEscrowDeal(f *testing.F) {
	ctx, privs, pubs := escrowTable(f, 3)
	d, err := crypto.DealEscrow(crypto.NewDetReader("deal"), ctx, 0, privs[0], pubs, 2)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(d.Bytes())
	f.Add([]byte{1})
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := crypto.ParseEscrowDeal(b)
		if err != nil {
			return
		}
		if string(d.Bytes()) != string(b) {
			t.Fatalf("ParseEscrowDeal accepts %x, which encodes to %x", b, d.Bytes())
		}
		_ = crypto.VerifyEscrowDeal(ctx, 0, pubs, 2, d) // never panics
	})
}

// BenchmarkEscrow measures one seat's deal of its key, one node's check of a deal, and one
// recipient's opening of its share, at 3, 5 and 7 seats (threshold n−1; docs/PERFORMANCE.md):
//
//	go test -run='^$' -bench=BenchmarkEscrow -benchmem -cpu=1 ./crypto/
func BenchmarkEscrow(b *testing.B) {
	for _, n := range []int{3, 5, 7} {
		ctx, privs, pubs := escrowTable(b, n)
		d, err := crypto.DealEscrow(crypto.NewDetReader("deal"), ctx, 0, privs[0], pubs, n-1)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("seats=%d/deal", n), func(b *testing.B) {
			for b.Loop() {
				crypto.DealEscrow(crypto.NewDetReader("deal"), ctx, 0, privs[0], pubs, n-1)
			}
			b.ReportMetric(float64(len(d.Bytes())), "deal-B")
		})
		b.Run(fmt.Sprintf("seats=%d/verify", n), func(b *testing.B) {
			for b.Loop() {
				if err := crypto.VerifyEscrowDeal(ctx, 0, pubs, n-1, d); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("seats=%d/open", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := crypto.OpenEscrowShare(ctx, 0, 1, privs[1], d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
