package protocol_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"corruption/crypto"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// Joining a private table (join.go): the code's format, the exchange, a wrong code, the
// limits on attempts, and what a recording of it all lets an eavesdropper test offline.

func testKey(t testing.TB, seed string) ed25519.PublicKey {
	t.Helper()
	var s [32]byte
	copy(s[:], seed)
	return ed25519.NewKeyFromSeed(s[:]).Public().(ed25519.PublicKey)
}

// door is a creator's admission on a fake clock, and what it told its creator.
type door struct {
	adm   *protocol.Admission
	table *protocol.PrivateTable
	code  protocol.JoinCode
	clock *memnet.Clock
	mu    sync.Mutex
	said  []string
}

func newDoor(t testing.TB, players int) *door {
	t.Helper()
	d := &door{clock: memnet.NewClock()}
	var err error
	if d.code, err = protocol.NewJoinCode(nil); err != nil {
		t.Fatal(err)
	}
	if d.table, err = protocol.NewPrivateTable(nil, testKey(t, "creator"), toyID, []byte{1}, players); err != nil {
		t.Fatal(err)
	}
	d.adm = protocol.NewAdmission(d.code, d.table, d.clock, nil, func(f string, a ...any) {
		d.mu.Lock()
		d.said = append(d.said, fmt.Sprintf(f, a...))
		d.mu.Unlock()
	})
	return d
}

// join runs the exchange of the node with key self, with code, straight into the door.
func (d *door) join(self ed25519.PublicKey, code protocol.JoinCode) (*protocol.PrivateTable, error) {
	return protocol.Join(context.Background(), nil, code, self, d.table.Creator,
		func(_ context.Context, req []byte) ([]byte, error) { return d.adm.Serve(connOf(self), req) })
}

// connOf is the connection a node's requests come on: its own (no relay).
func connOf(k ed25519.PublicKey) string { return fmt.Sprintf("peer-%x", k[:8]) }

func wrongCode(c protocol.JoinCode) protocol.JoinCode {
	s := []byte(c.Secret)
	s[0] = map[bool]byte{true: 'a', false: 'b'}[s[0] == 'b']
	return protocol.JoinCode{Nameplate: c.Nameplate, Secret: string(s)}
}

func TestJoinCode(t *testing.T) {
	c, err := protocol.NewJoinCode(nil)
	if err != nil {
		t.Fatal(err)
	}
	s := c.String()
	if len(s) != 10 || s[2] != '-' || s[6] != '-' {
		t.Fatalf("join code %q is not like 7f-k3m-x2q", s)
	}
	for _, typed := range []string{s, strings.ToUpper(s), strings.ReplaceAll(s, "-", ""), strings.ReplaceAll(s, "-", " ")} {
		if got, err := protocol.ParseJoinCode(typed); err != nil || got != c {
			t.Errorf("ParseJoinCode(%q) = %v, %v; want %v", typed, got, err, c)
		}
	}
	if got, err := protocol.ParseJoinCode("OI-L23-456"); err != nil || got.String() != "01-123-456" {
		t.Errorf("o, i and l read as 0 and 1: got %v, %v", got, err)
	}
	for _, bad := range []string{"", "7f-k3m-x2", "7f-k3m-x2qq", "7f-k3m-x2u", "7f-k3m-x2é"} {
		if _, err := protocol.ParseJoinCode(bad); err == nil {
			t.Errorf("ParseJoinCode(%q) accepted", bad)
		}
	}
}

// TestJoinAdmits: the right code admits the node, which gets the creator's table (same secret,
// name, channel and settings); the code typed in capitals is the same code.
func TestJoinAdmits(t *testing.T) {
	d := newDoor(t, 3)
	friend := testKey(t, "friend")
	code, _ := protocol.ParseJoinCode(strings.ToUpper(d.code.String()))
	p, err := d.join(friend, code)
	if err != nil {
		t.Fatal(err)
	}
	if p.Secret != d.table.Secret || p.Name() != d.table.Name() || p.Channel() != d.table.Channel() ||
		p.Game != toyID || p.Players != 3 || !p.Creator.Equal(d.table.Creator) {
		t.Fatalf("the joiner's table differs from the creator's: %+v", p)
	}
	if !d.adm.Admitted(friend) || d.adm.Failed() != 0 || d.adm.Full() {
		t.Fatalf("admitted %v, failed %d, full %v", d.adm.Admitted(friend), d.adm.Failed(), d.adm.Full())
	}
	if strings.Contains(p.Name(), d.code.Secret) || strings.Contains(p.Channel(), d.code.Secret) {
		t.Fatal("the table's name or channel shows the code")
	}
}

// TestJoinWrongCodeRefused: a wrong secret is refused, counted and told to the creator; the
// node is not admitted.
func TestJoinWrongCodeRefused(t *testing.T) {
	d := newDoor(t, 3)
	stranger := testKey(t, "stranger")
	if _, err := d.join(stranger, wrongCode(d.code)); !errors.Is(err, protocol.ErrWrongCode) {
		t.Fatalf("a wrong code: got %v, want ErrWrongCode", err)
	}
	if d.adm.Admitted(stranger) || d.adm.Failed() != 1 {
		t.Fatalf("admitted %v, failed %d", d.adm.Admitted(stranger), d.adm.Failed())
	}
	if len(d.said) != 1 || !strings.Contains(d.said[0], "1 failed so far") {
		t.Fatalf("the creator was told %q", d.said)
	}
	other := protocol.JoinCode{Nameplate: "zz", Secret: d.code.Secret}
	if d.code.Nameplate == "zz" {
		other.Nameplate = "yy"
	}
	if _, err := d.join(stranger, other); !errors.Is(err, protocol.ErrNoNameplate) {
		t.Fatalf("another nameplate: got %v, want ErrNoNameplate", err)
	}
}

