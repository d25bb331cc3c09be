package bridge

import (
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// The door of a laptop's phones listener: what keeps one address from holding every
// connection the laptop can open (the third outside review: 400 idle keep-alive connections
// from one address were all held, and with a file limit of 256 a phone's request then timed
// out, and so did the node's libp2p sockets, which share the limit).
//
// What it promises:
//   - At most PerAddress connections from one IP address, and Total in all, are open at
//     once; the WebSockets of phones count.
//   - A connection past either limit takes the place of the longest idle one (a connection
//     that is between requests, or has sent nothing yet): of its own address when its address
//     is at its limit, else of the address with the most. When none is idle, the new one is
//     closed at once. So an address that opens idle connections by the hundred does not keep
//     out a phone's request, even from the same address (a guest network behind one NAT).
//   - A refusal, or an idle connection closed for another, is logged once a minute per address
//     at most, not once a connection.
//
// The HTTP server it guards sets its idle timeout (IdleTimeout) and the page's deadlines
// (PageDeadline); the WebSocket keeps its own keepalive (keepalive.go).

// Door limits: at least 64 from one address, because loopback tests and a guest network
// behind one NAT share one; in all, well under the 256 files a process may have by default on
// macOS, for the node's own sockets.
const (
	DoorPerAddress = 64
	DoorTotal      = 160
	// IdleTimeout is how long the phones listener keeps a connection that is between
	// requests.
	IdleTimeout = 30 * time.Second
	// PageDeadline bounds the reading and the writing of one request for a file (the page,
	// the .wasm): 3.3 MB at 1 Mbit/s takes under 30 s.
	PageDeadline = 2 * time.Minute
	// refusalEvery is how often a refused address is logged at most.
	refusalEvery = time.Minute
)

// DoorConfig sets a door's limits; a zero field takes its default.
type DoorConfig struct {
	PerAddress, Total int
	Logf              func(format string, args ...any)
	// Now is the clock of the refusals' log (tests); nil: time.Now.
	Now func() time.Time
}

// Door is a net.Listener that holds the connections of a phones listener to their limits. Its
// ConnState must be the http.Server's, so that it knows which connections are idle.
type Door struct {
	net.Listener
	cfg DoorConfig

	mu       sync.Mutex
	conns    map[*doorConn]struct{}
	perAddr  map[string]int
	refusals map[string]time.Time // when an address was last logged as refused
}

// NewDoor guards ln.
func NewDoor(ln net.Listener, cfg DoorConfig) *Door {
	if cfg.PerAddress <= 0 {
		cfg.PerAddress = DoorPerAddress
	}
	if cfg.Total <= 0 {
		cfg.Total = DoorTotal
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Door{Listener: ln, cfg: cfg, conns: map[*doorConn]struct{}{}, perAddr: map[string]int{}, refusals: map[string]time.Time{}}
}

// doorConn is a connection the door counts.
type doorConn struct {
	net.Conn
	d     *Door
	addr  string
	once  sync.Once
	idle  bool      // between requests, or nothing sent yet (guarded by d.mu)
	since time.Time // when it became idle
}

func (c *doorConn) Close() error {
	c.once.Do(func() { c.d.forget(c) })
	return c.Conn.Close()
}

// Accept is the next connection within the limits.
func (d *Door) Accept() (net.Conn, error) {
	for {
		c, err := d.Listener.Accept()
		if err != nil {
			return nil, err
		}
		addr := hostOf(c.RemoteAddr())
		d.mu.Lock()
		var evict *doorConn
		full := d.perAddr[addr] >= d.cfg.PerAddress || len(d.conns) >= d.cfg.Total
		if full {
			evict = d.idlestLocked(addr)
		}
		if full && evict == nil {
			log := d.cfg.Now().Sub(d.refusals[addr]) >= refusalEvery
			if log {
				d.refusals[addr] = d.cfg.Now()
			}
			open, mine := len(d.conns), d.perAddr[addr]
			d.mu.Unlock()
			c.Close()
			if log {
				d.cfg.Logf("phones: refused connections from %s: %d open from it, %d in all, none idle (logged once a minute)", addr, mine, open)
			}
			continue
		}
		dc := &doorConn{Conn: c, d: d, addr: addr, idle: true, since: d.cfg.Now()}
		d.conns[dc] = struct{}{}
		d.perAddr[addr]++
		log := evict != nil && d.cfg.Now().Sub(d.refusals[evict.addr]) >= refusalEvery
		if log {
			d.refusals[evict.addr] = d.cfg.Now()
		}
		open, theirs := len(d.conns), 0
		if evict != nil {
			theirs = d.perAddr[evict.addr]
		}
		d.mu.Unlock()
		if evict != nil {
			evict.Close()
		}
		if log {
			d.cfg.Logf("phones: closing idle connections from %s to let others in: %d open from it, %d in all (logged once a minute)", evict.addr, theirs, open)
		}
		return dc, nil
	}
}

// idlestLocked is the idle connection a new one from addr replaces: the longest idle of addr
// when addr is at its limit, else the longest idle of the address with the most.
func (d *Door) idlestLocked(addr string) *doorConn {
	from := addr
	if d.perAddr[addr] < d.cfg.PerAddress {
		most := 0
		for a, n := range d.perAddr {
			if n > most {
				from, most = a, n
			}
		}
	}
	var best *doorConn
	for c := range d.conns {
		if c.addr == from && c.idle && (best == nil || c.since.Before(best.since)) {
			best = c
		}
	}
	if best == nil && from != addr { // the address with the most is all busy: any idle one
		for c := range d.conns {
			if c.idle && (best == nil || c.since.Before(best.since)) {
				best = c
			}
		}
	}
	if best != nil {
		d.forgetLocked(best) // counted out now, so that the new one fits
	}
	return best
}

func (d *Door) forget(c *doorConn) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.forgetLocked(c)
}

func (d *Door) forgetLocked(c *doorConn) {
	if _, ok := d.conns[c]; !ok {
		return
	}
	delete(d.conns, c)
	if d.perAddr[c.addr]--; d.perAddr[c.addr] <= 0 {
		delete(d.perAddr, c.addr)
	}
}

// ConnState is the http.Server's ConnState hook: it tells the door which connections are
// idle (new, or between requests) and which are busy (a request, or a WebSocket).
func (d *Door) ConnState(c net.Conn, s http.ConnState) {
	dc, ok := c.(*doorConn)
	if !ok {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	switch s {
	case http.StateNew, http.StateIdle:
		dc.idle, dc.since = true, d.cfg.Now()
	case http.StateActive, http.StateHijacked:
		dc.idle = false
	case http.StateClosed:
		d.forgetLocked(dc)
	}
}

// Open is how many connections the door holds now, and from addr.
func (d *Door) Open(addr string) (all, from int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.conns), d.perAddr[addr]
}

// hostOf is a remote address's IP.
func hostOf(a net.Addr) string {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// PageDeadlines gives every request but the bridge's (a WebSocket, which keeps its own
// keepalive) PageDeadline to be read and answered.
func PageDeadlines(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != BridgePath {
			rc := http.NewResponseController(w)
			dl := time.Now().Add(PageDeadline)
			if err := errors.Join(rc.SetReadDeadline(dl), rc.SetWriteDeadline(dl)); err != nil && !errors.Is(err, http.ErrNotSupported) {
				http.Error(w, "cannot set the request's deadline", http.StatusInternalServerError)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// OwnHosts serves only requests whose Host is an address of this machine (any interface's,
// read again at most every few seconds as the Wi-Fi changes), or one of extra (the address
// given with --phones-addr), or localhost: a page of another site whose name an attacker
// pointed at this machine (DNS rebinding) is answered 421, whatever it carries. The token
// still admits to the bridge; this keeps such a page from reading even the seat's files.
func OwnHosts(h http.Handler, extra ...string) http.Handler {
	var mu sync.Mutex
	var known map[string]bool
	var read time.Time
	own := func(host string) bool {
		mu.Lock()
		defer mu.Unlock()
		if known == nil || time.Since(read) > 5*time.Second {
			known, read = map[string]bool{"localhost": true}, time.Now()
			for _, e := range extra {
				if ip := net.ParseIP(e); ip != nil && !ip.IsUnspecified() {
					known[ip.String()] = true
				}
			}
			if addrs, err := net.InterfaceAddrs(); err == nil {
				for _, a := range addrs {
					if n, ok := a.(*net.IPNet); ok {
						known[n.IP.String()] = true
					}
				}
			}
		}
		if ip := net.ParseIP(host); ip != nil {
			host = ip.String()
		}
		return known[strings.ToLower(host)]
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if hh, _, err := net.SplitHostPort(host); err == nil {
			host = hh
		}
		host = strings.Trim(host, "[]")
		if !own(host) {
			http.Error(w, "this laptop answers only at its own addresses: open the address it prints", http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}
