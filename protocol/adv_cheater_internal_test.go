package protocol

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"corruption/engine"
	"corruption/protocol/memnet"
)

// The cheating node's wrapper: what it sends in place of its node's entries, what it serves,
// and the state its cheats keep (see adv_harness_internal_test.go).

// advSend is one message the cheater sends: to everyone (to == nil) or to some nodes only.
type advSend struct {
	to   []string
	data []byte
}

func advAll(e *Entry) advSend { return advSend{data: append([]byte{msgEntry}, e.Marshal()...)} }

// advCheater wraps the cheating node's endpoint. forge is called (on the node's goroutine,
// from Publish, just after the node applied e) for each entry the node writes, and says what
// to send instead; it may read and patch the node's table.
type advCheater struct {
	ep  *memnet.Endpoint
	net *memnet.Net
	key ed25519.PrivateKey
	idx int // the cheating node: n<idx> on the network, and its index in the roster
	// seatNow is the node's seat as of its last publish: its roster index until the seat order
	// is drawn, the seat the draw gave it after. Read it with seat() (any goroutine).
	seatNow atomic.Int64
	node    *Node
	forge   func(c *advCheater, e *Entry) ([]advSend, error)
	// heads, if set, rewrites the cheater's head announcements.
	heads func(h *head)
	// poison, if set, replaces every batch the cheater serves.
	poison func(req []byte, batch []*Entry) []*Entry
	poke   func() // tells the harness the cheater went silent

	mu      sync.Mutex
	sent    map[uint64][]advSend
	subAll  map[uint64]*Entry            // served in place of the node's entry at seq
	subTo   map[string]map[uint64]*Entry // the same, for one requester
	silent  bool                         // publishes nothing any more
	cut     uint64                       // when silent: serves nothing from this seq on
	stopAt  uint64                       // when silent: the seq of the first entry it withheld
	fired   int                          // how many times the cheat was played
	expect  *Verdict                     // what the honest nodes must conclude (nil: complete)
	errs    []error
	state   map[string]int // scratch for multi-step cheats
	pending *advPending
	timers  []*time.Timer // fault timers the cheat started, stopped when the game ends
	oracleA [][]byte      // the points an oracle answer asked the peeker to multiply
}

// advPending is a forged commitment waiting for its opening.
type advPending struct{ ref int }

// seat is the cheater's seat as of its node's last publish (see seatNow).
func (c *advCheater) seat() int { return int(c.seatNow.Load()) }

// mine reports whether e was signed by the cheater (its node's entry, or one it forged).
func (c *advCheater) mine(e *Entry) bool { return e.Verify(c.key.Public().(ed25519.PublicKey)) }

func (c *advCheater) publish(ctx context.Context, data []byte) error {
	// The node publishes from its loop, after it applied what it publishes: its seat is current.
	c.seatNow.Store(int64(c.node.self.seat))
	if c.isQuiet() {
		return nil
	}
	if len(data) > 0 && data[0] == msgHead && c.heads != nil {
		if h, err := parseHead(data[1:]); err == nil {
			c.heads(h)
			data = h.marshal()
		}
	}
	if len(data) > 0 && data[0] == msgEntry {
		if e, err := ParseEntry(data[1:]); err == nil && e.Kind != KindGenesis && c.mine(e) {
			c.mu.Lock()
			sends, ok := c.sent[e.Seq]
			c.mu.Unlock()
			if !ok {
				var err error
				if sends, err = c.forge(c, e); err != nil {
					c.fail(fmt.Errorf("forging over %s: %w", e, err))
					sends = []advSend{advAll(e)}
				}
				c.mu.Lock()
				c.sent[e.Seq] = sends
				c.mu.Unlock()
			}
			for _, s := range sends {
				c.send(ctx, s)
			}
			return nil
		}
	}
	return c.ep.Publish(ctx, data)
}

func (c *advCheater) send(ctx context.Context, s advSend) {
	if s.to == nil {
		c.ep.Publish(ctx, s.data)
		return
	}
	for _, p := range s.to {
		c.ep.Publish(ctx, advWrap(p, s.data))
	}
}

func (c *advCheater) serve(h func(string, []byte) ([]byte, error)) func(string, []byte) ([]byte, error) {
	return func(from string, req []byte) ([]byte, error) {
		resp, err := h(from, req)
		if err != nil {
			return resp, err
		}
		// (An answer may end with the node's note of how the table ended: the cheater serves
		// it as it is, and filters the entries before it.)
		batch, note, perr := parseAnswer(resp)
		if perr != nil {
			c.fail(fmt.Errorf("its node's answer does not parse: %w", perr))
			return nil, perr
		}
		c.mu.Lock()
		var out []*Entry
		for _, e := range batch {
			if c.silent && e.Seq >= c.cut {
				break
			}
			if _, forged := c.sent[e.Seq]; !forged && e.Kind != KindGenesis && c.mine(e) {
				// The node wrote it, but the cheat has not yet decided what to send in its
				// place: serving it now would hand out both versions.
				break
			}
			if f := c.subTo[from][e.Seq]; f != nil {
				e = f
			} else if f := c.subAll[e.Seq]; f != nil {
				e = f
			}
			out = append(out, e)
		}
		poison := c.poison
		c.mu.Unlock()
		if poison != nil {
			out = poison(req, out)
		}
		return marshalAnswer(out, note), nil
	}
}

func (c *advCheater) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.errs = append(c.errs, err)
}

func (c *advCheater) isQuiet() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.silent
}

// resign signs a copy of e, with its kind and body replaced, as the cheater.
func (c *advCheater) resign(e *Entry, kind Kind, body []byte) *Entry {
	f := &Entry{Table: e.Table, Seq: e.Seq, Prev: e.Prev, Seat: e.Seat, Kind: kind, Body: body}
	f.Sign(c.key)
	return f
}

// play records that the cheat was played and what the honest nodes must conclude.
func (c *advCheater) play(v *Verdict) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fired++
	if v != nil && c.expect == nil {
		c.expect = v
	}
}

// silence makes the cheater go quiet: it publishes nothing more and serves nothing from seq
// on, except what it substituted (sub, at seq) for its real entry there.
func (c *advCheater) silence(seq uint64, sub *Entry) {
	c.mu.Lock()
	c.silent, c.cut, c.stopAt = true, seq, seq
	if sub != nil {
		c.subAll[seq] = sub
		c.cut = seq + 1
	}
	c.mu.Unlock()
	c.poke()
}

func (c *advCheater) substitute(f *Entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.subAll[f.Seq] = f
}

// patch makes the cheater's own table hold f in place of its last entry, so that the node
// carries on from the entry the others received.
func (c *advCheater) patch(f *Entry) error {
	t := c.node.table
	if f.Seq+1 != t.Len() {
		return fmt.Errorf("patch of entry %d, but the log has %d", f.Seq, t.Len())
	}
	t.entries = append(t.entries[:f.Seq:f.Seq], f)
	t.head = f.Hash()
	c.node.share()
	return nil
}

// before replays the cheater's log up to (not including) e: the table as it was when the
// node wrote e, with the cheater's own secrets.
func (c *advCheater) before(e *Entry) (*Table, error) {
	t := c.node.table
	pre, err := NewTable(t.entries[0], NewSelf(c.key, c.node.self.Seed), engine.Options{})
	if err != nil {
		return nil, err
	}
	for _, x := range t.entries[1:e.Seq] {
		if err := pre.Append(x); err != nil {
			return nil, err
		}
	}
	return pre, nil
}
