package bridge

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"corruption/protocol/tablenet"
	"corruption/protocol/tablenet/memnode"
)

const (
	tableTopic = "t/table"
	entries    = "/entries"
	seatProto  = "/seat" // a service of the laptop's own
)

// testPolicy is a policy of the test's topics and protocols, and a refused topic. A request
// "table X ..." names table X; a request "sealed ..." is sealed, for the phones on a topic
// "sealed/..." with the asker; a phone proves it sits at X with the proof "KEY X", KEY its
// identity key in hex.
type testPolicy struct{}

var _ Policy = testPolicy{}

func (testPolicy) Topic(topic string) (func(string, []byte) int, bool) {
	if topic == "refused" {
		return nil, false
	}
	return func(_ string, data []byte) int {
		if bytes.HasPrefix(data, []byte("bad")) {
			return tablenet.Reject
		}
		return tablenet.Accept
	}, true
}

func (testPolicy) Protocols() []string { return []string{entries} }
func (testPolicy) Laptop() []string    { return []string{seatProto} }
func (testPolicy) Served() []string    { return []string{entries} }

func (testPolicy) Route(proto string, req []byte) (string, bool, bool) {
	f := strings.Fields(string(req))
	switch {
	case len(f) >= 2 && f[0] == "table":
		return f[1], false, true
	case len(f) >= 1 && f[0] == "sealed":
		return "", true, true
	}
	return "", false, false
}

func (testPolicy) Sit(proto string, seat ed25519.PublicKey, proof []byte) (string, error) {
	k, table, _ := strings.Cut(string(proof), " ")
	if k != hex.EncodeToString(seat) || table == "" {
		return "", errors.New("that proof seats another key")
	}
	return table, nil
}

func (testPolicy) Sealed(topic string) bool { return strings.HasPrefix(topic, "sealed/") }

// testKey is a seat's key, from a seed byte.
func testKey(b byte) ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{b}, ed25519.SeedSize))
}

// sitProofFor is the test policy's proof that key sits at table.
func sitProofFor(key ed25519.PrivateKey, table string) []byte {
	return []byte(hex.EncodeToString(key.Public().(ed25519.PublicKey)) + " " + table)
}

// phoneDialer dials the hub in memory; drop cuts the connection of the last dial.
type phoneDialer struct {
	hub  *Hub
	mu   sync.Mutex
	last Conn
	n    int
}

func (d *phoneDialer) dial(ctx context.Context) (Conn, error) {
	a, b := pipes()
	d.mu.Lock()
	d.last, d.n = b, d.n+1
	d.mu.Unlock()
	go d.hub.Serve(b)
	return a, nil
}

func (d *phoneDialer) drop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.last.Close()
}

