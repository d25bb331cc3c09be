package protocol_test

import (
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"testing"
	"time"

	"corruption/crypto"
	"corruption/protocol"
)

// Join version 2 through a relayer (a laptop that carries a phone's exchange, p2p/bridge): the
// key the joiner states is the one admitted, a relayer that swaps it breaks the exchange, the
// limits count the relayer's connection, and a joiner of version 1 gets a plain error.

// relayed runs the exchange of self with code through the connection conn, with swap (when
// not nil) rewriting each request on the way.
func (d *door) relayed(self []byte, code protocol.JoinCode, conn string, swap func([]byte) []byte) (*protocol.PrivateTable, error) {
	return protocol.Join(context.Background(), nil, code, self, d.table.Creator,
		func(_ context.Context, req []byte) ([]byte, error) {
			if swap != nil {
				req = swap(req)
			}
			return d.adm.Serve(conn, req)
		})
}

// TestJoinThroughRelayer: a phone's exchange through its laptop's connection admits the
// phone's key, not the laptop's.
func TestJoinThroughRelayer(t *testing.T) {
	d := newDoor(t, 3)
	phone, laptop := testKey(t, "phone"), testKey(t, "laptop")
	p, err := d.relayed(phone, d.code, connOf(laptop), nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Secret != d.table.Secret {
		t.Fatal("the phone got another table")
	}
	if !d.adm.Admitted(phone) || d.adm.Admitted(laptop) {
		t.Fatalf("admitted: the phone %v, the laptop %v; want the phone only", d.adm.Admitted(phone), d.adm.Admitted(laptop))
	}
}

// TestJoinRelayerSwapsKey: a relayer that states its own key in the phone's start request
// (to be admitted in the phone's place, with the phone's code) breaks the exchange: the
// creator's tag does not check at the phone, whose code was right; nobody is admitted; the
// creator counts a failure against the relayer's connection.
func TestJoinRelayerSwapsKey(t *testing.T) {
	d := newDoor(t, 3)
	phone, relayer := testKey(t, "phone"), testKey(t, "relayer")
	swap := func(req []byte) []byte {
		if req[0] != 'j' {
			return req
		}
		out := append([]byte(nil), req...)
		copy(out[len(out)-len(relayer):], relayer)
		return out
	}
	_, err := d.relayed(phone, d.code, connOf(relayer), swap)
	if !errors.Is(err, protocol.ErrWrongCode) {
		t.Fatalf("a swapped key: %v, want ErrWrongCode", err)
	}
	if d.adm.Admitted(phone) || d.adm.Admitted(relayer) || d.adm.Failed() != 1 {
		t.Fatalf("admitted: the phone %v, the relayer %v; %d failures, want neither and 1",
			d.adm.Admitted(phone), d.adm.Admitted(relayer), d.adm.Failed())
	}
	// Unswapped, the same phone through the same relayer gets in.
	if _, err := d.relayed(phone, d.code, connOf(relayer), nil); err != nil {
		t.Fatalf("the phone, relayed honestly: %v", err)
	}
}

// TestJoinLimitsTheRelayer: failures count against the connection: three wrong codes from
// three phones through one laptop hold back a fourth phone of that laptop, not a node on a
// connection of its own.
func TestJoinLimitsTheRelayer(t *testing.T) {
	d := newDoor(t, 7)
	laptop := connOf(testKey(t, "laptop"))
	for i, name := range []string{"phone 1", "phone 2", "phone 3"} {
		if _, err := d.relayed(testKey(t, name), wrongCode(d.code), laptop, nil); !errors.Is(err, protocol.ErrWrongCode) {
			t.Fatalf("attempt %d: %v", i+1, err)
		}
	}
	var wait *protocol.JoinWaitError
	if _, err := d.relayed(testKey(t, "phone 4"), d.code, laptop, nil); !errors.As(err, &wait) || wait.Wait != 10*time.Second {
		t.Fatalf("a fourth phone of the laptop: %v, want a wait of 10s", err)
	}
	if _, err := d.join(testKey(t, "friend"), d.code); err != nil {
		t.Fatalf("a node on its own connection: %v", err)
	}
}

// TestJoinOldVersion: a start of version 1 gets a plain error that says so; an announcement of
// version 1 reads as ErrOldCreator; a creator of version 1's refusal of a version 2 start
// reads as ErrOldCreator too.
func TestJoinOldVersion(t *testing.T) {
	d := newDoor(t, 3)
	share, err := crypto.NewCPace(rand.Reader, []byte("any"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	old := append(append(append([]byte{'j', 1}, d.code.Nameplate...), make([]byte, 16)...), share.Share()...)
	_, err = d.adm.Serve("old", old)
	if err == nil || !strings.Contains(err.Error(), "older release") || !strings.Contains(err.Error(), "version 2") {
		t.Fatalf("a start of version 1: %v", err)
	}
	if d.adm.Failed() != 0 {
		t.Fatal("a start of version 1 counted as a failure")
	}
	np, _, err := protocol.ParseJoinAd(append([]byte{'p', 1}, d.code.Nameplate...))
	if !errors.Is(err, protocol.ErrOldCreator) || np != d.code.Nameplate {
		t.Fatalf("an announcement of version 1: %q, %v", np, err)
	}
	_, err = protocol.Join(context.Background(), nil, d.code, testKey(t, "new"), d.table.Creator,
		func(context.Context, []byte) ([]byte, error) {
			return nil, errors.New("peer X answered /corruption/join/2 with an error: join request of version 2, want 1")
		})
	if !errors.Is(err, protocol.ErrOldCreator) {
		t.Fatalf("an old creator's refusal: %v", err)
	}
}

// FuzzParseJoinAd: an announcement it takes is one JoinAd makes, of the nameplate and key it
// reads; of version 1 only ErrOldCreator with a nameplate.
func FuzzParseJoinAd(f *testing.F) {
	f.Add(protocol.JoinAd(protocol.JoinCode{Nameplate: "7f", Secret: "k3mx2q"}, make([]byte, 32)))
	f.Add([]byte{'p', 1, '7', 'f'})
	f.Add([]byte{'p', 2, '7'})
	f.Fuzz(func(t *testing.T, b []byte) {
		np, key, err := protocol.ParseJoinAd(b)
		switch {
		case errors.Is(err, protocol.ErrOldCreator):
			if len(b) != 4 || np != string(b[2:]) {
				t.Fatalf("%x: an old announcement of nameplate %q", b, np)
			}
		case err == nil:
			if again := protocol.JoinAd(protocol.JoinCode{Nameplate: np}, key); string(again) != string(b) {
				t.Fatalf("%x reads as %q and %x, which make %x", b, np, key, again)
			}
		}
	})
}
