package tablenet_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"corruption/p2p"
	"corruption/p2p/bridge"
	"corruption/protocol/tablenet"
	"corruption/protocol/tablenet/memnode"
	"sync"
)

// The conformance test: the same cases against every tablenet.Node there is (as raft's
// transport tests run against both of its transports): libp2p (*p2p.Node), a phone's bridge
// client (*bridge.Client), the laptop's own member of its hub (*bridge.Local), and the
// in-memory network (memnode). Each runs as a pair: a and b, each seeing the other by its ID.

// pair is two nodes of one implementation that hear each other; closeA closes a.
type pair struct {
	a, b   tablenet.Node
	closeA func()
}

// impls are the implementations under test, each making a pair.
var impls = []struct {
	name string
	pair func(t *testing.T) pair
}{
	{"memnode", memPair},
	{"libp2p", libp2pPair},
	{"bridge-client", func(t *testing.T) pair { return bridgePair(t, false) }},
	{"bridge-local", func(t *testing.T) pair { return bridgePair(t, true) }},
}

func memPair(t *testing.T) pair {
	net := memnode.New()
	a, b := net.Member(), net.Member()
	t.Cleanup(func() { a.Close(); b.Close() })
	return pair{a: a, b: b, closeA: func() { a.Close() }}
}

func libp2pPair(t *testing.T) pair {
	ctx := context.Background()
	node := func() *p2p.Node {
		_, key, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		n, err := p2p.New(ctx, p2p.Config{Identity: key, Listen: []string{"/ip4/127.0.0.1/tcp/0"}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close() })
		return n
	}
	a, b := node(), node()
	if err := b.Dial(a.Addrs()[0]); err != nil {
		t.Fatal(err)
	}
	return pair{a: a, b: b, closeA: func() { a.Close() }}
}

// everyTopic is the laptop's policy for phones with every topic relayed and no validator of
// its own: the conformance cases check the nodes' validators, not the laptop's.
type everyTopic struct{ tablenet.HubPolicy }

func (everyTopic) Topic(string) (func(string, []byte) int, bool) { return nil, true }

// bridgePair is two members of one laptop's hub: two phones over real WebSockets, or (local)
// the laptop's own member and a phone.
func bridgePair(t *testing.T, local bool) pair {
	logf := quietAfter(t)
	laptop := memnode.New().Member()
	hub := bridge.NewHub(laptop, everyTopic{tablenet.PhonesPolicy(nil)}, logf)
	t.Cleanup(func() { hub.Close() })
	srv := httptest.NewServer(hub.Handler(func() string { return "tok" }))
	t.Cleanup(srv.Close)
	phone := func() *bridge.Client {
		c, err := bridge.NewClient(bridge.ClientConfig{Dial: bridge.DialWebSocket("ws" + strings.TrimPrefix(srv.URL, "http") + "/bridge?t=tok"),
			MinBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond, Logf: logf})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := c.WaitConnected(ctx); err != nil {
			t.Fatal(err)
		}
		return c
	}
	if local {
		return pair{a: hub.Local(), b: phone(), closeA: func() { hub.Close() }}
	}
	a := phone()
	return pair{a: a, b: phone(), closeA: func() { a.Close() }}
}

// quietAfter is t.Logf until the test ends, and nothing after: the hub's handler of a WebSocket
// runs on after the test's server closed (a hijacked connection is not waited for), and a log
// of the test's after its end is a race the race detector reports.
func quietAfter(t *testing.T) func(string, ...any) {
	var mu sync.Mutex
	ended := false
	t.Cleanup(func() {
		mu.Lock()
		ended = true
		mu.Unlock()
	})
	return func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if !ended {
			t.Logf(format, args...)
		}
	}
}

// names are tables' names a person gives: spaces, an apostrophe, accents, Greek, emoji.
var names = []string{"ann's table", "Zoë et Ça", "Τραπέζι της Άννας", "🎲 ann's table 🃏"}

func TestConformance(t *testing.T) {
	for _, impl := range impls {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			t.Run("topics", func(t *testing.T) { checkTopics(t, impl.pair(t)) })
			t.Run("validator", func(t *testing.T) { checkValidator(t, impl.pair(t)) })
			t.Run("requests", func(t *testing.T) { checkRequests(t, impl.pair(t)) })
			t.Run("closed", func(t *testing.T) { checkClosed(t, impl.pair(t)) })
		})
	}
}

// next reads n's next message on topic, within a bound.
func next(t *testing.T, n tablenet.Node, topic string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	from, data, err := n.Next(ctx, topic)
	if err != nil {
		t.Fatalf("next on %q: %v", topic, err)
	}
	return from, string(data)
}

// publish says data on topic until the other node's Next has it (a mesh still forming drops
// the first words): the other side reads with got.
func publishUntil(t *testing.T, from, to tablenet.Node, topic, data string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	got := make(chan [2]string, 1)
	go func() {
		f, d, err := to.Next(ctx, topic)
		if err == nil {
			got <- [2]string{f, string(d)}
		}
	}()
	for {
		if err := from.Publish(ctx, topic, []byte(data)); err != nil {
			t.Fatalf("publish on %q: %v", topic, err)
		}
		select {
		case m := <-got:
			if m[1] != data {
				t.Fatalf("on %q the other node heard %q, want %q", topic, m[1], data)
			}
			return m[0]
		case <-time.After(200 * time.Millisecond): // again: the mesh may still be forming
		case <-ctx.Done():
			t.Fatalf("%q never reached the other node on %q", data, topic)
		}
	}
}

