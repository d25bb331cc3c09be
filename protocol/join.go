package protocol

import (
	"bytes"
	"context"
	"crypto/cipher"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"corruption/crypto"
	"corruption/protocol/internal/wire"
)

// Joining a private table. The creator reads out a join code such as "7f-k3m-x2q": a
// nameplate ("7f"), which only says which table (the creator announces it on the network while
// it admits), and a secret of six characters (30 bits), which admits. A node that wants to
// join runs CPace (crypto.CPace, draft-irtf-cfrg-cpace) with the creator on the secret, bound
// to both identity keys, then each proves it holds the shared key; the creator then seals the
// table (PrivateTable) to the newcomer under a key derived from the exchange. Neither the
// announcement nor the exchange holds anything a guess of the secret could be checked
// against: CPace's shares are uniformly random elements whatever the secret, and the
// confirmation tags need the exchange's key. A stranger who guesses must run an exchange with
// the creator for each guess, and the creator limits those:
//
//   - every connection has three failures for free, then waits 10 s before its next attempt,
//     doubling with each failure up to 5 minutes (a node that mistypes is slowed, and the
//     phones a laptop relays with it, nobody else);
//   - all nodes together have a budget of 10 attempts, refilled at one every 6 s, so that new
//     identities, which cost nothing, buy no more than 10 guesses a minute: 2^29 guesses, half
//     the secrets, take about a hundred years;
//   - at most 8 exchanges may wait for their confirmation, each for 30 s; one that is never
//     confirmed counts as a failure.
//
// Version 2 (this one) binds the joiner's identity key as the joiner states it in its start
// request, not as the connection says: a phone's exchange arrives over its laptop's connection
// (p2p/bridge), whose key is the laptop's. CPace's CI holds the stated key, so a relayer that
// swaps it for another breaks the exchange (the tags fail, and the creator counts a failure);
// the limits count attempts per connection (the relayer), as before, plus the shared budget.
// The creator answers a start of version 1 with a plain error that says so; a creator
// announces its key with its nameplate, as the gossip's author may be its laptop.
//
// There is no lockout: an attacker with many identities can use the shared budget and slow
// friends down (their node tries again when told to wait), not keep them out for good. The
// creator is told of every failed attempt, with the count.

// joinVersion is the exchange's version (the start request and the announcement);
// welcomeVersion the sealed welcome's and the saved table's, which version 2 kept.
const (
	joinVersion    = 2
	welcomeVersion = 1
)

// JoinCode is a private table's join code.
type JoinCode struct {
	Nameplate string // 2 characters, public: which table
	Secret    string // 6 characters, secret: what admits
}

// codeAlphabet is Crockford's base 32: no i, l, o or u, which read like other characters.
const codeAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// NewJoinCode draws a join code.
func NewJoinCode(rnd io.Reader) (JoinCode, error) {
	if rnd == nil {
		rnd = rand.Reader
	}
	var b [5]byte // 40 bits: 8 characters of 5 bits
	if _, err := io.ReadFull(rnd, b[:]); err != nil {
		return JoinCode{}, fmt.Errorf("failed to read randomness: %w", err)
	}
	v := uint64(b[0])<<32 | uint64(b[1])<<24 | uint64(b[2])<<16 | uint64(b[3])<<8 | uint64(b[4])
	var s [8]byte
	for i := range s {
		s[i] = codeAlphabet[v>>(35-5*i)&31]
	}
	return JoinCode{Nameplate: string(s[:2]), Secret: string(s[2:])}, nil
}

// String is the code as a person reads it: "7f-k3m-x2q".
func (c JoinCode) String() string {
	return c.Nameplate + "-" + c.Secret[:3] + "-" + c.Secret[3:]
}

// ParseJoinCode reads a join code as a person may type it: any case, with or without dashes
// or spaces, o for 0 and i or l for 1.
func ParseJoinCode(s string) (JoinCode, error) {
	var out []byte
	for _, r := range strings.ToLower(s) {
		switch {
		case r == '-' || r == ' ':
			continue
		case r == 'o':
			r = '0'
		case r == 'i' || r == 'l':
			r = '1'
		}
		if r > 0x7f || strings.IndexByte(codeAlphabet, byte(r)) < 0 {
			return JoinCode{}, fmt.Errorf("join code %q: %q is not a character of join codes", s, r)
		}
		out = append(out, byte(r))
	}
	if len(out) != 8 {
		return JoinCode{}, fmt.Errorf("join code %q: %d characters, want 8 (like 7f-k3m-x2q)", s, len(out))
	}
	return JoinCode{Nameplate: string(out[:2]), Secret: string(out[2:])}, nil
}

