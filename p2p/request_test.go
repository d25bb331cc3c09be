package p2p_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"corruption/p2p"
)

const echo = "/test/echo/1"

// pair starts two nodes, b dialing a, and waits until they are connected.
func pair(tb testing.TB) (a, b *p2p.Node) {
	tb.Helper()
	a = newNode(tb, p2p.Config{})
	b = newNode(tb, p2p.Config{Peers: a.Addrs()})
	waitFor(tb, 10*time.Second, "b to connect to a", func() bool { return connectedTo(b, a.ID()) })
	return a, b
}

func TestRequestRoundTrip(t *testing.T) {
	a, b := pair(t)
	var fromSeen sync.Map
	a.Handle(echo, func(from string, req []byte) ([]byte, error) {
		fromSeen.Store(from, true)
		if bytes.HasPrefix(req, []byte("fail")) {
			return nil, fmt.Errorf("no entry %s", req[4:])
		}
		if bytes.Equal(req, []byte("huge")) {
			return make([]byte, p2p.MaxResponseSize+1), nil
		}
		return append([]byte("echo:"), req...), nil
	})
	ctx := ctxTimeout(t, 10*time.Second)

	got, err := b.Request(ctx, a.ID(), echo, []byte("hello"))
	if err != nil || string(got) != "echo:hello" {
		t.Fatalf("Request: got %q, %v", got, err)
	}
	if _, ok := fromSeen.Load(b.ID()); !ok {
		t.Errorf("handler was not told the requester is %s", b.ID())
	}

	// Empty and maximal requests both go through.
	if got, err := b.Request(ctx, a.ID(), echo, nil); err != nil || string(got) != "echo:" {
		t.Errorf("empty Request: got %q, %v", got, err)
	}
	big := bytes.Repeat([]byte{7}, p2p.MaxRequestSize-len("echo:"))
	if got, err := b.Request(ctx, a.ID(), echo, big); err != nil || len(got) != p2p.MaxRequestSize {
		t.Errorf("Request near the limit: got %d bytes, %v", len(got), err)
	}

	// Several at once, over the one connection.
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			req := fmt.Appendf(nil, "r%d", i)
			got, err := b.Request(ctx, a.ID(), echo, req)
			if err != nil || string(got) != "echo:"+string(req) {
				t.Errorf("concurrent Request %d: got %q, %v", i, got, err)
			}
		})
	}
	wg.Wait()

	// The handler's error comes back as a RemoteError.
	_, err = b.Request(ctx, a.ID(), echo, []byte("fail7"))
	var re *p2p.RemoteError
	if !errors.As(err, &re) || re.Message != "no entry 7" || re.Peer != a.ID() || re.Protocol != echo {
		t.Errorf("handler error: got %v (%#v)", err, re)
	}

	// A response over the limit is refused by the server.
	_, err = b.Request(ctx, a.ID(), echo, []byte("huge"))
	if !errors.As(err, &re) || !strings.Contains(re.Message, "exceeds the 4194304 byte limit") {
		t.Errorf("oversize response: got %v", err)
	}

	// An oversize request is refused before it is sent.
	_, err = b.Request(ctx, a.ID(), echo, make([]byte, p2p.MaxRequestSize+1))
	if err == nil || !strings.Contains(err.Error(), "request of 4194305 bytes exceeds the 4194304 byte limit") {
		t.Errorf("oversize request: got %v", err)
	}

	// Requests go both ways over one connection.
	b.Handle("/test/whoami/1", func(from string, _ []byte) ([]byte, error) { return []byte(from), nil })
	if got, err := a.Request(ctx, b.ID(), "/test/whoami/1", nil); err != nil || string(got) != a.ID() {
		t.Errorf("reverse Request: got %q, %v", got, err)
	}
}

func TestRequestErrors(t *testing.T) {
	a, b := pair(t)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	a.Handle("/test/slow/1", func(string, []byte) ([]byte, error) {
		<-release
		return []byte("late"), nil
	})
	ctx := ctxTimeout(t, 10*time.Second)

	stranger, err := p2p.PeerID(newKey(t).Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Request(ctx, stranger, echo, nil); !errors.Is(err, p2p.ErrUnknownPeer) {
		t.Errorf("Request to an unknown peer: got %v, want ErrUnknownPeer", err)
	}
	if _, err := b.Request(ctx, "not-a-peer-id", echo, nil); err == nil || !strings.Contains(err.Error(), `bad peer id "not-a-peer-id"`) {
		t.Errorf("Request to a malformed id: got %v", err)
	}
	if _, err := b.Request(ctx, b.ID(), echo, nil); err == nil {
		t.Error("Request to self succeeded")
	}
	if _, err := b.Request(ctx, a.ID(), "/test/nobody-serves-this/1", nil); err == nil {
		t.Error("Request for a protocol the peer does not serve succeeded")
	}

	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = b.Request(short, a.ID(), "/test/slow/1", nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Request past its deadline: got %v, want DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Request past its deadline took %v", d)
	}

	// A removed handler no longer serves.
	a.Handle(echo, func(string, []byte) ([]byte, error) { return nil, nil })
	if _, err := b.Request(ctx, a.ID(), echo, nil); err != nil {
		t.Fatalf("Request: %v", err)
	}
	a.Handle(echo, nil)
	if _, err := b.Request(ctx, a.ID(), echo, nil); err == nil {
		t.Error("Request to a removed handler succeeded")
	}
}
