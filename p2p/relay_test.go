package p2p_test

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"corruption/p2p"
)

// TestRelay: two nodes that listen on nothing (as behind NATs nobody can dial through) and
// know only a relay find each other through it (peer exchange with the relay), connect
// through it, and gossip and make requests over the relayed connection. The relay has its
// default limits, which it does not announce: were they announced, go-libp2p would mark the
// connection limited and gossipsub would never open its stream on it (relay.go).
func TestRelay(t *testing.T) {
	relay := newNode(t, p2p.Config{RelayService: true, Exchange: true})
	raddr := relay.Addrs()[0]
	behind := func() *p2p.Node {
		return newNode(t, p2p.Config{NoListen: true, Listen: []string{}, Relays: []string{raddr}, Exchange: true})
	}
	a, b := behind(), behind()
	waitFor(t, 20*time.Second, "a relayed address on both nodes", func() bool {
		return hasCircuit(a.Addrs()) && hasCircuit(b.Addrs())
	})
	for _, n := range []*p2p.Node{a, b} {
		for _, addr := range n.Addrs() {
			if !strings.Contains(addr, "/p2p-circuit/") {
				t.Fatalf("a node that listens on nothing announces %s", addr)
			}
		}
	}
	waitFor(t, 20*time.Second, "a and b connected through the relay", func() bool {
		return a.Relayed(b.ID()) == "relayed" && b.Relayed(a.ID()) == "relayed"
	})
	for _, n := range []*p2p.Node{a, b} {
		if err := n.Join("t", nil); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, 10*time.Second, "a and b in each other's mesh", func() bool {
		return slices.Contains(a.TopicPeers("t"), b.ID()) && slices.Contains(b.TopicPeers("t"), a.ID())
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Publish(ctx, "t", []byte("hello through the relay")); err != nil {
		t.Fatal(err)
	}
	from, data, err := b.Next(ctx, "t")
	if err != nil || from != a.ID() || string(data) != "hello through the relay" {
		t.Fatalf("b got %q from %s: %v", data, from, err)
	}
	a.Handle("/test/echo/1", func(_ string, req []byte) ([]byte, error) { return append([]byte("echo "), req...), nil })
	ans, err := b.Request(ctx, a.ID(), "/test/echo/1", make([]byte, 256<<10))
	if err != nil || len(ans) != 5+256<<10 {
		t.Fatalf("a request of 256 KiB through the relay (over go-libp2p's default limit of 128 KiB): %d bytes, %v", len(ans), err)
	}
}

// TestRelayLate: two nodes behind NATs whose relay is not up yet, or refuses them, when they
// first try it (a relay restarting, a laptop's Wi-Fi not up yet) reserve on it within seconds
// once it answers, and connect through it. Their first tries reach a listener on the relay's
// port that hangs up on them; then the relay starts there, with the identity they were given.
func TestRelayLate(t *testing.T) {
	key := newKey(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	tries := make(chan struct{}, 64)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
			tries <- struct{}{}
		}
	}()
	listen := fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", port)
	id, err := p2p.PeerID(key.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	raddr := listen + "/p2p/" + id
	behind := func() *p2p.Node {
		return newNode(t, p2p.Config{NoListen: true, Listen: []string{}, Relays: []string{raddr}, Exchange: true})
	}
	a, b := behind(), behind()
	for range 2 { // a's first try and b's
		select {
		case <-tries:
		case <-time.After(20 * time.Second):
			ln.Close()
			t.Fatal("the nodes never tried their relay")
		}
	}
	ln.Close()
	newNode(t, p2p.Config{Identity: key, Listen: []string{listen}, RelayService: true, Exchange: true})
	waitFor(t, 20*time.Second, "a and b connected through the relay that came up late", func() bool {
		return a.Relayed(b.ID()) == "relayed" && b.Relayed(a.ID()) == "relayed"
	})
}

func hasCircuit(addrs []string) bool {
	return slices.ContainsFunc(addrs, func(a string) bool { return strings.Contains(a, "/p2p-circuit/") })
}

// TestRelayCutsCircuits: the relay cuts a circuit at its data limit (a request larger than the
// limit is cut short) and at its time limit, says why, and the two nodes behind it open a new
// circuit by themselves and talk on: the circuit listed afterwards is a newer one.
func TestRelayCutsCircuits(t *testing.T) {
	for _, tc := range []struct {
		name   string
		limits p2p.RelayLimits
		why    string
	}{
		{"data", p2p.RelayLimits{CircuitData: p2p.MinCircuitData}, "at its data limit"},
		{"time", p2p.RelayLimits{CircuitTime: time.Second}, "at its time limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cut := make(chan string, 16)
			relay := newNode(t, p2p.Config{RelayService: true, Exchange: true, RelayLimits: tc.limits, Logf: func(f string, a ...any) {
				if l := fmt.Sprintf(f, a...); strings.Contains(l, " ended after ") {
					t.Log(l)
					cut <- l
				}
			}})
			raddr := relay.Addrs()[0]
			behind := func() *p2p.Node {
				return newNode(t, p2p.Config{NoListen: true, Listen: []string{}, Relays: []string{raddr}, Exchange: true})
			}
			a, b := behind(), behind()
			a.Handle("/test/echo/1", func(_ string, req []byte) ([]byte, error) { return req, nil })
			waitFor(t, 20*time.Second, "a and b connected through the relay", func() bool {
				return a.Relayed(b.ID()) == "relayed" && b.Relayed(a.ID()) == "relayed"
			})
			first := relay.Circuits()
			if len(first) == 0 {
				t.Fatal("the relay lists no circuit between two nodes connected through it")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if tc.name == "data" {
				if _, err := b.Request(ctx, a.ID(), "/test/echo/1", make([]byte, 2*p2p.MinCircuitData)); err == nil {
					t.Fatalf("a request of %d bytes passed a relay that cuts a circuit at %d", 2*p2p.MinCircuitData, p2p.MinCircuitData)
				}
			}
			var cutLine string
			for cutLine == "" {
				select {
				case l := <-cut:
					// A duplicate circuit (both nodes dialled at once) may close first.
					if strings.Contains(l, "limit") && !strings.Contains(l, tc.why) {
						t.Fatalf("a circuit ended %q, want %s", l, tc.why)
					}
					if strings.Contains(l, tc.why) {
						cutLine = l
					}
				case <-ctx.Done():
					t.Fatalf("no circuit ended %s", tc.why)
				}
			}
			// The nodes reconnect through the relay by themselves, and talk on.
			var ans []byte
			var err error
			waitFor(t, 20*time.Second, "a request answered after the cut", func() bool {
				ans, err = b.Request(ctx, a.ID(), "/test/echo/1", []byte("after the cut"))
				return err == nil
			})
			if string(ans) != "after the cut" {
				t.Fatalf("the answer after the cut is %q", ans)
			}
			// The circuit cut is gone; the nodes talk through another: a newer one, or (when both
			// had dialled at once) the duplicate that was not cut.
			now := relay.Circuits()
			if len(now) == 0 {
				t.Fatalf("circuits before the cut %+v, none after", first)
			}
			for _, c := range now {
				if strings.Contains(cutLine, "from "+c.From+" to "+c.To+" ") && slices.ContainsFunc(first, func(f p2p.Circuit) bool {
					return f.From == c.From && f.To == c.To && f.Opened.Equal(c.Opened)
				}) {
					t.Fatalf("the circuit cut (%q) is still listed: %+v", cutLine, c)
				}
			}
		})
	}
}
