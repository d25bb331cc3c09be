//go:build js && wasm

package browserstore

import (
	_ "embed"
	"errors"
	"os"
	"syscall/js"
	"testing"

	"corruption/protocol"
	"corruption/protocol/backendtest"
)

// These tests run under Node (GOOS=js GOARCH=wasm, go_js_wasm_exec), with a fake of the
// browser's storage where Node has none (testdata/fakeidb.js): in a browser the page's tests
// use the real one.

//go:embed testdata/fakeidb.js
var fakeJS string

func TestMain(m *testing.M) {
	if js.Global().Get("indexedDB").IsUndefined() {
		js.Global().Get("Function").New(fakeJS).Invoke()
	}
	js.Global().Get("Function").New(Script).Invoke()
	os.Exit(m.Run())
}

func open(t *testing.T, seat string) *Backend {
	t.Helper()
	b, err := Open(seat)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBackend: the browser's backend keeps protocol.Backend's promises, and a Store works on
// it; two seats' files are apart.
func TestBackend(t *testing.T) {
	backendtest.Run(t, func() protocol.Backend { return open(t, "seat-a") })
	backendtest.Store(t, func() protocol.Backend { return open(t, "seat-b") })
	a, c := open(t, "seat-c"), open(t, "seat-c2")
	for _, b := range []*Backend{a, c} {
		if err := b.Lock(); err != nil {
			t.Fatal(err)
		}
		defer b.Unlock()
	}
	if err := a.WriteFile("tables/x/seed", []byte("a's")); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteFile("tables/x/seed", []byte("c's")); err != nil {
		t.Fatal(err)
	}
	if got, err := a.ReadFile("tables/x/seed"); err != nil || string(got) != "a's" {
		t.Fatalf("seat c's write reached seat a's file: %q, %v", got, err)
	}
	if names, err := c.List("tables/x"); err != nil || len(names) != 1 {
		t.Fatalf("List in seat c: %q, %v", names, err)
	}
}

// TestTakeOver: a seat whose tab no longer answers (frozen, closed) is taken over by a new
// tab, and the old tab's next write fails with ErrLocked: two tabs never both write it. A tab
// that does not hold the seat cannot write at all.
func TestTakeOver(t *testing.T) {
	old, tab := open(t, "seat-t"), open(t, "seat-t")
	if err := tab.WriteFile("x", []byte("1")); !errors.Is(err, protocol.ErrLocked) {
		t.Fatalf("a write without the seat: %v, want ErrLocked", err)
	}
	if err := old.Lock(); err != nil {
		t.Fatal(err)
	}
	if err := tab.Lock(); !errors.Is(err, protocol.ErrLocked) {
		t.Fatalf("Lock while a live tab holds the seat: %v, want ErrLocked", err)
	}
	old.ask.Call("close") // the old tab freezes: it no longer answers
	if err := tab.Lock(); err != nil {
		t.Fatalf("Lock of a seat whose tab is frozen: %v", err)
	}
	defer tab.Unlock()
	if err := old.WriteFile("x", []byte("old")); !errors.Is(err, protocol.ErrLocked) {
		t.Fatalf("the old tab's write after the take-over: %v, want ErrLocked", err)
	}
	if err := tab.WriteFile("x", []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got, _ := tab.ReadFile("x"); string(got) != "new" {
		t.Fatalf("x = %q", got)
	}
}

// TestOpenSeat: a tab keeps its seat across a reload; a second live tab gets a seat of its own;
// a tab opened once the first is gone takes the first's seat back; a page that reaches another
// laptop (another fingerprint) at the same address never opens the first laptop's seats.
func TestOpenSeat(t *testing.T) {
	const laptop, other = "k3mx-2q7f", "zz9a-0b1c"
	first, err := OpenSeat(laptop)
	if err != nil {
		t.Fatal(err)
	}
	first.Unlock() // a reload: the tab lets go and comes back
	again, err := OpenSeat(laptop)
	if err != nil || again.Seat() != first.Seat() {
		t.Fatalf("after a reload: seat %v, %v; want %s", again, err, first.Seat())
	}
	js.Global().Get("sessionStorage").Call("removeItem", "corruption.seat."+laptop) // another tab
	second, err := OpenSeat(laptop)
	if err != nil || second.Seat() == first.Seat() {
		t.Fatalf("a second live tab: seat %v, %v; want a new one", second, err)
	}
	again.Unlock() // the first tab is closed
	js.Global().Get("sessionStorage").Call("removeItem", "corruption.seat."+laptop)
	elsewhere, err := OpenSeat(other) // another machine at the same address, in this very tab
	if err != nil || elsewhere.Seat() == first.Seat() || elsewhere.Seat() == second.Seat() {
		t.Fatalf("another laptop's page: seat %v, %v; want a seat of its own, not %s or %s", elsewhere, err, first.Seat(), second.Seat())
	}
	elsewhere.Unlock()
	third, err := OpenSeat(laptop)
	if err != nil || third.Seat() != first.Seat() {
		t.Fatalf("a tab opened once the first closed: seat %v, %v; want %s", third, err, first.Seat())
	}
	third.Unlock()
	second.Unlock()
	if _, err := OpenSeat(""); err == nil {
		t.Error("a seat opened for no laptop")
	}
}
