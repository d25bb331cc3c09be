package bridge

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The third outside review (docs/SECURITY.md, "A guest's phone"): a phone that holds the
// token may not answer in the laptop's place, nor in another phone's.

// TestHubGuestPhone: a guest phone serves the laptop's own service, serves the table
// protocol, and claims the honest phone's table with its own key; the honest phone sits at
// table T. Across reconnects of both: the laptop's service is the laptop's answer alone (its
// refusal, never the guest's answer); a peer's request for T reaches the honest phone alone,
// and one for a table nobody sat at reaches neither; the guest answers only for the table it
// proved it sits at, and sealed requests only reach a phone on a sealed topic with the asker.
func TestHubGuestPhone(t *testing.T) {
	h, laptop, remote := newHub(t)
	local := h.Local()
	local.Handle(seatProto, func(string, []byte) ([]byte, error) { return nil, errors.New("no seat to give") })
	local.Handle(entries, func(string, []byte) ([]byte, error) { return nil, errors.New("no such table here") })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	honest, hd := newPhone(t, h)
	guest, gd := newPhone(t, h)
	var guestAsked atomic.Int32
	guestAnswers := func(_ string, req []byte) ([]byte, error) {
		guestAsked.Add(1)
		return []byte("the guest's answer to " + string(req)), nil
	}
	guest.Handle(seatProto, guestAnswers) // refused by the hub: the laptop's own
	guest.Handle(entries, guestAnswers)
	hk, gk := testKey(1), testKey(2)
	honest.Identify(hk)
	guest.Identify(gk)
	honest.Handle(entries, func(_ string, req []byte) ([]byte, error) { return []byte("honest: " + string(req)), nil })
	honest.Sit(entries, sitProofFor(hk, "T"))
	guest.Sit(entries, sitProofFor(hk, "T")) // the honest seat's proof: not the guest's key
	guest.Sit(entries, sitProofFor(gk, "U")) // its own table
	if err := honest.Join("sealed/h", nil); err != nil {
		t.Fatal(err)
	}
	if err := guest.Join("sealed/g", nil); err != nil {
		t.Fatal(err)
	}
	if err := remote.Join("sealed/h", nil); err != nil {
		t.Fatal(err)
	}

	guestCalls := 0 // requests the guest should have seen
	check := func(round string) {
		t.Helper()
		waitAnswer(t, ctx, func() ([]byte, error) { return remote.Request(ctx, laptop.ID(), entries, []byte("table T")) }, "honest: table T")
		waitAnswer(t, ctx, func() ([]byte, error) { return remote.Request(ctx, laptop.ID(), entries, []byte("table U")) }, "the guest's answer to table U")
		guestCalls++
		if _, err := remote.Request(ctx, laptop.ID(), entries, []byte("table V")); err == nil || !strings.Contains(err.Error(), "no such table here") {
			t.Errorf("%s: a table nobody sat at: %v, want the laptop's refusal", round, err)
		}
		ans, err := remote.Request(ctx, laptop.ID(), entries, []byte("sealed for h"))
		if err != nil || string(ans) != "honest: sealed for h" {
			t.Errorf("%s: a sealed request from a peer on the honest phone's sealed topic: %q, %v", round, ans, err)
		}
		// The laptop's own service: asked of the laptop by the honest phone, the laptop's
		// refusal comes back; asked of the guest's member id, or by a peer, nothing answers.
		if _, err := honest.Request(ctx, laptop.ID(), seatProto, nil); err == nil || !strings.Contains(err.Error(), "no seat to give") {
			t.Errorf("%s: the laptop's seat service: %v, want the laptop's refusal", round, err)
		}
		if _, err := honest.Request(ctx, guest.ID(), seatProto, nil); err == nil || !strings.Contains(err.Error(), "asked of the laptop") {
			t.Errorf("%s: the laptop's service asked of the guest's id: %v", round, err)
		}
		if _, err := remote.Request(ctx, laptop.ID(), seatProto, nil); err == nil {
			t.Errorf("%s: a peer reached the laptop's own service", round)
		}
		if n := guestAsked.Load(); int(n) != guestCalls {
			t.Fatalf("%s: the guest was asked %d times, want %d (its own table's only)", round, n, guestCalls)
		}
	}
	check("connected")
	for i, r := range []struct {
		c *Client
		d *phoneDialer
	}{{honest, hd}, {guest, gd}, {honest, hd}} {
		was := r.c.ID()
		r.d.drop()
		for id := r.c.ID(); id == "" || id == was; id = r.c.ID() {
			select {
			case <-ctx.Done():
				t.Fatal("a phone did not connect again")
			case <-time.After(2 * time.Millisecond): // its backoff
			}
		}
		check(fmt.Sprintf("after reconnect %d", i+1))
	}
}

