package bridge

import (
	"fmt"
	"time"
)

// The keepalive. A WebSocket whose network goes silent without closing it (a phone walked out
// of the Wi-Fi's range, a NAT forgot the connection) holds both sides until TCP gives up,
// minutes later: the phone waits instead of reconnecting, the hub keeps a dead member. A
// browser's WebSocket cannot send the protocol's pings, so the bridge pings in frames of its
// own (docs/PROTOCOL.md, "The bridge").
//
// What it promises:
//   - The client sends a Ping when it has sent nothing for Interval, or heard nothing for
//     Interval and sent no Ping for as long; the hub answers each Ping with a Pong. So a live
//     connection carries a frame each way at least every Interval, traffic or not.
//   - Either side that hears nothing at all from the other (any frame counts) for Dead closes
//     the connection, with an error that says so: the client then connects again as after any
//     drop (its backoff), the hub removes the member (its topics, protocols and requests).
//   - The hub never pings: a phone's silence is the phone's to break.

// Keepalive times a connection's pings and how long its silence is borne. A zero field takes
// its default; the hub uses Dead only (and Interval to default it).
type Keepalive struct {
	// Interval is how long the client stays quiet, or hears nothing, before it pings (default
	// DefaultInterval, 15 s).
	Interval time.Duration
	// Dead is how long a side hears nothing from the other before it closes the connection
	// (default 3 Intervals: 45 s). A hub's must be longer than its phones' Interval.
	Dead time.Duration
}

// The keepalive's defaults: a lost phone is seen within 45 s, at the cost of a frame of one
// byte each way every 15 s while the table is quiet.
const (
	DefaultInterval = 15 * time.Second
	DefaultDead     = 3 * DefaultInterval
)

// withDefaults fills the zero fields, and refuses a Dead not longer than Interval (the
// connection would close between two pings).
func (k Keepalive) withDefaults() (Keepalive, error) {
	if k.Interval <= 0 {
		k.Interval = DefaultInterval
	}
	if k.Dead <= 0 {
		k.Dead = 3 * k.Interval
	}
	if k.Dead <= k.Interval {
		return k, fmt.Errorf("bridge: keepalive: a dead period of %v is not longer than the ping interval of %v", k.Dead, k.Interval)
	}
	return k, nil
}

// keepalive watches l until it closes: it closes l (its reader then fails with the reason)
// when nothing was heard on it for k.Dead, and, if ping, sends a Ping when l has sent nothing
// for k.Interval, or heard nothing for k.Interval and pinged no sooner. peer names the other
// side, for the reason.
func (l *link) keepalive(k Keepalive, ping bool, peer string) {
	t := time.NewTimer(k.Dead)
	defer t.Stop()
	var pinged time.Duration // since l's birth, as heard and sent
	for {
		now := l.age()
		heard := l.lastHeard()
		if now-heard >= k.Dead {
			l.fail(&silenceError{peer: peer, dead: k.Dead})
			return
		}
		next := heard + k.Dead
		if ping {
			if now-l.lastSent() >= k.Interval || (now-heard >= k.Interval && now-pinged >= k.Interval) {
				l.send(&Frame{Kind: KindPing})
				pinged = now
			}
			next = min(next, l.lastSent()+k.Interval, max(heard, pinged)+k.Interval)
		}
		t.Reset(max(next-now, 0))
		select {
		case <-l.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// silenceError is why a keepalive closed a connection.
type silenceError struct {
	peer string
	dead time.Duration
}

func (e *silenceError) Error() string {
	return fmt.Sprintf("nothing heard from %s for %v: the connection went silent", e.peer, e.dead)
}
