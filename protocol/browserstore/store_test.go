//go:build js && wasm

package browserstore

import (
	_ "embed"
	"errors"
	"os"
	"strings"
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

// TestAppendLater: appends without a sync are not waited for, yet land in order before any
// later call (a read, a sync append, a file written anew); one that fails stops every later
// one, so the file has no hole, and its error comes back at the appender's next call and at
// its Close; a seat taken over by another tab fails the old tab's appends with ErrLocked.
func TestAppendLater(t *testing.T) {
	b, a := heldFile(t, "seat-l", "log")
	want := ""
	for i := range 20 {
		p := string(rune('a' + i))
		if err := a.Append([]byte(p), false); err != nil {
			t.Fatalf("append %d: %v", i, err)
		}
		want += p
	}
	if got, err := b.ReadFile("log"); err != nil || string(got) != want {
		t.Fatalf("read after appends not waited for: %q, %v; want %q", got, err, want)
	}
	if err := a.Append([]byte("!"), true); err != nil {
		t.Fatal(err)
	}
	want += "!"
	if n, err := a.Size(); err != nil || n != int64(len(want)) {
		t.Fatalf("Size = %d, %v; want %d", n, err, len(want))
	}
	if err := a.Append([]byte("?"), false); err != nil {
		t.Fatal(err)
	}
	if err := b.WriteFile("log", []byte("anew")); err != nil { // a log written anew at a cut
		t.Fatal(err)
	}
	if got, err := b.ReadFile("log"); err != nil || string(got) != "anew" {
		t.Fatalf("the file written anew after an append not waited for: %q, %v", got, err)
	}
	if err := a.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	// A put the storage refuses (a full disk), in the middle of appends not waited for.
	a, err := b.OpenAppend("full")
	if err != nil {
		t.Fatal(err)
	}
	refuseChunksOf(t, 3) // the chunk "bad"
	other, err := b.OpenAppend("other")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"o", "k", "bad", "x", "y"} {
		if err := a.Append([]byte(p), false); err != nil {
			t.Fatalf("append %q returned %v before the failure could be known", p, err)
		}
		// An append to another file between each: each of these is a transaction of its
		// own, not one of the appends of a burst.
		if err := other.Append([]byte("-"), false); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := b.ReadFile("full"); err != nil || string(got) != "ok" {
		t.Fatalf("after a refused append: %q, %v; want %q (no chunk after the one refused)", got, err, "ok")
	}
	if got, err := b.ReadFile("other"); err != nil || string(got) != "-----" {
		t.Fatalf("the other file: %q, %v", got, err)
	}
	for _, call := range []func() error{
		func() error { return a.Append([]byte("z"), false) },
		func() error { return a.Append([]byte("z"), true) },
		func() error { _, err := a.Size(); return err },
		a.Close,
	} {
		if err := call(); err == nil || !strings.Contains(err.Error(), "full") {
			t.Fatalf("a call after the refused append: %v; want the storage's error", err)
		}
	}
	if got, _ := b.ReadFile("full"); string(got) != "ok" {
		t.Fatalf("after the failure was reported: %q; want %q", got, "ok")
	}
	// A new appender of the file starts afresh.
	a, err = b.OpenAppend("full")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Append([]byte("!"), false); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatalf("a new appender after a failed one: %v", err)
	}
	if got, _ := b.ReadFile("full"); string(got) != "ok!" {
		t.Fatalf("the new appender's file: %q; want %q", got, "ok!")
	}

	// A seat taken over by another tab while appends are on their way.
	old, tab := open(t, "seat-l2"), open(t, "seat-l2")
	if err := old.Lock(); err != nil {
		t.Fatal(err)
	}
	a, err = old.OpenAppend("log")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Append([]byte("mine"), false); err != nil {
		t.Fatal(err)
	}
	old.ask.Call("close")
	if err := tab.Lock(); err != nil {
		t.Fatal(err)
	}
	defer tab.Unlock()
	if err := a.Append([]byte("late"), false); err != nil {
		t.Fatalf("append after the take-over, before it could be known: %v", err)
	}
	if err := a.Close(); !errors.Is(err, protocol.ErrLocked) {
		t.Fatalf("Close after the take-over: %v, want ErrLocked", err)
	}
	if got, _ := tab.ReadFile("log"); string(got) != "mine" {
		t.Fatalf("the seat's log after the take-over: %q; want %q", got, "mine")
	}
}

// TestAppendBurst: appends not waited for that follow each other with no other call between
// are written in one transaction, which a failure drops whole; a call between them (here a
// read) starts a new one, which the appends after it do not join.
func TestAppendBurst(t *testing.T) {
	b, a := heldFile(t, "seat-burst", "log")
	refuseChunksOf(t, 3) // the chunk "bad"
	for _, p := range []string{"a", "b", "c", "d"} {
		if err := a.Append([]byte(p), false); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := b.ReadFile("log"); err != nil || string(got) != "abcd" {
		t.Fatalf("the burst: %q, %v", got, err)
	}
	for _, p := range []string{"e", "bad", "f"} {
		if err := a.Append([]byte(p), false); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Close(); err == nil || !strings.Contains(err.Error(), "full") {
		t.Fatalf("Close after a burst with a refused chunk: %v", err)
	}
	if got, err := b.ReadFile("log"); err != nil || string(got) != "abcd" {
		t.Fatalf("after the refused burst: %q, %v; want it dropped whole", got, err)
	}
}

// heldFile opens seat's backend, holds it for the test, and opens name for appending.
func heldFile(t *testing.T, seat, name string) (*Backend, protocol.Appender) {
	t.Helper()
	b := open(t, seat)
	if err := b.Lock(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Unlock() })
	a, err := b.OpenAppend(name)
	if err != nil {
		t.Fatal(err)
	}
	return b, a
}

// refuseChunksOf makes the fake storage refuse every put of a chunk of n bytes, as a full disk
// would, until the test ends.
func refuseChunksOf(t *testing.T, n int) {
	refuse := js.FuncOf(func(_ js.Value, args []js.Value) any {
		v := args[1]
		return v.Type() == js.TypeObject && v.Get("length").Int() == n
	})
	js.Global().Set("fakeIDBRefusePut", refuse)
	t.Cleanup(func() {
		js.Global().Delete("fakeIDBRefusePut")
		refuse.Release()
	})
}