// TestHubIdentify: an Identify whose signature is not for this connection (another member
// id, another laptop, another key) is refused, and a Sit before any Identify too; a phone
// cannot take a second key on one connection.
func TestHubIdentify(t *testing.T) {
	h, laptop, _ := newHub(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	phone, hubSide := pipes()
	go h.Serve(hubSide)
	send := func(f *Frame) {
		b, err := f.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if err := phone.Write(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	read := func(kind Kind) *Frame {
		for {
			b, err := phone.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if f.Kind == kind {
				return f
			}
		}
	}
	send(&Frame{Kind: KindHello, Version: Version})
	w := read(KindWelcome)
	k, other := testKey(3), testKey(4)
	cases := []struct {
		name string
		f    *Frame
		want string
	}{
		{"a sit before identifying", &Frame{Kind: KindSit, ID: 1, Proto: entries, Data: sitProofFor(k, "T")}, "identify first"},
		{"another member id", identifyFrame(2, k, laptop.ID(), "local/99"), "does not check"},
		{"another laptop", identifyFrame(3, k, "12D3KooWother", w.Peer), "does not check"},
		{"another key's signature", &Frame{Kind: KindIdentify, ID: 4, Key: pubOf(other), Sig: identifyFrame(0, k, laptop.ID(), w.Peer).Sig}, "does not check"},
		{"the right one", identifyFrame(5, k, laptop.ID(), w.Peer), ""},
		{"a second key", identifyFrame(6, other, laptop.ID(), w.Peer), "another key already"},
		{"a sit at another's table", &Frame{Kind: KindSit, ID: 7, Proto: entries, Data: sitProofFor(other, "T")}, "seats another key"},
		{"a sit on the laptop's service", &Frame{Kind: KindSit, ID: 8, Proto: seatProto, Data: sitProofFor(k, "T")}, "not a protocol a phone may serve"},
		{"a sit of its own", &Frame{Kind: KindSit, ID: 9, Proto: entries, Data: sitProofFor(k, "T")}, ""},
	}
	for _, c := range cases {
		send(c.f)
		r := read(KindResult)
		switch {
		case r.ID != c.f.ID:
			t.Errorf("%s: a result for %d, want %d", c.name, r.ID, c.f.ID)
		case c.want == "" && r.Err != "":
			t.Errorf("%s: refused: %s", c.name, r.Err)
		case c.want != "" && !strings.Contains(r.Err, c.want):
			t.Errorf("%s: %q, want a refusal saying %q", c.name, r.Err, c.want)
		}
	}
	if got, ok := h.Key(w.Peer); !ok || !got.Equal(k.Public()) {
		t.Errorf("the hub knows the phone as %x, %v", got, ok)
	}
	send(&Frame{Kind: KindServe, Proto: seatProto})
	if e := read(KindError); !strings.Contains(e.Err, "no phone may serve it") {
		t.Errorf("a phone serving the laptop's service: %q", e.Err)
	}
}

// TestHubMaxPhones: past MaxPhones the hub refuses a phone with an error that says so, and
// takes one again once another left.
func TestHubMaxPhones(t *testing.T) {
	h, _, _ := newHub(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	hello, _ := (&Frame{Kind: KindHello, Version: Version}).Encode()
	connect := func() (Conn, *Frame) {
		phone, hubSide := pipes()
		go h.Serve(hubSide)
		if err := phone.Write(ctx, hello); err != nil {
			t.Fatal(err)
		}
		b, err := phone.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		return phone, f
	}
	var conns []Conn
	for range MaxPhones {
		c, f := connect()
		if f.Kind != KindWelcome {
			t.Fatalf("phone %d of %d: %s %q", len(conns)+1, MaxPhones, f.Kind, f.Err)
		}
		conns = append(conns, c)
	}
	if _, f := connect(); f.Kind != KindBye || f.Reason != ByeFull || !strings.Contains(f.Err, "phones already") {
		t.Errorf("a phone past the limit: %s %q, want a refusal", f.Kind, f.Err)
	}
	conns[0].Close()
	for h.Phones() >= MaxPhones {
		select {
		case <-ctx.Done():
			t.Fatal("the hub kept a phone that closed")
		case <-time.After(2 * time.Millisecond): // the hub reads the close
		}
	}
	if _, f := connect(); f.Kind != KindWelcome {
		t.Errorf("a phone once one left: %s %q", f.Kind, f.Err)
	}
}

// TestHubDropPhones: DropPhones tells every phone why and closes its connection; a phone
// whose address still holds connects again under a new id.
func TestHubDropPhones(t *testing.T) {
	h, _, _ := newHub(t)
	told := make(chan Trouble, 4)
	d := &phoneDialer{hub: h}
	c, err := NewClient(ClientConfig{Dial: d.dial, MinBackoff: time.Millisecond, MaxBackoff: 10 * time.Millisecond, Logf: t.Logf,
		OnTrouble: func(tr Trouble) {
			if tr.Kind != NoTrouble {
				told <- tr
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.WaitConnected(ctx); err != nil {
		t.Fatal(err)
	}
	first := c.ID()
	if n := h.DropPhones(ByeMoved, "the laptop's address changed"); n != 1 {
		t.Errorf("dropped %d phones, want 1", n)
	}
	select {
	case tr := <-told:
		if tr.Kind != Moved || !strings.Contains(tr.Text, "address changed") {
			t.Errorf("the phone was told %+v", tr)
		}
	case <-ctx.Done():
		t.Fatal("the phone was not told why")
	}
	for c.ID() == "" || c.ID() == first {
		select {
		case <-ctx.Done():
			t.Fatal("the phone did not connect again")
		case <-time.After(2 * time.Millisecond): // its backoff
		}
	}
}

func pubOf(k ed25519.PrivateKey) []byte { return k.Public().(ed25519.PublicKey) }

// identifyFrame is an Identify of key, signed for member at the laptop node.
func identifyFrame(id uint32, key ed25519.PrivateKey, node, member string) *Frame {
	return &Frame{Kind: KindIdentify, ID: id, Key: pubOf(key), Sig: ed25519.Sign(key, IdentifyMessage(node, member))}
}
