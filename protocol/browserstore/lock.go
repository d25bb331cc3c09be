//go:build js && wasm

package browserstore

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"syscall/js"
	"time"

	"corruption/protocol"
)

// channelName is the BroadcastChannel on which tabs ask whether a seat is held by a live tab.
const channelName = "corruption-seat-holders"

// answerWait is how long Lock waits for a live tab to say that it holds the seat. A live tab
// answers within a few milliseconds; a frozen one (a locked phone, a tab in the background)
// does not answer at all, and its seat is taken over.
const answerWait = 400 * time.Millisecond

// Open is the backend of the seat with the given id (letters, digits, '-' and '_'); it is not
// held until Lock.
func Open(seat string) (*Backend, error) {
	if seat == "" || len(seat) > 64 {
		return nil, fmt.Errorf("seat id %q: want 1 to 64 letters, digits, - or _", seat)
	}
	for _, r := range seat {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return nil, fmt.Errorf("seat id %q: want 1 to 64 letters, digits, - or _", seat)
		}
	}
	if _, err := theOps(); err != nil {
		return nil, err
	}
	return &Backend{seat: seat}, nil
}

// Lock takes the seat for this tab: it fails with protocol.ErrLocked when a live tab holds it.
func (b *Backend) Lock() error {
	b.mu.Lock()
	held := b.token != ""
	b.mu.Unlock()
	if held {
		return nil
	}
	if live, err := b.liveHolder(); err != nil {
		return err
	} else if live {
		return fmt.Errorf("seat %s is open in another tab of this browser: %w", b.seat, protocol.ErrLocked)
	}
	var t [16]byte
	rand.Read(t[:])
	tok := hex.EncodeToString(t[:])
	if _, err := call("claim", b.seat, tok); err != nil {
		return b.werr("lock", "owner", err)
	}
	b.mu.Lock()
	b.token = tok
	b.answer()
	b.mu.Unlock()
	return nil
}

// Unlock gives the seat up (if this tab still holds it).
func (b *Backend) Unlock() {
	b.mu.Lock()
	tok := b.token
	b.token = ""
	if !b.ask.IsUndefined() && !b.ask.IsNull() {
		b.ask.Call("close")
		b.ask = js.Undefined()
	}
	b.mu.Unlock()
	if tok != "" {
		call("release", b.seat, tok)
	}
}

// answer listens, while the seat is held, for tabs asking who holds it (b.mu held).
func (b *Backend) answer() {
	bc := js.Global().Get("BroadcastChannel")
	if bc.IsUndefined() {
		return
	}
	ch := bc.New(channelName)
	seat := b.seat
	var f js.Func
	f = js.FuncOf(func(_ js.Value, args []js.Value) any {
		d := args[0].Get("data")
		if d.Type() == js.TypeObject && d.Get("ask").Type() == js.TypeString && d.Get("ask").String() == seat {
			ch.Call("postMessage", map[string]any{"held": seat})
		}
		return nil
	})
	ch.Set("onmessage", f)
	b.ask = ch
}

// liveHolder asks the other tabs whether one holds the seat, and waits answerWait for an
// answer. Without BroadcastChannel (an old browser) there is no asking: the owner record alone
// keeps two tabs from both writing.
func (b *Backend) liveHolder() (bool, error) {
	owner, err := call("owner", b.seat)
	if err != nil {
		return false, b.werr("lock", "owner", err)
	}
	bc := js.Global().Get("BroadcastChannel")
	if owner.IsUndefined() || bc.IsUndefined() {
		return false, nil // nobody holds it, or nobody can be asked
	}
	ch := bc.New(channelName)
	defer ch.Call("close")
	heard := make(chan struct{}, 1)
	f := js.FuncOf(func(_ js.Value, args []js.Value) any {
		d := args[0].Get("data")
		if d.Type() == js.TypeObject && d.Get("held").Type() == js.TypeString && d.Get("held").String() == b.seat {
			select {
			case heard <- struct{}{}:
			default:
			}
		}
		return nil
	})
	defer f.Release()
	ch.Set("onmessage", f)
	ch.Call("postMessage", map[string]any{"ask": b.seat})
	select {
	case <-heard:
		return true, nil
	case <-time.After(answerWait):
		return false, nil
	}
}

// storage runs fn on the browser's localStorage or sessionStorage, where the browser allows
// it (private modes may throw).
func storage(area string, fn func(s js.Value)) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	s := js.Global().Get(area)
	if s.IsUndefined() || s.IsNull() {
		return false
	}
	fn(s)
	return true
}

// OpenSeat opens and locks this tab's seat at the laptop whose fingerprint is laptop: the one
// it had before a reload (sessionStorage), else the first of the browser's seats at that
// laptop that no live tab holds (localStorage lists them, by laptop), else a new one. A tab
// thus resumes its seat after a reload, a new tab whose old tab was closed or frozen resumes
// that seat, a second live tab gets a seat of its own (a new player), and a page that reaches
// another laptop at the same address never opens this laptop's seats.
func OpenSeat(laptop string) (*Backend, error) {
	if laptop == "" || strings.ContainsAny(laptop, ". \x00") {
		return nil, fmt.Errorf("browserstore: a laptop's fingerprint %q", laptop)
	}
	tab, list := "corruption.seat."+laptop, "corruption.seats."+laptop
	var cands []string
	storage("sessionStorage", func(s js.Value) {
		if v := s.Call("getItem", tab); v.Type() == js.TypeString {
			cands = append(cands, v.String())
		}
	})
	var known []string
	storage("localStorage", func(s js.Value) {
		if v := s.Call("getItem", list); v.Type() == js.TypeString {
			json.Unmarshal([]byte(v.String()), &known)
		}
	})
	cands = append(cands, known...)
	tried := map[string]bool{}
	for _, id := range cands {
		if tried[id] {
			continue
		}
		tried[id] = true
		b, err := Open(id)
		if err != nil {
			continue // a damaged list: skip it
		}
		if err := b.Lock(); err == nil {
			remember(tab, list, b.seat, known)
			return b, nil
		}
	}
	var r [8]byte
	rand.Read(r[:])
	b, err := Open(hex.EncodeToString(r[:]))
	if err != nil {
		return nil, err
	}
	if err := b.Lock(); err != nil {
		return nil, err
	}
	remember(tab, list, b.seat, known)
	return b, nil
}

// remember keeps seat as this tab's (under tab) and in the browser's list (under list).
func remember(tab, list, seat string, known []string) {
	storage("sessionStorage", func(s js.Value) { s.Call("setItem", tab, seat) })
	for _, k := range known {
		if k == seat {
			return
		}
	}
	b, _ := json.Marshal(append(known, seat))
	storage("localStorage", func(s js.Value) { s.Call("setItem", list, string(b)) })
}