func newPhone(t *testing.T, h *Hub) (*Client, *phoneDialer) {
	t.Helper()
	d := &phoneDialer{hub: h}
	c, err := NewClient(ClientConfig{Dial: d.dial, MinBackoff: time.Millisecond, MaxBackoff: 10 * time.Millisecond, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.WaitConnected(ctx); err != nil {
		t.Fatal(err)
	}
	return c, d
}

func newHub(t *testing.T) (*Hub, *memnode.Member, *memnode.Member) {
	t.Helper()
	w := memnode.New()
	laptop, remote := w.Member(), w.Member()
	h := NewHub(laptop, testPolicy{}, t.Logf)
	t.Cleanup(func() { h.Close() })
	return h, laptop, remote
}

type nexter interface {
	Next(ctx context.Context, topic string) (string, []byte, error)
}

func next(t *testing.T, n nexter, topic string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	from, data, err := n.Next(ctx, topic)
	if err != nil {
		t.Fatalf("next on %q: %v", topic, err)
	}
	return from, string(data)
}

// waitPeers waits until the client lists want as the topic's peers.
func waitPeers(t *testing.T, c *Client, topic string, want []string) {
	t.Helper()
	slices.Sort(want)
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := c.TopicPeers(topic)
		slices.Sort(got)
		if slices.Equal(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("peers of %q: %v, want %v", topic, got, want)
		}
		time.Sleep(5 * time.Millisecond) // polling a state the hub pushes on its own tick
	}
}

// TestHubMembersHearEachOther: a publish of any local member reaches the other members and the
// remote peer; the remote peer's reaches every member; a member's peers are the remote peers
// and the other members.
func TestHubMembersHearEachOther(t *testing.T) {
	h, laptop, remote := newHub(t)
	local := h.Local()
	a, _ := newPhone(t, h)
	b, _ := newPhone(t, h)
	if err := remote.Join(tableTopic, nil); err != nil {
		t.Fatal(err)
	}
	if err := local.Join(tableTopic, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*Client{a, b} {
		if err := c.Join(tableTopic, nil); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	if err := a.Publish(ctx, tableTopic, []byte("from a")); err != nil {
		t.Fatal(err)
	}
	if from, got := next(t, b, tableTopic); from != a.ID() || got != "from a" {
		t.Errorf("b heard %q from %s, want %q from %s", got, from, "from a", a.ID())
	}
	if from, got := next(t, local, tableTopic); from != a.ID() || got != "from a" {
		t.Errorf("the laptop heard %q from %s", got, from)
	}
	if from, got := next(t, remote, tableTopic); from != laptop.ID() || got != "from a" {
		t.Errorf("the remote peer heard %q from %s, want it from the laptop", got, from)
	}
	if err := local.Publish(ctx, tableTopic, []byte("from the laptop")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*Client{a, b} {
		if from, got := next(t, c, tableTopic); from != local.ID() || got != "from the laptop" {
			t.Errorf("a phone heard %q from %s", got, from)
		}
	}
	if err := remote.Publish(ctx, tableTopic, []byte("from afar")); err != nil {
		t.Fatal(err)
	}
	for _, n := range []nexter{a, b, local} {
		if from, got := next(t, n, tableTopic); from != remote.ID() || got != "from afar" {
			t.Errorf("a member heard %q from %s", got, from)
		}
	}
	waitPeers(t, a, tableTopic, []string{remote.ID(), local.ID(), b.ID()})
	if got, want := local.TopicPeers(tableTopic), []string{remote.ID(), a.ID(), b.ID()}; !sameSet(got, want) {
		t.Errorf("the laptop's peers: %v, want %v", got, want)
	}
	// The node's validator holds for the phones' messages: none of it reaches anyone.
	if err := a.Publish(ctx, tableTopic, []byte("bad message")); err != nil {
		t.Fatal(err)
	}
	if err := a.Publish(ctx, tableTopic, []byte("good")); err != nil {
		t.Fatal(err)
	}
	if _, got := next(t, b, tableTopic); got != "good" {
		t.Errorf("b heard %q, want the message after the refused one", got)
	}
	if err := a.Join("refused", nil); err == nil || !strings.Contains(err.Error(), "not one the laptop relays") {
		t.Errorf("a topic the policy refuses: %v", err)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestHubRequests: a request to a member is served in process; a peer's request to the laptop
// is served by the first member that answers without an error (the laptop's own first).
func TestHubRequests(t *testing.T) {
	h, laptop, remote := newHub(t)
	local := h.Local()
	a, _ := newPhone(t, h)
	b, _ := newPhone(t, h)
	local.Handle(entries, func(from string, req []byte) ([]byte, error) {
		if string(req) == "laptop's" {
			return []byte("the laptop answers " + from), nil
		}
		return nil, errors.New("no such table here")
	})
	a.Handle(entries, func(from string, req []byte) ([]byte, error) {
		return []byte("a answers " + from + ": " + string(req)), nil
	})
	ka := testKey(1)
	a.Identify(ka)
	a.Sit(entries, sitProofFor(ka, "a"))
	// The Serve frame travels: wait until the hub knows a serves.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		ans, err := b.Request(ctx, a.ID(), entries, []byte("hi"))
		if err == nil {
			if want := "a answers " + b.ID() + ": hi"; string(ans) != want {
				t.Fatalf("b asked a: %q, want %q", ans, want)
			}
			break
		}
		if ctx.Err() != nil {
			t.Fatal(err)
		}
	}
	ans, err := a.Request(ctx, local.ID(), entries, []byte("laptop's"))
	if err != nil || string(ans) != "the laptop answers "+a.ID() {
		t.Errorf("a asked the laptop: %q, %v", ans, err)
	}
	ans, err = local.Request(ctx, a.ID(), entries, []byte("x"))
	if err != nil || string(ans) != "a answers "+local.ID()+": x" {
		t.Errorf("the laptop asked a: %q, %v", ans, err)
	}
	// From afar: the laptop's own handler refuses, a, which sits at the table, answers (once
	// the hub took its Sit, which travels on a's connection).
	waitAnswer(t, ctx, func() ([]byte, error) { return remote.Request(ctx, laptop.ID(), entries, []byte("table a")) },
		"a answers "+remote.ID()+": table a")
	ans, err = remote.Request(ctx, laptop.ID(), entries, []byte("laptop's"))
	if err != nil || string(ans) != "the laptop answers "+remote.ID() {
		t.Errorf("the remote peer asked the laptop for its own table: %q, %v", ans, err)
	}
	// A phone asks a remote peer, which answers with an error: the phone gets its text.
	remote.Handle(entries, func(string, []byte) ([]byte, error) { return nil, errors.New("no such table here") })
	_, err = a.Request(ctx, remote.ID(), entries, []byte("x"))
	var re *RemoteError
	if !errors.As(err, &re) || !strings.Contains(re.Message, "no such table here") {
		t.Errorf("a remote refusal: %v", err)
	}
	if _, err := a.Request(ctx, remote.ID(), "/other", nil); err == nil || !strings.Contains(err.Error(), "not one the laptop relays") {
		t.Errorf("a protocol the policy refuses: %v", err)
	}
	if _, err := b.Request(ctx, b.ID(), entries, nil); err == nil {
		t.Error("a member asked itself")
	}
}

// waitAnswer asks until the answer is want (a frame the hub has yet to take may be on its way
// on another connection), and fails the test when ctx ends first.
func waitAnswer(t *testing.T, ctx context.Context, ask func() ([]byte, error), want string) {
	t.Helper()
	for {
		ans, err := ask()
		if err == nil && string(ans) == want {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the answer stayed %q, %v; want %q", ans, err, want)
		case <-time.After(2 * time.Millisecond): // the hub's next frame
		}
	}
}

// TestClientReconnects: a phone whose connection drops connects again, takes its topic and its
// protocol up again, and hears and answers as before; a request in flight fails at once.
func TestClientReconnects(t *testing.T) {
	h, _, remote := newHub(t)
	local := h.Local()
	if err := local.Join(tableTopic, nil); err != nil {
		t.Fatal(err)
	}
	var states []bool
	var mu sync.Mutex
	d := &phoneDialer{hub: h}
	a, err := NewClient(ClientConfig{Dial: d.dial, MinBackoff: time.Millisecond, MaxBackoff: 10 * time.Millisecond, Logf: t.Logf,
		OnConnection: func(up bool) { mu.Lock(); states = append(states, up); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := a.Join(tableTopic, nil); err != nil {
		t.Fatal(err)
	}
	block := make(chan struct{})
	local.Handle(entries, func(string, []byte) ([]byte, error) { <-block; return []byte("late"), nil })
	a.Handle(entries, func(from string, req []byte) ([]byte, error) { return []byte("a: " + string(req)), nil })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := a.WaitConnected(ctx); err != nil {
		t.Fatal(err)
	}
	first := a.ID()
	failed := make(chan error, 1)
	go func() {
		_, err := a.Request(ctx, local.ID(), entries, nil)
		failed <- err
	}()
	waitPeers(t, a, tableTopic, []string{local.ID()}) // the phone is in
	d.drop()
	if err := <-failed; !errors.Is(err, ErrDisconnected) {
		t.Errorf("a request in flight at the drop: %v, want ErrDisconnected", err)
	}
	close(block)
	if err := remote.Join(tableTopic, nil); err != nil {
		t.Fatal(err)
	}
	// Connected again, under a new id, with its topic and protocol.
	waitPeers(t, a, tableTopic, []string{local.ID(), remote.ID()})
	if a.ID() == first {
		t.Errorf("the id stayed %s across a new connection", first)
	}
	if err := remote.Publish(ctx, tableTopic, []byte("after")); err != nil {
		t.Fatal(err)
	}
	if _, got := next(t, a, tableTopic); got != "after" {
		t.Errorf("after the reconnection a heard %q", got)
	}
	if ans, err := local.Request(ctx, a.ID(), entries, []byte("again")); err != nil || string(ans) != "a: again" {
		t.Errorf("the laptop asked a after it reconnected: %q, %v", ans, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(states, []bool{true, false, true}) {
		t.Errorf("OnConnection told %v, want true, false, true", states)
	}
}

// TestHubRefusesAnotherVersion: a hello of another version (the next, and the one before
// the keepalive) gets an error frame that names both versions, and no membership.
func TestHubRefusesAnotherVersion(t *testing.T) {
	h, _, _ := newHub(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, v := range []uint8{Version + 1, 1} {
		a, b := pipes()
		done := make(chan error, 1)
		go func() { done <- h.Serve(b) }()
		hello, _ := (&Frame{Kind: KindHello, Version: v}).Encode()
		if err := a.Write(ctx, hello); err != nil {
			t.Fatal(err)
		}
		raw, err := a.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Decode(raw)
		if want := fmt.Sprintf("bridge version %d and this laptop %d", v, Version); err != nil || f.Kind != KindError || !strings.Contains(f.Err, want) {
			t.Fatalf("answer to a hello of version %d: %+v, %v; want an error saying %q", v, f, err, want)
		}
		if err := <-done; err == nil {
			t.Errorf("the hub served a phone of version %d", v)
		}
		if h.Phones() != 0 {
			t.Errorf("%d phones after a refused hello", h.Phones())
		}
	}
}

// TestWebSocket: a client over a real WebSocket on loopback, through Handler and its token.
func TestWebSocket(t *testing.T) {
	h, _, _ := newHub(t)
	// The handler logs (t.Logf) when its WebSocket ends, after the client closes: the test waits
	// for it before it ends (the server's Close does not wait for a hijacked connection).
	var served sync.WaitGroup
	handler := h.Handler(func() string { return "s3cret" })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		defer served.Done()
		handler.ServeHTTP(w, r)
	}))
	defer served.Wait()
	defer srv.Close()
	local := h.Local()
	if err := local.Join(tableTopic, nil); err != nil {
		t.Fatal(err)
	}
	page := srv.URL + "/?t=s3cret"
	u, err := BridgeURL(page)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := DialWebSocket(strings.Replace(u, "s3cret", "wrong", 1))(ctx); err == nil || !strings.Contains(err.Error(), "token is wrong") {
		t.Errorf("a wrong token: %v", err)
	}
	c, err := NewClient(ClientConfig{Dial: DialWebSocket(u), Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.WaitConnected(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Join(tableTopic, nil); err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("x"), 2<<20) // over coder/websocket's default read limit
	if err := c.Publish(ctx, tableTopic, big); err != nil {
		t.Fatal(err)
	}
	if from, got := next(t, local, tableTopic); from != c.ID() || got != string(big) {
		t.Errorf("the laptop heard %d bytes from %s", len(got), from)
	}
	if _, err := BridgeURL("http://10.0.0.1:4000/"); err == nil {
		t.Error("a page address without a token made a bridge address")
	}
}

// FuzzHubServe: whatever frames a phone sends after its hello, the hub neither panics nor
// blocks, and answers or refuses; a laptop member's publish still reaches the others.
func FuzzHubServe(f *testing.F) {
	for _, fr := range everyFrame() {
		b, err := fr.Encode()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, b)
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		h := NewHub(memnode.New().Member(), testPolicy{}, nil)
		defer h.Close()
		phone, laptop := pipes()
		done := make(chan error, 1)
		go func() { done <- h.Serve(laptop) }()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hello, _ := (&Frame{Kind: KindHello, Version: Version}).Encode()
		for _, fr := range [][]byte{hello, a, b} {
			if err := phone.Write(ctx, fr); err != nil {
				return // the hub closed the connection: a frame it refused
			}
		}
		go func() { // drain what the hub says
			for {
				if _, err := phone.Read(ctx); err != nil {
					return
				}
			}
		}()
		phone.Close()
		select {
		case <-done:
		case <-ctx.Done():
			t.Fatal("the hub did not end the phone's connection once it closed")
		}
		if h.Phones() != 0 {
			t.Fatalf("%d phones after the only one left", h.Phones())
		}
	})
}