// TestJoinLimits: a node that fails three times is refused, without an exchange, until its
// backoff passes, then doubling; meanwhile a friend with the right code is admitted at once;
// fresh identities share a budget of 10 attempts refilled every 6 s; an exchange never
// confirmed counts as a failure; once the table is full, nobody else is let in.
func TestJoinLimits(t *testing.T) {
	d := newDoor(t, 3)
	stranger := testKey(t, "stranger")
	bad := wrongCode(d.code)
	for i := range 3 {
		if _, err := d.join(stranger, bad); !errors.Is(err, protocol.ErrWrongCode) {
			t.Fatalf("attempt %d: %v", i+1, err)
		}
	}
	var wait *protocol.JoinWaitError
	if _, err := d.join(stranger, d.code); !errors.As(err, &wait) || wait.Wait != 10*time.Second {
		t.Fatalf("a fourth attempt after three failures: got %v, want a wait of 10s", err)
	}
	if d.adm.Failed() != 3 {
		t.Fatalf("the refused attempt counted: %d failures", d.adm.Failed())
	}
	friend := testKey(t, "friend")
	if _, err := d.join(friend, d.code); err != nil {
		t.Fatalf("a friend, while a stranger is held back: %v", err)
	}
	d.clock.Advance(10 * time.Second)
	if _, err := d.join(stranger, bad); !errors.Is(err, protocol.ErrWrongCode) {
		t.Fatalf("after its backoff: %v", err)
	}
	if _, err := d.join(stranger, bad); !errors.As(err, &wait) || wait.Wait != 20*time.Second {
		t.Fatalf("after a fourth failure: got %v, want a wait of 20s", err)
	}

	// The shared budget: 10 attempts, minus the 6 made so far, plus what 10 s refilled.
	d2 := newDoor(t, 7)
	fresh := 0
	var err error
	for ; fresh < 20; fresh++ {
		if _, err = d2.join(testKey(t, fmt.Sprint("sybil ", fresh)), wrongCode(d2.code)); !errors.Is(err, protocol.ErrWrongCode) {
			break
		}
	}
	if fresh != 10 || !errors.As(err, &wait) {
		t.Fatalf("fresh identities made %d attempts before %v; want 10, then a wait", fresh, err)
	}
	d2.clock.Advance(6 * time.Second)
	if _, err := d2.join(testKey(t, "late friend"), d2.code); err != nil {
		t.Fatalf("a friend once the budget refilled: %v", err)
	}

	// An exchange that is never confirmed.
	d3 := newDoor(t, 3)
	var sid [16]byte
	start := append([]byte{'j', 2}, d3.code.Nameplate...)
	share, err := crypto.NewCPace(rand.Reader, []byte("any"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	start = append(append(append(start, sid[:]...), share.Share()...), stranger...)
	if ans, err := d3.adm.Serve(connOf(stranger), start); err != nil || ans[0] != 0 || d3.adm.Failed() != 0 {
		t.Fatalf("a start: %x, %v, %d failures", ans, err, d3.adm.Failed())
	}
	d3.clock.Advance(31 * time.Second)
	if d3.adm.Failed() != 1 {
		t.Fatalf("an unconfirmed exchange: %d failures, want 1", d3.adm.Failed())
	}

	// Full: the friend and the creator make two of three; one more, then nobody.
	if _, err := d.join(testKey(t, "third"), d.code); err != nil {
		t.Fatal(err)
	}
	if _, err := d.join(testKey(t, "fourth"), d.code); !errors.Is(err, protocol.ErrTableFull) || !d.adm.Full() {
		t.Fatalf("a fourth player at a table of three: %v", err)
	}
	if _, err := d.join(friend, d.code); err != nil {
		t.Fatalf("an admitted node joins again (a restart): %v", err)
	}
}

// FuzzJoinServe: whatever a stranger sends the creator's door, it never panics, never admits
// the stranger, and answers every request it does not refuse with a status byte.
func FuzzJoinServe(f *testing.F) {
	d := newDoor(f, 3)
	stranger := testKey(f, "stranger")
	// Seeds: a real start and confirmation of a wrong code.
	protocol.Join(context.Background(), nil, wrongCode(d.code), stranger, d.table.Creator,
		func(_ context.Context, req []byte) ([]byte, error) {
			f.Add(req)
			return d.adm.Serve(connOf(stranger), req)
		})
	f.Add([]byte{'j', 1})
	f.Add([]byte{'k'})
	f.Fuzz(func(t *testing.T, req []byte) {
		ans, err := d.adm.Serve(connOf(stranger), req)
		if err == nil && len(ans) == 0 {
			t.Fatal("an empty answer")
		}
		if d.adm.Admitted(stranger) {
			t.Fatalf("admitted by %x", req)
		}
	})
}

// FuzzParseJoinCode: whatever it accepts prints as a code that reads back the same.
func FuzzParseJoinCode(f *testing.F) {
	for _, s := range []string{"7f-k3m-x2q", "7FK3MX2Q", "oi-l23-456", "7f k3m x2q", "", "7f-k3m-x2u"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := protocol.ParseJoinCode(s)
		if err != nil {
			return
		}
		again, err := protocol.ParseJoinCode(c.String())
		if err != nil || again != c || len(c.String()) != 10 {
			t.Fatalf("%q reads as %v, which prints as %q and reads back as %v, %v", s, c, c.String(), again, err)
		}
	})
}
