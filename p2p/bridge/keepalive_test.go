package bridge

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"corruption/protocol/tablenet/memnode"
)

// wire is an in-memory connection between a phone and the hub whose network can go silent:
// from then on what either end writes is lost on the way, and neither end hears the other
// close (a phone out of the Wi-Fi's range, a NAT that forgot the connection). Until then it
// is a pipe, and an end that closes is heard by the other.
type wire struct {
	quiet chan struct{}
	once  sync.Once
	// seen, if set, is told of every frame an end reads (toPhone: the phone's end).
	seen func(toPhone bool, frame []byte)
}

type wireEnd struct {
	w       *wire
	toPhone bool
	in      chan []byte   // what the other end wrote
	peer    *wireEnd      // the other end
	closed  chan struct{} // this end closed
	hangup  chan struct{} // the other end closed, while the network carried it
	once    sync.Once
}

func newWire(seen func(bool, []byte)) (w *wire, phone, laptop Conn) {
	w = &wire{quiet: make(chan struct{}), seen: seen}
	p := &wireEnd{w: w, toPhone: true, in: make(chan []byte, 64), closed: make(chan struct{}), hangup: make(chan struct{})}
	l := &wireEnd{w: w, in: make(chan []byte, 64), closed: make(chan struct{}), hangup: make(chan struct{})}
	p.peer, l.peer = l, p
	return w, p, l
}

// silence makes the network silent for good.
func (w *wire) silence() { w.once.Do(func() { close(w.quiet) }) }

func (w *wire) silent() bool {
	select {
	case <-w.quiet:
		return true
	default:
		return false
	}
}

var errWireClosed = errors.New("wire closed")

func (e *wireEnd) Read(ctx context.Context) ([]byte, error) {
	for {
		select {
		case b := <-e.in:
			if e.w.silent() {
				continue // lost on the way
			}
			if e.w.seen != nil {
				e.w.seen(e.toPhone, b)
			}
			return b, nil
		case <-e.closed:
			return nil, errWireClosed
		case <-e.hangup:
			return nil, errors.New("the other end closed the wire")
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (e *wireEnd) Write(ctx context.Context, b []byte) error {
	if e.w.silent() {
		return nil // lost on the way, as TCP's buffer takes it
	}
	select {
	case e.peer.in <- b:
		return nil
	case <-e.closed:
		return errWireClosed
	case <-e.hangup:
		return errors.New("the other end closed the wire")
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (e *wireEnd) Close() error {
	e.once.Do(func() {
		close(e.closed)
		if !e.w.silent() {
			close(e.peer.hangup)
		}
	})
	return nil
}

// wireDialer dials the hub over wires; hold makes new dials wait until the channel it returns
// is closed.
type wireDialer struct {
	hub  *Hub
	seen func(bool, []byte)

	mu     sync.Mutex
	gate   chan struct{}
	wires  []*wire
	served []chan error // each connection's Serve, once it returned
}

func (d *wireDialer) dial(ctx context.Context) (Conn, error) {
	d.mu.Lock()
	gate := d.gate
	d.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, fmt.Errorf("no network: %w", ctx.Err())
		}
	}
	w, phone, laptop := newWire(d.seen)
	served := make(chan error, 1)
	d.mu.Lock()
	d.wires, d.served = append(d.wires, w), append(d.served, served)
	d.mu.Unlock()
	go func() { served <- d.hub.Serve(laptop) }()
	return phone, nil
}

func (d *wireDialer) hold() chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.gate = make(chan struct{})
	return d.gate
}

// last is the last connection's wire and its Serve's end; dials, how many there were.
func (d *wireDialer) last() (*wire, chan error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.wires[len(d.wires)-1], d.served[len(d.served)-1]
}

func (d *wireDialer) dials() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.wires)
}

// logSink is a Logf that keeps what it was told.
type logSink struct {
	t     *testing.T
	mu    sync.Mutex
	lines []string
}

func (s *logSink) logf(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	s.t.Log(line)
	s.mu.Lock()
	s.lines = append(s.lines, line)
	s.mu.Unlock()
}

func (s *logSink) has(part string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.ContainsFunc(s.lines, func(l string) bool { return strings.Contains(l, part) })
}