// waitPeers waits until n lists want among topic's peers.
func waitPeers(t *testing.T, n tablenet.Node, topic, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !slices.Contains(n.TopicPeers(topic), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the peers of %q are %v, without %s", topic, n.TopicPeers(topic), want)
		}
		time.Sleep(10 * time.Millisecond) // polling what the node learns on its own
	}
}

// checkTopics: at tables of every kind of name, a's word reaches b under a's ID and never comes
// back to a; each lists the other among the topic's peers; a topic joined twice is refused;
// after Leave a waiting Next ends.
func checkTopics(t *testing.T, p pair) {
	for _, name := range names {
		topic, err := tablenet.TableTopic(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []tablenet.Node{p.a, p.b} {
			if err := n.Join(topic, nil); err != nil {
				t.Fatalf("join %q: %v", topic, err)
			}
		}
		if err := p.a.Join(topic, nil); err == nil {
			t.Errorf("%q joined twice", topic)
		}
		waitPeers(t, p.a, topic, p.b.ID())
		waitPeers(t, p.b, topic, p.a.ID())
		if from := publishUntil(t, p.a, p.b, topic, "from a at "+name); from != p.a.ID() {
			t.Errorf("b heard a's word from %q, want %q", from, p.a.ID())
		}
		// a hears b's word, not its own back.
		if from := publishUntil(t, p.b, p.a, topic, "from b at "+name); from != p.b.ID() {
			t.Errorf("a heard b's word from %q, want %q", from, p.b.ID())
		}
	}
	topic, _ := tablenet.TableTopic(names[0])
	ended := make(chan error, 1)
	go func() {
		_, _, err := p.a.Next(context.Background(), topic)
		ended <- err
	}()
	if err := p.a.Leave(topic); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-ended:
		if err == nil {
			t.Error("a Next waiting on a topic left returned a message")
		}
	case <-time.After(20 * time.Second):
		t.Error("a Next waiting on a topic left never returned")
	}
}

// checkValidator: what b's validator rejects never reaches it; what it accepts does.
func checkValidator(t *testing.T, p pair) {
	topic, _ := tablenet.TableTopic(names[1])
	if err := p.a.Join(topic, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.b.Join(topic, func(_ string, data []byte) tablenet.Verdict {
		if strings.HasPrefix(string(data), "bad") {
			return tablenet.Reject
		}
		return tablenet.Accept
	}); err != nil {
		t.Fatal(err)
	}
	waitPeers(t, p.a, topic, p.b.ID())
	publishUntil(t, p.a, p.b, topic, "good first")
	ctx := context.Background()
	for _, d := range []string{"bad one", "bad two", "good second"} {
		if err := p.a.Publish(ctx, topic, []byte(d)); err != nil {
			t.Fatal(err)
		}
	}
	if _, got := next(t, p.b, topic); got != "good second" {
		t.Errorf("after two rejected words b heard %q, want the accepted one", got)
	}
}

// checkRequests: a asks b by its ID and gets its handler's answer, or its handler's error; once
// b stops serving, a's request fails.
func checkRequests(t *testing.T, p pair) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p.b.Handle(tablenet.EntriesProto, func(from string, req []byte) ([]byte, error) {
		if string(req) == "fail" {
			return nil, errors.New("no such table here")
		}
		return []byte(fmt.Sprintf("b answers %s: %s", from, req)), nil
	})
	want := "b answers " + p.a.ID() + ": hi"
	for {
		ans, err := p.a.Request(ctx, p.b.ID(), tablenet.EntriesProto, []byte("hi"))
		if err == nil {
			if string(ans) != want {
				t.Fatalf("b answered %q, want %q", ans, want)
			}
			break
		}
		select { // the handler may take a moment to be known (a phone's serve travels)
		case <-ctx.Done():
			t.Fatalf("a's request to b: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	if _, err := p.a.Request(ctx, p.b.ID(), tablenet.EntriesProto, []byte("fail")); err == nil || !strings.Contains(err.Error(), "no such table here") {
		t.Errorf("b's handler's error: %v, want its text", err)
	}
	p.b.Handle(tablenet.EntriesProto, nil)
	for {
		if _, err := p.a.Request(ctx, p.b.ID(), tablenet.EntriesProto, []byte("hi")); err != nil {
			break
		}
		select { // the unserve may take a moment to travel
		case <-ctx.Done():
			t.Fatal("b answered after it stopped serving")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// checkClosed: once a is closed its calls fail, and none blocks.
func checkClosed(t *testing.T, p pair) {
	topic, _ := tablenet.TableTopic(names[2])
	if err := p.a.Join(topic, nil); err != nil {
		t.Fatal(err)
	}
	p.closeA()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := p.a.Publish(ctx, topic, []byte("after the close")); err == nil {
		t.Error("a closed node published")
	}
	if _, _, err := p.a.Next(ctx, topic); err == nil || ctx.Err() != nil {
		t.Errorf("a closed node's Next: %v (the bound: %v)", err, ctx.Err())
	}
	if _, err := p.a.Request(ctx, p.b.ID(), tablenet.EntriesProto, nil); err == nil || ctx.Err() != nil {
		t.Errorf("a closed node's Request: %v (the bound: %v)", err, ctx.Err())
	}
	other, _ := tablenet.TableTopic(names[3])
	if err := p.a.Join(other, nil); err == nil {
		t.Error("a closed node joined a topic")
	}
}