// The exchange: two requests, each answered with a status byte and its body.
//
//	start:   'j' ‖ u8 version (2) ‖ 2-byte nameplate ‖ 16-byte sid ‖ 32-byte Ya ‖ 32-byte joiner's key
//	answer:  status ‖ (ok) 32-byte Yb ‖ 32-byte creator's tag | (wait) u32 milliseconds
//	confirm: 'k' ‖ 16-byte sid ‖ 32-byte joiner's tag
//	answer:  status ‖ (ok) the sealed welcome
//
// A nameplate the creator does not hold is answered with an error (ErrNoNameplate's text),
// not a status: a laptop that relays for several creators asks each in turn until one
// answers without an error (p2p/bridge). CPace's PRS is the secret (its six characters), CI
// is "corruption/join/v2" ‖ the creator's key ‖ the joiner's key (the one its start states),
// ADa the nameplate, ADb empty. The tags are HMAC-SHA256 under
// HMAC-SHA256(ISK, "confirm") of "creator" or "joiner" and the shares; the welcome is
// AES-256-GCM under HMAC-SHA256(ISK, "welcome"), used once, with a zero nonce.
const (
	reqJoinStart   byte = 'j'
	reqJoinConfirm byte = 'k'
)

// Answer statuses.
const (
	joinOK byte = iota
	joinWrong
	joinWait
	joinFull
	joinUnknown // version 1's answer for a nameplate not held; version 2 answers an error
)

const (
	joinFreeFailures = 3
	joinBackoffMin   = 10 * time.Second
	joinBackoffMax   = 5 * time.Minute
	joinBudget       = 10
	joinRefill       = 6 * time.Second
	joinPendingMax   = 8
	joinPendingTTL   = 30 * time.Second
)

// Errors of Join.
var (
	ErrWrongCode   = errors.New("the join code is wrong")
	ErrTableFull   = errors.New("the private table is full")
	ErrNoNameplate = errors.New("no private table with that nameplate here")
	// ErrOldCreator: the table's creator runs a release whose join is of version 1.
	ErrOldCreator = errors.New("the private table's creator runs an older release of corruption (join version 1): one of you must run the other's release")
)

// JoinWaitError is the creator's answer that the joiner must wait before it tries again.
type JoinWaitError struct{ Wait time.Duration }

func (e *JoinWaitError) Error() string {
	return fmt.Sprintf("the creator is limiting attempts to join: try again in %v", e.Wait)
}

// Admission is the creator's door: it answers the exchanges of nodes that want to join, keeps
// who was admitted and counts the failures. Safe for concurrent use.
type Admission struct {
	code  JoinCode
	table *PrivateTable
	clock Clock
	rand  io.Reader
	notef func(string, ...any)

	mu       sync.Mutex
	pending  map[[16]byte]*joinAttempt
	admitted map[string]bool
	failures map[string]*joinFailures
	failed   int       // failed attempts in all
	tokens   float64   // the shared budget
	filled   time.Time // when tokens was last brought up to date
}

type joinAttempt struct {
	conn  string // the connection it came on
	key   string // the joiner's key, as it stated it
	isk   []byte
	ya    []byte
	yb    []byte
	since time.Time
}

type joinFailures struct {
	n    int
	last time.Time
}

// NewAdmission opens the door of table for the code. clock and rnd may be nil (the real ones);
// notef hears of every admission and failure.
func NewAdmission(code JoinCode, table *PrivateTable, clock Clock, rnd io.Reader, notef func(string, ...any)) *Admission {
	if clock == nil {
		clock = realClock{}
	}
	if rnd == nil {
		rnd = rand.Reader
	}
	if notef == nil {
		notef = func(string, ...any) {}
	}
	a := &Admission{code: code, table: table, clock: clock, rand: rnd, notef: notef,
		pending: map[[16]byte]*joinAttempt{}, admitted: map[string]bool{}, failures: map[string]*joinFailures{},
		tokens: joinBudget, filled: clock.Now()}
	table.admitted = a.Admitted
	return a
}