func newHubKeep(t *testing.T, k Keepalive) (*Hub, *memnode.Member) {
	t.Helper()
	laptop := memnode.New().Member()
	h, err := NewHubWith(laptop, testPolicy{}, HubConfig{Logf: t.Logf, Keepalive: k})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h, laptop
}

// tell is an OnConnection that sends to ch, and drops what ch has no room for (the client's
// goroutine must not block).
func tell(ch chan<- bool) func(bool) {
	return func(up bool) {
		select {
		case ch <- up:
		default:
		}
	}
}

// within waits for ch, or fails the test after 10 s (a guard, not a measure).
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s in 10 s", what)
		panic("unreachable")
	}
}

// TestKeepaliveSilentConnection: a connection that goes silent without closing is dropped by
// both sides within their dead period: the hub removes the phone, the phone connects again,
// takes its topic up, and publishes and hears as before.
func TestKeepaliveSilentConnection(t *testing.T) {
	keep := Keepalive{Interval: 10 * time.Millisecond, Dead: 200 * time.Millisecond}
	h, _ := newHubKeep(t, keep)
	local := h.Local()
	if err := local.Join(tableTopic, nil); err != nil {
		t.Fatal(err)
	}
	d := &wireDialer{hub: h}
	ups := make(chan bool, 16)
	logs := &logSink{t: t}
	c, err := NewClient(ClientConfig{Dial: d.dial, MinBackoff: time.Millisecond, MaxBackoff: 10 * time.Millisecond,
		Logf: logs.logf, Keepalive: keep, OnConnection: tell(ups)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !within(t, ups, "connection") {
		t.Fatal("told of a drop before a connection")
	}
	if err := c.Join(tableTopic, nil); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first := c.ID()
	if err := c.Publish(ctx, tableTopic, []byte("before")); err != nil {
		t.Fatal(err)
	}
	if from, got := next(t, local, tableTopic); from != first || got != "before" {
		t.Fatalf("the laptop heard %q from %s", got, from)
	}

	// The Wi-Fi goes silent, and no new connection gets through until the test says.
	gate := d.hold()
	w, served := d.last()
	w.silence()
	err = within(t, served, "end of the silent phone's Serve")
	var silence *silenceError
	if !errors.As(err, &silence) || !strings.Contains(err.Error(), "nothing heard from the phone") {
		t.Errorf("the hub ended the silent phone's connection with %v, want its keepalive's error", err)
	}
	if n := h.Phones(); n != 0 {
		t.Errorf("%d phones once the only one went silent, want 0", n)
	}
	if within(t, ups, "drop") {
		t.Fatal("told of a connection, want the drop of the silent one")
	}
	close(gate)
	if !within(t, ups, "reconnection") {
		t.Fatal("told of a drop, want the reconnection")
	}
	if !logs.has("nothing heard from the laptop") {
		t.Error("the phone's log does not say the laptop went silent")
	}
	again := c.ID()
	if again == first || again == "" {
		t.Errorf("the phone's id is %q after it reconnected, was %q", again, first)
	}
	// Its topic was taken up (the Subscribe goes before the Publish on the new connection).
	if err := c.Publish(ctx, tableTopic, []byte("after")); err != nil {
		t.Fatalf("publish after the reconnection: %v", err)
	}
	if from, got := next(t, local, tableTopic); from != again || got != "after" {
		t.Errorf("after the reconnection the laptop heard %q from %s, want %q from %s", got, from, "after", again)
	}
	if err := local.Publish(ctx, tableTopic, []byte("welcome back")); err != nil {
		t.Fatal(err)
	}
	if from, got := next(t, c, tableTopic); from != local.ID() || got != "welcome back" {
		t.Errorf("after the reconnection the phone heard %q from %s", got, from)
	}
	if n := h.Phones(); n != 1 {
		t.Errorf("%d phones after the reconnection, want 1", n)
	}
}

// TestKeepaliveQuietConnectionStays: a connection that carries nothing but the keepalive stays
// up on both sides, far beyond its dead period.
func TestKeepaliveQuietConnectionStays(t *testing.T) {
	keep := Keepalive{Interval: 10 * time.Millisecond, Dead: 300 * time.Millisecond}
	h, _ := newHubKeep(t, keep)
	// Pings are at least an Interval apart, each answered by one pong: 61 pongs heard are 600
	// ms of a connection without traffic, two dead periods.
	const pongs = 61
	var heard atomic.Int64
	enough := make(chan struct{})
	d := &wireDialer{hub: h, seen: func(toPhone bool, b []byte) {
		if toPhone && len(b) > 0 && Kind(b[0]) == KindPong && heard.Add(1) == pongs {
			close(enough)
		}
	}}
	var mu sync.Mutex
	var states []bool
	c, err := NewClient(ClientConfig{Dial: d.dial, MinBackoff: time.Millisecond, MaxBackoff: 10 * time.Millisecond,
		Logf: t.Logf, Keepalive: keep, OnConnection: func(up bool) { mu.Lock(); states = append(states, up); mu.Unlock() }})
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
	within(t, enough, fmt.Sprintf("%d pongs", pongs))
	_, served := d.last()
	select {
	case err := <-served:
		t.Errorf("the hub ended a quiet phone's connection: %v", err)
	default:
	}
	mu.Lock()
	defer mu.Unlock()
	if n := d.dials(); n != 1 || !slices.Equal(states, []bool{true}) || c.ID() != first || h.Phones() != 1 {
		t.Errorf("a quiet connection: %d dials, told %v, id %q (was %q), %d phones; want 1 dial, [true], the same id, 1 phone",
			n, states, c.ID(), first, h.Phones())
	}
}

// laptopDialer dials a fake laptop: each connection's laptop end goes to script, which the
// test writes; dials are counted on the channel.
func laptopDialer(script func(n int, conn Conn), dials chan<- int) Dialer {
	var n atomic.Int64
	return func(context.Context) (Conn, error) {
		phone, laptop := pipes()
		i := int(n.Add(1))
		go script(i, laptop)
		select {
		case dials <- i:
		default: // the test has stopped counting
		}
		return phone, nil
	}
}

// welcome reads a phone's hello and answers it with a welcome of version v.
func welcome(conn Conn, v uint8) error {
	ctx := context.Background()
	b, err := conn.Read(ctx)
	if err != nil {
		return err
	}
	if f, err := Decode(b); err != nil || f.Kind != KindHello {
		return fmt.Errorf("the first frame: %+v, %v", f, err)
	}
	out, err := (&Frame{Kind: KindWelcome, Version: v, Peer: "local/1", Node: "12D3KooWlaptop"}).Encode()
	if err != nil {
		return err
	}
	return conn.Write(ctx, out)
}

// TestKeepaliveLeavesADeafHub: a hub that welcomes the phone and then answers nothing, pings
// included, is left after the dead period, and the phone connects again.
func TestKeepaliveLeavesADeafHub(t *testing.T) {
	keep := Keepalive{Interval: 10 * time.Millisecond, Dead: 100 * time.Millisecond}
	pings := make(chan int, 4)
	deaf := func(n int, conn Conn) {
		if err := welcome(conn, Version); err != nil {
			return
		}
		seen := 0
		for { // reads, answers nothing
			b, err := conn.Read(context.Background())
			if err != nil {
				select {
				case pings <- seen:
				default: // the test has what it needs
				}
				return
			}
			if len(b) > 0 && Kind(b[0]) == KindPing {
				seen++
			}
		}
	}
	dials := make(chan int, 16)
	logs := &logSink{t: t}
	ups := make(chan bool, 16)
	c, err := NewClient(ClientConfig{Dial: laptopDialer(deaf, dials), MinBackoff: time.Millisecond, MaxBackoff: 10 * time.Millisecond,
		Logf: logs.logf, Keepalive: keep, OnConnection: tell(ups)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	within(t, dials, "dial")
	if !within(t, ups, "connection") || within(t, ups, "drop") {
		t.Fatal("want a connection, then its drop")
	}
	if n := within(t, pings, "end of the first connection"); n == 0 {
		t.Error("the phone left the deaf hub without a ping")
	}
	within(t, dials, "second dial")
	if !logs.has("nothing heard from the laptop") {
		t.Error("the phone's log does not say the laptop went silent")
	}
}

// TestClientRefusesLaptopFrames: a laptop's frame that a laptop must not send (a ping, a pong
// with a byte after it) or a welcome of another version ends the connection, and the phone's
// log says what was wrong.
func TestClientRefusesLaptopFrames(t *testing.T) {
	cases := []struct {
		name    string
		version uint8
		frame   []byte
		want    string
	}{
		{"a ping from the laptop", Version, []byte{byte(KindPing)}, "the laptop sent a frame of kind ping, which only a phone sends"},
		{"a pong with a byte after it", Version, []byte{byte(KindPong), 0}, "frame of kind pong: 1 bytes after the frame"},
		{"another version", Version + 1, nil,
			fmt.Sprintf("the laptop speaks bridge version %d, this seat %d: reload the page", Version+1, Version)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			script := func(n int, conn Conn) {
				if welcome(conn, tc.version) != nil || tc.frame == nil {
					return
				}
				conn.Write(context.Background(), tc.frame)
			}
			dials := make(chan int, 16)
			logs := &logSink{t: t}
			c, err := NewClient(ClientConfig{Dial: laptopDialer(script, dials), MinBackoff: time.Millisecond,
				MaxBackoff: 10 * time.Millisecond, Logf: logs.logf})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			within(t, dials, "dial")
			within(t, dials, "second dial") // the first connection ended, and was logged
			if !logs.has(tc.want) {
				t.Errorf("the phone's log does not say %q", tc.want)
			}
		})
	}
}

// TestHubPings: the hub answers a ping with a pong, and ends the connection of a phone that
// sends a malformed ping or a pong, with an error that names it.
func TestHubPings(t *testing.T) {
	h, _, _ := newHub(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	hello, _ := (&Frame{Kind: KindHello, Version: Version}).Encode()
	ping, _ := (&Frame{Kind: KindPing}).Encode()
	connect := func() (Conn, chan error) {
		t.Helper()
		phone, laptop := pipes()
		done := make(chan error, 1)
		go func() { done <- h.Serve(laptop) }()
		if err := phone.Write(ctx, hello); err != nil {
			t.Fatal(err)
		}
		if b, err := phone.Read(ctx); err != nil || Kind(b[0]) != KindWelcome {
			t.Fatalf("the answer to hello: %x, %v", b, err)
		}
		return phone, done
	}
	phone, done := connect()
	if err := phone.Write(ctx, ping); err != nil {
		t.Fatal(err)
	}
	b, err := phone.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if f, err := Decode(b); err != nil || f.Kind != KindPong {
		t.Fatalf("the answer to a ping: %+v, %v", f, err)
	}
	phone.Close()
	within(t, done, "end of the phone's Serve")

	for _, tc := range []struct {
		name  string
		frame []byte
		want  string
	}{
		{"a ping with a byte after it", []byte{byte(KindPing), 0}, "frame of kind ping: 1 bytes after the frame"},
		{"a pong from the phone", []byte{byte(KindPong)}, "a frame of kind pong, which only the laptop sends"},
		{"a pong with bytes after it", []byte{byte(KindPong), 1, 2}, "frame of kind pong: 2 bytes after the frame"},
	} {
		phone, done := connect()
		if err := phone.Write(ctx, tc.frame); err != nil {
			t.Fatal(err)
		}
		if err := within(t, done, "end of the phone's Serve"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Serve ended with %v, want an error saying %q", tc.name, err, tc.want)
		}
		phone.Close()
	}
	if n := h.Phones(); n != 0 {
		t.Errorf("%d phones once every one was refused", n)
	}
}

// TestKeepaliveConfig: a dead period not longer than the interval is refused, on both sides.
func TestKeepaliveConfig(t *testing.T) {
	bad := Keepalive{Interval: time.Second, Dead: time.Second}
	if _, err := NewClient(ClientConfig{Dial: func(context.Context) (Conn, error) { return nil, errors.New("no") }, Keepalive: bad}); err == nil ||
		!strings.Contains(err.Error(), "not longer than the ping interval") {
		t.Errorf("a client with %+v: %v", bad, err)
	}
	if _, err := NewHubWith(memnode.New().Member(), testPolicy{}, HubConfig{Keepalive: bad}); err == nil {
		t.Errorf("a hub with %+v started", bad)
	}
	k, err := Keepalive{}.withDefaults()
	if err != nil || k != (Keepalive{Interval: DefaultInterval, Dead: DefaultDead}) || DefaultDead != 45*time.Second {
		t.Errorf("the defaults: %+v, %v", k, err)
	}
	if k, _ := (Keepalive{Interval: time.Second}).withDefaults(); k.Dead != 3*time.Second {
		t.Errorf("the dead period of a 1 s interval: %v, want 3 s", k.Dead)
	}
}