// Admitted says whether the node with this identity key passed the code.
func (a *Admission) Admitted(key ed25519.PublicKey) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.admitted[string(key)]
}

// Full says whether every seat but the creator's is taken by an admitted node.
func (a *Admission) Full() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.admitted) >= a.table.Players-1
}

// Failed is the number of failed attempts so far (wrong codes and exchanges never confirmed).
func (a *Admission) Failed() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.expireLocked(a.clock.Now())
	return a.failed
}

// Serve answers one request of the exchange that came on the connection conn (the network
// layer's peer id: the joiner's node, or the laptop that relays a phone). The joiner's key is
// the one its start states, which the exchange binds; conn is what the failures are counted
// against. Its error is for a malformed request, a start of version 1 and a nameplate not held.
func (a *Admission) Serve(conn string, req []byte) ([]byte, error) {
	if len(req) == 0 {
		return nil, errors.New("empty join request")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.clock.Now()
	a.expireLocked(now)
	switch req[0] {
	case reqJoinStart:
		return a.startLocked(now, conn, req[1:])
	case reqJoinConfirm:
		return a.confirmLocked(conn, req[1:])
	}
	return nil, fmt.Errorf("unknown join request %q", req[0])
}

func waitAnswer(d time.Duration) []byte {
	w := wire.Writer{B: []byte{joinWait}}
	w.U32(uint32(max(d, time.Millisecond).Milliseconds()))
	return w.B
}

func (a *Admission) startLocked(now time.Time, conn string, body []byte) ([]byte, error) {
	if len(body) > 0 && body[0] != joinVersion {
		if body[0] == 1 {
			return nil, fmt.Errorf("join request of version 1, from an older release of corruption: this table's creator speaks join version %d; one of you must run the other's release", joinVersion)
		}
		return nil, fmt.Errorf("join request of version %d, want %d", body[0], joinVersion)
	}
	r := wire.Reader{B: body}
	r.U8()
	nameplate := string(r.Take(2))
	var sid [16]byte
	r.Fixed(sid[:])
	ya := r.Take(crypto.CPaceShareSize)
	joiner := make(ed25519.PublicKey, ed25519.PublicKeySize)
	r.Fixed(joiner)
	if err := r.Done("join request"); err != nil {
		return nil, err
	}
	key := string(joiner)
	switch {
	case nameplate != a.code.Nameplate:
		return nil, ErrNoNameplate
	case !a.admitted[key] && len(a.admitted) >= a.table.Players-1:
		return []byte{joinFull}, nil
	}
	if f := a.failures[conn]; f != nil && f.n >= joinFreeFailures {
		wait := joinBackoffMin << min(f.n-joinFreeFailures, 10)
		if until := f.last.Add(min(wait, joinBackoffMax)); now.Before(until) {
			return waitAnswer(until.Sub(now)), nil
		}
	}
	a.tokens = min(joinBudget, a.tokens+float64(now.Sub(a.filled))/float64(joinRefill))
	a.filled = now
	if a.tokens < 1 {
		return waitAnswer(time.Duration((1 - a.tokens) * float64(joinRefill))), nil
	}
	if len(a.pending) >= joinPendingMax {
		return waitAnswer(time.Second), nil
	}
	if _, dup := a.pending[sid]; dup {
		return nil, errors.New("join request: a session id already in use")
	}
	a.tokens--
	c, err := crypto.NewCPace(a.rand, []byte(a.code.Secret), joinCI(a.table.Creator, joiner), sid[:])
	if err != nil {
		return nil, err
	}
	yb := c.Share()
	isk, err := c.Key(ya, []byte(nameplate), yb, nil)
	if err != nil {
		// A share that is no element: an attempt all the same.
		a.failLocked(now, conn)
		return []byte{joinWrong}, nil
	}
	a.pending[sid] = &joinAttempt{conn: conn, key: key, isk: isk, ya: ya, yb: yb, since: now}
	out := append([]byte{joinOK}, yb...)
	return append(out, joinTag(isk, "creator", ya, yb)...), nil
}

func (a *Admission) confirmLocked(conn string, body []byte) ([]byte, error) {
	r := wire.Reader{B: body}
	var sid [16]byte
	r.Fixed(sid[:])
	tag := r.Take(sha256.Size)
	if err := r.Done("join confirmation"); err != nil {
		return nil, err
	}
	at := a.pending[sid]
	if at == nil || at.conn != conn {
		return []byte{joinWrong}, nil // expired (and counted), or never started
	}
	delete(a.pending, sid)
	if subtle.ConstantTimeCompare(tag, joinTag(at.isk, "joiner", at.ya, at.yb)) != 1 {
		a.failLocked(a.clock.Now(), at.conn)
		return []byte{joinWrong}, nil
	}
	delete(a.failures, at.conn)
	if !a.admitted[at.key] {
		a.admitted[at.key] = true
		a.notef("a player joined with the join code (%d of %d seats taken)", len(a.admitted)+1, a.table.Players)
	}
	return append([]byte{joinOK}, sealWelcome(at.isk, a.table.marshal())...), nil
}

// failLocked counts a failed attempt that came on conn.
func (a *Admission) failLocked(now time.Time, conn string) {
	f := a.failures[conn]
	if f == nil {
		f = &joinFailures{}
		a.failures[conn] = f
	}
	f.n++
	f.last = now
	a.failed++
	a.notef("a failed attempt to join with the code, from %s (%d failed so far)", Printable(shortID(conn)), a.failed)
}

// shortID is the first characters of a connection's id, for the creator's notes.
func shortID(conn string) string {
	if len(conn) > 16 {
		return conn[:16] + "…"
	}
	return conn
}

// expireLocked counts the exchanges never confirmed in time as failures.
func (a *Admission) expireLocked(now time.Time) {
	for sid, at := range a.pending {
		if now.Sub(at.since) > joinPendingTTL {
			delete(a.pending, sid)
			a.failLocked(now, at.conn)
		}
	}
}

// Join runs the joining node's side of the exchange with the creator of a private table, whose
// identity key is creator; self is the joining node's key, and request sends one request to
// the creator and returns its answer. It returns the table when the code is right. Otherwise:
// ErrWrongCode, ErrTableFull, ErrNoNameplate, or a *JoinWaitError saying when to try again.
func Join(ctx context.Context, rnd io.Reader, code JoinCode, self, creator ed25519.PublicKey,
	request func(context.Context, []byte) ([]byte, error)) (*PrivateTable, error) {
	if rnd == nil {
		rnd = rand.Reader
	}
	var sid [16]byte
	if _, err := io.ReadFull(rnd, sid[:]); err != nil {
		return nil, fmt.Errorf("failed to read randomness: %w", err)
	}
	c, err := crypto.NewCPace(rnd, []byte(code.Secret), joinCI(creator, self), sid[:])
	if err != nil {
		return nil, err
	}
	ya := c.Share()
	w := wire.Writer{B: []byte{reqJoinStart, joinVersion}}
	w.Fixed([]byte(code.Nameplate))
	w.Fixed(sid[:])
	w.Fixed(ya)
	w.Fixed(self)
	ans, err := request(ctx, w.B)
	if err != nil {
		return nil, joinRemoteError(err)
	}
	body, err := joinStatus(ans)
	if err != nil {
		return nil, err
	}
	if len(body) != crypto.CPaceShareSize+sha256.Size {
		return nil, fmt.Errorf("malformed answer to a join request (%d bytes)", len(body))
	}
	yb, creatorTag := body[:crypto.CPaceShareSize], body[crypto.CPaceShareSize:]
	isk, err := c.Key(ya, []byte(code.Nameplate), yb, nil)
	ok := err == nil && hmac.Equal(creatorTag, joinTag(isk, "creator", ya, yb))
	tag := make([]byte, sha256.Size) // a wrong code still confirms: the creator counts it at once
	if ok {
		tag = joinTag(isk, "joiner", ya, yb)
	}
	w = wire.Writer{B: []byte{reqJoinConfirm}}
	w.Fixed(sid[:])
	w.Fixed(tag)
	ans, err = request(ctx, w.B)
	if !ok {
		return nil, ErrWrongCode
	}
	if err != nil {
		return nil, joinRemoteError(err)
	}
	if body, err = joinStatus(ans); err != nil {
		return nil, err
	}
	welcome, err := openWelcome(isk, body)
	if err != nil {
		return nil, err
	}
	p, err := parsePrivateTable(welcome)
	if err != nil {
		return nil, err
	}
	if !p.Creator.Equal(creator) {
		return nil, errors.New("the welcome names another creator")
	}
	return p, nil
}

// joinRemoteError reads a creator's error answer: a nameplate it does not hold, or a creator
// of version 1 (which refuses the start of version 2 with "version 2, want 1").
func joinRemoteError(err error) error {
	switch msg := err.Error(); {
	case strings.Contains(msg, ErrNoNameplate.Error()):
		return fmt.Errorf("%w (%v)", ErrNoNameplate, err)
	case strings.Contains(msg, fmt.Sprintf("join request of version %d, want 1", joinVersion)):
		return fmt.Errorf("%w (%v)", ErrOldCreator, err)
	}
	return err
}

// joinStatus reads an answer's status.
func joinStatus(ans []byte) ([]byte, error) {
	if len(ans) == 0 {
		return nil, errors.New("empty answer to a join request")
	}
	switch ans[0] {
	case joinOK:
		return ans[1:], nil
	case joinWrong:
		return nil, ErrWrongCode
	case joinFull:
		return nil, ErrTableFull
	case joinUnknown:
		return nil, ErrNoNameplate
	case joinWait:
		r := wire.Reader{B: ans[1:]}
		ms := r.U32()
		if err := r.Done("join answer"); err != nil {
			return nil, err
		}
		return nil, &JoinWaitError{Wait: time.Duration(ms) * time.Millisecond}
	}
	return nil, fmt.Errorf("unknown status %d in a join answer", ans[0])
}

func joinCI(creator, joiner ed25519.PublicKey) []byte {
	return append(append([]byte("corruption/join/v2"), creator...), joiner...)
}

func joinKey(isk []byte, label string) []byte { return crypto.KeyFor(isk, "corruption/join/v1 "+label) }

func joinTag(isk []byte, who string, ya, yb []byte) []byte {
	m := hmac.New(sha256.New, joinKey(isk, "confirm"))
	m.Write([]byte(who))
	m.Write(ya)
	m.Write(yb)
	return m.Sum(nil)
}

func welcomeAEAD(isk []byte) cipher.AEAD {
	g, err := crypto.AEAD(joinKey(isk, "welcome"))
	if err != nil {
		panic(err) // unreachable: a 32-byte key
	}
	return g
}

func sealWelcome(isk, welcome []byte) []byte {
	g := welcomeAEAD(isk)
	return g.Seal(nil, make([]byte, g.NonceSize()), welcome, nil)
}

func openWelcome(isk, sealed []byte) ([]byte, error) {
	g := welcomeAEAD(isk)
	out, err := g.Open(nil, make([]byte, g.NonceSize()), sealed, nil)
	if err != nil {
		return nil, errors.New("the welcome does not open with the exchange's key")
	}
	return out, nil
}

// JoinAd is a creator's announcement that it admits nodes to a private table: u8 'p' ‖ u8
// version (2) ‖ the 2-character nameplate ‖ the creator's 32-byte identity key. The key is a
// hint, which the exchange checks (CI binds it, and the welcome names the creator): the
// gossip's author may be the laptop that relays a phone's announcement.
func JoinAd(code JoinCode, creator ed25519.PublicKey) []byte {
	return append(append([]byte{'p', joinVersion}, code.Nameplate...), creator...)
}

// ParseJoinAd reads an announcement: its nameplate and the creator's key. An announcement of
// version 1 (which held no key: its author was the creator) gives ErrOldCreator with its
// nameplate.
func ParseJoinAd(msg []byte) (nameplate string, creator ed25519.PublicKey, err error) {
	switch {
	case len(msg) == 4 && msg[0] == 'p' && msg[1] == 1:
		return string(msg[2:]), nil, ErrOldCreator
	case len(msg) != 4+ed25519.PublicKeySize || msg[0] != 'p' || msg[1] != joinVersion:
		return "", nil, errors.New("not an announcement of a private table")
	}
	return string(msg[2:4]), ed25519.PublicKey(bytes.Clone(msg[4:])), nil
}
